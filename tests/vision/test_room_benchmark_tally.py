"""The room benchmark counts the near misses a wrong board is one step from: doubtful frames
that rule the true board out."""

from __future__ import annotations

from benchmarks.vision_rooms import rules_out_truth
from controller.position import start_position
from controller.reading import BoardReading
from tests.doubtful_frames import doubtful
from vision.colour import PointLabel

START = BoardReading.of(start_position(6))


def test_a_doubtful_frame_whose_sure_points_are_right_is_no_near_miss() -> None:
    frame = doubtful(START, {"a1": (PointLabel.BLACK, PointLabel.RED)})
    assert not rules_out_truth(frame, START)


def test_a_doubtful_frame_with_a_sure_point_read_wrongly_is_a_near_miss() -> None:
    # Read from another board: c2 holds nothing there, and the frame is sure of it.
    moved = BoardReading.parse("bbbbbb/bbbbbb/6/6/rr1rrr/rrrrrr")
    frame = doubtful(moved, {"a1": (PointLabel.BLACK, PointLabel.RED)})
    assert rules_out_truth(frame, START)
    # The point the frame doubts is no near miss, whatever it was read as.
    assert not rules_out_truth(doubtful(START, {"c2": (PointLabel.EMPTY, PointLabel.RED)}), START)


def test_a_doubtful_point_whose_choices_leave_its_label_out_is_a_near_miss() -> None:
    # c2 holds a red piece; the frame doubts it, but only between black and bare paper.
    frame = doubtful(START, {"c2": (PointLabel.BLACK, PointLabel.EMPTY)})
    assert rules_out_truth(frame, START)
    # A point that may hold anything rules nothing out.
    assert not rules_out_truth(doubtful(START, {"c2": ()}), START)
