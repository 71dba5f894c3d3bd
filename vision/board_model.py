"""The printed board, in millimetres: one model for the printer, the vision and the renderer.

Coordinates are millimetres on the sheet, origin at its top-left corner, x to the
right and y down (the way the sheet is printed and the way images are indexed).
Rank 1 is at the bottom of the sheet, so point ``a1`` is the bottom-left grid point.

Layout decisions, all in units of the grid pitch ``p`` so that a board printed on
A3 is the same board as on A4, only larger:

- the loops are 3/4 circles centred on the corner points, radius ``p`` (inner)
  and ``2p`` (outer), joining the end of row k to the end of column k;
- the coordinates (files below and above, ranks left and right) sit in a band
  just beyond the outer loops, where no loop line passes;
- one ArUco marker (4x4 dictionary, side ``p``) sits diagonally outside each
  corner, clear of the outer loop. A 6x6 board uses ids 0-3 and a 7x7 board ids
  4-7, so a camera can tell the board size from the markers alone. Within a set
  the ids go anticlockwise from the ``a1`` corner: +0 near ``a1``, +1 near the
  bottom-right corner, +2 top-right, +3 top-left;
- pieces are discs of at most ``0.8p`` (``disc_diameter``), leaving a gap between
  neighbours for fingers and for the paper the vision judges the light by;
- the paper samples (``cell_centres``) are the centres of the grid squares,
  including the half-squares just outside the grid: no piece, line or loop ever
  covers them, so they show bare paper unless something is in the way.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from enum import Enum
from functools import cache

from controller.geometry import (
    FILES,
    SIZES,
    Corner,
    Point,
    geometry,
    point_at,
    point_name,
    point_xy,
)

MarkerCorners = tuple[tuple[float, float], ...]
"""A marker's four corners in mm: top-left, top-right, bottom-right, bottom-left (as printed)."""

ARUCO_DICTIONARY = "DICT_4X4_50"
"""Name of the ``cv2.aruco`` predefined dictionary the markers come from."""

MARKER_SIDE_PITCHES = 1.0
"""Marker side, in pitches."""
MARKER_CLEARANCE_PITCHES = 0.3
"""Gap between the outer loop and the nearest marker corner, in pitches."""
LABEL_DISTANCE_PITCHES = 2.45
"""Distance of the coordinate labels from the outermost grid line, in pitches."""
DISC_PITCHES = 0.8
"""Largest disc diameter that fits a point, in pitches."""
LINE_WIDTH_PITCHES = 0.03
"""Printed line width, in pitches."""
SHEET_MARGIN_MM = 7.0
"""Unprinted border of the sheet (printers cannot print to the edge)."""


class Paper(Enum):
    """Sheet sizes the board can be printed on; the value is (width, height) in mm."""

    A4 = (210.0, 297.0)
    A3 = (297.0, 420.0)

    @property
    def width(self) -> float:
        """Sheet width in mm (portrait)."""
        return self.value[0]

    @property
    def height(self) -> float:
        """Sheet height in mm (portrait)."""
        return self.value[1]


def parse_paper(text: str) -> Paper:
    """``a4``/``a3`` (any case) to a Paper; raises ValueError."""
    try:
        return Paper[text.strip().upper()]
    except KeyError:
        raise ValueError(f"invalid paper size: {text!r} (expected a4 or a3)") from None


def marker_ids(size: int) -> tuple[int, int, int, int]:
    """Marker ids of a ``size`` board: near a1, bottom-right, top-right, top-left."""
    base = 0 if size == 6 else 4
    return (base, base + 1, base + 2, base + 3)


def size_of_marker(marker_id: int) -> int | None:
    """The board size a marker id belongs to, or None for a foreign marker."""
    for size in SIZES:
        if marker_id in marker_ids(size):
            return size
    return None


def _marker_offset_pitches() -> float:
    """Distance, along each axis, from a corner point to the centre of its marker."""
    # The marker corner nearest the board lies on the diagonal; keep it clear of the
    # outer loop (radius 2) by the clearance.
    return MARKER_SIDE_PITCHES / 2 + (2 + MARKER_CLEARANCE_PITCHES) / math.sqrt(2)


def extent_pitches(size: int) -> float:
    """Width of the printed square (markers included), in pitches."""
    return (size - 1) + 2 * (_marker_offset_pitches() + MARKER_SIDE_PITCHES / 2)


@dataclass(frozen=True, slots=True)
class LoopArc:
    """One loop as drawn: a 3/4 circle, angles in degrees measured from +x towards +y (down)."""

    centre: tuple[float, float]
    """The corner point the loop goes round, mm."""
    radius: float
    """Radius in mm: one pitch (inner) or two (outer)."""
    start_degrees: float
    """Where the arc starts."""
    sweep_degrees: float
    """How far it runs, increasing angle (always 270)."""


# For each corner: grid offsets of the corner point (as fractions of size - 1, in
# sheet axes, y down) and the start angle of the 3/4 circle that avoids the board.
_CORNER_LAYOUT: dict[Corner, tuple[int, int, float]] = {
    Corner.SW: (0, 1, 0.0),
    Corner.SE: (1, 1, 270.0),
    Corner.NE: (1, 0, 180.0),
    Corner.NW: (0, 0, 90.0),
}


@dataclass(frozen=True, slots=True)
class BoardModel:
    """Where everything of a printed board is, in mm on the sheet."""

    size: int
    """Lines per side: 6 or 7."""
    paper: Paper
    """The sheet it is printed on."""
    pitch: float
    """Grid spacing, mm."""
    grid_left: float
    """x of the leftmost grid line (file a), mm."""
    grid_top: float
    """y of the topmost grid line (the last rank), mm."""

    @property
    def disc_diameter(self) -> float:
        """Largest disc that fits a point without touching its neighbours' discs, mm."""
        return DISC_PITCHES * self.pitch

    @property
    def line_width(self) -> float:
        """Printed line width, mm."""
        return LINE_WIDTH_PITCHES * self.pitch

    @property
    def marker_side(self) -> float:
        """Side of each ArUco marker (black border included), mm."""
        return MARKER_SIDE_PITCHES * self.pitch

    @property
    def span(self) -> float:
        """Distance between the first and last grid lines, mm."""
        return (self.size - 1) * self.pitch

    @property
    def points(self) -> tuple[Point, ...]:
        """All points, a1 first, rank by rank."""
        return geometry(self.size).points

    def point_mm(self, point: Point) -> tuple[float, float]:
        """Centre of a point on the sheet, mm."""
        x, y = point_xy(point)
        return self.grid_position(x, y)

    def grid_position(self, x: float, y: float) -> tuple[float, float]:
        """Sheet position (mm) of grid coordinates: file index x, rank index y (fractions ok)."""
        return self.grid_left + x * self.pitch, self.grid_top + (self.size - 1 - y) * self.pitch

    def corner_points(self) -> tuple[Point, Point, Point, Point]:
        """The grid's corner points: a1, then anticlockwise (bottom-right, top-right, top-left)."""
        last = self.size - 1
        return (point_at(0, 0), point_at(last, 0), point_at(last, last), point_at(0, last))

    def loop_arcs(self) -> tuple[LoopArc, ...]:
        """The eight loops: inner ones first."""
        arcs = []
        for pitches in (1, 2):
            for fx, fy, start in _CORNER_LAYOUT.values():
                centre = (self.grid_left + fx * self.span, self.grid_top + fy * self.span)
                arcs.append(LoopArc(centre, pitches * self.pitch, start, 270.0))
        return tuple(arcs)

    def markers(self) -> dict[int, MarkerCorners]:
        """Each marker id to its corners (mm), in the order of :func:`marker_ids`."""
        offset = _marker_offset_pitches() * self.pitch
        half = self.marker_side / 2
        result: dict[int, MarkerCorners] = {}
        corner_points = self.corner_points()
        for marker_id, point in zip(marker_ids(self.size), corner_points, strict=True):
            px, py = self.point_mm(point)
            # Push the marker outwards, away from the board centre, along both axes.
            cx = px + (offset if px > self.grid_left else -offset)
            cy = py + (offset if py > self.grid_top else -offset)
            result[marker_id] = (
                (cx - half, cy - half),
                (cx + half, cy - half),
                (cx + half, cy + half),
                (cx - half, cy + half),
            )
        return result

    def cell_centres(self) -> tuple[tuple[float, float], ...]:
        """Grid coordinates (x, y in points) of the paper samples between and around the points."""
        steps = [i - 0.5 for i in range(self.size + 1)]
        return tuple((x, y) for y in steps for x in steps)

    def label_positions(self) -> list[tuple[str, tuple[float, float]]]:
        """Coordinate labels (files below and above, ranks left and right) and their centres."""
        gap = LABEL_DISTANCE_PITCHES
        labels = []
        for i in range(self.size):
            file_name, rank_name = FILES[i], str(i + 1)
            labels.append((file_name, self.grid_position(i, -gap)))
            labels.append((file_name, self.grid_position(i, self.size - 1 + gap)))
            labels.append((rank_name, self.grid_position(-gap, i)))
            labels.append((rank_name, self.grid_position(self.size - 1 + gap, i)))
        return labels

    def to_json(self, pixels_per_mm: float = 1.0) -> dict[str, object]:
        """The model as JSON-ready data, scaled (e.g. to the PNG's pixels at 300 dpi)."""

        def scaled(xy: tuple[float, float]) -> list[float]:
            return [round(xy[0] * pixels_per_mm, 3), round(xy[1] * pixels_per_mm, 3)]

        return {
            "size": self.size,
            "paper": self.paper.name.lower(),
            "units": "mm" if pixels_per_mm == 1.0 else f"{pixels_per_mm:.6f} px/mm",
            "points": {point_name(p): scaled(self.point_mm(p)) for p in self.points},
            "pitch": round(self.pitch * pixels_per_mm, 3),
            "disc_diameter": round(self.disc_diameter * pixels_per_mm, 3),
            "markers": {
                str(marker_id): [scaled(c) for c in corners]
                for marker_id, corners in self.markers().items()
            },
            "aruco_dictionary": ARUCO_DICTIONARY,
        }


@cache
def board_model(size: int = 6, paper: Paper = Paper.A4) -> BoardModel:
    """The board of ``size`` lines printed as large as fits on ``paper``, centred."""
    if size not in SIZES:
        raise ValueError(f"unsupported board size: {size!r} (expected 6 or 7)")
    usable = paper.width - 2 * SHEET_MARGIN_MM
    # Round the pitch down to half a millimetre so that it is easy to check with a ruler.
    pitch = math.floor(usable / extent_pitches(size) * 2) / 2
    span = (size - 1) * pitch
    return BoardModel(
        size=size,
        paper=paper,
        pitch=pitch,
        grid_left=(paper.width - span) / 2,
        grid_top=(paper.height - span) / 2,
    )
