"""Shared fixtures and helpers for every test package."""

from __future__ import annotations

import copy
import functools
import hashlib
import os
import tempfile
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pytest

if TYPE_CHECKING:
    import numpy as np

# Windows and sounds never open during tests, even where a display exists.
os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")


class FakeClock:
    """A clock the test moves by hand (``now``), or that moves ``step`` seconds each time it
    is read: a deadline then depends on how often the code looks, not on the machine."""

    def __init__(self, now: float = 0.0, step: float = 0.0) -> None:
        self.now = now
        self.step = step

    def __call__(self) -> float:
        now = self.now
        self.now += self.step
        return now


def rendered(board: Any, scene: Any) -> np.ndarray:
    """``vision.render.render(board, scene)``, each distinct frame drawn once per run: a
    frame takes tens of milliseconds to draw, and the tests that run a board on a rendered
    camera show it the same frames (same positions, same seeds) again and again. A copy, so
    the code under test may write into it."""
    return _rendered(board, scene).copy()


@functools.lru_cache(maxsize=160)  # a VGA frame is 0.9 MB: at most about 150 MB kept
def _rendered(board: Any, scene: Any) -> np.ndarray:
    from vision.render import render

    image = render(board, scene)
    image.flags.writeable = False
    return image


_LEARNT: dict[tuple[object, ...], Any] = {}
"""Calibrations learnt by boards in this run, by their frame and arguments."""


@pytest.fixture
def calibrations_learnt_once(monkeypatch: pytest.MonkeyPatch) -> None:
    """Boards on a rendered camera (the board's synthetic camera, the simulation, the
    window) learn the board from its first frame, which takes half a second; the same frame
    teaches the same calibration, so each is learnt once per run and copied after that."""
    import firmware.app
    import firmware.simulation
    import firmware.simulator.window
    from vision.calibrate import calibrate

    def learnt_once(config: Any, image: np.ndarray, *args: Any, **kwargs: Any) -> Any:
        key = (config, image.shape, hashlib.sha1(image.tobytes()).digest(), args,
               tuple(sorted(kwargs.items())))
        if key not in _LEARNT:
            _LEARNT[key] = calibrate(config, image, *args, **kwargs)
        return copy.deepcopy(_LEARNT[key])

    for module in (firmware.app, firmware.simulation, firmware.simulator.window):
        monkeypatch.setattr(module, "calibrate", learnt_once)


@functools.cache
def real_calibration_text() -> str:
    """A calibration file's text, learnt once per run from a render of the start position."""
    from controller.position import start_position
    from vision.calibrate import calibrate, save_calibration
    from vision.config import VisionConfig
    from vision.render import Scene

    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "cal.json"
        save_calibration(calibrate(VisionConfig(), rendered(start_position(6), Scene())), path)
        return path.read_text()


@pytest.fixture
def searches_by_a_fake_clock(monkeypatch: pytest.MonkeyPatch) -> FakeClock:
    """The engine's levels search on a FakeClock that moves 10 ms each time the search
    looks at it (every 256 nodes): a move time is then so many nodes, on any machine, and
    no test waits for it."""
    from controller.engine import levels
    from controller.engine.search import think

    clock = FakeClock(step=0.01)
    monkeypatch.setattr(levels, "think", functools.partial(think, clock=clock))
    return clock


def systemctl_failing_as_over_ssh(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Put first on PATH a systemctl that fails as it does over SSH with no user session."""
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    fake = bin_dir / "systemctl"
    fake.write_text("#!/bin/sh\necho 'Failed to connect to bus: No medium found' >&2\nexit 1\n")
    fake.chmod(0o755)
    monkeypatch.setenv("PATH", f"{bin_dir}:/usr/bin:/bin")
