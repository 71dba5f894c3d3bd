"""The level ladder: the Elo gap between each strength level and the next, by matches.

Each pair of neighbouring levels (1 against 2, ..., 9 against 10) plays a match
through the GTP protocol and the match runner (paired openings, colours
swapped), at ``--movetime`` a move: what the levels' own caps allow, as on the
board. A gap's Elo comes from the stronger level's score; a clean sweep counts
as half a game dropped (so the gap is finite), and the 95% interval is the
Wilson interval of the score. Level 1 is the ladder's zero.

Floor: every level scores at least 50% against the level below.

Run: ``nice -n 10 .venv/bin/python benchmarks/ladder.py --games 20`` (about 15
minutes on 2 free cores at 0.2 s a move).
"""

from __future__ import annotations

import argparse
import shlex
import sys
import time

from controller.engine.levels import LEVELS
from controller.variants import Variant
from firmware.tournament import (
    TournamentConfig,
    elo_difference,
    run_tournament,
    summarize,
    wilson_interval,
)

FLOOR = 0.50


def gap(low: int, high: int, games: int, movetime: float, jobs: int, seed: int) -> float:
    """Play level ``high`` (A) against level ``low`` (B); print and return A's score."""
    python = shlex.quote(sys.executable)

    def engine(number: int) -> str:
        return f"{python} -m firmware.cli gtp --level {number} --seed {seed + number}"

    config = TournamentConfig(
        (engine(high), engine(low)), Variant.STANDARD, movetime, 10 * movetime + 10
    )
    started = time.monotonic()
    results = run_tournament(config, games, jobs=jobs, seed=seed)
    summary = summarize(results)
    print(
        f"level {high} against level {low}: +{summary.a_wins} ={summary.draws} "
        f"-{summary.b_wins}, {time.monotonic() - started:.0f} s",
        flush=True,
    )
    return summary.score


def elo_of(score: float, games: int) -> tuple[float, float, float]:
    """Elo with its 95% interval; a sweep counts as half a game dropped."""
    half = 0.5 / games
    low, high = wilson_interval(score, games)
    clamp = min(max(score, half), 1 - half)
    # + 0.0 turns a -0.0 (an even score) into 0.0, printed +0.
    return (
        elo_difference(clamp) + 0.0,
        elo_difference(max(low, half)),
        elo_difference(min(high, 1 - half)),
    )


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--games", type=int, default=20, help="games a pair (default 20)")
    parser.add_argument("--movetime", type=float, default=0.2, help="seconds a move (0.2)")
    parser.add_argument("--jobs", type=int, default=2, help="games at once (default 2)")
    parser.add_argument("--seed", type=int, default=10, help="seed of openings and levels")
    args = parser.parse_args()
    rows = []
    total = 0.0
    ok = True
    for low in range(1, len(LEVELS)):
        score = gap(low, low + 1, args.games, args.movetime, args.jobs, args.seed)
        elo, elo_low, elo_high = elo_of(score, args.games)
        total += elo
        rows.append((low + 1, score, elo, elo_low, elo_high, total))
        ok &= score >= FLOOR
    print(f"\n{args.games} games a pair at {args.movetime:g} s a move:")
    print("| level | score vs level below | Elo gap (95%) | Elo over level 1 |")
    print("| --- | --- | --- | --- |")
    print("| 1 | | | 0 |")
    for number, score, elo, elo_low, elo_high, running in rows:
        print(
            f"| {number} | {100 * score:.0f}% | {elo:+.0f} ({elo_low:+.0f} to {elo_high:+.0f}) "
            f"| {running:+.0f} |"
        )
    print(
        f"floor: each level scores >= {100 * FLOOR:.0f}% against the one below: "
        + ("ok" if ok else "MISSED")
    )
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
