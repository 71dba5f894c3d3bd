"""The engine on a small computer's budget: a node limit, and the first ply always searched."""

from __future__ import annotations

import pytest

from controller.engine.search import think
from controller.movegen import legal_moves, make_move
from controller.position import parse_position, start_position


@pytest.mark.slow
def test_a_node_budget_stops_the_search_soon_after_it_is_spent() -> None:
    position = make_move(start_position(), legal_moves(start_position())[3])
    small = think(position, nodes=2_000)
    large = think(position, nodes=20_000)
    assert 2_000 <= small.nodes < 3_000
    assert large.depth > small.depth
    assert small.move in legal_moves(position)


def test_the_first_ply_is_searched_whatever_the_clock() -> None:
    # A crowded middle game where one ply and the captures after it take several
    # hundred nodes (the clock is looked at every 256): with the time already up,
    # the search still completes that ply, so a free capture is never overlooked.
    position = parse_position("1b1bbb/bbbbb1/1brbr1/r2rb1/1rrr2/r1rrrr b")
    one_ply = think(position, depth=1)
    assert one_ply.nodes > 256
    hurried = think(position, deadline=lambda: True)
    assert hurried.depth == 1
    assert hurried.move == one_ply.move
