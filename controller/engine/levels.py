"""Strength levels 1-10, from beginner mistakes to full strength.

A level limits the search depth and time, adds noise to the evaluation (so the
weaker levels misjudge positions the way a beginner does, consistently within
one move's search), and now and then plays a random legal move. Everything random
comes from ``random.Random(seed)``: with the same seed, the same moves in the same
order give the same choices, as long as the depth cap (not the clock) ends each
search; the caps below are chosen so that it does on an ordinary PC.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from controller.engine.objective import DEFAULT_OBJECTIVE, Objective
from controller.engine.search import SearchResult, think
from controller.engine.settings import DEFAULT_SETTINGS, SearchSettings
from controller.errors import SurakartaError
from controller.game import Endings, Game
from controller.movegen import legal_moves
from controller.position import Position
from controller.variants import Variant


class BadLevel(SurakartaError, ValueError):
    """A strength level outside 1-10."""


@dataclass(frozen=True, slots=True)
class Level:
    """How one strength level plays."""

    number: int
    """1 (weakest) to 10 (full strength)."""
    max_depth: int | None
    """Deepest search in plies; None for no limit but the time."""
    max_movetime: float | None
    """Seconds per move at most, whatever the caller allows; None for no cap."""
    noise: int
    """Half-width of the evaluation noise, in hundredths of a piece."""
    blunder: float
    """Chance of playing a random legal move instead of searching."""
    description: str
    """In words, for menus."""
    tablebase: bool = True
    """Whether it plays endings from the tablebase (a beginner does not)."""


LEVELS: tuple[Level, ...] = (
    Level(1, 1, 0.2, 150, 0.30, "beginner: one ply, often careless", tablebase=False),
    Level(2, 1, 0.2, 80, 0.15, "sees its own captures, little else", tablebase=False),
    Level(3, 2, 0.3, 60, 0.10, "sees the reply, still misjudges", tablebase=False),
    Level(4, 2, 0.3, 40, 0.05, "casual player", tablebase=False),
    Level(5, 3, 0.4, 30, 0.03, "club beginner", tablebase=False),
    Level(6, 3, 0.5, 20, 0.0, "avoids simple blunders"),
    Level(7, 4, 0.6, 12, 0.0, "solid tactics over two moves"),
    Level(8, 5, 1.0, 6, 0.0, "strong player"),
    Level(9, 6, 2.0, 3, 0.0, "near full strength"),
    Level(10, None, None, 0, 0.0, "full strength: the whole time budget"),
)
"""Every level, weakest first (``LEVELS[n - 1]`` is level n)."""


def level(number: int) -> Level:
    """Level ``number`` (1-10); raises ValueError."""
    if not 1 <= number <= len(LEVELS):
        raise BadLevel(f"invalid level: {number!r} (expected 1 to {len(LEVELS)})")
    return LEVELS[number - 1]


def choose_move(
    game: Game,
    *,
    movetime: float,
    level_number: int = 10,
    rng: random.Random | None = None,
    settings: SearchSettings = DEFAULT_SETTINGS,
    objective: Objective = DEFAULT_OBJECTIVE,
) -> SearchResult:
    """The move a player of ``level_number`` makes in ``game`` with ``movetime`` seconds.

    ``rng`` supplies the level's randomness (``random.Random(0)`` when None);
    ``objective`` the scoring in force.
    Raises GameOver when the side to move has no move.
    """
    return choose(
        game.position,
        game.variant,
        movetime=movetime,
        level_number=level_number,
        rng=rng,
        history=game.positions,
        plies_without_capture=game.plies_without_capture,
        endings=game.endings,
        settings=settings,
        objective=objective,
    )


def choose(
    position: Position,
    variant: Variant,
    *,
    movetime: float | None,
    depth: int | None = None,
    level_number: int = 10,
    rng: random.Random | None = None,
    history: Sequence[Position] = (),
    plies_without_capture: int = 0,
    endings: Endings | None = None,
    settings: SearchSettings = DEFAULT_SETTINGS,
    stop: Callable[[], bool] | None = None,
    objective: Objective = DEFAULT_OBJECTIVE,
) -> SearchResult:
    """The move a player of ``level_number`` makes in ``position``.

    The search stops at ``movetime`` seconds or ``depth`` plies (or the level's own
    caps, whichever comes first), or as soon as ``stop()`` turns true. ``history`` is
    the game's positions up to and including ``position``, for repetitions;
    ``objective`` the scoring in force. Raises GameOver when there is no move.
    """
    chosen = level(level_number)
    rng = rng if rng is not None else random.Random(0)
    noise_seed = rng.getrandbits(64)
    if chosen.blunder and rng.random() < chosen.blunder:
        moves = legal_moves(position, variant)
        if moves:
            move = rng.choice(moves)
            return SearchResult(move, 0, 0, [move], 0)
    if movetime is not None and chosen.max_movetime is not None:
        movetime = min(movetime, chosen.max_movetime)
    depths = [d for d in (depth, chosen.max_depth) if d is not None]
    return think(
        position,
        variant,
        movetime=movetime,
        depth=min(depths) if depths else None,
        history=history,
        plies_without_capture=plies_without_capture,
        endings=endings,
        noise=chosen.noise,
        noise_seed=noise_seed,
        settings=settings,
        deadline=stop,
        objective=objective,
        tablebase=chosen.tablebase,
    )
