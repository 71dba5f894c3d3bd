"""White pieces on white paper near the edge of a wide lens's view: read, or doubtful.

Frames from the room renderer (``benchmarks/vision_rooms.py``, condition wide-lens): a
108-degree lens whose principal point is 15 pixels off the image's centre. Fitted with its
principal point at the centre, the lens puts the board's a-file two or three pixels off,
where the printed crosses then fall outside the narrow band they are looked for in, and
white pieces are told from bare paper only by the cross they hide.
"""

from __future__ import annotations

import importlib
import math
from pathlib import Path

import cv2
import pytest

from controller.reading import BoardReading
from vision import register
from vision.calibrate import calibrate
from vision.config import VisionConfig
from vision.errors import CalibrationFailed
from vision.reader import LABEL_OF_COLOUR, BoardReader, FrameReading, ReadStatus

ROOMS = Path(__file__).parent / "data" / "rooms"
calibrate_module = importlib.import_module("vision.calibrate")
TRUTH = BoardReading.parse("6/1r4/1rr3/6/3rr1/4r1")


def read_frame(config: VisionConfig) -> FrameReading:
    calibration = calibrate(config, cv2.imread(str(ROOMS / "wide-white-start.jpg")))
    return BoardReader(calibration, config).read(cv2.imread(str(ROOMS / "wide-white-frame.jpg")))


def test_a_wide_lens_is_fitted_closely_enough_to_read_white_on_white(
        config: VisionConfig) -> None:
    assert read_frame(config).reading == TRUTH


def test_white_pieces_are_doubtful_where_the_lens_is_fitted_a_little_off(
        config: VisionConfig, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(register, "STRONG_DISTORTION", math.inf)  # principal point kept
    # Fitted so, the a-file's white pieces are unsure in the start image itself: the game
    # could not begin, and the calibration is refused.
    with pytest.raises(CalibrationFailed, match="not surely"):
        calibrate(config, cv2.imread(str(ROOMS / "wide-white-start.jpg")))
    # Were it kept, the frames would still be read safely.
    monkeypatch.setattr(calibrate_module, "_check_read_as_start", lambda *_: None)
    frame = read_frame(config)
    assert frame.reading is None or frame.reading == TRUTH
    # Whatever is misread is pointed out (or the frame is not read at all): no bare point
    # of the a-file passes for a white piece once the real doubts are cleared.
    misread = {point for point, label in zip(frame.points, frame.labels, strict=True)
               if label is not LABEL_OF_COLOUR[TRUTH.piece_at(point)]}
    assert frame.status is ReadStatus.OCCLUDED or misread <= set(frame.doubtful)
