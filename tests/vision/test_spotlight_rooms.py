"""A spotlight: paper outside its cone is lit by the room's cooler light alone.

A room render (``benchmarks/vision_rooms.py``, condition spotlight) of shells against
pebbles under a warm spotlight: the paper beyond the grid's side, at the cone's edge, is
cooler than the paper in it. No hand is cooler than the paper, so calibration allows that
light as the reader does; it refused this start position as covered.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import cv2

from controller.position import start_position
from controller.reading import BoardReading
from vision.calibrate import Calibration
from vision.config import VisionConfig
from vision.reader import BoardReader

ROOMS = Path(__file__).parent / "data" / "rooms"


def test_paper_in_the_cooler_light_outside_a_spotlight_calibrates(
        config: VisionConfig, room_calibration: Callable[[str], Calibration]) -> None:
    name = "spotlight-shells-start.jpg"
    frame = BoardReader(room_calibration(name), config).read(cv2.imread(str(ROOMS / name)))
    assert frame.reading == BoardReading.of(start_position(6))
