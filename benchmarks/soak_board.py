"""The main-loop soak of ``benchmarks/soak.py --main-loop MINUTES`` (see that file; run
it from there: run directly, ``benchmarks/vision.py`` would hide the vision package).

The board is ``firmware.app.BoardApp`` with everything real but the pins (mock) and
the camera: a rendered view of a virtual board that a scripted hand changes. Time is
simulated (each step is a tenth of a second of the board's clock), so hours of play
take less than hours of wall time; memory is sampled on the wall clock.
"""

from __future__ import annotations

import gc
import logging
import random
import statistics
import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

import numpy as np

from controller import legal_moves, make_move, start_position
from controller.cache_budget import BUDGET
from controller.decisions import Button, Pressed
from controller.position import Position
from controller.variants import Variant
from firmware.app import BoardApp
from firmware.config import load_config
from firmware.journal import Journal
from firmware.memory import settle_allocator
from hardware.mock import mock_factory
from vision.calibrate import calibrate, save_calibration
from vision.config import VisionConfig
from vision.errors import CameraLost, CameraUnavailable
from vision.render import Scene, render

STEP = 0.1
"""Simulated seconds per step of the loop (10 frames a second, as on the Pi)."""
SESSION_STEPS = (400, 1200)
"""Steps a board runs before it is restarted or its power is cut."""
SAMPLE_SECONDS = 60.0
"""Wall-clock seconds between two memory samples."""
FLAT_MB = 10.0
"""Floor: how far the last window's mean memory may be above the first window's."""

FAULTS = ("lost", "unavailable", "grey", "tiny", "empty", "resized", "raises", "ended")
"""Camera faults injected: each the way a real camera or folder shows it."""


def rss_mb() -> float:
    """This process's resident memory, in MB (Linux)."""
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    raise RuntimeError("no VmRSS in /proc/self/status")


class SoakClock:
    """The board's clock: moved by the soak, a step at a time."""

    def __init__(self) -> None:
        self.now = 0.0

    def __call__(self) -> float:
        return self.now


@dataclass
class World:
    """The virtual board in front of the camera, and the faults the camera will show."""

    position: Position
    scene: Scene
    rng: random.Random
    fault: str | None = None
    """The fault the next camera read shows (then cleared)."""
    waiting: int = 0
    """Steps the board has disagreed with the referee's position."""
    faults: dict[str, int] = field(default_factory=lambda: dict.fromkeys(FAULTS, 0))

    def open_camera(self) -> SoakCamera:
        if self.fault == "unavailable":
            self._count()
            raise CameraUnavailable("no camera on /dev/video0")
        return SoakCamera(self)

    def _count(self) -> None:
        assert self.fault is not None
        self.faults[self.fault] += 1
        self.fault = None


class SoakCamera:
    """A rendered camera on the world; shows the world's fault once when one is set."""

    def __init__(self, world: World) -> None:
        self.world = world
        self.frames = 0

    def read(self) -> np.ndarray | None:
        world = self.world
        self.frames += 1
        fault = world.fault if world.fault != "unavailable" else None
        if fault is not None:
            world._count()
            if fault == "lost":
                raise CameraLost("the camera stopped")
            if fault == "raises":
                raise RuntimeError("driver error -5")
            if fault == "ended":
                return None
            if fault == "grey":
                return np.full((world.scene.height, world.scene.width, 3), 128, np.uint8)
            if fault == "tiny":
                return np.zeros((1, 1, 3), np.uint8)
            if fault == "empty":
                return np.zeros((0, 0, 3), np.uint8)
            if fault == "resized":
                scene = replace(world.scene, width=world.scene.width * 3 // 2,
                                height=world.scene.height * 3 // 2)
                return render(world.position, replace(scene, seed=self.frames))
        return render(world.position, replace(world.scene, seed=self.frames))

    def close(self) -> None:
        pass


@dataclass
class Figures:
    """What the soak counted."""

    steps: int = 0
    moves: int = 0
    accepted: int = 0
    restarts: int = 0
    power_cuts: int = 0
    presses: int = 0
    records: int = 0
    """Records of finished games in the records folders at the end."""
    stops: list[str] = field(default_factory=list)
    """Exceptions that escaped the loop (floor: none)."""
    lost: list[str] = field(default_factory=list)
    """Games or records missing after a power cut (floor: none)."""
    samples: list[tuple[float, float]] = field(default_factory=list)
    """(wall seconds, RSS MB)."""


def _config(folder: Path, variant: Variant, computer: bool, calibration: Path) -> Any:
    mode = "computer-black" if computer else "two-player"
    # A journal per board size and mode: a resumed game keeps its own mode, so the
    # computer's sessions must resume the computer's games.
    path = folder / f"{variant.value}-{mode}.toml"
    path.write_text(
        f'[camera]\nsource = "synthetic"\ncalibration = "{calibration}"\n'
        f'[game]\nvariant = "{variant.value}"\nmode = "{mode}"\nlevel = 2\n'
        f'[engine]\nseconds = 0.05\n'
        f'[journal]\npath = "{variant.value}-{mode}/journal.json"\n'
    )
    return load_config(path)


def _calibration(folder: Path, size: int, scene: Scene) -> Path:
    path = folder / f"calibration-{size}.json"
    save_calibration(calibrate(VisionConfig(), render(start_position(size), scene)), path)
    return path


def _hand(app: BoardApp, world: World, figures: Figures) -> None:
    """What the person at the board does this step."""
    referee = app.session.referee
    rng = world.rng
    world.waiting = world.waiting + 1 if referee.position != world.position else 0
    if not referee.settled or world.waiting > 30:
        # Sets the board up as the lamps ask (a move the board never took is taken back).
        world.position = referee.position
        world.waiting = 0
        return
    if referee.current.is_over:
        app.pipeline.submit(Pressed(Button.NEW))
        figures.presses += 1
        return
    if referee.is_computer_turn:
        if referee.computer_move is not None and world.position == referee.position:
            world.position = make_move(world.position, referee.computer_move)  # carried out once
        return
    if referee.position != world.position:
        return  # the last move is not taken yet: the hand waits for the lamps
    roll = rng.random()
    if roll < 0.12:
        moves = legal_moves(world.position, referee.variant)
        if moves:
            world.position = make_move(world.position, rng.choice(moves))
            figures.moves += 1
    elif roll < 0.125:
        button = rng.choice([Button.HINT, Button.HINT, Button.UNDO, Button.MODE, Button.NEW])
        app.pipeline.submit(Pressed(button))
        figures.presses += 1


def _records(folder: Path) -> set[str]:
    return {path.name for path in folder.glob("*/games/*.txt")}


def soak_main_loop(seconds: float, seed: int, log: Callable[[str], None] = print) -> int:
    """Run the soak for ``seconds`` of wall time; 0 when every floor holds, else 1."""
    # The board logs every camera fault it shows; thousands of them are the soak's point.
    logging.disable(logging.ERROR)
    settle_allocator()  # as surakarta run does
    rng = random.Random(seed)
    figures = Figures()
    started = time.monotonic()
    next_sample = started
    with tempfile.TemporaryDirectory(prefix="surakarta-soak-") as name:
        folder = Path(name)
        scenes = {size: Scene(width=640, height=480, seed=seed) for size in (6, 7)}
        calibrations = {size: _calibration(folder, size, scenes[size]) for size in (6, 7)}
        session = 0
        while time.monotonic() - started < seconds:
            variant = Variant.STANDARD if session % 2 == 0 else Variant.SEPUR
            config = _config(folder, variant, session % 4 >= 2, calibrations[variant.size])
            _run_session(config, scenes[variant.size], rng, figures, folder,
                         started + seconds, session)
            session += 1
            now = time.monotonic()
            if now >= next_sample:
                figures.samples.append((now - started, rss_mb()))
                log(f"{(now - started) / 60:6.1f} min  RSS {figures.samples[-1][1]:6.1f} MB  "
                    f"(engine tables {BUDGET.used / 2**20:4.1f} MB)  "
                    f"steps {figures.steps}  moves accepted {figures.accepted}  "
                    f"records {len(_records(folder))}  restarts {figures.restarts}  "
                    f"power cuts {figures.power_cuts}")
                next_sample = now + SAMPLE_SECONDS
        figures.samples.append((time.monotonic() - started, rss_mb()))
        figures.records = len(_records(folder))
    return _report(figures, seconds, log)


def _run_session(config: Any, scene: Scene, rng: random.Random, figures: Figures,
                 folder: Path, deadline: float, number: int) -> None:
    """One start of the board: play, inject faults, then a clean stop or a power cut."""
    journal = Journal(config.journal, config.records)
    saved = journal.load()
    journal.close()
    world = World(saved.game.position if saved else start_position(config.game.variant.size),
                  scene, rng)
    records_before = _records(folder)
    clock = SoakClock()
    clock.now = number * 10_000.0
    app = BoardApp(config, mock_factory(), clock, world.open_camera)
    app.hardware.start()
    app.session.start(clock())
    accepted = len(app.session.referee.current.moves)
    steps = rng.randint(*SESSION_STEPS)
    try:
        for _ in range(steps):
            if time.monotonic() > deadline:
                break
            if rng.random() < 0.01:
                world.fault = rng.choice(FAULTS)
            _hand(app, world, figures)
            try:
                app.step()
            except Exception as error:  # the floor: no fault may stop the loop
                figures.stops.append(f"{type(error).__name__}: {error}")
                break
            clock.now += STEP
            figures.steps += 1
            game = app.session.referee.current
            if len(game.moves) > accepted:
                figures.accepted += len(game.moves) - accepted
            accepted = len(game.moves)
        game = app.session.referee.current
        saved_moves = [move.name for move in game.moves]
        finished = game.is_over
    finally:
        if rng.random() < 0.5:
            app.close()
            figures.restarts += 1
        else:
            # A power cut: nothing is closed in order; the process's end frees the journal
            # (here the objects going away do), the pins and the engine thread.
            app.pipeline.close()
            figures.power_cuts += 1
        del app
        gc.collect()
    _check_nothing_lost(config, saved_moves, finished, records_before, folder, figures)


def _check_nothing_lost(config: Any, moves: list[str], finished: bool, before: set[str],
                        folder: Path, figures: Figures) -> None:
    """After a stop of either kind, the journal has the game and the records are all there."""
    journal = Journal(config.journal, config.records)
    try:
        state = journal.load()
    finally:
        journal.close()
    if state is None:
        if moves:
            figures.lost.append(f"the game of {len(moves)} moves is gone from the journal")
        return
    if [move.name for move in state.game.moves] != moves:
        figures.lost.append(f"journal has {len(state.game.moves)} moves, the board had "
                            f"{len(moves)}")
    if finished and not state.game.is_over:
        figures.lost.append("the finished game resumed as unfinished")
    if not before <= _records(folder):
        figures.lost.append(f"records vanished: {sorted(before - _records(folder))}")
    if finished and not list(config.records.glob("*.txt")):
        figures.lost.append("a finished game has no record")


def _window_means(samples: list[tuple[float, float]], seconds: float) -> tuple[float, float]:
    window = 3600.0 if seconds >= 7200 else seconds / 3
    first = [rss for t, rss in samples if t <= window]
    last = [rss for t, rss in samples if t >= samples[-1][0] - window]
    return statistics.fmean(first), statistics.fmean(last)


def _rss_at(samples: list[tuple[float, float]], seconds: float) -> float:
    """The RSS sampled last at or before ``seconds``."""
    return [rss for t, rss in samples if t <= seconds][-1]


def _report(figures: Figures, seconds: float, log: Callable[[str], None]) -> int:
    log(f"{figures.steps} steps ({figures.steps * STEP / 3600:.1f} h of board time) in "
        f"{seconds / 60:.0f} min; {figures.moves} moves by the hand, {figures.accepted} accepted; "
        f"{figures.records} games finished and recorded; {figures.presses} button presses; "
        f"{figures.restarts} restarts, {figures.power_cuts} power cuts")
    failed = False
    if figures.stops:
        log(f"FLOOR MISSED: {len(figures.stops)} faults stopped the loop: {figures.stops[:5]}")
        failed = True
    else:
        log("no fault stopped the loop")
    if figures.lost:
        log(f"FLOOR MISSED: lost across stops: {figures.lost[:5]}")
        failed = True
    else:
        log("nothing lost across the restarts and power cuts")
    if len(figures.samples) >= 3:
        first, last = _window_means(figures.samples, seconds)
        half = figures.samples[len(figures.samples) // 2:]
        slope = float(np.polyfit([t / 3600 for t, _ in half], [m for _, m in half], 1)[0])
        samples = figures.samples
        hourly = "; ".join(f"at {t / 3600:.0f} h {_rss_at(samples, t):.1f} MB"
                           for t in range(3600, int(samples[-1][0]) + 1, 3600))
        log(f"RSS at the start {samples[0][1]:.1f} MB; {hourly + '; ' if hourly else ''}"
            f"at the end {samples[-1][1]:.1f} MB")
        log(f"RSS: first window {first:.1f} MB, last window {last:.1f} MB "
            f"(+{last - first:.1f} MB; floor {FLAT_MB:.0f} MB); second half's slope "
            f"{slope:+.1f} MB/h; peak {max(m for _, m in figures.samples):.1f} MB")
        if last - first > FLAT_MB:
            log("FLOOR MISSED: memory does not level off")
            failed = True
    else:
        log("too short for a memory trend (samples every minute)")
    return 1 if failed else 0
