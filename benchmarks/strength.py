"""Engine strength and speed.

1. Search speed: nodes per second and depth reached in 1 s from 20 middle-game
   positions (seeded random play).
2. Time keeping: the largest overrun of the budget over many short searches
   (the promise: a move no later than 50 ms after the budget).
3. Matches at 0.1 s per move against the random and greedy baselines, through the
   GTP protocol and the match runner, two games at a time.

Run: ``.venv/bin/python benchmarks/strength.py`` (about 5 minutes on 2 cores), or
``--quick`` for a smaller run.
"""

from __future__ import annotations

import argparse
import random
import resource
import shlex
import statistics
import sys
import time

from controller.engine.search import think
from controller.game import Game
from controller.position import Position
from controller.variants import Variant
from firmware.tournament import TournamentConfig, run_tournament, summarize

OVERRUN_LIMIT = 0.050


def middle_game_positions(count: int, seed: int) -> list[Position]:
    """Positions after 12-30 random plies, each with a game still going on."""
    rng = random.Random(seed)
    positions: list[Position] = []
    while len(positions) < count:
        game = Game()
        for _ in range(rng.randint(12, 30)):
            if game.is_over:
                break
            game.play(rng.choice(game.legal_moves()))
        if not game.is_over and len(game.legal_moves()) > 1:
            positions.append(game.position)
    return positions


def speed(positions: list[Position], seconds: float) -> None:
    rates, depths = [], []
    for position in positions:
        started = time.monotonic()
        result = think(position, movetime=seconds)
        elapsed = time.monotonic() - started
        rates.append(result.nodes / elapsed)
        depths.append(result.depth)
    print(f"speed over {len(positions)} middle-game positions, {seconds:g} s each:")
    print(
        f"  nodes/s median {statistics.median(rates):,.0f} "
        f"(min {min(rates):,.0f}, max {max(rates):,.0f})"
    )
    print(f"  depth median {statistics.median(depths):g} (min {min(depths)}, max {max(depths)})")
    # The engine's tables are bounded so that a Pi Zero 2 W (512 MB) keeps room.
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    print(f"  peak resident memory {peak:.0f} MB")


def overruns(positions: list[Position], searches: int) -> None:
    worst, over = 0.0, []
    budgets = (0.01, 0.02, 0.05, 0.1, 0.2)
    for index in range(searches):
        budget = budgets[index % len(budgets)]
        position = positions[index % len(positions)]
        started = time.monotonic()
        think(position, movetime=budget)
        late = time.monotonic() - started - budget
        over.append(late)
        worst = max(worst, late)
    verdict = "ok" if worst <= OVERRUN_LIMIT else "TOO LATE"
    print(f"time keeping over {searches} searches with budgets {budgets} s:")
    print(
        f"  overrun median {1000 * statistics.median(over):.1f} ms, "
        f"max {1000 * worst:.1f} ms (limit {1000 * OVERRUN_LIMIT:.0f} ms): {verdict}"
    )


def matches(games: int, movetime: float, jobs: int) -> None:
    python = shlex.quote(sys.executable)
    engine = f"{python} -m firmware.cli gtp --movetime {movetime:g}"
    for name in ("random", "greedy"):
        baseline = f"{python} -m firmware.cli gtp --player {name} --seed 1"
        timeout = 10 * movetime + 10
        config = TournamentConfig((engine, baseline), Variant.STANDARD, movetime, timeout)
        started = time.monotonic()
        results = run_tournament(config, games, jobs=jobs, seed=7)
        elapsed = time.monotonic() - started
        for result in results:
            if result.winner is None or result.winner.value != "A":
                print(f"  not won: {result.line()}")
        summary = summarize(results)
        plies = statistics.mean(result.plies for result in results)
        print(
            f"engine at {movetime:g} s/move vs {name}, {games} games, {jobs} at a time, "
            f"{elapsed:.0f} s, {plies:.0f} plies a game on average:"
        )
        print("  " + summary.report().replace("\n", "\n  "))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--quick", action="store_true", help="fewer positions and games")
    parser.add_argument("--games", type=int, help="games per match (default 100, quick 10)")
    parser.add_argument("--jobs", type=int, default=2, help="games at once (default 2)")
    parser.add_argument("--no-matches", action="store_true", help="speed and timing only")
    args = parser.parse_args()
    positions = middle_game_positions(5 if args.quick else 20, seed=2024)
    speed(positions, 1.0)
    overruns(positions, 25 if args.quick else 200)
    if not args.no_matches:
        matches(args.games or (10 if args.quick else 100), 0.1, args.jobs)


if __name__ == "__main__":
    main()
