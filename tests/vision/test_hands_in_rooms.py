"""A hand reaching the grid's edge from outside is a hand, never pieces at the edge.

Frames from the room renderer (``benchmarks/vision_rooms.py``): a hand over the sheet's
margin, its fingers over the edge points. A fingertip over an edge point looks like a
glossy red top in the lamp's glare; the finger leading to it can pass between two of the
half squares round the grid, so nothing inside the grid shows the hand. Before the paper
beyond the grid's sides was sampled, both frames were read as boards with a red piece the
hand had made.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import cv2
import pytest

from controller.reading import BoardReading
from vision.calibrate import Calibration
from vision.config import VisionConfig
from vision.reader import BoardReader, ReadStatus

ROOMS = Path(__file__).parent / "data" / "rooms"


@pytest.mark.parametrize(("room", "board"), [
    # One fingertip on a2, under a pendant lamp (its finger between the half squares).
    ("fingertip-pendant", "r3r1/1r1br1/4r1/2r3/2r3/r1r2r"),
    # Four fingers over the side of the grid, under a ceiling lamp.
    ("fingers-ceiling", "brrbrr/4r1/2b1bb/1r4/rrr2b/1rr1br"),
])
def test_fingers_reaching_the_edge_from_outside_are_never_read(
        config: VisionConfig, room_calibration: Callable[[str], Calibration],
        room: str, board: str) -> None:
    reader = BoardReader(room_calibration(f"{room}-start.jpg"), config)
    assert reader.read(cv2.imread(str(ROOMS / f"{room}-start.jpg"))).is_ok
    frame = reader.read(cv2.imread(str(ROOMS / f"{room}-hand.jpg")))
    assert frame.reading is None
    assert frame.status is ReadStatus.OCCLUDED and not frame.paper_clear
    assert frame.fitting([BoardReading.parse(board)]) is None
