"""Attack maps: which pieces each side could capture, and which it guards.

For the evaluation, the search needs cheap answers to "which of my pieces can
the opponent take?" and "if they take it, can I take back?". Both depend only on
who stands where on one circuit, so, like the move generator's trip tables,
the answers are computed once per circuit occupancy and kept.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import cache

from controller.cache_budget import BUDGET
from controller.circuit_scan import CircuitCaptures, scan_both
from controller.geometry import Circuit, geometry

# The tables share the move generator's budget (controller/cache_budget.py), so memory
# stays bounded: an entry takes about 180 bytes (measured with tracemalloc).
_ENTRY_BYTES = 180

Reach = tuple[int, int, int]
"""What one side's pieces reach by circuit trips through at least one loop:
``(attacks, guards, captures)``: the enemy pieces it can capture, its own pieces
that another of its pieces reaches (so a capture there can be answered), and the
number of distinct captures (origin, captured point)."""

_NOTHING: Reach = (0, 0, 0)


@dataclass
class _ReachTable:
    """Reach on one circuit by occupancy; ``jumps`` for Borobudur captures."""

    circuit: Circuit
    jumps: bool
    entries: dict[int, Reach] = field(default_factory=dict)

    def __post_init__(self) -> None:
        BUDGET.register(self.entries, _ENTRY_BYTES)

    def lookup(self, own: int, opp: int) -> Reach:
        mask = self.circuit.mask
        own, opp = own & mask, opp & mask
        key = own << 64 | opp  # one int hashes faster and takes less room than a pair
        reach = self.entries.get(key)
        if reach is None:
            # The other side's reach is nearly free now, and is asked for next.
            mine, theirs = scan_both(self.circuit, own, opp, self.jumps)
            reach = self.entries[key] = _reach(mine)
            self.entries[opp << 64 | own] = _reach(theirs)
            BUDGET.charge(2 * _ENTRY_BYTES)
        return reach


def _reach(found: CircuitCaptures) -> Reach:
    if not found.captures and not found.guards:
        return _NOTHING
    attacks = 0
    pairs: set[tuple[int, int]] = set()
    for origin, target, _ in found.captures:
        attacks |= 1 << target
        pairs.add((origin, target))
    return attacks, found.guards, len(pairs)


class AttackMaps:
    """Reach of a side on both circuits of one board size."""

    def __init__(self, size: int, jumps: bool) -> None:
        inner, outer = geometry(size).circuits
        self._inner = _ReachTable(inner, jumps)
        self._outer = _ReachTable(outer, jumps)

    def reach(self, own: int, opp: int) -> tuple[int, int, int]:
        """``(attacks, guards, captures)`` of the side owning ``own``, both circuits."""
        a_attacks, a_guards, a_captures = self._inner.lookup(own, opp)
        b_attacks, b_guards, b_captures = self._outer.lookup(own, opp)
        return a_attacks | b_attacks, a_guards | b_guards, a_captures + b_captures


@cache
def attack_maps(size: int, jumps: bool) -> AttackMaps:
    """The shared attack maps of a board size (``jumps`` for Borobudur captures)."""
    return AttackMaps(size, jumps)
