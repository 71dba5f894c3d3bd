"""Matches: several games between two players with colour swaps and a running score."""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import Enum

from controller.game import Outcome
from controller.position import Color


class Scoring(Enum):
    """How a match is decided."""

    FIXED_GAMES = "games"
    """A fixed number of games; the higher total wins."""
    TARGET = "target"
    """Games go on until a player's total reaches the target."""


class Counting(Enum):
    """What a game scores for each player."""

    PIECES_LEFT = "pieces-left"
    """The player's own pieces still on the board at the end."""
    CAPTURED = "captured"
    """The opponent's pieces the player captured."""


@dataclass(frozen=True, slots=True)
class MatchRules:
    """The scoring the players agreed on before the match."""

    scoring: Scoring = Scoring.FIXED_GAMES
    """Fixed number of games or target score."""
    games: int = 2
    """Number of games (fixed-games scoring)."""
    target: int = 30
    """Score to reach (target scoring)."""
    counting: Counting = Counting.PIECES_LEFT
    """Pieces left, or pieces captured."""
    swap_colours: bool = True
    """Players swap colours after every game."""
    pieces_per_side: int = 12
    """Pieces each side starts with (14 on 7x7); needed to count captures."""

    def __post_init__(self) -> None:
        if self.games < 1 or self.target < 1 or self.pieces_per_side < 1:
            raise ValueError(f"invalid match rules: {self!r}")


@dataclass(frozen=True, slots=True)
class MatchGame:
    """One finished game of a match."""

    red_player: str
    """Who played red."""
    outcome: Outcome
    """How it ended."""
    scores: dict[str, int]
    """What the game scored for each player."""


@dataclass
class Match:
    """A match between two named players; ``first`` plays red in the first game."""

    first: str
    """The player with red in game 1."""
    second: str
    """The other player."""
    rules: MatchRules = field(default_factory=MatchRules)
    """How the match is scored."""
    games: list[MatchGame] = field(default_factory=list, init=False)
    """Finished games, in order."""

    def __post_init__(self) -> None:
        if self.first == self.second:
            raise ValueError(f"a match needs two different player names, got {self.first!r}")

    def player_of(self, color: Color) -> str:
        """Who plays ``color`` in the next game."""
        swapped = self.rules.swap_colours and len(self.games) % 2 == 1
        red = self.second if swapped else self.first
        black = self.first if red == self.second else self.second
        return red if color is Color.RED else black

    def record(self, outcome: Outcome) -> MatchGame:
        """Score a finished game (played with the colours ``player_of`` gave)."""
        if self.is_over:
            raise ValueError("the match is already over")
        red, black = self.player_of(Color.RED), self.player_of(Color.BLACK)
        if self.rules.counting is Counting.PIECES_LEFT:
            scores = {red: outcome.red_pieces, black: outcome.black_pieces}
        else:
            full = self.rules.pieces_per_side
            scores = {red: full - outcome.black_pieces, black: full - outcome.red_pieces}
        game = MatchGame(red, outcome, scores)
        self.games.append(game)
        return game

    @property
    def totals(self) -> dict[str, int]:
        """Running total of each player."""
        totals = {self.first: 0, self.second: 0}
        for game in self.games:
            for player, score in game.scores.items():
                totals[player] += score
        return totals

    @property
    def is_over(self) -> bool:
        """Whether the match is decided."""
        if self.rules.scoring is Scoring.FIXED_GAMES:
            return len(self.games) >= self.rules.games
        return max(self.totals.values()) >= self.rules.target

    @property
    def leader(self) -> str | None:
        """The player ahead (the winner once the match is over), or None when level."""
        totals = self.totals
        a, b = totals[self.first], totals[self.second]
        if a == b:
            return None
        return self.first if a > b else self.second
