"""Answering the referee's ``Think`` requests with the engine at a strength level."""

from __future__ import annotations

import random

from controller.decisions import Think
from controller.engine.levels import level
from controller.engine.search import SearchResult, think
from controller.movegen import legal_moves


def choose_for(
    request: Think,
    *,
    movetime: float | None,
    depth: int | None = None,
    rng: random.Random | None = None,
) -> SearchResult:
    """The move for ``request`` at its level, within ``movetime`` seconds or ``depth`` plies.

    Raises GameOver when the side to move has no move.
    """
    chosen = level(request.level)
    rng = rng if rng is not None else random.Random(0)
    noise_seed = rng.getrandbits(64)
    if chosen.blunder and rng.random() < chosen.blunder:
        moves = legal_moves(request.position, request.variant)
        if moves:
            move = rng.choice(moves)
            return SearchResult(move, 0, 0, [move], 0)
    if movetime is not None and chosen.max_movetime is not None:
        movetime = min(movetime, chosen.max_movetime)
    depths = [d for d in (depth, chosen.max_depth) if d is not None]
    return think(
        request.position,
        request.variant,
        movetime=movetime,
        depth=min(depths) if depths else None,
        history=request.history,
        plies_without_capture=request.plies_without_capture,
        endings=request.endings,
        noise=chosen.noise,
        noise_seed=noise_seed,
    )
