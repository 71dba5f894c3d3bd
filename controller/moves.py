"""Moves, their names and their paths."""

from __future__ import annotations

import re
from dataclasses import dataclass
from enum import Enum

from controller.errors import BadMove, BadPoint
from controller.geometry import Loop, Point, Station, parse_point, point_name


class MoveKind(Enum):
    """What a move does."""

    STEP = "-"
    """One point in one of the allowed directions, to an empty point."""
    CAPTURE = "x"
    """A trip along a circuit through at least one loop onto an enemy piece."""
    SLIDE = "~"
    """A non-capturing trip along the outer circuit (no-diagonal variant)."""


@dataclass(frozen=True, slots=True)
class Move:
    """A move with the path the piece travels."""

    kind: MoveKind
    """Step, capture or slide."""
    origin: Point
    """The point the piece leaves."""
    target: Point
    """Where a step or slide ends; for a capture, the captured piece's point."""
    landing: Point | None = None
    """Borobudur only: where a jumping capture lands, beyond the captured piece."""
    path: tuple[Station, ...] = ()
    """Stations travelled in order, origin first: points and loops. For a capture
    the shortest trip; it ends on the captured point (on the landing in Borobudur)."""

    @property
    def destination(self) -> Point:
        """The point the moving piece ends on."""
        return self.target if self.landing is None else self.landing

    @property
    def is_capture(self) -> bool:
        """Whether the move removes an enemy piece."""
        return self.kind is MoveKind.CAPTURE

    @property
    def loops(self) -> tuple[Loop, ...]:
        """The loops the path takes, in order."""
        return tuple(station for station in self.path if isinstance(station, Loop))

    @property
    def name(self) -> str:
        """Move name: ``b2-c3``, ``b2xe5``, ``c4xd6>d5`` or ``c4~d6``."""
        text = f"{point_name(self.origin)}{self.kind.value}{point_name(self.target)}"
        return text if self.landing is None else f"{text}>{point_name(self.landing)}"

    def __str__(self) -> str:
        return self.name

    def path_names(self) -> list[str]:
        """The path as names: points like ``c4`` and loops like ``outer-ne``."""
        return [s.name if isinstance(s, Loop) else point_name(s) for s in self.path]


@dataclass(frozen=True, slots=True)
class MoveName:
    """A parsed move name, before it is matched against the legal moves."""

    kind: MoveKind
    """The separator's kind: ``-``, ``x`` or ``~``."""
    origin: Point
    """The moving piece's point."""
    target: Point
    """The second point named."""
    landing: Point | None
    """The point after ``>``, if any."""


_MOVE_PATTERN = re.compile(r"^([a-g]\d)([-x~])([a-g]\d)(?:>([a-g]\d))?$")


def parse_move_name(text: str, size: int = 7) -> MoveName:
    """Parse ``b2-c3``, ``b2xe5``, ``c4xd6>d5`` or ``c4~d6``; raises BadMove."""
    match = _MOVE_PATTERN.match(text.strip().lower())
    if not match:
        raise BadMove(f"invalid move: {text!r}")
    origin, separator, target, landing = match.groups()
    kind = MoveKind(separator)
    if landing is not None and kind is not MoveKind.CAPTURE:
        raise BadMove(f"invalid move: {text!r} (only a capture names a landing point)")
    try:
        return MoveName(
            kind,
            parse_point(origin, size),
            parse_point(target, size),
            None if landing is None else parse_point(landing, size),
        )
    except BadPoint as error:
        raise BadMove(f"invalid move: {text!r} ({error})") from None
