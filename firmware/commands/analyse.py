"""``surakarta analyse``: every move of a recorded game scored, mistakes marked."""

from __future__ import annotations

import argparse
from pathlib import Path

from controller.engine.analysis import Review, Verdict, analyse, summarise
from controller.errors import BadOption, BadRecord
from controller.numbers import seconds, whole
from controller.record import read_records
from firmware.commands import check_numbers
from hardware.config import HardwareConfig, load_hardware_file
from hardware.lamps import LampLayout, lamps_for_move

NAME = "analyse"
HELP = "score every move of a game record and mark the mistakes with the better move"

DEPTH = whole(1, 64)


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("record", metavar="RECORD", help="game record file (PGN-like)")
    parser.add_argument(
        "--movetime", type=float, default=0.5, help="seconds a position (default: 0.5)"
    )
    parser.add_argument("--depth", type=int, help="plies a position instead of a time")
    parser.add_argument("--game", type=int, default=1, help="which game of the file (default 1)")
    parser.add_argument(
        "--lamps",
        action="store_true",
        help="after each mistake, the lamps the better move lights, in travel order",
    )
    parser.add_argument(
        "--config", metavar="FILE", help="TOML file whose [hardware] section sets the loop lamps"
    )


def run(args: argparse.Namespace) -> int:
    check_numbers(args, movetime=seconds(3600), depth=DEPTH)
    try:
        text = Path(args.record).read_text(encoding="utf-8")
    except UnicodeDecodeError:
        raise BadRecord(f"not a text file: {args.record!r}") from None
    except OSError as error:
        raise BadOption(f"cannot read {args.record!r}: {error.strerror or error}") from None
    records = read_records(text)
    if not 1 <= args.game <= len(records):
        raise BadOption(f"invalid --game: {args.game!r} (the file holds {len(records)})")
    game = records[args.game - 1].game
    layout = None
    if args.lamps:
        config = HardwareConfig() if args.config is None else load_hardware_file(args.config)
        size = game.position.size
        layout = LampLayout(size, config.inner_loop_lamps, config.outer_loop_lamps)

    def show(review: Review) -> None:
        print(review.text(), flush=True)
        if layout is not None and review.verdict is not Verdict.GOOD:
            print("         lamps: " + " ".join(lamps_for_move(layout, review.best)), flush=True)

    movetime = None if args.depth is not None else args.movetime
    reviews = analyse(game, movetime=movetime, depth=args.depth, progress=show)
    for summary in summarise(reviews):
        print(summary.text())
    outcome = game.outcome
    print(f"result: {outcome}" if outcome is not None else "result: unfinished")
    return 0
