"""How soon the background engine answers a request that supersedes one it is searching.

The board asks for a hint, then the player moves and the computer must reply: the
reply should take its own budget, not the rest of the old search's as well.

    python benchmarks/engine_service.py [--seconds S] [--rounds N]

Exits non-zero when the newer request's answer takes more than its budget plus
FLOOR_SLACK seconds (before the service stopped superseded searches: about twice
the budget).
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from controller import parse_position, start_position
from controller.decisions import Purpose, Think
from controller.engine.service import BackgroundEngine
from controller.game import Endings
from controller.position import Position
from controller.variants import Variant

FLOOR_SLACK = 0.25
"""Seconds over its own budget that a superseding request may take."""
LATER = parse_position("bbbbbb/bbbbbb/6/2r3/rr1rrr/rrrrrr b")
"""The position after red's first move, where the second request searches."""


def request(number: int, position: Position) -> Think:
    return Think(number, Purpose.HINT, position, (), 0, Variant.STANDARD, Endings(), 10)


def superseded_latency(seconds: float) -> float:
    """Seconds from a superseding request to its answer."""
    engine = BackgroundEngine(seconds)
    try:
        engine.submit(request(1, start_position()))
        time.sleep(seconds / 20)
        started = time.monotonic()
        engine.submit(request(2, LATER))
        while (answer := engine.poll()) is None or answer.request != 2:
            time.sleep(0.002)
        return time.monotonic() - started
    finally:
        engine.close()


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=1.0, help="engine budget per request")
    parser.add_argument("--rounds", type=int, default=3)
    args = parser.parse_args()
    times = [superseded_latency(args.seconds) for _ in range(args.rounds)]
    worst, floor = max(times), args.seconds + FLOOR_SLACK
    print(f"superseding request answered in {statistics.median(times):.2f} s median, "
          f"{worst:.2f} s worst (budget {args.seconds:g} s, floor {floor:g} s)")
    if worst > floor:
        print("FAILED: the old search was waited for", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
