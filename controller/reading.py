"""What the camera saw: the board part of a position, without a side to move."""

from __future__ import annotations

from dataclasses import dataclass

from controller.geometry import Point, points_of
from controller.position import Color, Position, color_at, parse_board


@dataclass(frozen=True, slots=True)
class BoardReading:
    """Which points hold a red piece, a black piece, or nothing, as read from the board."""

    red: int
    """Bitboard of points read as red."""
    black: int
    """Bitboard of points read as black."""
    size: int = 6
    """Lines per side."""

    @classmethod
    def of(cls, position: Position) -> BoardReading:
        """The reading a perfect camera would give of ``position``."""
        return cls(position.red, position.black, position.size)

    @classmethod
    def parse(cls, text: str) -> BoardReading:
        """Parse the board part of a position string (``bbbbbb/.../rrrrrr``)."""
        red, black, size = parse_board(text)
        return cls(red, black, size)

    def piece_at(self, point: Point) -> Color | None:
        """The colour read on ``point``, or None when it looks empty."""
        return color_at(self.red, self.black, point)

    def board_string(self) -> str:
        """The board part of the position string."""
        return Position(self.red, self.black, Color.RED, self.size).board_string()

    def differences(self, position: Position) -> list[Point]:
        """Points whose content differs from ``position``, in increasing order."""
        return points_of((self.red ^ position.red) | (self.black ^ position.black))

    def matches(self, position: Position) -> bool:
        """Whether the board shows exactly ``position``'s pieces."""
        return (self.red, self.black) == (position.red, position.black)

    def __str__(self) -> str:
        return self.board_string()
