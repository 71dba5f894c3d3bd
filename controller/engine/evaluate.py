"""The static evaluation: how good a quiet position is for the side to move.

Material dominates (a piece is worth 100). The other terms say what a player
looks at: pieces on the circuits' lines can attack (a point on two lines more
so); points on no circuit (the corners, and the middle lines of the 7x7 board)
can never be attacked; pieces the opponent can capture are in danger unless a
recapture guards them, and two undefended pieces en prise usually cost one;
the more moves and captures a side has, the freer its game.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache

from controller.cache_budget import BUDGET
from controller.engine.attacks import AttackMaps, attack_maps
from controller.geometry import DIAGONAL_SHIFTS, ORTHOGONAL_SHIFTS, geometry
from controller.variants import Variant

_SCORE_BYTES = 130
"""What a cached score takes (measured with tracemalloc): the scores share the move
generator's budget (controller/cache_budget.py), so that a board's memory levels off
within minutes of play."""


@dataclass(frozen=True, slots=True)
class Weights:
    """Evaluation weights, in hundredths of a piece."""

    piece: int = 100
    """Each piece on the board."""
    two_lines: int = 5
    """A piece on a point where two circuit lines cross (it can set off four ways)."""
    one_line: int = 1
    """A piece on one circuit line."""
    safe_point: int = 3
    """A piece on a point of no circuit: it can never be captured."""
    en_prise_guarded: int = 12
    """Own piece the opponent can capture, but which can be captured back."""
    en_prise: int = 30
    """Own piece the opponent can capture with no recapture."""
    second_en_prise: int = 40
    """Extra when two or more pieces are en prise undefended: one move saves only one."""
    attacking: int = 10
    """Enemy piece the side to move can capture (it moves first)."""
    guard: int = 3
    """Own piece that another own piece guards."""
    step: int = 1
    """Each step the side has."""
    capture: int = 4
    """Each capture the side has."""
    tempo: int = 8
    """Having the move."""


DEFAULT_WEIGHTS = Weights()


class Evaluator:
    """Evaluation for one variant on one board size."""

    def __init__(self, variant: Variant, size: int, weights: Weights = DEFAULT_WEIGHTS) -> None:
        board = geometry(size)
        self.weights = weights
        self.maps: AttackMaps = attack_maps(size, variant.captures_by_jumping)
        self.board_mask = board.board_mask
        shifts: tuple[int, ...] = ORTHOGONAL_SHIFTS
        if variant.has_diagonal_steps:
            shifts = shifts + DIAGONAL_SHIFTS
        self.left_shifts = tuple(s for s in shifts if s > 0)
        self.right_shifts = tuple(-s for s in shifts if s < 0)
        lines = {point: 0 for point in board.points}
        for circuit in board.circuits:
            for point in set(circuit.stations):
                # Each circuit point lies on one or two of its lines.
                lines[point] += sum(1 for s in circuit.stations if s == point)
        self.two_lines_mask = sum(1 << p for p, n in lines.items() if n >= 2)
        self.one_line_mask = sum(1 << p for p, n in lines.items() if n == 1)
        self.safe_mask = sum(1 << p for p, n in lines.items() if n == 0)
        # The search meets the same positions again (transpositions, quiescence
        # after a re-search); a score costs far more than a look-up.
        self._scores: dict[tuple[int, int], int] = {}
        BUDGET.register(self._scores, _SCORE_BYTES)

    def steps(self, own: int, empty: int) -> int:
        """How many steps the side owning ``own`` has."""
        count = 0
        for shift in self.left_shifts:
            count += (own << shift & empty).bit_count()
        for shift in self.right_shifts:
            count += (own >> shift & empty).bit_count()
        return count

    def __call__(self, own: int, opp: int) -> int:
        """Score of the position for the side owning ``own``, which is to move."""
        key = (own, opp)
        score = self._scores.get(key)
        if score is None:
            score = self._scores[key] = self._score(own, opp)
            BUDGET.charge(_SCORE_BYTES)
        return score

    def _score(self, own: int, opp: int) -> int:
        w = self.weights
        attacks, guards, captures = self.maps.reach(own, opp)
        their_attacks, their_guards, their_captures = self.maps.reach(opp, own)
        empty = self.board_mask & ~(own | opp)
        score = w.piece * (own.bit_count() - opp.bit_count()) + w.tempo
        score += w.two_lines * (
            (own & self.two_lines_mask).bit_count() - (opp & self.two_lines_mask).bit_count()
        )
        score += w.one_line * (
            (own & self.one_line_mask).bit_count() - (opp & self.one_line_mask).bit_count()
        )
        score += w.safe_point * (
            (own & self.safe_mask).bit_count() - (opp & self.safe_mask).bit_count()
        )
        hanging = (their_attacks & ~guards).bit_count()
        score -= w.en_prise_guarded * (their_attacks & guards).bit_count()
        score -= w.en_prise * hanging
        if hanging >= 2:
            score -= w.second_en_prise
        score += w.attacking * attacks.bit_count()
        score += w.guard * (guards.bit_count() - their_guards.bit_count())
        score += w.step * (self.steps(own, empty) - self.steps(opp, empty))
        score += w.capture * (captures - their_captures)
        return score


@cache
def evaluator(variant: Variant, size: int, weights: Weights = DEFAULT_WEIGHTS) -> Evaluator:
    """The shared evaluator of a variant, board size and weights."""
    return Evaluator(variant, size, weights)
