"""``surakarta read``: read boards from images, one line per image."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

NAME = "read"
HELP = "print the board part of the position string seen in each image (or 'occluded')"

EXIT_OCCLUDED = 3


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("images", nargs="+", type=Path, metavar="IMAGE", help="camera images")
    parser.add_argument("--calibration", required=True, type=Path, metavar="CAL.json",
                        help="file written by 'surakarta calibrate'")
    parser.add_argument("--debug", type=Path, metavar="OUT.png",
                        help="write each image with the detected grid and labels drawn on it "
                             "(OUT-1.png, OUT-2.png, ... for several images)")


def _debug_path(debug: Path, index: int, count: int) -> Path:
    return debug if count == 1 else debug.with_name(f"{debug.stem}-{index}{debug.suffix}")


def run(args: argparse.Namespace) -> int:
    # Imported here so that other subcommands start without loading OpenCV.
    import cv2

    from vision.calibrate import load_calibration
    from vision.debug import debug_image
    from vision.reader import BoardReader, ReadStatus
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
            if frame.status is ReadStatus.NO_BOARD:
                print(f"surakarta read: no board found in {str(path)!r}", file=sys.stderr)
            status = EXIT_OCCLUDED
        if args.debug is not None:
            picture = debug_image(image, frame, calibration.model, reader.config.confident)
            target = _debug_path(args.debug, index, len(args.images))
            if not cv2.imwrite(str(target), picture):
                raise OSError(f"cannot write debug image: {str(target)!r}")
    return status
