"""Every game a tournament ended by a repeated position, judged move by move.

Reads game records (``benchmarks/previous_engine.py --records FILE``, ``surakarta
tournament --records FILE``) and replays each game that ended by repetition. When
the engine under test (``--engine``, the name its records give it) made the
repeating move, the position before it is examined:

- the material then: the engine ahead, level or behind;
- the tables' verdict, when they hold the position: a win the engine could have
  played without repeating (``endgame.winning_move``, which avoids the game's
  earlier positions and respects the no-capture limit) is a wipe-out in reach;
- every legal move searched on its own to the engine's horizon (the depth the
  engine reports from that position in ``--movetime``, its second look before
  repeating ahead included, or ``--depth``), with the game's history, the
  tables, and the prunings off, so that no wipe-out or escape is cut away: the
  moves that do not repeat a position are the alternatives. The horizon is
  measured when judging, so judge on a machine as busy as the one that played
  (or give ``--depth``).

The floors (what the engine's objective promises, under win/loss scoring):

- ahead: no repetition while a wipe-out is in reach (a table win, or an
  alternative that wipes out within the horizon);
- level: no repetition unless every alternative loses, that is scores below the
  draw as the engine prices it (``-contempt``): a lost game, lost material, or
  a position worse by more than the contempt; a draw forced anyway (the
  no-capture limit) scores as the repetition does and is no better;
- behind: no repetition while an alternative is not lost by a wipe-out within
  the horizon (a count loss later loses nothing more than one now).

Repetitions made by the other engine are counted, not judged.

Run: ``nice -n 10 .venv/bin/python benchmarks/repetition.py RECORDS...``
(a few seconds a repetition); make records with
``nice -n 10 .venv/bin/python benchmarks/previous_engine.py --games 200 --records FILE``.
"""

from __future__ import annotations

import argparse
import sys
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from controller.engine.endgame import winning_move
from controller.engine.search import (
    COUNT_WIN,
    MATE,
    MATE_BOUND,
    Search,
    TranspositionTable,
    describe_score,
    think,
)
from controller.engine.settings import DEFAULT_SETTINGS, SearchSettings
from controller.engine.tablebase import shipped
from controller.errors import SurakartaError
from controller.game import EndReason, Game
from controller.movegen import make_move
from controller.moves import Move
from controller.position import Color
from controller.record import GameRecord, read_records

PLAIN = SearchSettings(null_move=False, late_move_reductions=False, multi_cut=False)
"""The engine's evaluation without its prunings: the judge may be slower, never blinder."""


@dataclass(frozen=True, slots=True)
class Judged:
    """One repetition by the engine under test."""

    round: str
    """The game's number in its tournament."""
    ply: int
    """The repeating move's ply (1 for the game's first move)."""
    state: str
    """``ahead``, ``level`` or ``behind``: the engine's material against the other's."""
    material: str
    """The engine's pieces and the other's, ``4-2``."""
    horizon: int
    """Depth of the searches that judged it."""
    repeated: Move
    """The move played."""
    alternatives: tuple[tuple[Move, int], ...]
    """Every move that does not repeat, with its score for the engine, best first."""
    table_win: Move | None
    """A table win the engine could have played instead."""
    violation: str
    """Why the repetition breaks a floor, or empty."""
    every_alternative_lost: bool
    """Every alternative loses the game or at least a piece, as far as the search sees."""

    def line(self) -> str:
        """One line for the report."""
        best = (
            f"best alternative {self.alternatives[0][0].name} "
            f"{describe_score(self.alternatives[0][1])}"
            if self.alternatives
            else "no alternative"
        )
        table = f", table win {self.table_win.name}" if self.table_win is not None else ""
        verdict_text = f": VIOLATION ({self.violation})" if self.violation else ": ok"
        return (
            f"game {self.round}, ply {self.ply}: {self.repeated.name} repeated {self.state} "
            f"{self.material}; depth {self.horizon}, {best}{table}{verdict_text}"
        )


def before_last(game: Game) -> Game:
    """``game`` without its last move: the position the repeating move was chosen in."""
    prior = Game(game.variant, game.start, game.endings)
    for move in game.moves[:-1]:
        prior.play(move)
    return prior


@dataclass(frozen=True, slots=True)
class Judge:
    """How the engine judged played: its settings, its time a move, or a fixed depth."""

    settings: SearchSettings = DEFAULT_SETTINGS
    """The engine's settings (its contempt for draws prices the level floor)."""
    movetime: float = 0.1
    """Its seconds a move: the depth it completes in them is the horizon."""
    depth: int | None = None
    """A fixed horizon instead."""


def horizon_of(prior: Game, how: Judge) -> int:
    """The depth the engine completes where it repeated (``prior``'s end), or ``how.depth``."""
    if how.depth is not None:
        return how.depth
    found = think(
        prior.position,
        prior.variant,
        movetime=how.movetime,
        history=prior.positions[:-1],
        plies_without_capture=prior.plies_without_capture,
        endings=prior.endings,
        settings=how.settings,
    )
    return max(1, found.depth)


def move_scores(prior: Game, depth: int, settings: SearchSettings) -> list[tuple[Move, int]]:
    """Every legal move at ``prior``'s end searched alone to ``depth``, best first."""
    table: TranspositionTable = {}  # shared: one root, one objective
    scores: list[tuple[Move, int]] = []
    for move in prior.legal_moves():
        search = Search(
            prior.position,
            prior.variant,
            history=prior.positions[:-1],
            plies_without_capture=prior.plies_without_capture,
            endings=prior.endings,
            settings=settings,
            transpositions=table,
            only=[move],
        )
        score = 0
        for iteration in search.iterate(lambda: False, depth):
            score = iteration.score
        scores.append((move, score))
    return sorted(scores, key=lambda pair: -pair[1])


def table_win(prior: Game) -> Move | None:
    """A winning move the tables give at ``prior``'s end, into no earlier position."""
    before = prior.position
    table = shipped(prior.variant, before.size)
    own, opp = before.pieces(before.turn), before.pieces(before.turn.other)
    if table is None or not table.covers(own, opp):
        return None
    found = winning_move(
        table,
        before,
        prior.variant,
        history=prior.positions[:-1],
        plies_without_capture=prior.plies_without_capture,
        no_capture_limit=prior.endings.no_capture_limit,
    )
    return None if found is None else found[0][0]


def violation(state: str, depth: int, alternatives: Sequence[tuple[Move, int]],
              table_move: Move | None, contempt: int) -> str:
    """Why a repetition in ``state`` breaks its floor, or empty."""
    best = alternatives[0] if alternatives else None
    if state == "ahead":
        if table_move is not None:
            return f"the tables win with {table_move.name}"
        if best is not None and best[1] > MATE_BOUND and MATE - best[1] <= depth:
            return f"{best[0].name} {describe_score(best[1])}"
    elif state == "level":
        if best is not None and best[1] > -contempt:
            draw = describe_score(-contempt)
            return f"{best[0].name} scores {describe_score(best[1])}, above the draw's {draw}"
    elif best is not None and best[1] > -MATE_BOUND:
        return f"{best[0].name} {describe_score(best[1])} loses no more than the repetition"
    return ""


def judge(record: GameRecord, how: Judge) -> Judged:
    """The engine's repetition at the end of ``record``'s game."""
    game = record.game
    prior = before_last(game)
    before = prior.position
    mover = before.turn
    own, other = before.count(mover), before.count(mover.other)
    state = "ahead" if own > other else "level" if own == other else "behind"
    depth = horizon_of(prior, how)
    scores = move_scores(prior, depth, PLAIN)
    alternatives = tuple(
        pair for pair in scores if make_move(before, pair[0]) not in prior.positions
    )
    table_move = table_win(prior) if state == "ahead" else None
    lost = all(score <= -COUNT_WIN or score <= -100 for _, score in alternatives)
    return Judged(
        record.tags.get("Round", "?"),
        len(game.moves),
        state,
        f"{own}-{other}",
        depth,
        game.moves[-1],
        alternatives,
        table_move,
        violation(state, depth, alternatives, table_move, how.settings.contempt),
        lost,
    )


def repeater(record: GameRecord) -> str | None:
    """The name of the engine whose move repeated a position, when the game ended so."""
    game = record.game
    outcome = game.outcome
    if outcome is None or outcome.reason is not EndReason.REPETITION:
        return None
    mover = game.positions[-2].turn
    return record.tags.get("Red" if mover is Color.RED else "Black", mover.word)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("records", nargs="+", type=Path, help="files of game records")
    parser.add_argument("--engine", default="new", help="the engine judged, as records name it")
    parser.add_argument("--movetime", type=float, default=0.1, help="its seconds a move (0.1)")
    parser.add_argument("--depth", type=int, help="judge at this depth instead of the horizon")
    parser.add_argument(
        "--contempt", type=int, default=DEFAULT_SETTINGS.contempt, help="its contempt for draws"
    )
    args = parser.parse_args()
    how = Judge(SearchSettings(contempt=args.contempt), args.movetime, args.depth)
    records: list[tuple[str, GameRecord]] = []  # with the file each came from
    for path in args.records:
        try:
            records.extend((path.name, record) for record in read_records(path.read_text()))
        except (OSError, SurakartaError) as error:
            print(f"repetition.py: {path}: {error}", file=sys.stderr)
            return 2
    if not any(args.engine in (r.tags.get("Red"), r.tags.get("Black")) for _, r in records):
        print(f"repetition.py: no game names the engine {args.engine!r} (see --engine)",
              file=sys.stderr)
        return 2
    counts: Counter[str] = Counter()
    violations: Counter[str] = Counter()
    all_lost = 0
    for source, record in records:
        name = repeater(record)
        if name is None:
            continue
        if name != args.engine:
            counts[f"{name} repeated"] += 1
            continue
        judged = judge(record, how)
        print(f"{source}: {judged.line()}" if len(args.records) > 1 else judged.line(), flush=True)
        counts[f"{args.engine} repeated {judged.state}"] += 1
        if judged.violation:
            violations[judged.state] += 1
        if judged.state == "level" and judged.every_alternative_lost:
            all_lost += 1
    print(f"{len(records)} games, {sum(counts.values())} ended by repetition:")
    for key, count in sorted(counts.items()):
        print(f"  {key}: {count}")
    level = counts[f"{args.engine} repeated level"]
    print(f"  level, every alternative losing a piece or the game: {all_lost} of {level}")
    floors = (
        ("ahead, a wipe-out in reach", "ahead"),
        ("level, an alternative above the draw", "level"),
        ("behind, an alternative not wiped out", "behind"),
    )
    for text, state in floors:
        verdict_text = "ok" if violations[state] == 0 else "FLOOR MISSED"
        print(f"  floor: no repetition {text}: {violations[state]}: {verdict_text}")
    return 1 if sum(violations.values()) else 0


if __name__ == "__main__":
    sys.exit(main())
