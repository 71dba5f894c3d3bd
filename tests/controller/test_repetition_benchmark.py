"""benchmarks/repetition.py judges a repetition as the engine's objective promises."""

from __future__ import annotations

from benchmarks.repetition import Judge, judge, repeater
from controller.record import GameRecord, read_record

FIXED = Judge(depth=4)  # a fixed horizon: the same verdicts on any computer


def _record(moves: str, *, position: str | None = None, red: str = "new",
            black: str = "previous") -> GameRecord:
    start = f'[Position "{position}"]\n' if position else ""
    return read_record(f'[Red "{red}"]\n[Black "{black}"]\n{start}\n{moves}\n')


def test_a_shuffle_at_the_start_is_a_draw_taken_while_play_goes_on() -> None:
    record = _record("1. b2-b3 e5-e4 2. b3-b2 e4-e5 1/2-1/2", black="new", red="previous")
    assert repeater(record) == "new"
    judged = judge(record, Judge(depth=2))  # twelve pieces each: two plies are enough
    assert (judged.state, judged.material) == ("level", "12-12")
    assert "above the draw's -0.60" in judged.violation
    assert not judged.every_alternative_lost


def test_ahead_a_repetition_beside_a_table_win_breaks_the_floor() -> None:
    # Black, three against two, steps back while e5xc2 wins by the tables in 5 plies.
    record = _record(
        "1. e1-d2 b3-c4 2. d2-e1 c4-b3 0-1",
        position="6/4b1/6/1b4/2r3/b3r1 r",
        black="new",
    )
    judged = judge(record, FIXED)
    assert (judged.state, judged.material) == ("ahead", "3-2")
    assert judged.table_win is not None and judged.table_win.name == "e5xc2"
    assert judged.violation == "the tables win with e5xc2"


def test_level_a_repetition_is_right_when_every_other_move_is_wiped_out() -> None:
    # One against one: red shuffles on the top row while black circles; any other red
    # move steps onto a circuit and is captured (from a tournament game).
    record = _record(
        "30... a5-b6 31. d6-c6 b6-b5 32. c6-d6 b5-a5 33. d6-c6 a5-b6 34. c6-d6 b6-b5 "
        "35. d6-c6 b5-a5 36. c6-d6 1/2-1/2",
        position="3r2/b5/6/6/6/6 b",
    )
    assert repeater(record) == "new"
    judged = judge(record, FIXED)
    assert (judged.state, judged.material) == ("level", "1-1")
    assert judged.alternatives and judged.every_alternative_lost
    assert judged.violation == ""


def test_the_other_engines_repetitions_are_not_the_engines() -> None:
    record = _record("1. b2-b3 e5-e4 2. b3-b2 e4-e5 1/2-1/2")
    assert repeater(record) == "previous"
