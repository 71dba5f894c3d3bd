"""Finished games for the page: the list, a record's text, and a replay move by move."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

from controller.errors import SurakartaError
from controller.geometry import geometry, point_name
from controller.moves import Move
from controller.position import Position
from controller.record import read_record
from firmware.web.drawing import move_path

RECORD_NAME = re.compile(r"game-[0-9]{8}-[0-9]{6}(-[0-9]{1,4})?\.txt")
"""The names ``Journal.archive`` gives records: nothing else in the folder is served."""
LIST_LIMIT = 200
"""Newest records listed; older ones stay on the disk."""
RECORD_LIMIT = 256 * 1024
"""Largest record served (a 50-move-rule game is a few kB)."""


class NoSuchGame(SurakartaError, LookupError):
    """A record name that is not a finished game of this board."""


def record_file(records: Path | None, name: str) -> Path:
    """The file of record ``name``; raises NoSuchGame for anything else."""
    if records is None or not RECORD_NAME.fullmatch(name):
        raise NoSuchGame(f"no such game: {name[:60]!r}")
    path = records / name
    try:
        if not path.is_file() or path.stat().st_size > RECORD_LIMIT:
            raise NoSuchGame(f"no such game: {name!r}")
    except OSError:
        raise NoSuchGame(f"no such game: {name!r}") from None
    return path


def list_games(records: Path | None) -> list[dict[str, Any]]:
    """The finished games, newest first: name, tags and result."""
    if records is None:
        return []
    try:
        names = sorted((p.name for p in records.iterdir() if RECORD_NAME.fullmatch(p.name)),
                       reverse=True)
    except OSError:
        return []
    games = []
    for name in names[:LIST_LIMIT]:
        try:
            record = read_record(record_file(records, name).read_text(encoding="utf-8"))
        except (SurakartaError, OSError, UnicodeDecodeError, ValueError):
            games.append({"name": name, "readable": False})
            continue
        game = record.game
        games.append({
            "name": name,
            "readable": True,
            "variant": game.variant.value,
            "moves": len(game.moves),
            "result": record.result,
            "ending": None if game.outcome is None else str(game.outcome),
            "date": record.tags.get("Date"),
        })
    return games


def _pieces(position: Position) -> dict[str, str]:
    return {point_name(p): c.word for p in geometry(position.size).points
            if (c := position.piece_at(p)) is not None}


def replay(records: Path | None, name: str) -> dict[str, Any]:
    """Every position of a finished game, with the move that led to it and its path."""
    path = record_file(records, name)
    record = read_record(path.read_text(encoding="utf-8"))
    game = record.game
    size = game.position.size
    plies: list[dict[str, Any]] = [{"move": None, "path": "", "pieces": _pieces(game.positions[0]),
                                    "turn": game.positions[0].turn.word}]
    for move, position in zip(game.moves, game.positions[1:], strict=True):
        plies.append({"move": move.name, "path": move_path(size, move),
                      "pieces": _pieces(position), "turn": position.turn.word})
    return {"name": name, "size": size, "variant": game.variant.value, "result": record.result,
            "plies": plies}


def recorded_move(records: Path | None, name: str, ply: int) -> tuple[Move, int]:
    """Move number ``ply`` (from 1) of record ``name`` and its board's size; raises
    NoSuchGame."""
    game = read_record(record_file(records, name).read_text(encoding="utf-8")).game
    if not 1 <= ply <= len(game.moves):
        raise NoSuchGame(f"{name!r} has no move {ply}")
    return game.moves[ply - 1], game.position.size
