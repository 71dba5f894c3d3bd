"""Game analysis: every move scored against the engine's best, mistakes marked.

Each position of the game is searched (with the game's history, so repetitions
and the no-capture limit count as they did); when the move played is not the
engine's choice, the position after it is searched too, and the difference is
what the move cost its player. Positions the tablebase holds are scored exactly.

A move is an inaccuracy from half a piece lost, a mistake from a piece, a
blunder from two pieces, or when it throws away a won game or walks into a lost
one (a result the search or the tables can see).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from enum import Enum

from controller.engine.search import (
    COUNT_WIN,
    MATE,
    MATE_BOUND,
    describe_score,
    ending_score,
    think,
)
from controller.game import EndReason, Game
from controller.moves import Move
from controller.position import Color


class Verdict(Enum):
    """How bad a move was."""

    GOOD = ""
    INACCURACY = "inaccuracy"
    MISTAKE = "mistake"
    BLUNDER = "blunder"


INACCURACY_COST = 50
MISTAKE_COST = 100
BLUNDER_COST = 200


@dataclass(frozen=True, slots=True)
class Review:
    """One move of the game, judged."""

    ply: int
    """1 for the first move of the game."""
    mover: Color
    """Who played it."""
    played: Move
    """The move played."""
    score: int
    """What the move played is worth to its player (100 = one piece)."""
    best: Move
    """The engine's move."""
    best_score: int
    """What the engine's move is worth."""
    line: tuple[Move, ...]
    """The engine's line from the position, its move first."""
    verdict: Verdict
    """Good, inaccuracy, mistake or blunder."""

    @property
    def cost(self) -> int:
        """How much worse than the best the move played was (0 when it is the best)."""
        return max(0, self.best_score - self.score)

    def number(self) -> str:
        """``7.`` for a red move, ``7...`` for a black one (red first)."""
        move_number = (self.ply + 1) // 2
        return f"{move_number}." if self.ply % 2 == 1 else f"{move_number}..."

    def text(self) -> str:
        """One line: the move, its score, and for a mistake the better move and path."""
        head = f"{self.number():>6} {self.played.name:<10} {describe_score(self.score)}"
        if self.verdict is Verdict.GOOD:
            return head
        path = " ".join(move.name for move in self.line)
        return (
            f"{head}  {self.verdict.value}: best {self.best.name} "
            f"({describe_score(self.best_score)}): {path}"
        )


def _outcome_class(score: int) -> int:
    """+1 for a result won (by wipe-out or count), -1 lost, 0 open or drawn."""
    if score >= COUNT_WIN:
        return 1
    if score <= -COUNT_WIN:
        return -1
    return 0


def judge(best_score: int, score: int) -> Verdict:
    """The verdict on a move worth ``score`` where the best was worth ``best_score``."""
    if _outcome_class(score) < _outcome_class(best_score):
        return Verdict.BLUNDER
    if _outcome_class(best_score) != 0:
        return Verdict.GOOD  # both won (or both lost): the distance is no mistake
    cost = best_score - score
    if cost >= BLUNDER_COST:
        return Verdict.BLUNDER
    if cost >= MISTAKE_COST:
        return Verdict.MISTAKE
    if cost >= INACCURACY_COST:
        return Verdict.INACCURACY
    return Verdict.GOOD


def _one_ply_later(score: int) -> int:
    """A score of the position after a move, seen from the mover one ply earlier."""
    score = -score
    if score > MATE_BOUND:
        return score - 1
    if score < -MATE_BOUND:
        return score + 1
    return score


def analyse(
    game: Game,
    *,
    movetime: float | None = None,
    depth: int | None = None,
    progress: Callable[[Review], None] | None = None,
    stop: Callable[[], bool] | None = None,
) -> list[Review]:
    """Every move of ``game`` judged, searching ``movetime`` seconds or ``depth`` plies
    a position; ``stop`` turning true ends it early, with the moves judged so far."""
    replay = Game(game.variant, game.start, game.endings)
    reviews: list[Review] = []
    for ply, played in enumerate(game.moves, start=1):
        if stop is not None and stop():
            break
        position = replay.position
        best = think(
            position,
            game.variant,
            movetime=movetime,
            deadline=stop,
            depth=depth,
            history=replay.positions,
            plies_without_capture=replay.plies_without_capture,
            endings=game.endings,
        )
        replay.play(played)
        if played == best.move:
            score = best.score
        else:
            score = _played_score(replay, position.turn, movetime, depth, best.depth, stop)
        best_move, best_score, line = best.move, best.score, tuple(best.pv)
        if score > best_score:
            # The separate search of the move played saw further: it was the best.
            best_move, best_score, line = played, score, (played,)
        review = Review(
            ply,
            position.turn,
            played,
            score,
            best_move,
            best_score,
            line,
            judge(best_score, score),
        )
        reviews.append(review)
        if progress is not None:
            progress(review)
    return reviews


def _played_score(
    replay: Game,
    mover: Color,
    movetime: float | None,
    depth: int | None,
    best_depth: int,
    stop: Callable[[], bool] | None = None,
) -> int:
    """The worth to ``mover`` of the position ``replay`` reached by its move."""
    outcome = replay.outcome
    if outcome is not None:
        final = replay.position
        own, opp = final.pieces(mover), final.pieces(mover.other)
        if outcome.reason is EndReason.WIPE_OUT:
            return MATE - 1 if own else -(MATE - 1)
        return ending_score(own, opp)
    after = think(
        replay.position,
        replay.variant,
        movetime=movetime,
        deadline=stop,
        depth=None if depth is None else max(1, min(depth, best_depth)),
        history=replay.positions,
        plies_without_capture=replay.plies_without_capture,
        endings=replay.endings,
    )
    return _one_ply_later(after.score)


@dataclass(frozen=True, slots=True)
class Summary:
    """Counts of the marked moves of one side."""

    color: Color
    inaccuracies: int
    mistakes: int
    blunders: int

    def text(self) -> str:
        counts = (
            _count(self.blunders, "blunder", "blunders"),
            _count(self.mistakes, "mistake", "mistakes"),
            _count(self.inaccuracies, "inaccuracy", "inaccuracies"),
        )
        return f"{self.color.word}: {', '.join(counts)}"


def _count(number: int, one: str, many: str) -> str:
    return f"{number} {one if number == 1 else many}"


def summarise(reviews: list[Review]) -> list[Summary]:
    """The marked moves of each side."""
    summaries = []
    for color in Color:
        verdicts = [r.verdict for r in reviews if r.mover is color]
        summaries.append(
            Summary(
                color,
                verdicts.count(Verdict.INACCURACY),
                verdicts.count(Verdict.MISTAKE),
                verdicts.count(Verdict.BLUNDER),
            )
        )
    return summaries
