"""``surakarta analyse``: a recorded game's moves scored, mistakes marked with the better move."""

from __future__ import annotations

from pathlib import Path

import pytest

from controller.engine.analysis import Verdict, analyse, judge
from controller.engine.search import COUNT_WIN, MATE
from controller.game import Game
from controller.position import parse_position
from firmware.cli import main

# d4xd2 is taken back by e6; c3xf3 wins a piece (a tactic of the engine tests).
TACTIC = "4b1/6/3r2/2r2b/3b2/5r r"


def _record(tmp_path: Path, moves: str, position: str = TACTIC) -> Path:
    path = tmp_path / "game.txt"
    path.write_text(f'[Red "Ana"]\n[Position "{position}"]\n\n1. {moves} *\n', encoding="utf-8")
    return path


def test_a_mistake_is_marked_with_the_better_move_its_path_and_lamps(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["analyse", str(_record(tmp_path, "d4xd2")), "--depth", "4", "--lamps"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[0].split()[:2] == ["1.", "d4xd2"]
    assert "mistake: best c3xf3" in lines[0] and lines[0].endswith("c3xf3 d2xf3 d4xf3 e6-e5")
    assert lines[1].split()[:2] == ["lamps:", "c3"] and lines[1].endswith("e3 f3")
    assert "red: 0 blunders, 1 mistake" in lines[2]


def test_the_best_move_is_not_marked(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["analyse", str(_record(tmp_path, "c3xf3")), "--depth", "4"]) == 0
    first = capsys.readouterr().out.splitlines()[0]
    assert first.split() == ["1.", "c3xf3", "+1.07"]


def test_table_endings_are_scored_exactly() -> None:
    game = Game(start=parse_position("6/rr1br1/6/6/6/5b r"))
    for name in ("a5-a6", "d5-c4", "b5-b4", "c4xb4", "e5xb4", "f1-e1", "b4xe1"):
        game.play(name)
    reviews = analyse(game, depth=3)
    assert [r.score for r in reviews] == [
        MATE - 7,
        -(MATE - 6),
        MATE - 5,
        -(MATE - 4),
        MATE - 3,
        -(MATE - 2),
        MATE - 1,
    ]
    assert all(r.verdict is Verdict.GOOD for r in reviews)


def test_throwing_away_a_won_game_is_a_blunder_whatever_the_margin() -> None:
    assert judge(COUNT_WIN + 100, 40) is Verdict.BLUNDER
    assert judge(MATE - 3, MATE - 9) is Verdict.GOOD
    assert judge(120, 10) is Verdict.MISTAKE
    assert judge(60, 0) is Verdict.INACCURACY


def test_bad_input_is_one_line(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["analyse", str(tmp_path / "missing.txt")]) == 2
    assert "cannot read" in capsys.readouterr().err
    assert main(["analyse", str(_record(tmp_path, "c3xf3")), "--game", "2"]) == 2
    assert "invalid --game: 2 (the file holds 1)" in capsys.readouterr().err
    assert main(["analyse", str(_record(tmp_path, "a1-a2")), "--depth", "2"]) == 2
    assert "illegal move" in capsys.readouterr().err
