"""Positions the engine tests share: the tactics file and seeded middle games."""

from __future__ import annotations

import random
from pathlib import Path

from controller.game import Game
from controller.position import Position
from controller.variants import Variant

TACTICS_FILE = Path(__file__).parent / "data" / "tactics.txt"


def load_tactics(path: Path = TACTICS_FILE) -> list[tuple[str, set[str], str]]:
    """(position, moves that solve it, what it is) for every line of the tactics file."""
    tactics = []
    for line in path.read_text(encoding="utf-8").splitlines():
        if line.strip() and not line.startswith("#"):
            position, solutions, idea = (part.strip() for part in line.split("|", 2))
            tactics.append((position, set(solutions.split()), idea))
    return tactics


TACTICS = load_tactics()
"""Tactical positions, red to move."""


def middle_game_positions(count: int, variant: Variant, seed: int) -> list[Position]:
    """Positions after 10-30 random plies (seeded), game not over."""
    rng = random.Random(seed)
    found: list[Position] = []
    while len(found) < count:
        game = Game(variant)
        for _ in range(rng.randint(10, 30)):
            if game.is_over:
                break
            game.play(rng.choice(game.legal_moves()))
        if not game.is_over:
            found.append(game.position)
    return found
