"""The search engine: legal moves, tactics, endings, time budget, levels, threats."""

from __future__ import annotations

import random
from functools import partial

import pytest

from controller.engine import levels
from controller.engine.levels import LEVELS, BadLevel, choose_move, level
from controller.engine.player import EnginePlayer
from controller.engine.search import COUNT_WIN, MATE, MATE_BOUND, Search, think
from controller.engine.threats import threatened_points, threats
from controller.game import Endings, Game
from controller.geometry import parse_point
from controller.movegen import legal_moves, make_move
from controller.position import parse_position, start_position
from controller.variants import Variant
from tests.conftest import FakeClock
from tests.controller.positions import TACTICS, middle_game_positions

WIPE_OUTS = {"6/rr1br1/6/6/6/5b r", "b5/6/6/rbr3/6/6 r"}


@pytest.mark.slow
@pytest.mark.parametrize("variant", list(Variant))
def test_engine_plays_only_legal_moves_in_every_variant(variant: Variant) -> None:
    positions = [start_position(variant.size), *middle_game_positions(4, variant, seed=3)]
    for position in positions:
        result = think(position, variant, depth=2)
        assert result.move in legal_moves(position, variant)
        assert result.pv[0] == result.move


def test_principal_variation_is_a_legal_line() -> None:
    position = middle_game_positions(1, Variant.STANDARD, seed=11)[0]
    result = think(position, depth=4)
    for move in result.pv:
        assert move in legal_moves(position)
        position = make_move(position, move)


@pytest.mark.slow
@pytest.mark.parametrize(("text", "solutions", "idea"), TACTICS)
def test_engine_solves_tactics(text: str, solutions: set[str], idea: str) -> None:
    result = think(parse_position(text), depth=4)
    assert result.move.name in solutions, idea


def test_engine_sees_a_forced_wipe_out() -> None:
    for text in WIPE_OUTS:
        result = think(parse_position(text), depth=4)
        assert result.score > MATE_BOUND


def test_capture_result_carries_its_path() -> None:
    result = think(parse_position("4b1/6/3r2/2r2b/3b2/5r r"), depth=3)
    assert result.move.path_names()[0] == "c3"
    assert result.move.path_names()[-1] == "f3"
    assert any(name.startswith(("inner-", "outer-")) for name in result.move.path_names())


def test_a_single_legal_move_is_returned_at_once() -> None:
    # Red's only piece sits in a corner boxed in by black pieces it cannot capture,
    # but for one empty neighbour.
    position = parse_position("6/6/6/6/bb4/r1b3 r")
    moves = legal_moves(position)
    assert len(moves) == 1
    result = think(position, movetime=5.0)
    assert result.move == moves[0]
    assert result.depth == 0


def test_no_capture_limit_is_part_of_the_search() -> None:
    # Red is a piece up: with 49 quiet plies played, any quiet move wins on count.
    position = parse_position("b4r/3r2/6/6/2r3/5b r")
    quiet_left = think(position, depth=3, plies_without_capture=49)
    assert quiet_left.score >= COUNT_WIN
    # Without the tablebase (which sees a wipe-out after a capture), nothing else wins.
    unlimited = think(position, depth=3, endings=Endings(no_capture_limit=None), tablebase=False)
    assert unlimited.score < COUNT_WIN


def test_repetition_ends_the_game_in_the_search() -> None:
    position = parse_position("b4r/3r2/6/6/2r3/5b r")
    step = next(move for move in legal_moves(position) if move.name == "d5-d6")
    repeated = make_move(position, step)
    # Red is ahead: repeating would win on count, but it plays on for the wipe-out.
    ahead = think(position, depth=2, history=[repeated, position])
    assert ahead.move != step
    assert ahead.score > MATE_BOUND
    # Black, a piece behind, never walks into a repetition: it would lose on count
    # now, and a wipe-out it sees coming is still more play (win/loss scoring).
    behind = position.with_turn(position.turn.other)
    for move in legal_moves(behind):
        after = make_move(behind, move)
        result = think(behind, depth=2, history=[after, behind])
        assert result.move != move
        assert result.score > -MATE + 1


def test_time_budget_is_kept_with_a_generous_margin() -> None:
    position = middle_game_positions(1, Variant.STANDARD, seed=5)[0]
    clock = FakeClock(step=0.01)  # each look at the clock: ten milliseconds of search
    result = think(position, movetime=0.2, clock=clock)
    assert 0.2 <= clock.now < 2.0
    assert result.move in legal_moves(position)
    assert result.depth >= 1


def test_deadline_callable_stops_the_search() -> None:
    position = middle_game_positions(1, Variant.STANDARD, seed=6)[0]
    calls = 0

    def deadline() -> bool:
        nonlocal calls
        calls += 1
        return calls > 3

    result = think(position, deadline=deadline)
    assert result.move in legal_moves(position)


def test_search_is_a_generator_of_deepening_iterations() -> None:
    position = middle_game_positions(1, Variant.STANDARD, seed=8)[0]
    search = Search(position)
    depths = [iteration.depth for iteration in search.iterate(lambda: False, max_depth=4)]
    assert depths == [1, 2, 3, 4]
    assert search.best_move in legal_moves(position)


def test_levels_are_deterministic_for_a_seed(monkeypatch: pytest.MonkeyPatch) -> None:
    # As long as a level's depth cap, not the clock, ends each search (as on an ordinary
    # PC): the clock stands still here, so that a slow machine (an emulated Pi) plays alike.
    monkeypatch.setattr(levels, "think", partial(think, clock=FakeClock()))

    def play(seed: int) -> list[str]:
        game = Game()
        player = EnginePlayer(level_number=3, seed=seed)
        rng = random.Random(1)
        for _ in range(12):
            game.play(player.choose(game, movetime=10.0))
            game.play(rng.choice(game.legal_moves()))
        return [move.name for move in game.moves]

    assert play(seed=4) == play(seed=4)


def test_every_level_plays_legal_moves(searches_by_a_fake_clock: FakeClock) -> None:
    game = Game()
    game.play("c2-c3")
    rng = random.Random(0)
    for number in range(1, len(LEVELS) + 1):
        result = choose_move(game, movetime=0.05, level_number=number, rng=rng)
        assert result.move in game.legal_moves()


def test_weak_level_misses_what_full_strength_finds() -> None:
    # Over the tactics, level 1 (one ply, noisy, careless) fails some that level 10 solves.
    misses = 0
    for text, solutions, _ in TACTICS:
        game = Game(start=parse_position(text))
        for seed in range(4):
            weak = choose_move(game, movetime=1.0, level_number=1, rng=random.Random(seed))
            misses += weak.move.name not in solutions
    assert misses > 0


def test_levels_out_of_range_are_refused() -> None:
    for number in (0, 11):
        with pytest.raises(BadLevel):
            level(number)
    with pytest.raises(BadLevel):
        EnginePlayer(level_number=12)


def test_threats_are_the_opponents_captures_with_paths() -> None:
    # The worked example of docs/RULES.md: red c4 takes d6 round the top-right large loop.
    position = parse_position("3b2/6/2r3/6/6/6 b")
    found = threats(position)
    assert [move.name for move in found] == ["c4xd6"]
    assert found[0].path_names() == ["c4", "d4", "e4", "f4", "outer-ne", "d6"]
    assert threatened_points(position) == {parse_point("d6")}


def test_no_threats_at_the_start() -> None:
    assert threats(start_position()) == []
