"""Move generation speed: perft 5 and 6, moves generated per second, and the ratio to a
plain dictionary-based generator (a ratio holds across machines where seconds do not).

    python benchmarks/perft.py            # perft 5 and 6, plain perft 5, generation rate
    python benchmarks/perft.py --quick    # perft 5 and plain perft 4 only
    python benchmarks/perft.py --depth-7  # also perft 7 (about 20 minutes)
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from controller import Variant, legal_moves, make_move, perft, start_position
from controller.movegen import rules
from tests.plain_rules import plain_moves, plain_perft

REFERENCE = {4: 111_122, 5: 2_572_484, 6: 58_479_230, 7: 1_442_032_302}


def timed(function, *args):  # type: ignore[no-untyped-def]
    started = time.perf_counter()
    result = function(*args)
    return result, time.perf_counter() - started


def middle_game_positions(count: int, seed: int = 1) -> list:  # type: ignore[type-arg]
    rng = random.Random(seed)
    positions = []
    while len(positions) < count:
        position = start_position()
        for _ in range(rng.randrange(10, 40)):
            moves = legal_moves(position)
            if not moves:
                break
            position = make_move(position, rng.choice(moves))
        if legal_moves(position):
            positions.append(position)
    return positions


def generation_rate(positions: list, rounds: int = 20) -> tuple[float, float]:  # type: ignore[type-arg]
    """Full move lists (with paths) per second, and raw move deltas per second."""
    table = rules(Variant.STANDARD)
    sides = [(p.pieces(p.turn), p.pieces(p.turn.other)) for p in positions]
    started = time.perf_counter()
    for _ in range(rounds):
        for position in positions:
            legal_moves(position)
    lists = rounds * len(positions) / (time.perf_counter() - started)
    started = time.perf_counter()
    for _ in range(rounds):
        for own, opp in sides:
            table.deltas(own, opp)
    deltas = rounds * len(positions) / (time.perf_counter() - started)
    return lists, deltas


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="skip perft 6 and plain perft 5")
    parser.add_argument("--depth-7", action="store_true", help="also run perft 7")
    args = parser.parse_args()
    start = start_position()
    plain_depth = 4 if args.quick else 5

    # Fresh circuit tables for every run would hide nothing: they fill within the
    # first thousand nodes. Three runs, median, for perft 5.
    times = []
    for _ in range(3):
        count, seconds = timed(perft, start, 5)
        assert count == REFERENCE[5], count
        times.append(seconds)
    fast5 = statistics.median(times)
    print(f"perft 5: {count:,} in {fast5:.2f} s (median of 3), {count / fast5:,.0f} leaves/s")

    plain_count, plain_seconds = timed(plain_perft, str(start), plain_depth)
    assert plain_count == REFERENCE[plain_depth]
    _, fast_same_seconds = timed(perft, start, plain_depth)
    ratio = plain_seconds / fast_same_seconds
    print(
        f"plain generator perft {plain_depth}: {plain_seconds:.2f} s; "
        f"ratio plain/fast = {ratio:.1f}x"
    )

    if not args.quick:
        count, seconds = timed(perft, start, 6)
        assert count == REFERENCE[6], count
        print(f"perft 6: {count:,} in {seconds:.2f} s")
    if args.depth_7:
        count, seconds = timed(perft, start, 7)
        assert count == REFERENCE[7], count
        print(f"perft 7: {count:,} in {seconds:.1f} s")

    positions = middle_game_positions(200)
    lists, deltas = generation_rate(positions)
    plain_started = time.perf_counter()
    for position in positions:
        plain_moves(str(position))
    plain_rate = len(positions) / (time.perf_counter() - plain_started)
    print(
        f"middle-game move generation: {lists:,.0f} full move lists/s (with paths), "
        f"{deltas:,.0f} raw delta lists/s, plain {plain_rate:,.0f}/s"
    )


if __name__ == "__main__":
    main()
