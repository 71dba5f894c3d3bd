"""The colour glare cannot make confirms which set an unsure glossy piece belongs to."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from pathlib import Path

import cv2
import numpy as np
import pytest

from controller.reading import BoardReading
from vision.calibrate import Calibration, load_calibration, save_calibration, start_labels
from vision.colour import Classification
from vision.config import VisionConfig
from vision.errors import BadCalibration
from vision.reader import BoardReader, ReadStatus
from vision.set_contrast import SetContrast, confirmed, excess, learn_set_contrast

ROOMS = Path(__file__).parent / "data" / "rooms"
RED_TOP = np.log([0.25, 0.25, 0.8])
"""A red top relative to the paper (blue, green, red, log)."""
BLACK_TOP = np.log([0.3, 0.3, 0.32])


def with_glare(log_colour: np.ndarray, glare: float) -> np.ndarray:
    result: np.ndarray = np.log(np.exp(log_colour) + glare)
    return result


def start_features(spread: float = 0.01) -> tuple[np.ndarray, np.ndarray]:
    """Features (points, labels, 4) of a 6x6 start position: every label's column alike."""
    expected = start_labels(6)
    noise = np.random.default_rng(1).normal(0.0, spread, (len(expected), 3))
    colours = np.zeros((len(expected), 3))
    colours[expected == 1] = RED_TOP
    colours[expected == 2] = BLACK_TOP
    colours += noise
    features = np.zeros((len(expected), 3, 4))
    features[:, :, :3] = colours[:, None, :]
    return features, expected


def classification(labels: list[int], confidences: list[float],
                   distances: list[list[float]]) -> Classification:
    return Classification(np.array(labels), np.array(confidences), np.array(distances))


def test_glare_leaves_a_tops_excess_unchanged() -> None:
    assert np.allclose(excess(with_glare(RED_TOP, 0.4)), excess(RED_TOP))


def test_the_line_runs_from_black_to_red_with_the_sets_far_apart_along_it() -> None:
    contrast = learn_set_contrast(*start_features())
    assert contrast is not None
    red, black = (float(excess(top) @ np.array(contrast.axis)) for top in (RED_TOP, BLACK_TOP))
    assert black < contrast.middle < red


def test_sets_that_differ_only_in_brightness_have_no_line() -> None:
    features, expected = start_features(spread=0.05)
    grey = np.log([0.5, 0.5, 0.5])
    features[expected == 1, :, :3] = grey + np.random.default_rng(2).normal(
        0.0, 0.05, (int((expected == 1).sum()), 1, 3))
    assert learn_set_contrast(features, expected) is None


def test_an_unsure_glared_red_piece_is_confirmed_and_nothing_else_changes() -> None:
    contrast = learn_set_contrast(*start_features())
    assert contrast is not None
    glared_red, glared_black = with_glare(RED_TOP, 0.35), with_glare(BLACK_TOP, 0.35)
    features = np.zeros((4, 3, 4))
    for index, colour in enumerate((glared_red, glared_black, glared_black, glared_red)):
        features[index, :, :3] = colour
    result = classification(
        [1, 1, 2, 1], [0.7, 0.7, 0.7, 0.7],
        [[5.0, 2.0, 2.2],   # a glared red top between the sets: confirmed
         [5.0, 2.0, 2.2],   # a glared black top read as red: its excess says otherwise
         [5.0, 2.2, 2.0],   # a glared black top read as black: confirmed
         [3.0, 2.0, 2.2]])  # nearly bare paper: left unsure
    assert confirmed(contrast, features, result, 0.9).tolist() == [0.9, 0.7, 0.9, 0.7]


def test_the_contrast_is_kept_in_the_calibration_file(
        room_calibration: Callable[[str], Calibration], tmp_path: Path) -> None:
    learned = room_calibration("pendant-glossy-start.jpg").set_contrast
    assert learned is not None
    save_calibration(room_calibration("pendant-glossy-start.jpg"), tmp_path / "calibration.json")
    loaded = load_calibration(tmp_path / "calibration.json").set_contrast
    assert loaded is not None
    assert np.allclose(loaded.axis, learned.axis, atol=1e-5)
    assert (loaded.middle, loaded.spread) == pytest.approx((learned.middle, learned.spread),
                                                           abs=1e-5)


def test_a_malformed_contrast_in_the_file_is_a_clear_error(
        calibration6: Calibration, tmp_path: Path) -> None:
    path = tmp_path / "calibration.json"
    save_calibration(replace(calibration6, set_contrast=SetContrast((1.0, 0.0, 0.0), 0.2, 0.05)),
                     path)
    path.write_text(path.read_text().replace('"spread": 0.05', '"spread": -1'))
    with pytest.raises(BadCalibration, match="corrupt calibration file"):
        load_calibration(path)


def test_glossy_pieces_under_a_pendant_lamp_are_read(
        room_calibration: Callable[[str], Calibration], config: VisionConfig) -> None:
    # Red and black glossy plastic under a lamp above: glare washes some red tops pink and
    # turns black ones grey, about as near each other's set as their own in log colour.
    truth = BoardReading.parse("1brrbb/1b3b/1r1r1r/r2rb1/b2bbr/b2rb1")
    calibration = room_calibration("pendant-glossy-start.jpg")
    image = cv2.imread(str(ROOMS / "pendant-glossy-frame.jpg"))
    frame = BoardReader(calibration, config).read(image)
    assert (frame.status, frame.reading) == (ReadStatus.OK, truth)
    without = BoardReader(replace(calibration, set_contrast=None), config).read(image)
    assert without.reading is None


def test_printed_pieces_the_light_tints_unevenly_calibrate_and_are_read(
        room_calibration: Callable[[str], Calibration], config: VisionConfig) -> None:
    # Red tops printed with a white emblem against black ones with a yellow emblem, the
    # camera's exposure drifting: two black tops of the start position (c5, f6) lie nearer
    # the red set's colour, but plainly on the black side of the line.
    calibration = room_calibration("printed-drift-start.jpg")
    frame = BoardReader(calibration, config).read(
        cv2.imread(str(ROOMS / "printed-drift-frame.jpg")))
    assert frame.reading == BoardReading.parse("3rrr/2rrrb/1rb1rr/bbb1bb/1b3b/1b4")
