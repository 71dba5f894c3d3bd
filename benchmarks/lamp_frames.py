"""How long a lamp frame takes: effects, and shifting it out on mock pins.

Run by hand: ``.venv/bin/python benchmarks/lamp_frames.py [--quick]``. Mock pins
measure gpiozero's own Python overhead, a floor for what a Pi pays per frame
(real pin writes add to it). Prints medians in microseconds.
"""

from __future__ import annotations

import argparse
import statistics
import time
from collections.abc import Callable, Sequence

from gpiozero import Device
from gpiozero.pins.mock import MockFactory

from controller import find_move, parse_position
from hardware.chain import Chain, Frame
from hardware.drivers import LampDriver, ShiftRegisterChain, SpiShiftRegisterChain
from hardware.effects import Blink, Chase, Effect, Pulse, Steady, frame_at
from hardware.lamps import LampLayout, lamps_for_move


def median_us(action: Callable[[], object], repeats: int) -> float:
    samples = []
    for _ in range(repeats):
        start = time.perf_counter()
        action()
        samples.append(time.perf_counter() - start)
    return statistics.median(samples) * 1e6


def _writer(driver: LampDriver, frames: Sequence[Frame]) -> Callable[[], None]:
    upcoming = iter(list(frames) * 2)
    return lambda: driver.write(next(upcoming))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--quick", action="store_true", help="fewer repeats")
    repeats = 30 if parser.parse_args().quick else 300

    layout = LampLayout(6)
    position = parse_position("3b2/6/2r3/6/6/6 r")
    move = find_move(position, "c4xd6")
    path = tuple(lamps_for_move(layout, move))
    effects: list[Effect] = [
        Steady(("a1", "f6")),
        Chase(path, start=0.0),
        Pulse(("e5", "e6"), start=0.0),
        Blink(("b2",), start=0.0),
    ]
    path_cost = median_us(lambda: lamps_for_move(layout, move), repeats)
    frame_cost = median_us(lambda: frame_at(effects, 1.23), repeats)
    print(f"{'lamps_for_move (10-lamp capture):':36s}{path_cost:8.1f} us")
    print(f"{'frame_at, 4 layered effects:':36s}{frame_cost:8.1f} us")

    saved = Device.pin_factory
    factory = MockFactory()
    Device.pin_factory = factory
    try:
        chain = Chain.of(layout)
        # One lamp moving along the path: every frame differs, so every write shifts.
        frames = [{path[k % len(path)]: 1.0} for k in range(repeats)]
        for label, driver in (
            ("bit-banged 74HC595 x9", ShiftRegisterChain(chain, 17, 27, 22, pin_factory=factory)),
            ("SPI 74HC595 x9 (mock: software)", SpiShiftRegisterChain(chain, pin_factory=factory)),
        ):
            cost = median_us(_writer(driver, frames), repeats)
            print(f"{label + ' write:':36s}{cost:8.1f} us  (max {1e6 / cost:6.0f} frames/s)")
            driver.close()
    finally:
        factory.reset()
        Device.pin_factory = saved


if __name__ == "__main__":
    main()
