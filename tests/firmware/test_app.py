"""The board's main loop: a camera that fails and comes back, clean stops, resuming."""

from __future__ import annotations

import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import numpy as np
from gpiozero.pins.mock import MockFactory, MockPWMPin

from controller import Game, start_position
from firmware.app import TROUBLE_LAYER, BoardApp
from firmware.config import Config, load_config
from firmware.journal import Journal, SessionState
from vision.errors import CameraLost, CameraUnavailable
from vision.render import Scene, render


class FakeClock:
    def __init__(self) -> None:
        self.now = 0.0

    def __call__(self) -> float:
        return self.now


class FlakyCameras:
    """Opens cameras from a script: 'ok' gives a camera that fails after ``lives`` frames."""

    def __init__(self, script: list[str], board: Any, lives: int = 1000, later: Any = None) -> None:
        self.script = script
        self.board = board
        self.later = later if later is not None else board
        self.lives = lives
        self.opened = 0

    def __call__(self) -> Any:
        outcome = self.script[min(self.opened, len(self.script) - 1)]
        self.opened += 1
        if outcome == "fail":
            raise CameraUnavailable("no camera on /dev/video0")
        # The first camera calibrates (it must see the start); later ones see ``later``.
        board = self.board if self.opened == 1 else self.later
        return _Camera(board, self.lives if outcome == "ok-then-lost" else 10_000)


class _Camera:
    def __init__(self, board: Any, lives: int) -> None:
        self.frame: np.ndarray = render(board, Scene(noise=1.0))
        self.lives = lives

    def read(self) -> np.ndarray:
        self.lives -= 1
        if self.lives < 0:
            raise CameraLost("the camera stopped")
        return self.frame

    def close(self) -> None:
        pass


def _config(tmp_path: Path) -> Config:
    path = tmp_path / "board.toml"
    path.write_text('[camera]\nsource = "synthetic"\n[journal]\npath = "journal.json"\n')
    return load_config(path)


def test_camera_that_fails_and_comes_back(tmp_path: Path) -> None:
    clock = FakeClock()
    cameras = FlakyCameras(["ok", "ok-then-lost", "fail", "fail", "ok"], start_position(), lives=5)
    app = BoardApp(_config(tmp_path), MockFactory(pin_class=MockPWMPin), clock, cameras)
    try:
        for _ in range(30):
            app.step()
            clock.now += 0.1
            if TROUBLE_LAYER in app.hardware.scene.layer_names:
                break
        assert TROUBLE_LAYER in app.hardware.scene.layer_names, "the camera loss is shown"
        for _ in range(30):
            app.step()
            clock.now += 0.1
        assert cameras.opened == 5
        assert TROUBLE_LAYER not in app.hardware.scene.layer_names
        assert app.session.referee.settled, "the board is read again after the camera returns"
    finally:
        app.close()


def test_resumes_the_journaled_game(tmp_path: Path) -> None:
    game = Game()
    game.play("b2-c3")
    Journal(tmp_path / "journal.json").save(SessionState(game, None, 5))
    clock = FakeClock()
    cameras = FlakyCameras(["ok"], start_position(), later=game.position)
    app = BoardApp(_config(tmp_path), MockFactory(pin_class=MockPWMPin), clock, cameras)
    try:
        for _ in range(10):
            app.step()
            clock.now += 0.1
        referee = app.session.referee
        assert referee.settled and [m.name for m in referee.current.moves] == ["b2-c3"]
    finally:
        app.close()


def test_sigterm_stops_the_board_cleanly(tmp_path: Path) -> None:
    config = tmp_path / "board.toml"
    config.write_text('[camera]\nsource = "synthetic"\n[journal]\npath = "journal.json"\n')
    process = subprocess.Popen(
        [sys.executable, "-m", "firmware.cli", "run", "--config", str(config)],
        stderr=subprocess.PIPE,
        text=True,
    )
    assert process.stderr is not None
    deadline = time.monotonic() + 60
    for line in process.stderr:
        if "board ready" in line:
            break
        assert time.monotonic() < deadline
    process.send_signal(signal.SIGTERM)
    assert process.wait(timeout=30) == 0
    assert "stopping (signal 15)" in process.stderr.read()
