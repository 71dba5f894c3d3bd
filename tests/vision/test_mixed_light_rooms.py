"""Daylight from a window and a warm lamp at once: the pieces' shadows are not a hand.

A room render (``benchmarks/vision_rooms.py``, condition mixed): glossy red and black
plastic pieces, a window on one side and a 2900 K lamp on the other. A piece's shadow from
the window is lit by the lamp alone, so it is warmer than the paper, the way the black set
(tinted a little by the light) is warmer too.
"""

from __future__ import annotations

from pathlib import Path

import cv2

from controller.reading import BoardReading
from vision.calibrate import calibrate
from vision.config import VisionConfig
from vision.reader import BoardReader

ROOMS = Path(__file__).parent / "data" / "rooms"


def test_warm_shadows_beside_black_pieces_leave_the_board_readable(
        config: VisionConfig) -> None:
    calibration = calibrate(config, cv2.imread(str(ROOMS / "mixed-plastic-start.jpg")))
    frame = BoardReader(calibration, config).read(
        cv2.imread(str(ROOMS / "mixed-plastic-frame.jpg")))
    assert frame.paper_clear
    assert frame.reading == BoardReading.parse("3bbr/bb1brb/4br/b2br1/b4r/1b1br1")
