"""Whether the engine should keep its transposition table between the moves of a game.

Each game starts from a seeded random opening of four plies and goes on with the
engine's moves at a shallow depth (3), which makes the line. Every position of the
line is then searched to a fixed depth twice, each way in a process of its own
forked from the one that made the line (so the lazily filled caches the two share,
circuit tables and evaluation, start alike, and each fills its own as a board
would): once with a fresh table for every search (what the board does), once with
the table that the same side's previous search left (one table per side, as the
draw contempt is the searching side's).

Measured, summed over every search: processor time and nodes to reach the depth,
and how often the two chose the same move (the table changes move ordering, so a
different move of equal score may come first).

The engine service does not keep tables between moves, because this measured no
worthwhile gain (on 2026-11-23, under load: depth 5, 4 games, 120 searches: 95% of
the nodes, 92% of the time; depth 6, 2 games, 40 searches: 99% of the nodes, 108%
of the time; the larger table costs time per node). Floor, the check of that
decision: keeping the table must not save more than 1 - DECISION_SHARE of the time
to depth; where it does, the service should keep its tables, and this exits 1.

    nice -n 10 .venv/bin/python benchmarks/engine_tables.py [--games N] [--plies P] [--depth D]
"""

from __future__ import annotations

import argparse
import multiprocessing
import random
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from controller.engine.search import Search, TranspositionTable
from controller.game import Game
from controller.moves import Move
from controller.position import Color

DECISION_SHARE = 0.85
"""The kept table's time to depth, as a share of the fresh table's, below which keeping
tables between moves would be worth it."""


@dataclass
class Totals:
    """One way of searching, summed over a run."""

    seconds: float = 0.0
    nodes: int = 0
    moves: list[Move] = field(default_factory=list)


def search_to_depth(
    game: Game, depth: int, table: TranspositionTable | None
) -> tuple[Move, float, int]:
    """The move found at ``depth``, with the processor seconds and nodes it took."""
    started = time.process_time()
    search = Search(
        game.position,
        game.variant,
        history=game.positions[:-1],
        plies_without_capture=game.plies_without_capture,
        endings=game.endings,
        transpositions=table,
    )
    for _ in search.iterate(lambda: False, depth):
        pass
    move = search.best_move
    assert move is not None
    return move, time.process_time() - started, search.nodes


def line(seed: int, plies: int) -> list[Move]:
    """A game's moves: a random opening, then the engine's choices at depth 3."""
    rng = random.Random(seed)
    game = Game()
    for _ in range(4):
        game.play(rng.choice(game.legal_moves()))
    while len(game.moves) < 4 + plies and not game.is_over:
        game.play(search_to_depth(game, 3, None)[0])
    return list(game.moves)


def replay(lines: list[list[Move]], depth: int, keep: bool) -> Totals:
    """Every position of the lines searched to ``depth``, with kept tables or fresh ones."""
    totals = Totals()
    for moves in lines:
        game = Game()
        tables: dict[Color, TranspositionTable] = {Color.RED: {}, Color.BLACK: {}}
        for index, move in enumerate(moves):
            if index >= 4 and len(game.legal_moves()) > 1:
                table = tables[game.turn] if keep else None
                chosen, seconds, nodes = search_to_depth(game, depth, table)
                totals.seconds += seconds
                totals.nodes += nodes
                totals.moves.append(chosen)
            game.play(move)
    return totals


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=4)
    parser.add_argument("--plies", type=int, default=30, help="plies searched a game")
    parser.add_argument("--depth", type=int, default=5)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    lines = [line(args.seed + game, args.plies) for game in range(args.games)]
    fork = multiprocessing.get_context("fork")
    with fork.Pool(1, maxtasksperchild=1) as pool:  # one at a time: they must not share a core
        fresh = pool.apply(replay, (lines, args.depth, False))
        kept = pool.apply(replay, (lines, args.depth, True))
    same = sum(a == b for a, b in zip(fresh.moves, kept.moves, strict=True))
    share = kept.seconds / fresh.seconds
    print(f"{args.games} games, depth {args.depth}, {len(fresh.moves)} searches")
    print(f"fresh table: {fresh.seconds:.1f} s, {fresh.nodes:,} nodes")
    print(f"kept table:  {kept.seconds:.1f} s, {kept.nodes:,} nodes "
          f"({100 * share:.0f}% of the time, {100 * kept.nodes / fresh.nodes:.0f}% of the nodes)")
    print(f"same move chosen: {same} of {len(fresh.moves)} searches")
    if share < DECISION_SHARE:
        print(f"FLOOR MISSED: the kept table takes only {100 * share:.0f}% of the time "
              f"(under {100 * DECISION_SHARE:.0f}%): the engine service should keep its tables")
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
