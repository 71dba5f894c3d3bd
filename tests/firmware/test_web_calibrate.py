"""Calibrating the camera from the companion page, on the board's real loop."""

from __future__ import annotations

import http.client
import json
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
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

Answer = tuple[int, dict[str, object]]
"""An HTTP status and the JSON it came with."""


def request(port: int, method: str, path: str, headers: dict[str, str] | None = None,
            body: str = "") -> Answer:
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
    try:
        connection.request(method, path, body=body if method == "POST" else None,
                           headers=headers or {})
        response = connection.getresponse()
        return response.status, json.loads(response.read())
    finally:
        connection.close()


@contextmanager
def page_of_a_board(tmp_path: Path, piece_height: float | None = None,
                    ) -> Iterator[tuple[BoardApp, Callable[[object], Answer], int]]:
    """A board on a rendered camera, calibrated (``piece_height`` given or judged) into
    ``calibration.json``, with its page ready: the app, the page's calibrate action (its
    value: a piece height or None) and the page's port."""
    calibration = calibrate(VisionConfig(), render(start_position(6), Scene(640, 480)),
                            piece_height=piece_height)
    save_calibration(calibration, tmp_path / "calibration.json")
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

        def calibrate_action(value: object) -> Answer:
            return request(port, "POST", "/api/action/calibrate", {"X-Board-Token": token},
                           "" if value is None else json.dumps({"value": value}))

        yield app, calibrate_action, port
    finally:
        app.stop.set()
        runner.join(20)


def test_a_calibration_from_the_page_is_used_and_kept(tmp_path: Path) -> None:
    calibration_file = tmp_path / "calibration.json"
    with page_of_a_board(tmp_path) as (app, calibrate_action, port):
        old_reader = app.pipeline.reader
        status, answer = calibrate_action(None)
        assert status == 200, answer
        saved = load_calibration(calibration_file)
        assert answer["message"] == (f"calibrated and saved to {calibration_file} (pieces' "
                                     f"tops read {saved.piece_height:g} mm up, judged from "
                                     "the image)")
        assert app.pipeline.reader is not old_reader
        assert (tmp_path / "calibration.json.previous").is_file()
        assert saved.size == 6 and not saved.piece_height_given
        time.sleep(2.5)  # the health figures are refreshed every 2 s
        status, health = request(port, "GET", "/api/health")
        assert health["read_rate"] == 1.0 and health["camera_fps"]


def test_the_page_keeps_the_makers_piece_height_or_takes_its_own(tmp_path: Path) -> None:
    # Flat rendered pieces are judged 0 mm tall: a height kept or sent is plainly not judged.
    calibration_file = tmp_path / "calibration.json"
    with page_of_a_board(tmp_path, piece_height=9) as (app, calibrate_action, _):
        status, answer = calibrate_action(None)
        assert status == 200, answer
        assert answer["message"] == (f"calibrated and saved to {calibration_file} (pieces' "
                                     "tops read 9 mm up, as given)")
        kept = load_calibration(calibration_file)
        assert kept.piece_height == 9 and kept.piece_height_given
        assert app.pipeline.calibration.piece_height == 9

        # A height typed on the page wins over the one kept.
        status, answer = calibrate_action("7.5")
        assert status == 200, answer
        assert str(answer["message"]).endswith("(pieces' tops read 7.5 mm up, as given)")
        sent = load_calibration(calibration_file)
        assert sent.piece_height == 7.5 and sent.piece_height_given
        assert app.pipeline.calibration.piece_height == 7.5

        # An impossible one is refused before the board is asked: nothing changes.
        in_use, text = app.pipeline.calibration, calibration_file.read_text()
        status, answer = calibrate_action(60)
        assert status == 400
        assert answer["error"] == "invalid piece height: '60' (expected 0 to 50 mm)"
        assert app.pipeline.calibration is in_use and calibration_file.read_text() == text
