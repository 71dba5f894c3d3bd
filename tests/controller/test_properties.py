"""Property tests on random positions: the generator against the plain one, and paths."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from controller import (
    Color,
    Game,
    Loop,
    MoveKind,
    Position,
    Variant,
    geometry,
    legal_moves,
    make_move,
)
from controller.engine.attacks import attack_maps
from controller.geometry import bit
from controller.movegen import rules
from tests.plain_rules import plain_moves


@st.composite
def positions(draw: st.DrawFn, size: int = 6) -> Position:
    points = list(geometry(size).points)
    cells = draw(st.lists(st.sampled_from("rb.."), min_size=len(points), max_size=len(points)))
    red = black = 0
    for point, cell in zip(points, cells, strict=True):
        if cell == "r":
            red |= 1 << point
        elif cell == "b":
            black |= 1 << point
    turn = draw(st.sampled_from(list(Color)))
    return Position(red, black, turn, size)


variants = st.sampled_from(list(Variant))


@pytest.mark.slow
@settings(max_examples=300, deadline=None)
@given(positions(), variants)
def test_moves_equal_the_plain_generator(position: Position, variant: Variant) -> None:
    names = [move.name for move in legal_moves(position, variant)]
    assert len(names) == len(set(names))
    assert set(names) == plain_moves(str(position), variant.value)


@pytest.mark.slow
@settings(max_examples=100, deadline=None)
@given(positions(7), st.sampled_from([Variant.SEPUR, Variant.BOROBUDUR]))
def test_moves_equal_the_plain_generator_on_7x7(position: Position, variant: Variant) -> None:
    names = {move.name for move in legal_moves(position, variant)}
    assert names == plain_moves(str(position), variant.value)


@pytest.mark.slow
@settings(max_examples=300, deadline=None)
@given(positions(), variants)
def test_search_deltas_match_the_moves_in_order(position: Position, variant: Variant) -> None:
    # The search names its moves by their index in deltas(): the two lists must agree.
    own, opp = position.pieces(position.turn), position.pieces(position.turn.other)
    move_rules = rules(variant, position.size)
    expected = [
        (bit(m.origin) ^ bit(m.destination), ~bit(m.target) if m.is_capture else -1)
        for m in move_rules.moves(own, opp)
    ]
    assert move_rules.deltas(own, opp) == expected
    assert move_rules.count(own, opp) == len(expected)
    captures = [delta for delta in expected if delta[1] != -1]
    assert sorted(move_rules.capture_deltas(own, opp)) == sorted(dict.fromkeys(captures))


@pytest.mark.slow
@settings(max_examples=300, deadline=None)
@given(positions(), variants)
def test_attack_maps_name_every_capturable_piece(position: Position, variant: Variant) -> None:
    own, opp = position.pieces(position.turn), position.pieces(position.turn.other)
    attacks, _, count = attack_maps(position.size, variant.captures_by_jumping).reach(own, opp)
    captures = [m for m in legal_moves(position, variant) if m.is_capture]
    assert attacks == sum({bit(m.target) for m in captures})
    if variant is not Variant.BOROBUDUR:  # a jump may reach one piece by two landings
        assert count >= len(captures)


def _neighbours_on_circuit(station: int, loop: Loop | None, following: int) -> bool:
    """Whether two consecutive path points are adjacent along a line, or joined by the loop."""
    if loop is not None:
        return {station, following} == {loop.row_end, loop.column_end}
    dx, dy = abs(station % 8 - following % 8), abs(station // 8 - following // 8)
    return dx + dy == 1


@pytest.mark.slow
@settings(max_examples=300, deadline=None)
@given(positions(), variants)
def test_every_trip_path_follows_the_rules(position: Position, variant: Variant) -> None:
    own, opp = position.pieces(position.turn), position.pieces(position.turn.other)
    for move in legal_moves(position, variant):
        if move.kind is MoveKind.STEP:
            continue
        path = move.path
        assert path[0] == move.origin
        assert move.loops, "a trip takes at least one loop"
        points = [station for station in path if not isinstance(station, Loop)]
        end = path.index(move.target, 1) if move.landing is not None else len(path) - 1
        assert path[end] == move.target
        for station in points[1:-1] if move.landing is None else points[1:]:
            if station in (move.target, move.landing):
                continue
            assert station == move.origin or not (own | opp) >> station & 1
        if move.kind is MoveKind.CAPTURE:
            assert opp >> move.target & 1
        else:
            assert not (own | opp) >> move.target & 1
        circuit_kinds = {loop.circuit for loop in move.loops}
        assert len(circuit_kinds) == 1, "a trip stays on one circuit"
        index = 0
        while index < len(path) - 1:
            here = path[index]
            assert not isinstance(here, Loop)
            following = path[index + 1]
            loop = None
            if isinstance(following, Loop):
                loop, following = following, path[index + 2]
                index += 1
            assert not isinstance(following, Loop)
            assert _neighbours_on_circuit(here, loop, following)
            index += 1


@pytest.mark.slow
@settings(max_examples=100, deadline=None)
@given(positions(), variants, st.data())
def test_play_and_take_back_restores_the_position(
    position: Position, variant: Variant, data: st.DataObject
) -> None:
    moves = legal_moves(position, variant)
    if not moves or not position.pieces(position.turn.other):
        return
    game = Game(variant, position)
    played = []
    for _ in range(data.draw(st.integers(1, 6))):
        if game.is_over:
            break
        played.append(game.play(data.draw(st.sampled_from(game.legal_moves()))))
    for move in reversed(played):
        assert game.undo() == move
    assert game.position == position


@pytest.mark.slow
@settings(max_examples=200, deadline=None)
@given(positions(), variants)
def test_a_move_changes_only_its_own_points(position: Position, variant: Variant) -> None:
    for move in legal_moves(position, variant):
        after = make_move(position, move)
        mover = after.pieces(position.turn)
        assert mover.bit_count() == position.pieces(position.turn).bit_count()
        assert mover >> move.destination & 1
        lost = position.count(position.turn.other) - after.count(position.turn.other)
        assert lost == (1 if move.is_capture else 0)
        assert after.turn is position.turn.other
