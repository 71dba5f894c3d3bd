"""Every ``surakarta`` command the README shows, with its options as written, and run.

Commands come from the shell blocks and the inline code of the README and of the
builder's guide (docs/BUILDING.md). A synopsis line
(with placeholders such as FILE or [--size 6|7]) is checked for its options only;
every other command is run as written, in a home folder of its own, except the few
listed in ``NOT_RUN`` with the reason and where else they are run.
"""

from __future__ import annotations

import argparse
import re
import shlex
import shutil
from pathlib import Path

import cv2
import pytest

from controller.position import start_position
from firmware.cli import build_parser, main
from firmware.commands.run import EXIT_CAMERA_STACK
from tests.conftest import systemctl_failing_as_over_ssh
from vision.render import Scene, render

ROOT = Path(__file__).resolve().parents[2]
DOCUMENTS = (ROOT / "README.md", ROOT / "docs" / "BUILDING.md")
PROGRAMS = ("surakarta", ".venv/bin/surakarta")
PLACEHOLDER = re.compile(r"\b[A-Z][A-Z_0-9.]+\b|\[|\||\.\.\.|<")

NOT_RUN = {
    "surakarta run": "opens the simulator window until closed (tests/firmware/test_simulator.py)",
    "surakarta tablebase": "rewrites the shipped tables for a minute (test_tablebase_command.py)",
}
"""Commands shown but not run here, with where they are."""
SHORTER = {"--games 400": "--games 2"}
"""Commands run shorter than written (the match example plays 400 games)."""


def readme_commands() -> list[str]:
    """Every surakarta command in the README and the builder's guide, without comments."""
    text = "\n".join(document.read_text(encoding="utf-8") for document in DOCUMENTS)
    found = []
    for block in re.findall(r"```sh\n(.*?)```", text, re.S):
        for line in block.splitlines():
            for part in line.split("&&"):
                words = shlex.split(part, comments=True)
                if words and words[0] in PROGRAMS:
                    found.append(shlex.join(["surakarta", *words[1:]]))
    for code in re.findall(r"`([^`\n]+)`", text):
        words = code.split()
        if words and words[0] in PROGRAMS and len(words) > 1:
            found.append(shlex.join(["surakarta", *shlex.split(code)[1:]]))
    return found


def is_synopsis(command: str) -> bool:
    return bool(PLACEHOLDER.search(command.removeprefix("surakarta ")))


def subcommand(name: str) -> argparse.ArgumentParser:
    parser = build_parser()
    (subparsers,) = [action for action in parser._actions if action.dest == "command"]
    sub: argparse.ArgumentParser = subparsers.choices[name]  # type: ignore[index]
    return sub


def subcommand_options(name: str) -> set[str]:
    return set(subcommand(name)._option_string_actions)


def needs_arguments(name: str) -> bool:
    """Whether the subcommand cannot run without arguments (then alone it is a mention)."""
    return any(action.required for action in subcommand(name)._actions)


def test_the_readme_shows_the_commands() -> None:
    commands = readme_commands()
    names = {shlex.split(command)[1] for command in commands}
    assert {"setup", "print-board", "lamp-map", "match", "calibrate", "selftest"} <= names


def options_used(command: str) -> list[tuple[str, str]]:
    """(subcommand, option) for every option the command shows, synopsis brackets and
    engine commands given as arguments (``match "surakarta gtp --tune ..."``) included."""
    words = shlex.split(command)
    used = []
    for word in words[2:]:
        if word.startswith("surakarta "):
            used.extend(options_used(word))
            continue
        used.extend((words[1], option)
                    for option in re.findall(r"(?:^|[\[|])(--?[a-z][\w-]*)", word))
    return used


@pytest.mark.parametrize("command", readme_commands())
def test_every_option_is_spelled_in_full(command: str) -> None:
    for name, option in options_used(command):
        assert option in subcommand_options(name), f"{option} is not an option of {name}"


def runnable() -> list[str]:
    commands = []
    for command in readme_commands():
        words = shlex.split(command)
        if is_synopsis(command) or len(words) < 2:
            continue
        if command in NOT_RUN or (len(words) == 2 and needs_arguments(words[1])):
            continue  # "surakarta simulate" named in a sentence, not a command
        if words[1] == "simulator" and "--exit-after" not in words:
            continue  # the window stays open until closed (tests/firmware/test_simulator.py)
        commands.append(command)
    return list(dict.fromkeys(commands))


@pytest.fixture
def home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A home folder as the README's Pi steps leave it before each command, and a
    systemctl with no user session (as over SSH)."""
    monkeypatch.setenv("HOME", str(tmp_path))
    monkeypatch.chdir(tmp_path)
    systemctl_failing_as_over_ssh(tmp_path, monkeypatch)
    monkeypatch.setenv("GPIOZERO_PIN_FACTORY", "mock")
    cv2.imwrite(str(tmp_path / "start.jpg"), render(start_position(6), Scene()))
    (tmp_path / "game.txt").write_text('[Red "Ana"]\n\n1. b2-b3 e5-e4 *\n', encoding="utf-8")
    config = tmp_path / ".config" / "surakarta"
    config.mkdir(parents=True)
    # The README's "cp firmware/examples/pi.toml ~/.config/surakarta/board.toml".
    shutil.copy(ROOT / "firmware" / "examples" / "pi.toml", config / "board.toml")
    return tmp_path


@pytest.mark.slow
@pytest.mark.parametrize("command", runnable())
def test_each_readme_command_runs_as_written(
        command: str, home: Path, capsys: pytest.CaptureFixture[str]) -> None:
    for written, shorter in SHORTER.items():
        command = command.replace(written, shorter)
    words = shlex.split(command)
    if "calibration.json" not in command and "--config" in words:
        assert main(["calibrate", "start.jpg", "--out",
                     str(home / ".config/surakarta/calibration.json")]) == 0
    status = main([word.replace("~", str(home), 1) if word.startswith("~") else word
                   for word in words[1:]])
    out, err = capsys.readouterr()
    name = words[1]
    if name == "install-service":
        # The unit is written; starting it needs a user session, which is said with the fix.
        assert (home / ".config/systemd/user/surakarta.service").exists()
        assert status == 0 or "enable-linger" in err
    elif name == "setup":
        # No camera here sees a board: a step fails and says what to do.
        assert status == 1 and ": FAILED" in out and "  to fix: " in out
    elif name == "run" and "--config" in words:
        # The Pi camera (source "picamera") is not on this machine: said in one line.
        assert status == EXIT_CAMERA_STACK or "camera" in out + err
    else:
        assert status == 0, err
        assert "forfeit" not in out.lower()
