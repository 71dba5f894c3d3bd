"""``surakarta tournament`` (or ``match``, its first name): two GTP engines play a series of
games; prints the score and Elo difference."""

from __future__ import annotations

import argparse
import os
from pathlib import Path

from controller.errors import BadOption
from controller.numbers import seconds, whole
from controller.variants import parse_variant
from firmware.commands import check_numbers
from firmware.tournament import (
    GameResult,
    TournamentConfig,
    run_tournament,
    summarize,
    write_records,
)

NAME = "tournament"
ALIASES = ("match",)
"""Earlier name of the command, still accepted."""
HELP = "play a tournament between two GTP engine commands and print the score and Elo difference"


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("engine_a", metavar="CMD_A", help="command line of engine A (quoted)")
    parser.add_argument("engine_b", metavar="CMD_B", help="command line of engine B (quoted)")
    parser.add_argument("--games", type=int, default=10, help="games to play (default: 10)")
    parser.add_argument(
        "--movetime", type=float, default=1.0, help="seconds per move (default: 1.0)"
    )
    parser.add_argument(
        "--jobs",
        type=int,
        default=os.cpu_count() or 1,
        help="games played at once (default: the number of cores)",
    )
    parser.add_argument("--variant", default="standard", help="rule variant (default: standard)")
    parser.add_argument("--seed", type=int, default=0, help="seed of the openings (default: 0)")
    parser.add_argument(
        "--timeout",
        type=float,
        default=None,
        help="seconds an engine may take per answer before it loses (default: 10 x movetime + 10)",
    )
    parser.add_argument("--quiet", action="store_true", help="print only the final score")
    parser.add_argument(
        "--records", type=Path, help="file to write every game to, as records (Red/Black: A, B)"
    )


def run(args: argparse.Namespace) -> int:
    check_numbers(
        args, movetime=seconds(3600), timeout=seconds(86_400), jobs=whole(1, 256),
        games=whole(1, 1_000_000),
    )
    for command in (args.engine_a, args.engine_b):
        if not command.strip():
            raise BadOption(f"empty engine command: {command!r}")
    timeout = args.timeout if args.timeout is not None else 10 * args.movetime + 10
    config = TournamentConfig(
        (args.engine_a, args.engine_b), parse_variant(args.variant), args.movetime, timeout
    )

    if args.records is not None:
        try:
            args.records.write_text("")  # a file that cannot be written fails now, not at the end
        except OSError as error:
            raise BadOption(
                f"cannot write records to {str(args.records)!r}: {error.strerror}"
            ) from None

    def show(result: GameResult) -> None:
        if not args.quiet:
            print(result.line(), flush=True)

    results = run_tournament(config, args.games, jobs=args.jobs, seed=args.seed, on_result=show)
    if args.records is not None:
        args.records.write_text(write_records(results, config.variant))
    print(f"A: {args.engine_a}\nB: {args.engine_b}")
    print(summarize(results).report())
    return 0
