"""The engine protocol: a GTP-style text protocol (GTP version 2 framing).

``GtpEngine.handle(line)`` takes one command line and returns the whole answer,
``= result`` or ``? error`` followed by a blank line (``=12 result`` when the
command carried the id ``12``), or None for a blank or comment line. It does no
I/O, so it is tested without processes; ``surakarta gtp`` connects it to
standard input and output.

Choices where GTP (a Go protocol) leaves room:
- ``play`` and ``genmove`` for the side that is not to move are errors, except
  before the first move, when they set who moves first (a game option).
- ``genmove`` once the game is over answers ``? game over: <outcome>``; it never
  resigns.
- ``final_score`` counts pieces on the board: ``R+3`` (red has three more),
  ``B+2``, or ``0``; it is the Olympiad result once the game is over.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from importlib import metadata
from typing import Protocol

from controller.engine.levels import LEVELS
from controller.engine.player import EnginePlayer
from controller.engine.threats import threats
from controller.errors import SurakartaError
from controller.game import Game
from controller.geometry import FILES, SIZES, point_at
from controller.moves import Move
from controller.position import Color, Position, parse_color, parse_position, start_position
from controller.variants import Variant, parse_variant

PROTOCOL_VERSION = "2"
ENGINE_NAME = "surakarta-board"
DEFAULT_MOVETIME = 1.0


class Player(Protocol):
    """Anything that picks moves: the engine or a baseline player."""

    name: str

    def choose(self, game: Game, movetime: float) -> Move:
        """A legal move for the side to move in ``game``."""
        ...


class GtpError(SurakartaError, ValueError):
    """A command the engine refuses; the message becomes the ``?`` answer."""


class GtpRefused(GtpError):
    """An engine's ``?`` answer, read by ``answer_text``; the message is its error."""


def answer_text(lines: Sequence[str]) -> str:
    """The result in the lines of one answer (as ``GtpEngine.handle`` frames it, without
    the blank line that ends it): GtpRefused for a ``?`` answer, GtpError for lines that
    are no answer. A controller of engines (``firmware.tournament``) reads them so."""
    head = lines[0] if lines else ""
    if head.startswith("?"):
        raise GtpRefused(head[1:].lstrip("0123456789").strip())
    if not head.startswith("="):
        raise GtpError(f"not an answer: {head!r}")
    return "\n".join([head[1:].lstrip("0123456789").strip(), *lines[1:]]).strip()


@dataclass(frozen=True, slots=True)
class _Command:
    """One protocol command."""

    arguments: str
    """Argument synopsis, for the error on a wrong argument count."""
    counts: tuple[int, ...]
    """Allowed argument counts."""
    run: Callable[[list[str]], str]
    """Runs the command on its arguments; returns the answer's text."""


def _version() -> str:
    try:
        return metadata.version("surakarta-board")
    except metadata.PackageNotFoundError:
        return "unknown"


class GtpEngine:
    """The protocol state machine: a game, a player, a move time."""

    def __init__(
        self,
        player: Player,
        *,
        movetime: float = DEFAULT_MOVETIME,
        variant: Variant = Variant.STANDARD,
    ) -> None:
        self.player = player
        self.movetime = movetime
        self.variant = variant
        self.size = variant.size
        self.game = Game(variant)
        self.quit_requested = False
        """Set by ``quit``: the caller should stop reading commands."""
        self.commands: dict[str, _Command] = {
            "protocol_version": _Command("", (0,), lambda a: PROTOCOL_VERSION),
            "name": _Command("", (0,), lambda a: ENGINE_NAME),
            "version": _Command("", (0,), lambda a: _version()),
            "known_command": _Command("COMMAND", (1,), self._known_command),
            "list_commands": _Command("", (0,), lambda a: "\n".join(self.commands)),
            "quit": _Command("", (0,), self._quit),
            "boardsize": _Command("6|7", (1,), self._boardsize),
            "clear_board": _Command("", (0,), self._clear_board),
            "variant": _Command("NAME", (1,), self._variant),
            "set_position": _Command("BOARD r|b", (2,), self._set_position),
            "play": _Command("red|black MOVE", (2,), self._play),
            "genmove": _Command("red|black", (1,), self._genmove),
            "reg_genmove": _Command("red|black", (1,), self._reg_genmove),
            "undo": _Command("", (0,), self._undo),
            "showboard": _Command("", (0,), self._showboard),
            "set_movetime": _Command("SECONDS", (1,), self._set_movetime),
            "level": _Command("1-10", (1,), self._level),
            "final_score": _Command("", (0,), self._final_score),
            "result": _Command("", (0,), self._result),
            "position": _Command("", (0,), lambda a: str(self.game.position)),
            "legal_moves": _Command("", (0,), self._legal_moves),
            "threats": _Command("", (0,), self._threats),
        }

    # -- framing ---------------------------------------------------------------------

    def handle(self, line: str) -> str | None:
        """The full answer to one command line, or None for a blank or comment line."""
        text = "".join(c if c.isprintable() or c == "\t" else "" for c in line)
        text = text.split("#", 1)[0].replace("\t", " ").strip()
        if not text:
            return None
        words = text.split()
        ident = ""
        if words[0].isdigit():
            ident = words.pop(0)
            if not words:
                return f"?{ident} missing command\n\n"
        name, arguments = words[0].lower(), words[1:]
        try:
            result = self._run(name, arguments)
        except SurakartaError as error:
            return f"?{ident} {error}\n\n"
        return f"={ident} {result}\n\n"

    def _run(self, name: str, arguments: list[str]) -> str:
        command = self.commands.get(name)
        if command is None:
            raise GtpError(f"unknown command: {name!r}")
        if len(arguments) not in command.counts:
            usage = f"{name} {command.arguments}".strip()
            raise GtpError(f"syntax error: expected '{usage}'")
        return command.run(arguments)

    # -- commands --------------------------------------------------------------------

    def _known_command(self, arguments: list[str]) -> str:
        return "true" if arguments[0].lower() in self.commands else "false"

    def _quit(self, arguments: list[str]) -> str:
        self.quit_requested = True
        return ""

    def _new_game(self, start: Position) -> None:
        self.game = Game(self.variant, start)
        self.size = start.size

    def _boardsize(self, arguments: list[str]) -> str:
        text = arguments[0]
        if not text.isdigit() or int(text) not in SIZES:
            raise GtpError(f"unacceptable size: {text!r} (expected 6 or 7)")
        self.size = int(text)
        self._new_game(start_position(self.size))
        return ""

    def _clear_board(self, arguments: list[str]) -> str:
        self._new_game(start_position(self.size))
        return ""

    def _variant(self, arguments: list[str]) -> str:
        self.variant = parse_variant(arguments[0])
        self._new_game(start_position(self.variant.size))
        return ""

    def _set_position(self, arguments: list[str]) -> str:
        self._new_game(parse_position(" ".join(arguments)))
        return ""

    def _side_to_move(self, text: str) -> Color:
        """The colour named by ``text``, which must be the side to move (see module doc)."""
        color = parse_color(text)
        game = self.game
        outcome = game.outcome
        if outcome is not None:
            raise GtpError(f"game over: {outcome}")
        if color is not game.turn:
            if game.moves:
                raise GtpError(f"it is {game.turn.word}'s turn, not {color.word}'s")
            self._new_game(game.position.with_turn(color))
        return color

    def _play(self, arguments: list[str]) -> str:
        self._side_to_move(arguments[0])
        self.game.play(arguments[1])
        return ""

    def _choose(self, color_text: str) -> Move:
        self._side_to_move(color_text)
        return self.player.choose(self.game, self.movetime)

    def _genmove(self, arguments: list[str]) -> str:
        move = self._choose(arguments[0])
        self.game.play(move)
        return move.name

    def _reg_genmove(self, arguments: list[str]) -> str:
        return self._choose(arguments[0]).name

    def _undo(self, arguments: list[str]) -> str:
        if not self.game.moves:
            raise GtpError("cannot undo: no move played")
        self.game.undo()
        return ""

    def _showboard(self, arguments: list[str]) -> str:
        return "\n" + board_diagram(self.game.position)

    def _set_movetime(self, arguments: list[str]) -> str:
        text = arguments[0]
        try:
            seconds = float(text)
        except ValueError:
            seconds = -1.0
        if not 0 < seconds <= 3600:
            raise GtpError(f"invalid move time: {text!r} (expected seconds above 0)")
        self.movetime = seconds
        return ""

    def _level(self, arguments: list[str]) -> str:
        text = arguments[0]
        if not text.isdigit() or not 1 <= int(text) <= len(LEVELS):
            raise GtpError(f"invalid level: {text!r} (expected 1 to {len(LEVELS)})")
        if not isinstance(self.player, EnginePlayer):
            raise GtpError(f"levels apply to the engine, not the {self.player.name} player")
        self.player.level_number = int(text)
        return ""

    def _final_score(self, arguments: list[str]) -> str:
        outcome = self.game.outcome
        position = self.game.position
        red, black = (
            (outcome.red_pieces, outcome.black_pieces)
            if outcome is not None
            else (position.count(Color.RED), position.count(Color.BLACK))
        )
        if red == black:
            return "0"
        return f"R+{red - black}" if red > black else f"B+{black - red}"

    def _result(self, arguments: list[str]) -> str:
        outcome = self.game.outcome
        return "none" if outcome is None else str(outcome)

    def _legal_moves(self, arguments: list[str]) -> str:
        return " ".join(move.name for move in self.game.legal_moves())

    def _threats(self, arguments: list[str]) -> str:
        return " ".join(move.name for move in threats(self.game.position, self.variant))


def board_diagram(position: Position) -> str:
    """The board as text: rank numbers, ``R``/``B``/``.`` and file letters."""
    size = position.size
    rows = []
    for y in range(size - 1, -1, -1):
        cells = []
        for x in range(size):
            piece = position.piece_at(point_at(x, y))
            cells.append("." if piece is None else piece.value.upper())
        rows.append(f"{y + 1} {' '.join(cells)}")
    rows.append("  " + " ".join(FILES[:size]))
    rows.append(f"{position.turn.word} to move")
    return "\n".join(rows)
