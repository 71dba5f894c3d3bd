"""Daylight from a window and a warm lamp at once: the pieces' shadows are not a hand.

Room renders (``benchmarks/vision_rooms.py``, condition mixed) of a window on one side and
a 2900 K lamp on the other. A piece's shadow from the window is lit by the lamp alone, so
it is warmer than the paper as much as it is darker; a hand is warmer by far more.
"""

from __future__ import annotations

from pathlib import Path

import cv2
import pytest

from controller.reading import BoardReading
from vision.calibrate import calibrate
from vision.config import VisionConfig
from vision.reader import BoardReader

ROOMS = Path(__file__).parent / "data" / "rooms"


@pytest.mark.parametrize(("room", "board"), [
    # Glossy red and black plastic: the black set is tinted a little warm by the light, and
    # the shadows the lamp lights lean its way.
    ("mixed-plastic", "3bbr/bb1brb/4br/b2br1/b4r/1b1br1"),
    # Cream and brown pieces: a cream piece's shadow from the window, lit by the lamp, is
    # warmer than the paper by about as much as it is darker, which leans to the cream
    # set's colour. It was taken for a hand the colour of cream pieces: the frame was never
    # read, though the same shadow's colour passed beside a coloured piece.
    ("mixed-cream", "2rr1r/2b1rr/b1r2r/r2r2/4r1/b1r3"),
])
def test_warm_shadows_beside_the_pieces_leave_the_board_readable(
        config: VisionConfig, room: str, board: str) -> None:
    calibration = calibrate(config, cv2.imread(str(ROOMS / f"{room}-start.jpg")))
    frame = BoardReader(calibration, config).read(cv2.imread(str(ROOMS / f"{room}-frame.jpg")))
    assert frame.paper_clear
    assert frame.reading == BoardReading.parse(board)


def test_a_hand_the_colour_of_shells_is_still_a_hand(config: VisionConfig) -> None:
    # A physically based render (Blender): shells against pebbles, a hand over a2 and a3.
    calibration = calibrate(config, cv2.imread(str(ROOMS / "hand-shells-start.jpg")))
    frame = BoardReader(calibration, config).read(
        cv2.imread(str(ROOMS / "hand-shells-frame.jpg")))
    assert not frame.paper_clear
    assert frame.reading is None
