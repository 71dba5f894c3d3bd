"""``surakarta tablebase``: making the tables, and probing a position as a player would."""

from __future__ import annotations

from pathlib import Path

import pytest

from controller.engine.tablebase import Tablebase, shipped
from controller.variants import Variant
from firmware.cli import main


def test_probe_says_who_wins_in_how_many_plies_and_how(
    capsys: pytest.CaptureFixture[str],
) -> None:
    assert main(["tablebase", "--probe", "6/6/6/rbr3/6/6 r"]) == 0
    assert capsys.readouterr().out == "red to move wins in 1 ply; best c3xb3\n"
    assert main(["tablebase", "--probe", "6/6/6/rbr3/6/6 b"]) == 0
    assert capsys.readouterr().out == "black to move loses in 6 plies; best b3-a2\n"


def test_the_command_makes_tables_that_match_the_shipped_ones(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "tables" / "small.tb"
    assert main(["tablebase", "--pieces", "2", "--out", str(out), "--check", "20"]) == 0
    text = capsys.readouterr().out
    assert "checked 20 positions: 0 disagreements" in text
    made = Tablebase.load(out)
    table = shipped(Variant.STANDARD)
    assert table is not None and made.tables[(1, 1)] == table.tables[(1, 1)]


def test_bad_requests_are_one_line(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["tablebase", "--probe", "bbb3/6/6/rbr3/6/6 b"]) == 2
    assert "not in the tables (at most" in capsys.readouterr().err
    assert main(["tablebase", "--probe", "6/6/6/rbr3/6/6 r", "--variant", "gonu"]) == 2
    assert "no tables for 'gonu'" in capsys.readouterr().err
    assert main(["tablebase", "--pieces", "9", "--out", "/tmp/never.tb"]) == 2
    assert "--pieces" in capsys.readouterr().err
    assert main(["tablebase", "--pieces", "3", "--only", "3v1", "--out", "/tmp/never.tb"]) == 2
    assert "invalid --only: '3v1'" in capsys.readouterr().err


@pytest.mark.slow  # a real retrograde solve of the three-piece class (about 2 s)
def test_a_run_adds_some_classes_of_more_pieces_to_the_tables_it_keeps(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "small.tb"
    assert main(["tablebase", "--pieces", "2", "--out", str(out)]) == 0
    capsys.readouterr()
    arguments = ["--pieces", "3", "--only", "2v1", "--reuse", "--out", str(out), "--check", "20"]
    assert main(["tablebase", *arguments]) == 0
    text = capsys.readouterr().out
    assert "1v1:" not in text  # kept, not solved again
    assert "1v2 and 2v1:" in text and "checked 20 positions: 0 disagreements" in text
    made = Tablebase.load(out)
    table = shipped(Variant.STANDARD)
    assert table is not None and made.classes == [(1, 1), (1, 2), (2, 1)]
    assert made.tables == {m: table.tables[m] for m in made.classes}
    # Making the smaller tables again keeps the larger classes already made.
    assert main(["tablebase", "--pieces", "2", "--out", str(out)]) == 0
    assert Tablebase.load(out).classes == [(1, 1), (1, 2), (2, 1)]
