"""Answering the referee's ``Think`` requests with the engine at a strength level."""

from __future__ import annotations

import random
from collections.abc import Callable

from controller.decisions import Think
from controller.engine.endgame import move_outlook
from controller.engine.levels import choose
from controller.engine.objective import DEFAULT_OBJECTIVE, PIECES_OBJECTIVE
from controller.engine.search import MATE_BOUND, SearchResult, describe_score


def choose_for(
    request: Think,
    *,
    movetime: float | None,
    depth: int | None = None,
    rng: random.Random | None = None,
    stop: Callable[[], bool] | None = None,
) -> SearchResult:
    """The move for ``request`` at its level, within ``movetime`` seconds or ``depth`` plies.

    ``stop`` ends the search early when it turns true (the request was superseded);
    a game of a match scored by pieces is played for pieces.

    Raises GameOver when the side to move has no move.
    """
    return choose(
        request.position,
        request.variant,
        movetime=movetime,
        depth=depth,
        level_number=request.level,
        rng=rng,
        history=(*request.history, request.position),
        plies_without_capture=request.plies_without_capture,
        endings=request.endings,
        stop=stop,
        objective=PIECES_OBJECTIVE if request.scored_by_pieces else DEFAULT_OBJECTIVE,
    )


def outlook(request: Think, result: SearchResult) -> str:
    """What the chosen move leads to, when known exactly: the tablebase's verdict
    (``wins in 7 plies``, ``draw, no forced wipe-out``) or a wipe-out the search saw;
    empty otherwise (a score in pawns means little to a player)."""
    found = move_outlook(
        request.position,
        request.variant,
        result.move,
        plies_without_capture=request.plies_without_capture,
        no_capture_limit=request.endings.no_capture_limit,
    )
    if found is not None:
        return found.describe()
    if abs(result.score) > MATE_BOUND:
        return describe_score(result.score)
    return ""
