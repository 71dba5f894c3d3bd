"""Scripted physical sessions: the scenario language of ``surakarta scenario``.

One action per line, ``#`` starts a comment::

    variant standard          # rules (before the first move)
    mode computer black       # or: mode two-player
    level 3
    move b2 c3                # a hand lifts b2, carries it and places it on c3
    capture c4 d6             # takes d6 off, then moves c4 there
    lift b2 / place c3 / remove e5 / put e5 red
    press hint                # hint, undo, new, mode
    wait 1.5                  # seconds
    follow                    # the hand carries out the move the board lit last
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum

from controller import SurakartaError, Variant, parse_color, parse_point, parse_variant
from controller.decisions import Button
from controller.geometry import Point
from controller.position import Color


class BadScenario(SurakartaError, ValueError):
    """A scenario line that cannot be understood; the message names the line."""


class Action(Enum):
    """What a scenario line does."""

    VARIANT = "variant"
    MODE = "mode"
    LEVEL = "level"
    MOVE = "move"
    CAPTURE = "capture"
    LIFT = "lift"
    PLACE = "place"
    REMOVE = "remove"
    PUT = "put"
    PRESS = "press"
    WAIT = "wait"
    FOLLOW = "follow"


@dataclass(frozen=True, slots=True)
class Step:
    """One parsed scenario line."""

    line: int
    """Line number in the scenario, from 1."""
    action: Action
    """What to do."""
    points: tuple[Point, ...] = ()
    """Points named on the line."""
    color: Color | None = None
    """``put``: the piece's colour; ``mode computer``: the computer's side."""
    variant: Variant | None = None
    """``variant``: the rules."""
    number: float = 0.0
    """``level``: the level; ``wait``: seconds."""
    button: Button | None = None
    """``press``: which button."""


_POINT_COUNT = {
    Action.MOVE: 2,
    Action.CAPTURE: 2,
    Action.LIFT: 1,
    Action.PLACE: 1,
    Action.REMOVE: 1,
}


def _parse_line(number: int, words: list[str]) -> Step:
    try:
        action = Action(words[0].lower())
    except ValueError:
        names = ", ".join(a.value for a in Action)
        raise ValueError(f"unknown action {words[0]!r} (expected one of {names})") from None
    arguments = words[1:]

    def expect(count: int) -> None:
        if len(arguments) != count:
            raise ValueError(f"{action.value} takes {count} argument(s), got {len(arguments)}")

    if action in _POINT_COUNT:
        expect(_POINT_COUNT[action])
        return Step(number, action, tuple(parse_point(a) for a in arguments))
    if action is Action.PUT:
        expect(2)
        return Step(number, action, (parse_point(arguments[0]),), color=parse_color(arguments[1]))
    if action is Action.VARIANT:
        expect(1)
        return Step(number, action, variant=parse_variant(arguments[0]))
    if action is Action.MODE:
        if arguments == ["two-player"]:
            return Step(number, action)
        if len(arguments) == 2 and arguments[0] == "computer":
            return Step(number, action, color=parse_color(arguments[1]))
        raise ValueError("mode takes 'two-player' or 'computer red|black'")
    if action is Action.LEVEL:
        expect(1)
        level = int(arguments[0])
        if not 1 <= level <= 10:
            raise ValueError(f"level must be 1 to 10, got {level}")
        return Step(number, action, number=level)
    if action is Action.PRESS:
        expect(1)
        try:
            return Step(number, action, button=Button(arguments[0].lower()))
        except ValueError:
            names = ", ".join(b.value for b in Button)
            raise ValueError(f"unknown button {arguments[0]!r} (expected {names})") from None
    if action is Action.WAIT:
        expect(1)
        seconds = float(arguments[0])
        if not 0 <= seconds <= 3600:
            raise ValueError(f"wait takes 0 to 3600 seconds, got {seconds}")
        return Step(number, action, number=seconds)
    expect(0)
    return Step(number, action)


def parse_scenario(text: str) -> list[Step]:
    """Every step of a scenario; raises BadScenario naming the first bad line."""
    steps = []
    for number, raw in enumerate(text.splitlines(), start=1):
        words = raw.split("#", 1)[0].split()
        if not words:
            continue
        try:
            steps.append(_parse_line(number, words))
        except ValueError as error:
            raise BadScenario(f"line {number}: {_clipped(str(error), 200)}: "
                              f"{_clipped(repr(raw.strip()), 80)}") from None
    return steps


def _clipped(text: str, limit: int) -> str:
    """``text`` cut to ``limit`` characters: a line of junk (a binary file read as a
    scenario, say) must still make a message that fits on a line."""
    return text if len(text) <= limit else text[:limit - 1] + "…"
