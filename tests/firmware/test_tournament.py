"""Tournaments between GTP engine subprocesses: games, forfeits, the summary, the command."""

from __future__ import annotations

import math
import shlex
import sys

import pytest

from controller.position import Color
from controller.variants import Variant
from firmware import cli
from firmware.tournament import (
    Side,
    TournamentConfig,
    elo_difference,
    run_tournament,
    schedule,
    summarize,
    wilson_interval,
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
