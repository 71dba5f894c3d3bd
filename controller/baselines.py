"""Baseline players for matches and tests: a random mover and a greedy capturer."""

from __future__ import annotations

import random

from controller.errors import GameOver
from controller.game import Game
from controller.moves import Move


def _moves_of(game: Game) -> list[Move]:
    moves = game.legal_moves()
    if not moves:
        raise GameOver(f"game over: {game.outcome}; no move to choose")
    return moves


class RandomPlayer:
    """Plays a uniformly random legal move; deterministic for a given seed."""

    name = "random"

    def __init__(self, seed: int = 0) -> None:
        self.rng = random.Random(seed)

    def choose(self, game: Game, movetime: float) -> Move:
        """A random legal move (``movetime`` is not needed)."""
        return self.rng.choice(_moves_of(game))


class GreedyPlayer:
    """Takes a piece whenever it can (a random capture), else plays a random move."""

    name = "greedy"

    def __init__(self, seed: int = 0) -> None:
        self.rng = random.Random(seed)

    def choose(self, game: Game, movetime: float) -> Move:
        """A random capture if there is one, else a random legal move."""
        moves = _moves_of(game)
        captures = [move for move in moves if move.is_capture]
        return self.rng.choice(captures or moves)
