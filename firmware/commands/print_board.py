"""``surakarta print-board``: the board to print or cut, at any pitch, and the parts it needs.

Without ``--pitch`` or ``--piece`` the board is as large as one sheet allows (PNG at
300 dpi, SVG or PDF). A larger board is a PDF of several sheets with alignment marks
(or one page for a print shop with ``--one-page``), or an SVG at 1:1 for a laser
cutter or a CNC router, with the LED holes of the lamp map with ``--holes``.
"""

from __future__ import annotations

import argparse
import json
import math
from pathlib import Path
from typing import TYPE_CHECKING

from controller.errors import BadOption
from firmware.commands import writing

if TYPE_CHECKING:
    from vision.board_model import BoardModel, Paper
    from vision.tiles import LargeBoard

NAME = "print-board"
HELP = "draw the board to print or cut (PNG, SVG or PDF by the suffix) and list its parts"
OUTPUT_SUFFIXES = (".png", ".svg", ".pdf")
CAMERAS = (("a Pi Camera Module 3", 41.0), ("a Pi Camera Module 3 Wide", 67.0),
           ("a webcam of 60 degrees across", 36.0))
"""Cameras and their field of view along the image's short side, degrees (landscape)."""
COMMON_PIECES = (20.0, 25.0, 30.0, 35.0)
"""Piece diameters of common sets (draughts are 25-30 mm), mm."""
CAMERA_SPARE_MM = 40.0
"""Room kept round the board in the camera's view, on each side."""


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--out", required=True, type=Path, metavar="FILE",
                        help="output file: .png, .svg or .pdf")
    parser.add_argument("--paper", default="a4", choices=("a4", "a3"),
                        help="sheet size (default: a4)")
    parser.add_argument("--size", default=6, type=int, choices=(6, 7),
                        help="lines per side (default: 6)")
    scale = parser.add_mutually_exclusive_group()
    scale.add_argument("--pitch", type=float, metavar="MM",
                       help="mm between points (default: as large as one sheet allows)")
    scale.add_argument("--piece", type=float, metavar="MM",
                       help="the pieces' diameter: the pitch is chosen for them")
    parser.add_argument("--one-page", action="store_true",
                        help="a large board as one PDF page of its own size (for a print shop)")
    parser.add_argument("--holes", action="store_true",
                        help="SVG: the board 1:1 with the lamp map's LED holes as a cut layer")
    parser.add_argument("--hole", type=float, default=5.0, metavar="MM",
                        help="LED hole diameter (default: 5)")
    parser.add_argument("--config", metavar="FILE",
                        help="TOML file with a [hardware] section, for the lamp layout")
    parser.add_argument("--model", type=Path, metavar="MODEL.json",
                        help="also write the board model (positions in the PNG's pixels)")


def run(args: argparse.Namespace) -> int:
    # Imported here so that other subcommands start without loading OpenCV.
    from vision.board_model import board_model, parse_paper

    suffix = args.out.suffix.lower()
    if suffix not in OUTPUT_SUFFIXES:
        raise BadOption(
            f"unsupported output format: {str(args.out)!r} (expected .png, .svg or .pdf)"
        )
    if args.holes and suffix != ".svg":
        raise BadOption(f"--holes needs an .svg output, not {str(args.out)!r}")
    if not (math.isfinite(args.hole) and args.hole > 0):
        raise BadOption(f"invalid hole diameter: {args.hole!r} (expected more than 0 mm)")
    paper = parse_paper(args.paper)
    sheet = board_model(args.size, paper)
    pitch = _pitch(args, sheet.pitch)
    if pitch == sheet.pitch and not args.holes and not args.one_page:
        _write_sheet(args, sheet)
        summary = f"one {paper.name} sheet"
    else:
        summary = _write_large(args, pitch, paper)
    print(f"wrote {args.out} ({args.size}x{args.size} board, pitch {pitch:g} mm, {summary})")
    print(parts_list(args.size, pitch, args.hole))
    return 0


def _pitch(args: argparse.Namespace, sheet_pitch: float) -> float:
    from vision.tiles import pitch_for_piece

    if args.piece is not None:
        if not (math.isfinite(args.piece) and args.piece > 0):
            raise BadOption(f"invalid piece diameter: {args.piece!r} (expected more than 0 mm)")
        # Pieces small enough for the sheet's own board get it.
        return max(sheet_pitch, pitch_for_piece(args.piece))
    return sheet_pitch if args.pitch is None else float(args.pitch)


def _write_sheet(args: argparse.Namespace, model: BoardModel) -> None:
    from vision.sheet import MM_PER_INCH, PNG_DPI, write_sheet

    with writing(args.out):
        write_sheet(model, args.out)
    if args.model is not None:
        data = model.to_json(pixels_per_mm=PNG_DPI / MM_PER_INCH)
        with writing(args.model):
            args.model.write_text(json.dumps(data, indent=1) + "\n", encoding="utf-8")


def _write_large(args: argparse.Namespace, pitch: float, paper: Paper) -> str:
    """Write a board at ``pitch``; returns how it was laid out, in words."""
    from vision.sheet import Page, pdf_document, pdf_ops, svg_document
    from vision.tiles import large_board, tile_shapes, tiling

    board = large_board(args.size, pitch)
    suffix = args.out.suffix.lower()
    if args.model is not None:
        raise BadOption("--model describes the one-sheet board: leave out --pitch and --piece")
    if suffix == ".png":
        raise BadOption(f"a board of pitch {pitch:g} mm does not fit one sheet: write .pdf "
                        f"(sheets to glue, or --one-page) or .svg, not {str(args.out)!r}")
    side = board.side
    if suffix == ".svg":
        holes = [board.point(x, y) for x, y in _lamp_positions(args)] if args.holes else None
        with writing(args.out):
            args.out.write_text(svg_document(board.shapes(), side, side, holes, args.hole,
                                             outline=args.holes), encoding="utf-8")
        return (f"{side:.0f} mm square, 1:1" + (f", {len(holes)} holes of {args.hole:g} mm"
                                                if holes else ""))
    if args.one_page:
        pages = [Page(side, side, pdf_ops(board.shapes(), side))]
        summary = f"one page {side:.0f} mm square"
    else:
        layout = tiling(side, paper)
        pages = []
        for tile in layout.tiles():
            pages.append(Page(tile.width, tile.height,
                              pdf_ops(tile_shapes(board, layout, tile), tile.height,
                                      tile.printable)))
        orientation = "landscape" if layout.landscape else "portrait"
        summary = (f"{len(pages)} {paper.name} sheets, {layout.rows} rows of "
                   f"{layout.columns}, {orientation}")
    with writing(args.out):
        args.out.write_bytes(pdf_document(pages))
    return summary


def _lamp_positions(args: argparse.Namespace) -> list[tuple[float, float]]:
    """Each lamp's position in grid units (a1 at 0, 0), from the lamp layout."""
    from hardware.config import HardwareConfig, load_hardware_file
    from hardware.lamps import LampLayout

    config = HardwareConfig() if args.config is None else load_hardware_file(args.config)
    layout = config.layout
    if layout.size != args.size:
        layout = LampLayout(args.size, config.inner_loop_lamps, config.outer_loop_lamps)
    return [(lamp.x, lamp.y) for lamp in layout]


def camera_height(side: float, view_degrees: float) -> float:
    """Least height (mm) from which a camera of ``view_degrees`` sees a board ``side`` mm
    across, with some room round it."""
    return (side / 2 + CAMERA_SPARE_MM) / math.tan(math.radians(view_degrees / 2))


def parts_list(size: int, pitch: float, hole: float) -> str:
    """What a board of ``size`` at ``pitch`` needs, with piece sizes for every print."""
    from vision.board_model import Paper, board_model
    from vision.tiles import PIECE_SHARE, large_board, pitch_for_piece

    board = large_board(size, pitch)
    low, high, most = board.piece_range()
    lines = [
        "parts:",
        f"  pieces: {2 * size} red and {2 * size} black, {low:.0f}-{high:.0f} mm across "
        f"(at most {most:.0f} mm), any two colours a glance tells apart",
        f"  panel: {board.side:.0f} mm square or larger (plywood, MDF or card)",
        f"  LED holes: {hole:g} mm at the lamp map's positions "
        f"(print-board --out board.svg --holes --pitch {pitch:g})",
        "  camera height (lens above the board's centre), at least:",
    ]
    lines.extend(f"    {camera_height(board.side, view):.0f} mm with {name}"
                 for name, view in CAMERAS)
    lines.append("pieces for each print (they play well at 0.6-0.75 of the pitch):")
    for paper in Paper:
        at = board_model(size, paper).pitch
        low, high, _ = large_board(size, at).piece_range()
        lines.append(f"  one {paper.name} sheet: pitch {at:g} mm, pieces {low:.0f}-{high:.0f} mm")
    for piece in (*COMMON_PIECES, pitch * PIECE_SHARE[1]):
        drawing = large_board(size, max(pitch_for_piece(piece), board_model(size).pitch))
        sheets = " or ".join(f"{_sheets(size, drawing, paper)} {paper.name}" for paper in Paper)
        mark = "  (this board)" if drawing.pitch == pitch else ""
        lines.append(f"  {piece:.0f} mm pieces: pitch {drawing.pitch:g} mm, board "
                     f"{drawing.side:.0f} mm, {sheets} sheets{mark}")
    return "\n".join(dict.fromkeys(lines))


def _sheets(size: int, drawing: LargeBoard, paper: Paper) -> int:
    from vision.board_model import board_model
    from vision.tiles import tiling

    # One sheet whose own board is at least as large serves as well as tiles.
    if board_model(size, paper).pitch >= drawing.pitch:
        return 1
    layout = tiling(drawing.side, paper)
    return layout.rows * layout.columns
