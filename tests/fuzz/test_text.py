"""Text channels: position strings, move names, records, scenarios and GTP lines."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from controller import Game, legal_moves, parse_position, start_position
from controller.baselines import RandomPlayer
from controller.errors import SurakartaError
from controller.gtp import GtpEngine
from controller.moves import parse_move_name
from controller.record import GameRecord, read_record, read_records, write_record
from firmware.scenario import parse_scenario
from tests.fuzz import both_tiers, one_line

BOARD_CHARACTERS = "rb1234567/ 8x0-"
MOVE_CHARACTERS = "abcdefgh0123456789-x~>²"

positions = st.one_of(
    st.text(BOARD_CHARACTERS, max_size=60),
    st.text(max_size=60),
    st.builds(lambda p, cut: str(p)[:cut], st.just(start_position()), st.integers(0, 40)),
)


def _any_position_string_parses_or_is_one_line(text: str) -> None:
    try:
        position = parse_position(text)
    except SurakartaError as error:
        one_line(error)
    else:
        assert parse_position(str(position)) == position  # and it round-trips


(
    test_any_position_string_parses_or_is_one_line,
    test_any_position_string_parses_or_is_one_line_long,
) = both_tiers(
    given(positions), fast=40, long=3000
)(_any_position_string_parses_or_is_one_line)


def _any_move_name_parses_or_is_one_line(text: str, size: int) -> None:
    try:
        parse_move_name(text, size)
    except SurakartaError as error:
        one_line(error)
    game = Game()
    try:
        move = game.play(text)
    except SurakartaError as error:
        one_line(error)
    else:
        assert move in legal_moves(start_position())


move_names = st.one_of(st.text(MOVE_CHARACTERS, max_size=12), st.text(max_size=12))
(
    test_any_move_name_parses_or_is_one_line,
    test_any_move_name_parses_or_is_one_line_long,
) = both_tiers(
    given(move_names, st.sampled_from([6, 7])), fast=40, long=3000
)(_any_move_name_parses_or_is_one_line)


def _record_text(moves: int) -> str:
    game = Game()
    for _ in range(moves):
        game.play(legal_moves(game.position)[0])
    return write_record(GameRecord(game, {"Event": "fuzz"}))


TAGS = ["Variant", "Position", "NoCaptureLimit", "Repetition", "Result", "Red", "Event"]
records = st.one_of(
    st.text(max_size=300),
    st.builds(
        lambda tag, value, body: f'[{tag} "{value}"]\n{body}',
        st.sampled_from(TAGS), st.text(max_size=20).filter(lambda v: '"' not in v),
        st.sampled_from(["*", "1-0", "0-1", "1. b2-c3 *", "", "b2-c3 e5-e4 1-0 x"]),
    ),
    st.builds(
        lambda text, start, cut, junk: text[:start] + junk + text[start + cut:],
        st.just(_record_text(6)), st.integers(0, 200), st.integers(0, 20), st.text(max_size=8),
    ),
)


def _any_record_reads_or_names_its_line(text: str) -> None:
    try:
        games = read_records(text)
    except SurakartaError as error:
        assert one_line(error).startswith("line "), str(error)
    else:
        for record in games:  # what was read writes back to the same game
            assert read_record(write_record(record)).game.moves == record.game.moves


(
    test_any_record_reads_or_names_its_line,
    test_any_record_reads_or_names_its_line_long,
) = both_tiers(
    given(records), fast=40, long=3000
)(_any_record_reads_or_names_its_line)


def test_a_no_capture_limit_in_other_digits_names_its_line() -> None:
    with pytest.raises(SurakartaError, match=r"^line 1: invalid no-capture limit: '²'"):
        read_record('[NoCaptureLimit "²"]\n*')
    assert read_record('[NoCaptureLimit "off"]\n*').game.endings.no_capture_limit is None


SCENARIO_WORDS = ["variant", "mode", "level", "move", "capture", "lift", "place", "remove",
                  "put", "press", "wait", "follow", "b2", "c3", "red", "hint", "1e400", "nan",
                  "inf", "-1", "0.5", "computer", "sepur", "99999999999999999999"]


def _any_scenario_parses_or_names_its_line(text: str) -> None:
    try:
        steps = parse_scenario(text)
    except SurakartaError as error:
        assert one_line(error).startswith("line "), str(error)
    else:
        for step in steps:  # a level or a wait a session can carry out
            assert 0 <= step.number <= 3600, step


scenarios = st.one_of(
    st.text(max_size=120),
    st.lists(st.lists(st.sampled_from(SCENARIO_WORDS), max_size=4), max_size=6).map(
        lambda lines: "\n".join(" ".join(words) for words in lines)),
)
(
    test_any_scenario_parses_or_names_its_line,
    test_any_scenario_parses_or_names_its_line_long,
) = both_tiers(given(scenarios), fast=30, long=3000)(_any_scenario_parses_or_names_its_line)


GTP_WORDS = ["play", "genmove", "set_position", "boardsize", "variant", "undo", "level",
             "set_movetime", "final_score", "result", "red", "black", "b2-c3", "7", "6",
             "inf", "nan", "1e400", "-0", "0.01", "sepur", "borobudur", "6/6/6/6/6/6", "r",
             "legal_moves", "threats", "showboard", "clear_board", "reg_genmove", "quit", "12"]


def _any_gtp_session_answers_every_line(lines: list[str]) -> None:
    engine = GtpEngine(RandomPlayer(0), movetime=0.01)
    for line in lines:
        answer = engine.handle(line)
        if answer is not None:
            assert answer[0] in "=?" and answer.endswith("\n\n"), answer
        assert 0 < engine.movetime <= 3600


gtp_sessions = st.lists(st.one_of(
    st.text(max_size=30),
    st.lists(st.sampled_from(GTP_WORDS), min_size=1, max_size=4).map(" ".join),
), max_size=8)
(
    test_any_gtp_session_answers_every_line,
    test_any_gtp_session_answers_every_line_long,
) = both_tiers(given(gtp_sessions), fast=20, long=1000)(_any_gtp_session_answers_every_line)


def test_an_empty_board_scores_the_same_everywhere() -> None:
    engine = GtpEngine(RandomPlayer(0))
    assert engine.handle("set_position 6/6/6/6/6/6 r") == "= \n\n"
    score = engine.handle("final_score")
    game = Game(start=parse_position("6/6/6/6/6/6 r"))
    outcome = game.outcome
    assert outcome is not None
    assert score == "= 0\n\n"
    assert outcome.red_pieces == outcome.black_pieces == 0
    assert outcome.winner is None, outcome
