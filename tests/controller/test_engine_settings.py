"""Search settings: tunings from the command line, and prunings that keep the tactics."""

from __future__ import annotations

import dataclasses

import pytest

from controller.engine.evaluate import Evaluator
from controller.engine.search import think
from controller.engine.settings import DEFAULT_SETTINGS, BadSetting, SearchSettings, tuned
from controller.position import parse_position
from controller.variants import Variant
from firmware import cli
from tests.controller.positions import TACTICS, middle_game_positions

NO_PRUNING = SearchSettings(null_move=False, late_move_reductions=False, multi_cut=False)


def test_tunings_set_switches_and_weights() -> None:
    settings = tuned(["multi_cut=off", " en_prise = 35 ", "null_move=yes"])
    assert settings.multi_cut is False
    assert settings.null_move is True
    assert settings.weights.en_prise == 35
    assert settings.weights.piece == DEFAULT_SETTINGS.weights.piece
    assert tuned([]) == DEFAULT_SETTINGS


@pytest.mark.parametrize(
    ("tuning", "message"),
    [
        ("bogus=1", "unknown setting: 'bogus'"),
        ("multi_cut=maybe", "invalid value for multi_cut: 'maybe'"),
        ("en_prise=lots", "invalid value for en_prise: 'lots'"),
        ("en_prise", "invalid tuning: 'en_prise'"),
        ("=3", "invalid tuning: '=3'"),
    ],
)
def test_bad_tunings_are_named(tuning: str, message: str) -> None:
    with pytest.raises(BadSetting, match=message):
        tuned([tuning])


def test_weights_change_the_evaluation() -> None:
    # Red has one piece more; doubling a piece's worth doubles that part of the score.
    position = parse_position("b4r/3r2/6/6/2r3/5b r")
    own, opp = position.pieces(position.turn), position.pieces(position.turn.other)
    plain = Evaluator(Variant.STANDARD, 6)
    heavy = Evaluator(Variant.STANDARD, 6, dataclasses.replace(plain.weights, piece=200))
    assert heavy(own, opp) - plain(own, opp) == 100


@pytest.mark.slow
@pytest.mark.parametrize("settings", [DEFAULT_SETTINGS, NO_PRUNING], ids=["pruned", "full"])
@pytest.mark.parametrize(("text", "solutions", "idea"), TACTICS)
def test_tactics_are_solved_with_and_without_pruning(
    settings: SearchSettings, text: str, solutions: set[str], idea: str
) -> None:
    result = think(parse_position(text), depth=5, settings=settings)
    assert result.move.name in solutions, idea


@pytest.mark.slow
def test_multi_cut_prunes_the_tree() -> None:
    positions = middle_game_positions(6, Variant.STANDARD, seed=21)
    without = tuned(["multi_cut=off"])
    with_cuts = sum(think(p, depth=5).nodes for p in positions)
    without_cuts = sum(think(p, depth=5, settings=without).nodes for p in positions)
    assert with_cuts < without_cuts


def test_gtp_refuses_a_bad_tuning(capsys: pytest.CaptureFixture[str]) -> None:
    assert cli.main(["gtp", "--tune", "multi_cut=sometimes"]) == 2
    err = capsys.readouterr().err.strip()
    assert err.count("\n") == 0
    assert "multi_cut" in err
