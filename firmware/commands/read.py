"""``surakarta read``: read boards from images, one line per image."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import TYPE_CHECKING

from controller.errors import SurakartaError
from firmware.commands import make_folder_for

if TYPE_CHECKING:
    import numpy as np

    from vision.reader import FrameReading

NAME = "read"
HELP = "print the board part of the position string seen in each image (or 'occluded')"

EXIT_OCCLUDED = 3

DEBUG_SUFFIXES = (".png", ".jpg", ".jpeg", ".bmp", ".tif", ".tiff", ".webp")
"""Suffixes of debug images: the usual colour formats OpenCV writes (``.webp`` if built in)."""


class BadDebugPath(SurakartaError, ValueError):
    """A ``--debug`` path with no image format OpenCV writes."""


class DebugImageNotWritten(SurakartaError, OSError):
    """A debug image that OpenCV could not write."""


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("images", nargs="+", type=Path, metavar="IMAGE", help="camera images")
    parser.add_argument("--calibration", required=True, type=Path, metavar="CAL.json",
                        help="file written by 'surakarta calibrate'")
    parser.add_argument("--debug", type=Path, metavar="OUT.png",
                        help="write each image with the detected grid and labels drawn on it "
                             "(OUT-1.png, OUT-2.png, ... for several images; "
                             f"{', '.join(DEBUG_SUFFIXES)})")


def _debug_path(debug: Path, index: int, count: int) -> Path:
    return debug if count == 1 else debug.with_name(f"{debug.stem}-{index}{debug.suffix}")


def check_debug_path(debug: Path) -> None:
    """Raise BadDebugPath unless images can go to ``debug``; its folder is created.

    Checked before any image is read, so that a typing mistake costs no reading
    and OpenCV never gets the chance to fail halfway through a batch.
    """
    if debug.suffix.lower() not in DEBUG_SUFFIXES:
        raise BadDebugPath(
            f"invalid debug image: {str(debug)!r} (expected a name ending in "
            f"{', '.join(DEBUG_SUFFIXES)})"
        )
    make_folder_for(debug)


def write_debug_image(target: Path, picture: np.ndarray) -> None:
    """Write ``picture`` to ``target``; raise DebugImageNotWritten when OpenCV cannot."""
    import cv2

    try:
        written = cv2.imwrite(str(target), picture)
    except cv2.error:
        # OpenCV's message is several lines of C++ source locations: one line instead.
        written = False
    if not written:
        raise DebugImageNotWritten(f"cannot write debug image: {str(target)!r}")


def why_unread(frame: FrameReading) -> str:
    """Why a frame gave no board, in a few words for the person who took the picture."""
    from controller.geometry import point_name
    from vision.doubt import describe_doubts
    from vision.reader import ReadStatus

    if frame.status is ReadStatus.NO_BOARD:
        return "no board found"
    if frame.status is ReadStatus.BOARD_MOVED:
        return "the board is not where the calibration found it"
    if frame.status is ReadStatus.DOUBTFUL and frame.doubtful:
        return describe_doubts([point_name(point) for point in frame.doubtful], frame.choices)
    return "points covered or unclear (a hand, glare or a shadow)"


def run(args: argparse.Namespace) -> int:
    if args.debug is not None:
        check_debug_path(args.debug)
    # Imported here so that other subcommands start without loading OpenCV.
    from vision.calibrate import load_calibration
    from vision.debug import debug_image
    from vision.reader import BoardReader
    from vision.sources import load_image

    calibration = load_calibration(args.calibration)
    status = 0
    for index, path in enumerate(args.images, start=1):
        image = load_image(path)
        # Each image on its own: no place or colour carried over from the one before.
        reader = BoardReader(calibration)
        frame = reader.read(image)
        if frame.reading is not None:
            print(frame.reading.board_string(), flush=True)
        else:
            print("occluded", flush=True)
            reason = why_unread(frame)
            camera = calibration.camera
            height, width = image.shape[:2]
            if (width, height) != (camera.width, camera.height):
                reason += (f"; the image is {width}x{height} but the calibration was made on "
                           f"{camera.width}x{camera.height} images (calibrate again?)")
            print(f"surakarta read: {str(path)!r}: {reason}", file=sys.stderr)
            status = EXIT_OCCLUDED
        if args.debug is not None:
            picture = debug_image(image, frame, calibration.model, reader.config.confident)
            target = _debug_path(args.debug, index, len(args.images))
            write_debug_image(target, picture)
    return status
