"""Files the board reads at start: configs, calibration files and journals."""

from __future__ import annotations

import json
import math
import random
from pathlib import Path
from typing import Any

from hypothesis import given
from hypothesis import strategies as st

from controller import Game
from controller.errors import SurakartaError
from firmware.config import ConfigError, check_config, load_config
from firmware.journal import Journal, SessionState, signed, state_to_json
from tests.conftest import real_calibration_text
from tests.fuzz import KEYS, both_tiers, one_line, toml_value, toml_values


@st.composite
def config_texts(draw: st.DrawFn) -> str:
    lines = []
    for section in draw(st.lists(st.sampled_from(sorted(KEYS)), unique=True, max_size=4)):
        lines.append(f"[{section}]")
        for key in draw(st.lists(st.sampled_from(KEYS[section]), unique=True, max_size=4)):
            lines.append(f"{key} = {toml_value(draw(toml_values))}")
    return "\n".join(lines) + "\n"


def _any_config_is_valid_or_each_problem_is_one_line(tmp_path: Path, text: str) -> None:
    path = tmp_path / "board.toml"
    path.write_text(text, encoding="utf-8")
    problems = check_config(path)
    for problem in problems:
        one_line(ConfigError(problem))
    try:
        config = load_config(path)
    except ConfigError as error:
        assert problems, "load refuses only what the check refuses"
        one_line(error)
        return
    assert not problems, "the check refuses only what load refuses"
    # What was accepted is something a board can run with.
    for number in (config.camera.fps, config.hold_seconds, config.engine_seconds):
        assert math.isfinite(number) and number > 0
    assert 0 <= config.camera.device <= 255 and config.camera.width <= 8192
    assert config.hardware is None or (config.hardware.chips or 0) <= 64


(
    test_any_config_is_valid_or_each_problem_is_one_line,
    test_any_config_is_valid_or_each_problem_is_one_line_long,
) = both_tiers(
    given(st.one_of(config_texts(), st.text(max_size=200))), fast=20, long=1000
)(_any_config_is_valid_or_each_problem_is_one_line)


def _calibration() -> dict[str, Any]:
    document: dict[str, Any] = json.loads(real_calibration_text())
    return document


def _mutate(value: Any, rng: random.Random, replacement: Any) -> Any:
    """``value`` with one leaf (chosen by ``rng``) replaced."""
    if isinstance(value, dict) and value:
        key = rng.choice(sorted(value))
        return {**value, key: _mutate(value[key], rng, replacement)}
    if isinstance(value, list) and value:
        index = rng.randrange(len(value))
        return [*value[:index], _mutate(value[index], rng, replacement), *value[index + 1:]]
    return replacement


leaves = st.one_of(
    st.floats(allow_nan=True, allow_infinity=True), st.integers(-(10**20), 10**20),
    st.text(max_size=5), st.none(), st.booleans(), st.lists(st.integers(-2, 2), max_size=3),
)


def _any_calibration_file_loads_or_is_one_line(
    tmp_path: Path, rng: random.Random, leaf: Any
) -> None:
    from vision.calibrate import load_calibration
    from vision.errors import BadCalibration

    path = tmp_path / "cal.json"
    path.write_text(json.dumps(_mutate(_calibration(), rng, leaf)))
    try:
        load_calibration(path)
    except BadCalibration as error:
        one_line(error)


(
    test_any_calibration_file_loads_or_is_one_line,
    test_any_calibration_file_loads_or_is_one_line_long,
) = both_tiers(
    given(st.randoms(use_true_random=False), leaves), fast=10, long=500
)(_any_calibration_file_loads_or_is_one_line)


def _journal_document() -> dict[str, Any]:
    game = Game()
    for _ in range(8):
        game.play(game.legal_moves()[0])
    return dict(json.loads(state_to_json(SessionState(game, None, 5))))


def _any_journal_resumes_or_is_set_aside(
    tmp_path: Path, rng: random.Random, leaf: Any, resign: bool
) -> None:
    path = tmp_path / f"journal-{rng.random()}.json"
    document = _mutate(_journal_document(), rng, leaf)
    path.write_text(signed(document) if resign else json.dumps(document))
    journal = Journal(path, tmp_path / "games")
    try:
        state = journal.load()  # never raises: a new game at worst
    finally:
        journal.close()
    if state is None:
        assert not path.exists(), "a journal that is not resumed is set aside"
    else:
        assert 1 <= state.level <= 10
        assert state.game.endings.no_capture_limit is None or (
            1 <= state.game.endings.no_capture_limit <= 10_000
        )


(
    test_any_journal_resumes_or_is_set_aside,
    test_any_journal_resumes_or_is_set_aside_long,
) = both_tiers(
    given(st.randoms(use_true_random=False), leaves, st.booleans()), fast=15, long=600
)(_any_journal_resumes_or_is_set_aside)


def test_a_journal_of_any_bytes_never_stops_the_start(tmp_path: Path) -> None:
    rng = random.Random(7)
    for number in range(200):
        path = tmp_path / f"j{number}.json"
        path.write_bytes(bytes(rng.randrange(256) for _ in range(rng.randrange(300))))
        journal = Journal(path)
        try:
            assert journal.load() is None
        except SurakartaError as error:  # pragma: no cover - the failure message
            raise AssertionError(f"load raised {error}") from None
        finally:
            journal.close()
