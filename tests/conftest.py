"""Shared fixtures and helpers for every test package."""

from __future__ import annotations

import os

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
