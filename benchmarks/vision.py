"""Vision accuracy and speed on rendered camera images.

Usage: .venv/bin/python benchmarks/vision.py [--quick] [--hard N] [--hands N] [--seed S]

For each board size it calibrates once on a clean image of the start position, then:
- a clean set (good camera, good light): every board must be right;
- a hard set (random positions; tilt up to 35 degrees, any rotation, distance,
  uneven coloured light, shadows, noise, blur, JPEG): per-point error, per-board
  accuracy and read rate (share of frames that gave a reading at all);
- hand frames (the hard set with a hand and arm over the board): how many were
  wrongly read as a board (must be none).
- time per frame at 640x480 and 1280x720, with a steady camera (markers confirmed
  by patch comparison) and with full marker detection.

Each frame is read after the same scene has been seen for a second (a hand frame's
without the hand), as in play: the light is taken in from the frames before (see
``vision.surround``), not from the calibration's alone.

Floors from the issue: clean 100%; hard boards right >= 99.5%; hand frames read = 0;
read rate >= 97%; steady < 5 ms and with detection < 20 ms per 640x480 frame (medians;
a machine busy with other work misses them, so measure on an idle one).
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from dataclasses import dataclass, field, replace
from pathlib import Path

import numpy as np

# This script is called vision.py: drop its own folder from the import path, or it would
# shadow the ``vision`` package it measures.
_HERE = Path(__file__).resolve().parent
sys.path[:] = [entry for entry in sys.path if Path(entry or ".").resolve() != _HERE]

from controller.geometry import geometry  # noqa: E402
from controller.position import start_position  # noqa: E402
from controller.reading import BoardReading  # noqa: E402
from vision.calibrate import Calibration, calibrate  # noqa: E402
from vision.config import VisionConfig  # noqa: E402
from vision.reader import BoardReader, ReadStatus  # noqa: E402
from vision.render import RenderOptions, Scene, random_scene, render  # noqa: E402
from vision.surround import STILL_FRAMES  # noqa: E402


def random_board(rng: np.random.Generator, size: int) -> BoardReading:
    points = list(geometry(size).points)
    rng.shuffle(points)
    reds = int(rng.integers(0, 2 * size + 1))
    blacks = int(rng.integers(0, 2 * size + 1))
    red = sum(1 << p for p in points[:reds])
    black = sum(1 << p for p in points[reds:reds + blacks])
    return BoardReading(red, black, size)


@dataclass
class Tally:
    frames: int = 0
    read: int = 0
    boards_right: int = 0
    points_read: int = 0
    points_wrong: int = 0
    statuses: dict[str, int] = field(default_factory=dict)
    located_paper_covered: int = 0
    located: int = 0

    def add(self, truth: BoardReading, status: ReadStatus, reading: BoardReading | None) -> None:
        self.frames += 1
        self.statuses[status.value] = self.statuses.get(status.value, 0) + 1
        if reading is None:
            return
        self.read += 1
        self.boards_right += reading == truth
        self.points_read += len(geometry(truth.size).points)
        wrong = (reading.red ^ truth.red) | (reading.black ^ truth.black)
        self.points_wrong += wrong.bit_count()


def run_set(calibration: Calibration, config: VisionConfig, rng: np.random.Generator,
            options: RenderOptions, count: int) -> Tally:
    tally = Tally()
    size = calibration.size
    for _ in range(count):
        truth = random_board(rng, size)
        scene = random_scene(rng, options, size=size)
        reader = BoardReader(calibration, config)
        # As in play, the reader has seen the room in this light for a second before the
        # frame (a hand frame: without the hand): the light differs from the calibration's,
        # and a change round the grid that stays is taken as the light's (vision.surround).
        settled = render(truth, replace(scene, hand=None))
        for _ in range(STILL_FRAMES):
            reader.read(settled)
        frame = reader.read(settled if scene.hand is None else render(truth, scene))
        tally.add(truth, frame.status, frame.reading)
        if frame.points:
            tally.located += 1
            tally.located_paper_covered += not frame.paper_clear
    return tally


def percent(part: int, whole: int) -> str:
    return f"{100 * part / whole:.2f}%" if whole else "n/a"


def timing(calibration: Calibration, config: VisionConfig, rng: np.random.Generator,
           width: int, height: int, scenes: int, repeats: int) -> tuple[list[float], list[float]]:
    steady, detecting = [], []
    options = RenderOptions.preset("hard")
    for _ in range(scenes):
        scene = random_scene(rng, options, width, height, calibration.size)
        image = render(random_board(rng, calibration.size), scene)
        reader = BoardReader(calibration, config)
        reader.read(image)
        for _ in range(repeats):
            start = time.perf_counter()
            reader.read(image)
            steady.append(time.perf_counter() - start)
            reader.reset()
            start = time.perf_counter()
            reader.read(image)
            detecting.append(time.perf_counter() - start)
    return steady, detecting


def ms(values: list[float]) -> str:
    ordered = sorted(values)
    p95 = ordered[min(len(ordered) - 1, int(0.95 * len(ordered)))]
    return f"median {1000 * statistics.median(ordered):6.2f} ms   p95 {1000 * p95:6.2f} ms"


STEADY_FLOOR_MS = 5.0
"""Most a 640x480 frame may take with a steady camera (median), from the issue."""
DETECTION_FLOOR_MS = 20.0
"""Most a 640x480 frame may take with full marker detection (median), from the issue."""


def speed_ok(steady: list[float], detecting: list[float]) -> bool:
    """Whether the 640x480 medians meet the issue's speed floors (say which does not)."""
    steady_ms = 1000 * statistics.median(steady)
    detecting_ms = 1000 * statistics.median(detecting)
    ok = True
    if steady_ms >= STEADY_FLOOR_MS:
        print(f"speed floor missed: steady camera {steady_ms:.2f} ms >= {STEADY_FLOOR_MS:g} ms")
        ok = False
    if detecting_ms >= DETECTION_FLOOR_MS:
        print(f"speed floor missed: with markers {detecting_ms:.2f} ms >= "
              f"{DETECTION_FLOOR_MS:g} ms")
        ok = False
    return ok


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="small sets (a minute or less)")
    parser.add_argument("--hard", type=int, help="hard-set frames per size (default 500)")
    parser.add_argument("--hands", type=int, help="hand frames per size (default 200)")
    parser.add_argument("--clean", type=int, help="clean-set frames per size (default 100)")
    parser.add_argument("--sizes", default="6,7", help="board sizes (default 6,7)")
    parser.add_argument("--seed", type=int, default=2024)
    args = parser.parse_args()
    hard = args.hard or (60 if args.quick else 500)
    hands = args.hands or (30 if args.quick else 200)
    clean = args.clean or (20 if args.quick else 100)
    config = VisionConfig()
    rng = np.random.default_rng(args.seed)
    failed = False
    for size in (int(s) for s in args.sizes.split(",")):
        calibration = calibrate(config, render(start_position(size), Scene()))
        began = time.perf_counter()
        clean_tally = run_set(calibration, config, rng, RenderOptions.preset("clean"), clean)
        hard_tally = run_set(calibration, config, rng, RenderOptions.preset("hard"), hard)
        hand_tally = run_set(calibration, config, rng, RenderOptions.preset("hand"), hands)
        print(f"== {size}x{size} board ({time.perf_counter() - began:.0f} s)")
        print(f"clean set : {clean_tally.boards_right}/{clean_tally.frames} boards right "
              f"({percent(clean_tally.boards_right, clean_tally.frames)}), "
              f"statuses {clean_tally.statuses}")
        print(f"hard set  : boards right {percent(hard_tally.boards_right, hard_tally.read)} of "
              f"{hard_tally.read} read; per-point error "
              f"{percent(hard_tally.points_wrong, hard_tally.points_read)}; read rate "
              f"{percent(hard_tally.read, hard_tally.frames)} of {hard_tally.frames}; "
              f"statuses {hard_tally.statuses}")
        print(f"hand set  : {hand_tally.read}/{hand_tally.frames} hand frames read as a board "
              f"({percent(hand_tally.read, hand_tally.frames)}); statuses {hand_tally.statuses}; "
              f"paper checks (the sheet round the grid too) caught "
              f"{hand_tally.located_paper_covered}/{hand_tally.located} "
              "of those located")
        failed |= clean_tally.boards_right < clean_tally.frames
        failed |= hard_tally.boards_right < 0.995 * hard_tally.read
        failed |= hand_tally.read > 0 or hard_tally.read < 0.97 * hard_tally.frames
        if size == 6:
            scenes, repeats = (10, 5) if args.quick else (40, 10)
            for width, height in ((640, 480), (1280, 720)):
                steady, detecting = timing(calibration, config, rng, width, height, scenes,
                                           repeats)
                print(f"{width}x{height} steady camera : {ms(steady)}")
                print(f"{width}x{height} with markers  : {ms(detecting)}")
                if width == 640:
                    failed |= not speed_ok(steady, detecting)
    render_times = []
    for seed in range(30):
        start = time.perf_counter()
        render(start_position(), Scene(seed=seed))
        render_times.append(time.perf_counter() - start)
    print(f"renderer, clean 640x480 frame: {ms(render_times)}")
    print("floors met" if not failed else "FLOORS NOT MET")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
