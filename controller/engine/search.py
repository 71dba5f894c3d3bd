"""Iterative-deepening alpha-beta search (negamax with principal variation search).

The search works on raw bitboards from the side to move's point of view: a node
is ``(own, opp)`` and a child is ``(opp & keep, own ^ flip)`` for a move delta
``(flip, keep)`` of the move generator. Around that core:

- a transposition table keyed by Zobrist hashes, holding bounds and best moves;
- move ordering: table move, captures of unguarded pieces, other captures,
  killer moves, then quiet moves by history score;
- late-move reductions and null-move pruning on non-PV nodes, and multi-cut
  pruning at expected cut nodes (each can be switched off in ``SearchSettings``);
- quiescence search over captures at the horizon (realization-probability
  search, which lets captures cost less than a ply, was tried: at 0.1 s a move it
  lost 43-57% and 39-61% over 200 games each against this search, so it is not used);
- the game endings: a side without pieces has lost; no legal move, the
  no-capture limit and a repeated position end the game by piece count, valued
  as the ``Objective`` says (the scoring in force), with the settings' contempt
  for draws, and by which side's repetition it is;
- the tablebases (``tablebase.py``): a position with few enough pieces is scored
  exactly, at every node and in the quiescence search, when the no-capture limit
  cannot interfere; a won position at the root is played from the table at once;
- a second look before the game's last move: ``think`` searches the other moves as
  long again before ending a game by its own repetition.

The search is an object the caller stops: ``Search.iterate(stop)`` yields one
``Iteration`` per completed depth and ends when ``stop()`` turns true (checked
every few hundred nodes). ``think()`` wraps it with a move time or deadline.
"""

from __future__ import annotations

import dataclasses
import time
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass

from controller.engine.endgame import winning_move
from controller.engine.evaluate import Evaluator, evaluator
from controller.engine.objective import DEFAULT_OBJECTIVE, Objective, Scoring
from controller.engine.settings import DEFAULT_SETTINGS, SearchSettings
from controller.engine.tablebase import Tablebase, shipped
from controller.engine.zobrist import color_index, zobrist
from controller.errors import GameOver
from controller.game import Endings
from controller.movegen import KEEP_ALL, Delta, Rules, make_move, rules
from controller.moves import Move
from controller.position import Position
from controller.variants import Variant

INFINITY = 1_000_000
MATE = 100_000
"""Score of having wiped out the opponent (minus the plies it takes)."""
MATE_BOUND = MATE - 1_000
"""Scores beyond this are wipe-outs at a known distance."""
COUNT_WIN = 50_000
"""Score of a game ended (by repetition, the no-capture limit or no legal move)
with more pieces than the opponent; each piece of difference adds ``PIECE``."""
PIECE = 100
DRAW = 0
MAX_PLY = 128

_CHECK_EVERY = 256  # nodes between two looks at the clock: a few milliseconds
_QUIESCENCE_PLIES = 10  # captures in a row followed at the horizon
_EXACT, _LOWER, _UPPER = 0, 1, 2
_NULL_MOVE_MIN_PIECES = 4  # zugzwang-like positions need few pieces; skip them
# Multi-cut: at an expected cut node, search the first few moves shallower; if
# enough of them fail high, the node almost surely does too.
_MULTI_CUT_MIN_DEPTH = 4
_MULTI_CUT_REDUCTION = 3
_MULTI_CUT_MOVES = 6
_MULTI_CUT_NEEDED = 3
_NOISE_MULTIPLIER = 0x9E37_79B9_7F4A_7C15
_MASK64 = (1 << 64) - 1
_VERIFY_PLIES = 2  # how much deeper a depth-limited search looks before repeating


TranspositionTable = dict[int, tuple[int, int, int, Delta | None]]
"""Search results by Zobrist key: ``(depth, bound, score, best move's delta)``, scores
relative to the node, so a later search (the next move of the game) can use them."""


def _never() -> bool:
    return False


class _Stopped(Exception):
    """Unwinds the search when the caller's stop condition turns true."""


@dataclass(frozen=True, slots=True)
class Iteration:
    """One completed depth of iterative deepening."""

    depth: int
    """Nominal depth in plies."""
    score: int
    """Score for the side to move at the root (100 = one piece)."""
    pv: list[Move]
    """Principal variation, the best move first."""
    nodes: int
    """Nodes searched so far, all depths together."""


@dataclass(frozen=True, slots=True)
class SearchResult:
    """What the engine decided."""

    move: Move
    """The move to play, with its path."""
    score: int
    """Score for the side to move (100 = one piece; beyond ``COUNT_WIN`` a won ending)."""
    depth: int
    """Deepest completed depth (0 when the move was forced or the search stopped at once)."""
    pv: list[Move]
    """Principal variation, ``move`` first."""
    nodes: int
    """Nodes searched."""


def ending_score(own: int, opp: int) -> int:
    """Score of a game ended by piece count, for the side owning ``own``."""
    diff = own.bit_count() - opp.bit_count()
    if diff > 0:
        return COUNT_WIN + PIECE * diff
    if diff < 0:
        return -COUNT_WIN + PIECE * diff
    return DRAW


def describe_score(score: int) -> str:
    """A score in words: ``+1.25``, ``wins by wipe-out in 3``, ``wins by count (+2)``."""
    if abs(score) > MATE_BOUND:
        plies = MATE - abs(score)
        unit = "ply" if plies == 1 else "plies"
        return f"{'wins' if score > 0 else 'loses'} by wipe-out in {plies} {unit}"
    if abs(score) >= COUNT_WIN:
        pieces = (abs(score) - COUNT_WIN) // PIECE
        return f"{'wins' if score > 0 else 'loses'} on piece count by {pieces}"
    return f"{score / PIECE:+.2f}"


def _to_table(score: int, ply: int) -> int:
    if score > MATE_BOUND:
        return score + ply
    if score < -MATE_BOUND:
        return score - ply
    return score


def _settled(flag: int, score: int, alpha: int, beta: int) -> int | None:
    """A table entry's score when its bound settles the node within ``(alpha, beta)``."""
    if flag == _EXACT or (flag == _LOWER and score >= beta) or (flag == _UPPER and score <= alpha):
        return score
    return None


def _from_table(score: int, ply: int) -> int:
    if score > MATE_BOUND:
        return score - ply
    if score < -MATE_BOUND:
        return score + ply
    return score


class Search:
    """A search from one position; create one per move, or reuse it to keep its tables."""

    def __init__(
        self,
        position: Position,
        variant: Variant = Variant.STANDARD,
        *,
        history: Sequence[Position] = (),
        plies_without_capture: int = 0,
        endings: Endings | None = None,
        noise: int = 0,
        noise_seed: int = 0,
        settings: SearchSettings = DEFAULT_SETTINGS,
        objective: Objective = DEFAULT_OBJECTIVE,
        tablebase: Tablebase | bool = True,
        transpositions: TranspositionTable | None = None,
        only: Sequence[Move] | None = None,
    ) -> None:
        """``history``: the game's positions so far (the current one may be included);
        ``noise``: half-width of pseudo-random noise added to every evaluation, for
        the weaker levels (the same position always gets the same noise for one seed);
        ``settings``: evaluation weights and prunings (the defaults are the engine);
        ``objective``: the scoring in force;
        ``tablebase``: True for the shipped tables of the variant (if any), False
        for none, or the tables to use. Tables score wipe-outs, so they are used
        under win/loss scoring only;
        ``transpositions``: the transposition table to use and fill (an earlier search's, kept
        between the moves of a game), or None for a fresh one;
        ``only``: the root moves to search (legal moves of ``position``), or None for
        all: a move's own score, with the game's endings judged from the root as in play.
        """
        endings = endings if endings is not None else Endings()
        self.position = position
        self.variant = variant
        self.rules: Rules = rules(variant, position.size)
        self.settings = settings
        self.evaluate: Evaluator = evaluator(variant, position.size, settings.weights)
        self.keys = zobrist()
        self.limit = endings.no_capture_limit if endings.no_capture_limit is not None else 1 << 30
        self.repetition = endings.repetition
        self.noise = noise
        self.noise_seed = noise_seed & _MASK64
        self.own = position.pieces(position.turn)
        self.opp = position.pieces(position.turn.other)
        self.color = color_index(position.turn)
        self.root_color = self.color
        self.objective = objective
        self.pieces_scoring = objective.scoring is Scoring.PIECES
        table: Tablebase | None = None
        if isinstance(tablebase, Tablebase):
            table = tablebase
        elif tablebase and variant.size == position.size:
            table = shipped(variant, position.size)
        self.tablebase = None if self.pieces_scoring else table
        self.tablebase_pieces = self.tablebase.max_pieces if self.tablebase is not None else 0
        self.key = self.keys.key(position)
        self.quiet = plies_without_capture
        # Positions seen in the game, plus those on the current search path.
        self.path: set[int] = self.keys.keys(history) if self.repetition else set()
        self.path.discard(self.key)
        self.table: TranspositionTable = {} if transpositions is None else transpositions
        self.killers: list[list[Delta | None]] = [[None, None] for _ in range(MAX_PLY + 2)]
        self.history: dict[int, int] = {}
        self.nodes = 0
        self.stop: Callable[[], bool] = lambda: False
        self.root_deltas: list[Delta] = self.rules.deltas(self.own, self.opp) if self.own else []
        self.root_moves: list[Move] = self.rules.moves(self.own, self.opp) if self.own else []
        if only is not None:
            kept = [i for i, move in enumerate(self.root_moves) if move in only]
            self.root_deltas = [self.root_deltas[i] for i in kept]
            self.root_moves = [self.root_moves[i] for i in kept]
        self.best: Delta | None = self._first_guess()
        self.best_score = 0
        self.depth = 0

    # -- the public side ---------------------------------------------------------------

    @property
    def best_move(self) -> Move | None:
        """The best move found so far (before any depth completes: a plausible first try)."""
        return None if self.best is None else self._move_of(self.best)

    def iterate(self, stop: Callable[[], bool], max_depth: int = 64) -> Iterator[Iteration]:
        """Deepen one ply at a time, yielding each completed depth, until ``stop()``.

        The first ply is always completed, whatever the clock says: it takes a few
        milliseconds, and with the captures that follow it (quiescence) it is what
        keeps a piece from being left to a free capture at very short times."""
        if not self.root_deltas:
            return
        for depth in range(self.depth + 1, max_depth + 1):
            self.stop = stop if depth > 1 else _never
            try:
                score = self._root(depth)
            except _Stopped:
                return
            self.depth, self.best_score = depth, score
            yield Iteration(depth, score, self.principal_variation(), self.nodes)
            if abs(score) > MATE_BOUND and MATE - abs(score) <= depth:
                return  # a forced wipe-out is found; deeper search changes nothing

    def principal_variation(self) -> list[Move]:
        """The best line, read from the transposition table."""
        pv: list[Move] = []
        own, opp, key, color = self.own, self.opp, self.key, self.color
        seen = {key}
        delta = self.best
        while delta is not None and len(pv) < MAX_PLY:
            deltas = self.rules.deltas(own, opp)
            if delta not in deltas:
                break
            pv.append(self.rules.moves(own, opp)[deltas.index(delta)])
            key = self._child_key(key, color, delta)
            own, opp, color = opp & delta[1], own ^ delta[0], color ^ 1
            if key in seen or not own:
                break
            seen.add(key)
            entry = self.table.get(key)
            delta = None if entry is None else entry[3]
        return pv

    # -- internals -------------------------------------------------------------------

    def _move_of(self, delta: Delta) -> Move:
        return self.root_moves[self.root_deltas.index(delta)]

    def _first_guess(self) -> Delta | None:
        if not self.root_deltas:
            return None
        ordered = self._order(self.root_deltas, None, 0, self.own, self.opp)
        return ordered[0]

    def _child_key(self, key: int, color: int, delta: Delta) -> int:
        flip, keep = delta
        key ^= self.keys.moves[color][flip]
        if keep != KEEP_ALL:
            key ^= self.keys.captures[color ^ 1][~keep]
        return key

    def _noise(self, key: int) -> int:
        mixed = ((key ^ self.noise_seed) * _NOISE_MULTIPLIER & _MASK64) >> 32
        return mixed % (2 * self.noise + 1) - self.noise

    def _wiped_out(self, opp: int, ply: int) -> int:
        """Score for a side with no pieces left, ``ply`` plies from the root."""
        if self.pieces_scoring:
            return -PIECE * opp.bit_count()
        return -MATE + ply

    def _count_ending(self, own: int, opp: int, color: int) -> int:
        """A game ended on piece count that no one chose (the limit, no legal move)."""
        if self.pieces_scoring:
            return PIECE * (own.bit_count() - opp.bit_count())
        score = ending_score(own, opp)
        if score == DRAW:
            # The draw costs the engine its contempt, whoever is to move.
            contempt = self.settings.contempt
            return -contempt if color == self.root_color else contempt
        return score

    def _repetition(self, own: int, opp: int, color: int, ply: int) -> int:
        """A repeated position, made by the side not to move here."""
        if self.pieces_scoring or color == self.root_color:
            return self._count_ending(own, opp, color)  # the opponent repeated
        if opp.bit_count() < own.bit_count():
            # The engine repeated while behind: a loss now, worse than any resistance,
            # so it plays on wherever a move that loses nothing exists.
            return MATE - ply
        # Ahead it is a win, below any wipe-out it sees; level, a draw less contempt.
        return self._count_ending(own, opp, color)

    def _probe(self, own: int, opp: int, ply: int, quiet: int) -> int | None:
        """The tablebase score of a won or lost position, when the limit cannot interfere."""
        assert self.tablebase is not None
        code = self.tablebase.code(own, opp)
        if code <= 0:
            return None  # a draw (no forced wipe-out) or not held: search on
        plies = (code - 1) >> 1
        if quiet + plies > self.limit:
            return None
        return MATE - ply - plies if code & 1 else -MATE + ply + plies

    def _order(
        self, deltas: list[Delta], table_move: Delta | None, ply: int, own: int, opp: int
    ) -> list[Delta]:
        """Table move, captures of unguarded pieces, other captures, killers, by history."""
        guarded = self.evaluate.maps.reach(opp, own)[1]
        winning: list[Delta] = []
        trading: list[Delta] = []
        quiet: list[Delta] = []
        for delta in deltas:
            keep = delta[1]
            if keep == KEEP_ALL:
                quiet.append(delta)
            elif guarded & ~keep:
                trading.append(delta)
            else:
                winning.append(delta)
        killers = [k for k in self.killers[ply] if k is not None and k in quiet]
        history = self.history
        quiet.sort(key=lambda d: history.get(d[0], 0), reverse=True)
        ordered = winning + trading + killers + [d for d in quiet if d not in killers]
        if table_move is not None and table_move in deltas:
            ordered.remove(table_move)
            ordered.insert(0, table_move)
        return ordered

    def _root(self, depth: int) -> int:
        own, opp, key, color = self.own, self.opp, self.key, self.color
        ordered = self._order(self.root_deltas, self.best, 0, own, opp)
        if self.best is not None and self.best in ordered:
            ordered.remove(self.best)
            ordered.insert(0, self.best)
        alpha, beta = -INFINITY, INFINITY
        best_delta = ordered[0]
        self.path.add(key)
        try:
            for index, delta in enumerate(ordered):
                flip, keep = delta
                child_key = self._child_key(key, color, delta)
                quiet = 0 if keep != KEEP_ALL else self.quiet + 1
                child = (opp & keep, own ^ flip)
                if index == 0:
                    score = -self._node(
                        *child, child_key, color ^ 1, depth - 1, -beta, -alpha, 1, quiet, False
                    )
                else:
                    score = -self._node(
                        *child, child_key, color ^ 1, depth - 1, -alpha - 1, -alpha, 1, quiet, True
                    )
                    if score > alpha:
                        score = -self._node(
                            *child, child_key, color ^ 1, depth - 1, -beta, -alpha, 1, quiet, False
                        )
                if score > alpha:
                    alpha, best_delta = score, delta
                    # A fully searched improvement is safe to play even if time runs out.
                    self.best = delta
        finally:
            self.path.discard(key)
        self.table[key] = (depth, _EXACT, _to_table(alpha, 0), best_delta)
        return alpha

    def _node(
        self,
        own: int,
        opp: int,
        key: int,
        color: int,
        depth: int,
        alpha: int,
        beta: int,
        ply: int,
        quiet: int,
        cut: bool,
    ) -> int:
        """Negamax value of ``(own, opp)`` within ``(alpha, beta)``, side ``color`` to move;
        ``cut``: a null-window node expected to fail high."""
        self.nodes += 1
        if self.nodes % _CHECK_EVERY == 0 and self.stop():
            raise _Stopped
        if not own:
            return self._wiped_out(opp, ply)
        if quiet >= self.limit:
            return self._count_ending(own, opp, color)
        if key in self.path:
            return self._repetition(own, opp, color, ply)
        if (own | opp).bit_count() <= self.tablebase_pieces:
            exact = self._probe(own, opp, ply, quiet)
            if exact is not None:
                return exact
        if depth <= 0 or ply >= MAX_PLY:
            return self._quiesce(own, opp, key, color, alpha, beta, ply, 0)
        return self._inner(own, opp, key, color, depth, alpha, beta, ply, quiet, cut)

    def _inner(
        self,
        own: int,
        opp: int,
        key: int,
        color: int,
        depth: int,
        alpha: int,
        beta: int,
        ply: int,
        quiet: int,
        cut: bool,
    ) -> int:
        """The value of a node with depth left that the game has not ended: the table's
        bound when it settles it, a pruning when one holds, else its moves searched."""
        table_move, settled = self._table_bound(key, depth, alpha, beta, ply)
        if settled is not None:
            return settled
        deltas = self.rules.deltas(own, opp)
        if not deltas:
            return self._count_ending(own, opp, color)
        if (
            beta - alpha <= 1  # not a principal variation node
            and depth >= 3
            and self._null_move_fails_high(own, opp, key, color, depth, beta, ply, quiet, cut)
        ):
            return beta
        ordered = self._order(deltas, table_move, ply, own, opp)
        if (
            cut
            and self.settings.multi_cut
            and depth >= _MULTI_CUT_MIN_DEPTH
            and self._multi_cut(own, opp, key, color, ordered, depth, beta, ply, quiet)
        ):
            return beta
        best_score, best_delta = self._search_moves(
            own, opp, key, color, ordered, depth, alpha, beta, ply, quiet, cut
        )
        flag = _LOWER if best_score >= beta else _EXACT if best_score > alpha else _UPPER
        self.table[key] = (depth, flag, _to_table(best_score, ply), best_delta)
        return best_score

    def _table_bound(
        self, key: int, depth: int, alpha: int, beta: int, ply: int
    ) -> tuple[Delta | None, int | None]:
        """The table's best move for the node (tried first), and its score when the entry
        is as deep and its bound settles the node within ``(alpha, beta)``."""
        entry = self.table.get(key)
        if entry is None:
            return None, None
        entry_depth, flag, entry_score, table_move = entry
        if entry_depth < depth:
            return table_move, None
        return table_move, _settled(flag, _from_table(entry_score, ply), alpha, beta)

    def _search_moves(
        self,
        own: int,
        opp: int,
        key: int,
        color: int,
        ordered: list[Delta],
        depth: int,
        alpha: int,
        beta: int,
        ply: int,
        quiet: int,
        cut: bool,
    ) -> tuple[int, Delta]:
        """The best score and move among ``ordered``: the first searched with the whole
        window, the others with a null window (late quiet ones a ply or two shallower)
        and again in full when they beat alpha; ends at the first that reaches beta."""
        best_score, best_delta = -INFINITY, ordered[0]
        moves_z, captures_z = self.keys.moves[color], self.keys.captures[color ^ 1]
        killers = self.killers[ply]
        reduce_late = self.settings.late_move_reductions and depth >= 3
        self.path.add(key)
        try:
            for index, delta in enumerate(ordered):
                flip, keep = delta
                child_own, child_opp = opp & keep, own ^ flip
                child_key = key ^ moves_z[flip]
                if keep != KEEP_ALL:
                    child_key ^= captures_z[~keep]
                    child_quiet = 0
                else:
                    child_quiet = quiet + 1
                if index == 0:
                    score = -self._node(
                        child_own,
                        child_opp,
                        child_key,
                        color ^ 1,
                        depth - 1,
                        -beta,
                        -alpha,
                        ply + 1,
                        child_quiet,
                        not cut,
                    )
                else:
                    reduction = 0
                    if reduce_late and index >= 3 and keep == KEEP_ALL and delta not in killers:
                        reduction = 2 if index >= 10 and depth >= 5 else 1
                    score = -self._node(
                        child_own,
                        child_opp,
                        child_key,
                        color ^ 1,
                        depth - 1 - reduction,
                        -alpha - 1,
                        -alpha,
                        ply + 1,
                        child_quiet,
                        True,
                    )
                    if score > alpha and (reduction or score < beta):
                        score = -self._node(
                            child_own,
                            child_opp,
                            child_key,
                            color ^ 1,
                            depth - 1,
                            -beta,
                            -alpha,
                            ply + 1,
                            child_quiet,
                            False,
                        )
                if score > best_score:
                    best_score, best_delta = score, delta
                    if score > alpha:
                        alpha = score
                        if score >= beta:
                            if keep == KEEP_ALL:
                                self._remember_quiet_cut(delta, killers, depth)
                            break
        finally:
            self.path.discard(key)
        return best_score, best_delta

    def _null_move_fails_high(
        self,
        own: int,
        opp: int,
        key: int,
        color: int,
        depth: int,
        beta: int,
        ply: int,
        quiet: int,
        cut: bool,
    ) -> bool:
        """Null move: if passing still beats beta, a real move surely would."""
        if (
            not self.settings.null_move
            or own.bit_count() < _NULL_MOVE_MIN_PIECES
            or self.evaluate(own, opp) < beta
        ):
            return False
        reduction = 3 if depth >= 6 else 2
        score = -self._node(
            opp,
            own,
            key ^ self.keys.black_to_move,
            color ^ 1,
            depth - 1 - reduction,
            -beta,
            -beta + 1,
            ply + 1,
            quiet + 1,
            not cut,
        )
        return score >= beta and abs(score) < COUNT_WIN

    def _remember_quiet_cut(self, delta: Delta, killers: list[Delta | None], depth: int) -> None:
        """A quiet move that refuted a node: a killer at its ply, and in the history."""
        if killers[0] != delta:
            killers[1], killers[0] = killers[0], delta
        flip = delta[0]
        self.history[flip] = self.history.get(flip, 0) + depth * depth

    def _multi_cut(
        self,
        own: int,
        opp: int,
        key: int,
        color: int,
        ordered: list[Delta],
        depth: int,
        beta: int,
        ply: int,
        quiet: int,
    ) -> bool:
        """Whether enough of the first moves fail high at a reduced depth."""
        cuts = 0
        self.path.add(key)
        try:
            for index, (flip, keep) in enumerate(ordered[:_MULTI_CUT_MOVES]):
                child_key = self._child_key(key, color, (flip, keep))
                score = -self._node(
                    opp & keep,
                    own ^ flip,
                    child_key,
                    color ^ 1,
                    depth - 1 - _MULTI_CUT_REDUCTION,
                    -beta,
                    -beta + 1,
                    ply + 1,
                    0 if keep != KEEP_ALL else quiet + 1,
                    False,
                )
                if score >= beta and abs(score) < COUNT_WIN:
                    cuts += 1
                    if cuts >= _MULTI_CUT_NEEDED:
                        return True
                elif _MULTI_CUT_NEEDED - cuts > _MULTI_CUT_MOVES - 1 - index:
                    return False  # too few moves left to reach the count
        finally:
            self.path.discard(key)
        return False

    def _quiesce(
        self,
        own: int,
        opp: int,
        key: int,
        color: int,
        alpha: int,
        beta: int,
        ply: int,
        qply: int,
    ) -> int:
        """Follow captures only, so that the evaluation never sees a half-done exchange."""
        self.nodes += 1
        if self.nodes % _CHECK_EVERY == 0 and self.stop():
            raise _Stopped
        if not own:
            return self._wiped_out(opp, ply)
        if qply and (own | opp).bit_count() <= self.tablebase_pieces:
            exact = self._probe(own, opp, ply, 0)  # a capture was just made
            if exact is not None:
                return exact
        stand = self.evaluate(own, opp)
        if self.noise:
            stand += self._noise(key)
        if stand >= beta or qply >= _QUIESCENCE_PLIES or ply >= MAX_PLY:
            return stand
        alpha = max(alpha, stand)
        captures = self.rules.capture_deltas(own, opp)
        if not captures:
            return stand
        guarded = self.evaluate.maps.reach(opp, own)[1]
        # Captures of unguarded pieces first: they win material outright.
        captures.sort(key=lambda d: bool(guarded & ~d[1]))
        best = stand
        moves_z, captures_z = self.keys.moves[color], self.keys.captures[color ^ 1]
        for flip, keep in captures:
            # Keys only matter here for the noise of the weaker levels.
            child_key = key ^ moves_z[flip] ^ captures_z[~keep] if self.noise else 0
            score = -self._quiesce(
                opp & keep, own ^ flip, child_key, color ^ 1, -beta, -alpha, ply + 1, qply + 1
            )
            if score > best:
                best = score
                if score > alpha:
                    alpha = score
                    if score >= beta:
                        break
        return best


def think(
    position: Position,
    variant: Variant = Variant.STANDARD,
    *,
    movetime: float | None = None,
    deadline: Callable[[], bool] | None = None,
    depth: int | None = None,
    history: Sequence[Position] = (),
    plies_without_capture: int = 0,
    endings: Endings | None = None,
    noise: int = 0,
    noise_seed: int = 0,
    settings: SearchSettings = DEFAULT_SETTINGS,
    objective: Objective = DEFAULT_OBJECTIVE,
    tablebase: Tablebase | bool = True,
    nodes: int | None = None,
    clock: Callable[[], float] = time.monotonic,
) -> SearchResult:
    """The engine's move in ``position`` within a time budget.

    Give ``movetime`` (seconds), ``deadline`` (a callable that turns true when time
    is up), ``depth`` (plies), ``nodes`` (a node budget: what a slower computer
    would search in its time), or several: the search stops at the first limit
    reached. With none, it searches to depth 4. A single legal move is returned at
    once, and so is the table's move in a position the tablebase holds as won.
    Before ending the game by its own repetition, it searches the other moves as
    long again (two plies deeper when the depth is the limit) and plays the best of
    them if it scores above the repetition: ahead, one that proves a better ending
    (a wipe-out, a larger margin); level, one worth more than a draw less the
    contempt; behind, any that is not wiped out sooner.
    Raises GameOver when the side to move has no move.
    """
    def searcher(
        only: Sequence[Move] | None = None, table: TranspositionTable | None = None
    ) -> Search:
        return Search(
            position,
            variant,
            history=history,
            plies_without_capture=plies_without_capture,
            endings=endings,
            noise=noise,
            noise_seed=noise_seed,
            settings=settings,
            objective=objective,
            tablebase=tablebase,
            transpositions=table,
            only=only,
        )

    search = searcher()
    first = search.best_move
    if first is None:
        raise GameOver(f"game over: no legal move in {position}")
    won = _won_in_tables(search, history, plies_without_capture, endings)
    if won is not None:
        return won
    if len(search.root_deltas) == 1:
        return SearchResult(first, 0, 0, [first], 0)
    max_depth = depth if depth is not None else (64 if (movetime or deadline or nodes) else 4)
    last = _deepen(search, max_depth, movetime, deadline, nodes, clock)
    move = search.best_move or first
    if last is None:
        return SearchResult(move, search.best_score, 0, [move], search.nodes)
    pv = last.pv if last.pv and last.pv[0] == move else [move]
    chosen = SearchResult(move, last.score, last.depth, pv, search.nodes)
    if not (search.repetition and make_move(position, chosen.move) in history):
        return chosen
    limits = (movetime, deadline, nodes, clock)
    return _second_look(position, history, search, searcher, chosen, max_depth, limits)


Searcher = Callable[[Sequence[Move] | None, TranspositionTable | None], Search]
"""A search of ``think``'s position and settings over some root moves (None: all), with a
transposition table to reuse (None: a fresh one)."""
Limits = tuple[float | None, Callable[[], bool] | None, int | None, Callable[[], float]]
"""``think``'s limits: ``movetime``, ``deadline``, ``nodes`` and the clock."""


def _second_look(
    position: Position,
    history: Sequence[Position],
    search: Search,
    searcher: Searcher,
    chosen: SearchResult,
    max_depth: int,
    limits: Limits,
) -> SearchResult:
    """``chosen`` (a move repeating a position of ``history``) or the best other move.

    The game's last move deserves a second look: ahead, a wipe-out just beyond the
    depth reached (a capture into the tables, say) is what a player expects, not a
    win by repetition; level, a search stopped in the middle of a depth may have
    found the draw's exact score above a first move that failed low, before it
    reached the moves that play on.
    """
    movetime, deadline, nodes, clock = limits
    # The repetition's own score is exact at one ply (the game ends); the last
    # completed depth's score may belong to another move.
    repeating = _deepen(searcher([chosen.move], None), 1, None, None, None, clock)
    assert repeating is not None
    others = [m for m in search.root_moves if make_move(position, m) not in history]
    again = searcher(others, search.table)
    # One depth decides. The better of the last two was tried, to see past the swing
    # of a quiet position's score between odd and even depths: it scored 49% against
    # the previous engine over 400 games at 0.1 s a move, where this scored 59%.
    deeper = _deepen(again, min(max_depth + _VERIFY_PLIES, 64), movetime, deadline, nodes, clock)
    nodes_searched = search.nodes + again.nodes
    if deeper is None or deeper.score <= repeating.score:
        # The repetition stands: every other move was searched this deep to no better end.
        depth_seen = max(chosen.depth, deeper.depth if deeper is not None else 0)
        return dataclasses.replace(
            chosen, score=repeating.score, depth=depth_seen, nodes=nodes_searched
        )
    return SearchResult(deeper.pv[0], deeper.score, deeper.depth, deeper.pv, nodes_searched)


def _won_in_tables(
    search: Search,
    history: Sequence[Position],
    plies_without_capture: int,
    endings: Endings | None,
) -> SearchResult | None:
    """The tables' move when they hold the search's position as won, else None."""
    if search.tablebase is None or not search.tablebase.covers(search.own, search.opp):
        return None
    won = winning_move(
        search.tablebase,
        search.position,
        search.variant,
        history=history if search.repetition else (),
        plies_without_capture=plies_without_capture,
        no_capture_limit=(endings or Endings()).no_capture_limit,
    )
    if won is None:
        return None
    pv, verdict = won
    return SearchResult(pv[0], MATE - verdict.plies, 0, pv, 0)


def _deepen(
    search: Search,
    max_depth: int,
    movetime: float | None,
    deadline: Callable[[], bool] | None,
    nodes: int | None,
    clock: Callable[[], float],
) -> Iteration | None:
    """The deepest iteration ``search`` completes within the limits (None if none)."""
    stop = _stopper(movetime, deadline, clock)
    if nodes is not None:
        timed = stop
        stop = lambda: search.nodes >= nodes or timed()  # noqa: E731
    last: Iteration | None = None
    for iteration in search.iterate(stop, max_depth):
        last = iteration
    return last


def _stopper(
    movetime: float | None, deadline: Callable[[], bool] | None, clock: Callable[[], float]
) -> Callable[[], bool]:
    if movetime is None:
        return deadline if deadline is not None else (lambda: False)
    end = clock() + movetime
    if deadline is None:
        return lambda: clock() >= end
    return lambda: clock() >= end or deadline()
