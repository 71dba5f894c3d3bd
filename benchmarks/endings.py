"""Endgame tablebases: generation time, exactness, and the engine playing them.

1. Generation: the standard tables up to ``--pieces`` pieces, timed class by class
   (skipped with ``--no-build``; the shipped file is checked to be the same).
2. Exactness: random positions of 2 pieces to the tables' most (as many of each)
   checked against an independent brute-force search (``tablebase_verify``): every
   verdict decided within ``--horizon`` plies exactly, and every verdict against its
   children's; the same for the 7x7 (Sepur) tables when they ship.
   ``--all`` checks every position against its children (a complete proof with
   the brute-force sample, since distances fall along every best line).
3. Play: random positions the tables hold as won, played by the engine at
   ``--movetime`` a move against the tables' best defence (the longest), under the
   Olympiad endings (repetition and the 50-ply limit on): every one must be won,
   by wipe-out, in the tables' number of plies.

Floors: no disagreement; every won ending won.

Run: ``nice -n 10 .venv/bin/python benchmarks/endings.py`` (10,000 positions, 200
endings; about 15 minutes on a free core), ``--quick`` for a smaller run.
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from collections import Counter

from controller.engine.endgame import best_move, verdict
from controller.engine.search import think
from controller.engine.tablebase import Result, Tablebase, shipped
from controller.engine.tablebase_build import build, positions_of
from controller.engine.tablebase_verify import (
    consistent,
    held_positions,
    random_positions,
    stored,
    verify,
)
from controller.game import EndReason, Game
from controller.position import Color, Position
from controller.variants import Variant


def generation(pieces: int, table: Tablebase) -> bool:
    started = time.monotonic()
    cpu = time.process_time()
    largest = [m for m in table.classes if sum(m) == pieces]  # all of them, or some
    built = build(Variant.STANDARD, pieces, progress=lambda line: print(f"  {line}"), only=largest)
    same = built.classes == table.classes[: len(built.classes)] and all(
        built.table(m) == table.table(m) for m in built.classes
    )
    print(
        f"generation up to {pieces} pieces: {time.monotonic() - started:.0f} s "
        f"({time.process_time() - cpu:.0f} s of CPU), {len(built.to_bytes()):,} bytes; "
        f"same as shipped: {'yes' if same else 'NO'}"
    )
    return same


def exactness(table: Tablebase, count: int, horizon: int, seed: int) -> bool:
    """``count`` random positions, as many of each number of pieces the tables hold."""
    positions = held_positions(table, count, random.Random(seed))
    started = time.monotonic()
    wrong = verify(table, positions, horizon, table.variant)
    kinds = Counter(stored(table, p).result.value for p in positions)
    print(
        f"{table.variant.value} {table.size}x{table.size}: {len(positions)} random positions "
        f"of 2-{table.max_pieces} pieces ({dict(kinds)}) against brute force to {horizon} "
        f"plies and against their children: {len(wrong)} disagreements "
        f"({time.monotonic() - started:.0f} s)"
    )
    for disagreement in wrong[:10]:
        print(f"  {disagreement}")
    return not wrong


def every_position(table: Tablebase) -> bool:
    started = time.monotonic()
    wrong = 0
    checked = 0
    for material in table.classes:
        for own, opp in positions_of(table.size, material):
            position = Position(own, opp, Color.RED, table.size)
            checked += 1
            if consistent(table, position, table.variant) != stored(table, position):
                wrong += 1
                if wrong <= 10:
                    print(f"  inconsistent: {position}")
    print(
        f"every position ({checked:,}) against its children: {wrong} inconsistent "
        f"({time.monotonic() - started:.0f} s)"
    )
    return wrong == 0


def won_endings(table: Tablebase, count: int, movetime: float, seed: int) -> bool:
    rng = random.Random(seed)
    lost = 0
    plies_over = 0
    reasons: Counter[str] = Counter()
    started = time.monotonic()
    longest = 0
    played = 0
    while played < count:
        position = random_positions(1, rng.randint(3, table.max_pieces), rng)[0]
        probe = verdict(table, position)  # None for a class the tables do not hold
        if probe is None or probe.result is not Result.WIN or probe.plies < 3:
            continue
        played += 1
        longest = max(longest, probe.plies)
        game = Game(start=position)
        winner = position.turn
        while not game.is_over:
            if game.turn is winner:
                result = think(
                    game.position,
                    movetime=movetime,
                    history=game.positions,
                    plies_without_capture=game.plies_without_capture,
                )
                game.play(result.move)
            else:
                defence = best_move(table, game.position, Variant.STANDARD)
                assert defence is not None
                game.play(defence[0])
        outcome = game.outcome
        assert outcome is not None
        reasons[outcome.reason.value] += 1
        if outcome.winner is not winner or outcome.reason is not EndReason.WIPE_OUT:
            lost += 1
            print(f"  not won by wipe-out: {position}: {outcome}")
        plies_over += len(game.moves) - probe.plies
    print(
        f"{count} table-won endings of 3-{table.max_pieces} pieces (up to {longest} plies) "
        f"played at "
        f"{movetime:g} s a move against the best defence: {count - lost} won, endings "
        f"{dict(reasons)}, {plies_over} plies more than the tables' in all "
        f"({time.monotonic() - started:.0f} s)"
    )
    return lost == 0 and plies_over == 0


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--quick", action="store_true", help="1,000 positions, 20 endings")
    parser.add_argument("--positions", type=int, help="random positions (default 10,000)")
    parser.add_argument("--horizon", type=int, default=4, help="brute-force plies (default 4)")
    parser.add_argument("--endings", type=int, help="won endings to play (default 200)")
    parser.add_argument("--movetime", type=float, default=0.1, help="seconds a move (0.1)")
    parser.add_argument("--pieces", type=int, default=4, help="tables to generate (default 4)")
    parser.add_argument("--no-build", action="store_true", help="skip the generation")
    parser.add_argument("--all", action="store_true", help="check every position too")
    args = parser.parse_args()
    table = shipped(Variant.STANDARD)
    if table is None:
        print("no shipped tables for the standard game")
        return 1
    ok = True
    if not args.no_build:
        ok &= generation(min(args.pieces, table.max_pieces), table)
    count = args.positions or (1_000 if args.quick else 10_000)
    ok &= exactness(table, count, args.horizon, 18)
    for variant in Variant:
        other = None if variant is Variant.STANDARD else shipped(variant)
        if other is not None:  # the 7x7 tables, when they ship
            ok &= exactness(other, count, args.horizon, 18)
    if args.all:
        ok &= every_position(table)
    ok &= won_endings(table, args.endings or (20 if args.quick else 200), args.movetime, 7)
    print("floors: " + ("ok" if ok else "MISSED"))
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
