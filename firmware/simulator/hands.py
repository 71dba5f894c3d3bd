"""The player's hand, driven by the mouse: lift, carry and drop pieces on the virtual board.

While the mouse button is down over the board with nothing in it, the hand is over
the board: the camera frames show it (and vision sees the occlusion, as with a real
hand). A hand that has lifted a piece holds it up, out of the camera's view of the
board, as a player does to see the lamps: the board then shows the piece's moves, as
the real one does, until the piece is put down. A
piece dropped on a point of the other colour pushes that piece off to its tray
(a capture done in one movement); dropped off the board it goes to its tray;
dropped on a piece of its own colour it goes back where it came from. A piece
taken from a tray can be put on any empty point.
"""

from __future__ import annotations

from dataclasses import dataclass

from controller.geometry import Point
from controller.position import Color
from firmware.simulation import VirtualBoard
from firmware.simulator.layout import Layout


@dataclass(frozen=True, slots=True)
class Carried:
    """A piece in the hand."""

    color: Color
    """Its colour."""
    origin: Point | None
    """Where it was lifted from; None when it came from a tray."""


class Hands:
    """Mouse actions on a virtual board."""

    def __init__(self, board: VirtualBoard, layout: Layout) -> None:
        self.board = board
        self.layout = layout
        self.carried: Carried | None = None
        """The piece being dragged, if any."""
        self.mouse: tuple[float, float] = (0.0, 0.0)
        """Last mouse position, pixels."""
        self.down = False
        """Whether the hand is down (mouse button held)."""

    def total(self, color: Color) -> int:
        """How many pieces of ``color`` the set has."""
        return 2 * self.board.size

    def tray_count(self, color: Color) -> int:
        """Pieces of ``color`` lying in its tray: neither on the board nor in the hand."""
        on_board = sum(1 for c in self.board.pieces.values() if c is color)
        carried = 1 if self.carried is not None and self.carried.color is color else 0
        return max(0, self.total(color) - on_board - carried)

    def _follow(self, pos: tuple[float, float]) -> None:
        self.mouse = pos
        view = self.layout.board
        if self.down and self.carried is None and view.is_over_sheet(pos):
            self.board.hand = view.grid(*pos)
        else:
            self.board.hand = None

    def press(self, pos: tuple[float, float]) -> None:
        """The hand comes down: picks up the piece under it, or one from a tray."""
        self.down = True
        self._follow(pos)
        view = self.layout.board
        point = view.snap(pos)
        if point is not None and point in self.board.pieces:
            x, y = view.point_pixel(point)
            if (x - pos[0]) ** 2 + (y - pos[1]) ** 2 <= (0.5 * view.pitch) ** 2:
                self.carried = Carried(self.board.pieces.pop(point), point)
                self.board.hand = None  # lifted out of the camera's view
                return
        tray = self.layout.tray_at(pos)
        if tray is not None and self.tray_count(tray) > 0:
            self.carried = Carried(tray, None)
            self.board.hand = None

    def move(self, pos: tuple[float, float]) -> None:
        """The hand moves (carrying its piece, if any)."""
        self._follow(pos)

    def release(self, pos: tuple[float, float]) -> None:
        """The hand lets go and leaves the board."""
        self._follow(pos)
        carried, self.carried = self.carried, None
        self.down = False
        self.board.hand = None
        if carried is None:
            return
        target = self.layout.board.snap(pos)
        if target is None:
            return  # off the board: into its tray
        standing = self.board.pieces.get(target)
        if standing is None or standing is not carried.color:
            # An opponent's piece is pushed off to its tray: a capture in one movement.
            self.board.pieces[target] = carried.color
        elif carried.origin is not None:
            self.board.pieces[carried.origin] = carried.color

    def arrange(self, pieces: dict[Point, Color]) -> None:
        """Set the pieces out as given (both hands tidying the board at once)."""
        self.carried = None
        self.board.pieces.clear()
        self.board.pieces.update(pieces)
        self.board.held.clear()
