"""Status lines that never go stale: each says what it says only while it is still true.

A line belongs to the game it was said in: a new game clears it ("game over" must not
outlive its game). A line about a passing action (a button pressed) also fades after
a few seconds.
"""

from __future__ import annotations

from dataclasses import dataclass

NOTICE_SECONDS = 6.0
"""How long a note about an on-screen action stays."""


@dataclass(slots=True)
class StatusLine:
    """One line of the status panel."""

    lasts: float | None = None
    """Seconds the line stays; None: as long as its game."""
    text: str = ""
    """What it says."""
    at: float = 0.0
    """When it was said."""
    game: object = None
    """The game it was said in."""

    def say(self, text: str, now: float, game: object) -> None:
        """Set the line."""
        self.text, self.at, self.game = text, now, game

    def follow(self, text: str, now: float, game: object) -> None:
        """Set the line when ``text`` differs from what it says (a value read every frame)."""
        if text != self.text:
            self.say(text, now, game)

    def shown(self, now: float, game: object) -> str:
        """The text, or "" once it is stale."""
        if not self.text or game is not self.game:
            return ""
        if self.lasts is not None and now - self.at > self.lasts:
            return ""
        return self.text
