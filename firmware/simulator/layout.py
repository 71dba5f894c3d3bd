"""Where everything sits in the window: the board, the trays, the panel, the buttons.

Pure geometry (no pygame), so the mouse handling and the drawing agree and tests can
aim at points. The board is drawn with ``a1`` at the bottom left, like the printed
sheet seen from the red side; grid coordinates are (file, rank) in pitches.
"""

from __future__ import annotations

from dataclasses import dataclass

from controller.geometry import Point, point_at, point_xy
from controller.position import Color

WINDOW_SIZE = (1216, 720)
"""Window width and height in pixels."""
BOARD_SIDE = 700
"""Side of the square the board (with its loops) is drawn in."""
LOOP_MARGIN = 2.5
"""Pitches between the outer grid lines and the edge of the board square: room for
the large loops (radius 2) and their lamps."""
TRAY_WIDTH = 90
"""Width of a tray column."""
PANEL_LEFT = 812
"""Left edge of the side panel."""
CAMERA_VIEW = (384, 288)
"""Size of the camera view in the panel."""
PIECE_RADIUS = 0.3
"""Piece radius in pitches."""
LAMP_RING = (0.34, 0.46)
"""Inner and outer radius of a point lamp's ring, in pitches: outside the piece, so a
lamp under a piece still shows."""
LOOP_LAMP_RADIUS = 0.16
"""Radius of a loop lamp, in pitches."""

Rect = tuple[int, int, int, int]
"""x, y, width, height in pixels."""


def inside(rect: Rect, pos: tuple[float, float]) -> bool:
    """Whether a pixel position lies in a rectangle."""
    x, y, width, height = rect
    return x <= pos[0] < x + width and y <= pos[1] < y + height


@dataclass(frozen=True, slots=True)
class BoardView:
    """The board's place in the window."""

    size: int
    """Lines per side."""
    left: int = 10
    """Left edge of the board square, pixels."""
    top: int = 10
    """Top edge of the board square, pixels."""
    side: int = BOARD_SIDE
    """Side of the board square, pixels."""

    @property
    def pitch(self) -> float:
        """Pixels between neighbouring points."""
        return self.side / (self.size - 1 + 2 * LOOP_MARGIN)

    def pixel(self, x: float, y: float) -> tuple[float, float]:
        """Window position of grid position (file, rank)."""
        pitch = self.pitch
        return (
            self.left + (LOOP_MARGIN + x) * pitch,
            self.top + (LOOP_MARGIN + self.size - 1 - y) * pitch,
        )

    def grid(self, px: float, py: float) -> tuple[float, float]:
        """Grid position (file, rank) of a window position."""
        pitch = self.pitch
        return (
            (px - self.left) / pitch - LOOP_MARGIN,
            self.size - 1 - ((py - self.top) / pitch - LOOP_MARGIN),
        )

    def point_pixel(self, point: Point) -> tuple[float, float]:
        """Window position of a point."""
        x, y = point_xy(point)
        return self.pixel(x, y)

    def is_over_sheet(self, pos: tuple[float, float]) -> bool:
        """Whether the position is over the board square (where a hand shows to the camera)."""
        return inside((self.left, self.top, self.side, self.side), pos)

    def snap(self, pos: tuple[float, float]) -> Point | None:
        """The point a piece dropped here lands on; None outside the grid (off the board)."""
        gx, gy = self.grid(*pos)
        last = self.size - 1
        if not (-0.5 <= gx <= last + 0.5 and -0.5 <= gy <= last + 0.5):
            return None
        x = min(max(round(gx), 0), last)
        y = min(max(round(gy), 0), last)
        return point_at(x, y)


@dataclass(frozen=True, slots=True)
class Layout:
    """The whole window."""

    board: BoardView
    """The board square."""

    @classmethod
    def for_size(cls, size: int) -> Layout:
        return cls(BoardView(size))

    def tray(self, color: Color) -> Rect:
        """Where captured and removed pieces of ``color`` lie: black above, red below."""
        left = self.board.left + self.board.side + 5
        half = self.board.side // 2
        top = self.board.top if color is Color.BLACK else self.board.top + half + 5
        return (left, top, TRAY_WIDTH, half - 5)

    def tray_slot(self, color: Color, index: int) -> tuple[float, float]:
        """Centre of the ``index``-th piece in a tray (two columns, filled from the top)."""
        x, y, width, _ = self.tray(color)
        pitch = self.board.pitch
        column, row = index % 2, index // 2
        return (x + width / 4 + column * width / 2, y + 30 + pitch * (0.35 + row * 0.7))

    def tray_at(self, pos: tuple[float, float]) -> Color | None:
        """The tray under a window position."""
        for color in Color:
            if inside(self.tray(color), pos):
                return color
        return None

    @property
    def camera(self) -> Rect:
        """The camera view in the panel."""
        return (PANEL_LEFT, 10, *CAMERA_VIEW)

    @property
    def text_top(self) -> int:
        """Top of the panel's text, below the camera view."""
        return 10 + CAMERA_VIEW[1] + 8

    def buttons(self, names: tuple[str, ...]) -> dict[str, Rect]:
        """The on-screen buttons, in rows of four at the bottom of the panel."""
        width, height, gap = 92, 32, 6
        rows = -(-len(names) // 4)
        top = WINDOW_SIZE[1] - 10 - rows * (height + gap) + gap
        rects = {}
        for index, name in enumerate(names):
            row, column = divmod(index, 4)
            rects[name] = (
                PANEL_LEFT + column * (width + gap),
                top + row * (height + gap),
                width,
                height,
            )
        return rects
