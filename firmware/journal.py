"""The game journal: the game in progress, written atomically after every accepted move.

A power cut at any moment leaves either the previous journal or the new one, never
a torn file: the new state goes to a temporary file in the same folder, is flushed
to the disk with fsync, and then renamed over the old one (an atomic step on POSIX
file systems), and the folder itself is synced so the rename survives too.

What else keeps a game from being lost or mixed up:

- a checksum over the content: a flipped bit on a worn SD card is a corrupt journal
  (set aside), not a different game;
- a lock held while a board uses the journal: two boards whose configs name the same
  file would otherwise take turns overwriting each other's game;
- the record of a finished game is part of finishing it: the journal names the
  record file before the record is written, so a power cut between the two leaves a
  journal from which the next start writes the record again;
- temporary files left by a write that a power cut interrupted are removed when the
  journal is next opened.
"""

from __future__ import annotations

import contextlib
import fcntl
import hashlib
import json
import logging
import os
import re
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
from controller.game import EndReason, Outcome, parse_winner, winner_name
from controller.match import Counting, Match, MatchRules, Scoring
from controller.numbers import LEVEL, NO_CAPTURE_LIMIT, Bounds, shown, whole
from controller.record import GameRecord, write_record

log = logging.getLogger(__name__)

FORMAT_VERSION = 2
"""2 added the checksum and the record of a finished game; 1 is still read."""
CHECKSUM_PREFIX = "sha256:"
RECORD_NAME = re.compile(r"game-[0-9]{8}-[0-9]{6}(-[0-9]{1,6})?\.txt")
"""What a record's file name looks like; a journal naming anything else is corrupt."""

MATCH_GAMES = whole(1, 1000)
MATCH_TARGET = whole(1, 100_000)
PIECES = whole(0, 14)
MATCH_RESULTS = 10_000


class BadJournal(SurakartaError, ValueError):
    """A journal that cannot be read back."""


class JournalInUse(SurakartaError, OSError):
    """Another running board holds the journal."""


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


def _number(document: dict[str, Any], key: str, bounds: Bounds) -> int:
    """An integer of the journal: the same rule as for configs (json reads 1e400 as inf)."""
    problem = bounds.problem(document[key])
    if problem:
        raise BadJournal(f"unreadable journal: {key}: {problem}")
    return int(document[key])


def _checksum(document: dict[str, Any]) -> str:
    canonical = json.dumps(document, sort_keys=True, separators=(",", ":"))
    return CHECKSUM_PREFIX + hashlib.sha256(canonical.encode("utf-8")).hexdigest()


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


def state_to_json(state: SessionState, record: str | None = None) -> str:
    """The journal's text; ``record`` names the record file of a finished game."""
    game = state.game
    assert game.start is not None
    document: dict[str, Any] = {
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
        "record": record,
    }
    return signed(document)


def signed(document: dict[str, Any]) -> str:
    """The journal text of ``document``, with the checksum of its content."""
    content = {key: value for key, value in document.items() if key != "checksum"}
    return json.dumps({**content, "checksum": _checksum(content)}, indent=1) + "\n"


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
                "winner": winner_name(game.outcome.winner),
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
        games=_number(document, "games", MATCH_GAMES),
        target=_number(document, "target", MATCH_TARGET),
        counting=Counting(document["counting"]),
        swap_colours=bool(document["swap_colours"]),
        pieces_per_side=_number(document, "pieces_per_side", PIECES),
    )
    match = Match(str(document["first"]), str(document["second"]), rules)
    if len(document["results"]) > MATCH_RESULTS:
        raise BadJournal(f"unreadable journal: {len(document['results'])} match results")
    for result in document["results"]:
        match.record(
            Outcome(
                parse_winner(result["winner"]),
                EndReason(result["reason"]),
                _number(result, "red_pieces", PIECES),
                _number(result, "black_pieces", PIECES),
            )
        )
    return match


def _document(text: str) -> dict[str, Any]:
    """The journal's JSON object, its checksum verified."""
    document = json.loads(text)
    if not isinstance(document, dict):
        raise BadJournal(f"unreadable journal: not an object but {type(document).__name__}")
    version = document.get("format")
    if version not in (1, FORMAT_VERSION):
        raise BadJournal(f"unknown journal format: {shown(version)}")
    if version == FORMAT_VERSION:
        stored = document.pop("checksum", None)
        if stored != _checksum(document):
            raise BadJournal("unreadable journal: the checksum does not match its content")
    return document


def record_name(document: dict[str, Any]) -> str | None:
    """The record file a journal names for its finished game (None for none)."""
    name = document.get("record")
    if name is not None and not (isinstance(name, str) and RECORD_NAME.fullmatch(name)):
        raise BadJournal(f"unreadable journal: record {shown(name)} is not a record's name")
    return name


def state_from_json(text: str) -> SessionState:
    """Rebuild the session; raises BadJournal with the reason."""
    return _state_and_record(text)[0]


def _state_and_record(text: str) -> tuple[SessionState, str | None]:
    try:
        document = _document(text)
        limit = document["no_capture_limit"]
        if limit is not None:
            limit = _number(document, "no_capture_limit", NO_CAPTURE_LIMIT)
        endings = Endings(limit, bool(document["repetition"]))
        game = Game(parse_variant(document["variant"]), parse_position(document["start"]), endings)
        for name in document["moves"]:
            game.play(name)
        if document.get("agreed", False) and not game.is_over:
            game.end_by_agreement()
        computer = document["computer"]
        level = _number(document, "level", LEVEL)
        match = document.get("match")
        state = SessionState(
            game,
            None if computer is None else parse_color(computer),
            level,
            None if match is None else _match_from_json(match),
        )
        return state, record_name(document)
    except BadJournal:
        raise
    # A nested document too deep for the parser is as corrupt as a torn one.
    except (ValueError, KeyError, TypeError, AttributeError, RecursionError) as error:
        reason = (str(error).splitlines() or [type(error).__name__])[0][:200]
        raise BadJournal(f"unreadable journal: {reason}") from None


class Journal:
    """The journal file of one board, and the folder of finished game records.

    The first ``load`` or ``save`` takes the journal's lock (a ``.lock`` file beside
    it) for as long as the journal is open; ``close`` gives it back, and so does the
    end of the process, however it ends.
    """

    def __init__(self, path: Path, records: Path | None = None) -> None:
        self.path = path
        self.records = records if records is not None else path.parent / "games"
        self._lock: int | None = None
        self._recorded: tuple[Game, Path] | None = None
        """The game whose ending has a record, and that record."""
        self.failing: str | None = None
        """Why the last save failed (a full or read-only disk), or None when it worked."""
        self._warned_unlocked = False

    # -- the lock -------------------------------------------------------------------

    @property
    def lock_path(self) -> Path:
        return self.path.with_name(f"{self.path.name}.lock")

    def acquire(self) -> None:
        """Take the journal for this process; JournalInUse when another board has it.

        On a read-only disk no lock file can be made: the journal is then used without
        one (nothing can be written to it anyway), with a warning.
        """
        if self._lock is not None:
            return
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            handle = os.open(self.lock_path, os.O_RDWR | os.O_CREAT, 0o644)
        except OSError as error:
            if not self._warned_unlocked:
                self._warned_unlocked = True
                log.warning("journal %s used without a lock: %s", self.path,
                            error.strerror or error)
            return
        try:
            fcntl.flock(handle, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError:
            holder = os.read(handle, 32).decode("ascii", "replace").strip() or "unknown"
            os.close(handle)
            raise JournalInUse(
                f"journal {str(self.path)!r} is in use by another board (process {holder}): "
                "give each board its own [journal] path"
            ) from None
        with contextlib.suppress(OSError):  # only a hint for the message above
            os.ftruncate(handle, 0)
            os.write(handle, f"{os.getpid()}\n".encode())
        self._lock = handle
        self._remove_stale_temporaries()

    def close(self) -> None:
        """Give the lock back (the files stay)."""
        if self._lock is not None:
            os.close(self._lock)
            self._lock = None

    def __del__(self) -> None:
        self.close()

    def __enter__(self) -> Journal:
        self.acquire()
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def _remove_stale_temporaries(self) -> None:
        """Remove what writes cut short by a power cut left (only this board writes here)."""
        patterns = ((self.path.parent, f".{self.path.name}.*.tmp"), (self.records, ".game-*.tmp"))
        for folder, pattern in patterns:
            with contextlib.suppress(OSError):
                for stale in folder.glob(pattern):
                    with contextlib.suppress(OSError):
                        stale.unlink()
                        log.info("removed %s, left by an interrupted write", stale)

    # -- saving and loading ---------------------------------------------------------

    def save(self, state: SessionState) -> None:
        """Write the session after an accepted move, undo or new game.

        A finished game's record is written here too, after the journal that names it:
        a power cut between the two leaves a journal from which ``load`` writes it.
        An ending taken back removes its record first, for the same reason.

        An OSError (a full or read-only disk) is raised after ``failing`` is set to
        it; the next save that works clears it.
        """
        try:
            self._save(state)
        except OSError as error:
            self.failing = str(error.strerror or error)
            raise
        self.failing = None

    def _save(self, state: SessionState) -> None:
        self.acquire()
        recorded = self._recorded
        if recorded is not None and recorded[0] is state.game and not state.game.is_over:
            recorded[1].unlink(missing_ok=True)  # the ending was taken back
            recorded = self._recorded = None
        if not state.game.is_over:
            self._recorded = None
            atomic_write(self.path, state_to_json(state))
            return
        if recorded is None or recorded[0] is not state.game:
            self._recorded = recorded = (state.game, self._new_record_path())
        atomic_write(self.path, state_to_json(state, recorded[1].name))
        self._write_record(state, recorded[1])

    def load(self) -> SessionState | None:
        """The saved session; None when there is none. A corrupt journal is set aside
        (renamed with a ``.corrupt`` suffix) with one log line, so the board starts a
        new game instead of failing at every start. The record of a finished game that
        a power cut kept from being written is written now."""
        self.acquire()
        try:
            text = self.path.read_text(encoding="utf-8")
        except FileNotFoundError:
            return None
        except (OSError, UnicodeDecodeError) as error:
            self._set_aside(str(error))
            return None
        try:
            state, name = _state_and_record(text)
        except BadJournal as error:
            self._set_aside(str(error))
            return None
        if name is not None and state.game.is_over:
            self._recorded = (state.game, self.records / name)
            if not self._recorded[1].exists():
                try:
                    self._write_record(state, self._recorded[1])
                    log.warning("record %s of the finished game written again", name)
                except OSError as error:
                    log.error("could not write the record of the finished game: %s", error)
        return state

    def _write_record(
        self, state: SessionState, path: Path, tags: dict[str, str] | None = None
    ) -> None:
        base = {"Date": time.strftime("%Y.%m.%d"), "Event": "Smart board game"}
        atomic_write(path, write_record(GameRecord(state.game, {**base, **(tags or {})})))

    def _new_record_path(self) -> Path:
        stamp = time.strftime("%Y%m%d-%H%M%S")
        path = self.records / f"game-{stamp}.txt"
        number = 1
        while path.exists():
            number += 1
            path = self.records / f"game-{stamp}-{number}.txt"
        return path

    def _set_aside(self, reason: str) -> None:
        try:
            aside = self.set_aside("corrupt")
        except OSError as error:
            # A read-only disk: the board still starts (a new game), rather than exiting
            # at every start over a file it cannot move.
            log.error("journal %s could not be read (%s) nor moved aside (%s); starting a new "
                      "game", self.path, reason, error.strerror or error)
            return
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
        """The record file of a finished game: the one ``save`` wrote for this ending,
        or else a new one (with ``tags`` added to the record's)."""
        recorded = self._recorded
        if recorded is not None and recorded[0] is state.game and state.game.is_over:
            if not recorded[1].exists():
                self._write_record(state, recorded[1])
            return recorded[1]
        path = self._new_record_path()
        self._write_record(state, path, tags)
        return path
