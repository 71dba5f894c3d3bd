"""``surakarta perft``: count move sequences, the standard check of a move generator."""

from __future__ import annotations

import argparse

from controller import legal_moves, make_move, parse_position, parse_variant, perft, start_position
from controller.errors import BadOption

NAME = "perft"
HELP = "count the move sequences of each depth up to DEPTH"


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("depth", type=int, help="deepest depth to count")
    parser.add_argument("--position", help="position string (default: the variant's start)")
    parser.add_argument("--variant", default="standard", help="rule variant (default: standard)")
    parser.add_argument("--divide", action="store_true", help="count under each first move")


def run(args: argparse.Namespace) -> int:
    variant = parse_variant(args.variant)
    position = parse_position(args.position) if args.position else start_position(variant.size)
    if args.depth < 1:
        raise BadOption(f"invalid depth: {args.depth!r} (expected 1 or more)")
    if args.divide:
        total = 0
        for move in legal_moves(position, variant):
            count = perft(make_move(position, move), args.depth - 1, variant)
            total += count
            print(f"{move.name}: {count}", flush=True)
        print(f"total: {total}")
        return 0
    for depth in range(1, args.depth + 1):
        print(f"depth {depth}: {perft(position, depth, variant)}", flush=True)
    return 0
