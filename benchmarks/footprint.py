"""Resident memory and CPU share of ``surakarta run`` on a steady board at the camera rate.

The board runs with the real pipeline: a synthetic camera (rendered frames of the
start position), the real vision, the referee, and the hardware layer on mock pins.
Note that rendering the synthetic frames costs CPU that a real camera does not.

    python benchmarks/footprint.py                 # 60 s at 10 frames per second
    python benchmarks/footprint.py --seconds 20 --fps 15 --width 1280 --height 720
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path


def rss_mb(pid: int) -> float:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    return 0.0


def cpu_seconds(pid: int) -> float:
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    ticks = os.sysconf("SC_CLK_TCK")
    return (int(fields[11]) + int(fields[12])) / ticks  # utime + stime


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=60.0)
    parser.add_argument("--fps", type=float, default=10.0)
    parser.add_argument("--width", type=int, default=640)
    parser.add_argument("--height", type=int, default=480)
    args = parser.parse_args()
    folder = Path(tempfile.mkdtemp())
    config = folder / "board.toml"
    config.write_text(
        f'[camera]\nsource = "synthetic"\nfps = {args.fps}\n'
        f"width = {args.width}\nheight = {args.height}\n"
        '[journal]\npath = "journal.json"\n'
    )
    process = subprocess.Popen(
        [sys.executable, "-m", "firmware.cli", "run", "--config", str(config)],
        stderr=subprocess.DEVNULL,
    )
    try:
        time.sleep(8.0)  # start-up: imports, calibration, first frames
        samples = []
        cpu_start, wall_start = cpu_seconds(process.pid), time.monotonic()
        while time.monotonic() - wall_start < args.seconds:
            samples.append(rss_mb(process.pid))
            time.sleep(0.5)
        cpu = (cpu_seconds(process.pid) - cpu_start) / (time.monotonic() - wall_start)
    finally:
        process.terminate()
        process.wait(timeout=30)
    print(
        f"surakarta run, synthetic camera {args.width}x{args.height} at {args.fps:g} fps, "
        f"{args.seconds:g} s: resident memory median {statistics.median(samples):.0f} MB, "
        f"peak {max(samples):.0f} MB; CPU {100 * cpu:.0f}% of one core"
    )


if __name__ == "__main__":
    main()
