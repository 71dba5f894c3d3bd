"""Positions: who stands where and who is to move, and the position string."""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum

from controller.errors import BadColor, BadPosition
from controller.geometry import SIZES, Point, bit, geometry, point_at


class Color(Enum):
    """A side. Red moves first by default."""

    RED = "r"
    BLACK = "b"

    @property
    def other(self) -> Color:
        """The opponent."""
        return Color.BLACK if self is Color.RED else Color.RED

    @property
    def word(self) -> str:
        """``red`` or ``black``."""
        return self.name.lower()


def parse_color(text: str) -> Color:
    """``red``/``r``/``black``/``b`` (any case) to a Color; raises BadColor."""
    word = text.strip().lower()
    for color in Color:
        if word in (color.value, color.word):
            return color
    raise BadColor(f"invalid colour: {text!r} (expected red or black)")


def color_at(red: int, black: int, point: Point) -> Color | None:
    """The colour on ``point`` of two bitboards, or None when neither has it."""
    if red >> point & 1:
        return Color.RED
    if black >> point & 1:
        return Color.BLACK
    return None


@dataclass(frozen=True, slots=True)
class Position:
    """An immutable position: two bitboards, the side to move and the board size."""

    red: int
    """Bitboard of red pieces (bit ``point`` set)."""
    black: int
    """Bitboard of black pieces."""
    turn: Color
    """The side to move."""
    size: int = 6
    """Lines per side."""

    def pieces(self, color: Color) -> int:
        """Bitboard of ``color``'s pieces."""
        return self.red if color is Color.RED else self.black

    def piece_at(self, point: Point) -> Color | None:
        """The colour of the piece on ``point``, or None when it is empty."""
        return color_at(self.red, self.black, point)

    def count(self, color: Color) -> int:
        """How many pieces ``color`` has."""
        return self.pieces(color).bit_count()

    @property
    def empty(self) -> int:
        """Bitboard of empty points."""
        return geometry(self.size).board_mask & ~(self.red | self.black)

    def board_string(self) -> str:
        """The board part of the position string, e.g. ``bbbbbb/bbbbbb/6/6/rrrrrr/rrrrrr``."""
        ranks = []
        for y in range(self.size - 1, -1, -1):
            text, gap = "", 0
            for x in range(self.size):
                piece = self.piece_at(point_at(x, y))
                if piece is None:
                    gap += 1
                    continue
                if gap:
                    text, gap = text + str(gap), 0
                text += piece.value
            ranks.append(text + (str(gap) if gap else ""))
        return "/".join(ranks)

    def __str__(self) -> str:
        return f"{self.board_string()} {self.turn.value}"

    def with_turn(self, turn: Color) -> Position:
        """The same board with ``turn`` to move."""
        return Position(self.red, self.black, turn, self.size)


def start_position(size: int = 6, first: Color = Color.RED) -> Position:
    """The start: red on the two bottom ranks, black on the two top ranks."""
    red = black = 0
    for x in range(size):
        for y in (0, 1):
            red |= bit(point_at(x, y))
            black |= bit(point_at(x, size - 1 - y))
    return Position(red, black, first, size)


def parse_board(text: str) -> tuple[int, int, int]:
    """Parse the board part of a position string to ``(red, black, size)``."""
    ranks = text.split("/")
    if len(ranks) not in SIZES:
        raise BadPosition(
            f"invalid position string: {text!r} has {len(ranks)} ranks (expected 6 or 7)"
        )
    size = len(ranks)
    red = black = 0
    for row, rank in enumerate(ranks):
        y, x = size - 1 - row, 0
        for char in rank:
            if char.isdigit():
                x += int(char)
                continue
            if char not in "rb":
                raise BadPosition(f"invalid position string: {text!r} has unknown piece {char!r}")
            if x < size:
                if char == "r":
                    red |= bit(point_at(x, y))
                else:
                    black |= bit(point_at(x, y))
            x += 1
        if x != size:
            raise BadPosition(
                f"invalid position string: {text!r} rank {y + 1} has {x} points (expected {size})"
            )
    return red, black, size


def parse_position(text: str) -> Position:
    """Parse a position string such as ``bbbbbb/bbbbbb/6/6/rrrrrr/rrrrrr r``."""
    fields = text.split()
    if len(fields) != 2:
        raise BadPosition(
            f"invalid position string: {text!r} (expected the board, a space and r or b)"
        )
    board, side = fields
    if side not in ("r", "b"):
        raise BadPosition(f"invalid position string: {text!r} has bad side {side!r}")
    red, black, size = parse_board(board)
    return Position(red, black, Color(side), size)
