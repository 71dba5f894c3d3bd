"""What the engine plays for: the scoring in force, and how it values game endings.

Under the Computer Olympiad rule a repeated position ends the game on piece
count. A search that only counts results takes that ending whenever it is ahead
and sees nothing better (a piece going back and forth on the board), takes it at
equal material against anyone, and, behind, prefers a count loss now to a
wipe-out it sees coming. What a player expects instead:

- game scored win or loss: ahead, a wipe-out it sees (in the search, or in the
  tablebase, which sees it through the whole ending) comes before a win by
  repetition, which comes before everything else: the tables are what put the
  wipe-out in reach where the search alone would shuffle (playing on instead of
  taking the repetition's sure win was measured: it lost games); level, a draw
  costs the engine its ``contempt`` setting (it plays on unless every alternative is worse
  than that); behind, its own repetition is a loss now, so it plays on while a
  move that loses nothing exists, and prefers the longer resistance;
- match scored by pieces left (or captured, which differs by a constant): every
  ending is worth its piece margin, wipe-outs included; the engine maximises it.

A repetition of its own ends the game, so the engine looks twice before playing
one: ``think`` searches the other moves as long again and plays on when one of
them scores above the repetition (a wipe-out just beyond the first search's
depth; a move worth more than the draw that a search stopped mid-depth missed).
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum


class Scoring(Enum):
    """How the game being played is scored."""

    WIN_LOSS = "win-loss"
    """A single game: win, loss or draw (the default)."""
    PIECES = "pieces"
    """A match scored by the pieces left (or captured): every piece counts."""


@dataclass(frozen=True, slots=True)
class Objective:
    """The scoring in force (the contempt for draws is a search setting, so that a
    match can measure it: ``--tune contempt=0``)."""

    scoring: Scoring = Scoring.WIN_LOSS
    """Win/loss or pieces."""


DEFAULT_OBJECTIVE = Objective()
PIECES_OBJECTIVE = Objective(Scoring.PIECES)
