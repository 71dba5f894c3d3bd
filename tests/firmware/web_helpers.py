"""A simulated board serving its companion page on a loopback port, for the web tests."""

from __future__ import annotations

import http.client
import json
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from gpiozero.pins.mock import MockFactory, MockPWMPin

from controller.decisions import BoardSeen
from controller.engine.service import ImmediateEngine
from controller.movegen import make_move
from controller.reading import BoardReading
from controller.referee import Referee
from controller.variants import Variant
from firmware.board import BoardSession, Outputs
from firmware.journal import Journal
from firmware.simulation import Simulation, SimulationOptions, simulated_hardware
from firmware.web.link import BoardLink
from firmware.web.token import TOKEN_HEADER
from hardware.build import build_hardware

if TYPE_CHECKING:
    from firmware.web.server import WebServer

TOKEN = "test-token-0123456789abcdef"
LOOP_SECONDS = 0.02
"""Real time between passes of the test board's loop."""
WAIT_SECONDS = 5.0
"""Longest a test waits for the board to show something."""


class CameraFreeBoard:
    """A board session on mock pins whose camera is perfect and instant: tests of the web
    layer need the referee, the lamps and the journal, not the vision (that is slow)."""

    def __init__(self, journal: Journal, variant: Variant = Variant.STANDARD) -> None:
        self.t = 0.0
        self.journal = journal
        self.hardware = build_hardware(
            simulated_hardware(variant), MockFactory(pin_class=MockPWMPin),
            clock=lambda: self.t, sleep=lambda seconds: None)
        self.referee = Referee(variant)
        self.session = BoardSession(self.referee, Outputs(
            layout=self.hardware.layout, scene=self.hardware.scene,
            engine=ImmediateEngine(2), journal=journal))
        self.session.start(self.t)
        self.show(BoardReading.of(self.referee.position))

    def show(self, reading: BoardReading) -> None:
        """The camera sees ``reading`` (already stable)."""
        self.session.feed(BoardSeen(reading), self.t)

    def move(self, name: str) -> None:
        """Make the move ``name`` on the board, as the camera would see it."""
        position = self.referee.position
        self.show(BoardReading.of(make_move(position, self.referee.current.parse_move(name))))

    def tick(self) -> None:
        self.t += LOOP_SECONDS
        self.session.poll_engine(self.t)

    def close(self) -> None:
        self.hardware.close()


@dataclass
class ServedBoard:
    """A board, its link and its server, with the board's loop on a thread."""

    board: Any
    """A ``CameraFreeBoard``, or a ``Simulation`` for the tests in a browser."""
    link: BoardLink
    server: WebServer
    lock: threading.Lock

    @property
    def port(self) -> int:
        return self.server.port

    def request(self, method: str, path: str, body: bytes | str | None = None,
                headers: dict[str, str] | None = None, *,
                read: bool = True) -> tuple[int, bytes]:
        """One request on a fresh connection; the status and the body (not read when
        ``read`` is False: an event stream never ends)."""
        connection = http.client.HTTPConnection("127.0.0.1", self.port, timeout=WAIT_SECONDS)
        try:
            connection.request(method, path, body=body, headers=headers or {})
            response = connection.getresponse()
            return response.status, response.read() if read else b""
        finally:
            connection.close()

    def state(self) -> dict[str, Any]:
        status, body = self.request("GET", "/api/state")
        assert status == 200, body
        return json.loads(body)  # type: ignore[no-any-return]

    def act(self, name: str, value: object = None, token: str | None = TOKEN,
            headers: dict[str, str] | None = None) -> tuple[int, dict[str, Any]]:
        sent = {**({TOKEN_HEADER: token} if token is not None else {}), **(headers or {})}
        body = "" if value is None else json.dumps({"value": value})
        status, text = self.request("POST", f"/api/action/{name}", body, sent)
        return status, json.loads(text)

    def wait_for(self, check: Any, what: str) -> dict[str, Any]:
        """The first state for which ``check(state)`` holds; fails after WAIT_SECONDS."""
        end = time.monotonic() + WAIT_SECONDS
        state: dict[str, Any] = {}
        while time.monotonic() < end:
            status, body = self.request("GET", "/api/state")
            if status == 200:
                state = json.loads(body)
                if check(state):
                    return state
            time.sleep(0.02)
        raise AssertionError(f"the page's state never showed {what}: {state}")


def simulated_board(journal: Journal, pin_factory: MockFactory | None = None) -> Simulation:
    """A whole simulation: rendered camera, vision, referee, lamps on mock pins."""
    return Simulation(lambda event: None, SimulationOptions(hands=False), journal=journal,
                      pin_factory=pin_factory)


@contextmanager
def served_board(tmp_path: Path, board: Any = None,
                 clock: Callable[[], float] = time.monotonic) -> Iterator[ServedBoard]:
    """A board (camera-free unless given) with a journal in ``tmp_path``, serving its page
    on 127.0.0.1 while its loop runs on a thread; ``clock`` times the link's health
    figures (a test moves a FakeClock rather than wait for them)."""
    from firmware.web.server import WebServer  # here: the benchmark measures the board without

    simulation = board or CameraFreeBoard(Journal(tmp_path / "journal.json"))
    # A simulation's page serves its pipeline, as the pipeline service does in the window.
    link = BoardLink(getattr(simulation, "pipeline", simulation), clock=clock)
    server = WebServer(link, TOKEN, "127.0.0.1", 0)
    stop = threading.Event()
    lock = threading.Lock()

    def loop() -> None:
        while not stop.is_set():
            with lock:
                simulation.tick()
                link.pump(simulation.t)
            stop.wait(LOOP_SECONDS)

    thread = threading.Thread(target=loop, name="test-board", daemon=True)
    server.start()
    thread.start()
    board = ServedBoard(simulation, link, server, lock)
    try:
        # The health figures follow the first state in the same pass of the loop.
        board.wait_for(lambda s: s["status"]["ready"] and s["health"] is not None,
                       "the board ready")
        yield board
    finally:
        stop.set()
        thread.join(WAIT_SECONDS)
        server.stop()
        simulation.close()
