"""Shared fixtures and helpers for every test package."""

from __future__ import annotations

import functools
import os
from typing import TYPE_CHECKING, Any

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
