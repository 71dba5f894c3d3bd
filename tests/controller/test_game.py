"""Games: every ending of the rules, undo, agreement; and match scoring."""

from __future__ import annotations

import pytest

from controller import (
    BadColor,
    Color,
    Endings,
    EndReason,
    Game,
    GameOver,
    IllegalMove,
    Variant,
    legal_moves,
    parse_color,
    parse_position,
    parse_winner,
    winner_name,
)
from controller.match import Counting, Match, MatchRules, Scoring


def test_wipe_out_ends_the_game_for_the_capturer() -> None:
    game = Game(start=parse_position("3b2/6/2r3/6/6/6 r"))
    game.play("c4xd6")
    outcome = game.outcome
    assert outcome is not None
    assert (outcome.winner, outcome.reason) == (Color.RED, EndReason.WIPE_OUT)
    assert game.legal_moves() == []
    with pytest.raises(GameOver):
        game.play("d6-d5")


def test_no_legal_move_ends_the_game_by_piece_count() -> None:
    # Red's only piece sits in the a1 corner (on no circuit), walled in by black.
    game = Game(start=parse_position("6/6/6/6/bb4/rb4 r"))
    outcome = game.outcome
    assert outcome is not None
    assert outcome.reason is EndReason.NO_LEGAL_MOVE
    assert outcome.winner is Color.BLACK
    assert (outcome.red_pieces, outcome.black_pieces) == (1, 3)


def test_repetition_ends_the_game_at_once() -> None:
    game = Game()
    for move in ("b2-b3", "b5-b4", "b3-b2"):
        game.play(move)
        assert not game.is_over
    game.play("b4-b5")
    outcome = game.outcome
    assert outcome is not None
    assert (outcome.winner, outcome.reason) == (None, EndReason.REPETITION)


def test_repetition_can_be_turned_off() -> None:
    game = Game(endings=Endings(repetition=False))
    for move in ("b2-b3", "b5-b4", "b3-b2", "b4-b5"):
        game.play(move)
    assert not game.is_over


def test_no_capture_limit_counts_plies_since_the_last_capture() -> None:
    game = Game(
        start=parse_position("b5/6/6/6/6/r4r r"),
        endings=Endings(no_capture_limit=4, repetition=False),
    )
    for move in ("a1-a2", "a6-b6", "a2-a1"):
        game.play(move)
        assert not game.is_over
    game.play("b6-a6")
    outcome = game.outcome
    assert outcome is not None
    assert (outcome.winner, outcome.reason) == (Color.RED, EndReason.NO_CAPTURE_LIMIT)
    assert (outcome.red_pieces, outcome.black_pieces) == (2, 1)


def test_default_no_capture_limit_is_50_plies() -> None:
    game = Game(start=parse_position("b5/6/6/6/6/r4r r"), endings=Endings(repetition=False))
    shuffle = ["a1-a2", "a6-b6", "a2-a1", "b6-a6"]
    for ply in range(49):
        game.play(shuffle[ply % 4])
    assert not game.is_over
    game.play(shuffle[49 % 4])
    assert game.outcome is not None and game.outcome.reason is EndReason.NO_CAPTURE_LIMIT


def test_undo_reopens_a_finished_game() -> None:
    game = Game(start=parse_position("3b2/6/2r3/6/6/6 r"))
    move = game.play("c4xd6")
    assert game.is_over
    assert game.undo() == move
    assert not game.is_over and str(game.position) == "3b2/6/2r3/6/6/6 r"
    with pytest.raises(ValueError, match="no move to take back"):
        Game().undo()


def test_agreement_is_scored_by_piece_count() -> None:
    game = Game(start=parse_position("3b2/6/2r3/6/6/r5 r"))
    outcome = game.end_by_agreement()
    assert (outcome.winner, outcome.reason) == (Color.RED, EndReason.AGREEMENT)
    assert game.is_over


def test_illegal_move_is_refused_and_nothing_changes() -> None:
    game = Game()
    with pytest.raises(IllegalMove):
        game.play("b2-b4")
    assert game.moves == [] and len(game.positions) == 1


def test_sepur_game_starts_on_7x7() -> None:
    game = Game(Variant.SEPUR)
    assert game.position.size == 7 and len(game.legal_moves()) == 19


def _finish(red_pieces: int, black_pieces: int) -> Game:
    text = f"{'b' * black_pieces}{6 - black_pieces if black_pieces < 6 else ''}/6/6/6/6/"
    text += f"{'r' * red_pieces}{6 - red_pieces if red_pieces < 6 else ''} r"
    game = Game(start=parse_position(text))
    game.end_by_agreement()
    return game


def test_match_swaps_colours_and_totals_pieces_left() -> None:
    match = Match("Ana", "Budi", MatchRules(games=2))
    assert match.player_of(Color.RED) == "Ana"
    outcome = _finish(5, 3).outcome
    assert outcome is not None
    match.record(outcome)
    assert match.player_of(Color.RED) == "Budi"
    outcome = _finish(2, 4).outcome
    assert outcome is not None
    match.record(outcome)
    # Game 1: Ana red 5, Budi black 3. Game 2: Budi red 2, Ana black 4.
    assert match.totals == {"Ana": 9, "Budi": 5}
    assert match.is_over and match.leader == "Ana"
    with pytest.raises(ValueError, match="already over"):
        match.record(outcome)


def test_match_to_a_target_counting_captures() -> None:
    rules = MatchRules(scoring=Scoring.TARGET, target=15, counting=Counting.CAPTURED)
    match = Match("Ana", "Budi", rules)
    for _ in range(2):
        outcome = _finish(6, 2).outcome  # red captured 10, black captured 6
        assert outcome is not None
        match.record(outcome)
    assert match.totals == {"Ana": 16, "Budi": 16}
    assert match.is_over and match.leader is None


def test_match_without_colour_swap() -> None:
    match = Match("Ana", "Budi", MatchRules(games=3, swap_colours=False))
    outcome = _finish(1, 1).outcome
    assert outcome is not None
    match.record(outcome)
    assert match.player_of(Color.RED) == "Ana"


def test_an_illegal_move_is_refused_alike_as_a_move_or_as_its_name() -> None:
    game = Game()
    black_to_move = parse_position("bbbbbb/bbbbbb/6/6/rrrrrr/rrrrrr b")
    move = legal_moves(black_to_move)[0]  # a black move, while red is to move
    for form in (move, move.name):
        with pytest.raises(IllegalMove, match=f"illegal move: '{move.name}'"):
            game.play(form)
    assert not game.moves


def test_a_colour_that_is_not_a_side_is_a_bad_colour() -> None:
    with pytest.raises(BadColor, match="invalid colour: 'green'"):
        parse_color("green")


def test_a_winner_is_written_as_journals_and_events_always_wrote_it() -> None:
    # Journals and match results saved before the winner became a colour wrote these.
    for text, winner in (("red", Color.RED), ("black", Color.BLACK), ("draw", None)):
        assert parse_winner(text) is winner
        assert winner_name(winner) == text
    with pytest.raises(BadColor, match="'white'"):
        parse_winner("white")
