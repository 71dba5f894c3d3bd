"""The game journal: the game in progress, written atomically after every accepted move.

A power cut at any moment leaves either the previous journal or the new one, never
a torn file: the new state goes to a temporary file in the same folder, is flushed
to the disk with fsync, and then renamed over the old one (an atomic step on POSIX
file systems), and the folder itself is synced so the rename survives too.
"""

from __future__ import annotations

import json
import logging
import os
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from controller import (
    Color,
    Endings,
    Game,
    SurakartaError,
    parse_color,
    parse_position,
    parse_variant,
)
from controller.game import EndReason, Outcome, Winner
from controller.match import Counting, Match, MatchRules, Scoring
from controller.record import GameRecord, write_record

log = logging.getLogger(__name__)

FORMAT_VERSION = 1


class BadJournal(SurakartaError, ValueError):
    """A journal that cannot be read back."""


@dataclass(frozen=True, slots=True)
class SessionState:
    """What must survive a power cut: the game and how it is being played."""

    game: Game
    """The game with every accepted move."""
    computer: Color | None
    """The computer's side, or None for two players."""
    level: int
    """The computer's strength."""
    match: Match | None = None
    """The match this game belongs to, with the games finished so far."""


def atomic_write(path: Path, text: str) -> None:
    """Replace ``path`` with ``text`` so that a crash leaves the old or the new file."""
    path.parent.mkdir(parents=True, exist_ok=True)
    handle, temporary = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".tmp")
    try:
        with os.fdopen(handle, "w", encoding="utf-8") as file:
            file.write(text)
            file.flush()
            os.fsync(file.fileno())
        os.replace(temporary, path)
    except BaseException:
        Path(temporary).unlink(missing_ok=True)
        raise
    directory = os.open(path.parent, os.O_RDONLY)
    try:
        os.fsync(directory)
    finally:
        os.close(directory)


def state_to_json(state: SessionState) -> str:
    game = state.game
    assert game.start is not None
    document = {
        "format": FORMAT_VERSION,
        "variant": game.variant.value,
        "start": str(game.start),
        "moves": [move.name for move in game.moves],
        "agreed": game.agreed is not None,
        "no_capture_limit": game.endings.no_capture_limit,
        "repetition": game.endings.repetition,
        "computer": None if state.computer is None else state.computer.word,
        "level": state.level,
        "match": None if state.match is None else _match_to_json(state.match),
    }
    return json.dumps(document, indent=1) + "\n"


def _match_to_json(match: Match) -> dict[str, Any]:
    rules = match.rules
    return {
        "first": match.first,
        "second": match.second,
        "scoring": rules.scoring.value,
        "games": rules.games,
        "target": rules.target,
        "counting": rules.counting.value,
        "swap_colours": rules.swap_colours,
        "pieces_per_side": rules.pieces_per_side,
        "results": [
            {
                "winner": game.outcome.winner.value,
                "reason": game.outcome.reason.value,
                "red_pieces": game.outcome.red_pieces,
                "black_pieces": game.outcome.black_pieces,
            }
            for game in match.games
        ],
    }


def _match_from_json(document: dict[str, Any]) -> Match:
    rules = MatchRules(
        scoring=Scoring(document["scoring"]),
        games=int(document["games"]),
        target=int(document["target"]),
        counting=Counting(document["counting"]),
        swap_colours=bool(document["swap_colours"]),
        pieces_per_side=int(document["pieces_per_side"]),
    )
    match = Match(str(document["first"]), str(document["second"]), rules)
    for result in document["results"]:
        match.record(
            Outcome(
                Winner(result["winner"]),
                EndReason(result["reason"]),
                int(result["red_pieces"]),
                int(result["black_pieces"]),
            )
        )
    return match


def state_from_json(text: str) -> SessionState:
    """Rebuild the session; raises BadJournal with the reason."""
    try:
        document: dict[str, Any] = json.loads(text)
        if document.get("format") != FORMAT_VERSION:
            raise BadJournal(f"unknown journal format: {document.get('format')!r}")
        endings = Endings(document["no_capture_limit"], bool(document["repetition"]))
        game = Game(parse_variant(document["variant"]), parse_position(document["start"]), endings)
        for name in document["moves"]:
            game.play(name)
        if document.get("agreed", False) and not game.is_over:
            game.end_by_agreement()
        computer = document["computer"]
        level = int(document["level"])
        if not 1 <= level <= 10:
            raise BadJournal(f"unreadable journal: level {level!r} is not 1 to 10")
        match = document.get("match")
        return SessionState(
            game,
            None if computer is None else parse_color(computer),
            level,
            None if match is None else _match_from_json(match),
        )
    except BadJournal:
        raise
    # A nested document too deep for the parser is as corrupt as a torn one.
    except (ValueError, KeyError, TypeError, AttributeError, RecursionError) as error:
        raise BadJournal(f"unreadable journal: {error}") from None


class Journal:
    """The journal file of one board, and the folder of finished game records."""

    def __init__(self, path: Path, records: Path | None = None) -> None:
        self.path = path
        self.records = records if records is not None else path.parent / "games"

    def save(self, state: SessionState) -> None:
        """Write the session after an accepted move, undo or new game."""
        atomic_write(self.path, state_to_json(state))

    def load(self) -> SessionState | None:
        """The saved session; None when there is none. A corrupt journal is set aside
        (renamed with a ``.corrupt`` suffix) with one log line, so the board starts a
        new game instead of failing at every start."""
        try:
            text = self.path.read_text(encoding="utf-8")
        except FileNotFoundError:
            return None
        except (OSError, UnicodeDecodeError) as error:
            self._set_aside(str(error))
            return None
        try:
            return state_from_json(text)
        except BadJournal as error:
            self._set_aside(str(error))
            return None

    def _set_aside(self, reason: str) -> None:
        aside = self.set_aside("corrupt")
        log.error("journal %s could not be read (%s); moved to %s", self.path, reason, aside)

    def set_aside(self, why: str) -> Path:
        """Rename the journal out of the way (kept, never deleted) and return its new path."""
        aside = self.path.with_name(f"{self.path.name}.{int(time.time())}.{why}")
        number = 1
        while aside.exists():
            number += 1
            aside = self.path.with_name(f"{self.path.name}.{int(time.time())}-{number}.{why}")
        os.replace(self.path, aside)
        return aside

    def archive(self, state: SessionState, tags: dict[str, str] | None = None) -> Path:
        """Save a finished game as a record file and return its path."""
        stamp = time.strftime("%Y%m%d-%H%M%S")
        path = self.records / f"game-{stamp}.txt"
        number = 1
        while path.exists():
            number += 1
            path = self.records / f"game-{stamp}-{number}.txt"
        base = {"Date": time.strftime("%Y.%m.%d"), "Event": "Smart board game"}
        atomic_write(path, write_record(GameRecord(state.game, {**base, **(tags or {})})))
        return path
