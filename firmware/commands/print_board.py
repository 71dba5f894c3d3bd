"""``surakarta print-board``: the board sheet to print (PNG at 300 dpi, or vector SVG/PDF)."""

from __future__ import annotations

import argparse
import json
from pathlib import Path

from controller.errors import BadOption
from firmware.commands import writing

NAME = "print-board"
HELP = "draw the board with its markers to print: PNG (300 dpi), SVG or PDF by the file suffix"
OUTPUT_SUFFIXES = (".png", ".svg", ".pdf")


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--out", required=True, type=Path, metavar="FILE",
                        help="output file: .png, .svg or .pdf")
    parser.add_argument("--paper", default="a4", choices=("a4", "a3"),
                        help="sheet size (default: a4)")
    parser.add_argument("--size", default=6, type=int, choices=(6, 7),
                        help="lines per side (default: 6)")
    parser.add_argument("--model", type=Path, metavar="MODEL.json",
                        help="also write the board model (positions in the PNG's pixels)")


def run(args: argparse.Namespace) -> int:
    # Imported here so that other subcommands start without loading OpenCV.
    from vision.board_model import board_model, parse_paper
    from vision.sheet import MM_PER_INCH, PNG_DPI, write_sheet

    if args.out.suffix.lower() not in OUTPUT_SUFFIXES:
        raise BadOption(
            f"unsupported output format: {str(args.out)!r} (expected .png, .svg or .pdf)"
        )
    model = board_model(args.size, parse_paper(args.paper))
    with writing(args.out):
        write_sheet(model, args.out)
    if args.model is not None:
        data = model.to_json(pixels_per_mm=PNG_DPI / MM_PER_INCH)
        with writing(args.model):
            args.model.write_text(json.dumps(data, indent=1) + "\n", encoding="utf-8")
    print(f"wrote {args.out} ({model.size}x{model.size} board, pitch {model.pitch:g} mm, "
          f"{args.paper.upper()})")
    return 0
