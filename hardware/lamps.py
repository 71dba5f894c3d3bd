"""The lamp layout: one lamp under every point and a few along every loop arc.

A lamp is named like what it lights: a point lamp is named after its point
(``b2``); a loop lamp after its loop and its index along the arc
(``inner-sw-0``), counted from the loop's end on a row (``Loop.row_end``).
So ``inner-sw-0`` sits next to ``a2`` and ``inner-sw-2`` next to ``b1``.

Positions are in board pitch units with ``a1`` at (0, 0), x to the right and y
up, so a drawing or a simulator can place every lamp.
"""

from __future__ import annotations

import math
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from enum import Enum
from functools import cached_property

from controller.geometry import (
    CircuitKind,
    Corner,
    Loop,
    Point,
    Station,
    geometry,
    point_name,
    point_xy,
)
from controller.moves import Move

DEFAULT_LOOP_LAMPS = {CircuitKind.INNER: 3, CircuitKind.OUTER: 5}
"""Lamps per loop arc in the default layout: 3 on each small loop, 5 on each large one."""

LOOP_SWEEP_DEGREES = 270.0
"""A loop is three quarters of a circle round the corner point, outside the board."""


class LampKind(Enum):
    """What a lamp lights."""

    POINT = "point"
    """The lamp under a point."""
    LOOP = "loop"
    """One lamp along a loop arc."""


@dataclass(frozen=True, slots=True)
class Lamp:
    """One LED under the board."""

    name: str
    """``b2`` for a point lamp, ``inner-sw-0`` for a loop lamp."""
    kind: LampKind
    """Point or loop lamp."""
    x: float
    """Horizontal position in board pitch units, ``a1`` at 0, growing to the right."""
    y: float
    """Vertical position in board pitch units, ``a1`` at 0, growing upwards."""
    point: Point | None = None
    """The point a point lamp sits under."""
    loop: Loop | None = None
    """The loop a loop lamp sits on."""
    index: int = 0
    """A loop lamp's place on its arc, 0 next to the loop's row end."""


def loop_lamp_name(loop: Loop, index: int) -> str:
    """Name of the ``index``-th lamp of ``loop``: ``inner-sw-0``."""
    return f"{loop.name}-{index}"


def _corner_point(size: int, corner: Corner) -> tuple[int, int]:
    last = size - 1
    return {Corner.SW: (0, 0), Corner.SE: (last, 0), Corner.NE: (last, last), Corner.NW: (0, last)}[
        corner
    ]


def loop_arc(size: int, loop: Loop) -> tuple[float, float, float, float, float]:
    """The loop's arc as ``(centre_x, centre_y, radius, start_degrees, sweep_degrees)``.

    The arc starts at the row end and sweeps 270 degrees round the outside of the
    corner to the column end (positive sweep is anticlockwise).
    """
    cx, cy = _corner_point(size, loop.corner)
    rx, ry = point_xy(loop.row_end)
    kx, ky = point_xy(loop.column_end)
    start = math.degrees(math.atan2(ry - cy, rx - cx))
    end = math.degrees(math.atan2(ky - cy, kx - cx))
    # The short way between the two ends crosses the board; the loop goes the long way.
    sweep = LOOP_SWEEP_DEGREES if round(end - start) % 360 == 270 else -LOOP_SWEEP_DEGREES
    return float(cx), float(cy), float(loop.circuit.line), start, sweep


def _loop_lamps(size: int, loop: Loop, count: int) -> list[Lamp]:
    cx, cy, radius, start, sweep = loop_arc(size, loop)
    lamps = []
    for index in range(count):
        # Evenly spaced strictly inside the arc, so no lamp sits on a board point.
        angle = math.radians(start + sweep * (index + 1) / (count + 1))
        # Rounding keeps drawings stable; adding 0.0 turns -0.0 into 0.0.
        x = round(cx + radius * math.cos(angle), 6) + 0.0
        y = round(cy + radius * math.sin(angle), 6) + 0.0
        lamps.append(Lamp(loop_lamp_name(loop, index), LampKind.LOOP, x, y, loop=loop, index=index))
    return lamps


@dataclass(frozen=True)
class LampLayout:
    """Every lamp of one build: a board size and a lamp count per loop arc."""

    size: int
    """Lines per side of the board: 6 or 7."""
    inner_loop_lamps: int = DEFAULT_LOOP_LAMPS[CircuitKind.INNER]
    """Lamps on each small (inner circuit) loop arc; 0 for none."""
    outer_loop_lamps: int = DEFAULT_LOOP_LAMPS[CircuitKind.OUTER]
    """Lamps on each large (outer circuit) loop arc; 0 for none."""

    def __post_init__(self) -> None:
        geometry(self.size)  # rejects a size the rules do not know
        for circuit in CircuitKind:
            if self.lamps_per_loop(circuit) < 0:
                count = self.lamps_per_loop(circuit)
                raise ValueError(f"invalid lamp count for {circuit.value} loops: {count!r}")

    def lamps_per_loop(self, circuit: CircuitKind) -> int:
        """How many lamps each loop of ``circuit`` has."""
        return self.inner_loop_lamps if circuit is CircuitKind.INNER else self.outer_loop_lamps

    @cached_property
    def lamps(self) -> tuple[Lamp, ...]:
        """Point lamps rank by rank from ``a1``, then each loop's lamps, inner loops first."""
        board = geometry(self.size)
        lamps = []
        for point in board.points:
            x, y = point_xy(point)
            lamps.append(Lamp(point_name(point), LampKind.POINT, float(x), float(y), point=point))
        for loop in board.loops:
            lamps.extend(_loop_lamps(self.size, loop, self.lamps_per_loop(loop.circuit)))
        return tuple(lamps)

    @cached_property
    def _by_name(self) -> dict[str, Lamp]:
        return {lamp.name: lamp for lamp in self.lamps}

    @property
    def names(self) -> tuple[str, ...]:
        """Every lamp's name, in the order of ``lamps``."""
        return tuple(lamp.name for lamp in self.lamps)

    def __len__(self) -> int:
        return len(self.lamps)

    def __iter__(self) -> Iterator[Lamp]:
        return iter(self.lamps)

    def __contains__(self, name: object) -> bool:
        return name in self._by_name

    def lamp(self, name: str) -> Lamp:
        """The lamp called ``name``; raises KeyError for a name not in this layout."""
        try:
            return self._by_name[name]
        except KeyError:
            raise KeyError(f"no lamp named {name!r} on this board") from None

    def loop_lamp_names(self, loop: Loop) -> tuple[str, ...]:
        """A loop's lamps from its row end to its column end."""
        count = self.lamps_per_loop(loop.circuit)
        return tuple(loop_lamp_name(loop, index) for index in range(count))


def default_chain_order(layout: LampLayout) -> tuple[str, ...]:
    """The documented wiring order: points snake rank by rank, then the loops.

    Rank 1 runs ``a1`` to ``f1``, rank 2 back from ``f2`` to ``a2`` and so on, so
    neighbouring outputs sit next to each other under the board. The loop lamps
    follow in the order inner SE, NE, NW, SW, then outer SE, NE, NW, SW, each from
    its row end (index 0) to its column end.
    """
    size = layout.size
    order: list[str] = []
    for y in range(size):
        xs = range(size) if y % 2 == 0 else range(size - 1, -1, -1)
        order.extend(point_name(y * 8 + x) for x in xs)
    for loop in geometry(size).loops:
        order.extend(layout.loop_lamp_names(loop))
    return tuple(order)


def lamps_for_move(layout: LampLayout, move: Move) -> list[str]:
    """The lamps a move passes, in the order the piece travels.

    Points of the path light their own lamps (a point passed twice appears
    twice); a loop lights its lamps from the end the piece enters by. A step
    lights its origin and its target.
    """
    if not move.path:
        return [point_name(move.origin), point_name(move.destination)]
    try:
        return lamps_for_stations(layout, move.path)
    except ValueError as error:
        raise ValueError(f"path of {move.name!r}: {error}") from None


def lamps_for_stations(layout: LampLayout, stations: Sequence[Station]) -> list[str]:
    """The lamps along a sequence of path stations (points and loops), in order."""
    lamps: list[str] = []
    previous: Point | None = None
    for station in stations:
        if isinstance(station, Loop):
            arc = layout.loop_lamp_names(station)
            if previous == station.row_end:
                lamps.extend(arc)
            elif previous == station.column_end:
                lamps.extend(reversed(arc))
            else:
                raise ValueError(f"the path enters loop {station.name!r} mid-air")
        else:
            lamps.append(point_name(station))
            previous = station
    return lamps
