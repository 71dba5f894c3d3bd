"""The board's main loop: a camera that fails and comes back, clean stops, resuming."""

from __future__ import annotations

import contextlib
import logging
import os
import queue
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path
from typing import IO, Any

import numpy as np
import pytest
from gpiozero.pins.mock import MockFactory, MockPWMPin

from controller import BoardReading, Color, Game, Variant, parse_position, start_position
from firmware.app import TROUBLE_LAYER, BoardApp, StopFlag
from firmware.config import Config, load_config
from firmware.journal import Journal, SessionState
from tests.conftest import FakeClock
from vision.errors import CameraLost, CameraUnavailable
from vision.render import Scene, render


class FlakyCameras:
    """Opens cameras from a script: 'ok' gives a camera that fails after ``lives`` frames."""

    def __init__(self, script: list[str], board: Any, lives: int = 1000, later: Any = None) -> None:
        self.script = script
        self.board = board
        self.later = later if later is not None else board
        self.lives = lives
        self.opened = 0

    def __call__(self) -> Any:
        outcome = self.script[min(self.opened, len(self.script) - 1)]
        self.opened += 1
        if outcome == "fail":
            raise CameraUnavailable("no camera on /dev/video0")
        # The first camera calibrates (it must see the start); later ones see ``later``.
        board = self.board if self.opened == 1 else self.later
        return _Camera(board, self.lives if outcome == "ok-then-lost" else 10_000)


class _Camera:
    def __init__(self, board: Any, lives: int) -> None:
        self.frame: np.ndarray = render(board, Scene(noise=1.0))
        self.lives = lives

    def read(self) -> np.ndarray:
        self.lives -= 1
        if self.lives < 0:
            raise CameraLost("the camera stopped")
        return self.frame

    def close(self) -> None:
        pass


def _config(tmp_path: Path) -> Config:
    path = tmp_path / "board.toml"
    path.write_text('[camera]\nsource = "synthetic"\n[journal]\npath = "journal.json"\n')
    return load_config(path)


@pytest.mark.slow
def test_camera_that_fails_and_comes_back(tmp_path: Path) -> None:
    clock = FakeClock()
    cameras = FlakyCameras(["ok", "ok-then-lost", "fail", "fail", "ok"], start_position(), lives=5)
    app = BoardApp(_config(tmp_path), MockFactory(pin_class=MockPWMPin), clock, cameras)
    try:
        for _ in range(30):
            app.step()
            clock.now += 0.1
            if TROUBLE_LAYER in app.hardware.scene.layer_names:
                break
        assert TROUBLE_LAYER in app.hardware.scene.layer_names, "the camera loss is shown"
        for _ in range(30):
            app.step()
            clock.now += 0.1
        assert cameras.opened == 5
        assert TROUBLE_LAYER not in app.hardware.scene.layer_names
        assert app.session.referee.settled, "the board is read again after the camera returns"
    finally:
        app.close()


@pytest.mark.slow
def test_resumes_the_journaled_game(tmp_path: Path) -> None:
    game = Game()
    game.play("b2-c3")
    Journal(tmp_path / "journal.json").save(SessionState(game, None, 5))
    clock = FakeClock()
    cameras = FlakyCameras(["ok"], start_position(), later=game.position)
    app = BoardApp(_config(tmp_path), MockFactory(pin_class=MockPWMPin), clock, cameras)
    try:
        for _ in range(10):
            app.step()
            clock.now += 0.1
        referee = app.session.referee
        assert referee.settled and [m.name for m in referee.current.moves] == ["b2-c3"]
    finally:
        app.close()


class StderrWatch:
    """The stderr of a process, read by a thread so a process gone silent cannot hang a test."""

    def __init__(self, process: subprocess.Popen[str]) -> None:
        assert process.stderr is not None
        self._lines: queue.Queue[str | None] = queue.Queue()
        self.seen: list[str] = []
        self._reader = threading.Thread(target=self._pump, args=(process.stderr,), daemon=True)
        self._reader.start()

    def _pump(self, stream: IO[str]) -> None:
        for line in stream:
            self._lines.put(line)
        self._lines.put(None)  # the process closed its stderr: it has ended

    def wait_for(self, wanted: str, seconds: float) -> None:
        """Read until a line contains ``wanted``; AssertionError after ``seconds`` or at the end."""
        deadline = time.monotonic() + seconds
        while not any(wanted in line for line in self.seen):
            try:
                line = self._lines.get(timeout=max(0.0, deadline - time.monotonic()))
            except queue.Empty:
                raise AssertionError(f"no {wanted!r} within {seconds} s: {self.text()}") from None
            if line is None:
                raise AssertionError(f"the process ended before {wanted!r}: {self.text()}")
            self.seen.append(line)

    def text(self) -> str:
        """Everything read so far."""
        return "".join(self.seen)


def kill_group(process: subprocess.Popen[str]) -> None:
    """Kill the process and anything it started, then reap it (it leads its own group).

    The group goes even when the process has ended: a child it left would still be in it.
    """
    with contextlib.suppress(ProcessLookupError):
        os.killpg(process.pid, signal.SIGKILL)
    process.wait(timeout=30)


@pytest.mark.slow
def test_sigterm_stops_the_board_cleanly(tmp_path: Path) -> None:
    config = tmp_path / "board.toml"
    config.write_text('[camera]\nsource = "synthetic"\n[journal]\npath = "journal.json"\n')
    process = subprocess.Popen(
        [sys.executable, "-m", "firmware.cli", "run", "--config", str(config)],
        stderr=subprocess.PIPE,
        text=True,
        start_new_session=True,  # its own process group, so that all of it can be killed
    )
    try:
        stderr = StderrWatch(process)
        stderr.wait_for("board ready", seconds=120)
        process.send_signal(signal.SIGTERM)
        stderr.wait_for("stopping (signal 15)", seconds=60)
        assert process.wait(timeout=60) == 0
    finally:
        kill_group(process)


def test_a_signal_during_the_loops_wait_still_stops_it() -> None:
    stop = threading.Event()
    handler = StopFlag(stop)

    def interrupted_wait() -> None:
        # A signal handler runs on the thread it interrupts; in stop.wait() that thread
        # may hold the event's lock, as here.
        with stop._cond:  # type: ignore[attr-defined]
            handler(signal.SIGTERM, None)

    waiter = threading.Thread(target=interrupted_wait, daemon=True)
    waiter.start()
    waiter.join(timeout=30)
    assert not waiter.is_alive(), "the handler waits for a lock its own thread holds"
    assert stop.wait(timeout=30)


@pytest.mark.slow
def test_stopping_leaves_every_lamp_dark(tmp_path: Path) -> None:
    from firmware.simulator.lamps import LampWatch
    from hardware.config import HardwareConfig

    # A saved game the board does not show yet: the lamps light the points to put right.
    game = Game()
    game.play("b2-c3")
    Journal(tmp_path / "journal.json").save(SessionState(game, None, 5))
    factory = MockFactory(pin_class=MockPWMPin)
    watch = LampWatch(factory, HardwareConfig(board_size=6))  # reads the chain's pins
    app = BoardApp(_config(tmp_path), factory, camera=FlakyCameras(["ok"], start_position()))
    runner = threading.Thread(target=app.run)
    runner.start()
    try:
        deadline = time.monotonic() + 30
        while not watch.lit() and time.monotonic() < deadline:
            time.sleep(0.05)
        assert {"b2", "c3"} <= watch.lit(), "the pins light the points to fix"
    finally:
        app.stop.set()
        runner.join(timeout=30)
    assert not runner.is_alive()
    assert watch.lit() == frozenset()


@pytest.mark.slow
def test_the_board_follows_the_folder_of_pictures_its_config_names(tmp_path: Path) -> None:
    # No camera handed in: the board opens the one its [camera] section describes.
    import cv2

    from vision.calibrate import calibrate, save_calibration
    from vision.config import VisionConfig

    game = Game()
    start = game.position
    move = game.play(game.legal_moves()[0])
    frames = tmp_path / "frames"
    frames.mkdir()
    for number, position in enumerate([start] * 5 + [game.position] * 6):
        cv2.imwrite(str(frames / f"{number:02d}.png"), render(position, Scene(seed=number)))
    save_calibration(calibrate(VisionConfig(), render(start, Scene())), tmp_path / "cal.json")
    path = tmp_path / "board.toml"
    path.write_text('[camera]\nsource = "folder"\npath = "frames"\ncalibration = "cal.json"\n'
                    '[journal]\npath = "journal.json"\n')
    clock = FakeClock()
    app = BoardApp(load_config(path), MockFactory(pin_class=MockPWMPin), clock)
    try:
        for _ in range(11):
            app.step()
            clock.now += 0.1
        assert app.session.referee.current.moves == [move]
    finally:
        app.close()


@pytest.mark.slow
def test_a_saved_game_of_another_variant_is_kept_aside(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    game = Game(Variant.SEPUR)
    game.play(game.legal_moves()[0])
    Journal(tmp_path / "journal.json").save(SessionState(game, None, 5))
    cameras = FlakyCameras(["ok"], start_position())
    app = BoardApp(_config(tmp_path), MockFactory(pin_class=MockPWMPin), FakeClock(), cameras)
    try:
        assert app.session.referee.variant is Variant.STANDARD
        assert not app.session.referee.current.moves
    finally:
        app.close()
    aside = list(tmp_path.glob("journal.json.*.sepur"))
    assert len(aside) == 1 and "the saved game is sepur" in caplog.text


@pytest.mark.slow
def test_a_variant_chosen_at_the_board_resumes_after_a_power_cut(tmp_path: Path) -> None:
    # The config says standard; the players chose gonu (same board) and made a move.
    game = Game(Variant.GONU)
    game.play("b2-b3")
    Journal(tmp_path / "journal.json").save(SessionState(game, Color.BLACK, 3))
    cameras = FlakyCameras(["ok"], start_position())
    app = BoardApp(_config(tmp_path), MockFactory(pin_class=MockPWMPin), FakeClock(), cameras)
    try:
        referee = app.session.referee
        assert referee.variant is Variant.GONU
        assert [move.name for move in referee.current.moves] == ["b2-b3"]
        assert (referee.computer, referee.level) == (Color.BLACK, 3)
    finally:
        app.close()
    assert not list(tmp_path.glob("journal.json.*.gonu")), "nothing set aside"


@pytest.mark.slow
def test_a_finished_game_is_not_archived_again_after_a_restart(tmp_path: Path) -> None:
    clock = FakeClock()
    start = parse_position("3b2/6/2r3/6/6/6 r")
    end = parse_position("3r2/6/6/6/6/6 b")
    camera = _Camera(start, 10_000)  # one camera, whose view the test changes

    def cameras() -> Any:
        # The first camera of each start calibrates: it must see the start position.
        opened = iter([_Camera(start_position(), 10_000)])
        return lambda: next(opened, camera)

    def run_for(app: BoardApp, frames: int) -> None:
        for _ in range(frames):
            app.step()
            clock.now += 0.1

    Journal(tmp_path / "journal.json").save(SessionState(Game(start=start), None, 5))
    first = BoardApp(_config(tmp_path), MockFactory(pin_class=MockPWMPin), clock, cameras())
    try:
        run_for(first, 10)
        camera.frame = render(end, Scene(noise=1.0))  # red captures the last black piece
        run_for(first, 10)
        assert first.session.referee.current.is_over
    finally:
        first.close()
    assert len(list((tmp_path / "games").iterdir())) == 1
    # The power comes back before anyone pressed "new": the same finished game.
    second = BoardApp(_config(tmp_path), MockFactory(pin_class=MockPWMPin), clock, cameras())
    try:
        run_for(second, 10)
        referee = second.session.referee
        assert referee.current.is_over and referee.settled
    finally:
        second.close()
    assert len(list((tmp_path / "games").iterdir())) == 1, "archived once, not at every start"


@pytest.mark.slow
def test_wiring_that_cannot_be_opened_is_one_line(tmp_path: Path) -> None:
    config = tmp_path / "board.toml"
    config.write_text('[hardware]\ndriver = "shift-register"\n[journal]\npath = "j.json"\n')
    environment = {**os.environ, "GPIOZERO_PIN_FACTORY": "no-such-factory"}
    result = subprocess.run(
        [sys.executable, "-m", "firmware.cli", "run", "--config", str(config)],
        capture_output=True, text=True, timeout=60, env=environment,
    )
    assert result.returncode == 2
    assert result.stderr.count("\n") == 1, result.stderr
    assert "cannot open the pins of the [hardware] section" in result.stderr


@pytest.mark.slow
def test_a_piece_between_points_is_lit_once_the_doubt_lasts(tmp_path: Path) -> None:
    from controller.geometry import parse_point
    from firmware.app import DOUBT_LAYER, DOUBT_SECONDS
    from vision.reader import FrameReading, ReadStatus

    clock = FakeClock()
    app = BoardApp(_config(tmp_path), MockFactory(pin_class=MockPWMPin), clock,
                   FlakyCameras(["ok"], start_position()))
    try:
        between = FrameReading(ReadStatus.DOUBTFUL, None, doubtful=(parse_point("c3"),))
        app.show_doubt(between, 0.0)
        assert DOUBT_LAYER not in app.hardware.scene.layer_names, "a passing hand is not doubt"
        app.show_doubt(between, DOUBT_SECONDS + 0.1)
        assert DOUBT_LAYER in app.hardware.scene.layer_names
        app.show_doubt(FrameReading(ReadStatus.OK, None), DOUBT_SECONDS + 0.2)
        assert DOUBT_LAYER not in app.hardware.scene.layer_names, "centred: the lamp goes out"
    finally:
        app.close()


@pytest.mark.slow
def test_a_piece_read_from_the_game_is_not_lit_as_doubtful(
        tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    # A glossy top on c3 that the colours leave red or black, after c2-c3: only that move
    # fits, so the board is read and there is nothing for the player to put right.
    from firmware.app import DOUBT_LAYER, DOUBT_SECONDS
    from tests.doubtful_frames import doubtful
    from vision.colour import PointLabel

    clock = FakeClock()
    app = BoardApp(_config(tmp_path), MockFactory(pin_class=MockPWMPin), clock,
                   FlakyCameras(["ok"], start_position()))
    try:
        for _ in range(5):
            app.step()
            clock.now += 0.1
        assert app.session.referee.settled
        after = BoardReading.of(parse_position("bbbbbb/bbbbbb/6/2r3/rr1rrr/rrrrrr b"))
        glared = doubtful(after, {"c3": (PointLabel.BLACK, PointLabel.RED)})
        app.show_doubt(glared, 0.0)
        app.show_doubt(glared, DOUBT_SECONDS + 0.1)
        assert DOUBT_LAYER not in app.hardware.scene.layer_names
        # The same doubt where no expected board fits (c2 still red) is lit.
        unfitted = doubtful(BoardReading.of(start_position()), {"c3": (PointLabel.BLACK,
                                                                      PointLabel.RED)})
        with caplog.at_level(logging.WARNING, logger="firmware.app"):
            app.show_doubt(unfitted, DOUBT_SECONDS + 0.2)
            app.show_doubt(unfitted, 2 * DOUBT_SECONDS + 0.3)
            app.show_doubt(unfitted, 2 * DOUBT_SECONDS + 0.4)
        assert DOUBT_LAYER in app.hardware.scene.layer_names
        # The log says what the lamps cannot: glare, not a piece off its point; once.
        told = [record.getMessage() for record in caplog.records
                if record.getMessage().startswith("the board waits")]
        assert told == ["the board waits: unsure of c3 (red or black? glare on glossy "
                        "tops, or uneven light)"]
    finally:
        app.close()


def _engine_threads() -> set[threading.Thread]:
    return {thread for thread in threading.enumerate() if thread.name == "engine"}


@pytest.mark.slow
def test_a_corrupt_calibration_file_at_start_leaves_no_engine_and_no_pins_taken(
    tmp_path: Path,
) -> None:
    from vision.errors import BadCalibration

    (tmp_path / "calibration.json").write_text('{"format": "surakarta-calib', encoding="utf-8")
    path = tmp_path / "board.toml"
    path.write_text('[camera]\nsource = "synthetic"\ncalibration = "calibration.json"\n'
                    '[journal]\npath = "journal.json"\n')
    saved = Journal(tmp_path / "journal.json")
    saved.save(SessionState(Game(), None, 5))  # a game to resume: the start locks the journal
    saved.close()
    factory = MockFactory(pin_class=MockPWMPin)
    before = _engine_threads()
    with pytest.raises(BadCalibration, match="corrupt calibration file"):
        BoardApp(load_config(path), factory, FakeClock(), FlakyCameras(["ok"], start_position()))
    assert not {t for t in _engine_threads() - before if t.is_alive()}, "the engine was stopped"
    # The pins and the journal were given back: a board opens on them at once.
    app = BoardApp(_config(tmp_path), factory, FakeClock(), FlakyCameras(["ok"], start_position()))
    app.close()



@pytest.mark.slow
def test_a_match_is_scored_without_changing_the_config(tmp_path: Path) -> None:
    path = tmp_path / "board.toml"
    path.write_text('[camera]\nsource = "synthetic"\n[journal]\npath = "journal.json"\n'
                    '[match]\nplayers = ["Ana", "Ben"]\ngames = 2\n')
    config = load_config(path)
    assert config.match is not None
    app = BoardApp(config, MockFactory(pin_class=MockPWMPin), FakeClock(),
                   FlakyCameras(["ok"], start_position()))
    try:
        referee = app.session.referee
        assert referee.match is not None and referee.match is not config.match
        referee.match.record(referee.current.end_by_agreement())
        assert len(referee.match.games) == 1
    finally:
        app.close()
    assert config.match.games == [], "the config is as it was read"
