"""Pieces' tops are judged against the paper the light falls on, not their neighbours' shadows.

Under window light or a lamp low beside the board, each piece casts its shadow on the paper
beside it, and in the start position all the paper round a piece may lie in its neighbours'
shadows. The piece's own top is lit: judged against that shadowed paper it looked brighter
than its set, as bright as the other set, and the start position was refused ("odd
points"). The paper the light falls on is a smooth field over the board, fitted to the
lit samples (``vision.light_field``).
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import cv2
import numpy as np

from controller.position import start_position
from controller.reading import BoardReading
from vision.calibrate import Calibration
from vision.config import VisionConfig
from vision.light_field import lit_chroma, lit_field, smooth_field
from vision.reader import BoardReader

ROOMS = Path(__file__).parent / "data" / "rooms"
SIZE = 6
GRID = np.array([(x + 0.5, y + 0.5) for y in range(-1, SIZE) for x in range(-1, SIZE)])


def _window_light() -> np.ndarray:
    """Log brightness of paper lit from one side: brighter towards the window (+x)."""
    return 5.0 + 0.3 * GRID[:, 0] / SIZE


def test_the_lit_field_keeps_the_lit_paper_level_under_many_shadows() -> None:
    lit_level = _window_light()
    # A third of the samples lie in pieces' shadows, half as bright.
    shadowed = np.arange(len(GRID)) % 3 == 0
    brightness = lit_level - np.where(shadowed, 0.7, 0.0)
    judged = np.ones(len(GRID), bool)
    field = smooth_field(SIZE, GRID, brightness, ~shadowed, judged)
    lit = lit_field(SIZE, GRID, brightness, judged, field)
    assert np.abs(lit - lit_level).max() < 0.05
    # The plain robust fit is dragged down by so many shadows; the lit one is not.
    assert np.abs(np.maximum(field, lit) - lit_level).max() < 0.05


def test_the_lit_papers_colour_is_the_lit_samples_not_the_shadows() -> None:
    lit_level = _window_light()
    shadowed = np.arange(len(GRID)) % 3 == 0
    warm = np.array([-0.05, 0.0, 0.05])  # the lamp's colour on the paper (log BGR less mean)
    cool = np.array([0.1, 0.0, -0.1])  # a shadow lit by the sky
    chroma = np.where(shadowed[:, None], cool, warm)
    brightness = lit_level - np.where(shadowed, 0.7, 0.0)
    logs = brightness[:, None] + chroma
    judged = np.ones(len(GRID), bool)
    fitted = lit_chroma(SIZE, GRID, logs, judged, lit_level)
    assert np.abs(fitted - warm).max() < 0.02


def test_a_dark_top_whose_paper_lies_in_its_neighbours_shadows_fits_the_start_position(
        room_calibration: Callable[[str], Calibration], config: VisionConfig) -> None:
    # Light and dark wood under window light (a Blender render): the paper round the dark
    # piece on e5 lies all in its neighbours' shadows, and its lit top looked like light
    # wood (refused: "odd points: e5").
    name = "shadowed-wood-window-start.jpg"
    calibration = room_calibration(name)
    frame = BoardReader(calibration, config).read(cv2.imread(str(ROOMS / name)))
    assert frame.reading == BoardReading.of(start_position(SIZE))


def test_wood_under_a_low_lamp_calibrates_and_is_read(
        room_calibration: Callable[[str], Calibration], config: VisionConfig) -> None:
    # Light and dark wood under a lamp low beside the board (a Blender render): the dark
    # tops on the far rank stood in the near rank's long shadows (refused: "odd points: c6
    # d6 e6"). A game's board is read as it stands.
    reader = BoardReader(room_calibration("wood-low-lamp-start.jpg"), config)
    frame = reader.read(cv2.imread(str(ROOMS / "wood-low-lamp-frame.jpg")))
    assert frame.reading == BoardReading.parse("4rb/b5/4b1/2b3/1r3r/bb2br")
