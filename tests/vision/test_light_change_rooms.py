"""Light that changed since calibration moves a whole piece set's colour: read the frame.

Frames from the room renderer (``benchmarks/vision_rooms.py``, condition drift): glossy red
and black pieces, the camera's exposure and white balance drifting after the start position
was learned. In the frame the red tops are far paler than at calibration, about as far
from the red learned as from the black, so each was read right but unsure.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from pathlib import Path

import cv2

from controller.reading import BoardReading
from vision.calibrate import Calibration
from vision.config import VisionConfig
from vision.reader import LABEL_OF_COLOUR, BoardReader, ReadStatus

ROOMS = Path(__file__).parent / "data" / "rooms"
TRUTH = BoardReading.parse("rb4/2bb2/bb1b2/4bb/b1b3/1b1rb1")


Calibrated = Callable[[str], Calibration]


def test_a_set_whose_colour_drifted_is_read_from_its_colour_in_the_frame(
        config: VisionConfig, room_calibration: Calibrated) -> None:
    frame = BoardReader(room_calibration("drift-glossy-start.jpg"), config).read(
        cv2.imread(str(ROOMS / "drift-glossy-frame.jpg")))
    assert (frame.status, frame.reading) == (ReadStatus.OK, TRUTH)


def test_without_fitting_the_sets_to_the_frame_only_the_palette_reads_it(
        config: VisionConfig, room_calibration: Calibrated) -> None:
    # The same frame with the colours of calibration alone (no set has 37 pieces): the
    # black top on f3 lies between the sets' colours. Its pixels plainly favour black's
    # palette and its excess lies on black's side, so it is read, and rightly...
    calibration = room_calibration("drift-glossy-start.jpg")
    unfitted = replace(config, frame_fit_pieces=37)
    image = cv2.imread(str(ROOMS / "drift-glossy-frame.jpg"))
    frame = BoardReader(calibration, unfitted).read(image)
    assert (frame.status, frame.reading) == (ReadStatus.OK, TRUTH)
    # ... where a calibration without a palette (a file written before it was kept, and
    # before the start's tops were) leaves it doubtful: nothing wrong, but not read.
    frame = BoardReader(replace(calibration, palette=None, start_tops=None),
                        unfitted).read(image)
    assert (frame.status, frame.reading) == (ReadStatus.DOUBTFUL, None)


def test_pieces_read_unsure_do_not_move_their_sets_colour(
        config: VisionConfig, room_calibration: Calibrated) -> None:
    # Glossy pieces under a pendant lamp (condition pendant-glossy): two black tops near the
    # lamp turn greyish brown and are read as red, unsure, beside only three red pieces.
    # Counted in red's colour for the frame, they pulled it to themselves and one turned
    # sure: a board one point from wrong. Only sure pieces move a set's colour. (The
    # pattern round their tops tells they are black, vision.set_net: left out here.)
    truth = BoardReading.parse("b5/b1b2b/b2b2/br3b/1r1r2/1bb3")
    calibration = room_calibration("glare-glossy-start.jpg")
    frame = BoardReader(calibration, config, tell_sets_by_pattern=False).read(
        cv2.imread(str(ROOMS / "glare-glossy-frame.jpg")))
    assert frame.reading is None
    for point, label, confidence in zip(frame.points, frame.labels, frame.confidences,
                                        strict=True):
        if label is not LABEL_OF_COLOUR[truth.piece_at(point)]:
            assert confidence < config.confident


def test_hand_frames_do_not_teach_the_reader_the_papers_colour(
        config: VisionConfig, room_calibration: Calibrated) -> None:
    # A room session under a low lamp (rimmed pieces): a hand and a red sleeve come in and
    # the camera's white balance swings the paper cooler while they are there. The reader
    # follows the paper's colour as white balance drifts; it learned it from such frames
    # too (their paper away from the pieces was plain), and when the hand had gone, the
    # still board was judged against a paper colour it no longer had: every frame occluded,
    # and the game stalled. Only frames whose paper all looks like paper teach it now.
    start = cv2.imread(str(ROOMS / "low-lamp-rimmed-start.jpg"))
    hand = cv2.imread(str(ROOMS / "low-lamp-rimmed-hand.jpg"))
    reader = BoardReader(room_calibration("low-lamp-rimmed-start.jpg"), config)
    assert reader.read(start).status is ReadStatus.OK
    for _ in range(10):
        assert reader.read(hand).reading is None
    assert reader.read(start).status is ReadStatus.OK
