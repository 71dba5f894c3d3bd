"""``surakarta gtp``: the engine (or a baseline player) on standard input and output."""

from __future__ import annotations

import argparse
import sys

from controller.baselines import GreedyPlayer, RandomPlayer
from controller.engine.levels import level
from controller.engine.player import EnginePlayer
from controller.engine.settings import DEFAULT_SETTINGS, SearchSettings, tuned
from controller.gtp import DEFAULT_MOVETIME, GtpEngine, Player
from controller.numbers import LEVEL, seconds
from controller.variants import parse_variant
from firmware.commands import check_numbers

NAME = "gtp"
HELP = "speak the GTP-style engine protocol on standard input and output"

PLAYERS = ("engine", "random", "greedy")


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--movetime",
        type=float,
        default=DEFAULT_MOVETIME,
        help=f"seconds per move (default: {DEFAULT_MOVETIME})",
    )
    parser.add_argument("--level", type=int, default=10, help="strength 1-10 (default: 10)")
    parser.add_argument(
        "--player",
        choices=PLAYERS,
        default="engine",
        help="who chooses the moves: the engine, or a random or greedy baseline",
    )
    parser.add_argument("--seed", type=int, default=0, help="seed of every random choice")
    parser.add_argument("--variant", default="standard", help="rule variant (default: standard)")
    parser.add_argument(
        "--tune",
        action="append",
        default=[],
        metavar="KEY=VALUE",
        help="change an evaluation weight (en_prise=35) or a pruning (multi_cut=off), "
        "to measure it against the defaults in a match; repeatable",
    )


def make_player(
    kind: str, level_number: int, seed: int, settings: SearchSettings = DEFAULT_SETTINGS
) -> Player:
    """The player called ``kind`` (one of PLAYERS)."""
    if kind == "random":
        return RandomPlayer(seed)
    if kind == "greedy":
        return GreedyPlayer(seed)
    return EnginePlayer(level_number, seed, settings)


def run(args: argparse.Namespace) -> int:
    # A move time of inf passes "> 0" and then never answers.
    check_numbers(args, movetime=seconds(3600), level=LEVEL)
    level(args.level)
    engine = GtpEngine(
        make_player(args.player, args.level, args.seed, tuned(args.tune)),
        movetime=args.movetime,
        variant=parse_variant(args.variant),
    )
    for line in sys.stdin:
        answer = engine.handle(line)
        if answer is not None:
            sys.stdout.write(answer)
            sys.stdout.flush()
        if engine.quit_requested:
            break
    return 0
