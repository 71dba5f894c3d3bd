"""Every file a command writes goes into its folder, made when missing; or one clear line."""

from __future__ import annotations

import json
from pathlib import Path

import cv2
import pytest

from controller import start_position
from firmware.cli import main
from vision.render import Scene, render


@pytest.mark.slow
def test_calibrate_makes_the_folder_of_its_output(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    cv2.imwrite(str(tmp_path / "start.png"), render(start_position(), Scene()))
    out = tmp_path / "config" / "surakarta" / "calibration.json"
    assert main(["calibrate", str(tmp_path / "start.png"), "--out", str(out)]) == 0
    assert json.loads(out.read_text())
    assert f"wrote {out}" in capsys.readouterr().out


def test_print_board_makes_the_folders_of_the_sheet_and_the_model(tmp_path: Path) -> None:
    sheet, model = tmp_path / "print" / "board.svg", tmp_path / "models" / "board.json"
    assert main(["print-board", "--out", str(sheet), "--model", str(model)]) == 0
    assert "<svg" in sheet.read_text()
    assert json.loads(model.read_text())


def test_lamp_map_makes_the_folder_of_its_drawing(tmp_path: Path) -> None:
    drawing = tmp_path / "plans" / "lamps.svg"
    assert main(["lamp-map", "--output", str(drawing), "--pitch", "30"]) == 0
    assert "<svg" in drawing.read_text()


@pytest.mark.slow
def test_simulate_makes_the_folder_of_its_events(tmp_path: Path) -> None:
    scenario = tmp_path / "game.txt"
    scenario.write_text("move b2 c3\n")
    events = tmp_path / "logs" / "events.jsonl"
    assert main(["simulate", str(scenario), "--events", str(events), "--quiet",
                 "--no-hands"]) == 0
    types = [json.loads(line)["type"] for line in events.read_text().splitlines()]
    assert "accepted" in types


def test_read_makes_the_folder_of_its_debug_images(tmp_path: Path) -> None:
    from firmware.commands.read import check_debug_path

    check_debug_path(tmp_path / "debug" / "out.png")
    assert (tmp_path / "debug").is_dir()


def test_simulator_makes_the_folder_of_its_screenshot_before_the_window(tmp_path: Path) -> None:
    from firmware.cli import build_parser
    from firmware.commands.simulator import window_options

    screenshot = tmp_path / "shots" / "board.png"
    args = build_parser().parse_args(["simulator", "--screenshot", str(screenshot)])
    assert window_options(args).screenshot == screenshot
    assert screenshot.parent.is_dir()


def test_a_folder_that_cannot_be_made_is_one_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    (tmp_path / "taken").write_text("a file, not a folder")
    out = tmp_path / "taken" / "board.svg"
    assert main(["print-board", "--out", str(out)]) == 2
    err = capsys.readouterr().err
    assert err == f"surakarta print-board: cannot create the folder for {str(out)!r}: File exists\n"


def test_a_file_that_cannot_be_written_is_one_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    folder = tmp_path / "board.svg"
    folder.mkdir()  # a folder where the file should go
    assert main(["lamp-map", "--output", str(folder), "--pitch", "30"]) == 2
    err = capsys.readouterr().err
    assert err == f"surakarta lamp-map: cannot write {str(folder)!r}: Is a directory\n"
