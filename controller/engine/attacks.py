"""Attack maps: which pieces each side could capture, and which it guards.

For the evaluation, the search needs cheap answers to "which of my pieces can
the opponent take?" and "if they take it, can I take back?". Both depend only on
who stands where on one circuit, so, like the move generator's trip tables,
the answers are computed once per circuit occupancy and kept.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import cache

from controller.geometry import Circuit, geometry

# Past this many entries a table starts afresh, so memory stays bounded.
_MAX_ENTRIES = 400_000


@dataclass(frozen=True, slots=True)
class Reach:
    """What one side's pieces reach by a circuit trip through at least one loop."""

    attacks: int
    """Bitboard of enemy pieces the side can capture."""
    guards: int
    """Bitboard of the side's own pieces that another of its pieces reaches: if the
    enemy captured there, this side could capture back."""
    captures: int
    """Number of distinct captures (origin, captured point) the side has."""


_NOTHING = Reach(0, 0, 0)


@dataclass
class _ReachTable:
    """Reach on one circuit by occupancy; ``jumps`` for Borobudur captures."""

    circuit: Circuit
    jumps: bool
    entries: dict[tuple[int, int], Reach] = field(default_factory=dict)

    def lookup(self, own: int, opp: int) -> Reach:
        mask = self.circuit.mask
        key = (own & mask, opp & mask)
        reach = self.entries.get(key)
        if reach is None:
            if len(self.entries) >= _MAX_ENTRIES:
                self.entries.clear()
            reach = self._compute(*key)
            self.entries[key] = reach
        return reach

    def _compute(self, own: int, opp: int) -> Reach:
        if not own:
            return _NOTHING
        stations, loop_after = self.circuit.stations, self.circuit.loop_after
        length = len(stations)
        attacks = guards = 0
        pairs: set[tuple[int, int]] = set()
        for start, origin in enumerate(stations):
            if not own >> origin & 1:
                continue
            occupied = (own | opp) & ~(1 << origin)
            for direction in (1, -1):
                index, loops = start, 0
                for _ in range(length):
                    if (loop_after[index] if direction == 1 else loop_after[index - 1]) is not None:
                        loops += 1
                    index = (index + direction) % length
                    point = stations[index]
                    if not occupied >> point & 1:
                        continue
                    if loops:
                        if own >> point & 1:
                            guards |= 1 << point
                        elif self._lands(index, direction, origin, occupied):
                            attacks |= 1 << point
                            pairs.add((origin, point))
                    break
        return Reach(attacks, guards, len(pairs))

    def _lands(self, index: int, direction: int, origin: int, occupied: int) -> bool:
        if not self.jumps:
            return True
        landing = self.circuit.stations[(index + direction) % len(self.circuit.stations)]
        return landing == origin or not occupied >> landing & 1


class AttackMaps:
    """Reach of a side on both circuits of one board size."""

    def __init__(self, size: int, jumps: bool) -> None:
        inner, outer = geometry(size).circuits
        self._inner = _ReachTable(inner, jumps)
        self._outer = _ReachTable(outer, jumps)

    def reach(self, own: int, opp: int) -> tuple[int, int, int]:
        """``(attacks, guards, captures)`` of the side owning ``own``, both circuits."""
        a = self._inner.lookup(own, opp)
        b = self._outer.lookup(own, opp)
        return a.attacks | b.attacks, a.guards | b.guards, a.captures + b.captures


@cache
def attack_maps(size: int, jumps: bool) -> AttackMaps:
    """The shared attack maps of a board size (``jumps`` for Borobudur captures)."""
    return AttackMaps(size, jumps)
