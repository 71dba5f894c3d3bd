"""Lamp meanings told apart on lamps of one colour: the patterns of the referee's layers."""

from controller.decisions import Effect, Layer, Light
from controller.geometry import parse_point
from firmware.board import lamp_effect
from hardware.effects import Blink, Pulse, frame_at
from hardware.lamps import LampLayout

LAYOUT = LampLayout(6, 3, 5)
LAST_PATH = (parse_point("b2", 6), parse_point("b3", 6))
REPLY_PATH = (parse_point("e5", 6), parse_point("e4", 6))


def lit(effect: object, t: float) -> set[str]:
    return set(frame_at([effect], t, dimmable=False))  # type: ignore[list-item]


def test_the_last_move_settles_while_the_computer_s_reply_keeps_running() -> None:
    last = lamp_effect(LAYOUT, Light(Layer.LAST, Effect.CHASE, (LAST_PATH,)))
    reply = lamp_effect(LAYOUT, Light(Layer.COMPUTER, Effect.CHASE, (REPLY_PATH,)))
    later = [10.0 + k * 0.04 for k in range(50)]
    # Seconds later the last move's path is simply lit ...
    assert all(lit(last, t) == {"b2", "b3"} for t in later)
    # ... while the reply still runs: its lamps come and go.
    seen = [frozenset(lit(reply, t)) for t in later]
    assert len(set(seen)) > 1 and frozenset() in seen


def test_a_hint_an_error_and_a_move_show_three_different_rhythms() -> None:
    hint = lamp_effect(LAYOUT, Light(Layer.HINT, Effect.PULSE, (LAST_PATH,)))
    error = lamp_effect(LAYOUT, Light(Layer.FIX, Effect.BLINK, (LAST_PATH,)))
    assert isinstance(hint, Pulse) and isinstance(error, Blink)
    times = [k * 0.05 for k in range(48)]
    hint_on = [bool(lit(hint, t)) for t in times]
    error_on = [bool(lit(error, t)) for t in times]
    assert hint_on != error_on
    assert sum(hint_on) / len(times) >= 0.5  # a hint is lit most of the time
