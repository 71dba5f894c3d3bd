"""Frame rate of the simulator window while the camera pipeline runs, headless.

Runs the real window (camera on its worker thread, engine in the background) on
SDL's dummy video driver for a while, with a scripted mouse dragging pieces over
the board so that most camera frames render the hand (the dearest frames), and
prints the median and 95th percentile of the window's frame work, the frame rate
reached at a 60 fps target, and the camera's rate and render time.

    .venv/bin/python benchmarks/simulator_fps.py [--seconds 10] [--quick]
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import time
from pathlib import Path

# benchmarks/vision.py would shadow the ``vision`` package: keep this folder off the path.
_HERE = Path(__file__).resolve().parent
sys.path[:] = [entry for entry in sys.path if Path(entry or ".").resolve() != _HERE]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=10.0, help="how long to run")
    parser.add_argument("--quick", action="store_true", help="run for 3 seconds")
    parser.add_argument("--preset", choices=("clean", "hard"), default="clean")
    args = parser.parse_args()
    seconds = 3.0 if args.quick else args.seconds

    os.environ["SDL_VIDEODRIVER"] = "dummy"
    os.environ["PYGAME_HIDE_SUPPORT_PROMPT"] = "1"
    import pygame

    from controller.geometry import parse_point
    from firmware.simulator import CameraPreset, WindowOptions
    from firmware.simulator.layout import WINDOW_SIZE
    from firmware.simulator.window import SimulatorWindow

    pygame.display.init()
    pygame.font.init()
    screen = pygame.display.set_mode(WINDOW_SIZE)
    window = SimulatorWindow(WindowOptions(preset=CameraPreset(args.preset)), audio=False)
    view = window.layout.board
    # A hand that keeps lifting b2, carrying it to b3 and back: hand frames all along.
    here, there = view.point_pixel(parse_point("b2", 6)), view.point_pixel(parse_point("b3", 6))
    clock = pygame.time.Clock()
    work: list[float] = []
    shots: list[float] = []
    started = time.monotonic()
    frames = 0
    try:
        while (elapsed := time.monotonic() - started) < seconds:
            phase = frames % 40
            if phase == 0:
                pygame.event.post(pygame.event.Event(pygame.MOUSEBUTTONDOWN, pos=here, button=1))
            elif phase < 30:
                share = phase / 30
                pos = (here[0] + (there[0] - here[0]) * share,
                       here[1] + (there[1] - here[1]) * share)
                pygame.event.post(pygame.event.Event(pygame.MOUSEMOTION, pos=pos, rel=(0, 0),
                                                     buttons=(1, 0, 0)))
            elif phase == 30:
                pygame.event.post(pygame.event.Event(pygame.MOUSEBUTTONUP, pos=there, button=1))
                here, there = there, here
            begun = time.perf_counter()
            for event in pygame.event.get():
                window.handle(event)
            before = window.last_shot
            window.update(elapsed)
            window.draw(screen)
            pygame.display.flip()
            work.append(time.perf_counter() - begun)
            if window.last_shot is not before and window.last_shot is not None:
                shots.append(window.last_shot.render_seconds)
            frames += 1
            clock.tick(60)
        total = time.monotonic() - started
    finally:
        window.close()
        pygame.quit()
    work.sort()
    print(f"window: {frames} frames in {total:.1f} s = {frames / total:.1f} fps (target 60)")
    print(f"frame work: median {statistics.median(work) * 1000:.1f} ms, "
          f"95th percentile {work[int(len(work) * 0.95)] * 1000:.1f} ms")
    if shots:
        print(f"camera: {len(shots) / total:.1f} frames/s, render median "
              f"{statistics.median(shots) * 1000:.1f} ms (on its worker thread)")


if __name__ == "__main__":
    main()
