"""The referee without vision: readings and presses in, decisions out."""

from __future__ import annotations

from typing import Any

import pytest

from controller import (
    BoardReading,
    Color,
    Endings,
    Game,
    Variant,
    find_move,
    legal_moves,
    make_move,
    parse_position,
)
from controller.decisions import (
    Accepted,
    AgreementTakenBack,
    BoardSeen,
    Button,
    Clear,
    ComputerChose,
    Effect,
    EngineAnswered,
    GameEnded,
    HintShown,
    Illegal,
    LevelChanged,
    Lifted,
    Light,
    MatchChanged,
    ModeChanged,
    NewGame,
    PlaySound,
    Pressed,
    Purpose,
    Restored,
    Say,
    SetLevel,
    SetMatch,
    SetMode,
    SetVariant,
    Sound,
    Think,
    Undone,
)
from controller.engine.levels import BadLevel
from controller.geometry import parse_point
from controller.match import Match, MatchRules
from controller.position import Position, start_position
from controller.referee import Referee


def seen(board: str | Position) -> BoardSeen:
    if isinstance(board, Position):
        return BoardSeen(BoardReading.of(board))
    return BoardSeen(BoardReading.parse(board))


def of_type(decisions: list[Any], kind: type) -> list[Any]:
    return [decision for decision in decisions if isinstance(decision, kind)]


def lights(decisions: list[Any], layer: str) -> list[Light]:
    return [d for d in decisions if isinstance(d, Light) and d.layer == layer]


def ready(referee: Referee) -> list[Any]:
    return referee.handle(seen(referee.position))


def after(position: Position, *names: str, variant: Variant = Variant.STANDARD) -> Position:
    for name in names:
        position = make_move(position, find_move(position, name, variant))
    return position


def p(name: str) -> int:
    return parse_point(name)


def test_board_must_match_the_start_before_play() -> None:
    referee = Referee()
    decisions = referee.handle(seen("bbbbbb/bbbbb1/6/6/rrrrr1/rrrrrr"))
    fix = lights(decisions, "fix")
    assert fix and fix[0].paths == ((p("f2"),), (p("f5"),))
    assert not referee.settled
    decisions = ready(referee)
    assert referee.settled and Clear("fix") in decisions


def test_a_step_is_accepted() -> None:
    referee = Referee()
    ready(referee)
    decisions = referee.handle(seen(after(start_position(), "b2-c3")))
    accepted = of_type(decisions, Accepted)
    assert [a.move.name for a in accepted] == ["b2-c3"] and accepted[0].by is Color.RED
    assert PlaySound(Sound.MOVE_ACCEPTED) in decisions
    assert referee.position.turn is Color.BLACK


def test_lifted_piece_lights_its_targets_and_capture_paths() -> None:
    start = parse_position("3b2/6/2r3/6/6/6 r")
    referee = Referee(game=Game(start=start))
    ready(referee)
    decisions = referee.handle(seen("3b2/6/6/6/6/6"))
    lifted = of_type(decisions, Lifted)
    assert lifted and lifted[0].point == p("c4")
    assert p("d6") in lifted[0].targets and p("b5") in lifted[0].targets
    paths = lights(decisions, "lift")[0].paths
    assert find_move(start, "c4xd6").path in paths
    assert (p("b5"),) in paths
    assert not of_type(decisions, Illegal)


def test_capture_with_the_captured_piece_taken_off_first() -> None:
    start = parse_position("3b2/6/2r3/6/6/1r4 r")
    referee = Referee(game=Game(start=start))
    ready(referee)
    taken_first = referee.handle(seen("6/6/2r3/6/6/1r4"))
    assert not of_type(taken_first, Illegal)
    assert lights(taken_first, "lift")[0].paths == (find_move(start, "c4xd6").path,)
    both_off = referee.handle(seen("6/6/6/6/6/1r4"))
    assert not of_type(both_off, Illegal)
    done = referee.handle(seen("3r2/6/6/6/6/1r4"))
    assert [a.move.name for a in of_type(done, Accepted)] == ["c4xd6"]
    chase = lights(done, "last")
    assert chase and chase[0].effect is Effect.CHASE
    assert chase[0].paths == (find_move(start, "c4xd6").path,)


def test_capture_with_the_capturer_put_on_top_first() -> None:
    # The camera sees the top piece: red on d6, c4 empty, is the finished capture.
    referee = Referee(game=Game(start=parse_position("3b2/6/2r3/6/6/1r4 r")))
    ready(referee)
    done = referee.handle(seen("3r2/6/6/6/6/1r4"))
    assert [a.move.name for a in of_type(done, Accepted)] == ["c4xd6"]


def test_illegal_reading_blinks_the_differences_until_restored() -> None:
    referee = Referee()
    ready(referee)
    wrong = referee.handle(seen("bbbbbb/bbbbbb/6/rr4/2rrrr/rrrrrr"))  # a2 and b2 both moved
    illegal = of_type(wrong, Illegal)
    assert illegal and set(illegal[0].fix) == {p("a2"), p("b2"), p("a3"), p("b3")}
    assert lights(wrong, "fix")[0].effect is Effect.BLINK
    assert PlaySound(Sound.ILLEGAL_MOVE) in wrong
    assert not of_type(wrong, Accepted)
    back = ready(referee)
    assert of_type(back, Restored) and Clear("fix") in back


def test_after_an_illegal_reading_a_legal_move_is_accepted() -> None:
    referee = Referee()
    ready(referee)
    referee.handle(seen("bbbbbb/bbbbbb/6/rr4/6/rrrrrr"))  # two pieces moved
    decisions = referee.handle(seen(after(start_position(), "a2-a3")))
    assert [a.move.name for a in of_type(decisions, Accepted)] == ["a2-a3"]
    assert Clear("fix") in decisions


def test_moving_out_of_turn_is_illegal() -> None:
    referee = Referee()
    ready(referee)
    decisions = referee.handle(seen("bbbbbb/1bbbbb/b5/6/rrrrrr/rrrrrr"))
    assert of_type(decisions, Illegal) and not of_type(decisions, Accepted)


def test_computer_reply_is_lit_and_must_be_carried_out_exactly() -> None:
    referee = Referee(computer=Color.BLACK, level=3)
    ready(referee)
    decisions = referee.handle(seen(after(start_position(), "b2-b3")))
    think = of_type(decisions, Think)
    assert think and think[0].purpose is Purpose.COMPUTER and think[0].level == 3
    reply = find_move(think[0].position, "e5-e4")
    answered = referee.handle(EngineAnswered(think[0].request, reply))
    assert of_type(answered, ComputerChose)[0].move == reply
    assert lights(answered, "computer")[0].effect is Effect.CHASE
    assert PlaySound(Sound.COMPUTER_MOVE) in answered
    wrong = referee.handle(seen(after(start_position(), "b2-b3", "a5-a4")))
    assert of_type(wrong, Illegal) and not of_type(wrong, Accepted)
    right = referee.handle(seen(after(start_position(), "b2-b3", "e5-e4")))
    accepted = of_type(right, Accepted)
    assert accepted[0].move == reply and accepted[0].by is Color.BLACK
    assert Clear("computer") in right


def test_computer_moves_first_when_it_plays_red() -> None:
    referee = Referee(computer=Color.RED)
    assert of_type(ready(referee), Think)


def test_hint_is_shown_until_the_next_move_and_stale_answers_are_ignored() -> None:
    referee = Referee()
    ready(referee)
    think = of_type(referee.handle(Pressed(Button.HINT)), Think)[0]
    assert think.purpose is Purpose.HINT and think.level == 10
    hint = find_move(think.position, "c2-c3")
    shown = referee.handle(EngineAnswered(think.request, hint))
    assert of_type(shown, HintShown)[0].move == hint
    assert lights(shown, "hint")[0].effect is Effect.PULSE
    moved = referee.handle(seen(after(start_position(), "a2-a3")))
    assert Clear("hint") in moved
    # An answer to an old question changes nothing.
    assert referee.handle(EngineAnswered(think.request, hint)) == []


def test_undo_shows_what_to_put_back_and_does_not_reaccept_the_move() -> None:
    referee = Referee()
    ready(referee)
    moved = after(start_position(), "b2-c3")
    referee.handle(seen(moved))
    undone = referee.handle(Pressed(Button.UNDO))
    assert [u.move.name for u in of_type(undone, Undone)] == ["b2-c3"]
    assert set(lights(undone, "fix")[0].paths) == {(p("b2"),), (p("c3"),)}
    # Lifting the piece and putting it back on c3 must not count as the move again.
    assert not of_type(referee.handle(seen("bbbbbb/bbbbbb/6/6/r1rrrr/rrrrrr")), Accepted)
    assert not of_type(referee.handle(seen(moved)), Accepted)
    assert not referee.settled
    assert not of_type(referee.handle(seen("bbbbbb/bbbbbb/6/6/rrrrrr/rrrrrr")), Accepted)
    assert referee.settled and referee.position == start_position()
    again = referee.handle(seen(moved))
    assert of_type(again, Accepted)


def test_undo_against_the_computer_takes_back_its_reply_too() -> None:
    referee = Referee(computer=Color.BLACK)
    ready(referee)
    think = of_type(referee.handle(seen(after(start_position(), "b2-b3"))), Think)[0]
    referee.handle(EngineAnswered(think.request, find_move(think.position, "e5-e4")))
    referee.handle(seen(after(start_position(), "b2-b3", "e5-e4")))
    undone = referee.handle(Pressed(Button.UNDO))
    assert [u.move.name for u in of_type(undone, Undone)] == ["e5-e4", "b2-b3"]
    assert referee.position == start_position()


def test_game_over_is_shown_and_scored_in_a_match() -> None:
    match = Match("Ana", "Budi", MatchRules(games=2))
    referee = Referee(game=Game(start=parse_position("3b2/6/2r3/6/6/6 r")), match=match)
    ready(referee)
    decisions = referee.handle(seen("3r2/6/6/6/6/6"))
    ended = of_type(decisions, GameEnded)
    assert ended and ended[0].outcome.winner is Color.RED
    assert PlaySound(Sound.GAME_OVER) in decisions
    assert lights(decisions, "result")[0].paths == ((p("d6"),),)
    assert match.totals == {"Ana": 1, "Budi": 0}
    new = referee.handle(Pressed(Button.NEW))
    assert of_type(new, NewGame) and not referee.settled
    assert lights(new, "fix")  # every point that differs from the start
    ready(referee)
    assert referee.settled and referee.position == start_position()


def test_mode_button_cycles_and_asks_the_computer_when_it_is_its_turn() -> None:
    referee = Referee()
    ready(referee)
    first = referee.handle(Pressed(Button.MODE))
    assert referee.computer is Color.BLACK and not of_type(first, Think)
    second = referee.handle(Pressed(Button.MODE))
    assert referee.computer is Color.RED and of_type(second, Think)
    referee.handle(Pressed(Button.MODE))
    assert referee.computer is None


def test_level_and_mode_are_inputs_and_their_changes_are_decisions() -> None:
    referee = Referee()
    ready(referee)
    assert referee.handle(SetLevel(3)) == [LevelChanged(3)]
    assert referee.level == 3
    with pytest.raises(BadLevel, match="invalid level: 11"):
        referee.handle(SetLevel(11))
    assert referee.level == 3
    decisions = referee.handle(SetMode(Color.RED))
    assert of_type(decisions, ModeChanged) == [ModeChanged(Color.RED)]
    think = of_type(decisions, Think)
    assert think and think[0].level == 3, "the computer, to move, thinks at the new level"


def test_variant_and_match_are_inputs_that_change_between_games_only() -> None:
    referee = Referee()
    ready(referee)
    decisions = referee.handle(SetVariant(Variant.GONU))
    assert of_type(decisions, NewGame) == [NewGame(Variant.GONU)]
    assert referee.variant is Variant.GONU and referee.current.variant is Variant.GONU
    assert referee.settled, "the board still shows the start: play goes on at once"
    refused = referee.handle(SetVariant(Variant.SEPUR))
    assert refused == [Say("this board has 6 lines a side: sepur needs 7")]
    rules = MatchRules(games=4)
    decisions = referee.handle(SetMatch(("Ana", "Budi"), rules))
    assert of_type(decisions, MatchChanged) == [MatchChanged(("Ana", "Budi"), rules)]
    assert referee.match is not None and referee.match.player_of(Color.RED) == "Ana"
    referee.handle(seen(after(start_position(), "b2-b3")))
    under_way = "finish or end the game first (press new)"
    assert referee.handle(SetVariant(Variant.STANDARD)) == [Say(under_way)]
    assert referee.handle(SetMatch(None)) == [Say(under_way)]
    assert referee.variant is Variant.GONU and referee.match is not None
    referee.handle(Pressed(Button.NEW))  # ends the game by agreement
    stopped = referee.handle(SetMatch(None))
    assert of_type(stopped, MatchChanged) == [MatchChanged(None, MatchRules())]
    assert referee.match is None


def test_danger_display_blinks_pieces_the_opponent_can_capture() -> None:
    referee = Referee(game=Game(start=parse_position("3b2/6/2r3/6/6/r5 b")), show_danger=True)
    decisions = ready(referee)
    # Black is to move; red c4 could capture black d6 next.
    danger = lights(decisions, "danger")
    assert danger and danger[0].effect is Effect.BLINK and danger[0].paths == ((p("d6"),),)


def test_borobudur_jump_with_the_victim_still_on_the_board() -> None:
    start = parse_position("3b2/6/2r3/6/6/6 r")
    referee = Referee(game=Game(Variant.BOROBUDUR, start=start))
    ready(referee)
    # The jumper lands on f4 (up file d, round the NE loop) before d6 is taken off.
    landed = referee.handle(seen("3b2/6/5r/6/6/6"))
    assert not of_type(landed, Illegal) and not of_type(landed, Accepted)
    jump = find_move(start, "c4xd6>f4", Variant.BOROBUDUR)
    assert lights(landed, "lift")[0].paths == (jump.path,)
    done = referee.handle(seen("6/6/5r/6/6/6"))
    assert [a.move.name for a in of_type(done, Accepted)] == ["c4xd6>f4"]


def test_a_resumed_game_waits_for_the_board_to_match() -> None:
    game = Game()
    game.play("b2-c3")
    referee = Referee(game=game)
    waiting = referee.handle(seen(start_position()))
    assert lights(waiting, "fix") and not referee.settled
    ready(referee)
    assert referee.settled and referee.position.turn is Color.BLACK


def play_on_board(referee: Referee, *names: str) -> list[Any]:
    """Make moves on the board one after another; every decision, in order."""
    decisions: list[Any] = []
    position = referee.position
    for name in names:
        position = after(position, name, variant=referee.variant)
        decisions += referee.handle(seen(position))
    return decisions


def test_no_legal_move_ends_the_game_and_is_shown() -> None:
    # After c3-b2 red's only piece, in the a1 corner, is boxed in and off every circuit.
    referee = Referee(game=Game(start=parse_position("6/6/6/2b3/b5/rb4 b")))
    ready(referee)
    decisions = play_on_board(referee, "c3-b2")
    ended = of_type(decisions, GameEnded)
    assert ended and ended[0].outcome.reason.value == "no legal move"
    assert ended[0].outcome.winner is Color.BLACK
    assert lights(decisions, "result")[0].effect is Effect.BLINK
    assert PlaySound(Sound.GAME_OVER) in decisions


def test_the_no_capture_limit_ends_the_game() -> None:
    referee = Referee(game=Game(endings=Endings(no_capture_limit=3, repetition=False)))
    ready(referee)
    assert not of_type(play_on_board(referee, "b2-b3", "e5-e4"), GameEnded)
    ended = of_type(play_on_board(referee, "c2-c3"), GameEnded)
    assert ended and ended[0].outcome.reason.value == "no-capture limit"
    assert ended[0].outcome.winner is None
    # The board is finished: further readings decide nothing.
    assert referee.handle(seen(after(referee.position, "e4-e3"))) == []


def test_a_repeated_position_ends_the_game() -> None:
    referee = Referee(game=Game(endings=Endings(no_capture_limit=None, repetition=True)))
    ready(referee)
    decisions = play_on_board(referee, "b2-b3", "e5-e4", "b3-b2", "e4-e5")
    ended = of_type(decisions, GameEnded)
    assert len(ended) == 1 and ended[0].outcome.reason.value == "repetition"
    assert of_type(decisions, Accepted)[-1].move.name == "e4-e5"


def test_new_during_a_game_ends_it_by_agreement_and_undo_takes_that_back() -> None:
    match = Match("Ana", "Budi", MatchRules(games=2))
    referee = Referee(match=match)
    ready(referee)
    play_on_board(referee, "a2-a3", "a5-a4", "a3-b4", "d6xb4")  # black is a piece up
    stop = referee.handle(Pressed(Button.NEW))
    ended = of_type(stop, GameEnded)
    assert ended and ended[0].outcome.reason.value == "agreement"
    assert ended[0].outcome.winner is Color.BLACK
    assert match.totals == {"Ana": 11, "Budi": 12} and not of_type(stop, NewGame)
    back = referee.handle(Pressed(Button.UNDO))
    assert of_type(back, AgreementTakenBack) and not of_type(back, Undone)
    assert match.games == [] and not referee.current.is_over
    assert len(referee.current.moves) == 4 and referee.settled
    # The game goes on from where it stopped.
    assert of_type(play_on_board(referee, "b2-b3"), Accepted)
    referee.handle(Pressed(Button.NEW))
    assert referee.current.is_over and len(match.games) == 1
    new = referee.handle(Pressed(Button.NEW))
    assert of_type(new, NewGame) and not referee.current.moves
    assert match.player_of(Color.RED) == "Budi"


def test_new_before_the_first_move_just_starts_again() -> None:
    referee = Referee()
    ready(referee)
    decisions = referee.handle(Pressed(Button.NEW))
    assert of_type(decisions, NewGame) and not of_type(decisions, GameEnded)


def test_a_resumed_finished_game_is_shown_but_not_scored_again() -> None:
    # What a restart finds after the power went off between the last move and "new".
    match = Match("Ana", "Budi", MatchRules(games=3))
    game = Game(start=parse_position("3b2/6/2r3/6/6/6 r"))
    game.play("c4xd6")
    match.record(game.outcome)  # type: ignore[arg-type]
    referee = Referee(game=game, match=match)
    decisions = ready(referee)
    assert not of_type(decisions, GameEnded) and PlaySound(Sound.GAME_OVER) not in decisions
    assert lights(decisions, "result") and len(match.games) == 1


def test_undoing_the_last_move_of_a_match_game_takes_its_score_back() -> None:
    match = Match("Ana", "Budi", MatchRules(games=2))
    referee = Referee(game=Game(start=parse_position("3b2/6/2r3/6/6/6 r")), match=match)
    ready(referee)
    referee.handle(seen("3r2/6/6/6/6/6"))
    assert referee.current.is_over and len(match.games) == 1
    referee.handle(Pressed(Button.UNDO))
    assert match.games == [] and not referee.current.is_over
    ready(referee)
    ended = of_type(referee.handle(seen("3r2/6/6/6/6/6")), GameEnded)
    assert ended and len(match.games) == 1  # scored once, not twice


def test_against_the_computer_the_colours_swap_between_match_games() -> None:
    match = Match("Ana", "computer", MatchRules(games=2))
    start = parse_position("3b2/6/2r3/6/6/6 r")
    referee = Referee(game=Game(start=start), computer=Color.BLACK, match=match)
    ready(referee)
    referee.handle(seen("3r2/6/6/6/6/6"))
    assert referee.current.is_over
    referee.handle(Pressed(Button.NEW))
    assert referee.computer is Color.RED and match.player_of(Color.BLACK) == "Ana"
    assert of_type(ready(referee), Think)  # the computer, now red, opens game 2


def test_the_boards_expected_next_are_the_position_and_each_legal_move() -> None:
    # Before the board is set up, only the game's position (nothing else may be fitted to
    # a doubtful frame); then that position and the position after each legal move.
    referee = Referee()
    start = BoardReading.of(start_position())
    assert referee.expected_boards() == (start,)
    ready(referee)
    moves = legal_moves(start_position())
    expected = referee.expected_boards()
    assert expected[0] == start and len(expected) == 1 + len(moves)
    assert BoardReading.of(after(start_position(), "b2-c3")) in expected
    referee.handle(seen(after(start_position(), "b2-c3")))
    assert referee.expected_boards()[0] == BoardReading.of(after(start_position(), "b2-c3"))
    assert BoardReading.of(after(start_position(), "b2-c3", "e5-e4")) in referee.expected_boards()


def test_on_the_computers_turn_only_its_chosen_move_is_expected() -> None:
    referee = Referee(computer=Color.BLACK, level=3)
    ready(referee)
    think = of_type(referee.handle(seen(after(start_position(), "b2-b3"))), Think)
    position = after(start_position(), "b2-b3")
    assert referee.expected_boards() == (BoardReading.of(position),)
    referee.handle(EngineAnswered(think[0].request, find_move(position, "e5-e4")))
    assert referee.expected_boards() == (
        BoardReading.of(position), BoardReading.of(after(position, "e5-e4")))


def test_after_the_game_ends_only_its_last_position_is_expected() -> None:
    referee = Referee(game=Game(start=parse_position("6/6/6/2b3/b5/rb4 b")))
    ready(referee)
    assert len(referee.expected_boards()) > 1
    assert of_type(play_on_board(referee, "c3-b2"), GameEnded)
    assert referee.expected_boards() == (BoardReading.of(referee.position),)


def test_the_boards_expected_follow_a_change_of_rules_on_the_same_board() -> None:
    referee = Referee()
    ready(referee)
    standard = referee.expected_boards()
    referee.handle(SetVariant(Variant.GONU))
    gonu = [BoardReading.of(make_move(start_position(), move))
            for move in legal_moves(start_position(), Variant.GONU)]
    assert referee.expected_boards() == (BoardReading.of(start_position()), *gonu)
    assert set(gonu) != set(standard[1:])
