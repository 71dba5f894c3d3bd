"""Tournaments: two GTP engines, run as subprocesses, play a series of games.

A tournament measures engines; a ``controller.match.Match`` is a series between two
people at the board, scored by pieces. They share no code and no name.

A referee ``Game`` (with the Olympiad endings) decides every game; the engines
only propose moves. Games start from varied openings (a few random plies from a
seeded generator), each opening played twice with colours swapped, so that
neither engine profits from a lucky opening. Several games run at once, one
worker thread per pair of engine processes (the processes do the work, so
threads are enough). An engine that crashes, hangs, answers with an error or
proposes an illegal move loses that game, and is restarted for the next one.
"""

from __future__ import annotations

import contextlib
import math
import queue
import random
import shlex
import subprocess
import sys
import threading
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from enum import Enum

from controller.errors import SurakartaError
from controller.game import Game, Outcome
from controller.gtp import GtpError, GtpRefused, answer_text
from controller.position import Color
from controller.record import GameRecord, write_record
from controller.variants import Variant


class EngineFailure(SurakartaError, RuntimeError):
    """An engine crashed, hung, or answered something unusable."""


class Side(Enum):
    """The two engines of a tournament."""

    A = "A"
    B = "B"

    @property
    def other(self) -> Side:
        """The opponent."""
        return Side.B if self is Side.A else Side.A


@dataclass(frozen=True, slots=True)
class GameSpec:
    """One game to play."""

    index: int
    """Game number, from 0."""
    opening: tuple[str, ...]
    """Move names played before the engines take over."""
    a_color: Color
    """The colour engine A plays."""


@dataclass(frozen=True, slots=True)
class GameResult:
    """How one game of a tournament ended."""

    spec: GameSpec
    """The game."""
    winner: Side | None
    """The engine that won, or None for a draw."""
    outcome: Outcome | None
    """The referee's outcome; None when the game ended by a forfeit."""
    forfeit: str | None
    """Why an engine lost by forfeit (crash, error, illegal move, time-out)."""
    plies: int
    """Plies played, opening included."""
    a_pieces: int
    """Engine A's pieces on the board at the end."""
    b_pieces: int
    """Engine B's pieces on the board at the end."""
    moves: tuple[str, ...] = ()
    """The game's moves in order, opening included: ``record`` makes them a game record,
    so that a benchmark can replay every game and judge the engines' choices."""

    @property
    def a_score(self) -> float:
        """1 when A won, 0.5 for a draw, 0 when A lost."""
        return 0.5 if self.winner is None else 1.0 if self.winner is Side.A else 0.0

    def line(self) -> str:
        """One line for the log."""
        who = "draw" if self.winner is None else f"{self.winner.value} wins"
        how = self.forfeit if self.forfeit is not None else str(self.outcome)
        opening = " ".join(self.spec.opening)
        return (
            f"game {self.spec.index + 1}: A {self.spec.a_color.word}, opening {opening}: "
            f"{who} ({how}) after {self.plies} plies"
        )

    def record(self, variant: Variant, names: tuple[str, str] = ("A", "B")) -> GameRecord:
        """The game as a record (``controller.record``): Red and Black name the engines
        (``names`` of A and B), Round is the game's number, Opening the plies of its
        opening (not the engines' choices); Forfeit says why a game was lost so."""
        game = Game(variant)
        for name in self.moves:
            game.play(name)
        red, black = names if self.spec.a_color is Color.RED else names[::-1]
        tags = {
            "Event": "tournament",
            "Round": str(self.spec.index + 1),
            "Red": red,
            "Black": black,
            "Opening": str(len(self.spec.opening)),
        }
        if self.forfeit is not None:
            winner = self.spec.a_color if self.winner is Side.A else self.spec.a_color.other
            tags["Result"] = "1-0" if winner is Color.RED else "0-1"
            tags["Forfeit"] = self.forfeit
        return GameRecord(game, tags)


@dataclass(frozen=True, slots=True)
class TournamentSummary:
    """A tournament's score with its 95% error margin and the Elo difference."""

    games: int
    """Games played."""
    a_wins: int
    """Games won by A."""
    draws: int
    """Drawn games."""
    b_wins: int
    """Games won by B."""
    score: float
    """A's score fraction (a draw counts half)."""
    score_low: float
    """Lower end of the 95% confidence interval of ``score`` (Wilson interval)."""
    score_high: float
    """Upper end of that interval."""
    elo: float
    """Elo difference of A over B (infinite after a clean sweep)."""
    elo_low: float
    """Lower end of the 95% interval of ``elo``."""
    elo_high: float
    """Upper end of the 95% interval of ``elo``."""
    a_pieces: int
    """A's pieces left at the ends of the games, summed (what a human match would count)."""
    b_pieces: int
    """B's pieces left, summed."""
    forfeits: int
    """Games lost by a forfeit."""

    def report(self) -> str:
        """The summary as printed by ``surakarta tournament``."""
        return "\n".join(
            [
                f"games {self.games}: A +{self.a_wins} ={self.draws} -{self.b_wins}"
                + (f" ({self.forfeits} by forfeit)" if self.forfeits else ""),
                f"score of A: {100 * self.score:.1f}% "
                f"(95%: {100 * self.score_low:.1f}% to {100 * self.score_high:.1f}%)",
                f"Elo difference A - B: {_elo_text(self.elo)} "
                f"(95%: {_elo_text(self.elo_low)} to {_elo_text(self.elo_high)})",
                f"pieces left in total: A {self.a_pieces}, B {self.b_pieces}",
            ]
        )


def _elo_text(value: float) -> str:
    if math.isinf(value):
        return "+inf" if value > 0 else "-inf"
    return f"{value:+.0f}"


def elo_difference(score: float) -> float:
    """Elo difference that gives the stronger side ``score`` (a fraction) on average."""
    if score <= 0:
        return -math.inf
    if score >= 1:
        return math.inf
    return -400 * math.log10(1 / score - 1)


def wilson_interval(score: float, games: int, z: float = 1.96) -> tuple[float, float]:
    """95% interval of a score fraction over ``games`` games (Wilson's: sensible even
    after a clean sweep, where the plain normal interval shrinks to nothing)."""
    spread = z * math.sqrt(score * (1 - score) / games + z * z / (4 * games * games))
    centre = score + z * z / (2 * games)
    scale = 1 + z * z / games
    low = 0.0 if score <= 0 else max(0.0, (centre - spread) / scale)
    high = 1.0 if score >= 1 else min(1.0, (centre + spread) / scale)
    return low, high


def summarize(results: Sequence[GameResult]) -> TournamentSummary:
    """Score, margin and Elo of finished games."""
    if not results:
        raise ValueError("no games played")
    n = len(results)
    score = sum(result.a_score for result in results) / n
    low, high = wilson_interval(score, n)
    return TournamentSummary(
        games=n,
        a_wins=sum(1 for r in results if r.winner is Side.A),
        draws=sum(1 for r in results if r.winner is None),
        b_wins=sum(1 for r in results if r.winner is Side.B),
        score=score,
        score_low=low,
        score_high=high,
        elo=elo_difference(score),
        elo_low=elo_difference(low),
        elo_high=elo_difference(high),
        a_pieces=sum(r.a_pieces for r in results),
        b_pieces=sum(r.b_pieces for r in results),
        forfeits=sum(1 for r in results if r.forfeit is not None),
    )


def make_openings(count: int, variant: Variant, seed: int) -> list[tuple[str, ...]]:
    """``count`` distinct openings of 2 to 4 random plies, from a seeded generator."""
    rng = random.Random(seed)
    openings: list[tuple[str, ...]] = []
    for _ in range(count * 50):
        if len(openings) == count:
            break
        game = Game(variant)
        for _ in range(rng.randint(2, 4)):
            moves = game.legal_moves()
            if not moves:
                break
            game.play(rng.choice(moves))
        names = tuple(move.name for move in game.moves)
        if names not in openings and not game.is_over:
            openings.append(names)
    return openings


def schedule(games: int, variant: Variant, seed: int) -> list[GameSpec]:
    """The games of a tournament: each opening twice, A red then A black."""
    openings = make_openings((games + 1) // 2, variant, seed)
    return [
        GameSpec(
            index,
            openings[(index // 2) % len(openings)],
            Color.RED if index % 2 == 0 else Color.BLACK,
        )
        for index in range(games)
    ]


class EngineProcess:
    """A GTP engine subprocess: send a command, wait (with a time limit) for the answer."""

    def __init__(self, command: str, label: str) -> None:
        self.command = command
        self.label = label
        arguments = shlex.split(command)
        if not arguments:
            raise ValueError(f"empty engine command: {command!r}")
        if arguments[0] == "surakarta":
            # This installation's own command, found without the venv on PATH ("surakarta
            # gtp" from .venv/bin/surakarta tournament would otherwise need the venv activated).
            arguments = [sys.executable, "-m", "firmware.cli", *arguments[1:]]
        try:
            self.process = subprocess.Popen(
                arguments,
                stdin=subprocess.PIPE,
                stdout=subprocess.PIPE,
                stderr=subprocess.DEVNULL,
                text=True,
                bufsize=1,
            )
        except OSError as error:
            raise EngineFailure(f"engine {label} ({command!r}) does not start: {error}") from None
        self.lines: queue.Queue[str | None] = queue.Queue()
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self) -> None:
        assert self.process.stdout is not None
        for line in self.process.stdout:
            self.lines.put(line.rstrip("\r\n"))
        self.lines.put(None)

    def ask(self, command: str, timeout: float) -> str:
        """Send ``command``; the answer's text, or EngineFailure on ``?``, crash or time-out."""
        assert self.process.stdin is not None
        try:
            self.process.stdin.write(command + "\n")
            self.process.stdin.flush()
        except OSError:
            raise EngineFailure(f"engine {self.label} crashed (before {command!r})") from None
        answer: list[str] = []
        while True:
            try:
                line = self.lines.get(timeout=timeout)
            except queue.Empty:
                raise EngineFailure(
                    f"engine {self.label} did not answer {command!r} within {timeout:g} s"
                ) from None
            if line is None:
                raise EngineFailure(f"engine {self.label} crashed (on {command!r})")
            if not answer and not line.strip():
                continue  # stray blank lines between answers
            if answer and not line.strip():
                break
            answer.append(line)
        try:
            return answer_text(answer)
        except GtpRefused as error:
            raise EngineFailure(f"engine {self.label} refused {command!r}: {error}") from None
        except GtpError:
            raise EngineFailure(
                f"engine {self.label} answered {command!r} with {answer[0]!r}"
            ) from None

    def close(self) -> None:
        """Ask the engine to quit, and end it if it does not."""
        with contextlib.suppress(EngineFailure):
            self.ask("quit", timeout=2.0)
        try:
            self.process.wait(timeout=2.0)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()


@dataclass(frozen=True, slots=True)
class TournamentConfig:
    """What every game of a tournament shares."""

    commands: tuple[str, str]
    """Shell command lines of engines A and B."""
    variant: Variant
    """The rules."""
    movetime: float
    """Seconds per move, sent with ``set_movetime``."""
    timeout: float
    """Seconds an engine may take to answer before it loses the game."""


def _forfeit(spec: GameSpec, game: Game, loser: Side, reason: str) -> GameResult:
    a_pieces, b_pieces = _pieces(spec, game)
    return GameResult(
        spec, loser.other, None, reason, len(game.moves), a_pieces, b_pieces, _names(game)
    )


def _names(game: Game) -> tuple[str, ...]:
    return tuple(move.name for move in game.moves)


def _pieces(spec: GameSpec, game: Game) -> tuple[int, int]:
    position = game.position
    return position.count(spec.a_color), position.count(spec.a_color.other)


def play_game(
    spec: GameSpec, engines: dict[Side, EngineProcess], config: TournamentConfig
) -> GameResult:
    """Play one game; an engine that fails in any way loses it (see ``GameResult.forfeit``)."""
    game = Game(config.variant)
    side_of = {spec.a_color: Side.A, spec.a_color.other: Side.B}
    current = Side.A
    try:
        for side in (Side.A, Side.B):
            current = side
            engine = engines[side]
            engine.ask(f"variant {config.variant.value}", config.timeout)
            engine.ask("clear_board", config.timeout)
            engine.ask(f"set_movetime {config.movetime:g}", config.timeout)
        for name in spec.opening:
            color = game.turn
            game.play(name)
            for side in (Side.A, Side.B):
                current = side
                engines[side].ask(f"play {color.word} {name}", config.timeout)
        while not game.is_over:
            color = game.turn
            current = side_of[color]
            answer = engines[current].ask(f"genmove {color.word}", config.timeout)
            try:
                move = game.play(answer.split()[0] if answer else "")
            except SurakartaError as error:
                reason = f"engine {current.value} played badly: {error}"
                return _forfeit(spec, game, current, reason)
            current = current.other
            engines[current].ask(f"play {color.word} {move.name}", config.timeout)
    except EngineFailure as failure:
        return _forfeit(spec, game, current, str(failure))
    outcome = game.outcome
    assert outcome is not None
    winner = None if outcome.winner is None else side_of[outcome.winner]
    a_pieces, b_pieces = _pieces(spec, game)
    return GameResult(
        spec, winner, outcome, None, len(game.moves), a_pieces, b_pieces, _names(game)
    )


def _start_missing(
    engines: dict[Side, EngineProcess], config: TournamentConfig
) -> tuple[Side, EngineFailure] | None:
    """Start the engines not running; the side that fails to start, if any."""
    for side, command in zip((Side.A, Side.B), config.commands, strict=True):
        if side not in engines:
            try:
                engines[side] = EngineProcess(command, side.value)
            except EngineFailure as failure:
                return side, failure
    return None


def _worker(
    specs: queue.Queue[GameSpec], config: TournamentConfig, report: Callable[[GameResult], None]
) -> None:
    engines: dict[Side, EngineProcess] = {}
    try:
        while True:
            try:
                spec = specs.get_nowait()
            except queue.Empty:
                return
            failed = _start_missing(engines, config)
            if failed is not None:
                side, failure = failed
                report(GameResult(spec, side.other, None, str(failure), 0, 0, 0))
                continue
            result = play_game(spec, engines, config)
            if result.forfeit is not None:
                # The loser may be in any state; start it afresh for the next game.
                loser = engines.pop(result.winner.other if result.winner else Side.A)
                loser.process.kill()
                loser.process.wait()
            report(result)
    finally:
        for engine in engines.values():
            engine.close()


def check_engines(config: TournamentConfig) -> None:
    """Start each engine and ask its protocol version; EngineFailure naming every engine
    that cannot. Without this, an engine that never starts loses every game by forfeit,
    and a tournament of two such engines reports a winner."""
    problems: list[str] = []
    for side, command in zip((Side.A, Side.B), config.commands, strict=True):
        try:
            engine = EngineProcess(command, side.value)
        except EngineFailure as failure:
            problems.append(str(failure))
            continue
        try:
            engine.ask("protocol_version", config.timeout)
        except EngineFailure as failure:
            problems.append(f"{failure} ({command!r})")
        finally:
            engine.close()
    if problems:
        raise EngineFailure("; ".join(problems))


def write_records(
    results: Sequence[GameResult], variant: Variant, names: tuple[str, str] = ("A", "B")
) -> str:
    """Every game of ``results`` as one record file (``surakarta analyse`` reads it)."""
    return "\n".join(write_record(result.record(variant, names)) for result in results)


def run_tournament(
    config: TournamentConfig,
    games: int,
    *,
    jobs: int = 1,
    seed: int = 0,
    on_result: Callable[[GameResult], None] | None = None,
) -> list[GameResult]:
    """Play ``games`` games, ``jobs`` at a time; results in game order."""
    if games < 1:
        raise ValueError(f"invalid number of games: {games!r} (expected 1 or more)")
    check_engines(config)
    specs: queue.Queue[GameSpec] = queue.Queue()
    for spec in schedule(games, config.variant, seed):
        specs.put(spec)
    results: list[GameResult] = []
    lock = threading.Lock()

    def report(result: GameResult) -> None:
        with lock:
            results.append(result)
            if on_result is not None:
                on_result(result)

    workers = [
        threading.Thread(target=_worker, args=(specs, config, report), daemon=True)
        for _ in range(max(1, min(jobs, games)))
    ]
    for worker in workers:
        worker.start()
    for worker in workers:
        worker.join()
    return sorted(results, key=lambda result: result.spec.index)
