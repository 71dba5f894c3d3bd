"""The room benchmark counts the near misses a wrong board is one step from: doubtful frames
that rule the true board out."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from benchmarks.vision_rooms import (
    ConditionTally,
    add_tally,
    ordinary_together,
    report,
    rules_out_truth,
)
from controller.position import start_position
from controller.reading import BoardReading
from tests.doubtful_frames import doubtful
from vision.colour import PointLabel
from vision.doubt import DoubtKind, doubt_kind

START = BoardReading.of(start_position(6))
ROOT = Path(__file__).resolve().parents[2]


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


def test_a_doubtful_point_leaves_open_what_its_choices_say() -> None:
    assert doubt_kind((PointLabel.BLACK, PointLabel.RED)) is DoubtKind.WHICH_SET
    assert doubt_kind((PointLabel.RED, PointLabel.EMPTY)) is DoubtKind.PIECE_OR_BARE
    assert doubt_kind((PointLabel.EMPTY, PointLabel.BLACK, PointLabel.RED)) is (
        DoubtKind.PIECE_OR_BARE)
    assert doubt_kind(()) is DoubtKind.ANYTHING


def test_the_report_says_what_the_doubtful_points_of_each_condition_left_open(
        capsys: pytest.CaptureFixture[str]) -> None:
    window, total = ConditionTally(setups=1, calibrated=1, frames=4, read=2), ConditionTally()
    window.doubts.update(["which set", "which set", "piece or bare paper"])
    add_tally(total, window)
    add_tally(total, window)
    report({"window": window, "all": total}, {})
    lines = capsys.readouterr().out.splitlines()
    assert lines[2].strip() == "doubtful points: 2 which set, 1 piece or bare paper"
    assert lines[4].strip() == "doubtful points: 4 which set, 2 piece or bare paper"


def test_the_ordinary_conditions_are_counted_together_without_the_look_alike_ones() -> None:
    window = ConditionTally(setups=3, calibrated=3, frames=12, read=11, read_in_play=12)
    spotlight = ConditionTally(setups=3, calibrated=2, frames=8, read=8, read_in_play=8)
    look_alike = ConditionTally(setups=3)
    together = ordinary_together({"window": window, "spotlight": spotlight,
                                  "look-alike": look_alike}, {"look-alike": True})
    assert (together.setups, together.calibrated) == (6, 5)
    assert (together.frames, together.read, together.read_in_play) == (20, 19, 20)


@pytest.mark.slow
def test_several_render_folders_are_judged_together_each_piece_set_by_name() -> None:
    # Blender renders come a seed to a folder, three setups of a condition each: the
    # floors are judged per condition over all of them. The committed sample, given
    # twice, counts every setup twice, and each piece set is named by its scene.
    sample = Path(__file__).parent / "data" / "photoreal"
    printed = subprocess.run(
        [sys.executable, "benchmarks/vision_rooms.py", "--renders", str(sample), str(sample)],
        capture_output=True, text=True, check=False, cwd=ROOT).stdout
    rows = {line.split()[0]: line for line in printed.splitlines() if line.strip()}
    for condition in ("ceiling", "wide-lens", "window"):
        assert rows[condition].split()[1] == "2/2"
    for piece_set in ("light-dark-wood", "red-black", "white-black"):
        assert rows[piece_set].split()[1] == "2/2"
    # The ordinary conditions together: all six setups.
    assert rows["all"].split()[:3] == ["all", "ordinary", "6/6"]
    assert "?" not in rows
