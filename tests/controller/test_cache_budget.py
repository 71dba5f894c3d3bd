"""The one budget of the move generator's and the engine's tables: their total is bounded."""

from __future__ import annotations

import pytest

from controller import Variant, perft, start_position
from controller.cache_budget import BUDGET, CacheBudget
from controller.engine.search import think
from controller.movegen import legal_moves, make_move


def test_overspending_halves_every_table_and_keeps_the_newer_entries() -> None:
    budget = CacheBudget(limit=1_000)
    hot: dict[int, int] = {}
    cold: dict[int, int] = {}
    budget.register(hot, 10)
    budget.register(cold, 10)
    for key in range(40):
        cold[key] = key
        budget.charge(10)
    for key in range(100):
        hot[key] = key
        budget.charge(10)
        assert len(hot) * 10 + len(cold) * 10 <= 1_000
    assert budget.used == 10 * (len(hot) + len(cold))
    assert list(hot) == list(range(100 - len(hot), 100))  # the older ones went first
    assert len(cold) < 40


def test_a_table_registered_full_counts_at_once() -> None:
    budget = CacheBudget(limit=1_000)
    budget.register(dict.fromkeys(range(30), 0), 20)
    assert budget.used == 600


def _held() -> int:
    return sum(len(table) * size for table, size in BUDGET._tables)


def test_perft_and_a_search_stay_within_a_small_budget_with_the_same_answers(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    position = make_move(start_position(), legal_moves(start_position())[2])
    sepur = start_position(Variant.SEPUR.size)
    free = think(position, depth=3)
    free_perft = perft(sepur, 3, Variant.SEPUR)
    monkeypatch.setattr(BUDGET, "limit", 60_000)
    BUDGET._halve()
    assert _held() <= 60_000
    assert perft(sepur, 3, Variant.SEPUR) == free_perft
    assert _held() <= 60_000
    tight = think(position, depth=3)
    assert (tight.move, tight.score) == (free.move, free.score)
    assert _held() <= 60_000
    assert BUDGET.used == _held()
