"""Strength on a Raspberry Pi's budget: the engine limited to the nodes a Pi searches.

The engine is pure Python, so its speed follows the processor's speed at CPython.
This benchmark measures nodes per second here, then gives the engine the nodes a
Pi would search in ``--seconds`` (1 s, the board's default), with these ratios
to this machine's one core, which are ESTIMATES (from published CPython
single-core results; not measured on a Pi), to be replaced by a Pi's own figure
(``benchmarks/strength.py`` prints nodes per second; divide):

- Raspberry Pi 4 (Cortex-A72, 1.8 GHz): about 3.5 times slower than a 2.8 GHz
  x86 server core;
- Raspberry Pi Zero 2 W (Cortex-A53, 1 GHz): about 9 times slower.

At each budget it plays, in-process, from paired openings: against the greedy
baseline (which takes any piece it can: the opening and middle game must not
leave pieces to it), and against the full engine here at 0.1 s a move (as the
nodes it searches in 0.1 s of processor time, so a busy machine changes nothing).

Floor: at each budget the engine scores at least 95% against greedy.

Run: ``nice -n 10 .venv/bin/python benchmarks/pi_budget.py`` (about 10 minutes).
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from collections.abc import Callable

from strength import middle_game_positions  # benchmarks/ is the script's folder

from controller.baselines import GreedyPlayer
from controller.engine.search import think
from controller.game import Game
from controller.moves import Move
from controller.position import Color, Position

PI_RATIOS = {"Raspberry Pi 4": 3.5, "Raspberry Pi Zero 2 W": 9.0}
FLOOR = 0.95

Chooser = Callable[[Game], Move]


def nodes_per_second(sample: list[Position], seconds: float) -> float:
    """Nodes per second of processor time: the same on a busy machine as on a free one."""
    rates = []
    for position in sample:
        started = time.process_time()
        result = think(position, movetime=seconds)
        rates.append(result.nodes / (time.process_time() - started))
    return statistics.median(rates)


def engine(nodes: int | None, movetime: float | None) -> Chooser:
    def choose(game: Game) -> Move:
        return think(
            game.position,
            movetime=movetime,
            nodes=nodes,
            history=game.positions,
            plies_without_capture=game.plies_without_capture,
        ).move

    return choose


def openings(count: int, seed: int) -> list[list[str]]:
    rng = random.Random(seed)
    found: list[list[str]] = []
    while len(found) < count:
        game = Game()
        for _ in range(rng.randint(2, 4)):
            game.play(rng.choice(game.legal_moves()))
        names = [move.name for move in game.moves]
        if names not in found:
            found.append(names)
    return found


def match(a: Chooser, b: Chooser, games: int, seed: int) -> float:
    """A's score over ``games`` games, each opening played with both colours."""
    score = 0.0
    for index in range(games):
        opening = openings((games + 1) // 2, seed)[index // 2]
        a_color = Color.RED if index % 2 == 0 else Color.BLACK
        game = Game()
        for name in opening:
            game.play(name)
        while not game.is_over:
            mover = a if game.turn is a_color else b
            game.play(mover(game))
        outcome = game.outcome
        assert outcome is not None
        if outcome.winner is None:
            score += 0.5
        elif outcome.winner is a_color:
            score += 1
    return score / games


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--games", type=int, default=20, help="games a match (default 20)")
    parser.add_argument("--seconds", type=float, default=1.0, help="a Pi's time a move (1)")
    args = parser.parse_args()
    rate = nodes_per_second(middle_game_positions(10, seed=2024), 0.5)
    print(f"here: {rate:,.0f} nodes/s of processor time (median of 10 middle-game positions)")
    here = engine(int(rate * 0.1), None)
    greedy = GreedyPlayer(seed=1)
    ok = True
    for name, ratio in PI_RATIOS.items():
        budget = int(rate * args.seconds / ratio)
        at_budget = engine(budget, None)
        started = time.monotonic()
        against_greedy = match(at_budget, lambda game: greedy.choose(game, 0.0), args.games, 5)
        against_full = match(at_budget, here, args.games, 6)
        ok &= against_greedy >= FLOOR
        print(
            f"{name} (estimate: {ratio:g} times slower), {budget:,} nodes a move: "
            f"{100 * against_greedy:.0f}% against greedy, {100 * against_full:.0f}% against "
            f"the engine at 0.1 s here, {args.games} games each "
            f"({time.monotonic() - started:.0f} s)",
            flush=True,
        )
    print(
        f"floor: >= {100 * FLOOR:.0f}% against greedy at each budget: " + ("ok" if ok else "MISSED")
    )
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
