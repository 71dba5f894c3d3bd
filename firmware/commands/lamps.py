"""``surakarta lamps``: the lamps a move lights, in the order the piece travels."""

from __future__ import annotations

import argparse

from controller import find_move, parse_position, parse_variant
from hardware.config import HardwareConfig, load_hardware_file
from hardware.lamps import LampLayout, lamps_for_move

NAME = "lamps"
HELP = "print the lamps a move lights under the board, in travel order"


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("position", metavar="POSITION", help="position string")
    parser.add_argument("move", metavar="MOVE", help="move name such as c4xd6")
    parser.add_argument("--variant", default="standard", help="rule variant (default: standard)")
    parser.add_argument(
        "--config", metavar="FILE", help="TOML file whose [hardware] section sets the loop lamps"
    )


def run(args: argparse.Namespace) -> int:
    variant = parse_variant(args.variant)
    position = parse_position(args.position)
    move = find_move(position, args.move, variant)
    config = HardwareConfig() if args.config is None else load_hardware_file(args.config)
    # The position decides the board size; the configuration, the lamps per loop.
    layout = LampLayout(position.size, config.inner_loop_lamps, config.outer_loop_lamps)
    print(" ".join(lamps_for_move(layout, move)))
    return 0
