"""Making the tablebases: retrograde analysis, class by class.

A capture lowers the material, so the classes are solved fewest pieces first,
and a capture always leads into a class already solved. A quiet move (a step)
leads from class ``(a, b)`` to ``(b, a)``, so those two are solved together:

1. every position is looked at once: its captures are scored from the smaller
   tables (a capture of the last piece wins at once), its quiet moves counted;
   a position with no move at all ends on piece count;
2. then distance by distance, shortest first: a position lost in ``d`` makes
   every position that steps into it won in ``d + 1``; a position won in ``d``
   takes one from the count of open quiet moves of every position stepping into
   it, and a position whose moves all lead to wins for the opponent is lost,
   in one more ply than its longest;
3. whatever is left is a draw: neither side can force an end.

The positions stepping into a position are found by stepping back: steps are
symmetric, so the side that just moved stepped from one of the empty neighbours
of one of its pieces. That needs no quiet moves but steps, so a variant with
non-capturing slides (gonu) is not supported.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Collection, Iterator
from itertools import combinations

from controller.engine.tablebase import (
    MAX_DISTANCE,
    Indexer,
    Result,
    Tablebase,
    decode,
    encode,
    indexer,
    material_classes,
)
from controller.errors import BadVariant
from controller.geometry import bit, geometry
from controller.movegen import KEEP_ALL, rules
from controller.variants import Variant

Material = tuple[int, int]
Progress = Callable[[str], None]

_WIN, _LOSS = 1, 2


def positions_of(size: int, material: Material) -> Iterator[tuple[int, int]]:
    """Every ``(own, opp)`` of a material class, as bitboards."""
    points = geometry(size).points
    own_count, opp_count = material
    for own_points in combinations(points, own_count):
        own = sum(bit(p) for p in own_points)
        free = [p for p in points if not own >> p & 1]
        for opp_points in combinations(free, opp_count):
            yield own, sum(bit(p) for p in opp_points)


class _Solver:
    """The retrograde analysis of one pair of classes joined by quiet moves."""

    def __init__(
        self, variant: Variant, size: int, solved: dict[Material, bytes], pair: list[Material]
    ) -> None:
        self.rules = rules(variant, size)
        self.step_targets = self.rules.step_targets
        self.board_mask = self.rules.geometry.board_mask
        self.numbering: Indexer = indexer(size)
        self.solved = solved
        self.size = size
        self.pair = pair
        self.codes = {m: bytearray(self.numbering.class_size(*m)) for m in pair}
        self.open = {m: bytearray(self.numbering.class_size(*m)) for m in pair}
        self.longest = {m: bytearray(self.numbering.class_size(*m)) for m in pair}
        self.blocked = {m: bytearray(self.numbering.class_size(*m)) for m in pair}
        self.buckets: dict[int, list[tuple[int, int, int]]] = {}

    def _schedule(self, distance: int, kind: int, own: int, opp: int) -> None:
        if distance > MAX_DISTANCE:
            raise ValueError(f"distance {distance} does not fit the table format")
        self.buckets.setdefault(distance, []).append((kind, own, opp))

    def _capture_value(self, own: int, opp: int) -> int:
        """The solved code of a position reached by a capture (``own`` to move)."""
        if not own:
            return encode(Result.LOSS, 0)
        table = self.solved[(own.bit_count(), opp.bit_count())]
        return table[self.numbering.index(own, opp)]

    def _first_look(self) -> None:
        index = self.numbering.index
        for material in self.pair:
            open_moves, longest = self.open[material], self.longest[material]
            blocked = self.blocked[material]
            own_count, opp_count = material
            for own, opp in positions_of(self.size, material):
                i = index(own, opp)
                quiet = 0
                best_win = MAX_DISTANCE + 1
                worst = 0
                stuck = False
                deltas = self.rules.deltas(own, opp)
                if not deltas:
                    if own_count != opp_count:
                        kind = _WIN if own_count > opp_count else _LOSS
                        self._schedule(0, kind, own, opp)
                    blocked[i] = 1
                    continue
                for flip, keep in deltas:
                    if keep == KEEP_ALL:
                        quiet += 1
                        continue
                    verdict = decode(self._capture_value(opp & keep, own ^ flip))
                    if verdict.result is Result.LOSS:
                        best_win = min(best_win, verdict.plies + 1)
                    elif verdict.result is Result.WIN:
                        worst = max(worst, verdict.plies)
                    else:
                        stuck = True
                open_moves[i] = quiet
                longest[i] = worst
                if best_win <= MAX_DISTANCE:
                    blocked[i] = 1  # won, so never lost
                    self._schedule(best_win, _WIN, own, opp)
                elif stuck:
                    blocked[i] = 1
                elif quiet == 0:
                    blocked[i] = 1
                    self._schedule(worst + 1, _LOSS, own, opp)

    def _predecessors(self, own: int, opp: int) -> Iterator[tuple[int, int]]:
        """Positions from which a step by the side owning ``opp`` leads to ``(own, opp)``."""
        empty = self.board_mask & ~(own | opp)
        step_targets = self.step_targets
        pieces = opp
        while pieces:
            low = pieces & -pieces
            pieces ^= low
            origins = step_targets[low.bit_length() - 1] & empty
            while origins:
                origin = origins & -origins
                origins ^= origin
                yield opp ^ low ^ origin, own

    def solve(self) -> None:
        self._first_look()
        index = self.numbering.index
        distance = 0
        while self.buckets:
            entries = self.buckets.pop(distance, [])
            for kind, own, opp in entries:
                material = (own.bit_count(), opp.bit_count())
                i = index(own, opp)
                codes = self.codes[material]
                if codes[i]:
                    continue
                result = Result.WIN if kind == _WIN else Result.LOSS
                codes[i] = encode(result, distance)
                parent_material = (material[1], material[0])
                parent_codes = self.codes[parent_material]
                open_moves = self.open[parent_material]
                longest = self.longest[parent_material]
                blocked = self.blocked[parent_material]
                for parent_own, parent_opp in self._predecessors(own, opp):
                    j = index(parent_own, parent_opp)
                    if parent_codes[j]:
                        continue
                    if kind == _LOSS:
                        blocked[j] = 1
                        self._schedule(distance + 1, _WIN, parent_own, parent_opp)
                        continue
                    open_moves[j] -= 1
                    if longest[j] < distance:
                        longest[j] = distance
                    if not open_moves[j] and not blocked[j]:
                        self._schedule(longest[j] + 1, _LOSS, parent_own, parent_opp)
            distance += 1


def build(
    variant: Variant = Variant.STANDARD,
    max_pieces: int = 4,
    size: int | None = None,
    progress: Progress | None = None,
    known: Tablebase | None = None,
    only: Collection[Material] | None = None,
    checkpoint: Callable[[Tablebase], None] | None = None,
) -> Tablebase:
    """Solve every class up to ``max_pieces`` pieces (or, of the classes of the most
    pieces, those in ``only``), reusing the classes of ``known``; ``checkpoint`` gets the
    tables after each class solved, so a long run is never lost. Every class of fewer
    pieces is solved (a capture leads into one). Raises BadVariant for gonu."""
    if variant.has_slides:
        raise BadVariant(f"no tablebases for {variant.value!r}: its slides cannot be stepped back")
    size = variant.size if size is None else size
    solved: dict[Material, bytes] = {}
    if known is not None and (known.variant, known.size) == (variant, size):
        solved.update((m, table) for m, table in known.tables.items() if sum(m) <= max_pieces)
    wanted = [
        material
        for material in material_classes(max_pieces)
        if only is None or sum(material) < max_pieces or material in only or material[::-1] in only
    ]
    for material in wanted:
        if material in solved:
            continue
        pair = [material] if material[0] == material[1] else [material, material[::-1]]
        started = time.monotonic()
        solver = _Solver(variant, size, solved, pair)
        solver.solve()
        for member in pair:
            solved[member] = bytes(solver.codes[member])
        if progress is not None:
            names = " and ".join(_name(member) for member in pair)
            progress(f"{names}: {time.monotonic() - started:.1f} s")
        if checkpoint is not None:
            checkpoint(_tables(variant, size, solved))
    return _tables(variant, size, solved)


def _name(material: Material) -> str:
    return f"{material[0]}v{material[1]}"


def _tables(variant: Variant, size: int, solved: dict[Material, bytes]) -> Tablebase:
    return Tablebase(variant, size, max(map(sum, solved), default=0), dict(solved))
