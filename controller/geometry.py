"""Board geometry: points, the two circuits and their loops, computed once per size.

A point is an ``int`` index ``y * STRIDE + x`` with a fixed stride of 8 whatever the
board size, so a point's name never depends on the board and bitboards need no
edge masks: column 7 (and row 7 on a 6x6 board) is off the board, so a shifted
bit that walks off an edge lands on a bit that no board mask contains.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum
from functools import cache

from controller.errors import BadPoint

Point = int
"""A point of the board: ``y * STRIDE + x``."""

STRIDE = 8
SIZES = (6, 7)
FILES = "abcdefg"

# Bit shifts of the eight step directions (orthogonal first).
ORTHOGONAL_SHIFTS = (1, -1, STRIDE, -STRIDE)
DIAGONAL_SHIFTS = (STRIDE + 1, STRIDE - 1, -STRIDE + 1, -STRIDE - 1)


def point_at(x: int, y: int) -> Point:
    """The point at file index ``x`` and rank index ``y`` (both from 0)."""
    return y * STRIDE + x


def point_xy(point: Point) -> tuple[int, int]:
    """File index and rank index of a point."""
    return point % STRIDE, point // STRIDE


def point_name(point: Point) -> str:
    """Chess-like name of a point: ``a1`` is bottom-left."""
    x, y = point_xy(point)
    return f"{FILES[x]}{y + 1}"


def parse_point(name: str, size: int = 7) -> Point:
    """The point named ``name`` on a board of ``size`` lines; raises BadPoint."""
    text = name.strip().lower()
    if len(text) != 2 or text[0] not in FILES[:size] or not text[1].isdigit():
        raise BadPoint(f"invalid point: {name!r}")
    y = int(text[1]) - 1
    if not 0 <= y < size:
        raise BadPoint(f"invalid point: {name!r}")
    return point_at(FILES.index(text[0]), y)


def bit(point: Point) -> int:
    """The bitboard with only ``point`` set."""
    return 1 << point


def points_of(bitboard: int) -> list[Point]:
    """The points set in a bitboard, in increasing order."""
    points = []
    while bitboard:
        low = bitboard & -bitboard
        points.append(low.bit_length() - 1)
        bitboard ^= low
    return points


class CircuitKind(Enum):
    """The two circuits: small loops (inner) and large loops (outer)."""

    INNER = "inner"
    OUTER = "outer"

    @property
    def line(self) -> int:
        """Distance of the circuit's lines from the board edge."""
        return 1 if self is CircuitKind.INNER else 2


class Corner(Enum):
    """The board corner a loop sits outside of."""

    SW = "sw"
    SE = "se"
    NE = "ne"
    NW = "nw"


@dataclass(frozen=True, slots=True)
class Loop:
    """A loop outside a corner, joining the end of a row to the end of a column."""

    circuit: CircuitKind
    """Which circuit the loop belongs to."""
    corner: Corner
    """The corner it sits outside of."""
    row_end: Point
    """The end of the row (rank) the loop joins, e.g. ``a2`` for the inner SW loop."""
    column_end: Point
    """The end of the column (file) the loop joins, e.g. ``b1`` for the inner SW loop."""

    @property
    def name(self) -> str:
        """Name such as ``inner-sw``."""
        return f"{self.circuit.value}-{self.corner.value}"

    def __str__(self) -> str:
        return self.name


Station = Point | Loop
"""One element of a move path: a point passed, or a loop taken."""


@dataclass(frozen=True, slots=True)
class Circuit:
    """One closed circuit as a cyclic sequence of stations, with a loop between lines."""

    kind: CircuitKind
    """Inner or outer."""
    stations: tuple[Point, ...]
    """Points in travel order; crossing points appear twice. Length ``4 * size``."""
    loop_after: tuple[Loop | None, ...]
    """``loop_after[i]`` is the loop between station ``i`` and ``i + 1`` (cyclically)."""
    mask: int
    """Bitboard of every point on the circuit."""


def _build_circuit(size: int, kind: CircuitKind) -> Circuit:
    lo, hi, last = kind.line, size - 1 - kind.line, size - 1
    # One lap, as docs/RULES.md walks it: along rank lo, loop SE, up file hi, loop NE,
    # back along rank hi, loop NW, down file lo, loop SW to the start.
    lines = [
        ([point_at(x, lo) for x in range(size)], Corner.SE),
        ([point_at(hi, y) for y in range(size)], Corner.NE),
        ([point_at(x, hi) for x in range(last, -1, -1)], Corner.NW),
        ([point_at(lo, y) for y in range(last, -1, -1)], Corner.SW),
    ]
    loops = {
        Corner.SE: Loop(kind, Corner.SE, point_at(last, lo), point_at(hi, 0)),
        Corner.NE: Loop(kind, Corner.NE, point_at(last, hi), point_at(hi, last)),
        Corner.NW: Loop(kind, Corner.NW, point_at(0, hi), point_at(lo, last)),
        Corner.SW: Loop(kind, Corner.SW, point_at(0, lo), point_at(lo, 0)),
    }
    stations: list[Point] = []
    loop_after: list[Loop | None] = []
    for line, corner in lines:
        stations.extend(line)
        loop_after.extend([None] * (size - 1) + [loops[corner]])
    mask = 0
    for point in stations:
        mask |= bit(point)
    return Circuit(kind, tuple(stations), tuple(loop_after), mask)


@dataclass(frozen=True)
class Geometry:
    """Every fixed table of one board size."""

    size: int
    """Lines per side: 6 (standard) or 7 (bas-basan sepur)."""
    points: tuple[Point, ...]
    """All points, a1 first, rank by rank."""
    board_mask: int
    """Bitboard of every point."""
    circuits: tuple[Circuit, Circuit]
    """Inner circuit, then outer circuit."""
    step_targets: tuple[int, ...]
    """``step_targets[p]``: bitboard of the 8 neighbours of point p (indexed by point)."""
    orthogonal_targets: tuple[int, ...]
    """``orthogonal_targets[p]``: bitboard of the 4 orthogonal neighbours of p."""

    @property
    def loops(self) -> tuple[Loop, ...]:
        """All eight loops, inner first."""
        return tuple(
            loop for circuit in self.circuits for loop in circuit.loop_after if loop is not None
        )

    def is_on_board(self, point: Point) -> bool:
        """Whether ``point`` is a point of this board."""
        return 0 <= point < STRIDE * STRIDE and bool(self.board_mask >> point & 1)


@cache
def geometry(size: int) -> Geometry:
    """The geometry of a ``size`` x ``size`` board, built once."""
    if size not in SIZES:
        raise ValueError(f"unsupported board size: {size!r} (expected 6 or 7)")
    points = tuple(point_at(x, y) for y in range(size) for x in range(size))
    board_mask = sum(bit(p) for p in points)

    def neighbours(point: Point, shifts: tuple[int, ...]) -> int:
        targets = 0
        for shift in shifts:
            target = point + shift
            if 0 <= target < STRIDE * STRIDE and board_mask >> target & 1:
                targets |= bit(target)
        return targets

    step_targets = [0] * (STRIDE * STRIDE)
    orthogonal_targets = [0] * (STRIDE * STRIDE)
    for point in points:
        step_targets[point] = neighbours(point, ORTHOGONAL_SHIFTS + DIAGONAL_SHIFTS)
        orthogonal_targets[point] = neighbours(point, ORTHOGONAL_SHIFTS)
    circuits = (_build_circuit(size, CircuitKind.INNER), _build_circuit(size, CircuitKind.OUTER))
    return Geometry(
        size, points, board_mask, circuits, tuple(step_targets), tuple(orthogonal_targets)
    )
