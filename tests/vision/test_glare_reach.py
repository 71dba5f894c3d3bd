"""A lamp's glare that moved one set towards the other's colour at calibration keeps a
frame's pieces of that colour doubtful, never read as the other set."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from pathlib import Path

import cv2
import numpy as np
import pytest

from controller.reading import BoardReading
from tests.vision.calibration_files import assert_kept_in_file
from vision.calibrate import Calibration, start_labels
from vision.colour import LABELS, PointLabel, learn_colours
from vision.config import VisionConfig
from vision.glare_reach import GlareOverlap, GlareReach, glared_from, learn_glare_reach
from vision.reader import BoardReader, ReadStatus

ROOMS = Path(__file__).parent / "data" / "rooms"
WHITE_TOP = np.log([0.88, 0.88, 0.88])
"""A white top relative to the paper (blue, green, red, log)."""
BLACK_TOP = np.log([0.2, 0.2, 0.2])
RED, BLACK = LABELS.index(PointLabel.RED), LABELS.index(PointLabel.BLACK)


def start_features(glared_black: float | None) -> tuple[np.ndarray, np.ndarray]:
    """Features (points, labels, 4) of a 6x6 start position of white (red's side) and black
    glossy pieces, one black top lit to ``glared_black`` (log) by the lamp."""
    expected = start_labels(6)
    noise = np.random.default_rng(1).normal(0.0, 0.02, (len(expected), 1))
    colours = np.zeros((len(expected), 3))
    colours[expected == RED] = WHITE_TOP
    colours[expected == BLACK] = BLACK_TOP
    colours += noise
    if glared_black is not None:
        colours[np.flatnonzero(expected == BLACK)[0]] = glared_black
    features = np.zeros((len(expected), 3, 4))
    features[:, :, :3] = colours[:, None, :]
    return features, expected


def means_of(features: np.ndarray, expected: np.ndarray) -> np.ndarray:
    """The colour model's means, as calibration learns them from these features."""
    return learn_colours(VisionConfig(), features, expected).means


def test_no_top_that_looked_like_the_other_set_means_no_reach() -> None:
    features, expected = start_features(glared_black=-1.0)
    assert learn_glare_reach(means_of(features, expected), features, expected, expected) == ()


def test_a_black_top_the_lamp_greyed_past_halfway_reaches_the_white_set() -> None:
    features, expected = start_features(glared_black=-0.6)
    looked_like = expected.copy()
    looked_like[np.flatnonzero(expected == BLACK)[0]] = RED
    (reach,) = learn_glare_reach(means_of(features, expected), features, expected, looked_like)
    assert (reach.glossy, reach.towards) == (PointLabel.BLACK, PointLabel.RED)
    means = np.array([[0.0, 0.0, 0.0, 1.0], [*WHITE_TOP, 0.0], [*BLACK_TOP, 0.0]])
    frame = np.zeros((3, 3, 4))
    frame[0, :, :3] = np.log(0.7)  # greyer than any white top of the start: either set
    frame[1, :, :3] = WHITE_TOP  # a white top as the start position showed them
    frame[2, :, :3] = np.log(0.7)  # read as black already: nothing to add
    # Each point's second label: black for the first, none (its own) for the others.
    assert glared_from((reach,), means, frame, np.array([RED, RED, BLACK])).tolist() == [
        BLACK, RED, BLACK]


def test_a_black_top_greyed_as_far_as_the_white_ones_is_refused_in_words() -> None:
    features, expected = start_features(glared_black=float(WHITE_TOP[0]))
    looked_like = expected.copy()
    looked_like[np.flatnonzero(expected == BLACK)[0]] = RED
    with pytest.raises(GlareOverlap, match="look alike where the lamp's glare falls"):
        learn_glare_reach(means_of(features, expected), features, expected, looked_like)


def test_the_reach_is_kept_in_the_calibration_file(calibration6: Calibration,
                                                   tmp_path: Path) -> None:
    reach = (GlareReach(PointLabel.BLACK, PointLabel.RED, 0.82),
             GlareReach(PointLabel.RED, PointLabel.BLACK, 0.7))
    assert_kept_in_file(calibration6, tmp_path, ('"towards": "r"', '"towards": "b"'),
                        glare_reach=reach)


def test_a_black_top_mirroring_the_lamp_is_never_read_as_white(
        room_calibration: Callable[[str], Calibration], config: VisionConfig) -> None:
    # Glossy white and black pieces under a lamp above a fisheye webcam (a Blender render).
    # In the start position the lamp greys the black top on a5 halfway to white; in the
    # frame it greys the one on a3 further, where its colour is a white top's, and only its
    # dark rim tells a person. Read as white, the board was wrong.
    truth = BoardReading.parse("b3r1/b2b2/1rr2r/b2r1b/b1r1b1/3r2")
    # (Its rim tells too: see test_rims.py; and the pattern round its top, which tells it
    # is black: vision.set_net. This reads without either.)
    calibration = replace(room_calibration("glared-black-fisheye-start.jpg"), rim_check=None)
    assert calibration.glare_reach
    image = cv2.imread(str(ROOMS / "glared-black-fisheye-frame.jpg"))
    frame = BoardReader(calibration, config, tell_sets_by_pattern=False).read(image)
    assert frame.reading in (None, truth)
    assert frame.status is ReadStatus.DOUBTFUL
    assert frame.fitting([truth]) == truth
    assert BoardReader(calibration, config).read(image).reading == truth
    # (Without the set forest too, which doubts that top as well: vision.set_forest.)
    without = BoardReader(replace(calibration, glare_reach=()), config,
                          tell_sets_by_pattern=False).read(image)
    assert without.reading not in (None, truth)


def test_black_tops_greyed_part_of_the_way_do_not_make_every_white_piece_unsure(
        room_calibration: Callable[[str], Calibration], config: VisionConfig) -> None:
    # White and glossy black pieces under a ceiling lamp (a Blender render): the lamp greys
    # three black tops part of the way to the white ones. Learned with them, the black
    # set's colour spread so far towards the white one's that all twelve white pieces were
    # read unsurely, and the start position was refused (odd points e5 e6 f6).
    calibration = room_calibration("greyed-blacks-ceiling-start.jpg")
    assert any(reach.glossy is PointLabel.BLACK for reach in calibration.glare_reach)
    frame = BoardReader(calibration, config).read(
        cv2.imread(str(ROOMS / "greyed-blacks-ceiling-frame.jpg")))
    # The greyed black top on f6 is told by its rim, dark all round (vision.rims).
    truth = BoardReading.parse("2r2b/1r3r/2b3/b1r2r/3b1r/r1b2b")
    assert frame.status is ReadStatus.OK and frame.reading == truth
