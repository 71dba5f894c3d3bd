"""What the engine plays for: the scoring in force, and how it values game endings.

Under the Computer Olympiad rule a repeated position ends the game on piece
count. A search that only counts wins would take that ending whenever it is
ahead (a piece going back and forth on the board while a wipe-out was in
reach), take it at equal material against anyone, and walk into it when behind
rather than see a wipe-out coming. What a player expects instead:

- game scored win or loss: ahead, the engine's own repetition is not a win yet
  but only its material (so it keeps making progress; a wipe-out it sees, or one
  in the tablebase, is preferred, and the opponent's repetition is still the
  opponent's loss); level, a draw costs the engine ``contempt`` (it plays on
  against a weaker side unless every alternative is worse than that); behind,
  its own repetition is a loss now, so it plays on while a move that loses
  nothing exists, and prefers the longer resistance;
- match scored by pieces left (or captured, which differs by a constant): every
  ending is worth its piece margin, wipe-outs included; the engine maximises it.
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
    """The scoring in force and the contempt for draws."""

    scoring: Scoring = Scoring.WIN_LOSS
    """Win/loss or pieces."""
    contempt: int = 60
    """What a draw costs the engine, in hundredths of a piece (win/loss scoring)."""


DEFAULT_OBJECTIVE = Objective()
PIECES_OBJECTIVE = Objective(Scoring.PIECES, contempt=0)
