"""The engine against itself as it was before the tablebases and the objective.

The previous engine is the repository's tree at a git revision (by default the
commit before the tablebases were added), exported to a temporary folder with
``git archive`` and run from there as a GTP subprocess; the current engine runs
from this tree. Both play at the same time per move, two games at a time, from
the match runner's paired openings.

Besides the score, it counts how the games ended, for each engine: repetitions
made by its own move while ahead (the shuffling the objective removes), at
equal material, and while behind.

Floor: the current engine scores at least 50%. ``--records FILE`` keeps every
game's moves as game records (Red and Black are ``new`` and ``previous``), and
then has ``benchmarks/repetition.py`` replay them and judge every repetition the
new engine made; its floors count too.

Run: ``nice -n 10 .venv/bin/python benchmarks/previous_engine.py --games 400
--records games.txt`` (about 20 minutes on 2 free cores at 0.1 s a move, and a
few seconds a repetition to judge them); ``--games 40`` for a look.
"""

from __future__ import annotations

import argparse
import shlex
import subprocess
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path

from controller.game import EndReason
from controller.position import Color
from controller.variants import Variant
from firmware.tournament import (
    GameResult,
    Side,
    TournamentConfig,
    run_tournament,
    summarize,
    write_records,
)

ROOT = Path(__file__).resolve().parent.parent
NAMES = ("new", "previous")
"""How the records name the two engines."""
FLOOR = 0.50
PACKAGES = ("controller", "vision", "hardware", "firmware")


def before_tablebases() -> str:
    """The commit before the one that added the tablebases."""
    added = subprocess.run(
        ["git", "log", "--diff-filter=A", "--format=%H", "--", "controller/engine/tablebase.py"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=True,
    ).stdout.split()
    if not added:
        raise SystemExit("no commit adds controller/engine/tablebase.py; give --base")
    return f"{added[-1]}^"


def export(revision: str, folder: Path) -> None:
    """The packages at ``revision`` into ``folder``: all of them, since the command
    line imports every command, and today's vision or hardware may not fit."""
    archive = subprocess.run(
        ["git", "archive", revision, *PACKAGES],
        cwd=ROOT,
        capture_output=True,
        check=True,
    ).stdout
    subprocess.run(["tar", "-x", "-C", str(folder)], input=archive, check=True)


def repeater(result: GameResult) -> Side | None:
    """The engine whose move repeated a position, when a game ended that way."""
    outcome = result.outcome
    if outcome is None or outcome.reason is not EndReason.REPETITION:
        return None
    last_mover = Color.RED if result.plies % 2 == 1 else Color.BLACK
    return Side.A if last_mover is result.spec.a_color else Side.B


def endings(results: list[GameResult]) -> Counter[str]:
    """Repetitions by each engine's own move, by its material then."""
    counts: Counter[str] = Counter()
    for result in results:
        side = repeater(result)
        if side is None:
            continue
        own, other = result.a_pieces, result.b_pieces
        if side is Side.B:
            own, other = other, own
        state = "ahead" if own > other else "level" if own == other else "behind"
        counts[f"{'new' if side is Side.A else 'previous'} repeated {state}"] += 1
    return counts


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--games", type=int, default=400, help="games (default 400)")
    parser.add_argument("--movetime", type=float, default=0.1, help="seconds a move (0.1)")
    parser.add_argument("--jobs", type=int, default=2, help="games at once (default 2)")
    parser.add_argument("--base", help="git revision of the previous engine")
    parser.add_argument(
        "--new",
        help="git revision of the current engine (default: this working tree; a revision "
        "keeps a long run apart from edits made meanwhile)",
    )
    parser.add_argument("--seed", type=int, default=18, help="seed of the openings")
    parser.add_argument("--records", type=Path, help="file to write the games to, as records")
    args = parser.parse_args()
    base = args.base or before_tablebases()
    python = shlex.quote(sys.executable)
    with tempfile.TemporaryDirectory() as folder, tempfile.TemporaryDirectory() as new:
        export(base, Path(folder))
        if args.new:
            export(args.new, Path(new))
        # env -C runs the old tree's firmware.cli (python -m looks in the cwd first).
        previous = f"env -C {shlex.quote(folder)} {python} -m firmware.cli gtp"
        here = new if args.new else str(ROOT)
        current = f"env -C {shlex.quote(here)} {python} -m firmware.cli gtp"
        timeout = 10 * args.movetime + 10
        config = TournamentConfig((current, previous), Variant.STANDARD, args.movetime, timeout)
        started = time.monotonic()

        def progress(result: GameResult) -> None:
            print(result.line(), flush=True)

        results = run_tournament(
            config, args.games, jobs=args.jobs, seed=args.seed, on_result=progress
        )
    if args.records is not None:
        args.records.write_text(write_records(results, Variant.STANDARD, NAMES))
    summary = summarize(results)
    print(
        f"current engine (A, {args.new or 'working tree'}) against {base} (B), "
        f"{args.games} games at {args.movetime:g} s a move, {time.monotonic() - started:.0f} s:"
    )
    print("  " + summary.report().replace("\n", "\n  "))
    reasons = Counter(r.outcome.reason.value for r in results if r.outcome is not None)
    print("  endings: " + ", ".join(f"{k} {v}" for k, v in sorted(reasons.items())))
    for key, count in sorted(endings(results).items()):
        print(f"  {key}: {count}")
    verdict = "ok" if summary.score >= FLOOR else "BELOW THE FLOOR"
    print(f"  floor: score >= {100 * FLOOR:.0f}%: {verdict}", flush=True)
    judged = 0
    if args.records is not None:
        judge = [sys.executable, str(ROOT / "benchmarks" / "repetition.py"), str(args.records)]
        judged = subprocess.run([*judge, "--movetime", f"{args.movetime:g}"]).returncode
    return 0 if summary.score >= FLOOR and judged == 0 else 1


if __name__ == "__main__":
    sys.exit(main())
