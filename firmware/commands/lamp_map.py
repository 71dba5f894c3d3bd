"""``surakarta lamp-map``: an SVG drawing of where each lamp goes under the board."""

from __future__ import annotations

import argparse
import sys

from hardware.chain import Chain
from hardware.config import HardwareConfig, load_hardware_file
from hardware.lamp_map import PITCH_MM, lamp_map_svg
from hardware.lamps import LampLayout

NAME = "lamp-map"
HELP = "print an SVG drawing of the lamp positions and their chain outputs"


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--config", metavar="FILE", help="TOML file with a [hardware] section")
    parser.add_argument(
        "--size", type=int, choices=(6, 7), help="board size (default: from the configuration)"
    )
    parser.add_argument(
        "--pitch", type=float, default=PITCH_MM, help=f"mm between points (default {PITCH_MM:g})"
    )
    parser.add_argument("--output", "-o", metavar="FILE", help="write to FILE instead of stdout")


def run(args: argparse.Namespace) -> int:
    if args.pitch <= 0:
        raise ValueError(f"invalid pitch: {args.pitch!r} (expected more than 0 mm)")
    config = HardwareConfig() if args.config is None else load_hardware_file(args.config)
    if args.size is not None and args.size != config.board_size:
        layout = LampLayout(args.size, config.inner_loop_lamps, config.outer_loop_lamps)
        # A configured chain belongs to the configured board; another size gets the default.
        chain = Chain.of(layout)
    else:
        layout = config.layout
        chain = config.chain_of()
    svg = lamp_map_svg(layout, chain, pitch_mm=args.pitch)
    if args.output is None:
        sys.stdout.write(svg)
    else:
        with open(args.output, "w", encoding="utf-8") as file:
            file.write(svg)
    return 0
