"""A game: moves played from a start position, and how and when it ends."""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import Enum

from controller.errors import GameOver, IllegalMove
from controller.movegen import count_moves, find_move, legal_moves, make_move
from controller.moves import Move
from controller.position import Color, Position, parse_color, start_position
from controller.variants import Variant

DRAW_NAME = "draw"
"""How files and event streams write a drawn game's winner (a side is ``Color.word``)."""


def winner_name(winner: Color | None) -> str:
    """``red``, ``black`` or ``draw``: the winner as journals and events write it."""
    return DRAW_NAME if winner is None else winner.word


def parse_winner(text: str) -> Color | None:
    """The winner of ``winner_name``'s text (None for a draw); raises BadColor."""
    return None if text == DRAW_NAME else parse_color(text)


class EndReason(Enum):
    """Why a game ended."""

    WIPE_OUT = "wipe-out"
    NO_LEGAL_MOVE = "no legal move"
    NO_CAPTURE_LIMIT = "no-capture limit"
    REPETITION = "repetition"
    AGREEMENT = "agreement"


@dataclass(frozen=True, slots=True)
class Outcome:
    """The end of a game."""

    winner: Color | None
    """The side that won, or None for a draw."""
    reason: EndReason
    """What ended it."""
    red_pieces: int
    """Red pieces on the board at the end."""
    black_pieces: int
    """Black pieces on the board at the end."""

    @property
    def score_text(self) -> str:
        """PGN-style result: ``1-0`` (red won), ``0-1`` (black won) or ``1/2-1/2``."""
        if self.winner is None:
            return "1/2-1/2"
        return "1-0" if self.winner is Color.RED else "0-1"

    def __str__(self) -> str:
        winner = winner_name(self.winner)
        return f"{winner} ({self.reason.value}, {self.red_pieces}-{self.black_pieces})"


@dataclass(frozen=True, slots=True)
class Endings:
    """Which endings of docs/RULES.md apply; the defaults are the Computer Olympiad's."""

    no_capture_limit: int | None = 50
    """Plies in a row without a capture that end the game; None turns it off."""
    repetition: bool = True
    """Whether a repeated position (board and side to move) ends the game."""


def by_piece_count(position: Position, reason: EndReason) -> Outcome:
    """A game ended without a wipe-out: more pieces wins, equal counts draw."""
    red, black = position.count(Color.RED), position.count(Color.BLACK)
    winner = None if red == black else Color.RED if red > black else Color.BLACK
    return Outcome(winner, reason, red, black)


def wipe_out(position: Position) -> Outcome | None:
    """The outcome when a side has no pieces left, else None."""
    if not position.red and not position.black:
        # Only a position typed in can be empty; neither side won it.
        return Outcome(None, EndReason.WIPE_OUT, 0, 0)
    for color in Color:
        if not position.pieces(color):
            return Outcome(color.other, EndReason.WIPE_OUT, *_counts(position))
    return None


def _counts(position: Position) -> tuple[int, int]:
    return position.count(Color.RED), position.count(Color.BLACK)


@dataclass
class Game:
    """A game in progress or finished: the start, the moves, and the endings that apply."""

    variant: Variant = Variant.STANDARD
    """The rules."""
    start: Position | None = None
    """The start position; None means the variant's standard start with red to move."""
    endings: Endings = field(default_factory=Endings)
    """Which endings apply."""
    moves: list[Move] = field(default_factory=list, init=False)
    """Moves played, in order."""
    positions: list[Position] = field(default_factory=list, init=False)
    """Positions reached: the start, then one after each move."""
    agreed: Outcome | None = field(default=None, init=False)
    """Set when the players ended the game by agreement."""

    def __post_init__(self) -> None:
        if self.start is None:
            self.start = start_position(self.variant.size)
        self.positions.append(self.start)

    @property
    def position(self) -> Position:
        """The current position."""
        return self.positions[-1]

    @property
    def turn(self) -> Color:
        """The side to move."""
        return self.position.turn

    @property
    def plies_without_capture(self) -> int:
        """Plies played since the last capture (or the start)."""
        count = 0
        for move in reversed(self.moves):
            if move.is_capture:
                break
            count += 1
        return count

    def legal_moves(self) -> list[Move]:
        """The moves allowed now (none once the game is over)."""
        return [] if self.is_over else legal_moves(self.position, self.variant)

    def parse_move(self, text: str) -> Move:
        """The legal move called ``text``; raises BadMove, IllegalMove or AmbiguousMove."""
        return find_move(self.position, text, self.variant)

    def play(self, move: Move | str) -> Move:
        """Play a move (a Move from ``legal_moves`` or a move name); returns it.

        Raises IllegalMove for a move the rules do not allow, in either form.
        """
        if self.is_over:
            raise GameOver(f"game over: {self.outcome}; no more moves")
        if isinstance(move, str):
            move = self.parse_move(move)
        elif move not in legal_moves(self.position, self.variant):
            raise IllegalMove(f"illegal move: {move.name!r} in {self.position}")
        self.moves.append(move)
        self.positions.append(make_move(self.position, move))
        return move

    def undo(self) -> Move:
        """Take back the last move and return it; an agreed ending is taken back too."""
        if not self.moves:
            raise ValueError("no move to take back")
        self.agreed = None
        self.positions.pop()
        return self.moves.pop()

    def end_by_agreement(self) -> Outcome:
        """End the game now, scored by piece count."""
        self.agreed = by_piece_count(self.position, EndReason.AGREEMENT)
        return self.agreed

    def resume(self) -> None:
        """Take back an ending by agreement: play goes on from the same position."""
        self.agreed = None

    @property
    def outcome(self) -> Outcome | None:
        """How the game ended, or None while it goes on."""
        if self.agreed is not None:
            return self.agreed
        position = self.position
        wiped = wipe_out(position)
        if wiped is not None:
            return wiped
        limit = self.endings.no_capture_limit
        if limit is not None and self.plies_without_capture >= limit:
            return by_piece_count(position, EndReason.NO_CAPTURE_LIMIT)
        if self.endings.repetition and position in self.positions[:-1]:
            return by_piece_count(position, EndReason.REPETITION)
        if count_moves(position, self.variant) == 0:
            return by_piece_count(position, EndReason.NO_LEGAL_MOVE)
        return None

    @property
    def is_over(self) -> bool:
        """Whether the game has ended."""
        return self.outcome is not None
