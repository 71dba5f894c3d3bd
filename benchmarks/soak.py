"""Soak test: random games played by a simulated hand through the whole pipeline.

Every move is carried out by the virtual hand in front of the rendered camera
(random pose and light from the renderer's hard preset, sensor noise, a hand in
the frames while it acts), read by the real vision, judged by the referee, and
confirmed on the lamps of the mock-pin hardware. Reported:

- moves accepted, and moves wrongly accepted (the referee accepted something
  other than what the hand did; floor: zero);
- legal moves that needed a second try (not accepted within 3 s of the hand
  leaving; the hand then lifts the piece and puts it down again; floor: < 1%);
- the time from the hand leaving the board to the acceptance (the moment the
  lamps and buzzer confirm it), in simulated seconds: median and 95th percentile
  (floor: median under 0.5 s).

    python benchmarks/soak.py                       # 200 games, up to 60 plies each
    python benchmarks/soak.py --games 20 --jobs 2   # a quicker look
    python benchmarks/soak.py --max-plies 0         # whole games, to the Olympiad endings

With ``--main-loop MINUTES`` it soaks the board's real main loop instead
(``firmware.app.BoardApp``, as ``surakarta run`` drives it, in simulated time): a
virtual hand plays on a rendered camera, both board sizes take turns, against each
other and against the computer, with button presses (hint, undo, new, mode), restarts
and power cuts that resume from the journal, and every kind of camera fault. Resident
memory is sampled every minute. Floors: no fault stops the loop; no game or record is
lost across the power cuts; memory levels off (the mean of the last window, an hour in
a run of two hours or more, a third of a shorter run, is within 10 MB of the first's):

    python benchmarks/soak.py --main-loop 120       # the two-hour soak
    python benchmarks/soak.py --main-loop 20        # a quicker look at the trend
"""

from __future__ import annotations

import argparse
import dataclasses
import os
import random
import statistics
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import numpy as np

from controller import Move, legal_moves
from controller.decisions import Accepted, Decision
from firmware.simulation import Simulation, SimulationOptions
from vision.render import RenderOptions, random_scene

ACCEPT_WITHIN = 3.0


@dataclass
class GameFigures:
    """What one game measured."""

    accepted: int = 0
    wrong: int = 0
    second_tries: int = 0
    failed: int = 0
    latencies: list[float] = field(default_factory=list)
    plies: int = 0
    frames: int = 0


def play_game(seed: int, max_plies: int) -> GameFigures:
    rng = random.Random(seed)
    scene = random_scene(np.random.default_rng(seed), RenderOptions.preset("hard"))
    scene = dataclasses.replace(scene, hand=None)  # the simulation draws its own hand
    accepted: list[tuple[float, Move]] = []
    """When the referee accepted each move, and the move (typed, not read back from text)."""

    def observe(decision: Decision) -> None:
        if isinstance(decision, Accepted):
            accepted.append((simulation.t, decision.move))

    simulation = Simulation(
        lambda record: None, SimulationOptions(scene=scene, seed=seed), observers=(observe,)
    )
    figures = GameFigures()
    try:
        simulation.advance(1.0)
        referee = simulation.referee
        while not referee.current.is_over and (max_plies <= 0 or figures.plies < max_plies):
            move = rng.choice(legal_moves(referee.position, referee.variant))
            before = len(accepted)
            simulation.carry_out(move)
            left = simulation.hand_left_at
            assert left is not None
            tried_again = False
            while len(accepted) == before:
                if simulation.t - left > ACCEPT_WITHIN:
                    if tried_again:
                        break
                    tried_again = True
                    figures.second_tries += 1
                    destination = move.destination
                    simulation.lift(destination)
                    simulation.place(destination)
                    left = simulation.hand_left_at
                    assert left is not None
                simulation.tick()
            figures.plies += 1
            if len(accepted) == before:
                figures.failed += 1
                break
            accepted_at, accepted_move = accepted[-1]
            figures.accepted += 1
            if accepted_move != move:
                figures.wrong += 1
                break
            if not tried_again:
                figures.latencies.append(accepted_at - left)
            simulation.advance(0.3)
        figures.frames = simulation.frame_index
    finally:
        simulation.close()
    return figures


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--max-plies", type=int, default=60, help="0 for whole games")
    parser.add_argument("--jobs", type=int, default=os.cpu_count() or 1)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--main-loop", type=float, metavar="MINUTES",
                        help="soak the board's main loop for this long instead")
    args = parser.parse_args()
    if args.main_loop is not None:
        from benchmarks.soak_board import soak_main_loop

        sys.exit(soak_main_loop(args.main_loop * 60, args.seed))
    started = time.perf_counter()
    seeds = [args.seed * 100_000 + game for game in range(args.games)]
    with ProcessPoolExecutor(args.jobs) as pool:
        games = list(pool.map(play_game, seeds, [args.max_plies] * len(seeds)))
    latencies = sorted(x for g in games for x in g.latencies)
    accepted = sum(g.accepted for g in games)
    tries = sum(g.second_tries for g in games)
    plies = sum(g.plies for g in games)
    print(f"{args.games} games, {plies} moves made by the hand, {sum(g.frames for g in games)} "
          f"frames, {time.perf_counter() - started:.0f} s on {args.jobs} processes")
    print(f"moves accepted: {accepted}; wrongly accepted: {sum(g.wrong for g in games)}; "
          f"never accepted: {sum(g.failed for g in games)}")
    print(f"needed a second try: {tries} ({100 * tries / max(plies, 1):.2f}%)")
    if latencies:
        p95 = latencies[min(len(latencies) - 1, int(0.95 * len(latencies)))]
        print(f"hand leaves -> move confirmed: median {statistics.median(latencies):.2f} s, "
              f"95th percentile {p95:.2f} s (simulated time)")


if __name__ == "__main__":
    main()
