"""Legal move generation, making moves, and perft.

Steps come from bit shifts of the side's bitboard. Circuit trips (captures and
slides) depend only on which points of one circuit are occupied by whom, so they
are computed once per circuit occupancy and kept in a table: the same idea as
precomputed attack tables in chess programs, filled lazily.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field
from functools import cache

from controller.cache_budget import BUDGET
from controller.circuit_scan import NO_LANDING, scan_circuit
from controller.errors import AmbiguousMove, IllegalMove
from controller.geometry import (
    DIAGONAL_SHIFTS,
    ORTHOGONAL_SHIFTS,
    Circuit,
    Geometry,
    Point,
    Station,
    bit,
    geometry,
    points_of,
)
from controller.moves import Move, MoveKind, parse_move_name
from controller.position import Color, Position
from controller.variants import Variant

Delta = tuple[int, int]
"""How a move changes the bitboards: ``(own ^ flip, opp & keep)``."""

KEEP_ALL = -1
"""The ``keep`` of a move's delta that captures nothing: every opposing piece stays."""

# Circuit tables grow with every new occupancy met; they share the engine's budget
# (controller/cache_budget.py) so that a long-running board stays small (a Pi Zero 2 W
# has 512 MB in all). An entry takes about 400 bytes (measured with tracemalloc).
_ENTRY_BYTES = 400


_Trips = tuple[tuple[int, ...], tuple[Delta, ...]]
"""The trips of the side to move on one circuit, for one occupancy: their move keys
(origin, target, landing) and, in the same order, their bitboard changes. Search
and perft need no more; the paths are walked out only for moves asked for."""

_NO_TRIPS: _Trips = ((), ())


def _move_key(origin: Point, target: Point, landing: int) -> int:
    """One int for ``(origin, target, landing)``; ``landing`` is NO_LANDING for none."""
    return (origin << 12) | (target << 6) | landing


def _is_shorter(path: tuple[Station, ...], than: Move | None) -> bool:
    return than is None or len(path) < len(than.path)


@dataclass
class _CircuitTable:
    """Trips on one circuit under one variant's rules, by occupancy."""

    circuit: Circuit
    jumps: bool
    captures: bool
    slides: bool
    step_targets: tuple[int, ...]
    entries: dict[int, _Trips] = field(default_factory=dict)

    def __post_init__(self) -> None:
        BUDGET.register(self.entries, _ENTRY_BYTES)

    def lookup(self, own: int, opp: int) -> _Trips:
        mask = self.circuit.mask
        own, opp = own & mask, opp & mask
        key = own << 64 | opp  # one int hashes faster and takes less room than a pair
        entry = self.entries.get(key)
        if entry is None:
            entry = self.entries[key] = self._compute(own, opp)
            BUDGET.charge(_ENTRY_BYTES)
        return entry

    def moves(self, own: int, opp: int) -> dict[int, Move]:
        """The trips with their shortest paths, by move key in the order of ``lookup``."""
        keys = self.lookup(own, opp)[0]
        if not keys:
            return {}
        mask = self.circuit.mask
        walked = self._walk(own & mask, opp & mask)
        return {key: walked[key] for key in keys}

    def _compute(self, own: int, opp: int) -> _Trips:
        if not own:
            return _NO_TRIPS
        if self.slides:
            found = self._walk(own, opp)
            return tuple(found), tuple(_delta(move) for move in found.values())
        captures = scan_circuit(self.circuit, own, opp, self.jumps).captures
        if not captures:
            return _NO_TRIPS
        keys: list[int] = []
        deltas: list[Delta] = []
        for origin, target, landing in captures:
            keys.append(_move_key(origin, target, landing))
            destination = target if landing == NO_LANDING else landing
            deltas.append(((1 << origin) ^ (1 << destination), ~(1 << target)))
        return tuple(keys), tuple(deltas)

    def _walk(self, own: int, opp: int) -> dict[int, Move]:
        """Every trip with its shortest path, by walking the circuit from each piece."""
        found: dict[int, Move] = {}
        for start, origin in enumerate(self.circuit.stations):
            if own >> origin & 1:
                for direction in (1, -1):
                    for move in self._trips(start, direction, own, opp):
                        landing = NO_LANDING if move.landing is None else move.landing
                        key = _move_key(move.origin, move.target, landing)
                        if _is_shorter(move.path, found.get(key)):
                            found[key] = move
        return found

    def _trips(self, start: int, direction: int, own: int, opp: int) -> Iterator[Move]:
        """Walk from station ``start`` one way, yielding every trip it allows."""
        stations, loop_after = self.circuit.stations, self.circuit.loop_after
        length = len(stations)
        origin = stations[start]
        occupied = (own | opp) & ~bit(origin)  # the origin counts as empty once left
        path: list[Station] = [origin]
        loops_taken = 0
        index = start
        for _ in range(length):
            loop = loop_after[index] if direction == 1 else loop_after[index - 1]
            index = (index + direction) % length
            if loop is not None:
                path.append(loop)
                loops_taken += 1
            point = stations[index]
            path.append(point)
            if not occupied >> point & 1:
                if (
                    self.slides
                    and loops_taken
                    and point != origin
                    and not self.step_targets[origin] >> point & 1
                ):
                    yield Move(MoveKind.SLIDE, origin, point, None, tuple(path))
                continue
            if own >> point & 1 or not loops_taken or not self.captures:
                return
            if not self.jumps:
                yield Move(MoveKind.CAPTURE, origin, point, None, tuple(path))
                return
            beyond_loop = loop_after[index] if direction == 1 else loop_after[index - 1]
            landing = stations[(index + direction) % length]
            if landing == origin or not occupied >> landing & 1:
                tail: list[Station] = [landing] if beyond_loop is None else [beyond_loop, landing]
                yield Move(MoveKind.CAPTURE, origin, point, landing, (*path, *tail))
            return


def _delta(move: Move) -> Delta:
    flip = bit(move.origin) ^ bit(move.destination)
    keep = ~bit(move.target) if move.kind is MoveKind.CAPTURE else KEEP_ALL
    return flip, keep


class Rules:
    """Move generation for one variant on one board size; get one from ``rules()``."""

    def __init__(self, variant: Variant, size: int) -> None:
        self.variant = variant
        self.size = size
        self.geometry: Geometry = geometry(size)
        self.shifts = ORTHOGONAL_SHIFTS + (DIAGONAL_SHIFTS if variant.has_diagonal_steps else ())
        self.step_targets = (
            self.geometry.step_targets
            if variant.has_diagonal_steps
            else self.geometry.orthogonal_targets
        )
        inner, outer = self.geometry.circuits
        jumps = variant.captures_by_jumping
        self.tables = [
            _CircuitTable(circuit, jumps, True, False, self.step_targets)
            for circuit in (inner, outer)
        ]
        if variant.has_slides:
            # Slides use the outer circuit only, in a table of their own.
            self.tables.append(_CircuitTable(outer, jumps, False, True, self.step_targets))

    # -- circuit trips -------------------------------------------------------------

    def _trip_tables(self, own: int, opp: int) -> list[_Trips]:
        """The trips of each table that has any."""
        return [trips for trips in (table.lookup(own, opp) for table in self.tables) if trips[0]]

    def _trips(self, own: int, opp: int) -> dict[int, Move]:
        """Every capture and slide, one per key, with the shortest path."""
        merged: dict[int, Move] = {}
        for table in self.tables:
            for key, move in table.moves(own, opp).items():
                if _is_shorter(move.path, merged.get(key)):
                    merged[key] = move
        return merged

    def _trip_deltas(self, own: int, opp: int) -> list[Delta] | tuple[Delta, ...]:
        found = self._trip_tables(own, opp)
        if not found:
            return ()
        if len(found) == 1:
            return found[0][1]
        # A trip reachable on both circuits is one move.
        merged: dict[int, Delta] = {}
        for keys, deltas in found:
            merged.update(zip(keys, deltas, strict=True))
        return list(merged.values())

    def capture_deltas(self, own: int, opp: int) -> list[Delta]:
        """The bitboard changes of the captures alone (for a quiescence search)."""
        inner = self.tables[0].lookup(own, opp)[1]
        outer = self.tables[1].lookup(own, opp)[1]
        if not inner or not outer:
            return list(inner or outer)
        # A capture reachable on both circuits is one move: the same delta twice.
        return list(dict.fromkeys(inner + outer))

    def _trip_count(self, own: int, opp: int) -> int:
        found = self._trip_tables(own, opp)
        if not found:
            return 0
        if len(found) == 1:
            return len(found[0][0])
        keys: set[int] = set()
        for trip_keys, _ in found:
            keys.update(trip_keys)
        return len(keys)

    # -- whole positions -----------------------------------------------------------

    def moves(self, own: int, opp: int) -> list[Move]:
        """Legal moves of the side owning ``own``: steps, then captures and slides."""
        empty = self.geometry.board_mask & ~(own | opp)
        moves = [
            Move(MoveKind.STEP, origin, target, None, (origin, target))
            for origin in points_of(own)
            for target in points_of(self.step_targets[origin] & empty)
        ]
        moves.extend(self._trips(own, opp).values())
        return moves

    def deltas(self, own: int, opp: int) -> list[Delta]:
        """The bitboard changes of every legal move (fast path for search and perft)."""
        empty = self.geometry.board_mask & ~(own | opp)
        result: list[Delta] = []
        step_targets = self.step_targets
        pieces = own
        while pieces:
            low = pieces & -pieces
            pieces ^= low
            targets = step_targets[low.bit_length() - 1] & empty
            while targets:
                target = targets & -targets
                targets ^= target
                result.append((low | target, KEEP_ALL))
        result.extend(self._trip_deltas(own, opp))
        return result

    def count(self, own: int, opp: int) -> int:
        """How many legal moves the side owning ``own`` has."""
        empty = self.geometry.board_mask & ~(own | opp)
        steps = 0
        for shift in self.shifts:
            steps += ((own << shift if shift > 0 else own >> -shift) & empty).bit_count()
        return steps + self._trip_count(own, opp)

    def perft(self, own: int, opp: int, depth: int) -> int:
        """Number of move sequences of ``depth`` plies (wipe-out ends a line early)."""
        if depth <= 0:
            return 1
        if not own:
            return 0
        if depth == 1:
            return self.count(own, opp)
        total = 0
        for flip, keep in self.deltas(own, opp):
            total += self.perft(opp & keep, own ^ flip, depth - 1)
        return total


@cache
def rules(variant: Variant = Variant.STANDARD, size: int | None = None) -> Rules:
    """The move generator of ``variant`` on a board of ``size`` (default: the variant's)."""
    return Rules(variant, variant.size if size is None else size)


def _sides(position: Position) -> tuple[int, int]:
    return position.pieces(position.turn), position.pieces(position.turn.other)


def legal_moves(position: Position, variant: Variant = Variant.STANDARD) -> list[Move]:
    """Every legal move of the side to move, each once, with its path."""
    own, opp = _sides(position)
    if not own:
        return []
    return rules(variant, position.size).moves(own, opp)


def count_moves(position: Position, variant: Variant = Variant.STANDARD) -> int:
    """How many legal moves the side to move has (faster than ``len(legal_moves())``)."""
    own, opp = _sides(position)
    return rules(variant, position.size).count(own, opp) if own else 0


def perft(position: Position, depth: int, variant: Variant = Variant.STANDARD) -> int:
    """Count the distinct move sequences of ``depth`` plies from ``position``."""
    own, opp = _sides(position)
    return rules(variant, position.size).perft(own, opp, depth)


def make_move(position: Position, move: Move) -> Position:
    """The position after ``move`` (which must be legal in ``position``)."""
    flip, keep = _delta(move)
    own, opp = _sides(position)
    own, opp = own ^ flip, opp & keep
    red, black = (own, opp) if position.turn is Color.RED else (opp, own)
    return Position(red, black, position.turn.other, position.size)


def find_move(position: Position, text: str, variant: Variant = Variant.STANDARD) -> Move:
    """The legal move named ``text``; raises BadMove, IllegalMove or AmbiguousMove.

    A Borobudur capture may leave out its landing point when only one landing fits.
    """
    name = parse_move_name(text, position.size)
    candidates = [
        move
        for move in legal_moves(position, variant)
        if (move.kind, move.origin, move.target) == (name.kind, name.origin, name.target)
        and name.landing in (None, move.landing)
    ]
    if len(candidates) == 1:
        return candidates[0]
    if candidates:
        options = " or ".join(move.name for move in candidates)
        raise AmbiguousMove(f"ambiguous move: {text!r} (could be {options})")
    raise IllegalMove(f"illegal move: {text!r} in {position}")

