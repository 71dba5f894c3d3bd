"""``surakarta simulator``: the board in a window, through the real pipeline on mock pins."""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import TYPE_CHECKING, Any, Protocol

from controller.numbers import Bounds
from firmware.commands import check_numbers, make_folder_for

if TYPE_CHECKING:
    from firmware.simulator import WindowOptions

NAME = "simulator"
HELP = "open the simulator window: a virtual board, its camera, the referee and the LEDs"


class ArgumentAdder(Protocol):
    """A parser or an argument group: ``surakarta run`` lists these flags in a group."""

    def add_argument(self, *names: str, **options: Any) -> argparse.Action: ...


def add_arguments(parser: ArgumentAdder) -> None:
    parser.add_argument("--screenshot", type=Path, metavar="FILE",
                        help="save the window as PNG when it closes")
    parser.add_argument("--exit-after", type=float, metavar="SECONDS",
                        help="close after this many seconds (runs off-screen without a display)")
    parser.add_argument("--variant", default="standard", help="rule variant (default: standard)")
    parser.add_argument("--computer", choices=("red", "black"),
                        help="the computer plays this side (default: two players)")
    parser.add_argument("--level", type=int, default=5, help="computer strength 1-10 (default: 5)")
    parser.add_argument("--preset", choices=("clean", "hard"), default="clean",
                        help="camera pose and lighting (default: clean)")
    parser.add_argument("--no-noise", action="store_true",
                        help="camera frames without sensor noise, blur or JPEG artefacts")
    parser.add_argument("--seed", type=int, default=0, help="seed of the camera scene and engine")
    parser.add_argument("--scenario", type=Path, metavar="FILE",
                        help="play a scenario (surakarta scenario format) before taking over")
    parser.add_argument("--colour-lamps", action="store_true",
                        help="lamps as a colour (WS2812) build shows them: each meaning in "
                             "its colour (default: one colour, as a 74HC595 chain)")
    parser.add_argument("--web", type=int, metavar="PORT",
                        help="serve the companion page on this port of 127.0.0.1 "
                             "(actions need the token of surakarta web-token)")


def options_from(args: argparse.Namespace) -> WindowOptions:
    """The window options the flags ask for (``surakarta run`` takes the same flags)."""
    from controller import parse_color, parse_variant
    from firmware.simulator import CameraPreset, WindowOptions

    return WindowOptions(
        variant=parse_variant(args.variant),
        computer=None if args.computer is None else parse_color(args.computer),
        level=args.level,
        preset=CameraPreset(args.preset),
        noise=not args.no_noise,
        screenshot=args.screenshot,
        exit_after=args.exit_after,
        seed=args.seed,
        scenario=args.scenario,
        web_port=args.web,
        colour_lamps=args.colour_lamps,
    )


def run(args: argparse.Namespace) -> int:
    # Imported here: pygame, OpenCV and the mock pins load only for this command.
    from firmware.simulator import run_window

    return run_window(window_options(args))


def window_options(args: argparse.Namespace) -> WindowOptions:
    """``options_from(args)``, with the screenshot's folder made before the window opens
    (a session is not played through only to find nowhere to save it)."""
    check_numbers(args, exit_after=Bounds(0, 366 * 86_400))  # nan would never end the window
    if args.screenshot is not None:
        make_folder_for(args.screenshot)
    return options_from(args)
