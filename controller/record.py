"""Game records: a PGN-like text format that round-trips.

    [Event "Club night"]
    [Date "2026.11.22"]
    [Red "Ana"]
    [Black "Budi"]
    [Variant "standard"]
    [Result "1-0"]
    [Termination "wipe-out"]

    1. b2-c3 e5-d4 2. c3xd4 ... 1-0

Optional tags: ``Position`` (start position string, when not the variant's
start), ``NoCaptureLimit`` (plies, or ``off``) and ``Repetition`` (``off``) when
the endings differ from the Olympiad defaults. ``{...}`` comments are skipped.
A file may hold several games, one after another.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass, field

from controller.errors import BadRecord, SurakartaError
from controller.game import Endings, Game
from controller.numbers import NO_CAPTURE_LIMIT, shown
from controller.position import Color, parse_position, start_position
from controller.variants import parse_variant

UNFINISHED = "*"
RESULT_TOKENS = ("1-0", "0-1", "1/2-1/2", UNFINISHED)
TAG_ORDER = ("Event", "Site", "Date", "Round", "Red", "Black", "Variant", "Position")

_TAG_LINE = re.compile(r'^\[(\w+)\s+"((?:[^"\\]|\\.)*)"\]$')
_MOVE_NUMBER = re.compile(r"^\d+\.(\.\.)?$")
_NUMBERED_MOVE = re.compile(r"^(\d+\.(?:\.\.)?)(\S+)$")


@dataclass
class GameRecord:
    """A game with its tag pairs."""

    game: Game
    """The game, replayed."""
    tags: dict[str, str] = field(default_factory=dict)
    """Tag pairs other than those derived from the game (Variant, Result, ...)."""

    @property
    def result(self) -> str:
        """``1-0``, ``0-1``, ``1/2-1/2`` or ``*``."""
        outcome = self.game.outcome
        if outcome is not None:
            return outcome.score_text
        return self.tags.get("Result", UNFINISHED)


def _quote(value: str) -> str:
    return value.replace("\\", "\\\\").replace('"', '\\"')


def _unquote(value: str) -> str:
    return re.sub(r"\\(.)", r"\1", value)


def _derived_tags(record: GameRecord) -> dict[str, str]:
    game = record.game
    tags = {"Variant": game.variant.value}
    assert game.start is not None
    if game.start != start_position(game.variant.size):
        tags["Position"] = str(game.start)
    if game.endings.no_capture_limit != Endings().no_capture_limit:
        limit = game.endings.no_capture_limit
        tags["NoCaptureLimit"] = "off" if limit is None else str(limit)
    if not game.endings.repetition:
        tags["Repetition"] = "off"
    tags["Result"] = record.result
    outcome = game.outcome
    if outcome is not None:
        tags["Termination"] = outcome.reason.value
    return tags


def write_record(record: GameRecord) -> str:
    """The record as text, ending with a newline."""
    tags = {**record.tags, **_derived_tags(record)}
    ordered = [key for key in TAG_ORDER if key in tags]
    ordered += [key for key in tags if key not in ordered]
    lines = [f'[{key} "{_quote(tags[key])}"]' for key in ordered]
    lines.append("")
    lines.extend(_wrap(list(_movetext_tokens(record))))
    return "\n".join(lines) + "\n"


def _movetext_tokens(record: GameRecord) -> Iterator[str]:
    game = record.game
    assert game.start is not None
    number, color = 1, game.start.turn
    for index, move in enumerate(game.moves):
        if color is Color.RED:
            yield f"{number}. {move.name}"
        elif index == 0:
            yield f"{number}... {move.name}"
        else:
            yield move.name
        if color is Color.BLACK:
            number += 1
        color = color.other
    yield record.result


def _wrap(tokens: list[str], width: int = 79) -> list[str]:
    lines, line = [], ""
    for token in tokens:
        if line and len(line) + 1 + len(token) > width:
            lines.append(line)
            line = token
        else:
            line = f"{line} {token}" if line else token
    return [*lines, line]


def _game_from_tags(tags: dict[str, str], tag_lines: dict[str, int]) -> Game:
    def fail(key: str, reason: str) -> BadRecord:
        return BadRecord(f"line {tag_lines[key]}: {reason}")

    try:
        variant = parse_variant(tags.get("Variant", "standard"))
    except SurakartaError as error:
        raise fail("Variant", str(error)) from None
    try:
        start = parse_position(tags["Position"]) if "Position" in tags else None
    except SurakartaError as error:
        raise fail("Position", str(error)) from None
    limit_text = tags.get("NoCaptureLimit", str(Endings().no_capture_limit))
    # ASCII digits only: str.isdigit() also takes '²', which int() then refuses.
    if limit_text != "off" and (
        not re.fullmatch(r"[0-9]{1,6}", limit_text) or NO_CAPTURE_LIMIT.problem(int(limit_text))
    ):
        raise fail("NoCaptureLimit", f"invalid no-capture limit: {shown(limit_text)} "
                   f"(expected off or {NO_CAPTURE_LIMIT.describe()})")
    repetition_text = tags.get("Repetition", "on")
    if repetition_text not in ("on", "off"):
        raise fail("Repetition", f"invalid repetition setting: {repetition_text!r}")
    endings = Endings(
        no_capture_limit=None if limit_text == "off" else int(limit_text),
        repetition=repetition_text == "on",
    )
    return Game(variant, start, endings)


def _read_one(lines: list[tuple[int, str]]) -> GameRecord:
    tags: dict[str, str] = {}
    tag_lines: dict[str, int] = {}
    body: list[tuple[int, str]] = []
    for number, line in lines:
        if not body and line.startswith("["):
            match = _TAG_LINE.match(line)
            if not match:
                raise BadRecord(f"line {number}: malformed tag pair: {line!r}")
            tags[match[1]] = _unquote(match[2])
            tag_lines[match[1]] = number
        else:
            body.append((number, line))
    game = _game_from_tags(tags, tag_lines)
    result: str | None = None
    for number, line in body:
        for token in re.sub(r"\{[^}]*\}", " ", line).split():
            if result is not None:
                raise BadRecord(f"line {number}: text after the result: {token!r}")
            if token in RESULT_TOKENS:
                result = token
                continue
            if _MOVE_NUMBER.match(token):
                continue
            numbered = _NUMBERED_MOVE.match(token)
            if numbered:
                token = numbered[2]
            try:
                game.play(token)
            except SurakartaError as error:
                raise BadRecord(f"line {number}: {error}") from None
    if result is None:
        raise BadRecord(f"line {lines[-1][0]}: movetext does not end with a result")
    outcome = game.outcome
    if outcome is not None and result != outcome.score_text:
        raise BadRecord(
            f"line {tag_lines.get('Result', lines[-1][0])}: result {result!r} does not match "
            f"the game, which ended {outcome}"
        )
    own_tags = {k: v for k, v in tags.items() if k not in ("Variant", "Position", "Termination")}
    own_tags.pop("NoCaptureLimit", None)
    own_tags.pop("Repetition", None)
    own_tags["Result"] = result
    return GameRecord(game, own_tags)


def read_records(text: str) -> list[GameRecord]:
    """Every game in ``text``; raises BadRecord naming the line of the first problem."""
    games: list[list[tuple[int, str]]] = []
    current: list[tuple[int, str]] = []
    in_movetext = False
    for number, raw in enumerate(text.splitlines(), start=1):
        line = raw.strip()
        if not line:
            continue
        if line.startswith("[") and in_movetext:
            games.append(current)
            current, in_movetext = [], False
        if not line.startswith("["):
            in_movetext = True
        current.append((number, line))
    if current:
        games.append(current)
    if not games:
        raise BadRecord("line 1: no game in the record")
    return [_read_one(lines) for lines in games]


def read_record(text: str) -> GameRecord:
    """The single game in ``text``."""
    records = read_records(text)
    if len(records) != 1:
        raise BadRecord(f"line 1: expected one game, found {len(records)}")
    return records[0]
