"""What the README's Pi install would download on 64-bit Raspberry Pi OS, asked of pip.

pip's resolver runs for aarch64 and CPython 3.11 (Raspberry Pi OS bookworm) with
``pi-constraints.txt``, from the packages' published metadata: nothing is installed,
and no wheel is downloaded where the index serves its metadata alone. Floors: every
package comes as a wheel (nothing is compiled on the Pi) and numpy stays at 1.x, the
numpy the Pi's apt camera stack (picamera2) is built for. Run it after changing the
constraints or the dependencies:

    python benchmarks/pi_install.py
"""

from __future__ import annotations

import json
import re
import subprocess
import sys
import tempfile
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]

PLATFORMS = ("manylinux2014_aarch64", "manylinux_2_17_aarch64", "manylinux_2_28_aarch64",
             "manylinux_2_34_aarch64", "manylinux_2_36_aarch64")
"""The wheel tags bookworm's glibc 2.36 on aarch64 accepts (pip does not widen them itself)."""

FROM_APT = {"spidev"}
"""Packages the README's Pi install takes from apt (python3-spidev): pip finds them there."""


def pi_requirements() -> list[str]:
    """What ``pip install -e '.[pi]'`` asks for, less what apt provides."""
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    wanted = project["dependencies"] + project["optional-dependencies"]["pi"]
    return [text for text in wanted if re.split(r"[\s<>=!~\[;]", text)[0] not in FROM_APT]


def resolve(requirements: list[str]) -> list[dict[str, object]]:
    """pip's choice for the Pi, wheels only; exits with pip's message when there is none."""
    with tempfile.TemporaryDirectory() as folder:
        report = Path(folder) / "report.json"
        command = [sys.executable, "-m", "pip", "install", "--dry-run", "--quiet",
                   "--ignore-installed", "--only-binary=:all:", "--python-version", "3.11",
                   "--implementation", "cp", "--abi", "cp311",
                   *(option for tag in PLATFORMS for option in ("--platform", tag)),
                   "--target", str(Path(folder) / "target"), "--report", str(report),
                   "-c", str(ROOT / "pi-constraints.txt"), *requirements]
        finished = subprocess.run(command, capture_output=True, text=True)
        if finished.returncode != 0:
            errors = [line for line in finished.stderr.splitlines() if "ERROR" in line]
            sys.exit("FAIL: no wheels-only install for the Pi:\n" + "\n".join(errors))
        installs: list[dict[str, object]] = json.loads(report.read_text())["install"]
        return installs


def main() -> int:
    installs = resolve(pi_requirements())
    versions = {}
    for install in installs:
        metadata = install["metadata"]
        download = install["download_info"]
        assert isinstance(metadata, dict) and isinstance(download, dict)
        versions[metadata["name"]] = metadata["version"]
        print(f"{metadata['name']:<24} {metadata['version']:<12} "
              f"{str(download['url']).rsplit('/', 1)[-1]}")
    numpy_major = int(versions["numpy"].split(".")[0])
    print(f"floor: wheels only for aarch64 / CPython 3.11: ok ({len(installs)} packages)")
    print(f"floor: numpy 1.x for the Pi's camera stack: {versions['numpy']}: "
          + ("ok" if numpy_major == 1 else "FAIL"))
    return 0 if numpy_major == 1 else 1


if __name__ == "__main__":
    sys.exit(main())
