"""What the referee is told (inputs) and what it decides (outputs).

The referee never touches hardware: it says which stations to light and how, which
sound to play, and when it wants the engine to think. The firmware carries that out
and feeds the results back in.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import Enum, StrEnum

from controller.game import Endings, Outcome
from controller.geometry import Point, Station
from controller.match import MatchRules
from controller.moves import Move
from controller.position import Color, Position
from controller.reading import BoardReading
from controller.variants import Variant


class Button(Enum):
    """The board's buttons."""

    HINT = "hint"
    UNDO = "undo"
    NEW = "new"
    MODE = "mode"


class Effect(Enum):
    """How a layer of lights is shown."""

    STEADY = "steady"
    BLINK = "blink"
    """Errors and points to fix."""
    CHASE = "chase"
    """A light running along a path in the direction of travel."""
    PULSE = "pulse"
    """Hints: breathing brightness."""


class Layer(StrEnum):
    """A layer of lamps. Where layers share a lamp, the one of higher priority shows:
    trouble with the camera above all, then errors, then the game's own displays.

    The members are strings (their names in the LED scene and the event stream)."""

    TROUBLE = "trouble"
    """The camera or the board is lost (set by the board's loop, not the referee)."""
    DOUBT = "doubt"
    """A piece stands between two points (set by the board's loop)."""
    FIX = "fix"
    """Points that differ from the game: put them right."""
    LIFT = "lift"
    """Where a lifted piece can go."""
    COMPUTER = "computer"
    """The computer's move, to carry out."""
    HINT = "hint"
    """The engine's hint."""
    LAST = "last"
    """The last capture's path."""
    DANGER = "danger"
    """Pieces the opponent can capture next."""
    RESULT = "result"
    """The game is over: the winner's pieces."""

    @property
    def priority(self) -> int:
        """Higher shows on top where layers share lamps."""
        return _LAYER_PRIORITY[self]


_LAYER_PRIORITY = {
    Layer.TROUBLE: 100,
    Layer.DOUBT: 90,
    Layer.FIX: 60,
    Layer.LIFT: 50,
    Layer.COMPUTER: 40,
    Layer.HINT: 30,
    Layer.LAST: 20,
    Layer.DANGER: 10,
    Layer.RESULT: 0,
}


class Sound(Enum):
    """The board's distinct sounds; the buzzer plays a pattern for each."""

    MOVE_ACCEPTED = "move-accepted"
    """The referee accepted a move made on the board."""
    ILLEGAL_MOVE = "illegal-move"
    """What is on the board is not a legal move."""
    COMPUTER_MOVE = "computer-move"
    """The computer chose its move."""
    GAME_OVER = "game-over"
    """The game ended."""
    SAVE_FAILED = "save-failed"
    """The game cannot be saved (a full or read-only disk): moves from now on would be
    lost in a power cut."""


class Purpose(Enum):
    """Why the referee wants the engine to think."""

    HINT = "hint"
    COMPUTER = "computer"
    ANALYSIS = "analysis"
    """The finished game's moves scored, its mistakes found (``AnalysisReady`` answers)."""


# -- inputs -------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class BoardSeen:
    """A stable board reading from vision."""

    reading: BoardReading
    """Which points hold which colour."""


@dataclass(frozen=True, slots=True)
class Pressed:
    """A button press."""

    button: Button
    """Which button."""


@dataclass(frozen=True, slots=True)
class EngineAnswered:
    """The engine's answer to a ``Think`` request."""

    request: int
    """The request's number, from ``Think.request``."""
    move: Move
    """The move it chose."""
    outlook: str = ""
    """What the move leads to when that is known exactly (``wins in 7 plies`` from the
    tablebase, or a wipe-out the search sees), else empty."""


@dataclass(frozen=True, slots=True)
class SetLevel:
    """The players choose the computer's strength."""

    level: int
    """1 (weakest) to 10."""


@dataclass(frozen=True, slots=True)
class SetMode:
    """The players choose two-player play or a side for the computer."""

    computer: Color | None
    """The computer's side, or None for two players."""


@dataclass(frozen=True, slots=True)
class SetVariant:
    """The players choose other rules for the board's size: a new game of them begins
    (only between games, like the new-game button)."""

    variant: Variant
    """The rules of the next games."""


@dataclass(frozen=True, slots=True)
class SetMatch:
    """The players start scoring their games as a match, or stop (between games)."""

    players: tuple[str, str] | None
    """Who plays red in the first game, and the other; None for single games."""
    rules: MatchRules = field(default_factory=MatchRules)
    """How the match is scored."""


@dataclass(frozen=True, slots=True)
class Mistake:
    """A move of a finished game that the analysis marked, to replay on the lamps."""

    ply: int
    """1 for the game's first move."""
    played: Move
    """The move played."""
    better: Move
    """The engine's move instead."""
    played_text: str
    """The move played and what it cost: ``12... c3-d4, a blunder: -2.00``."""
    better_text: str
    """The better move, its worth and its line: ``better c3xf6: +0.50 (c3xf6 b5-b4)``."""


@dataclass(frozen=True, slots=True)
class AnalysisReady:
    """The engine's answer to a ``Think`` request for an analysis."""

    request: int
    """The request's number, from ``Think.request``."""
    mistakes: tuple[Mistake, ...]
    """The mistakes and blunders, in the order played."""
    summary: str
    """Each side's marked moves counted, in words."""


Input = (
    BoardSeen
    | Pressed
    | EngineAnswered
    | AnalysisReady
    | SetLevel
    | SetMode
    | SetVariant
    | SetMatch
)


# -- outputs: commands for the edges ------------------------------------------------


@dataclass(frozen=True, slots=True)
class Light:
    """Show a layer of lights (replacing what that layer showed before)."""

    layer: Layer
    """Which layer."""
    effect: Effect
    """How to show it."""
    paths: tuple[tuple[Station, ...], ...]
    """Station sequences to light, each in order of travel; a lone point is a path of one."""


@dataclass(frozen=True, slots=True)
class Clear:
    """Turn a layer of lights off."""

    layer: Layer
    """Which layer."""


@dataclass(frozen=True, slots=True)
class PlaySound:
    """Sound the buzzer."""

    sound: Sound
    """Which sound."""


@dataclass(frozen=True, slots=True)
class Say:
    """A message for the player (terminal, log, simulator panel)."""

    text: str
    """One line."""


@dataclass(frozen=True, slots=True)
class Think:
    """Ask the engine for a move; answer with ``EngineAnswered``."""

    request: int
    """Number to quote in the answer; answers to older requests are ignored."""
    purpose: Purpose
    """Hint for the player, or the computer's own move."""
    position: Position
    """Where to search from."""
    history: tuple[Position, ...]
    """Positions of the game before this one, for repetitions."""
    plies_without_capture: int
    """Plies since the last capture, for the no-capture limit."""
    variant: Variant
    """The rules."""
    endings: Endings
    """Which endings apply."""
    level: int
    """Strength 1-10 (hints always use full strength)."""
    scored_by_pieces: bool = False
    """The game counts in a match scored by pieces: every piece left matters, not
    only winning (the engine's objective follows)."""
    moves: tuple[Move, ...] = ()
    """For an analysis, the finished game's moves from ``position`` (its start)."""


# -- outputs: what happened in the game ---------------------------------------------


@dataclass(frozen=True, slots=True)
class Accepted:
    """A move was made on the board and accepted."""

    move: Move
    """The move."""
    by: Color
    """Who moved."""
    position: Position
    """The position after it."""


@dataclass(frozen=True, slots=True)
class Illegal:
    """The board shows something that is not a legal move; these points differ."""

    fix: tuple[Point, ...]
    """Points that differ from the last legal position."""


@dataclass(frozen=True, slots=True)
class Restored:
    """After an illegal reading, the board is back at the last legal position."""


@dataclass(frozen=True, slots=True)
class Lifted:
    """A piece of the side to move is off the board: a move is under way."""

    point: Point
    """Where it stood."""
    targets: tuple[Point, ...]
    """Where it may go (step and slide targets, captured points)."""


@dataclass(frozen=True, slots=True)
class HintShown:
    """The engine's best move is lit."""

    move: Move
    """The move shown."""
    outlook: str = ""
    """What it leads to, when known exactly (``wins in 7 plies``), else empty."""


@dataclass(frozen=True, slots=True)
class ComputerChose:
    """The computer's reply, lit for the player to carry out."""

    move: Move
    """The move."""


@dataclass(frozen=True, slots=True)
class Undone:
    """A move was taken back."""

    move: Move
    """The move taken back."""


@dataclass(frozen=True, slots=True)
class GameEnded:
    """The game is over."""

    outcome: Outcome
    """Who won and why."""


@dataclass(frozen=True, slots=True)
class AgreementTakenBack:
    """Undo after an ending by agreement: the game goes on from where it stopped."""


@dataclass(frozen=True, slots=True)
class NewGame:
    """A new game starts; the board must be set to the start position."""

    variant: Variant
    """The rules of the new game."""


@dataclass(frozen=True, slots=True)
class ModeChanged:
    """Two players, or against the computer."""

    computer: Color | None
    """The computer's side, or None for two players."""


@dataclass(frozen=True, slots=True)
class LevelChanged:
    """The computer plays at another strength from now on."""

    level: int
    """1 (weakest) to 10."""


@dataclass(frozen=True, slots=True)
class MatchChanged:
    """The games are scored as a new match from now on, or no longer (``players`` None)."""

    players: tuple[str, str] | None
    """Who plays red in the match's first game, and the other; None for single games."""
    rules: MatchRules
    """How the match is scored."""


Decision = (
    Light
    | Clear
    | PlaySound
    | Say
    | Think
    | Accepted
    | Illegal
    | Restored
    | Lifted
    | HintShown
    | ComputerChose
    | Undone
    | GameEnded
    | AgreementTakenBack
    | NewGame
    | ModeChanged
    | LevelChanged
    | MatchChanged
)
