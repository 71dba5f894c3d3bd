"""Playing from the tablebase: the winning move at the root, and its line; the
outlook a hint or an evaluation shows.

A won position is played straight from the table, without searching: of the
moves that keep the win, one of least distance (so the game shortens every
move and never repeats). The line shown with it has the loser holding out
longest. Lost and drawn positions are left to the search, which probes the
table at every node and also sees the repetitions and the no-capture limit.
"""

from __future__ import annotations

from collections.abc import Sequence

from controller.engine.tablebase import Probe, Result, Tablebase, shipped
from controller.movegen import legal_moves, make_move
from controller.moves import Move
from controller.position import Position
from controller.variants import Variant

_WIPED_OUT = Probe(Result.LOSS, 0)


def verdict(table: Tablebase, position: Position) -> Probe | None:
    """The table's verdict for the side to move, or None when not held."""
    own, opp = position.pieces(position.turn), position.pieces(position.turn.other)
    if not own:
        return _WIPED_OUT
    return table.probe(own, opp)


def scored_moves(
    table: Tablebase, position: Position, variant: Variant
) -> list[tuple[Move, Probe]]:
    """Every legal move with the table's verdict for the side to move after it."""
    scored: list[tuple[Move, Probe]] = []
    for move in legal_moves(position, variant):
        after = verdict(table, make_move(position, move))
        if after is None:
            return []
        scored.append((move, after))
    return scored


def _mover_value(after: Probe) -> tuple[int, int]:
    """A sort key, best first, for the side that made the move: wins soonest, then
    draws, then losses latest."""
    if after.result is Result.LOSS:
        return (0, after.plies)
    if after.result is Result.DRAW:
        return (1, 0)
    return (2, -after.plies)


def best_move(
    table: Tablebase,
    position: Position,
    variant: Variant,
    avoid: Sequence[Position] = (),
) -> tuple[Move, Probe] | None:
    """The table's best move (and the verdict after it), skipping moves into ``avoid``."""
    scored = [
        (move, after)
        for move, after in scored_moves(table, position, variant)
        if make_move(position, move) not in avoid
    ]
    if not scored:
        return None
    return min(scored, key=lambda pair: _mover_value(pair[1]))


def line(table: Tablebase, position: Position, variant: Variant, limit: int = 64) -> list[Move]:
    """The best line from ``position`` by the table, until the game ends."""
    moves: list[Move] = []
    while len(moves) < limit:
        found = best_move(table, position, variant)
        if found is None:
            break
        moves.append(found[0])
        position = make_move(position, found[0])
        if not position.pieces(position.turn):
            break
    return moves


def winning_move(
    table: Tablebase,
    position: Position,
    variant: Variant,
    *,
    history: Sequence[Position] = (),
    plies_without_capture: int = 0,
    no_capture_limit: int | None = None,
) -> tuple[list[Move], Probe] | None:
    """The line to play (best move first) and the verdict, when ``position`` is won
    by the table and the no-capture limit cannot stop it; else None."""
    now = verdict(table, position)
    if now is None or now.result is not Result.WIN:
        return None
    if not now.within_limit(plies_without_capture, no_capture_limit):
        return None
    found = best_move(table, position, variant, avoid=history)
    if found is None or found[1].result is not Result.LOSS:
        return None
    move = found[0]
    return [move, *line(table, make_move(position, move), variant)], now


def position_outlook(
    position: Position,
    variant: Variant,
    *,
    plies_without_capture: int = 0,
    no_capture_limit: int | None = None,
) -> Probe | None:
    """The shipped tables' verdict for the side to move, or None: when no table holds
    the position, or the no-capture limit would end the game before the table's result."""
    if variant.has_slides:
        return None  # gonu's tables would need its slides stepped back: there are none
    own, opp = position.pieces(position.turn), position.pieces(position.turn.other)
    if not own or not opp:
        return None  # the game is over: no outlook to give
    table = shipped(variant, position.size)
    if table is None or not table.covers(own, opp):
        return None
    found = table.probe(own, opp)
    if found is None or not found.within_limit(plies_without_capture, no_capture_limit):
        return None
    return found


def move_outlook(
    position: Position,
    variant: Variant,
    move: Move,
    *,
    plies_without_capture: int = 0,
    no_capture_limit: int | None = None,
) -> Probe | None:
    """The tables' verdict for the side making ``move``, counting the move itself (a
    capture of the last piece wins in 1 ply), or None as for ``position_outlook``."""
    after = make_move(position, move)
    if not after.pieces(after.turn):
        return Probe(Result.WIN, 1)
    captured = after.count(after.turn) < position.count(after.turn)
    found = position_outlook(
        after,
        variant,
        plies_without_capture=0 if captured else plies_without_capture + 1,
        no_capture_limit=no_capture_limit,
    )
    if found is None or found.result is Result.DRAW:
        return found
    flipped = Result.LOSS if found.result is Result.WIN else Result.WIN
    return Probe(flipped, found.plies + 1)
