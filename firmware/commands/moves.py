"""``surakarta moves``: the legal moves of positions, one line each."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Iterator

from controller import legal_moves, parse_position, parse_variant

NAME = "moves"
HELP = "print the legal moves of each position string (or '-' to read them from stdin)"


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("positions", nargs="+", metavar="POSITION", help="position string or -")
    parser.add_argument("--variant", default="standard", help="rule variant (default: standard)")


def _position_texts(arguments: list[str]) -> Iterator[str]:
    for argument in arguments:
        if argument == "-":
            yield from (line.strip() for line in sys.stdin if line.strip())
        else:
            yield argument


def run(args: argparse.Namespace) -> int:
    variant = parse_variant(args.variant)
    for text in _position_texts(args.positions):
        position = parse_position(text)
        print(" ".join(move.name for move in legal_moves(position, variant)), flush=True)
    return 0
