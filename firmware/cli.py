"""The ``surakarta`` command: one subcommand per module in ``firmware.commands``.

Each command module defines ``NAME`` (the subcommand), ``HELP`` (one line),
``add_arguments(parser)`` and ``run(args) -> int``, and may define ``ALIASES`` (earlier
names that keep working). Modules are found by listing the package, so adding a
command is adding a file.
"""

from __future__ import annotations

import argparse
import functools
import importlib
import pkgutil
import sys
from collections.abc import Sequence
from types import ModuleType

from controller.errors import SurakartaError
from firmware import commands

EXIT_BAD_INPUT = 2


class CommandError(SurakartaError):
    """A command-line mistake; the message is printed as one line."""


def _command_modules() -> list[ModuleType]:
    names = sorted(info.name for info in pkgutil.iter_modules(commands.__path__))
    return [importlib.import_module(f"{commands.__name__}.{name}") for name in names]


@functools.cache  # 6 ms to build, and the tests run hundreds of commands in one process
def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="surakarta", description="A smart Surakarta board: referee, engine, vision, LEDs."
    )
    subparsers = parser.add_subparsers(dest="command", metavar="COMMAND", required=True)
    for module in _command_modules():
        sub = subparsers.add_parser(
            module.NAME,
            aliases=getattr(module, "ALIASES", ()),
            help=module.HELP,
            description=module.HELP,
        )
        module.add_arguments(sub)
        sub.set_defaults(handler=module.run)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Run one subcommand; bad input exits with status 2 and one line on stderr."""
    args = build_parser().parse_args(argv)
    try:
        return int(args.handler(args))
    except (SurakartaError, OSError) as error:
        print(f"surakarta {args.command}: {error}", file=sys.stderr)
        return EXIT_BAD_INPUT
    except KeyboardInterrupt:
        return 130


if __name__ == "__main__":
    sys.exit(main())
