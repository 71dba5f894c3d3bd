"""Shared fixtures and helpers for every test package."""

from __future__ import annotations

import os

# Windows and sounds never open during tests, even where a display exists.
os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")
