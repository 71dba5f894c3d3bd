"""What the page shows, as JSON-ready data built on the board's own thread.

A snapshot is made from the referee (position, moves, side to move, the hint or
the computer's move on show), the LED scene (every layer lit right now, with
what it means) and the session's last message. It is cheap enough to build on
every pass of the board's loop; only a snapshot that differs from the last one
is sent to the pages.
"""

from __future__ import annotations

from typing import Any

from controller.decisions import Layer
from controller.game import winner_name
from controller.geometry import geometry, point_name
from controller.match import Match
from controller.position import Color
from controller.variants import Variant
from firmware.board import BoardSession
from firmware.web.drawing import move_path
from hardware.effects import Blink, Chase, Pulse
from hardware.effects import Effect as LampEffect
from hardware.scene import LedScene

LAMP_TEST_LAYER = "lamp-test"
"""The page's lamp test: every lamp in chain order."""
REPLAY_LAYER = "replay"
"""A move of a finished game, replayed on the board from the page."""

LAYER_MEANINGS = {
    Layer.TROUBLE: "the camera cannot see the board: see health",
    Layer.DOUBT: "a piece between points: centre it",
    Layer.FIX: "put these points right: they differ from the game",
    Layer.LIFT: "where the lifted piece can go",
    Layer.COMPUTER: "the computer's move: carry it out on the board",
    Layer.HINT: "the engine's hint",
    Layer.LAST: "the last capture's path",
    Layer.DANGER: "pieces the opponent can capture next",
    Layer.RESULT: "the game is over: the winner's pieces",
    LAMP_TEST_LAYER: "the lamp test: one lamp at a time in chain order",
    REPLAY_LAYER: "a move of a finished game, replayed",
}
"""What each lamp layer tells the players (the page's own layers included)."""

MODE_NAMES: dict[Color | None, str] = {
    None: "two-player",
    Color.RED: "computer-red",
    Color.BLACK: "computer-black",
}
"""The page's (and the config's) names of the modes."""


def effect_name(effect: LampEffect) -> str:
    """How the lamps of ``effect`` behave: blink, chase, pulse or steady."""
    if isinstance(effect, Blink):
        return "blink"
    if isinstance(effect, Chase):
        return "chase"
    if isinstance(effect, Pulse):
        return "pulse"
    return "steady"


def lamps_lit(scene: LedScene) -> list[dict[str, Any]]:
    """Every layer lit now, most urgent first: its name, meaning, effect and lamps."""
    return [
        {
            "layer": layer,
            "meaning": LAYER_MEANINGS.get(layer, layer),
            "effect": effect_name(effect),
            "lamps": list(effect.lamps),
        }
        for layer, effect in reversed(scene.effects())
    ]


def match_standing(match: Match | None) -> dict[str, Any] | None:
    """The match's players, totals and finished games, or None outside a match."""
    if match is None:
        return None
    return {
        "players": [match.first, match.second],
        "totals": match.totals,
        "games": [
            {
                "red": game.red_player,
                "result": winner_name(game.outcome.winner),
                "scores": game.scores,
            }
            for game in match.games
        ],
        "over": match.is_over,
        "leader": match.leader,
        "red_next": match.player_of(Color.RED),
    }


def board_state(session: BoardSession, scene: LedScene) -> dict[str, Any]:
    """The game and the lamps as the page draws them."""
    referee = session.referee
    game = referee.current
    position = referee.position
    size = position.size
    pieces = {
        point_name(point): color.word
        for point in geometry(size).points
        if (color := position.piece_at(point)) is not None
    }
    last = game.moves[-1] if game.moves else None
    lit = referee.computer_move or referee.hint
    outcome = game.outcome
    return {
        "variant": referee.variant.value,
        "size": size,
        "position": position.board_string(),
        "pieces": pieces,
        "turn": position.turn.word,
        "counts": {color.word: position.count(color) for color in Color},
        "mode": MODE_NAMES[referee.computer],
        "level": referee.level,
        "moves": [move.name for move in game.moves],
        "last_move": None if last is None else {"name": last.name, "path": move_path(size, last)},
        "lit_move": None if lit is None else {
            "kind": "computer" if lit is referee.computer_move else "hint",
            "name": lit.name,
            "path": move_path(size, lit),
        },
        "lamps": lamps_lit(scene),
        "status": {
            "ready": referee.settled,
            "over": outcome is not None,
            "result": None if outcome is None else str(outcome),
            "message": session.last_message,
        },
        "match": match_standing(referee.match),
        "variants": [v.value for v in Variant if v.size == size],
    }
