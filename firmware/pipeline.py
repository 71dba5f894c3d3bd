"""The board's pipeline, built in one place for the Pi, the scripted simulation and the window.

A pipeline is the hardware (lamps, buttons, buzzer), the engine service, the
calibrated reader, the stabiliser, the referee and the session that carries out
the referee's decisions. ``open_pipeline`` opens its parts in order under an
``ExitStack``: when a step fails part-way (a corrupt calibration file, a camera
that gives no frame to calibrate from), everything opened before it is closed
again, so no engine thread is left running and no pin stays reserved. The callers
differ only in the ``PipelineParts`` they pass in:

- ``firmware.app.BoardApp``: the configured pins, a background engine, the
  journal, the calibration file (or the first camera frame);
- ``firmware.simulation.Simulation`` (``surakarta scenario``, the soak benchmark):
  mock pins, a fixed-depth engine, a calibration from a rendered start;
- the simulator window: the simulation's parts, with its own mock pins (watched by
  the chain model) and a background engine.

Extending a pipeline (a companion display, a remote control):

- ``PipelineParts.observers`` are called with every decision of the referee, typed,
  on the loop's thread, after the lamps, sounds and journal have carried it out;
- ``PipelineParts.events`` receives the same decisions as JSON-ready dicts with the
  time (``firmware.board.event_of``), for writers of event streams;
- ``PipelineParts.services`` are opened last, each with the pipeline, and closed
  first: a service is a callable ``service(pipeline) -> context manager``. A service
  that takes input from another thread hands it in with ``pipeline.submit(input)``
  (thread-safe); the loop feeds it to the referee at its next step, in order with
  the buttons. A remote control changes the level, the mode, the variant or the
  match this way too (``SetLevel``, ``SetMode``, ``SetVariant``, ``SetMatch``), so
  the change is journaled like a move.
"""

from __future__ import annotations

import queue
from collections.abc import Callable, Sequence
from contextlib import AbstractContextManager, ExitStack
from dataclasses import dataclass

from controller.decisions import BoardSeen, Button, Input, Pressed
from controller.engine.service import EngineService
from controller.referee import Referee
from firmware.board import BoardSession, DecisionObserver, EventSink, Outputs
from firmware.journal import Journal
from hardware.build import Hardware
from hardware.buttons import PressHandler
from vision.calibrate import Calibration
from vision.reader import BoardReader, FrameReading
from vision.stabiliser import Stabiliser

Service = Callable[["Pipeline"], AbstractContextManager[object]]
"""Something that runs beside the pipeline: opened with it, closed before it."""


@dataclass(frozen=True)
class PipelineParts:
    """What differs between the Pi, the scripted simulation and the window."""

    open_hardware: Callable[[PressHandler], Hardware]
    """Opens the lamps, buttons and buzzer; presses go to the handler given."""
    open_engine: Callable[[], EngineService]
    """Starts the engine service."""
    referee: Callable[[], Referee]
    """The referee to start with (a new game, or the journaled one)."""
    calibration: Callable[[], Calibration]
    """Loads or learns the camera's calibration (may fail: everything opened is closed)."""
    hold_seconds: float
    """The stabiliser's hold time."""
    journal: Journal | None = None
    """Where the game is saved after every change."""
    immediate_sound: bool = False
    """Play the buzzer's notes on the caller's thread (simulated time) instead of its own."""
    events: EventSink | None = None
    """Receives an event dict for each thing that happened."""
    observers: Sequence[DecisionObserver] = ()
    """Receive every decision, typed."""
    services: Sequence[Service] = ()
    """Opened last with the pipeline, closed first."""


class Pipeline:
    """A running pipeline; ``close`` (or leaving its ``with``) closes what was opened."""

    def __init__(
        self,
        hardware: Hardware,
        engine: EngineService,
        session: BoardSession,
        calibration: Calibration,
        hold_seconds: float,
        inputs: queue.Queue[Input],
    ) -> None:
        self.hardware = hardware
        """The lamps, buttons and buzzer."""
        self.engine = engine
        """The engine service."""
        self.session = session
        """The referee wired to its outputs."""
        self.calibration = calibration
        """The camera's calibration."""
        self.reader = BoardReader(calibration)
        """Camera frames to board readings."""
        self.stabiliser = Stabiliser(hold_seconds)
        """Readings that hold still long enough."""
        self._inputs = inputs
        self._opened = ExitStack()

    @property
    def referee(self) -> Referee:
        """The referee of the session."""
        return self.session.referee

    def see(self, now: float, frame: FrameReading) -> None:
        """Hand a frame's reading to the stabiliser, with the boards the referee expects
        (a doubtful frame that fits one of them counts as it), and a board that has just
        held still to the referee."""
        stable = self.stabiliser.feed(now, frame, self.referee.expected_boards())
        if stable is not None:
            self.session.feed(BoardSeen(stable), now)

    def submit(self, event: Input) -> None:
        """Hand an input to the referee at the loop's next step; any thread may call it."""
        self._inputs.put(event)

    def deliver(self, now: float) -> None:
        """Feed the engine's answers and the inputs waiting (button presses first among
        them, in the order they came), each followed by the answers it made ready."""
        self.session.poll_engine(now)
        while True:
            try:
                event = self._inputs.get_nowait()
            except queue.Empty:
                return
            self.session.feed(event, now)
            self.session.poll_engine(now)

    def close(self) -> None:
        """Close the services, stop the engine, darken the lamps, free the pins."""
        self._opened.close()

    def __enter__(self) -> Pipeline:
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.close()


def open_pipeline(parts: PipelineParts) -> Pipeline:
    """Open every part in order; on a failure, close what was opened and raise."""
    inputs: queue.Queue[Input] = queue.Queue()

    def pressed(name: Button) -> None:
        inputs.put(Pressed(name))

    with ExitStack() as opened:
        hardware = parts.open_hardware(pressed)
        opened.callback(hardware.close)
        engine = parts.open_engine()
        opened.callback(engine.close)
        buzzer = hardware.buzzer
        play_sound = None if buzzer is None else (
            buzzer.play_now if parts.immediate_sound else buzzer.play
        )
        outputs = Outputs(
            layout=hardware.layout,
            scene=hardware.scene,
            engine=engine,
            play_sound=play_sound,
            journal=parts.journal,
            events=parts.events,
            observers=tuple(parts.observers),
        )
        session = BoardSession(parts.referee(), outputs)
        pipeline = Pipeline(
            hardware, engine, session, parts.calibration(), parts.hold_seconds, inputs
        )
        for service in parts.services:
            opened.enter_context(service(pipeline))
        pipeline._opened = opened.pop_all()
    return pipeline
