"""The board as SVG for the page: the printed sheet's geometry, the lamps, the pieces.

Everything is placed by the same models the rest of the project uses: the grid,
loops and coordinates by ``vision.board_model`` (the printed sheet, in mm), the
lamps by ``hardware.lamps.LampLayout`` (pitch units, turned into sheet mm). The
drawing is static per board size; the page only switches classes on its
elements (``piece-b2``, ``lamp-inner-sw-0``) and fills in move paths, which the
server sends as SVG path data in the same millimetres.
"""

from __future__ import annotations

import math
from functools import cache

from controller.geometry import CircuitKind, Loop, Station, geometry, point_name
from controller.moves import Move
from hardware.lamps import LampKind, LampLayout
from vision.board_model import BoardModel, LoopArc, board_model

MARGIN_PITCHES = 2.9
"""Room around the grid, in pitches: the outer loops (2) and the coordinates (2.45)."""
PIECE_PITCHES = 0.3
"""Piece radius, in pitches (as the simulator draws them)."""
LAMP_RING_PITCHES = 0.4
"""Radius of a point lamp's ring, outside the piece so a lamp under a piece shows."""
LOOP_LAMP_PITCHES = 0.15
"""Radius of a loop lamp."""
CIRCUIT_CLASS = {CircuitKind.INNER: "inner", CircuitKind.OUTER: "outer"}


def _fmt(value: float) -> str:
    return f"{value:.2f}".rstrip("0").rstrip(".")


def _arc_point(arc: LoopArc, degrees: float) -> tuple[float, float]:
    angle = math.radians(degrees)
    x, y = arc.centre
    return x + arc.radius * math.cos(angle), y + arc.radius * math.sin(angle)


def _arc_of(model: BoardModel, loop: Loop) -> LoopArc:
    """The printed arc of ``loop``: the one of its radius centred on its corner."""
    radius = loop.circuit.line * model.pitch
    ends = (model.point_mm(loop.row_end), model.point_mm(loop.column_end))
    for arc in model.loop_arcs():
        if abs(arc.radius - radius) < 1e-6 and all(
            abs(math.dist(arc.centre, end) - radius) < 1e-6 for end in ends
        ):
            return arc
    raise ValueError(f"no printed arc for loop {loop.name!r}")


def path_data(size: int, stations: tuple[Station, ...]) -> str:
    """SVG path data (sheet mm) of a move's path: straight along lines, round the loops."""
    model = board_model(size)
    parts: list[str] = []
    loop: Loop | None = None
    for station in stations:
        if isinstance(station, Loop):
            loop = station
            continue
        x, y = model.point_mm(station)
        if not parts:
            parts.append(f"M {_fmt(x)} {_fmt(y)}")
        elif loop is not None:
            arc = _arc_of(model, loop)
            end = _arc_point(arc, arc.start_degrees + arc.sweep_degrees)
            # The printed arc runs clockwise on the page from its start to its end;
            # a piece arriving at the end came that way, one arriving at the start the
            # other way round.
            sweep = 1 if math.dist((x, y), end) < 1e-6 else 0
            r = _fmt(arc.radius)
            parts.append(f"A {r} {r} 0 1 {sweep} {_fmt(x)} {_fmt(y)}")
        else:
            parts.append(f"L {_fmt(x)} {_fmt(y)}")
        loop = None
    return " ".join(parts)


def move_path(size: int, move: Move) -> str:
    """SVG path data of ``move`` (a step's path is its two points)."""
    stations = move.path or (move.origin, move.destination)
    return path_data(size, stations)


def view_box(size: int) -> tuple[float, float, float, float]:
    """The part of the sheet the page shows: the grid, the loops and the coordinates."""
    model = board_model(size)
    left, top = model.grid_position(-MARGIN_PITCHES, size - 1 + MARGIN_PITCHES)
    side = (size - 1 + 2 * MARGIN_PITCHES) * model.pitch
    return left, top, side, side


@cache
def board_svg(layout: LampLayout) -> str:
    """The static drawing of a board with ``layout``'s lamps: sheet, lines, loops, labels,
    lamps, pieces."""
    size = layout.size
    model = board_model(size)
    pitch = model.pitch
    left, top, side, _ = view_box(size)
    out = [
        f'<svg xmlns="http://www.w3.org/2000/svg" id="board" data-size="{size}" '
        f'viewBox="{_fmt(left)} {_fmt(top)} {_fmt(side)} {_fmt(side)}" role="img" '
        f'aria-label="the board">',
        f'<rect class="sheet" x="{_fmt(left)}" y="{_fmt(top)}" width="{_fmt(side)}" '
        f'height="{_fmt(side)}" rx="{_fmt(pitch * 0.2)}"/>',
        f'<g class="lines" stroke-width="{_fmt(model.line_width * 2)}" fill="none">',
    ]
    last = size - 1
    for i in range(size):
        (x0, y0), (x1, y1) = model.grid_position(i, 0), model.grid_position(i, last)
        out.append(f'<line x1="{_fmt(x0)}" y1="{_fmt(y0)}" x2="{_fmt(x1)}" y2="{_fmt(y1)}"/>')
        (x0, y0), (x1, y1) = model.grid_position(0, i), model.grid_position(last, i)
        out.append(f'<line x1="{_fmt(x0)}" y1="{_fmt(y0)}" x2="{_fmt(x1)}" y2="{_fmt(y1)}"/>')
    for loop in geometry(size).loops:
        arc = _arc_of(model, loop)
        (x0, y0) = _arc_point(arc, arc.start_degrees)
        (x1, y1) = _arc_point(arc, arc.start_degrees + arc.sweep_degrees)
        r = _fmt(arc.radius)
        out.append(f'<path class="loop {CIRCUIT_CLASS[loop.circuit]}" d="M {_fmt(x0)} {_fmt(y0)} '
                   f'A {r} {r} 0 1 1 {_fmt(x1)} {_fmt(y1)}"/>')
    out.append("</g>")
    out.append(f'<g class="labels" font-size="{_fmt(pitch * 0.35)}" text-anchor="middle" '
               'dominant-baseline="central">')
    for text, (x, y) in model.label_positions():
        out.append(f'<text x="{_fmt(x)}" y="{_fmt(y)}">{text}</text>')
    out.append("</g>")
    out.append('<g class="paths"><path id="last-path" class="path last" d=""/>'
               '<path id="lit-path" class="path lit" d=""/></g>')
    out.append('<g class="lamps">')
    for lamp in layout.lamps:
        x, y = model.grid_position(lamp.x, lamp.y)
        radius = LAMP_RING_PITCHES if lamp.kind is LampKind.POINT else LOOP_LAMP_PITCHES
        out.append(f'<circle id="lamp-{lamp.name}" class="lamp {lamp.kind.value}" '
                   f'cx="{_fmt(x)}" cy="{_fmt(y)}" r="{_fmt(radius * pitch)}"/>')
    out.append("</g>")
    out.append('<g class="pieces">')
    for point in geometry(size).points:
        x, y = model.point_mm(point)
        name = point_name(point)
        out.append(f'<circle id="piece-{name}" class="piece" data-point="{name}" '
                   f'cx="{_fmt(x)}" cy="{_fmt(y)}" r="{_fmt(PIECE_PITCHES * pitch)}"/>')
    out.append("</g>\n</svg>\n")
    return "\n".join(out)
