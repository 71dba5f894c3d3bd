"""``surakarta scenario`` (or ``simulate``, its first name): a scripted physical session
through the whole pipeline, without a window (``surakarta simulator`` is the window)."""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any, TextIO

from firmware.commands import check_numbers, writing
from firmware.config import FPS
from firmware.scenario import parse_scenario

NAME = "scenario"
ALIASES = ("simulate",)
"""Earlier name of the command, still accepted."""
HELP = "play a scenario file without a window (virtual hand, camera, vision, referee, mock pins)"


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("scenario", type=Path, help="scenario file ('-' for standard input)")
    parser.add_argument("--events", type=Path, help="write the events as JSON lines here")
    parser.add_argument("--seed", type=int, default=0, help="seed of the camera noise and engine")
    parser.add_argument("--fps", type=float, default=10.0, help="camera frames per second")
    parser.add_argument("--no-hands", action="store_true", help="actions are instant, no hand")
    parser.add_argument("--quiet", action="store_true", help="do not echo events to stdout")
    parser.add_argument("--journal", type=Path, help="save the game here after every change")


def run(args: argparse.Namespace) -> int:
    # Imported here: OpenCV and the mock pins load only for the commands that use them.
    from firmware.journal import Journal
    from firmware.simulation import Simulation, SimulationOptions

    text = sys.stdin.read() if str(args.scenario) == "-" else args.scenario.read_text()
    steps = parse_scenario(text)
    check_numbers(args, fps=FPS)  # nan passed "<= 0" and then simulated nothing
    out: TextIO | None = None
    if args.events is not None:
        with writing(args.events):
            out = args.events.open("w", encoding="utf-8")

    def write(record: dict[str, Any]) -> None:
        line = json.dumps(record)
        if out is not None:
            out.write(line + "\n")
            out.flush()
        if not args.quiet:
            print(line, flush=True)

    options = SimulationOptions(fps=args.fps, hands=not args.no_hands, seed=args.seed)
    journal = Journal(args.journal) if args.journal else None
    simulation = Simulation(write, options, journal=journal)
    try:
        simulation.run(steps)
    finally:
        simulation.close()
        if out is not None:
            out.close()
    return 0
