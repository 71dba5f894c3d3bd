"""A finished game's analysis on the board: asked for with the hint button, its
mistakes replayed on the lamps one press at a time.

After a game, the first press of hint asks the engine to analyse it
(``analysis_request``, answered by ``answer_analysis`` on the engine's thread);
each press after the answer shows the next step of ``Replay``: a mistake's move
played, running along its path on the last-capture lamps, then the better move
and its capture path on the hint lamps. After the last mistake the lamps go
dark and the next press starts again from the first.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

from controller.decisions import (
    AnalysisReady,
    Clear,
    Decision,
    Effect,
    Layer,
    Light,
    Mistake,
    Purpose,
    Say,
    Think,
)
from controller.engine.analysis import Review, Verdict, analyse, summarise
from controller.engine.search import describe_score
from controller.game import Game
from controller.moves import Move

ANALYSIS_SECONDS = 0.3
"""Search time a position when the board analyses a game (and as much again after a
move that was not the engine's): under half a minute for a 50-ply game, on a Pi
too, where it still searches a few plies deep."""

PLAYED_LAYER = Layer.LAST
"""Where the move played runs (amber on colour lamps, like a past capture)."""
BETTER_LAYER = Layer.HINT
"""Where the better move pulses (as a hint does)."""
REPLAYED = (Verdict.MISTAKE, Verdict.BLUNDER)
"""Inaccuracies are counted, not replayed: half a piece is hard to see on a board."""


def analysis_request(request: int, game: Game) -> Think:
    """The engine request for an analysis of ``game``."""
    return Think(
        request=request,
        purpose=Purpose.ANALYSIS,
        position=game.positions[0],
        history=(),
        plies_without_capture=0,
        variant=game.variant,
        endings=game.endings,
        level=10,  # judged at full strength, as hints are
        moves=tuple(game.moves),
    )


def mistake_of(review: Review) -> Mistake:
    """A marked move as the replay shows it."""
    line = " ".join(move.name for move in review.line)
    return Mistake(
        review.ply,
        review.played,
        review.best,
        f"{review.number()} {review.played.name}, a {review.verdict.value}: "
        f"{describe_score(review.score)}",
        f"better {review.best.name}: {describe_score(review.best_score)} ({line})",
    )


def answer_analysis(
    request: Think,
    *,
    movetime: float | None = None,
    depth: int | None = None,
    stop: Callable[[], bool] | None = None,
) -> AnalysisReady:
    """Analyse the game of ``request``; its mistakes and the counts of marked moves."""
    game = Game(request.variant, request.position, request.endings)
    for move in request.moves:
        game.play(move)
    reviews = analyse(game, movetime=movetime, depth=depth, stop=stop)
    return AnalysisReady(
        request.request,
        tuple(mistake_of(review) for review in reviews if review.verdict in REPLAYED),
        "; ".join(summary.text() for summary in summarise(reviews)),
    )


@dataclass
class Replay:
    """The mistakes of one finished game, stepped through one press at a time."""

    moves: tuple[Move, ...]
    """The game analysed: a replay belongs to it alone (undo makes it stale)."""
    mistakes: tuple[Mistake, ...]
    """What there is to show."""
    step: int = 0
    """Twice the mistake's number, plus one once its better move is on show."""

    def belongs_to(self, moves: Sequence[Move]) -> bool:
        """Whether this is the analysis of a game with these moves."""
        return self.moves == tuple(moves)

    def ready(self, summary: str) -> list[Decision]:
        """What the board says when the analysis arrives."""
        count = len(self.mistakes)
        if not count:
            return [Say(f"analysis: no mistakes ({summary})")]
        noun = "mistake" if count == 1 else "mistakes"
        return [Say(f"analysis: {summary}; press hint to see the {count} {noun} on the lamps")]

    def next(self) -> list[Decision]:
        """The next step: a move played, its better move, or the end of the replay."""
        index, better = divmod(self.step, 2)
        if index >= len(self.mistakes):
            self.step = 0
            return [
                Clear(PLAYED_LAYER),
                Clear(BETTER_LAYER),
                Say("end of the analysis: press hint to see it again, new for a new game"),
            ]
        self.step += 1
        mistake = self.mistakes[index]
        heading = f"mistake {index + 1} of {len(self.mistakes)}: "
        if not better:
            return [
                Clear(BETTER_LAYER),
                Light(PLAYED_LAYER, Effect.CHASE, (mistake.played.path,)),
                Say(heading + mistake.played_text),
            ]
        return [
            Clear(PLAYED_LAYER),
            Light(BETTER_LAYER, Effect.PULSE, (mistake.better.path,)),
            Say(heading + mistake.better_text),
        ]
