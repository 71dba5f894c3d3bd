"""Legal moves and capture paths on hand-made positions, one rule of a trip at a time."""

from __future__ import annotations

import pytest

from controller import (
    AmbiguousMove,
    BadMove,
    IllegalMove,
    Move,
    Variant,
    find_move,
    legal_moves,
    make_move,
    parse_position,
    start_position,
)


def moves_of(text: str, variant: Variant = Variant.STANDARD) -> dict[str, Move]:
    moves = legal_moves(parse_position(text), variant)
    names = [move.name for move in moves]
    assert len(names) == len(set(names)), "duplicate moves"
    return dict(zip(names, moves, strict=True))


def captures_of(text: str, variant: Variant = Variant.STANDARD) -> dict[str, list[str]]:
    return {
        name: move.path_names() for name, move in moves_of(text, variant).items() if "x" in name
    }


def test_start_has_16_steps_and_no_capture() -> None:
    moves = moves_of(str(start_position()))
    assert len(moves) == 16
    assert all(move.origin // 8 == 1 for move in moves.values())  # all from rank 2
    assert "b2-c3" in moves and "a1-a2" not in moves


def test_worked_example_capture_round_the_top_right_large_loop() -> None:
    # Red c4, Black d6, d4 e4 f4 empty.
    assert captures_of("3b2/6/2r3/6/6/6 r")["c4xd6"] == ["c4", "d4", "e4", "f4", "outer-ne", "d6"]


def test_trip_may_pass_back_over_its_own_starting_point() -> None:
    # d4 is next to c4 on rank 4, so only a trip through a loop captures it; the
    # shortest goes up file c, round the NW loop, along rank 4 and over c4 itself.
    assert captures_of("6/6/2rb2/6/6/6 r")["c4xd4"] == [
        "c4", "c5", "c6", "outer-nw", "a4", "b4", "c4", "d4",
    ]


def test_no_capture_without_a_loop_and_own_piece_blocks_every_way() -> None:
    # Red a3 next to black b3; the long way round is blocked by red f3.
    assert captures_of("6/6/6/rb3r/6/6 r") == {}


def test_full_lap_through_all_four_loops() -> None:
    path = captures_of("6/6/6/rb4/6/6 r")["a3xb3"]
    assert [station for station in path if "-" in station] == [
        "outer-sw", "outer-nw", "outer-ne", "outer-se",
    ]
    assert path[0] == "a3" and path[-1] == "b3" and len(path) == 28


def test_own_piece_first_means_no_capture_that_way() -> None:
    captures = captures_of("3b2/6/2rr2/6/6/6 r")
    assert "c4xd6" not in captures
    assert captures["d4xd6"] == ["d4", "e4", "f4", "outer-ne", "d6"]


def test_small_loop_capture_on_the_inner_circuit() -> None:
    assert captures_of("6/6/6/6/r5/1b4 r")["a2xb1"] == ["a2", "inner-sw", "b1"]


def test_capture_reachable_on_both_circuits_is_one_move_with_the_shortest_path() -> None:
    # b3 and e3 lie on both circuits: the inner trip (13 stations) beats the outer (26).
    position = "6/6/6/1r2b1/6/6 r"
    assert [name for name in moves_of(position) if name.startswith("b3x")] == ["b3xe3"]
    assert captures_of(position)["b3xe3"] == [
        "b3", "b2", "b1", "inner-sw", "a2", "b2", "c2", "d2", "e2", "f2", "inner-se",
        "e1", "e2", "e3",
    ]


def test_crossing_point_sets_off_along_either_line() -> None:
    # c3 is where rank 3 and file c cross on the outer circuit.
    up_file_c = captures_of("6/6/5b/2r3/6/6 r")["c3xf4"]
    assert up_file_c[:5] == ["c3", "c4", "c5", "c6", "outer-nw"]
    along_rank_3 = captures_of("6/2r3/5b/2r3/6/6 r")["c3xf4"]  # c5 blocks file c
    assert along_rank_3[:5] == ["c3", "d3", "e3", "f3", "outer-se"]


def test_step_may_not_land_on_a_piece_and_corners_step_only() -> None:
    moves = moves_of("6/6/6/6/rb4/r5 r")
    assert "a1-a2" not in moves and "a1-b2" not in moves and "a1-b1" in moves
    assert not any(name.startswith("a1x") for name in moves)


def test_sepur_start_and_middle_line() -> None:
    moves = moves_of(str(start_position(7)), Variant.SEPUR)
    assert len(moves) == 19
    # d4 lies on no circuit: a lone piece there only steps.
    lonely = moves_of("7/7/7/3r3/7/7/b6 r", Variant.SEPUR)
    assert set(lonely) == {f"d4-{p}" for p in ("c3", "d3", "e3", "c4", "e4", "c5", "d5", "e5")}


def test_sepur_inner_circuit_on_lines_1_and_5() -> None:
    captures = captures_of("7/7/7/7/7/r6/1b5 r", Variant.SEPUR)
    assert captures["a2xb1"] == ["a2", "inner-sw", "b1"]


def test_gonu_steps_orthogonally_and_slides_along_the_outer_circuit() -> None:
    moves = moves_of(str(start_position()), Variant.GONU)
    steps = {name for name in moves if "-" in name}
    slides = {name for name in moves if "~" in name}
    assert steps == {f"{f}2-{f}3" for f in "abcdef"}
    assert slides == {f"c1~{f}3" for f in "abcdef"} | {f"d1~{f}3" for f in "abcdef"}
    assert moves["c1~a3"].path_names() == ["c1", "outer-sw", "a3"]


def test_gonu_step_wins_over_slide_between_the_same_points() -> None:
    # c1 to c2 is a step; the slide c1 -> ... -> c2 round the circuit is not listed.
    moves = moves_of("6/6/6/6/6/2r3 r", Variant.GONU)
    assert "c1-c2" in moves and "c1~c2" not in moves
    assert "c1~c3" in moves  # through the SW loop, a3, b3, c3


def test_gonu_slide_needs_a_loop() -> None:
    moves = moves_of("6/6/6/6/6/2r3 r", Variant.GONU)
    slide = moves["c1~c3"]
    assert slide.loops and slide.path_names()[-1] == "c3"


def test_borobudur_worked_example_lands_beyond_the_captured_piece() -> None:
    moves = moves_of("3b2/6/2r3/6/6/6 r", Variant.BOROBUDUR)
    assert moves["c4xd6>d5"].path_names() == ["c4", "d4", "e4", "f4", "outer-ne", "d6", "d5"]
    assert make_move(parse_position("3b2/6/2r3/6/6/6 r"), moves["c4xd6>d5"]) == parse_position(
        "6/3r2/6/6/6/6 b"
    )


def test_borobudur_landing_beyond_a_loop_end_is_the_far_end_of_the_loop() -> None:
    moves = moves_of("6/6/6/5b/6/2r3 r", Variant.BOROBUDUR)
    assert moves["c1xf3>d1"].path_names() == [
        "c1", "outer-sw", "a3", "b3", "c3", "d3", "e3", "f3", "outer-se", "d1",
    ]


def test_borobudur_needs_an_empty_landing() -> None:
    assert "c4xd6>d5" not in moves_of("3b2/3r2/2r3/6/6/6 r", Variant.BOROBUDUR)


def test_find_move_parses_names_and_rejects_illegal_ones() -> None:
    position = parse_position("3b2/6/2r3/6/6/6 r")
    assert find_move(position, "c4xd6").path
    assert find_move(position, "c4xd6>d5", Variant.BOROBUDUR).landing is not None
    # Up file d the jump lands beyond the NE loop on f4; along rank 4 it lands on d5.
    with pytest.raises(AmbiguousMove, match=r"ambiguous move: 'c4xd6' \(could be c4xd6>"):
        find_move(position, "c4xd6", Variant.BOROBUDUR)
    lone_landing = parse_position("6/6/6/5b/2r3/2r3 r")  # c2 blocks file c
    assert find_move(lone_landing, "c1xf3", Variant.BOROBUDUR).name == "c1xf3>d1"
    with pytest.raises(IllegalMove, match="illegal move: 'c4-c6'"):
        find_move(position, "c4-c6")
    with pytest.raises(BadMove, match="invalid move: 'c4c5'"):
        find_move(position, "c4c5")
    with pytest.raises(BadMove):
        find_move(position, "c4-c5>c6")


def test_make_move_removes_the_captured_piece_and_passes_the_turn() -> None:
    position = parse_position("3b2/6/2r3/6/6/6 r")
    after = make_move(position, find_move(position, "c4xd6"))
    assert str(after) == "3r2/6/6/6/6/6 b"


def test_no_moves_for_a_side_without_pieces() -> None:
    assert moves_of("6/6/6/6/6/r5 b") == {}
