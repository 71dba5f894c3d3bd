"""The room benchmark counts the near misses a wrong board is one step from."""

from __future__ import annotations

from benchmarks.vision_rooms import surely_wrong
from controller.position import start_position
from controller.reading import BoardReading
from tests.doubtful_frames import doubtful
from vision.colour import PointLabel

START = BoardReading.of(start_position(6))


def test_a_doubtful_frame_whose_sure_points_are_right_is_no_near_miss() -> None:
    frame = doubtful(START, {"a1": (PointLabel.BLACK, PointLabel.RED)})
    assert not surely_wrong(frame, START)


def test_a_doubtful_frame_with_a_sure_point_read_wrongly_is_a_near_miss() -> None:
    # Read from another board: c2 holds nothing there, and the frame is sure of it.
    moved = BoardReading.parse("bbbbbb/bbbbbb/6/6/rr1rrr/rrrrrr")
    frame = doubtful(moved, {"a1": (PointLabel.BLACK, PointLabel.RED)})
    assert surely_wrong(frame, START)
    # The point the frame doubts is no near miss, whatever it was read as.
    assert not surely_wrong(doubtful(START, {"c2": (PointLabel.EMPTY, PointLabel.RED)}), START)
