"""What the simulator window is asked to do: its options and the camera scene they choose."""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from enum import Enum
from pathlib import Path

import numpy as np

from controller.errors import BadOption, SurakartaError
from controller.position import Color
from controller.variants import Variant
from vision.render import RenderOptions, Scene, random_scene


class SimulatorError(SurakartaError, OSError):
    """The simulator cannot run here (no display, a camera scene vision cannot read)."""


class CameraPreset(Enum):
    """Camera pose and light of the simulated camera."""

    CLEAN = "clean"
    """A good camera nearly above the board, in good light."""
    HARD = "hard"
    """A real room: tilted and turned camera, uneven coloured light, shadows, blur."""


CAMERA_RESOLUTIONS = {CameraPreset.CLEAN: (320, 240), CameraPreset.HARD: (480, 360)}
"""Rendered frame size per preset: small enough to render at the camera rate next to a
smooth window, large enough for the vision to read the preset's board reliably."""


@dataclass(frozen=True, slots=True)
class WindowOptions:
    """How the simulator window runs."""

    variant: Variant = Variant.STANDARD
    """The rules (and so the board size)."""
    computer: Color | None = None
    """The computer's side, or None for two players."""
    level: int = 5
    """The computer's strength, 1-10."""
    preset: CameraPreset = CameraPreset.CLEAN
    """Camera pose and lighting."""
    noise: bool = True
    """Sensor noise, blur and JPEG artefacts in the camera frames."""
    screenshot: Path | None = None
    """Save the window here as PNG when it closes."""
    exit_after: float | None = None
    """Close after this many seconds; None runs until the window is closed."""
    seed: int = 0
    """Seed of the camera scene, its noise and the engine."""
    scenario: Path | None = None
    """A scenario (``surakarta scenario`` format) played before the window takes over."""
    camera_fps: float = 10.0
    """Camera frames per second through the vision pipeline."""
    window_fps: float = 60.0
    """Window frames per second aimed at."""
    think_seconds: float = 1.0
    """The computer's thinking time per move (its level may cap it)."""
    web_port: int | None = None
    """Serve the companion page on this port of 127.0.0.1 beside the window (None: not)."""
    colour_lamps: bool = False
    """Show the lamps as a colour (WS2812) build does, each layer in its colour; otherwise
    as a one-colour chain, where only the rhythms tell the layers apart."""

    def __post_init__(self) -> None:
        if not 1 <= self.level <= 10:
            raise BadOption(f"invalid level: {self.level!r} (expected 1 to 10)")
        if self.exit_after is not None and self.exit_after < 0:
            raise BadOption(f"invalid exit time: {self.exit_after!r} (expected 0 or more)")
        if self.web_port is not None and not 1 <= self.web_port <= 65535:
            raise BadOption(f"invalid web port: {self.web_port!r} (expected 1 to 65535)")
        if self.camera_fps <= 0 or self.window_fps <= 0:
            raise BadOption(
                f"invalid frame rate: {min(self.camera_fps, self.window_fps)!r} "
                "(expected more than 0)"
            )


def camera_scene(preset: CameraPreset, noise: bool, seed: int, size: int) -> Scene:
    """The camera scene a preset draws for ``seed`` (no hand: the mouse brings one)."""
    width, height = CAMERA_RESOLUTIONS[preset]
    rng = np.random.default_rng(seed)
    scene = random_scene(rng, RenderOptions.preset(preset.value), width, height, size)
    scene = dataclasses.replace(scene, hand=None)
    if not noise:
        scene = dataclasses.replace(scene, noise=0.0, blur=0.0, jpeg_quality=None)
    return scene
