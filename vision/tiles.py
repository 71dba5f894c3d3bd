"""A board of any pitch: its drawing, and that drawing split over sheets with alignment marks.

A larger board is the printed sheet's own board scaled up, markers and all. A camera
cannot tell a board k times larger from the sheet's board seen from k times nearer,
so calibration and reading work unchanged on it (the pieces' height it learns is in
the sheet's millimetres, k times smaller than the real one, which is all it needs).

Tiling: each sheet prints a window of the drawing as large as its printable area.
Neighbouring windows overlap by ``OVERLAP_MM``; both sheets print the same alignment
crosses at the two ends of the seam, in the middle of the overlap (in the blank
border, where the camera reads nothing), and the later sheet (right or below) a
dashed line along the seam. Trim each sheet along its dashed lines, lay it over its neighbour with
the crosses on top of each other, and glue.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, replace

import numpy as np

from controller.errors import BadOption
from vision.board_model import (
    DISC_PITCHES,
    SHEET_MARGIN_MM,
    BoardModel,
    LoopArc,
    Paper,
    board_model,
    extent_pitches,
)
from vision.sheet import Arc, Box, Label, Line, Shape, board_shapes, draw_shapes

BORDER_MM = 14.0
"""Paper round the drawing of a large board: the alignment crosses are printed there,
clear of anything the camera reads."""
OVERLAP_MM = 16.0
"""How far neighbouring sheets overlap."""
MARK_MM = 10.0
"""Length of each arm of an alignment cross."""
MARK_LINE_MM = 0.2
DASH_MM = (4.0, 3.0)
"""Dashed cut line: ink, gap."""
PIECE_SHARE = (0.6, 0.75)
"""Piece diameters that play well, as shares of the pitch: room for fingers between
neighbours (a piece may be at most ``DISC_PITCHES`` of the pitch)."""


@dataclass(frozen=True, slots=True)
class LargeBoard:
    """The board of ``size`` lines at ``pitch`` mm, drawn on a square of side ``side`` mm."""

    size: int
    """Lines per side."""
    pitch: float
    """mm between neighbouring points."""

    @property
    def model(self) -> BoardModel:
        """The A4 sheet's board, of which this one is a scaled copy."""
        return board_model(self.size)

    @property
    def scale(self) -> float:
        """This board's mm per mm of the A4 sheet's board."""
        return self.pitch / self.model.pitch

    @property
    def side(self) -> float:
        """Side of the drawing's square (markers and a blank border included), mm."""
        return extent_pitches(self.size) * self.pitch + 2 * BORDER_MM

    def position(self, xy: tuple[float, float]) -> tuple[float, float]:
        """Where a point of the A4 sheet's board (mm on that sheet) lies on this drawing."""
        model = self.model
        middle = (model.size - 1) * model.pitch / 2
        centre = (model.grid_left + middle, model.grid_top + middle)
        return (self.side / 2 + (xy[0] - centre[0]) * self.scale,
                self.side / 2 + (xy[1] - centre[1]) * self.scale)

    def point(self, x: float, y: float) -> tuple[float, float]:
        """Where grid coordinates (file index x, rank index y, a1 at 0, 0) lie, mm."""
        return self.position(self.model.grid_position(x, y))

    def shapes(self) -> list[Shape]:
        """The drawing, in mm from its top-left corner."""
        return [self._moved(shape) for shape in board_shapes(self.model)]

    def piece_range(self) -> tuple[float, float, float]:
        """Piece diameters that play well (least, most) and the largest that fits, mm."""
        return (PIECE_SHARE[0] * self.pitch, PIECE_SHARE[1] * self.pitch,
                DISC_PITCHES * self.pitch)

    def _moved(self, shape: Shape) -> Shape:
        k = self.scale
        if isinstance(shape, Line):
            return Line(self.position(shape.start), self.position(shape.end), shape.width * k)
        if isinstance(shape, Arc):
            loop = shape.loop
            return Arc(LoopArc(self.position(loop.centre), loop.radius * k, loop.start_degrees,
                               loop.sweep_degrees), shape.width * k)
        if isinstance(shape, Box):
            left, top = self.position((shape.left, shape.top))
            return Box(left, top, shape.width * k, shape.height * k)
        return replace(shape, centre=self.position(shape.centre), height=shape.height * k)


def pitch_for_piece(piece: float) -> float:
    """The pitch (to half a mm) at which pieces ``piece`` mm across play well."""
    return math.ceil(piece / PIECE_SHARE[1] * 2) / 2


@dataclass(frozen=True, slots=True)
class Tile:
    """One sheet of a tiled board."""

    row: int
    """0 at the top."""
    column: int
    """0 at the left."""
    left: float
    """x on the drawing of the sheet's printable area's left edge, mm."""
    top: float
    """y on the drawing of its top edge, mm."""
    width: float
    """Sheet width as it lies (portrait or landscape), mm."""
    height: float
    """Sheet height as it lies, mm."""

    @property
    def name(self) -> str:
        """Row letter and column number, as printed on the sheet: A1 top-left."""
        return f"{chr(ord('A') + self.row)}{self.column + 1}"

    def on_page(self, xy: tuple[float, float]) -> tuple[float, float]:
        """Where a point of the drawing lies on this sheet, mm from its top-left corner."""
        return xy[0] - self.left + SHEET_MARGIN_MM, xy[1] - self.top + SHEET_MARGIN_MM

    @property
    def printable(self) -> tuple[float, float, float, float]:
        """The printable area on the sheet: left, top, width, height in mm."""
        return (SHEET_MARGIN_MM, SHEET_MARGIN_MM, self.width - 2 * SHEET_MARGIN_MM,
                self.height - 2 * SHEET_MARGIN_MM)


@dataclass(frozen=True, slots=True)
class Tiling:
    """A drawing of side ``side`` mm split over ``rows`` x ``columns`` sheets."""

    side: float
    """mm."""
    paper: Paper
    """The sheet size."""
    landscape: bool
    """Whether the sheets lie landscape."""
    rows: int
    columns: int

    @property
    def sheet(self) -> tuple[float, float]:
        """Sheet width and height as the sheets lie, mm."""
        width, height = self.paper.value
        return (height, width) if self.landscape else (width, height)

    @property
    def step(self) -> tuple[float, float]:
        """How far one sheet's window is from the next, across and down, mm."""
        width, height = self.sheet
        return (width - 2 * SHEET_MARGIN_MM - OVERLAP_MM, height - 2 * SHEET_MARGIN_MM - OVERLAP_MM)

    def tiles(self) -> list[Tile]:
        """The sheets, row by row from the top-left."""
        width, height = self.sheet
        step_x, step_y = self.step
        return [Tile(row, column, column * step_x, row * step_y, width, height)
                for row in range(self.rows) for column in range(self.columns)]

    def seams(self) -> tuple[list[float], list[float]]:
        """x of each vertical seam and y of each horizontal one on the drawing, mm: the
        middle of an overlap."""
        step_x, step_y = self.step
        return ([column * step_x + OVERLAP_MM / 2 for column in range(1, self.columns)],
                [row * step_y + OVERLAP_MM / 2 for row in range(1, self.rows)])


def tiling(side: float, paper: Paper) -> Tiling:
    """The fewest sheets of ``paper`` that cover a square drawing of ``side`` mm."""
    choices = []
    for landscape in (False, True):
        trial = Tiling(side, paper, landscape, 1, 1)
        step_x, step_y = trial.step
        columns = max(1, math.ceil((side - OVERLAP_MM) / step_x))
        rows = max(1, math.ceil((side - OVERLAP_MM) / step_y))
        choices.append(Tiling(side, paper, landscape, rows, columns))
    return min(choices, key=lambda choice: (choice.rows * choice.columns, choice.landscape))


def _dashed(start: tuple[float, float], end: tuple[float, float]) -> list[Shape]:
    length = math.dist(start, end)
    ink, gap = DASH_MM
    dashes: list[Shape] = []
    at = 0.0
    while at < length:
        stop = min(length, at + ink)
        dashes.append(Line(_along(start, end, at / length), _along(start, end, stop / length),
                           MARK_LINE_MM))
        at += ink + gap
    return dashes


def _along(start: tuple[float, float], end: tuple[float, float], share: float
           ) -> tuple[float, float]:
    return start[0] + (end[0] - start[0]) * share, start[1] + (end[1] - start[1]) * share


def _cross(centre: tuple[float, float]) -> list[Shape]:
    x, y = centre
    half = MARK_MM / 2
    return [Line((x - half, y), (x + half, y), MARK_LINE_MM),
            Line((x, y - half), (x, y + half), MARK_LINE_MM)]


def alignment_marks(layout: Tiling) -> list[Shape]:
    """Crosses at both ends of every seam (on the drawing, mm): each on both its sheets."""
    vertical, horizontal = layout.seams()
    ends = (BORDER_MM / 2, layout.side - BORDER_MM / 2)
    marks: list[Shape] = []
    for x in vertical:
        marks.extend(shape for y in ends for shape in _cross((x, y)))
    for y in horizontal:
        marks.extend(shape for x in ends for shape in _cross((x, y)))
    return marks


def tile_shapes(board: LargeBoard, layout: Tiling, tile: Tile) -> list[Shape]:
    """What ``tile``'s sheet prints, in mm on the sheet (clip it to its printable area)."""
    vertical, horizontal = layout.seams()
    drawn: list[Shape] = [*board.shapes(), *alignment_marks(layout)]
    # The cut lines: on the later sheet of each seam, along the seam.
    if tile.column > 0:
        x = vertical[tile.column - 1]
        drawn.extend(_dashed((x, tile.top), (x, tile.top + tile.height)))
    if tile.row > 0:
        y = horizontal[tile.row - 1]
        drawn.extend(_dashed((tile.left, y), (tile.left + tile.width, y)))
    on_sheet = [_shifted(shape, tile) for shape in drawn]
    left, top, width, height = tile.printable
    count = layout.rows * layout.columns
    note = (f"sheet {tile.name} of {count} ({layout.rows} rows of {layout.columns}, A1 top left)"
            f" - Surakarta {board.size}x{board.size}, pitch {board.pitch:g} mm - print at 100%,"
            " trim the dashed lines, lay over the neighbour with the crosses matched, glue")
    # Along the bottom of the printable area: under the sheet below once glued.
    on_sheet.append(Label(note, (left + width / 2, top + height - OVERLAP_MM / 4), 2.0))
    return on_sheet


def _shifted(shape: Shape, tile: Tile) -> Shape:
    if isinstance(shape, Line):
        return Line(tile.on_page(shape.start), tile.on_page(shape.end), shape.width)
    if isinstance(shape, Arc):
        return Arc(replace(shape.loop, centre=tile.on_page(shape.loop.centre)), shape.width)
    if isinstance(shape, Box):
        left, top = tile.on_page((shape.left, shape.top))
        return Box(left, top, shape.width, shape.height)
    return replace(shape, centre=tile.on_page(shape.centre))


def large_board(size: int, pitch: float) -> LargeBoard:
    """The board of ``size`` at ``pitch`` mm; raises BadOption below the A4 sheet's pitch."""
    least = board_model(size).pitch
    if not (math.isfinite(pitch) and pitch >= least):
        raise BadOption(f"invalid pitch: {pitch!r} (expected at least {least:g} mm, "
                            f"the A4 sheet's, for a {size}x{size} board)")
    return LargeBoard(size, pitch)


def printed_tile(board: LargeBoard, layout: Tiling, tile: Tile, pixels_per_mm: float
                 ) -> np.ndarray:
    """The sheet ``tile`` as a printer prints it (nothing in its margins), greyscale."""
    image = np.full((round(tile.height * pixels_per_mm), round(tile.width * pixels_per_mm)), 255,
                    np.uint8)
    draw_shapes(image, tile_shapes(board, layout, tile), pixels_per_mm)
    left, top, width, height = (round(value * pixels_per_mm) for value in tile.printable)
    printed = np.full_like(image, 255)
    printed[top:top + height, left:left + width] = image[top:top + height, left:left + width]
    return printed


def glued(board: LargeBoard, layout: Tiling, pixels_per_mm: float) -> np.ndarray:
    """The drawing the printed sheets make once trimmed and glued as their notes say:
    each sheet cut along its dashed lines and laid over its neighbours, greyscale."""
    side = round(layout.side * pixels_per_mm)
    vertical, horizontal = layout.seams()
    cuts_x = [0.0, *vertical, math.inf]
    cuts_y = [0.0, *horizontal, math.inf]
    board_image = np.full((side, side), 255, np.uint8)
    # Sheets lie right over left and lower over upper: draw in that order, each from its cuts.
    for tile in layout.tiles():
        printed = printed_tile(board, layout, tile, pixels_per_mm)
        x0 = round(cuts_x[tile.column] * pixels_per_mm)
        y0 = round(cuts_y[tile.row] * pixels_per_mm)
        x1 = min(side, round((tile.left + tile.width - 2 * SHEET_MARGIN_MM) * pixels_per_mm))
        y1 = min(side, round((tile.top + tile.height - 2 * SHEET_MARGIN_MM) * pixels_per_mm))
        dx = round((tile.left - SHEET_MARGIN_MM) * pixels_per_mm)
        dy = round((tile.top - SHEET_MARGIN_MM) * pixels_per_mm)
        board_image[y0:y1, x0:x1] = printed[y0 - dy:y1 - dy, x0 - dx:x1 - dx]
    return board_image
