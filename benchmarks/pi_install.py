"""The README's Raspberry Pi install, checked: wheels only, and nothing compiled.

Two checks, run by hand before a release (the second takes an hour or more):

    python benchmarks/pi_install.py                      # what pip would fetch, both Pis
    sudo python benchmarks/pi_install.py --emulate arm64 # the README's steps in bookworm
    sudo python benchmarks/pi_install.py --emulate armhf
    sudo python benchmarks/pi_install.py --emulate armhf --fresh  # from a new debootstrap

The first asks pip's resolver what ``pi-requirements.txt`` (the part of the install
that comes from PyPI) would download for 64-bit (aarch64) and 32-bit (armv7l)
Raspberry Pi OS with CPython 3.11: floors, wheels only for both.

The second builds a minimal Debian bookworm system of that architecture (debootstrap,
run through qemu-user-static: Raspberry Pi OS Bookworm is built on it), copies the
committed tree into it, runs the Pi steps of the README's "On a Raspberry Pi" section
as written (apt packages that only Raspberry Pi OS carries, such as python3-picamera2,
are left out and named), then the fast tests. Every C compiler name in the system is
a trap that records its call and fails. Floors: every step succeeds with no "ERROR"
line in its output, no compiler is called, the fast tests pass. The system is kept for
the next run (apt then has nothing left to fetch); ``--fresh`` makes it again. Needs
root, debootstrap and qemu-user-static from apt.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import shlex
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
REQUIREMENTS = ROOT / "pi-requirements.txt"
MIRROR = "http://deb.debian.org/debian"
SUITE = "bookworm"

PLATFORMS = {
    "aarch64": ("manylinux2014_aarch64", "manylinux_2_17_aarch64", "manylinux_2_28_aarch64",
                "manylinux_2_34_aarch64", "manylinux_2_36_aarch64", "linux_aarch64"),
    "armv7l": ("manylinux2014_armv7l", "manylinux_2_17_armv7l", "manylinux_2_28_armv7l",
               "manylinux_2_31_armv7l", "manylinux_2_36_armv7l", "linux_armv7l"),
}
"""The wheel tags bookworm's glibc 2.36 accepts on each Pi (pip does not widen them itself)."""

COMPILERS = ("cc", "gcc", "c++", "g++", "clang", "cmake", "ninja",
             "aarch64-linux-gnu-gcc", "arm-linux-gnueabihf-gcc")
"""Names a build from source would call: each is a trap in the emulated system."""

CHECKOUT = "/home/maker/surakarta-board"
TEST_TOOLS = ("pytest>=7", "hypothesis>=6.100")


# ------------------------------------------------------------ pip resolver


def resolve(machine: str) -> list[dict[str, object]]:
    """pip's choice for ``pi-requirements.txt`` on ``machine``; exits when a wheel is missing."""
    with tempfile.TemporaryDirectory() as folder:
        report = Path(folder) / "report.json"
        command = [sys.executable, "-m", "pip", "install", "--dry-run", "--quiet",
                   "--ignore-installed", "--only-binary=:all:", "--python-version", "3.11",
                   "--implementation", "cp", "--abi", "cp311",
                   *(option for tag in PLATFORMS[machine] for option in ("--platform", tag)),
                   "--target", str(Path(folder) / "target"), "--report", str(report),
                   "-r", str(REQUIREMENTS)]
        finished = subprocess.run(command, capture_output=True, text=True)
        if finished.returncode != 0:
            errors = [line for line in finished.stderr.splitlines() if "ERROR" in line]
            sys.exit(f"FAIL: no wheels-only install for {machine}:\n" + "\n".join(errors))
        installs: list[dict[str, object]] = json.loads(report.read_text())["install"]
        return installs


def check_wheels() -> int:
    for machine in PLATFORMS:
        installs = resolve(machine)
        for install in installs:
            metadata, download = install["metadata"], install["download_info"]
            assert isinstance(metadata, dict) and isinstance(download, dict)
            print(f"{machine:<8} {metadata['name']:<16} {metadata['version']:<10} "
                  f"{str(download['url']).rsplit('/', 1)[-1]}")
        print(f"floor: wheels only for {machine} / CPython 3.11: ok ({len(installs)} packages)")
    return 0


# ----------------------------------------------------- emulated bookworm


def readme_pi_steps() -> list[str]:
    """The first shell block of the README's "On a Raspberry Pi" section, line by line."""
    # The committed README, as the emulated system gets the committed tree.
    text = subprocess.run(["git", "-C", str(ROOT), "show", "HEAD:README.md"],
                          capture_output=True, text=True, check=True).stdout
    section = text.split("\n## On a Raspberry Pi", 1)[1]
    block = re.search(r"```sh\n(.*?)```", section, re.S)
    if block is None:
        sys.exit("FAIL: the README's Pi section has no ```sh block")
    return [line for line in block.group(1).splitlines() if line.strip()]


def in_system(system: Path, script: str, log: Path, env: dict[str, str] | None = None) -> int:
    """Run ``script`` with bash inside the emulated system; output appended to ``log``."""
    environment = {"PATH": "/usr/local/bin:/usr/bin:/bin:/usr/sbin:/sbin", "HOME": "/root",
                   "LANG": "C.UTF-8", "DEBIAN_FRONTEND": "noninteractive", **(env or {})}
    with log.open("a") as out:
        out.write(f"\n$ {script}\n")
        out.flush()
        finished = subprocess.run(["chroot", str(system), "/bin/bash", "-c", script],
                                  stdout=out, stderr=subprocess.STDOUT, env=environment)
    return finished.returncode


def bootstrap(system: Path, arch: str, log: Path) -> None:
    if (system / "etc/debian_version").exists():
        return
    with log.open("a") as out:
        subprocess.run(["debootstrap", "--variant=minbase", f"--arch={arch}",
                        "--include=ca-certificates", SUITE, str(system), MIRROR],
                       stdout=out, stderr=subprocess.STDOUT, check=True)


def mount(system: Path) -> list[Path]:
    mounted = []
    for name in ("proc", "sys", "dev"):
        target = system / name
        subprocess.run(["mount", "--rbind" if name != "proc" else "--bind", f"/{name}",
                        str(target)], check=True)
        mounted.append(target)
    shutil.copy("/etc/resolv.conf", system / "etc/resolv.conf")
    return mounted


def trust_local_authorities(system: Path, log: Path) -> dict[str, str]:
    """The certificate authorities this machine added itself (a proxy that signs with its
    own, say), trusted in the emulated system too; the environment pip then needs."""
    added = sorted(Path("/usr/local/share/ca-certificates").glob("*.crt"))
    if not added:
        return {}
    target = system / "usr/local/share/ca-certificates"
    target.mkdir(parents=True, exist_ok=True)
    for certificate in added:
        shutil.copy(certificate, target / certificate.name)
    in_system(system, "update-ca-certificates", log)
    # pip in a venv reads its own bundle unless told to use the system's.
    return {"PIP_CERT": "/etc/ssl/certs/ca-certificates.crt"}


def set_traps(system: Path) -> Path:
    """A script in front of every compiler name: it records the call and fails."""
    record = system / "var/log/compiler-calls"
    record.write_text("")
    trap = "#!/bin/sh\necho \"$0 $*\" >> /var/log/compiler-calls\nexit 1\n"
    for name in COMPILERS:
        path = system / "usr/local/bin" / name
        path.write_text(trap)
        path.chmod(0o755)
    return record


def copy_tree(system: Path) -> None:
    """The committed tree (what a clone gives) at ``CHECKOUT``."""
    target = system / CHECKOUT.lstrip("/")
    if target.exists():
        shutil.rmtree(target)
    target.mkdir(parents=True)
    archive = subprocess.run(["git", "-C", str(ROOT), "archive", "HEAD"], capture_output=True,
                             check=True).stdout
    subprocess.run(["tar", "-x", "-C", str(target)], input=archive, check=True)


def adapt(step: str, system: Path, log: Path) -> tuple[str, list[str]]:
    """The README step as run here: root needs no sudo, the clone is already made, and
    apt packages that Debian lacks (Raspberry Pi OS's own) are left out and returned."""
    words = shlex.split(step, comments=True)
    if words[:2] == ["git", "clone"]:
        return f"cd {CHECKOUT}", []
    left_out = []
    if "apt" in step and "install" in step:
        for word in words:
            if word.startswith("python3-") and in_system(
                    system, f"apt-cache show {word} >/dev/null 2>&1", log) != 0:
                left_out.append(word)
    for name in left_out:
        step = re.sub(rf"\s{re.escape(name)}(?=\s|$)", "", step)
    return step.replace("sudo ", ""), left_out


def emulate(arch: str, system: Path, tests: str) -> int:
    log = Path(f"/tmp/pi-install-{arch}.log")
    started = time.monotonic()
    print(f"log: {log}", flush=True)
    bootstrap(system, arch, log)
    print(f"bootstrap: {time.monotonic() - started:.0f} s", flush=True)
    mounted = mount(system)
    try:
        record = set_traps(system)
        trust = trust_local_authorities(system, log)
        copy_tree(system)
        ok = True
        steps_begin = log.stat().st_size
        for step in readme_pi_steps():
            command, left_out = adapt(step, system, log)
            if left_out:
                print(f"left out (Raspberry Pi OS only): {' '.join(left_out)}", flush=True)
            begun = time.monotonic()
            status = in_system(system, f"cd {CHECKOUT} && {command}", log, trust)
            print(f"{'ok' if status == 0 else 'FAIL'} ({time.monotonic() - begun:.0f} s): "
                  f"{command}", flush=True)
            ok = ok and status == 0
        calls = record.read_text().strip()
        with log.open() as text:
            text.seek(steps_begin)
            # A maker reads "ERROR" as a failed install, even where pip only warns.
            errors = [line.strip() for line in text if line.startswith("ERROR")]
        print("floor: the README's steps succeed: " + ("ok" if ok else "FAIL"))
        print("floor: no ERROR line in their output: "
              + ("ok" if not errors else "FAIL\n" + "\n".join(errors)))
        ok = ok and not errors
        print("floor: no compiler called: " + ("ok" if not calls else f"FAIL\n{calls}"),
              flush=True)
        begun = time.monotonic()
        tools = " ".join(shlex.quote(tool) for tool in TEST_TOOLS)
        status = in_system(system, f"cd {CHECKOUT} && .venv/bin/pip install "
                           f"--only-binary=:all: {tools} && .venv/bin/python -m pytest "
                           f"-q -p no:cacheprovider {tests}", log,
                           {"SDL_VIDEODRIVER": "dummy", "SDL_AUDIODRIVER": "dummy", **trust})
        with log.open() as text:
            summary = [line for line in text if re.search(r"\d+ (passed|failed)", line)]
        print(f"floor: the fast tests pass ({time.monotonic() - begun:.0f} s): "
              + ("ok" if status == 0 else "FAIL") + (f" - {summary[-1].strip()}" if summary
                                                     else ""))
        print(f"total: {time.monotonic() - started:.0f} s")
        return 0 if ok and not calls and status == 0 else 1
    finally:
        for target in reversed(mounted):
            subprocess.run(["umount", "--recursive", "--lazy", str(target)], check=False)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--emulate", choices=("arm64", "armhf"),
                        help="run the README's steps in an emulated bookworm of this architecture")
    parser.add_argument("--root", type=Path, help="where the emulated system lives "
                        "(default: /var/tmp/pi-bookworm-ARCH; kept, so a rerun skips debootstrap)")
    parser.add_argument("--fresh", action="store_true",
                        help="start from a new debootstrap, not the kept system (as a new Pi)")
    parser.add_argument("--tests", default="tests",
                        help="what pytest runs there (default: the fast tier of tests/)")
    args = parser.parse_args()
    if args.emulate is None:
        return check_wheels()
    if os.geteuid() != 0:
        sys.exit("FAIL: --emulate needs root (debootstrap, chroot, mount)")
    system = args.root or Path(f"/var/tmp/pi-bookworm-{args.emulate}")
    if args.fresh and system.exists():
        if any(line.split()[1].startswith(str(system))
               for line in Path("/proc/mounts").read_text().splitlines()):
            sys.exit(f"FAIL: something is still mounted under {system} (a run under way?)")
        shutil.rmtree(system)
    return emulate(args.emulate, system, args.tests)


if __name__ == "__main__":
    sys.exit(main())
