"""``surakarta tablebase``: make the endgame tables, or look a position up in them."""

from __future__ import annotations

import argparse
import random
from pathlib import Path

from controller.engine.endgame import best_move, verdict
from controller.engine.tablebase import BadTablebase, Tablebase, default_path, shipped
from controller.engine.tablebase_build import build
from controller.engine.tablebase_verify import held_positions, verify
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
        "--only",
        metavar="CLASSES",
        help="of the classes with the most pieces, only these (e.g. 4v1,3v2; the "
        "reverse of each comes with it)",
    )
    parser.add_argument(
        "--reuse",
        action="store_true",
        help="keep the classes already in the output file and solve only the others",
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
    only = None if args.only is None else _classes(args.only, args.pieces)
    known = _known(out, variant) if args.reuse else None
    # Classes of more pieces already in the file stay: making the four-piece tables
    # again must not throw away the five-piece ones that took an hour.
    larger = _larger_classes(out, variant, args.pieces)

    def save(tables: Tablebase) -> None:
        merged = {**tables.tables, **larger}
        most = max(map(sum, merged))
        Tablebase(variant, tables.size, most, merged).save(out)

    with writing(out):
        # Saved after every class: a long run stopped half-way keeps what it solved.
        table = build(
            variant,
            args.pieces,
            progress=lambda line: print(line, flush=True),
            known=known,
            only=only,
            checkpoint=save,
        )
        save(table)
    print(f"wrote {out} ({out.stat().st_size:,} bytes)")
    if args.check:
        positions = held_positions(table, args.check, random.Random(1))
        wrong = verify(table, positions, 4, variant)
        for disagreement in wrong[:10]:
            print(disagreement)
        print(f"checked {len(positions)} positions: {len(wrong)} disagreements")
        return 1 if wrong else 0
    return 0


def _classes(text: str, pieces: int) -> set[tuple[int, int]]:
    """The classes of ``--only``: ``4v1,3v2`` with ``pieces`` pieces each."""
    found: set[tuple[int, int]] = set()
    for part in text.split(","):
        own, _, opp = part.strip().partition("v")
        if not (own.isdigit() and opp.isdigit()) or int(own) + int(opp) != pieces:
            raise BadOption(f"invalid --only: {text!r} (expected classes like 4v1,3v2 of "
                            f"{pieces} pieces)")
        found.add((int(own), int(opp)))
    return found


def _known(path: Path, variant: Variant) -> Tablebase | None:
    """The tables already in ``path`` (None when there is no such file)."""
    if not path.exists():
        return None
    try:
        return Tablebase.load(path)
    except (BadTablebase, OSError) as error:
        raise BadOption(f"cannot reuse {str(path)!r}: {error}") from None


def _larger_classes(path: Path, variant: Variant, pieces: int) -> dict[tuple[int, int], bytes]:
    """The classes of more than ``pieces`` pieces in the tables at ``path`` (none when
    there is no readable file of ``variant``'s tables there)."""
    try:
        found = Tablebase.load(path)
    except (BadTablebase, OSError):
        return {}
    if (found.variant, found.size) != (variant, variant.size):
        return {}
    return {m: found.tables[m] for m in found.classes if sum(m) > pieces}


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
