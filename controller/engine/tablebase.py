"""Endgame tablebases: every position with few pieces, solved exactly.

For each material class (the side to move has ``a`` pieces, the other ``b``) a
table holds one byte per position: a draw, or a win or loss for the side to
move with the number of plies to the end of the game under best play (the
winner hurrying, the loser holding out). ``tablebase_build`` makes them by
retrograde analysis; this module reads and probes them.

The rule set they solve: the standard game's moves (RULES.md), a side without
pieces has lost, and a side with no legal move ends the game on piece count.
Repetition and the no-capture limit are left out, as in chess tablebases; so
"draw" here means that neither side can force a wipe-out, and a game that
reaches one goes on until a repetition or the limit ends it by piece count.
How the two left-out rules can change a result:

- repetition: on a line where the winner always takes a move of least distance,
  every position has a smaller distance than the ones before it, so no position
  of the line can repeat, whatever the loser plays; nor can it repeat a position
  from before the win began (a position before it, with the loser to move, would
  already have been lost, so the win would have begun earlier). A game can only
  end by repetition if the winner strays from the table's moves;
- no-capture limit: a win in ``d`` plies needs at most ``d - 1`` plies without a
  capture before its last capture, so it stands whenever the plies already played
  without a capture plus ``d`` stay within the limit. The search trusts a probe
  only then (``within_limit``), and otherwise searches on as without a table.

Positions are numbered by the combinatorial number system: the side to move's
points as a combination of the board's points, the other side's as a combination
of the points left. Colours do not matter (the rules are the same for both), so
one table serves red and black to move.
"""

from __future__ import annotations

import zlib
from dataclasses import dataclass
from enum import Enum
from functools import cache
from pathlib import Path

from controller.errors import SurakartaError
from controller.geometry import STRIDE, geometry
from controller.variants import Variant

DATA_FOLDER = Path(__file__).parent / "data"
MAGIC = b"surakarta-tablebase"
FORMAT_VERSION = 2
"""1 held every class up to a number of pieces in one compressed block; 2 packs
each class alone, so that a class is unpacked only when a position of it is probed,
and may hold only some classes of the most pieces (those an ending needs most)."""
_ENTRY = 10
"""Bytes of a class's directory entry: its material (2), length (4) and CRC-32 (4)."""
MAX_DISTANCE = 126
"""Longest distance a byte code holds; generation fails loudly beyond it."""

DRAW_CODE = 0
"""Code of a position where neither side can force the end of the game."""


class BadTablebase(SurakartaError, ValueError):
    """A tablebase file that cannot be read, or that does not fit the rules asked for."""


class Result(Enum):
    """A tablebase verdict for the side to move."""

    WIN = "win"
    LOSS = "loss"
    DRAW = "draw"


@dataclass(frozen=True, slots=True)
class Probe:
    """What the table says about one position."""

    result: Result
    """Win, loss or draw for the side to move."""
    plies: int
    """Plies to the end of the game under best play (0 for a draw)."""

    def within_limit(self, plies_without_capture: int, limit: int | None) -> bool:
        """Whether the no-capture limit cannot end the game before this result does."""
        if self.result is Result.DRAW or limit is None:
            return True
        return plies_without_capture + self.plies <= limit

    def describe(self) -> str:
        """In words for the player: ``wins in 7 plies``, ``loses in 4 plies``, ``draw, no
        forced wipe-out``."""
        if self.result is Result.DRAW:
            # Neither side can force a wipe-out; repetition or the no-capture limit then
            # ends the game on piece count, which the tables do not follow.
            return "draw, no forced wipe-out"
        verb = "wins" if self.result is Result.WIN else "loses"
        return f"{verb} in {self.plies} {'ply' if self.plies == 1 else 'plies'}"


def encode(result: Result, plies: int) -> int:
    """The byte code of a verdict: 0 a draw, odd codes wins, even codes losses."""
    if result is Result.DRAW:
        return DRAW_CODE
    if not 0 <= plies <= MAX_DISTANCE:
        raise ValueError(f"distance out of range: {plies!r}")
    return 2 * plies + (1 if result is Result.WIN else 2)


def decode(code: int) -> Probe:
    """The verdict of a byte code."""
    if code == DRAW_CODE:
        return Probe(Result.DRAW, 0)
    if code & 1:
        return Probe(Result.WIN, (code - 1) // 2)
    return Probe(Result.LOSS, (code - 2) // 2)


@dataclass(frozen=True)
class Indexer:
    """Numbers the positions of one board size by material class."""

    size: int
    squares: tuple[int, ...]
    """``squares[point]``: the point's number from 0 in board order (-1 off the board)."""
    binomial: tuple[tuple[int, ...], ...]
    """``binomial[n][k]``: n choose k, for n up to the number of points."""

    @property
    def points(self) -> int:
        """How many points the board has."""
        return self.size * self.size

    def class_size(self, own: int, opp: int) -> int:
        """How many positions have ``own`` pieces to move against ``opp``."""
        n = self.points
        return self.binomial[n][own] * self.binomial[n - own][opp]

    def index(self, own: int, opp: int) -> int:
        """The number of the position ``(own, opp)`` within its material class."""
        squares, binomial = self.squares, self.binomial
        rank, k, pieces = 0, 1, own
        while pieces:
            low = pieces & -pieces
            pieces ^= low
            rank += binomial[squares[low.bit_length() - 1]][k]
            k += 1
        rest, k, pieces = 0, 1, opp
        while pieces:
            low = pieces & -pieces
            pieces ^= low
            # Numbered among the points the side to move leaves free.
            rest += binomial[squares[low.bit_length() - 1] - (own & (low - 1)).bit_count()][k]
            k += 1
        return rank * self.binomial[self.points - own.bit_count()][opp.bit_count()] + rest


@cache
def indexer(size: int) -> Indexer:
    """The position numbering of a board size."""
    board = geometry(size)
    squares = [-1] * (STRIDE * STRIDE)
    for number, point in enumerate(board.points):
        squares[point] = number
    n = len(board.points)
    binomial = [[0] * (n + 1) for _ in range(n + 1)]
    for row in range(n + 1):
        binomial[row][0] = 1
        for k in range(1, row + 1):
            binomial[row][k] = binomial[row - 1][k - 1] + binomial[row - 1][k]
    return Indexer(size, tuple(squares), tuple(tuple(row) for row in binomial))


def material_classes(max_pieces: int) -> list[tuple[int, int]]:
    """Every ``(own, opp)`` class with both sides present, fewest pieces first."""
    return [
        (own, total - own) for total in range(2, max_pieces + 1) for own in range(1, total)
    ]


Material = tuple[int, int]
"""A material class: ``(pieces of the side to move, pieces of the other side)``."""


class Tablebase:
    """The tables of a set of material classes (usually every class up to ``max_pieces``
    pieces), for one rule set.

    A table read from a file stays compressed until a position of its class is first
    probed: a game needs the five-piece tables only at its very end, if at all.
    """

    def __init__(
        self,
        variant: Variant,
        size: int,
        max_pieces: int,
        tables: dict[Material, bytes],
        packed: dict[Material, bytes] | None = None,
    ) -> None:
        self.variant = variant
        self.size = size
        self.max_pieces = max_pieces
        """The most pieces of a class held (the search probes no larger positions)."""
        self.indexer = indexer(size)
        self._tables = dict(tables)
        """The classes unpacked so far."""
        self._packed = dict(packed or {})
        """The classes still compressed, each unpacked on its first probe."""

    @property
    def classes(self) -> list[Material]:
        """Every class held, fewest pieces first."""
        return sorted({*self._tables, *self._packed}, key=lambda m: (sum(m), m))

    @property
    def unpacked(self) -> list[Material]:
        """The classes unpacked so far; the others are still compressed."""
        return sorted(self._tables, key=lambda m: (sum(m), m))

    def table(self, material: Material) -> bytes | None:
        """The codes of one class, unpacked on first use; None when not held."""
        found = self._tables.get(material)
        if found is not None:
            return found
        packed = self._packed.get(material)
        if packed is None:
            return None
        try:
            found = zlib.decompress(packed)
        except zlib.error:
            raise BadTablebase(f"damaged tablebase class: {material!r}") from None
        if len(found) != self.indexer.class_size(*material):
            raise BadTablebase(f"damaged tablebase class: {material!r} has the wrong length")
        # Two threads may unpack the same class at once: both get the same bytes.
        self._tables[material] = found
        return found

    @property
    def tables(self) -> dict[Material, bytes]:
        """Every class, unpacked (for checks and tools; the search probes lazily)."""
        self.unpack()
        return dict(self._tables)

    def unpack(self) -> None:
        """Unpack every class now (then the compressed copies are let go)."""
        for material in list(self._packed):
            self.table(material)
        self._packed.clear()

    def code(self, own: int, opp: int) -> int:
        """The byte code of ``(own, opp)``, side owning ``own`` to move; -1 when not held.

        The fast path for the search: no objects made.
        """
        material = (own.bit_count(), opp.bit_count())
        table = self._tables.get(material)
        if table is None:
            table = self.table(material)
            if table is None:
                return -1
        return table[self.indexer.index(own, opp)]

    def probe(self, own: int, opp: int) -> Probe | None:
        """The verdict for ``(own, opp)`` with the side owning ``own`` to move, or None."""
        code = self.code(own, opp)
        return None if code < 0 else decode(code)

    def covers(self, own: int, opp: int) -> bool:
        """Whether the position is in the tables."""
        material = (own.bit_count(), opp.bit_count())
        return material in self._tables or material in self._packed

    # -- files -----------------------------------------------------------------------

    def to_bytes(self) -> bytes:
        """The file form: a header line (ending in the number of classes); a directory
        of each class's material, compressed length and CRC-32; then the classes, each
        compressed on its own."""
        classes = self.classes
        header = f"{MAGIC.decode()} {FORMAT_VERSION} {self.variant.value} {self.size} "
        header += f"{self.max_pieces} {len(classes)}\n"
        tables = self.tables
        blobs = [zlib.compress(tables[material], 9) for material in classes]
        directory = b"".join(
            bytes(material) + len(blob).to_bytes(4, "big") + zlib.crc32(blob).to_bytes(4, "big")
            for material, blob in zip(classes, blobs, strict=True)
        )
        return header.encode() + directory + b"".join(blobs)

    @classmethod
    def from_bytes(cls, data: bytes, source: str = "tablebase") -> Tablebase:
        """Read the file form (the classes stay packed); raises BadTablebase."""
        header, _, body = data.partition(b"\n")
        fields = header.decode("ascii", "replace").split()
        if len(fields) not in (5, 6) or fields[0] != MAGIC.decode():
            raise BadTablebase(f"not a tablebase file: {source!r}")
        if fields[1] not in ("1", "2") or (len(fields) == 6) != (fields[1] == "2"):
            raise BadTablebase(f"not a tablebase file: {source!r}")
        try:
            variant, size, max_pieces = Variant(fields[2]), int(fields[3]), int(fields[4])
            count = int(fields[5]) if fields[1] == "2" else 0
        except ValueError:
            raise BadTablebase(f"damaged tablebase file: {source!r}") from None
        if fields[1] == "1":
            return cls._from_version_1(variant, size, max_pieces, body, source)
        packed: dict[Material, bytes] = {}
        offset = _ENTRY * count
        for number in range(count):
            entry = body[_ENTRY * number : _ENTRY * number + _ENTRY]
            length, crc = int.from_bytes(entry[2:6], "big"), int.from_bytes(entry[6:], "big")
            blob = body[offset : offset + length]
            if len(entry) != _ENTRY or len(blob) != length or zlib.crc32(blob) != crc:
                raise BadTablebase(f"damaged tablebase file: {source!r}")
            packed[(entry[0], entry[1])] = blob
            offset += length
        if offset != len(body):
            raise BadTablebase(f"damaged tablebase file: {source!r} has the wrong length")
        return cls(variant, size, max_pieces, {}, packed)

    @classmethod
    def _from_version_1(
        cls, variant: Variant, size: int, max_pieces: int, body: bytes, source: str
    ) -> Tablebase:
        """The first format: every class up to ``max_pieces`` in one compressed block."""
        try:
            raw = zlib.decompress(body)
        except zlib.error:
            raise BadTablebase(f"damaged tablebase file: {source!r}") from None
        numbering = indexer(size)
        tables: dict[Material, bytes] = {}
        offset = 0
        for material in material_classes(max_pieces):
            length = numbering.class_size(*material)
            tables[material] = raw[offset : offset + length]
            offset += length
        if offset != len(raw):
            raise BadTablebase(f"damaged tablebase file: {source!r} has the wrong length")
        return cls(variant, size, max_pieces, tables)

    def save(self, path: Path) -> None:
        """Write the file form to ``path``."""
        path.write_bytes(self.to_bytes())

    @classmethod
    def load(cls, path: Path) -> Tablebase:
        """Read a tablebase file; raises BadTablebase (OSError when unreadable)."""
        return cls.from_bytes(path.read_bytes(), str(path))


def default_path(variant: Variant, size: int) -> Path:
    """Where the shipped tables of a rule set live."""
    return DATA_FOLDER / f"{variant.value}-{size}.tb"


@cache
def shipped(variant: Variant, size: int | None = None) -> Tablebase | None:
    """The shipped tables of ``variant`` (read on first use), or None when there are none.

    Every class is unpacked at once (about 11 MB for the standard game, 3 MB for
    Sepur, in 60 ms), so a board's memory levels off at its first search: unpacked
    on the first probe of a position of its material, which a board may first meet
    hours into play, each five-piece class took it up by 2 to 4 MB then.
    """
    path = default_path(variant, variant.size if size is None else size)
    if not path.exists():
        return None
    table = Tablebase.load(path)
    table.unpack()
    return table
