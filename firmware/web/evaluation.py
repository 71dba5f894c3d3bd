"""The engine's view of the board's position, asked for from the page.

Thought out on a worker thread from a copy of the game, so the board's loop
never waits; the answer is a score in words, the best move and the best line.
"""

from __future__ import annotations

import threading
from typing import Any

from controller.engine.endgame import position_outlook
from controller.engine.search import describe_score, think
from controller.errors import SurakartaError
from controller.game import Game

EVALUATION_SECONDS = 1.0
"""Thinking time for one evaluation."""


def evaluate(game: Game, seconds: float = EVALUATION_SECONDS) -> dict[str, Any]:
    """The engine's view of ``game``'s position, for the side to move."""
    position = game.position
    try:
        result = think(
            position,
            game.variant,
            movetime=seconds,
            history=tuple(game.positions[:-1]),
            plies_without_capture=game.plies_without_capture,
            endings=game.endings,
        )
    except SurakartaError as error:
        return {"position": position.board_string(), "text": str(error)}
    # A position the tables hold is shown exactly: result and distance, or a draw.
    exact = position_outlook(
        position,
        game.variant,
        plies_without_capture=game.plies_without_capture,
        no_capture_limit=game.endings.no_capture_limit,
    )
    words = describe_score(result.score) if exact is None else exact.describe()
    return {
        "position": position.board_string(),
        "text": f"{position.turn.word} to move: {words}",
        "score": result.score,
        "best": result.move.name,
        "line": [move.name for move in result.pv],
        "depth": result.depth,
        "exact": exact is not None,
    }


class Evaluator:
    """One evaluation at a time on a worker thread; ``latest`` holds the last answer."""

    def __init__(self, seconds: float = EVALUATION_SECONDS) -> None:
        self.seconds = seconds
        self.latest: dict[str, Any] | None = None
        """The last evaluation (``thinking`` while one is under way)."""
        self.version = 0
        """Counts the changes of ``latest``."""
        self._thread: threading.Thread | None = None

    @property
    def is_thinking(self) -> bool:
        """Whether an evaluation is under way."""
        return self._thread is not None and self._thread.is_alive()

    def start(self, game: Game) -> str:
        """Evaluate a copy of ``game``; says what happens."""
        if self.is_thinking:
            return "already thinking"
        if game.is_over:
            return "the game is over"
        copy = Game(game.variant, start=game.start, endings=game.endings)
        for move in game.moves:
            copy.play(move)
        self.latest = {"position": copy.position.board_string(), "text": "thinking..."}
        self.version += 1
        self._thread = threading.Thread(target=self._run, args=(copy,), name="web-eval",
                                        daemon=True)
        self._thread.start()
        return "thinking"

    def _run(self, game: Game) -> None:
        self.latest = evaluate(game, self.seconds)
        self.version += 1
