"""Checking the tablebases against an independent brute-force search.

The check shares nothing with the generator but the rules: it walks the game
tree with ``legal_moves`` and ``make_move`` on ``Position`` objects (move names
and paths, not bitboard deltas), with a plain memoised minimax that asks "can
the side to move force the end of the game in its favour within ``n`` plies?".
A stored win in ``d`` must be a forced win within ``d`` plies and not within
``d - 1``; a loss likewise; a draw must be neither within ``horizon`` plies.

A draw is only checked to the horizon, so each position is also checked against
its children (``consistent``): its stored verdict must be what minimax makes of
the children's stored verdicts. A table that passes both on every position is
exact, since distances fall by one along every best line.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field

from controller.engine.tablebase import Probe, Result, Tablebase
from controller.geometry import bit, geometry
from controller.movegen import legal_moves, make_move
from controller.position import Color, Position
from controller.variants import Variant


@dataclass
class BruteForce:
    """Memoised minimax over whole positions, to a ply limit."""

    variant: Variant = Variant.STANDARD
    _wins: dict[tuple[Position, int], bool] = field(default_factory=dict)
    _losses: dict[tuple[Position, int], bool] = field(default_factory=dict)
    _children: dict[Position, list[Position]] = field(default_factory=dict)

    def children(self, position: Position) -> list[Position]:
        found = self._children.get(position)
        if found is None:
            found = [make_move(position, m) for m in legal_moves(position, self.variant)]
            if len(self._children) > 500_000:
                self._children.clear()
            self._children[position] = found
        return found

    def _count_end(self, position: Position) -> int:
        """+1, -1 or 0: the piece-count result for the side to move."""
        own = position.count(position.turn)
        opp = position.count(position.turn.other)
        return (own > opp) - (own < opp)

    def wins_within(self, position: Position, plies: int) -> bool:
        """Whether the side to move can force a win within ``plies`` plies."""
        if not position.pieces(position.turn):
            return False
        key = (position, plies)
        known = self._wins.get(key)
        if known is not None:
            return known
        children = self.children(position)
        if not children:
            answer = self._count_end(position) > 0
        else:
            answer = plies > 0 and any(self.loses_within(c, plies - 1) for c in children)
        self._wins[key] = answer
        return answer

    def loses_within(self, position: Position, plies: int) -> bool:
        """Whether the side to move loses within ``plies`` plies whatever it plays."""
        if not position.pieces(position.turn):
            return True
        key = (position, plies)
        known = self._losses.get(key)
        if known is not None:
            return known
        children = self.children(position)
        if not children:
            answer = self._count_end(position) < 0
        else:
            answer = plies > 0 and all(self.wins_within(c, plies - 1) for c in children)
        self._losses[key] = answer
        return answer

    def verdict(self, position: Position, horizon: int) -> Probe:
        """The exact verdict when the game is decided within ``horizon`` plies, else a draw."""
        for plies in range(horizon + 1):
            if self.wins_within(position, plies):
                return Probe(Result.WIN, plies)
            if self.loses_within(position, plies):
                return Probe(Result.LOSS, plies)
        return Probe(Result.DRAW, 0)


def stored(table: Tablebase, position: Position) -> Probe:
    """The table's verdict for ``position``."""
    probe = table.probe(position.pieces(position.turn), position.pieces(position.turn.other))
    if probe is None:
        raise ValueError(f"not in the tables: {position}")
    return probe


def consistent(table: Tablebase, position: Position, variant: Variant) -> Probe:
    """What minimax makes of the stored verdicts of the children of ``position``."""
    children = [make_move(position, m) for m in legal_moves(position, variant)]
    if not children:
        own, opp = position.count(position.turn), position.count(position.turn.other)
        if own == opp:
            return Probe(Result.DRAW, 0)
        return Probe(Result.WIN if own > opp else Result.LOSS, 0)
    verdicts = [
        Probe(Result.LOSS, 0) if not child.pieces(child.turn) else stored(table, child)
        for child in children
    ]
    losses = [v.plies for v in verdicts if v.result is Result.LOSS]
    if losses:
        return Probe(Result.WIN, min(losses) + 1)
    if all(v.result is Result.WIN for v in verdicts):
        return Probe(Result.LOSS, max(v.plies for v in verdicts) + 1)
    return Probe(Result.DRAW, 0)


def random_positions(
    count: int, pieces: int, rng: random.Random, size: int = 6
) -> list[Position]:
    """Random positions of exactly ``pieces`` pieces, each side at least one."""
    points = list(geometry(size).points)
    found: list[Position] = []
    while len(found) < count:
        chosen = rng.sample(points, pieces)
        red_count = rng.randint(1, pieces - 1)
        red = sum(bit(p) for p in chosen[:red_count])
        black = sum(bit(p) for p in chosen[red_count:])
        found.append(Position(red, black, rng.choice(list(Color)), size))
    return found


def held_positions(table: Tablebase, count: int, rng: random.Random) -> list[Position]:
    """``count`` random positions the tables hold, as many of each number of pieces
    (of the classes held: a table of some five-piece classes gets only those)."""
    sizes = range(2, table.max_pieces + 1)
    found: list[Position] = []
    for number, pieces in enumerate(sizes):
        wanted = count // len(sizes) + (number < count % len(sizes))
        held: list[Position] = []
        while len(held) < wanted:
            position = random_positions(1, pieces, rng, table.size)[0]
            own, opp = position.pieces(position.turn), position.pieces(position.turn.other)
            if table.covers(own, opp):
                held.append(position)
        found += held
    return found


@dataclass(frozen=True, slots=True)
class Disagreement:
    """A position where the table and the check differ."""

    position: Position
    table: Probe
    check: Probe
    how: str

    def __str__(self) -> str:
        return (
            f"{self.position}: table says {self.table.describe()}, "
            f"{self.how} says {self.check.describe()}"
        )


def verify(
    table: Tablebase, positions: list[Position], horizon: int, variant: Variant
) -> list[Disagreement]:
    """Every disagreement of the table with brute force and with its own children."""
    brute = BruteForce(variant)
    wrong: list[Disagreement] = []
    for position in positions:
        mine = stored(table, position)
        local = consistent(table, position, variant)
        if local != mine:
            wrong.append(Disagreement(position, mine, local, "its children"))
            continue
        if mine.plies > horizon:
            continue  # beyond what brute force reaches; the children's check stands
        found = brute.verdict(position, horizon)
        if found != mine:
            wrong.append(Disagreement(position, mine, found, "brute force"))
    return wrong
