"""What a player sees of the tablebase and of a game's analysis: the evaluation on the
page and in the simulator, and a finished game's mistakes on the board's lamps."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from gpiozero.pins.mock import MockFactory, MockPWMPin

from controller.decisions import BoardSeen, Button, Pressed
from controller.engine.service import ImmediateEngine
from controller.game import Endings, Game
from controller.movegen import make_move
from controller.position import parse_position
from controller.reading import BoardReading
from controller.referee import Referee
from controller.variants import Variant
from firmware.board import BoardSession, Outputs
from firmware.simulation import simulated_hardware
from firmware.simulator.evaluation import evaluation_text
from firmware.web.evaluation import evaluate
from hardware.build import Hardware, build_hardware
from hardware.lamps import lamps_for_move

WON_IN_7 = "6/1b4/4r1/5b/6/r5 r"
THROWN_AWAY = "6/6/6/6/1bb1r1/3r2 r"
"""Red wins in 5 by e2xc2; d1-c1 loses in 3 (b2xe2 c1-b1 c2xb1)."""


def test_the_evaluation_of_a_table_position_is_its_exact_result() -> None:
    won = Game(start=parse_position(WON_IN_7))
    assert evaluate(won, 0.05)["text"] == "red to move: wins in 7 plies"
    assert evaluation_text(won, 0.05) == "red to move: wins in 7 plies, best e4xb5 (the tables)"
    drawn = Game(start=parse_position("4b1/6/6/3r2/6/6 b"))
    assert evaluate(drawn, 0.05)["text"] == "black to move: draw, no forced wipe-out"


def test_a_table_win_the_no_capture_limit_would_cut_short_is_not_promised() -> None:
    short = Game(start=parse_position(WON_IN_7), endings=Endings(no_capture_limit=6))
    assert "wins in 7" not in evaluate(short, 0.05)["text"]


@pytest.fixture
def hardware() -> Iterator[Hardware]:
    built = build_hardware(
        simulated_hardware(Variant.STANDARD), MockFactory(pin_class=MockPWMPin), clock=lambda: 0.0
    )
    try:
        yield built
    finally:
        built.close()


def test_after_a_game_the_hint_button_replays_its_mistakes_on_the_lamps(
    hardware: Hardware,
) -> None:
    referee = Referee(game=Game(start=parse_position(THROWN_AWAY)))
    session = BoardSession(referee, Outputs(hardware.layout, hardware.scene, ImmediateEngine(2)))
    session.start(0.0)
    session.feed(BoardSeen(BoardReading.of(referee.position)), 0.0)
    for name in ("d1-c1", "b2xe2", "c1-b1", "c2xb1"):
        after = make_move(referee.position, referee.current.parse_move(name))
        session.feed(BoardSeen(BoardReading.of(after)), 0.0)
    assert referee.current.is_over

    session.feed(Pressed(Button.HINT), 0.0)
    session.poll_engine(0.0)  # the analysis, as the board's loop delivers it
    assert session.last_message.endswith("press hint to see the 1 mistake on the lamps")

    def lit_by(layer: str) -> set[str]:
        return {lamp for lamp, owner in hardware.scene.owners().items() if owner == layer}

    played = referee.current.moves[0]
    session.feed(Pressed(Button.HINT), 0.0)
    assert session.last_message.startswith("mistake 1 of 1: 1. d1-c1, a blunder")
    assert lit_by("last") == set(lamps_for_move(hardware.layout, played))
    assert not lit_by("hint")

    session.feed(Pressed(Button.HINT), 0.0)
    assert session.last_message.startswith("mistake 1 of 1: better e2xc2")
    better_move = Game(start=parse_position(THROWN_AWAY)).parse_move("e2xc2")
    # The better move's whole capture path, loop lamps included, and nothing else.
    assert lit_by("hint") == set(lamps_for_move(hardware.layout, better_move))
    assert {"inner-se-0", "inner-se-1", "inner-se-2"} <= lit_by("hint")
    assert not lit_by("last")

    session.feed(Pressed(Button.HINT), 0.0)
    assert session.last_message.startswith("end of the analysis")
    assert not lit_by("hint") and not lit_by("last")
