"""Tournaments between GTP engine subprocesses: games, forfeits, the summary, the command."""

from __future__ import annotations

import math
import shlex
import sys
from pathlib import Path

import pytest

from controller.game import EndReason, Game
from controller.position import Color
from controller.record import read_records
from controller.variants import Variant
from firmware import cli
from firmware.tournament import (
    GameResult,
    GameSpec,
    Side,
    TournamentConfig,
    elo_difference,
    run_tournament,
    schedule,
    summarize,
    wilson_interval,
    write_records,
)

PYTHON = shlex.quote(sys.executable)
RANDOM = f"{PYTHON} -m firmware.cli gtp --player random --seed 3"
GREEDY = f"{PYTHON} -m firmware.cli gtp --player greedy --seed 4"
# Answers the first command (the check that it starts), then crashes.
CRASHES = PYTHON + (
    " -c \"import sys\nsys.stdin.readline()\nprint('= 2\\n', flush=True)\nsys.exit(1)\""
)
NEVER_STARTS = "/no/such/engine --gtp"
# Answers every command with success and every genmove with a move that is never legal.
NONSENSE = PYTHON + " -c \"import sys\nfor l in sys.stdin:\n print('= a1-a6\\n', flush=True)\""


def config(a: str, b: str) -> TournamentConfig:
    return TournamentConfig((a, b), Variant.STANDARD, movetime=0.05, timeout=20.0)


@pytest.mark.slow
def test_greedy_and_random_play_whole_games() -> None:
    results = run_tournament(config(GREEDY, RANDOM), games=2, jobs=2, seed=1)
    assert [result.spec.index for result in results] == [0, 1]
    for result in results:
        assert result.forfeit is None
        assert result.outcome is not None
        assert result.plies > len(result.spec.opening)
    summary = summarize(results)
    assert summary.games == 2
    assert summary.a_wins + summary.draws + summary.b_wins == 2
    # The records replay to the very endings the referee gave.
    records = read_records(write_records(results, Variant.STANDARD, ("greedy", "random")))
    for result, record in zip(results, records, strict=True):
        assert record.game.outcome == result.outcome
        assert len(record.game.moves) == result.plies
        assert record.tags["Red" if result.spec.a_color is Color.RED else "Black"] == "greedy"


@pytest.mark.slow
def test_an_engine_that_crashes_loses() -> None:
    results = run_tournament(config(RANDOM, CRASHES), games=1, jobs=1)
    assert results[0].winner is Side.A
    assert results[0].forfeit is not None
    assert "engine B" in results[0].forfeit
    assert "crashed" in results[0].forfeit


@pytest.mark.slow
def test_an_engine_that_plays_illegal_moves_loses() -> None:
    results = run_tournament(config(NONSENSE, RANDOM), games=2, jobs=1)
    for result in results:
        assert result.winner is Side.B
        assert result.forfeit is not None
        assert "engine A played badly" in result.forfeit


def test_openings_are_played_twice_with_colours_swapped() -> None:
    specs = schedule(6, Variant.STANDARD, seed=2)
    assert [spec.a_color for spec in specs] == [Color.RED, Color.BLACK] * 3
    assert specs[0].opening == specs[1].opening
    assert len({spec.opening for spec in specs}) == 3
    assert all(2 <= len(spec.opening) <= 4 for spec in specs)


# Knights' shuffle: both sides step out and back, so the start comes again on ply 4.
SHUFFLE = ("b2-b3", "e5-e4", "b3-b2", "e4-e5")


def test_a_game_is_kept_as_a_record_with_its_engines_and_opening() -> None:
    game = Game()
    for name in SHUFFLE:
        game.play(name)
    outcome = game.outcome
    assert outcome is not None and outcome.reason is EndReason.REPETITION
    spec = GameSpec(6, SHUFFLE[:2], Color.BLACK)
    result = GameResult(spec, None, outcome, None, 4, 12, 12, SHUFFLE)
    [record] = read_records(write_records([result], Variant.STANDARD, ("new", "old")))
    assert [move.name for move in record.game.moves] == list(SHUFFLE)
    assert record.game.outcome == outcome
    assert (record.tags["Red"], record.tags["Black"]) == ("old", "new")
    assert (record.tags["Round"], record.tags["Opening"]) == ("7", "2")


def test_a_forfeit_is_kept_with_its_winner_and_reason() -> None:
    spec = GameSpec(0, SHUFFLE[:2], Color.RED)
    result = GameResult(spec, Side.B, None, "engine A crashed", 2, 12, 12, SHUFFLE[:2])
    [record] = read_records(write_records([result], Variant.STANDARD))
    assert record.game.outcome is None
    assert record.result == "0-1"
    assert record.tags["Forfeit"] == "engine A crashed"


def test_elo_and_interval() -> None:
    assert elo_difference(0.5) == 0
    assert elo_difference(0.75) == pytest.approx(190.85, abs=0.01)
    assert math.isinf(elo_difference(1.0))
    low, high = wilson_interval(1.0, 100)
    assert 0.95 < low < 1.0
    assert high == 1.0
    low, high = wilson_interval(0.5, 100)
    assert low == pytest.approx(1 - high)


@pytest.mark.slow
def test_tournament_command_prints_the_score(capsys: pytest.CaptureFixture[str]) -> None:
    status = cli.main(
        ["tournament", GREEDY, RANDOM, "--games", "2", "--movetime", "0.05", "--jobs", "2"]
    )
    out = capsys.readouterr().out
    assert status == 0
    assert out.count("game ") >= 2
    assert "score of A:" in out
    assert "Elo difference A - B:" in out


@pytest.mark.slow
def test_tournament_command_keeps_the_games(tmp_path: Path) -> None:
    path = tmp_path / "games.txt"
    arguments = ["--games", "2", "--movetime", "0.02", "--jobs", "2", "--quiet"]
    assert cli.main(["tournament", GREEDY, RANDOM, *arguments, "--records", str(path)]) == 0
    records = read_records(path.read_text())
    assert [record.tags["Round"] for record in records] == ["1", "2"]
    assert all(record.game.outcome is not None for record in records)


def test_tournament_command_refuses_a_records_file_it_cannot_write(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "no-such-folder" / "games.txt"
    assert cli.main(["tournament", GREEDY, RANDOM, "--records", str(path)]) == 2
    err = capsys.readouterr().err.strip()
    assert err == (
        f"surakarta tournament: cannot write records to {str(path)!r}: No such file or directory"
    )


@pytest.mark.parametrize("name", ["tournament", "match"])
def test_tournament_command_refuses_bad_numbers(
    name: str, capsys: pytest.CaptureFixture[str]
) -> None:
    # "match" is the command's first name, kept working for scripts that use it.
    assert cli.main([name, GREEDY, RANDOM, "--games", "0"]) == 2
    err = capsys.readouterr().err
    assert "invalid --games: expected an integer from 1 to 1000000" in err
    assert err.startswith(f"surakarta {name}: ")


@pytest.mark.slow
def test_a_tournament_whose_engines_cannot_start_is_refused_in_one_line(
    capsys: pytest.CaptureFixture[str],
) -> None:
    exits = f"{PYTHON} -c 'import sys; sys.exit(1)'"
    assert cli.main(["tournament", NEVER_STARTS, exits, "--games", "2", "--movetime", "0.05"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1, err
    assert "engine A ('/no/such/engine --gtp') does not start" in err
    assert "engine B crashed (on 'protocol_version')" in err
    assert cli.main(["tournament", RANDOM, NEVER_STARTS, "--games", "2", "--movetime", "0.05"]) == 2
    out, err = capsys.readouterr()
    assert "wins" not in out and "engine B" in err
