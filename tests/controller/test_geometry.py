"""The circuits and loops, checked against the walk described in docs/RULES.md."""

from __future__ import annotations

import pytest

from controller import CircuitKind, Corner, geometry, point_name


def _walk(size: int, kind: CircuitKind) -> list[str]:
    circuit = geometry(size).circuits[0 if kind is CircuitKind.INNER else 1]
    names = []
    for station, loop in zip(circuit.stations, circuit.loop_after, strict=True):
        names.append(point_name(station))
        if loop is not None:
            names.append(loop.name)
    return names


def test_outer_circuit_walk_of_the_rules() -> None:
    assert _walk(6, CircuitKind.OUTER) == (
        ["a3", "b3", "c3", "d3", "e3", "f3", "outer-se"]
        + ["d1", "d2", "d3", "d4", "d5", "d6", "outer-ne"]
        + ["f4", "e4", "d4", "c4", "b4", "a4", "outer-nw"]
        + ["c6", "c5", "c4", "c3", "c2", "c1", "outer-sw"]
    )


def test_inner_circuit_uses_rank_2_file_e_rank_5_file_b() -> None:
    walk = _walk(6, CircuitKind.INNER)
    assert walk[:7] == ["a2", "b2", "c2", "d2", "e2", "f2", "inner-se"]
    assert walk[7:14] == ["e1", "e2", "e3", "e4", "e5", "e6", "inner-ne"]
    assert walk[-7:] == ["b6", "b5", "b4", "b3", "b2", "b1", "inner-sw"]


def test_small_loop_joins_a2_and_b1_large_loop_joins_a3_and_c1() -> None:
    loops = {loop.name: loop for loop in geometry(6).loops}
    assert len(loops) == 8
    assert (point_name(loops["inner-sw"].row_end), point_name(loops["inner-sw"].column_end)) == (
        "a2",
        "b1",
    )
    assert (point_name(loops["outer-sw"].row_end), point_name(loops["outer-sw"].column_end)) == (
        "a3",
        "c1",
    )
    assert loops["outer-ne"].corner is Corner.NE


@pytest.mark.parametrize("size", [6, 7])
def test_circuits_have_4n_stations_and_skip_corners_and_middle(size: int) -> None:
    board = geometry(size)
    on_circuit = board.circuits[0].mask | board.circuits[1].mask
    for circuit in board.circuits:
        assert len(circuit.stations) == 4 * size
    corners = {"a1", f"{'abcdefg'[size - 1]}1", f"a{size}", f"{'abcdefg'[size - 1]}{size}"}
    off = {point_name(p) for p in board.points if not on_circuit >> p & 1}
    assert corners <= off
    if size == 7:
        assert "d4" in off  # the middle line of bas-basan sepur is on no circuit
        assert _walk(7, CircuitKind.INNER)[:8] == [f"{f}2" for f in "abcdefg"] + ["inner-se"]
