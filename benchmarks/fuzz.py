"""The fuzz suite's long run: every property of tests/fuzz with a hundred times the examples.

The fast tier runs each property on a few dozen to a few hundred inputs; this runs them
on thousands (about an hour on a Pi-class machine, minutes on a PC with --quick). Floor:
every property holds (a clear one-line error or a correct answer, never a traceback or a
hang); the exit status is pytest's.

    python benchmarks/fuzz.py            # SURAKARTA_FUZZ=long over tests/fuzz
    python benchmarks/fuzz.py -k records # one channel
"""

from __future__ import annotations

import os
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def main() -> int:
    started = time.monotonic()
    environment = {**os.environ, "SURAKARTA_FUZZ": "long", "SDL_VIDEODRIVER": "dummy",
                   "SDL_AUDIODRIVER": "dummy"}
    command = [sys.executable, "-m", "pytest", "tests/fuzz", "-q", "-p", "no:cacheprovider",
               "--hypothesis-show-statistics", *sys.argv[1:]]
    status = subprocess.run(command, cwd=ROOT, env=environment, check=False).returncode
    print(f"long fuzz run: {'every property held' if status == 0 else 'FLOOR MISSED'} "
          f"in {time.monotonic() - started:.0f} s")
    return status


if __name__ == "__main__":
    sys.exit(main())
