"""Faults a running board meets: power cuts, bad cameras, full disks, signals, long runs."""

from __future__ import annotations

import itertools
import json
import os
import random
import tempfile
from collections.abc import Callable
from dataclasses import replace
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from controller import Game, legal_moves, make_move
from controller.record import read_record
from firmware.app import TROUBLE_LAYER, BoardApp
from firmware.config import Config, load_config
from firmware.journal import Journal, SessionState
from hardware.mock import RECENT_STATES, mock_factory
from tests.conftest import FakeClock, real_calibration_text, rendered
from vision.errors import BadImage, CameraLost, CameraUnavailable
from vision.render import Scene, render


def test_mock_pins_forget_old_changes_so_a_pc_run_does_not_grow() -> None:
    factory = mock_factory()
    try:
        pin = factory.pin(17)
        pin.function = "output"
        for change in range(10 * RECENT_STATES):
            pin.state = change % 2
        assert len(pin.states) <= RECENT_STATES
        assert [state.state for state in pin.states[-2:]] == [0.0, 1.0], "the latest are kept"
    finally:
        factory.close()


class PowerCut(BaseException):
    """The power went: nothing after this runs (not even cleanup code)."""


class Disk:
    """Counts the journal's steps that touch the disk; cuts the power before step ``cut_at``."""

    def __init__(self, monkeypatch: pytest.MonkeyPatch) -> None:
        self.steps = 0
        self.cut_at: int | None = None
        self.off = False
        for owner, name in ((os, "replace"), (tempfile, "mkstemp"), (Path, "unlink"),
                            (Path, "write_text")):
            monkeypatch.setattr(owner, name, self._wrap(getattr(owner, name)))
        # A step like the others, but not a real flush: what is tested is the order of
        # the steps, and a thousand real flushes would make the test slow.
        monkeypatch.setattr(os, "fsync", self._wrap(lambda handle: None))

    def _wrap(self, function: Any) -> Any:
        def step(*args: Any, **kwargs: Any) -> Any:
            if self.off:
                raise PowerCut
            self.steps += 1
            if self.cut_at is not None and self.steps >= self.cut_at:
                self.off = True
                raise PowerCut
            return function(*args, **kwargs)

        return step

    def restore(self) -> None:
        self.off, self.cut_at, self.steps = False, None, 0


def _session_actions(seed: int) -> list[str]:
    """What a board saves after, in order: moves to a finished game, an ending taken back
    and made again, then the first move of the next game."""
    rng = random.Random(seed)
    game = Game()
    actions: list[str] = []
    for _ in range(rng.randrange(12, 30)):
        if game.is_over:
            break
        actions.append(game.play(rng.choice(game.legal_moves())).name)
    if not game.is_over:
        actions.append("agree")
        actions += ["resume", "agree"]
    after = Game()
    return [*actions, "new", rng.choice(after.legal_moves()).name]


def _replay(actions: list[str]) -> Game:
    """The game after ``actions``, as the referee keeps it: one Game object per game."""
    game = Game()
    for action in actions:
        game = _act(game, action)
    return game


def _act(game: Game, action: str) -> Game:
    if action == "agree":
        game.end_by_agreement()
    elif action == "resume":
        game.resume()
    elif action == "new":
        return Game()
    else:
        game.play(action)
    return game


def _snapshot(game: Game) -> tuple[list[str], bool]:
    return [move.name for move in game.moves], game.is_over


@pytest.mark.parametrize(
    # The fast tier cuts the power through the shortest of the eight sessions (81 cuts).
    "seed", [2, *(pytest.param(seed, marks=pytest.mark.slow) for seed in (0, 1, 3, 4, 5, 6, 7))]
)
def test_a_power_cut_at_every_write_step_loses_no_game_and_no_record(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, seed: int
) -> None:
    disk = Disk(monkeypatch)
    actions = _session_actions(seed)
    new_game = actions.index("new")
    finished = _replay(actions[:new_game]).moves
    cuts = ending_cuts = 0
    for index in range(len(actions)):
        cut_at = 1
        while True:  # a cut before each disk step of this save, until the save completes
            folder = tmp_path / f"s{index}-c{cut_at}"
            journal = Journal(folder / "journal.json")
            game = Game()
            for action in actions[:index]:
                game = _act(game, action)
                journal.save(SessionState(game, None, 5))
            before = _snapshot(game) if index else None
            game = _act(game, actions[index])
            disk.cut_at = disk.steps + cut_at
            try:
                journal.save(SessionState(game, None, 5))
                done = True
            except PowerCut:
                done = False
                cuts += 1
                ending_cuts += game.is_over  # between the journal and the record, too
            disk.restore()
            journal.close()
            earlier = finished if index > new_game else None
            _check_restart(folder, before, _snapshot(game), done, earlier)
            if done:
                break
            cut_at += 1
    print(f"seed {seed}: {cuts} power cuts, {ending_cuts} of them saving a game's end")
    assert cuts >= 60  # the eight seeds: over 500 cuts in all (the slow tier runs seven)
    assert ending_cuts >= 4  # the ending, and the ending made again after it was taken back


Snapshot = tuple[list[str], bool]


def _check_restart(folder: Path, before: Snapshot | None, after: Snapshot, done: bool,
                   finished_before: list[Any] | None) -> None:
    restarted = Journal(folder / "journal.json")
    state = restarted.load()
    restarted.close()
    seen = None if state is None else _snapshot(state.game)
    allowed = [after] if done else [after, before]
    assert seen in allowed, "the journal holds the game before or after the cut"
    records = [read_record(path.read_text()).game.moves for path in folder.glob("games/*.txt")]
    if state is not None and state.game.is_over:
        assert records.count(state.game.moves) == 1, "a finished game has its record, once"
    elif state is not None:
        assert state.game.moves not in records, "no record says the game going on has ended"
    if finished_before is not None:
        assert records.count(finished_before) == 1, "an earlier game's record stays"
    assert not list(folder.glob(".*.tmp")) and not list(folder.glob("games/.*.tmp")), \
        "the next start removes what the cut left"



# -- the main loop under camera faults, frame-size changes, failing saves, signals -------

CAMERA_FAULTS = ("lost", "unavailable", "grey", "tiny", "empty", "resized", "raises", "ended",
                 "bad-image", "two-dimensional")


class FaultyCameras:
    """Opens rendered cameras on ``position``; ``fault`` makes the next open or read fail."""

    def __init__(self, position: Any) -> None:
        from controller.position import start_position

        self.position = position
        self.fault: str | None = None
        self.shown: list[str] = []
        self.start = start_position(position.size)
        self.opened = 0

    def __call__(self) -> Any:
        self.opened += 1
        if self.fault == "unavailable":
            self._shown()
            raise CameraUnavailable("no camera on /dev/video0")
        return _FaultyCamera(self)

    def _shown(self) -> str:
        assert self.fault is not None
        fault, self.fault = self.fault, None
        self.shown.append(fault)
        return fault


NOISE_PATTERNS = 8
"""Rendered frames a camera shows in turn (a frame's seed)."""


class _FaultyCamera:
    def __init__(self, cameras: FaultyCameras) -> None:
        self.cameras = cameras
        self.frames = 0

    def read(self) -> np.ndarray | None:
        cameras = self.cameras
        self.frames += 1
        # Noise and piece offsets change from frame to frame as a camera's do; a few
        # patterns in turn are enough for that, and each is drawn once (see rendered).
        scene = Scene(seed=self.frames % NOISE_PATTERNS)
        if cameras.opened == 1 and self.frames == 1:
            return rendered(cameras.start, scene)  # the frame the board calibrates from
        if cameras.fault == "unavailable":
            raise CameraLost("unplugged")  # and it cannot be opened again at once
        if cameras.fault is not None:
            fault = cameras._shown()
            frames: dict[str, Callable[[], np.ndarray | None]] = {
                "grey": lambda: np.full((480, 640, 3), 128, np.uint8),
                "tiny": lambda: np.zeros((1, 1, 3), np.uint8),
                "empty": lambda: np.zeros((0, 0, 3), np.uint8),
                "two-dimensional": lambda: np.zeros((480, 640), np.uint8),
                "resized": lambda: rendered(cameras.position,
                                            replace(scene, width=960, height=720)),
                "ended": lambda: None,
            }
            if fault == "lost":
                raise CameraLost("the camera stopped")
            if fault == "raises":
                raise RuntimeError("driver error -5")
            if fault == "bad-image":
                raise BadImage("cannot read image: 'frame-0042.jpg' (the JPEG is cut short)")
            return frames[fault]()
        return rendered(cameras.position, scene)

    def close(self) -> None:
        pass


@pytest.fixture(scope="module")
def calibration(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A calibration file for the boards' rendered cameras: a board learns one from its
    first frame in half a second, and these tests start a board or two each."""
    path = tmp_path_factory.mktemp("calibration") / "calibration.json"
    path.write_text(real_calibration_text())
    return path


def _config(tmp_path: Path, calibration: Path) -> Config:
    path = tmp_path / "board.toml"
    path.write_text('[camera]\nsource = "synthetic"\n'
                    f'calibration = {json.dumps(str(calibration))}\n'
                    '[journal]\npath = "journal.json"\n')
    return load_config(path)


def _app(tmp_path: Path, calibration: Path, cameras: FaultyCameras, clock: FakeClock) -> BoardApp:
    # The buzzer's notes take no time: a close would wait for the last sound to finish.
    return BoardApp(_config(tmp_path, calibration), mock_factory(), clock, cameras,
                    sleep=lambda seconds: None)


def _after(position: Any, name: str) -> Any:
    return make_move(position, next(m for m in legal_moves(position) if m.name == name))


def _run(app: BoardApp, clock: FakeClock, steps: int) -> None:
    for _ in range(steps):
        app.step()  # the property: no fault escapes it
        clock.now += 0.1


def _run_until(app: BoardApp, clock: FakeClock, done: Callable[[], bool], steps: int,
               before: Callable[[], None] = lambda: None) -> None:
    """At most ``steps`` passes of the loop, ``before`` each, ending once ``done()`` holds:
    the board's time is the test's, so what a fixed number of passes shows at its end is
    shown as soon as it holds (the test asserts it after)."""
    for _ in range(steps):
        if done():
            return
        before()
        _run(app, clock, 1)


def _moves(app: BoardApp) -> list[str]:
    return [m.name for m in app.session.referee.current.moves]


@pytest.mark.parametrize("fault", CAMERA_FAULTS)
def test_no_camera_fault_stops_the_board_and_play_goes_on(tmp_path: Path, calibration: Path,
                                                         fault: str) -> None:
    from controller import start_position

    cameras = FaultyCameras(start_position())
    clock = FakeClock()
    app = _app(tmp_path, calibration, cameras, clock)
    try:
        _run_until(app, clock, lambda: app.session.referee.settled, 10)
        assert app.session.referee.settled
        for _ in range(3):  # the same fault again and again: a file that stays bad
            cameras.fault = fault
            _run(app, clock, 3)
        assert cameras.shown == [fault] * 3
        _run_until(app, clock, lambda: TROUBLE_LAYER not in app.hardware.scene.layer_names,
                   40 if fault == "unavailable" else 15)
        assert TROUBLE_LAYER not in app.hardware.scene.layer_names, "the trouble is over"
        cameras.position = _after(cameras.position, "b2-c3")  # and the board still plays
        _run_until(app, clock, lambda: _moves(app) == ["b2-c3"], 10)
        assert _moves(app) == ["b2-c3"]
    finally:
        app.close()


def test_a_camera_that_changes_its_frame_size_is_read_at_the_new_size(
    tmp_path: Path, calibration: Path
) -> None:
    from controller import start_position

    cameras = FaultyCameras(start_position())
    clock = FakeClock()
    app = _app(tmp_path, calibration, cameras, clock)
    try:
        _run_until(app, clock, lambda: app.session.referee.settled, 10)

        def larger() -> None:
            cameras.fault = "resized"

        for _ in range(30):  # from now on every frame is larger
            larger()
            _run(app, clock, 1)
        cameras.position = _after(cameras.position, "b2-c3")
        _run_until(app, clock, lambda: _moves(app) == ["b2-c3"], 20, before=larger)
        assert _moves(app) == ["b2-c3"]
    finally:
        app.close()


def test_failing_saves_are_shown_on_the_lamps_until_they_work_again(
    tmp_path: Path, calibration: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import errno

    from controller import start_position
    from hardware.chain import Chain
    from hardware.chip_model import ShiftRegisterChainModel
    from hardware.lamps import LampLayout

    cameras = FaultyCameras(start_position())
    clock = FakeClock()
    pins = mock_factory()
    pins.reset()  # gpiozero's mock pins are shared by every factory: fresh ones here
    # The lamps as the 74HC595 chain shows them, watched on the board's default pins.
    chain = Chain.of(LampLayout(6))
    chips = ShiftRegisterChainModel(pins, data=17, clock=27, latch=22, chips=chain.chips)
    app = BoardApp(_config(tmp_path, calibration), pins, clock, cameras)
    middle = [chain.output_of(name) for name in ("c3", "c4", "d3", "d4")]

    def middle_lit_over_a_period() -> list[bool]:
        """Whether the middle points are lit, sampled over one period of the blink."""
        seen = []
        for _ in range(6):
            app.hardware.refresher.refresh()
            seen.append(all(chips.output(output) for output in middle))
            clock.now += 0.5
        return seen

    real_replace = os.replace
    full = {"on": True}

    def replace_on_a_full_disk(*args: Any) -> None:
        if full["on"]:
            raise OSError(errno.ENOSPC, "No space left on device")
        real_replace(*args)

    buzzer = pins.pin(18)  # the default config's tonal buzzer

    def long_buzzes() -> int:
        """Buzzes of 0.45 s or more since the last call, once the buzzer has played all."""
        assert app.hardware.buzzer is not None
        app.hardware.buzzer.wait()
        changes = buzzer.states
        buzzer.clear_states()
        # A mock pin times each change from the one before.
        return sum(1 for change, after in itertools.pairwise(changes)
                   if change.state and after.timestamp >= 0.45)

    try:
        _run(app, clock, 10)
        assert not any(middle_lit_over_a_period()), "nothing lights the middle at the start"
        long_buzzes()
        monkeypatch.setattr(os, "replace", replace_on_a_full_disk)
        cameras.position = _after(cameras.position, "b2-c3")
        _run(app, clock, 10)
        assert app.session.referee.current.moves, "the game goes on"
        blink = middle_lit_over_a_period()
        assert any(blink) and not all(blink), "the middle points blink while saves fail"
        assert "cannot be saved (No space left on device)" in app.session.last_message
        assert long_buzzes() == 2, "two long buzzes when saves start failing, not at every step"
        full["on"] = False
        cameras.position = _after(cameras.position, "e5-e4")
        _run(app, clock, 10)
        assert not any(middle_lit_over_a_period()), "and go dark once a save works"
        assert "cannot be saved" not in app.session.last_message
        assert long_buzzes() == 0
    finally:
        app.close()
    state = Journal(tmp_path / "journal.json").load()
    assert state is not None and [m.name for m in state.game.moves] == ["b2-c3", "e5-e4"]


def test_sighup_stops_the_board_like_sigterm(tmp_path: Path, calibration: Path) -> None:
    import signal

    from controller import start_position
    from firmware.app import StopFlag, install_signal_handlers

    cameras = FaultyCameras(start_position())
    app = _app(tmp_path, calibration, cameras, FakeClock())
    saved = {number: signal.getsignal(number) for number in
             (signal.SIGTERM, signal.SIGINT, signal.SIGHUP)}
    try:
        install_signal_handlers(app)
        handler = signal.getsignal(signal.SIGHUP)
        assert isinstance(handler, StopFlag)
        handler(signal.SIGHUP, None)
        assert app.stop.wait(timeout=10), "a hang-up stops the loop, which darkens the lamps"
    finally:
        for number, previous in saved.items():
            signal.signal(number, previous)
        app.close()


def test_a_folder_camera_whose_images_vanish_or_are_cut_short_keeps_the_board_going(
    tmp_path: Path, calibration: Path, caplog: pytest.LogCaptureFixture
) -> None:
    import cv2

    from controller import start_position
    from vision.sources import ImageFolder

    folder = tmp_path / "frames"
    folder.mkdir()
    ok, encoded = cv2.imencode(".jpg", render(start_position(), Scene()))
    assert ok
    jpeg = encoded.tobytes()
    for number in range(12):
        (folder / f"frame-{number:04d}.jpg").write_bytes(jpeg)
    clock = FakeClock()
    app = BoardApp(_config(tmp_path, calibration), mock_factory(), clock,
                   lambda: ImageFolder(folder), sleep=lambda seconds: None)
    try:
        _run(app, clock, 3)
        (folder / "frame-0004.jpg").unlink()  # vanishes after the folder was listed
        (folder / "frame-0005.jpg").write_bytes(jpeg[: len(jpeg) // 2])  # cut short
        _run(app, clock, 4)
        assert "frame-0004.jpg' (no such file); going on with the next" in caplog.text
        assert "frame-0005.jpg' (the JPEG is cut short); going on with the next" in caplog.text
        for image in folder.iterdir():  # the folder is emptied
            image.unlink()
        _run(app, clock, 10)
        assert TROUBLE_LAYER in app.hardware.scene.layer_names, "no frames: shown"
        for number in range(20, 40):  # and filled again
            (folder / f"frame-{number:04d}.jpg").write_bytes(jpeg)
        _run(app, clock, 12)
        assert TROUBLE_LAYER not in app.hardware.scene.layer_names
        assert app.session.referee.settled
    finally:
        app.close()


def test_a_second_board_on_the_same_journal_stops_at_once_in_one_line(
    tmp_path: Path, calibration: Path
) -> None:
    from controller import start_position
    from firmware.journal import JournalInUse

    clock = FakeClock()
    first = _app(tmp_path, calibration, FaultyCameras(start_position()), clock)
    try:
        with pytest.raises(JournalInUse, match="in use by another board"):
            _app(tmp_path, calibration, FaultyCameras(start_position()), clock)
    finally:
        first.close()
    # Free once it stopped.
    _app(tmp_path, calibration, FaultyCameras(start_position()), clock).close()
