"""The lamp layout and the lamps a move lights, checked against positions worked by hand."""

from __future__ import annotations

import itertools
import math

import pytest

from controller import Variant, find_move, parse_position
from controller.geometry import geometry, parse_point, point_name, point_xy
from hardware.lamps import LampKind, LampLayout, default_chain_order, lamps_for_move


def lamps_of(position: str, move: str, variant: Variant = Variant.STANDARD) -> list[str]:
    board = parse_position(position)
    return lamps_for_move(LampLayout(board.size), find_move(board, move, variant))


def test_default_layouts_have_a_lamp_per_point_and_3_or_5_per_loop() -> None:
    six, seven = LampLayout(6), LampLayout(7)
    assert len(six) == 68
    assert sum(lamp.kind is LampKind.POINT for lamp in six) == 36
    assert sum(lamp.kind is LampKind.POINT for lamp in seven) == 49
    assert len(seven) == 49 + 4 * 3 + 4 * 5
    assert {"inner-sw-0", "inner-sw-2", "outer-ne-0", "outer-ne-4"} <= set(six.names)
    assert "inner-sw-3" not in six and "outer-ne-5" not in six


def test_loop_lamp_counts_are_configurable() -> None:
    layout = LampLayout(6, inner_loop_lamps=1, outer_loop_lamps=0)
    assert len(layout) == 36 + 4
    assert [name for name in layout.names if name.startswith("inner-ne")] == ["inner-ne-0"]
    with pytest.raises(ValueError, match="-1"):
        LampLayout(6, inner_loop_lamps=-1)


def distance(layout: LampLayout, lamp: str, point: str) -> float:
    a, b = layout.lamp(lamp), layout.lamp(point)
    return math.hypot(a.x - b.x, a.y - b.y)


def test_loop_lamp_index_counts_from_the_row_end() -> None:
    layout = LampLayout(6)
    assert distance(layout, "inner-sw-0", "a2") < distance(layout, "inner-sw-0", "b1")
    assert distance(layout, "inner-sw-2", "b1") < distance(layout, "inner-sw-2", "a2")
    assert distance(layout, "outer-ne-0", "f4") < distance(layout, "outer-ne-0", "d6")
    for loop in geometry(6).loops:
        names = layout.loop_lamp_names(loop)
        row_end, column_end = point_name(loop.row_end), point_name(loop.column_end)
        assert distance(layout, names[0], row_end) < distance(layout, names[0], column_end)
        assert distance(layout, names[-1], column_end) < distance(layout, names[-1], row_end)
        # Evenly spaced along the arc, so each lamp's neighbours in the list are its
        # neighbours on the board.
        gaps = [distance(layout, a, b) for a, b in itertools.pairwise(names)]
        assert gaps == pytest.approx([gaps[0]] * len(gaps))


def test_loop_lamps_sit_on_their_arc_outside_the_board() -> None:
    for size in (6, 7):
        layout = LampLayout(size)
        for lamp in layout:
            if lamp.kind is LampKind.LOOP:
                assert lamp.loop is not None
                corner = {"sw": (0, 0), "se": (size - 1, 0), "ne": (size - 1, size - 1)}.get(
                    lamp.loop.corner.value, (0, size - 1)
                )
                distance = math.hypot(lamp.x - corner[0], lamp.y - corner[1])
                assert distance == pytest.approx(lamp.loop.circuit.line)
                assert not (0 <= lamp.x <= size - 1 and 0 <= lamp.y <= size - 1)


def test_point_lamps_sit_under_their_points() -> None:
    layout = LampLayout(7)
    lamp = layout.lamp("g7")
    assert lamp.point == parse_point("g7")
    assert (lamp.x, lamp.y) == tuple(map(float, point_xy(parse_point("g7"))))


def test_default_chain_order_names_every_lamp_once_snaking_over_the_points() -> None:
    for size in (6, 7):
        layout = LampLayout(size)
        order = default_chain_order(layout)
        assert sorted(order) == sorted(layout.names)
    order = default_chain_order(LampLayout(6))
    assert order[:8] == ("a1", "b1", "c1", "d1", "e1", "f1", "f2", "e2")
    assert order[36:39] == ("inner-se-0", "inner-se-1", "inner-se-2")


def test_worked_example_capture_runs_through_the_large_loop_in_travel_order() -> None:
    # docs/RULES.md: Red c4, Black d6, d4/e4/f4 empty: right along rank 4, round the
    # top-right large loop (entered at its row end f4), onto d6.
    assert lamps_of("3b2/6/2r3/6/6/6 r", "c4xd6") == [
        "c4", "d4", "e4", "f4",
        "outer-ne-0", "outer-ne-1", "outer-ne-2", "outer-ne-3", "outer-ne-4",
        "d6",
    ]  # fmt: skip


def test_a_loop_entered_at_its_column_end_lights_backwards() -> None:
    # Red d5 goes up file d to d6, round the top-right loop from its column end
    # (d6) to its row end (f4), and captures Black on f4.
    assert lamps_of("6/3r2/5b/6/6/6 r", "d5xf4") == [
        "d5", "d6",
        "outer-ne-4", "outer-ne-3", "outer-ne-2", "outer-ne-1", "outer-ne-0",
        "f4",
    ]  # fmt: skip


def test_small_loop_capture() -> None:
    # Red b2 left to a2, round the bottom-left small loop, onto Black b1.
    assert lamps_of("6/6/6/6/1r4/1b4 r", "b2xb1") == [
        "b2", "a2", "inner-sw-0", "inner-sw-1", "inner-sw-2", "b1"
    ]  # fmt: skip


def test_borobudur_capture_runs_on_to_the_landing() -> None:
    assert lamps_of("3b2/6/2r3/6/6/6 r", "c4xd6>d5", Variant.BOROBUDUR)[-3:] == [
        "outer-ne-4", "d6", "d5"
    ]  # fmt: skip


def test_long_trip_passes_a_crossing_point_twice() -> None:
    lamps = lamps_of("6/3r2/5b/6/6/6 r", "d5xf4>d6", Variant.BOROBUDUR)
    assert lamps[:6] == ["d5", "d4", "d3", "d2", "d1", "outer-se-4"]
    assert lamps.count("d3") == 2 and lamps.count("c3") == 2
    assert lamps[-2:] == ["outer-ne-4", "d6"]
    # Round the whole outer circuit: 24 points (two of them twice) and 4 loops of 5.
    assert len(lamps) == 24 + 4 * 5


def test_a_step_lights_its_origin_and_target() -> None:
    assert lamps_of("bbbbbb/bbbbbb/6/6/rrrrrr/rrrrrr r", "b2-c3") == ["b2", "c3"]
