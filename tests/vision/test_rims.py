"""A glossy dark top mirroring a lamp keeps its dark rim: never read as a pale piece."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from pathlib import Path

import cv2
import numpy as np
import pytest

from controller.geometry import point_name
from controller.reading import BoardReading
from tests.vision.calibration_files import assert_kept_in_file
from vision.calibrate import Calibration, calibrate, start_labels
from vision.colour import LABELS, ColourModel, PointLabel
from vision.config import VisionConfig
from vision.errors import CalibrationFailed
from vision.reader import BoardReader, FrameReading, ReadStatus
from vision.rims import (
    RimCheck,
    dark_all_round,
    dark_rimmed,
    learn_rim_check,
    mirrored_pale_set,
)

ROOMS = Path(__file__).parent / "data" / "rooms"
RED, BLACK = LABELS.index(PointLabel.RED), LABELS.index(PointLabel.BLACK)


def colours(red: list[float], black: list[float]) -> ColourModel:
    """A colour model with these set colours (log, relative to the paper)."""
    means = np.array([[0.0, 0.0, 0.0, 1.0], [*red, 0.0], [*black, 0.0]])
    return ColourModel(means, np.stack([np.eye(4) * 0.01] * 3))


def start_rims(pale: float, dark: float) -> tuple[np.ndarray, np.ndarray]:
    """Rims of a 6x6 start position: ``pale`` round the red side's pieces, ``dark`` round
    the black's, the paper's level round bare points."""
    expected = start_labels(6)
    rims = np.random.default_rng(3).normal(0.0, 0.02, len(expected))
    rims[expected == RED] += pale
    rims[expected == BLACK] += dark
    return rims, expected


WHITE_AND_BLACK = colours([-0.12, -0.12, -0.12], [-1.6, -1.6, -1.6])


def test_a_pale_set_against_dark_rims_gets_a_floor_below_its_own_rims() -> None:
    check = learn_rim_check(WHITE_AND_BLACK.means, *start_rims(pale=-0.2, dark=-1.2))
    assert check is not None
    assert (check.pale, check.dark) == (PointLabel.RED, PointLabel.BLACK)
    assert -0.55 < check.floor < -0.4
    frame_rims = np.array([-0.8, -0.2, -0.8])
    assert dark_rimmed(check, frame_rims, np.array([RED, RED, BLACK])).tolist() == [
        True, False, False]


def test_the_rim_all_round_gets_a_floor_of_its_own() -> None:
    rims, expected = start_rims(pale=-0.2, dark=-1.2)
    round_rims, _ = start_rims(pale=-0.1, dark=-0.9)
    check = learn_rim_check(WHITE_AND_BLACK.means, rims, expected, round_rims)
    assert check is not None and check.round_floor is not None
    assert -0.45 < check.round_floor < -0.3
    # A white top whose ring is dark on one side only (its shadow): above the floor all
    # round, though its whole ring's darkest part is below the other floor.
    labels = np.array([RED, RED, BLACK])
    assert dark_rimmed(check, np.array([-0.8, -0.8, -0.8]), labels).tolist() == [
        True, True, False]
    assert dark_all_round(check, np.array([-0.2, -0.6, -0.6]), labels).tolist() == [
        False, True, False]
    # A check from a file written before the floor was learned raises no doubt by it.
    old = replace(check, round_floor=None)
    assert not dark_all_round(old, np.array([-2.0, -2.0, -2.0]), labels).any()


def test_no_floor_without_a_pale_set_or_darker_rims() -> None:
    red_and_black = colours([-1.2, -1.2, -0.1], [-1.6, -1.6, -1.6])
    assert learn_rim_check(red_and_black.means, *start_rims(pale=-0.2, dark=-1.2)) is None
    assert learn_rim_check(WHITE_AND_BLACK.means, *start_rims(pale=-0.2, dark=-0.3)) is None


def test_the_rim_check_is_kept_in_the_calibration_file(calibration6: Calibration,
                                                       tmp_path: Path) -> None:
    check = RimCheck(PointLabel.RED, PointLabel.BLACK, -0.45, -0.35)
    assert_kept_in_file(calibration6, tmp_path, ('"dark": "b"', '"dark": "r"'), rim_check=check)
    assert_kept_in_file(calibration6, tmp_path, ('"round_floor": -0.35', '"round_floor": "x"'),
                        rim_check=check)


@pytest.mark.parametrize(("room", "board"), [
    # Glossy white and black pieces under a small lamp right above the board (Blender
    # renders): the black tops on c3 and d3 mirror it and look as white as the white
    # ones; the start position, its middle ranks bare, showed no such top.
    ("mirror-black-pendant", "1r4/4r1/3r2/1rbb2/4rr/3rb1"),
    # The same set under a spotlight: the black top on f1 mirrors it.
    ("mirror-black-spotlight", "b5/2bbr1/5b/b2b2/6/2b2b"),
])
def test_a_black_top_mirroring_a_lamp_is_never_read_as_white(
        room_calibration: Callable[[str], Calibration], config: VisionConfig, room: str,
        board: str) -> None:
    # Their rims all round lie far below any white top's: they are read as black.
    truth = BoardReading.parse(board)
    calibration = room_calibration(f"{room}-start.jpg")
    assert calibration.rim_check is not None
    image = cv2.imread(str(ROOMS / f"{room}-frame.jpg"))
    frame = BoardReader(calibration, config).read(image)
    assert frame.status is ReadStatus.OK and frame.reading == truth
    # (Without the set forest too, which doubts those tops as well: vision.set_forest.)
    without = BoardReader(replace(calibration, rim_check=None), config,
                          tell_sets_by_pattern=False).read(image)
    assert without.reading not in (None, truth)


def test_a_black_top_mirroring_a_lamp_the_start_position_showed_mirrored_is_read_black(
        room_calibration: Callable[[str], Calibration], config: VisionConfig) -> None:
    # Glossy white and black pieces under a pendant lamp (a Blender render, seed 901): the
    # black tops on e5 and f5 of the start position mirrored it whole. In the frame the
    # black top on e5 mirrors it and looks white, with a black rim: it is read as black.
    truth = BoardReading.parse("4rb/1b1bb1/1b1rrr/1b1b2/r1b1bb/4b1")
    calibration = room_calibration("rim-told-pendant-start.jpg")
    assert calibration.rim_check is not None and calibration.mirror_points
    image = cv2.imread(str(ROOMS / "rim-told-pendant-frame.jpg"))
    assert BoardReader(calibration, config).read(image).reading == truth
    # Where the start position showed no lamp mirrored, its rim all round, far darker than
    # a white top's ever is, tells it too.
    unmirrored = BoardReader(replace(calibration, mirror_points=frozenset(), pale_mirrors={}),
                             config).read(image)
    assert unmirrored.reading == truth
    # Without the rims, it is read as white: a wrong board, unless the set forest judges it,
    # which wants its pattern's word for a white top there (set_forest.SPOT_PALE_SHARE).
    no_rims = replace(calibration, rim_check=None)
    assert BoardReader(no_rims, config, tell_sets_by_pattern=False).read(image).reading not in (
        None, truth)
    assert BoardReader(no_rims, config).read(image).reading is None


def test_where_only_pale_tops_mirrored_the_lamp_at_the_start_a_dark_rim_raises_a_doubt(
        room_calibration: Callable[[str], Calibration],
        room_reading: Callable[[str], FrameReading]) -> None:
    # Glossy white and black pieces under a wide lens (a Blender render, seed 1201): at
    # calibration the white tops on d2, e1, e2 and f2 mirrored the lamp, and no top
    # mirrored it whole. In the frame the black tops on d1, f1, f2 and c3 mirror it with
    # their black rims, and the one on e2 with a rim as pale as a white's, read as white.
    # The four, dark all round, are read as black; by its colours and rim e2 stays
    # doubtful, and the frame is not read (read surely as white, e2 would make it a wrong
    # board). (Its pixels favour white's palette, so the set forest's word that it is
    # black is not taken: vision.reader.PATTERN_AGAINST_PALETTE.)
    calibration = room_calibration("pale-mirrors-wide-start.jpg")
    assert calibration.rim_check is not None and calibration.pale_mirrors
    assert not calibration.mirror_points
    truth = BoardReading.parse("bb1b2/3r1b/2b3/1bb3/4bb/b2b1b")
    frame = room_reading("pale-mirrors-wide")
    assert frame.reading is None
    assert [point_name(point) for point in frame.doubtful] == ["e2"]
    assert frame.fitting([truth]) == truth


@pytest.mark.parametrize(("room", "board", "doubted"), [
    # Glossy white and black pieces under a pendant lamp (a Blender render, seed 1201): the
    # black tops on e3 and d4, on ranks the start position left bare, mirror the lamp and
    # were read as white, surely. Their dark bevels run all round them, far darker than a
    # white top's rim: they are read as black.
    ("rim-all-round-pendant", "1b4/r5/3b2/1b2b1/r3br/b1b3", set()),
    # The wide lens above: the black top on e2, its ring's darkest part as pale as a white's
    # and its rim all round a little below a white top's: doubtful.
    ("pale-mirrors-wide", "bb1b2/3r1b/2b3/1bb3/4bb/b2b1b", {"e2"}),
])
def test_a_dark_rim_all_round_tells_a_pale_looking_top_or_leaves_it_doubtful(
        room_calibration: Callable[[str], Calibration], config: VisionConfig, room: str,
        board: str, doubted: set[str]) -> None:
    truth = BoardReading.parse(board)
    calibration = room_calibration(f"{room}-start.jpg")
    assert calibration.rim_check is not None and calibration.rim_check.round_floor is not None
    image = cv2.imread(str(ROOMS / f"{room}-frame.jpg"))
    # (The set forest is left out: the rims alone are tested here.)
    frame = BoardReader(calibration, config, tell_sets_by_pattern=False).read(image)
    assert {point_name(point) for point in frame.doubtful} == doubted
    assert truth in (frame.reading, frame.fitting([truth]))
    # Without it, the frame is sure those tops are white: the game could only take it for
    # a wrong board. (Near the lamp's reflection, the set forest would doubt them too:
    # vision.set_forest.SPOT_PALE_SHARE.)
    without = BoardReader(replace(calibration, rim_check=replace(calibration.rim_check,
                                                                 round_floor=None)),
                          config, tell_sets_by_pattern=False).read(image)
    assert not without.allows(truth)


def test_a_set_of_the_paper_s_colour_within_dark_rims_is_a_mirrored_dark_one() -> None:
    expected = start_labels(6)
    dark_rims, _ = start_rims(pale=-0.6, dark=-0.9)
    pale_rims, _ = start_rims(pale=-0.15, dark=-0.9)
    assert mirrored_pale_set(WHITE_AND_BLACK.means, dark_rims, expected) == (
        PointLabel.RED, PointLabel.BLACK)
    # White tops keep pale rims, even under a lamp; a cream or wooden set, farther from the
    # paper's colour, may show dark rims round it in a low lamp's shadows; a set far from
    # the paper's colour is no pale one.
    assert mirrored_pale_set(WHITE_AND_BLACK.means, pale_rims, expected) is None
    cream = colours([-0.45, -0.3, -0.15], [-1.6, -1.6, -1.6])
    assert mirrored_pale_set(cream.means, dark_rims, expected) is None
    red_and_black = colours([-1.2, -1.2, -0.1], [-1.6, -1.6, -1.6])
    assert mirrored_pale_set(red_and_black.means, dark_rims, expected) is None


def test_a_dark_set_that_looks_pale_only_by_mirroring_a_lamp_is_refused(
        config: VisionConfig) -> None:
    # Glossy red and black pieces under a wide lens's light (a Blender render, seed 1501):
    # every red top looks white, within its dark rim, and black tops under the lamp were
    # read as red, surely: two wrong boards.
    image = cv2.imread(str(ROOMS / "mirrored-red-set-wide-start.jpg"))
    with pytest.raises(CalibrationFailed, match=r"the red pieces look pale only because a "
                       r"lamp is mirrored in their glossy tops .* a black piece there would "
                       r"look the same: .* matt tops"):
        calibrate(config, image)


def test_a_dark_set_whose_own_colour_shows_on_a_few_tops_is_learned_from_those(
        room_calibration: Callable[[str], Calibration],
        room_reading: Callable[[str], FrameReading]) -> None:
    # The same set under a ceiling lamp (seed 1201): eight of the black tops of the start
    # position mirror it and look white; the four on the left show black. Learned with the
    # eight, black looked white, and a red top under the lamp was read as black, surely.
    # Left out, they are as many doubtful points as a frame may have; in play the red tops
    # under the lamp are doubtful between the sets, for the game to tell.
    calibration = room_calibration("mirrored-blacks-ceiling-start.jpg")
    assert {point_name(point) for point in calibration.mirror_points} == {
        "a5", "b5", "c5", "d5", "a6", "b6", "d6", "e6"}
    truth = BoardReading.parse("5r/3r2/1rb2b/2b1r1/2b2r/r3r1")
    frame = room_reading("mirrored-blacks-ceiling")
    assert frame.status is ReadStatus.DOUBTFUL and frame.allows(truth)
    assert {point_name(point) for point in frame.doubtful} == {"b4", "d5"}


@pytest.mark.parametrize(("room", "board"), [
    # Cream and brown pieces under a ceiling lamp (a Blender render, seed 1701): the lamp
    # lightens the brown top on c2 towards the cream set, and it was read as brown at 0.76
    # only, doubtful between the sets. Its rim all round lies 0.25 below the floor no
    # cream top's rim comes near: it is brown.
    ("brown-unsure-ceiling", "3r1b/r1brr1/br4/rr2r1/1bbb2/2b1bb"),
    # Glossy white and black pieces under a pendant lamp (a Blender render, seed 2001): the
    # black top on f1 mirrors the lamp, and its pixels plainly hold the white set's colours
    # (by 3.3 per pixel). It was read as white, surely (a wrong board), then, told by its
    # rim, left doubtful as the palette disagreed. Its rim all round lies far below any
    # white top's; the palette sees only its face, which mirrors the lamp.
    ("white-pixels-black-rim-pendant", "4r1/br1bb1/3bbr/3rrr/3rr1/b1br1b"),
    # Cream and brown pieces under a ceiling lamp (a Blender render, seed 2101): the lamp
    # greys the brown tops on b1, c1 and e1 half way to the cream set, their excess too,
    # and the sets' contrast disputed them: doubtful between the sets, though their rims
    # all round lie far below any cream top's.
    ("brown-disputed-ceiling", "rb2br/1r1brb/1rbrr1/1rr3/1brrbb/rbb1b1"),
])
def test_a_dark_top_that_looks_pale_or_unsure_is_told_by_its_rim(
        room_reading: Callable[[str], FrameReading], room: str, board: str) -> None:
    assert room_reading(room).reading == BoardReading.parse(board)
