"""The engine's opinion of the position on the board, on request, thought out in the background."""

from __future__ import annotations

import threading

from controller.game import Game
from firmware.web.evaluation import evaluate

EVALUATION_SECONDS = 0.7
"""Thinking time for one evaluation."""


def evaluation_text(game: Game, seconds: float = EVALUATION_SECONDS) -> str:
    """One line: the score for the side to move, the best move and the depth reached (or
    that the tables, which are exact, gave them)."""
    view = evaluate(game, seconds)
    if "best" not in view:
        return str(view["text"])  # why the engine could not judge the position
    source = "the tables" if view["exact"] else f"depth {view['depth']}"
    return f"{view['text']}, best {view['best']} ({source})"


class Evaluation:
    """Evaluates a game on a worker thread; ``text`` holds the latest answer."""

    def __init__(self, seconds: float = EVALUATION_SECONDS) -> None:
        self.seconds = seconds
        self.text = "press E for the engine's evaluation"
        """The latest evaluation, or what is going on."""
        self._thread: threading.Thread | None = None

    @property
    def is_thinking(self) -> bool:
        """Whether an evaluation is under way."""
        return self._thread is not None and self._thread.is_alive()

    def start(self, game: Game) -> None:
        """Evaluate ``game``'s position (ignored while an evaluation is under way)."""
        if self.is_thinking:
            return
        if game.is_over:
            self.text = "the game is over"
            return
        self.text = "thinking..."
        snapshot = Game(game.variant, start=game.start, endings=game.endings)
        for move in game.moves:
            snapshot.play(move)
        self._thread = threading.Thread(
            target=self._run, args=(snapshot,), name="evaluation", daemon=True
        )
        self._thread.start()

    def wait(self) -> None:
        """Block until the evaluation under way is done."""
        if self._thread is not None:
            self._thread.join()

    def _run(self, game: Game) -> None:
        self.text = evaluation_text(game, self.seconds)
