"""The rules commands as a user runs them: ``surakarta moves`` and ``surakarta perft``."""

from __future__ import annotations

import io

import pytest

from firmware.cli import main


def test_moves_prints_one_line_per_position(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["moves", "bbbbbb/bbbbbb/6/6/rrrrrr/rrrrrr r", "3b2/6/2r3/6/6/6 r"]) == 0
    first, second = capsys.readouterr().out.splitlines()
    assert len(first.split(" ")) == 16 and "a2-a3" in first.split(" ")
    assert "c4xd6" in second.split(" ")


def test_moves_reads_standard_input(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr("sys.stdin", io.StringIO("3b2/6/2r3/6/6/6 r\n\n6/6/6/6/6/r5 b\n"))
    assert main(["moves", "-", "--variant", "borobudur"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert len(lines) == 2
    assert "c4xd6>d5" in lines[0].split(" ") and lines[1] == ""


def test_perft_prints_each_depth(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["perft", "3"]) == 0
    assert capsys.readouterr().out.splitlines() == [
        "depth 1: 16",
        "depth 2: 256",
        "depth 3: 5382",
    ]


def test_perft_divide_sums_to_the_total(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["perft", "2", "--divide", "--variant", "sepur"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[-1] == "total: 361"
    assert sum(int(line.split(": ")[1]) for line in lines[:-1]) == 361
    assert len(lines) == 20


@pytest.mark.parametrize(
    ("argv", "fragment"),
    [
        (["moves", "bbbbbb/6 r"], "invalid position string: 'bbbbbb/6'"),
        (["moves", "6/6/6/6/6/6 r", "--variant", "chess"], "unknown variant: 'chess'"),
        (["perft", "2", "--position", "x"], "invalid position string"),
        (["perft", "0"], "invalid depth"),
    ],
)
def test_bad_input_exits_2_with_one_line(
    argv: list[str], fragment: str, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(argv) == 2
    captured = capsys.readouterr()
    assert captured.out == ""
    lines = captured.err.splitlines()
    assert len(lines) == 1 and fragment in lines[0]
