import pytest

from controller.position import parse_position, start_position
from controller.reading import BoardReading
from tests.doubtful_frames import doubtful
from vision.colour import PointLabel
from vision.reader import FrameReading, ReadStatus
from vision.stabiliser import Stabiliser

START = BoardReading.of(start_position())
MOVED = BoardReading.of(parse_position("bbbbbb/bbbbbb/6/r5/1rrrrr/rrrrrr b"))


def ok(reading: BoardReading) -> FrameReading:
    return FrameReading(ReadStatus.OK, reading)


OCCLUDED = FrameReading(ReadStatus.OCCLUDED, None)


def test_a_board_is_handed_on_only_after_holding_for_the_hold_time() -> None:
    stabiliser = Stabiliser(hold_seconds=0.3)
    assert stabiliser.feed(0.0, ok(START)) is None
    assert stabiliser.feed(0.1, ok(START)) is None
    assert stabiliser.feed(0.29, ok(START)) is None
    assert stabiliser.feed(0.3, ok(START)) == START
    assert stabiliser.stable == START


def test_the_hold_time_is_configurable_and_about_a_third_of_a_second_by_default() -> None:
    assert Stabiliser().hold_seconds == pytest.approx(0.3)
    stabiliser = Stabiliser(hold_seconds=1.0)
    assert stabiliser.feed(0.0, ok(START)) is None
    assert stabiliser.feed(0.5, ok(START)) is None
    assert stabiliser.feed(0.99, ok(START)) is None
    assert stabiliser.feed(1.0, ok(START)) == START
    # No hold at all: the first confident frame is handed on.
    assert Stabiliser(hold_seconds=0).feed(0.0, ok(MOVED)) == MOVED


def test_the_same_board_is_handed_on_once() -> None:
    stabiliser = Stabiliser(hold_seconds=0.3)
    stabiliser.feed(0.0, ok(START))
    assert stabiliser.feed(0.4, ok(START)) == START
    assert stabiliser.feed(0.5, ok(START)) is None
    # A hand passes over and leaves the board as it was: nothing new to say.
    stabiliser.feed(0.6, OCCLUDED)
    stabiliser.feed(0.7, ok(START))
    assert stabiliser.feed(1.2, ok(START)) is None


def test_an_occluded_frame_restarts_the_wait() -> None:
    stabiliser = Stabiliser(hold_seconds=0.3)
    stabiliser.feed(0.0, ok(MOVED))
    stabiliser.feed(0.2, OCCLUDED)
    assert stabiliser.feed(0.35, ok(MOVED)) is None
    assert stabiliser.feed(0.6, ok(MOVED)) is None
    assert stabiliser.feed(0.65, ok(MOVED)) == MOVED


def test_a_changing_board_restarts_the_wait() -> None:
    stabiliser = Stabiliser(hold_seconds=0.3)
    stabiliser.feed(0.0, ok(START))
    assert stabiliser.feed(0.4, ok(START)) == START
    stabiliser.feed(0.5, ok(MOVED))
    stabiliser.feed(0.6, ok(START))  # a flicker back: the new board has not held yet
    assert stabiliser.feed(0.7, ok(MOVED)) is None
    assert stabiliser.feed(0.99, ok(MOVED)) is None
    assert stabiliser.feed(1.0, ok(MOVED)) == MOVED


def test_time_must_not_go_backwards_and_hold_must_not_be_negative() -> None:
    stabiliser = Stabiliser()
    stabiliser.feed(1.0, OCCLUDED)
    with pytest.raises(ValueError, match="backwards"):
        stabiliser.feed(0.5, OCCLUDED)
    with pytest.raises(ValueError):
        Stabiliser(hold_seconds=-1)


# -- doubtful frames and the boards the game expects ---------------------------------------

AFTER_C2_C3 = BoardReading.of(parse_position("bbbbbb/bbbbbb/6/2r3/rr1rrr/rrrrrr b"))
"""The start position after red's c2-c3."""
AFTER_B2_C3 = BoardReading.of(parse_position("bbbbbb/bbbbbb/6/2r3/r1rrrr/rrrrrr b"))
"""The start position after red's b2-c3."""


EXPECTED = (START, AFTER_C2_C3, AFTER_B2_C3)
RED_OR_BLACK = (PointLabel.RED, PointLabel.BLACK)
EMPTY_OR_RED = (PointLabel.EMPTY, PointLabel.RED)


def test_a_doubtful_frame_that_fits_one_expected_board_counts_as_it() -> None:
    # A glossy red top on c3 mirrors the lamp: red or black, the colours cannot say. The
    # game can: c2 is bare, so only c2-c3 fits.
    frame = doubtful(AFTER_C2_C3, {"c3": (PointLabel.BLACK, PointLabel.RED)})
    assert frame.fitting(EXPECTED) == AFTER_C2_C3
    stabiliser = Stabiliser(hold_seconds=0.3)
    assert stabiliser.feed(0.0, frame, EXPECTED) is None
    assert stabiliser.feed(0.3, frame, EXPECTED) == AFTER_C2_C3
    # Without the expected boards it is held up as before.
    assert Stabiliser(hold_seconds=0).feed(0.0, frame) is None


def test_a_doubtful_frame_that_fits_two_expected_boards_counts_as_neither() -> None:
    # c2 may be bare or red and c3 bare or red: the start position and c2-c3 both fit.
    frame = doubtful(AFTER_C2_C3, {"c2": EMPTY_OR_RED, "c3": EMPTY_OR_RED})
    assert frame.fitting(EXPECTED) is None
    assert Stabiliser(hold_seconds=0).feed(0.0, frame, EXPECTED) is None


def test_a_doubtful_frame_fits_no_board_its_sure_points_or_choices_deny() -> None:
    # Sure points: b2 bare and c2 red fit only b2-c3, whose c3 must then be red.
    after_b2 = doubtful(AFTER_B2_C3, {"c3": RED_OR_BLACK})
    assert after_b2.fitting(EXPECTED) == AFTER_B2_C3
    assert doubtful(AFTER_B2_C3, {"c3": (PointLabel.BLACK, PointLabel.EMPTY)}).fitting(
        EXPECTED) is None
    # A piece set down between points leaves its point without choices: never fitted.
    between = doubtful(AFTER_C2_C3, {"c3": ()})
    assert between.fitting(EXPECTED) is None
    # A frame that is not doubtful (a hand over the board) is never fitted either.
    assert FrameReading(ReadStatus.OCCLUDED, None).fitting(EXPECTED) is None
    assert Stabiliser(hold_seconds=0).feed(0.0, OCCLUDED, EXPECTED) is None
