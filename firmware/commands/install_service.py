"""``surakarta install-service``: start the board at boot, as a systemd user service."""

from __future__ import annotations

import argparse
import shutil
import subprocess
import sys
from importlib import resources
from pathlib import Path

from controller.errors import BadOption, SurakartaError
from firmware.commands import writing
from firmware.commands.run import EXIT_CAMERA_STACK
from firmware.config import check_config

NAME = "install-service"
HELP = "install and start the systemd user service that runs the board at boot"

UNIT_NAME = "surakarta.service"


class ServiceNotStarted(SurakartaError, OSError):
    """systemctl could not start the unit (often: no user session over SSH)."""


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--config", type=Path, required=True, help="the board's config file")
    parser.add_argument(
        "--unit-dir",
        type=Path,
        help="where user units live (default: ~/.config/systemd/user)",
    )
    parser.add_argument("--no-start", action="store_true", help="write the unit, do not start it")


def systemd_word(text: str) -> str:
    """``text`` as one argument of a systemd command line.

    Quoted so that a path with spaces stays one argument; ``%`` would start a
    systemd specifier and ``\\`` an escape, so both are doubled.
    """
    escaped = text.replace("\\", "\\\\").replace('"', '\\"').replace("%", "%%")
    return f'"{escaped}"'


def unit_text(config: Path) -> str:
    """The unit file for this Python and this config."""
    template = resources.files("firmware").joinpath("data", UNIT_NAME).read_text()
    return template.format(
        executable=systemd_word(sys.executable),
        config=systemd_word(str(config)),
        camera_stack_status=EXIT_CAMERA_STACK,
    )


def _systemctl(command: list[str], unit: Path) -> None:
    """Run one systemctl command; ServiceNotStarted with its own reason when it fails."""
    result = subprocess.run(command, capture_output=True, text=True, check=False)
    if result.returncode == 0:
        return
    said = (result.stderr or result.stdout).strip().splitlines()
    reason = said[0] if said else f"exit status {result.returncode}"
    raise ServiceNotStarted(
        f"{' '.join(command)} failed: {reason} (the unit is written to {str(unit)!r}; over SSH "
        "there may be no user session: run sudo loginctl enable-linger $USER, log in again "
        "and repeat the command)"
    )


def run(args: argparse.Namespace) -> int:
    try:
        config = args.config.expanduser().resolve()
    except RuntimeError:  # ~someone this machine does not know
        raise BadOption(f"cannot expand the home folder in --config {str(args.config)!r}") from None
    problems = check_config(config)
    if problems:
        raise BadOption(f"{config}: {problems[0]} (see: surakarta run --config {config} --check)")
    # The home folder is looked up now, not when the parser was built (it is built once).
    unit = (args.unit_dir or Path("~/.config/systemd/user").expanduser()) / UNIT_NAME
    with writing(unit):
        unit.write_text(unit_text(config))
    print(f"wrote {unit}")
    commands = [
        ["systemctl", "--user", "daemon-reload"],
        ["systemctl", "--user", "enable", "--now", UNIT_NAME],
    ]
    if args.no_start or shutil.which("systemctl") is None:
        print("to start it now and at every boot:")
        for command in commands:
            print("  " + " ".join(command))
    else:
        for command in commands:
            _systemctl(command, unit)
        print(f"started {UNIT_NAME}; logs: journalctl --user -u surakarta -f")
    print("so that it starts at boot before anyone logs in: sudo loginctl enable-linger $USER")
    return 0
