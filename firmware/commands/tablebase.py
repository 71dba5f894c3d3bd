"""``surakarta tablebase``: make the endgame tables, or look a position up in them."""

from __future__ import annotations

import argparse
import random
from pathlib import Path

from controller.engine.endgame import best_move, verdict
from controller.engine.tablebase import default_path, shipped
from controller.engine.tablebase_build import build
from controller.engine.tablebase_verify import random_positions, verify
from controller.errors import BadOption
from controller.numbers import whole
from controller.position import parse_position
from controller.variants import Variant, parse_variant
from firmware.commands import check_numbers, writing

NAME = "tablebase"
HELP = "make the endgame tablebases (retrograde analysis), or probe a position"

PIECES = whole(2, 5)
CHECKS = whole(0, 1_000_000)


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--probe", metavar="POSITION", help="print the verdict and best move of a position"
    )
    parser.add_argument("--pieces", type=int, default=4, help="most pieces (default 4)")
    parser.add_argument("--variant", default="standard", help="rule variant (default: standard)")
    parser.add_argument(
        "--out", type=Path, help="file to write (default: the package's own tables)"
    )
    parser.add_argument(
        "--check",
        type=int,
        default=0,
        metavar="N",
        help="then check N random positions against brute force (default 0)",
    )


def run(args: argparse.Namespace) -> int:
    check_numbers(args, pieces=PIECES, check=CHECKS)
    variant = parse_variant(args.variant)
    if args.probe is not None:
        return _probe(args.probe, variant)
    out: Path = args.out or default_path(variant, variant.size)
    with writing(out):
        table = build(variant, args.pieces, progress=lambda line: print(line, flush=True))
        table.save(out)
    print(f"wrote {out} ({out.stat().st_size:,} bytes)")
    if args.check:
        positions = [
            p
            for pieces in range(2, args.pieces + 1)
            for p in random_positions(args.check // (args.pieces - 1), pieces, random.Random(1))
        ]
        wrong = verify(table, positions, 4, variant)
        for disagreement in wrong[:10]:
            print(disagreement)
        print(f"checked {len(positions)} positions: {len(wrong)} disagreements")
        return 1 if wrong else 0
    return 0


def _probe(text: str, variant: Variant) -> int:
    position = parse_position(text)
    table = shipped(variant, position.size)
    if table is None:
        raise BadOption(f"no tables for {variant.value!r} on {position.size}x{position.size}")
    found = verdict(table, position)
    if found is None:
        raise BadOption(f"not in the tables (at most {table.max_pieces} pieces): {text!r}")
    line = f"{position.turn.word} to move {found.describe()}"
    best = best_move(table, position, variant)
    if best is not None:
        line += f"; best {best[0].name}"
    print(line)
    return 0
