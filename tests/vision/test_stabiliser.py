import pytest

from controller.position import parse_position, start_position
from controller.reading import BoardReading
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
