"""The engine as a player: a strength level and a seeded source of randomness."""

from __future__ import annotations

import random

from controller.engine.levels import choose_move, level
from controller.engine.search import SearchResult
from controller.engine.settings import DEFAULT_SETTINGS, SearchSettings
from controller.game import Game
from controller.moves import Move


class EnginePlayer:
    """Plays at one strength level; deterministic for a seed (see ``levels``)."""

    name = "engine"

    def __init__(
        self, level_number: int = 10, seed: int = 0, settings: SearchSettings = DEFAULT_SETTINGS
    ) -> None:
        level(level_number)  # reject a bad level now, not at the first move
        self.level_number = level_number
        self.settings = settings
        self.rng = random.Random(seed)
        self.last: SearchResult | None = None
        """The last search's result (score, depth, principal variation)."""

    def choose(self, game: Game, movetime: float) -> Move:
        """The engine's move in ``game`` with ``movetime`` seconds to think."""
        self.last = choose_move(
            game,
            movetime=movetime,
            level_number=self.level_number,
            rng=self.rng,
            settings=self.settings,
        )
        return self.last.move
