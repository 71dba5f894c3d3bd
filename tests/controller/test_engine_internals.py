"""Engine building blocks checked against the move generator: attack maps, Zobrist keys."""

from __future__ import annotations

import random

import pytest

from controller.engine.attacks import attack_maps
from controller.engine.zobrist import color_index, zobrist
from controller.game import Game
from controller.movegen import legal_moves, make_move, rules
from controller.position import Position
from controller.variants import Variant


def random_positions(variant: Variant, count: int, seed: int) -> list[Position]:
    rng = random.Random(seed)
    positions = []
    for _ in range(count):
        game = Game(variant)
        for _ in range(rng.randint(0, 40)):
            if game.is_over:
                break
            game.play(rng.choice(game.legal_moves()))
        positions.append(game.position)
    return positions


@pytest.mark.slow
@pytest.mark.parametrize("variant", list(Variant))
def test_attack_maps_match_the_capture_moves(variant: Variant) -> None:
    maps = attack_maps(variant.size, variant.captures_by_jumping)
    for position in random_positions(variant, 30, seed=1):
        own, opp = position.pieces(position.turn), position.pieces(position.turn.other)
        attacks, _, count = maps.reach(own, opp)
        captures = {(m.origin, m.target) for m in legal_moves(position, variant) if m.is_capture}
        assert attacks == sum({1 << target for _, target in captures})
        assert count >= len(captures)


@pytest.mark.slow
def test_guarded_pieces_are_exactly_those_that_could_be_taken_back() -> None:
    maps = attack_maps(6, False)
    for position in random_positions(Variant.STANDARD, 30, seed=2):
        own, opp = position.pieces(position.turn), position.pieces(position.turn.other)
        _, guards, _ = maps.reach(own, opp)
        for point in range(64):
            if not own >> point & 1:
                continue
            # Put an enemy piece there instead: can the side capture it?
            red, black = (own & ~(1 << point), opp | 1 << point)
            if position.turn.value == "b":
                red, black = black, red
            swapped = Position(red, black, position.turn, position.size)
            takes = any(m.is_capture and m.target == point for m in legal_moves(swapped))
            assert takes == bool(guards >> point & 1)


def test_zobrist_updates_match_keys_from_scratch() -> None:
    keys = zobrist()
    for variant in (Variant.STANDARD, Variant.BOROBUDUR):
        generator = rules(variant, variant.size)
        for position in random_positions(variant, 20, seed=3):
            key = keys.key(position)
            own, opp = position.pieces(position.turn), position.pieces(position.turn.other)
            color = color_index(position.turn)
            deltas = generator.deltas(own, opp)
            for (flip, keep), move in zip(deltas, generator.moves(own, opp), strict=True):
                child = key ^ keys.moves[color][flip]
                if keep != -1:
                    child ^= keys.captures[color ^ 1][~keep]
                assert child == keys.key(make_move(position, move))


def test_zobrist_keys_are_distinct_and_fixed() -> None:
    positions = random_positions(Variant.STANDARD, 40, seed=4)
    keys = {zobrist().key(p) for p in positions}
    assert len(keys) == len(set(positions))
    assert zobrist().key(positions[0]) == zobrist().key(positions[0])
    assert all(0 <= key < 1 << 64 for key in keys)
