"""Numbers typed on the command line: one rule (finite, in bounds) and one line when not."""

from __future__ import annotations

import io
import math
import sys
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from firmware.cli import main
from tests.fuzz import fuzz

# Each option with the arguments around it: a run that would start if the number were good.
OPTIONS = {
    "gtp --movetime": ["gtp", "--movetime"],
    "gtp --level": ["gtp", "--level"],
    "match --movetime": ["match", "false", "false", "--games", "1", "--movetime"],
    "match --timeout": ["match", "false", "false", "--games", "1", "--timeout"],
    "match --jobs": ["match", "false", "false", "--games", "1", "--jobs"],
    "match --games": ["match", "false", "false", "--games"],
    "selftest --lamp-seconds": ["selftest", "--mock", "--lamp-seconds"],
    "selftest --button-timeout": ["selftest", "--mock", "--button-timeout"],
    "run --exit-after": ["run", "--exit-after"],
    "simulator --exit-after": ["simulator", "--exit-after"],
}
INTEGER_OPTIONS = {"gtp --level", "match --jobs", "match --games"}


def _refused(argv: list[str], capsys: pytest.CaptureFixture[str]) -> str:
    status = main(argv)
    err = capsys.readouterr().err
    assert status == 2, (argv, err)
    assert err.count("\n") == 1 and len(err) < 300, err
    return err


@pytest.mark.parametrize("option", sorted(OPTIONS))
@pytest.mark.parametrize("text", ["inf", "nan", "-inf", "1e400", "-1"])
def test_numbers_no_command_could_use_are_one_line(
    option: str, text: str, capsys: pytest.CaptureFixture[str]
) -> None:
    if option in INTEGER_OPTIONS:
        huge = "9" * 40
        text = {"inf": huge, "nan": "0", "1e400": huge + huge, "-inf": "-" + huge}.get(text, text)
    *before, name = OPTIONS[option]
    err = _refused([*before, f"{name}={text}"], capsys)  # "=": argparse takes -1 for an option
    assert f"invalid {option.split()[1]}: expected" in err


def test_simulate_refuses_an_fps_that_would_do_nothing_or_hang(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    scenario = tmp_path / "s.txt"
    scenario.write_text("move b2 c3\n")
    for text in ("nan", "inf", "0", "1e9"):
        err = _refused(["simulate", str(scenario), f"--fps={text}"], capsys)
        assert "invalid --fps: expected a number more than 0 and at most 120" in err


@fuzz(40)
@given(st.one_of(
    st.floats(allow_nan=True, allow_infinity=True).map(repr),
    st.integers(-(10**30), 10**30).map(str),
    st.text("0123456789.e+-naif", min_size=1, max_size=12),
))
def test_any_move_time_is_used_or_refused_in_one_line(text: str) -> None:
    err = io.StringIO()
    stdin = sys.stdin
    saved_err = sys.stderr
    sys.stdin, sys.stderr = io.StringIO("name\nquit\n"), err
    try:
        status = main(["gtp", "--player", "random", f"--movetime={text}"])
    except SystemExit as exit:  # argparse: not a number at all ("abc", "e")
        status = int(exit.code or 0)
    finally:
        sys.stdin, sys.stderr = stdin, saved_err
    try:
        value = float(text)
    except ValueError:
        value = math.nan
    if 0 < value <= 3600:
        assert status == 0, err.getvalue()
    else:
        assert status == 2 and "Traceback" not in err.getvalue()


@pytest.mark.parametrize("command", [["lamp-map"], ["selftest", "--mock"]])
def test_a_billion_chips_is_one_line_not_a_memory_error(
    tmp_path: Path, command: list[str], capsys: pytest.CaptureFixture[str]
) -> None:
    config = tmp_path / "board.toml"
    config.write_text("[hardware]\nchips = 1000000000\n")
    err = _refused([*command, "--config", str(config)], capsys)
    assert "hardware.chips: invalid number of chips 1000000000 (expected 1 to 64)" in err
    assert main(["run", "--config", str(config), "--check"]) == 2
