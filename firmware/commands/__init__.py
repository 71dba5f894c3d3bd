"""Subcommands of ``surakarta``; each module is one subcommand (see ``firmware.cli``).

Also what the commands share for the files they write: each creates the folder of
its output, and a file that cannot be written is one line naming it, not a bare
``[Errno 2]``.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from controller.errors import SurakartaError
from controller.numbers import Bounds


class OutputNotWritten(SurakartaError, OSError):
    """An output file (or its folder) that cannot be written."""


def make_folder_for(path: Path) -> None:
    """Create the folder ``path`` goes in; OutputNotWritten when that is impossible."""
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
    except OSError as error:
        raise OutputNotWritten(
            f"cannot create the folder for {str(path)!r}: {error.strerror or error}"
        ) from None


@contextmanager
def writing(path: Path) -> Iterator[Path]:
    """Around the code that writes ``path``: its folder is made first, and an OSError
    while writing becomes OutputNotWritten naming the file."""
    make_folder_for(path)
    try:
        yield path
    except SurakartaError:
        raise  # already one clear line
    except OSError as error:
        raise OutputNotWritten(f"cannot write {str(path)!r}: {error.strerror or error}") from None


def check_numbers(args: Any, **bounds: Bounds) -> None:
    """Hold the options named by ``bounds`` to them (the rule configs follow too);
    BadNumber names the option, ``--movetime`` for ``movetime``. Unset options pass."""
    for name, bound in bounds.items():
        value = getattr(args, name)
        if value is not None:
            bound.check(value, f"--{name.replace('_', '-')}")
