"""Calibrating the camera from the companion page, on the board's real loop."""

from __future__ import annotations

import http.client
import json
import threading
import time
from pathlib import Path

import pytest
from gpiozero.pins.mock import MockFactory, MockPWMPin

from controller import start_position
from firmware.app import BoardApp
from firmware.config import load_config
from firmware.web.service import WebService
from firmware.web.token import load_token, token_path
from vision.calibrate import calibrate, load_calibration, save_calibration
from vision.config import VisionConfig
from vision.render import Scene, render

pytestmark = pytest.mark.slow


def request(port: int, method: str, path: str, headers: dict[str, str] | None = None,
            ) -> tuple[int, dict[str, object]]:
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
    try:
        connection.request(method, path, body="" if method == "POST" else None,
                           headers=headers or {})
        response = connection.getresponse()
        return response.status, json.loads(response.read())
    finally:
        connection.close()


def test_a_calibration_from_the_page_is_used_and_kept(tmp_path: Path) -> None:
    calibration_file = tmp_path / "calibration.json"
    save_calibration(calibrate(VisionConfig(), render(start_position(6), Scene(640, 480))),
                     calibration_file)
    config_file = tmp_path / "board.toml"
    config_file.write_text('[camera]\nsource = "synthetic"\ncalibration = "calibration.json"\n'
                           '[journal]\npath = "state/journal.json"\n')
    config = load_config(config_file)
    token = load_token(token_path(config.journal))
    web = WebService("127.0.0.1", 0, token_path(config.journal),
                     calibration_file=config.camera.calibration)
    app = BoardApp(config, MockFactory(pin_class=MockPWMPin), services=(web,), on_step=web.pump)
    runner = threading.Thread(target=app.run, daemon=True)
    runner.start()
    try:
        assert web.server is not None
        port = web.server.port
        end = time.monotonic() + 20
        while time.monotonic() < end:
            status, state = request(port, "GET", "/api/state")
            if status == 200 and state["status"]["ready"]:  # type: ignore[index]
                break
            time.sleep(0.1)
        old_reader = app.pipeline.reader
        status, answer = request(port, "POST", "/api/action/calibrate", {"X-Board-Token": token})
        assert status == 200, answer
        assert answer["message"] == f"calibrated and saved to {calibration_file}"
        assert app.pipeline.reader is not old_reader
        assert (tmp_path / "calibration.json.previous").is_file()
        assert load_calibration(calibration_file).size == 6
        time.sleep(2.5)  # the health figures are refreshed every 2 s
        status, health = request(port, "GET", "/api/health")
        assert health["read_rate"] == 1.0 and health["camera_fps"]
    finally:
        app.stop.set()
        runner.join(20)
