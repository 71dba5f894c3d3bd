"""``surakarta setup`` on a PC: photos for the camera, mock pins, a fake systemctl."""

from __future__ import annotations

import json
import os
import re
import shlex
import shutil
import subprocess
from pathlib import Path

import cv2
import numpy as np
import pytest

from controller.position import parse_position, start_position
from controller.reading import BoardReading
from firmware.cli import main
from firmware.config import check_config, load_config
from tests.conftest import systemctl_failing_as_over_ssh
from vision.render import Scene, render


@pytest.fixture(scope="module")
def photos(tmp_path_factory: pytest.TempPathFactory) -> Path:
    folder = tmp_path_factory.mktemp("photos")
    start = render(start_position(6), Scene())
    cv2.imwrite(str(folder / "start.png"), start)
    cv2.imwrite(str(folder / "blurred.png"), render(start_position(6), Scene(blur=3.0)))
    cv2.imwrite(str(folder / "mirrored.png"), cv2.flip(start, 1))
    cv2.imwrite(str(folder / "empty.png"), render(BoardReading(0, 0, 6), Scene()))
    # The camera too low: the top of the sheet is out of the picture.
    cv2.imwrite(str(folder / "cut.png"), start[start.shape[0] // 3:])
    return folder


def setup(tmp_path: Path, camera: Path, *extra: str) -> int:
    return main(["setup", "--camera", str(camera), "--folder", str(tmp_path / "config"),
                 "--state", str(tmp_path / "state"), "--mock-pins", *extra])


def test_a_first_build_ends_with_a_config_that_needs_no_editing(
        tmp_path: Path, photos: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert setup(tmp_path, photos / "start.png", "--no-service") == 0
    out = capsys.readouterr().out
    for step in ("1/6 cameras: ok", "2/6 the sheet: ok", "3/6 calibration: ok",
                 "4/6 config: ok", "5/6 self-test: ok"):
        assert step in out
    config_file = tmp_path / "config" / "board.toml"
    assert check_config(config_file) == []
    config = load_config(config_file)
    assert config.camera.calibration == tmp_path / "config" / "calibration.json"
    assert config.camera.calibration.exists()
    assert "/home/pi" not in config_file.read_text()
    assert str(tmp_path / "state" / "journal.json") in config_file.read_text()
    picture = cv2.imread(str(tmp_path / "config" / "setup" / "camera-1.jpg"))
    assert picture is not None and picture.shape == (480, 640, 3)
    assert f"the markers marked: {tmp_path / 'config' / 'setup' / 'camera-1-markers.jpg'}" in out


@pytest.mark.slow
def test_a_board_without_markers_is_set_up_by_its_lines(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    photo = tmp_path / "drawn.png"
    cv2.imwrite(str(photo), render(start_position(6), Scene(markers=False)))
    assert setup(tmp_path, photo, "--no-service") == 0
    out = capsys.readouterr().out
    assert "found by its lines and loops" in out and "3/6 calibration: ok" in out
    calibration = json.loads((tmp_path / "config" / "calibration.json").read_text())
    assert calibration["corners"] is not None


def green(picture: np.ndarray) -> np.ndarray:
    """Where the marked picture outlines a marker found."""
    blue, grn, red = (picture[..., channel].astype(int) for channel in range(3))
    return (grn > 150) & (grn - red > 80) & (grn - blue > 80)


def test_the_marked_picture_shows_which_markers_the_camera_sees(
        tmp_path: Path, photos: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert setup(tmp_path, photos / "cut.png", "--no-service") == 1
    marked_path = tmp_path / "config" / "setup" / "camera-1-markers.jpg"
    assert str(marked_path) in capsys.readouterr().out.split("to fix: ")[1]
    marked = cv2.imread(str(marked_path))
    raw = cv2.imread(str(photos / "cut.png"))
    assert marked is not None and marked.shape == raw.shape
    # The two bottom markers in view are outlined; nothing is in the top half of the picture.
    outlined = green(marked)
    half = marked.shape[0] // 2
    left, right = marked.shape[1] // 2, marked.shape[1] // 2
    assert outlined[half:, :left].sum() > 50 and outlined[half:, right:].sum() > 50
    assert not outlined[40:half].any() and not green(raw).any()
    # What is missing is written on it, on a white band across the top.
    assert (marked[:12, :200] > 200).all(axis=2).mean() > 0.8


@pytest.mark.parametrize(("photo", "step", "fix"), [
    ("blurred.png", "2/6 the sheet: FAILED", "the picture is blurred"),
    ("mirrored.png", "2/6 the sheet: FAILED", "the camera mirrors its picture"),
    ("cut.png", "2/6 the sheet: FAILED", "the markers near the top right corner, the top left "
                                         "corner are not in view"),
    ("empty.png", "3/6 calibration: FAILED", "set up the start position"),
])
def test_a_step_that_fails_says_what_to_fix(
        tmp_path: Path, photos: Path, capsys: pytest.CaptureFixture[str], photo: str,
        step: str, fix: str) -> None:
    assert setup(tmp_path, photos / photo, "--no-service") == 1
    out = capsys.readouterr().out
    assert step in out
    (advice,) = [line for line in out.splitlines() if line.startswith("  to fix: ")]
    assert fix in advice
    assert "then run surakarta setup again" in out
    assert not (tmp_path / "config" / "board.toml").exists()


@pytest.mark.slow
def test_a_service_that_cannot_start_over_ssh_is_a_fix_not_a_crash(
        tmp_path: Path, photos: Path, capsys: pytest.CaptureFixture[str],
        monkeypatch: pytest.MonkeyPatch) -> None:
    systemctl_failing_as_over_ssh(tmp_path, monkeypatch)
    units = tmp_path / "units"
    assert setup(tmp_path, photos / "start.png", "--unit-dir", str(units)) == 1
    out = capsys.readouterr().out
    assert "6/6 service: FAILED: systemctl --user daemon-reload failed" in out
    assert "loginctl enable-linger" in out
    assert (units / "surakarta.service").exists()


def test_no_camera_at_all_is_said_with_where_to_look(
        tmp_path: Path, capsys: pytest.CaptureFixture[str],
        monkeypatch: pytest.MonkeyPatch) -> None:
    from firmware.commands import setup as command

    monkeypatch.setattr(command, "candidates", lambda: [])
    assert main(["setup", "--folder", str(tmp_path), "--mock-pins"]) == 1
    out = capsys.readouterr().out
    assert "1/6 cameras: FAILED" in out and "rpicam-hello --list-cameras" in out


@pytest.mark.slow
def test_a_camera_that_gives_no_picture_is_skipped(
        tmp_path: Path, photos: Path, capsys: pytest.CaptureFixture[str]) -> None:
    missing = tmp_path / "no-such-camera.mp4"
    assert main(["setup", "--camera", str(missing), "--camera", str(photos / "start.png"),
                 "--folder", str(tmp_path / "config"), "--state", str(tmp_path / "state"),
                 "--mock-pins", "--no-service"]) == 0
    out = capsys.readouterr().out
    assert f"camera {missing}: no picture" in out
    assert "using camera " + str(photos / "start.png") in out


@pytest.mark.slow
def test_a_folder_of_photos_stands_for_the_camera(
        tmp_path: Path, photos: Path, capsys: pytest.CaptureFixture[str]) -> None:
    folder = tmp_path / "photos"
    folder.mkdir()
    shutil.copy(photos / "start.png", folder / "0001.png")
    assert setup(tmp_path, folder, "--no-service") == 0
    config = load_config(tmp_path / "config" / "board.toml")
    assert config.camera.source == "folder"
    assert config.camera.path == folder.resolve()


def systemctl_recording(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """Put first on PATH a systemctl that succeeds and writes down each call."""
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    calls = tmp_path / "systemctl-calls"
    fake = bin_dir / "systemctl"
    fake.write_text(f'#!/bin/sh\necho "$*" >> {shlex.quote(str(calls))}\n')
    fake.chmod(0o755)
    monkeypatch.setenv("PATH", f"{bin_dir}:{os.environ['PATH']}")
    return calls


@pytest.mark.slow
def test_from_a_fresh_install_to_a_board_that_plays(
        tmp_path: Path, capsys: pytest.CaptureFixture[str],
        monkeypatch: pytest.MonkeyPatch) -> None:
    # The camera: the start position, then red's first move (a folder of photos, in order).
    camera = tmp_path / "camera"
    camera.mkdir()
    after = parse_position("bbbbbb/bbbbbb/6/r5/1rrrrr/rrrrrr b")
    for number in range(20):
        frame = render(start_position(6) if number < 8 else after, Scene())
        cv2.imwrite(str(camera / f"{number:04}.png"), frame)
    calls = systemctl_recording(tmp_path, monkeypatch)
    units = tmp_path / "units"
    assert setup(tmp_path, camera, "--unit-dir", str(units)) == 0
    assert "6/6 service: ok" in capsys.readouterr().out
    assert "--user enable --now surakarta.service" in calls.read_text()
    config = tmp_path / "config" / "board.toml"
    assert f"surakarta run --config {config} --check" in config.read_text()
    # What systemd starts at boot, as the unit says, on mock pins for the wired ones.
    (start_line,) = re.findall(r"^ExecStart=(.*)$", (units / "surakarta.service").read_text(),
                               flags=re.M)
    environment = {**os.environ, "GPIOZERO_PIN_FACTORY": "mock",
                   "GPIOZERO_MOCK_PIN_CLASS": "mockpwmpin"}
    board = subprocess.run([*shlex.split(start_line), "--exit-after", "4"], env=environment,
                           capture_output=True, text=True, timeout=120, cwd=tmp_path)
    assert board.returncode == 0, board.stderr
    assert "board ready" in board.stderr
    journal = json.loads((tmp_path / "state" / "journal.json").read_text())
    assert journal["moves"][:1] == ["a2-a3"]


def test_setup_reads_the_tops_at_the_height_the_maker_gives(
        tmp_path: Path, photos: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert setup(tmp_path, photos / "start.png", "--no-service", "--piece-height", "6") == 0
    assert "pieces' tops 6 mm up" in capsys.readouterr().out
    calibration = json.loads((tmp_path / "config" / "calibration.json").read_text())
    assert calibration["piece_height"] == 6


def test_setup_refuses_an_impossible_piece_height_before_looking_for_cameras(
        tmp_path: Path, photos: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert setup(tmp_path, photos / "start.png", "--piece-height", "-3") == 2
    assert "invalid --piece-height" in capsys.readouterr().err
    assert not (tmp_path / "config").exists()
