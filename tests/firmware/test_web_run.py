"""``surakarta run`` with a [web] section, and ``surakarta simulator --web``: the page is
served beside the board, off-screen, on the loopback address."""

from __future__ import annotations

import json
import os
import signal
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from pathlib import Path

import pytest

pytestmark = pytest.mark.slow

WAIT_SECONDS = 30.0


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def get(url: str, headers: dict[str, str] | None = None, data: bytes | None = None,
        ) -> tuple[int, bytes]:
    request = urllib.request.Request(url, data=data, headers=headers or {},
                                     method="POST" if data is not None else "GET")
    try:
        with urllib.request.urlopen(request, timeout=5) as response:
            return response.status, response.read()
    except urllib.error.HTTPError as error:
        return error.code, error.read()


def wait_for_state(base: str, process: subprocess.Popen[bytes]) -> dict[str, object]:
    end = time.monotonic() + WAIT_SECONDS
    while time.monotonic() < end:
        if process.poll() is not None:
            raise AssertionError(f"the board stopped: {process.stderr.read()!r}")  # type: ignore[union-attr]
        try:
            status, body = get(base + "api/state")
        except OSError:
            status = 0
        if status == 200:
            state = json.loads(body)
            if state["status"]["ready"]:
                return state  # type: ignore[no-any-return]
        time.sleep(0.2)
    raise AssertionError("the page never showed the board ready")


def start(arguments: list[str], env_home: Path) -> subprocess.Popen[bytes]:
    env = {**os.environ, "HOME": str(env_home), "SDL_VIDEODRIVER": "dummy",
           "SDL_AUDIODRIVER": "dummy"}
    return subprocess.Popen([sys.executable, "-m", "firmware.cli", *arguments], env=env,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            start_new_session=True)


def stop(process: subprocess.Popen[bytes]) -> None:
    if process.poll() is None:
        os.killpg(process.pid, signal.SIGTERM)
    try:
        process.wait(WAIT_SECONDS)
    except subprocess.TimeoutExpired:
        os.killpg(process.pid, signal.SIGKILL)
        process.wait(5)


def test_run_with_a_web_section_serves_the_board_and_takes_actions(tmp_path: Path) -> None:
    port = free_port()
    config = tmp_path / "board.toml"
    config.write_text(f'[journal]\npath = "{tmp_path}/state/journal.json"\n'
                      f'[web]\naddress = "127.0.0.1"\nport = {port}\n')
    process = start(["run", "--config", str(config), "--exit-after", "60"], tmp_path)
    base = f"http://127.0.0.1:{port}/"
    try:
        state = wait_for_state(base, process)
        assert state["position"] == "bbbbbb/bbbbbb/6/6/rrrrrr/rrrrrr"
        assert listening_sockets(process.pid) == 1
        token = (tmp_path / "state" / "web-token").read_text().strip()
        assert (tmp_path / "state" / "web-token").stat().st_mode & 0o077 == 0
        assert get(base + "api/action/hint", data=b"")[0] == 401
        status, body = get(base + "api/action/mode", {"X-Board-Token": token},
                           b'{"value": "computer-black"}')
        assert status == 200, body
        assert json.loads((tmp_path / "state" / "journal.json").read_text())["computer"] == "black"
        status, picture = get(base + "api/camera.jpg")
        assert status == 200 and picture[:2] == b"\xff\xd8"  # a JPEG
        health = json.loads(get(base + "api/health")[1])
        assert health["camera_fps"] and health["read_rate"] > 0.5
    finally:
        stop(process)
    assert process.returncode == 0
    assert token.encode() not in process.stderr.read()  # type: ignore[union-attr]


def listening_sockets(pid: int) -> int:
    """How many TCP sockets process ``pid`` listens on (Linux /proc)."""
    inodes = set()
    for fd in Path(f"/proc/{pid}/fd").iterdir():
        try:
            target = os.readlink(fd)
        except OSError:
            continue
        if target.startswith("socket:["):
            inodes.add(target[8:-1])
    count = 0
    for table in ("/proc/net/tcp", "/proc/net/tcp6"):
        for line in Path(table).read_text().splitlines()[1:]:
            fields = line.split()
            if fields[3] == "0A" and fields[9] in inodes:  # 0A: LISTEN
                count += 1
    return count


def test_run_without_a_web_section_listens_nowhere(tmp_path: Path) -> None:
    config = tmp_path / "board.toml"
    config.write_text(f'[journal]\npath = "{tmp_path}/state/journal.json"\n')
    process = start(["run", "--config", str(config), "--exit-after", "60", "--verbose"],
                    tmp_path)
    try:
        assert process.stderr is not None
        # The board is running once it has asked for the start position to be set up.
        while b"set up the board" not in (line := process.stderr.readline()):
            assert line, "the board stopped before it ran"
        assert process.poll() is None
        assert listening_sockets(process.pid) == 0
    finally:
        stop(process)
    assert process.returncode == 0
    assert not (tmp_path / "state" / "web-token").exists()


def test_simulator_serves_the_page_off_screen_and_takes_a_hint(tmp_path: Path) -> None:
    port = free_port()
    process = start(["simulator", "--web", str(port), "--exit-after", "40"], tmp_path)
    base = f"http://127.0.0.1:{port}/"
    try:
        wait_for_state(base, process)
        token = (tmp_path / ".local/state/surakarta/web-token").read_text().strip()
        status, body = get(base + "api/action/hint", {"X-Board-Token": token}, b"")
        assert status == 200, body
        end = time.monotonic() + WAIT_SECONDS
        while time.monotonic() < end:
            state = json.loads(get(base + "api/state")[1])
            if state["lit_move"] is not None:
                break
            time.sleep(0.2)
        assert state["lit_move"]["kind"] == "hint"
        assert any(layer["layer"] == "hint" for layer in state["lamps"])
        status, picture = get(base + "api/camera.jpg")
        assert status == 200 and picture[:2] == b"\xff\xd8"  # the window's camera view
    finally:
        stop(process)
    assert process.returncode == 0


def test_simulator_refuses_a_port_out_of_range(tmp_path: Path) -> None:
    process = start(["simulator", "--web", "70000", "--exit-after", "1"], tmp_path)
    _, error = process.communicate(timeout=WAIT_SECONDS)
    assert process.returncode == 2
    assert error.decode().strip() == (
        "surakarta simulator: invalid web port: 70000 (expected 1 to 65535)")


def test_a_port_already_taken_is_one_line_and_leaves_nothing_running(tmp_path: Path) -> None:
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        config = tmp_path / "board.toml"
        config.write_text(f'[journal]\npath = "{tmp_path}/state/journal.json"\n'
                          f'[web]\naddress = "127.0.0.1"\nport = {port}\n')
        process = start(["run", "--config", str(config), "--exit-after", "20"], tmp_path)
        _, error = process.communicate(timeout=WAIT_SECONDS)
    assert process.returncode == 2
    assert error.decode().strip().splitlines()[-1] == (
        f"surakarta run: cannot serve the page on 127.0.0.1:{port}: Address already in use")
