"""What the board tells a player from the tablebase and after a game: a hint's exact
outlook, and the finished game's mistakes stepped through with the hint button."""

from __future__ import annotations

from typing import Any

from controller.decisions import (
    AnalysisReady,
    BoardSeen,
    Button,
    Clear,
    EngineAnswered,
    HintShown,
    Layer,
    Light,
    Pressed,
    Purpose,
    Say,
    Think,
)
from controller.engine.service import ImmediateEngine
from controller.game import Game
from controller.movegen import make_move
from controller.position import Position, parse_position
from controller.reading import BoardReading
from controller.referee import Referee

WON_IN_7 = "6/1b4/4r1/5b/6/r5 r"
"""Red to move wins in 7 plies, by e4xb5 (the tables)."""
THROWN_AWAY = "6/6/6/6/1bb1r1/3r2 r"
"""Red to move wins in 5 plies by e2xc2; d1-c1 loses in 3 (b2xe2 c1-b1 c2xb1)."""


def of_type(decisions: list[Any], kind: type) -> list[Any]:
    return [decision for decision in decisions if isinstance(decision, kind)]


def said(decisions: list[Any]) -> list[str]:
    return [decision.text for decision in of_type(decisions, Say)]


def settled(start: str) -> Referee:
    position = parse_position(start)
    referee = Referee(game=Game(start=position))
    referee.handle(BoardSeen(BoardReading.of(position)))
    assert referee.settled
    return referee


def ask(referee: Referee, engine: ImmediateEngine) -> list[Any]:
    """Press hint and hand the engine's answer back, as the board's loop does."""
    asked = referee.handle(Pressed(Button.HINT))
    for think in of_type(asked, Think):
        engine.submit(think)
    answer = engine.poll()
    assert answer is not None
    return asked + referee.handle(answer)


def play(referee: Referee, *names: str) -> None:
    for name in names:
        position: Position = referee.position
        after = make_move(position, referee.current.parse_move(name))
        referee.handle(BoardSeen(BoardReading.of(after)))


def test_a_hint_in_a_table_position_says_the_exact_result_and_distance() -> None:
    referee = settled(WON_IN_7)
    shown = ask(referee, ImmediateEngine(depth=2))
    assert "hint: e4xb5 (wins in 7 plies)" in said(shown)
    assert of_type(shown, HintShown)[0].outlook == "wins in 7 plies"


def test_the_losing_side_hears_how_long_it_holds_out_and_a_draw_is_a_draw() -> None:
    losing = ask(settled("6/6/6/rbr3/6/6 b"), ImmediateEngine(depth=2))
    assert "hint: b3-a2 (loses in 6 plies)" in said(losing)
    drawn = ask(settled("4b1/6/6/3r2/6/6 r"), ImmediateEngine(depth=2))
    assert of_type(drawn, HintShown)[0].outlook == "draw, no forced wipe-out"


def test_a_hint_far_from_the_tables_gives_no_made_up_outlook() -> None:
    referee = Referee()
    referee.handle(BoardSeen(BoardReading.of(referee.position)))
    shown = ask(referee, ImmediateEngine(depth=1))
    hint = of_type(shown, HintShown)[0]
    assert hint.outlook == "" and f"hint: {hint.move}" in said(shown)


def test_after_a_game_hint_analyses_it_and_steps_through_its_mistakes() -> None:
    referee = settled(THROWN_AWAY)
    play(referee, "d1-c1", "b2xe2", "c1-b1", "c2xb1")
    assert referee.current.is_over
    engine = ImmediateEngine(depth=2)
    asked = referee.handle(Pressed(Button.HINT))
    assert said(asked) == ["analysing the game"]
    think = of_type(asked, Think)[0]
    assert think.purpose is Purpose.ANALYSIS and len(think.moves) == 4
    assert said(referee.handle(Pressed(Button.HINT))) == ["still analysing the game"]
    engine.submit(think)
    answer = engine.poll()
    assert isinstance(answer, AnalysisReady)
    ready = said(referee.handle(answer))
    assert ready == [
        "analysis: red: 1 blunder, 0 mistakes, 0 inaccuracies; black: 0 blunders, "
        "0 mistakes, 0 inaccuracies; press hint to see the 1 mistake on the lamps"
    ]
    mistake = answer.mistakes[0]
    assert (mistake.played.name, mistake.better.name) == ("d1-c1", "e2xc2")

    # First the move played runs along its path, then the better move and its path.
    played = referee.handle(Pressed(Button.HINT))
    assert Light(Layer.LAST, played[1].effect, (mistake.played.path,)) in played
    assert said(played)[0].startswith("mistake 1 of 1: 1. d1-c1, a blunder: loses")
    better = referee.handle(Pressed(Button.HINT))
    assert Light(Layer.HINT, better[1].effect, (mistake.better.path,)) in better
    assert Clear(Layer.LAST) in better
    assert said(better)[0].startswith("mistake 1 of 1: better e2xc2: wins by wipe-out in 5")
    # Then the lamps go dark, and the next press starts over.
    done = referee.handle(Pressed(Button.HINT))
    assert Clear(Layer.HINT) in done and said(done)[0].startswith("end of the analysis")
    assert said(referee.handle(Pressed(Button.HINT)))[0].startswith("mistake 1 of 1")


def test_an_analysis_that_comes_after_an_undo_is_dropped() -> None:
    referee = settled(THROWN_AWAY)
    play(referee, "d1-c1", "b2xe2", "c1-b1", "c2xb1")
    think = of_type(referee.handle(Pressed(Button.HINT)), Think)[0]
    referee.handle(Pressed(Button.UNDO))
    engine = ImmediateEngine(depth=1)
    engine.submit(think)
    answer = engine.poll()
    assert answer is not None and referee.handle(answer) == []
    # A move answer to an analysis request is no move to light either.
    assert referee.handle(EngineAnswered(think.request, think.moves[0])) == []
