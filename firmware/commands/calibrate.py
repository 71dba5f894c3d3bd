"""``surakarta calibrate``: learn the board's place and piece colours from the start position."""

from __future__ import annotations

import argparse
from collections.abc import Sequence
from pathlib import Path

from controller.errors import BadOption
from controller.geometry import point_name
from firmware.commands import writing

NAME = "calibrate"
HELP = "learn the board location and piece colours from an image of the start position"


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("image", type=Path, metavar="START_IMAGE",
                        help="camera image of the start position")
    parser.add_argument("--out", required=True, type=Path, metavar="CAL.json",
                        help="calibration file to write")
    marker_free = parser.add_mutually_exclusive_group()
    marker_free.add_argument("--corners", metavar="X1,Y1,...,X4,Y4",
                             help="for a board without markers: the grid corners in image "
                                  "pixels, in the order a1, bottom-right, top-right, top-left")
    marker_free.add_argument("--click", action="store_true",
                             help="for a board without markers: click the four grid corners "
                                  "in a window showing the image")
    parser.add_argument("--size", default=6, type=int, choices=(6, 7),
                        help="lines per side of a board without markers (default: 6)")
    add_piece_height(parser)


def add_piece_height(parser: argparse.ArgumentParser) -> None:
    """The ``--piece-height`` option (``calibrate`` and ``setup``)."""
    parser.add_argument("--piece-height", type=float, metavar="MM",
                        help="height of the pieces' tops above the paper, measured with a "
                             "ruler (default: judged from the image, which printed or "
                             "textured tops can mislead under a slanted camera)")


def checked_piece_height(height: float | None) -> float | None:
    """``--piece-height`` as given; raises BadOption for an impossible one."""
    from vision.calibrate import MAX_PIECE_HEIGHT_MM, piece_height_allowed

    if height is not None and not piece_height_allowed(height):
        raise BadOption(f"invalid --piece-height: {height:g} (expected 0 to "
                        f"{MAX_PIECE_HEIGHT_MM:g} mm)")
    return height


def parse_corners(text: str) -> list[tuple[float, float]]:
    """``x1,y1,...,x4,y4`` to four points; raises BadOption quoting the text."""
    try:
        numbers = [float(part) for part in text.split(",")]
    except ValueError:
        numbers = []
    if len(numbers) != 8:
        raise BadOption(f"invalid corners: {text!r} (expected x1,y1,x2,y2,x3,y3,x4,y4)")
    return [(numbers[i], numbers[i + 1]) for i in range(0, 8, 2)]


def corners_line(corners: Sequence[tuple[float, float]]) -> str:
    """The corners as ``--corners`` takes them, after ``corners: ``."""
    return "corners: " + ",".join(f"{v:.1f}" for corner in corners for v in corner)


def run(args: argparse.Namespace) -> int:
    # Imported here so that other subcommands start without loading OpenCV.
    from vision.calibrate import calibrate, save_calibration
    from vision.config import VisionConfig
    from vision.paper_tint import SHOWN_TINT
    from vision.sources import load_image

    corners = None if args.corners is None else parse_corners(args.corners)
    piece_height = checked_piece_height(args.piece_height)
    image = load_image(args.image)
    if args.click:
        from firmware.corner_picker import pick_corners

        corners = pick_corners(image, args.size)
        # Printed so the same corners can be given again with --corners, without a window.
        print(corners_line(corners))
    calibration = calibrate(VisionConfig(), image, corners, args.size, piece_height)
    with writing(args.out):
        save_calibration(calibration, args.out)
    how = ("markers" if calibration.uses_markers else
           "corners" if corners is not None else "no markers: found by its lines and loops")
    camera = calibration.camera
    print(f"calibrated {calibration.size}x{calibration.size} board ({how}): wrote {args.out}")
    if corners is None and calibration.corners is not None:
        # A drawn board cannot tell a1; the maker checks the side and may choose the other.
        print("rank 1 (red's side) is the side nearer the bottom of the image; for the other "
              "side give these corners turned half way round with --corners, or use --click")
        print(corners_line(calibration.corners))
    # What was learned, so a maker can tell a sensible setup from a strange one.
    source = (" (as given)" if calibration.piece_height_given else
              " (judged from the image; give --piece-height MM if they are not)")
    print(f"camera: {camera.viewing_angle_degrees():.0f} degrees from straight above, "
          f"lens distortion k1 {camera.distortion[0]:+.3f}, pieces' tops "
          f"{calibration.piece_height:g} mm above the paper{source}")
    for label in sorted(calibration.wide_tops, key=lambda label: label.value, reverse=True):
        print(f"{label.name.lower()} pieces: tops vary (a printed pattern?), read over a "
              "wider part of them")
    if calibration.mirror_points:
        # Such points are read from the game, never surely: a maker may prefer to move the lamp.
        names = " ".join(point_name(point) for point in sorted(calibration.mirror_points))
        print(f"glare: the tops on {names} mirror a lamp whole; pieces there are read from "
              "the game (move the lamp to read them surely)")
    if calibration.printed_points:
        # Told apart by the colours they are made of: centred, they read surely by colour too.
        names = " ".join(point_name(point) for point in sorted(calibration.printed_points))
        print(f"printed tops: the pieces on {names} looked like another set by their colour "
              "(off their points?); told by the colours their tops are made of")
    tint = 0.0 if calibration.paper_tint is None else calibration.paper_tint.strongest(
        calibration.size)
    if tint >= SHOWN_TINT:
        print(f"light: the paper's colour varies by up to {tint:.2f} across the grid (lights "
              "of different colours); expected there")
    if calibration.shadow_reach is not None:
        length = calibration.shadow_reach.length
        print(f"low light: the pieces' shadows reach {length:g} square"
              f"{'' if length == 1 else 's'} across the paper or more; expected there")
    return 0
