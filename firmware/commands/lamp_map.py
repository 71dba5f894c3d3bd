"""``surakarta lamp-map``: an SVG drawing of where each lamp goes under the board."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from firmware.commands import writing
from hardware.chain import Chain
from hardware.config import HardwareConfig, load_hardware_file
from hardware.lamp_map import lamp_map_svg
from hardware.lamps import LampLayout

NAME = "lamp-map"
HELP = "print an SVG drawing of the lamp positions and their chain outputs"


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--config", metavar="FILE", help="TOML file with a [hardware] section")
    parser.add_argument(
        "--size", type=int, choices=(6, 7), help="board size (default: from the configuration)"
    )
    parser.add_argument(
        "--paper",
        default="a4",
        choices=("a4", "a3"),
        help="sheet 'surakarta print-board' printed the board on (default: a4)",
    )
    parser.add_argument(
        "--pitch",
        type=float,
        help="mm between points (default: the printed sheet's pitch for the size and paper)",
    )
    parser.add_argument(
        "--output", "-o", type=Path, metavar="FILE", help="write to FILE instead of stdout"
    )


def sheet_pitch(size: int, paper: str) -> float:
    """Pitch in mm of the board ``surakarta print-board`` prints at ``size`` on ``paper``."""
    # Imported here so that a lamp map with an explicit pitch starts without loading OpenCV.
    from vision.board_model import board_model, parse_paper

    return board_model(size, parse_paper(paper)).pitch


def run(args: argparse.Namespace) -> int:
    config = HardwareConfig() if args.config is None else load_hardware_file(args.config)
    if args.size is not None and args.size != config.board_size:
        layout = LampLayout(args.size, config.inner_loop_lamps, config.outer_loop_lamps)
        # A configured chain belongs to the configured board; another size gets the default.
        chain = Chain.of(layout)
    else:
        layout = config.layout
        chain = config.chain_of()
    # The drawing is a drill plan laid under the printed sheet: only its pitch lines up.
    pitch = sheet_pitch(layout.size, args.paper) if args.pitch is None else args.pitch
    svg = lamp_map_svg(layout, chain, pitch_mm=pitch, place=config.output_place)
    if args.output is None:
        sys.stdout.write(svg)
    else:
        with writing(args.output):
            args.output.write_text(svg, encoding="utf-8")
    return 0
