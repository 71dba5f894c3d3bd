"""Game records: round trips and errors that name the line."""

from __future__ import annotations

import random

import pytest

from controller import BadRecord, Endings, Game, Variant, parse_position
from controller.record import GameRecord, read_record, read_records, write_record


def _random_game(variant: Variant, seed: int, plies: int | None = None) -> Game:
    rng = random.Random(seed)
    game = Game(variant)
    while not game.is_over and (plies is None or len(game.moves) < plies):
        game.play(rng.choice(game.legal_moves()))
    return game


@pytest.mark.slow
@pytest.mark.parametrize("variant", list(Variant))
def test_finished_game_round_trips(variant: Variant) -> None:
    game = _random_game(variant, seed=11)
    record = GameRecord(game, {"Red": 'Ana "Bima"', "Black": "Budi", "Date": "2026.11.22"})
    text = write_record(record)
    again = read_record(text)
    assert again.game.moves == game.moves
    assert again.game.outcome == game.outcome
    assert again.tags["Red"] == 'Ana "Bima"'
    assert write_record(again) == text


def test_unfinished_game_from_a_set_position_with_black_to_move() -> None:
    start = parse_position("bbb3/6/6/6/6/3rrr b")
    game = Game(start=start, endings=Endings(no_capture_limit=None, repetition=False))
    for move in ("a6-a5", "d1-d2", "a5-a4"):
        game.play(move)
    text = write_record(GameRecord(game))
    assert '[Position "bbb3/6/6/6/6/3rrr b"]' in text
    assert '[NoCaptureLimit "off"]' in text and '[Repetition "off"]' in text
    assert "1... a6-a5 2. d1-d2 a5-a4 *" in text
    again = read_record(text).game
    assert again.position == game.position and again.endings == game.endings


def test_several_games_in_one_file() -> None:
    text = write_record(GameRecord(_random_game(Variant.STANDARD, 1, 10)))
    text += "\n" + write_record(GameRecord(_random_game(Variant.GONU, 2, 7)))
    records = read_records(text)
    assert [len(record.game.moves) for record in records] == [10, 7]
    assert records[1].game.variant is Variant.GONU


def test_comments_and_numbers_glued_to_moves_are_accepted() -> None:
    record = read_record('[Red "A"]\n\n1.b2-b3 {opening} b5-b4 2. b3-b2 *\n')
    assert [move.name for move in record.game.moves] == ["b2-b3", "b5-b4", "b3-b2"]


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ('[Red "A"]\n\n1. b2-b3 b5-b5 *\n', "line 3: invalid move: 'b5-b5'|line 3: illegal"),
        ('[Red "A"]\n\n1. b2-b3\n2. b3-b5 *\n', "line 4: illegal move: 'b3-b5'"),
        ('[Red "A"\n\n1. b2-b3 *\n', "line 1: malformed tag pair"),
        ('[Variant "chess"]\n\n1. b2-b3 *\n', "line 1: unknown variant: 'chess'"),
        ('[Position "bbb/6 r"]\n\n*\n', "line 1: invalid position string"),
        ('[Red "A"]\n\n1. b2-b3 b5-b4\n', "line 3: movetext does not end with a result"),
        ('[Red "A"]\n\n1. b2-b3 * b5-b4\n', "line 3: text after the result"),
        ('[NoCaptureLimit "x"]\n\n*\n', "line 1: invalid no-capture limit"),
        ("", "line 1: no game"),
    ],
)
def test_bad_records_name_the_line(text: str, message: str) -> None:
    with pytest.raises(BadRecord, match=message):
        read_records(text)


def test_result_that_contradicts_the_game_is_refused() -> None:
    text = '[Position "3b2/6/2r3/6/6/6 r"]\n[Result "0-1"]\n\n1. c4xd6 0-1\n'
    with pytest.raises(BadRecord, match="line 2: result '0-1' does not match"):
        read_record(text)
