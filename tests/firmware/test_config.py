"""Config validation: every kind of mistake is named by its key, one line each."""

from __future__ import annotations

from pathlib import Path

import pytest

from controller import Color, Variant
from firmware.cli import main
from firmware.config import ConfigError, check_config, load_config

EXAMPLES = Path(__file__).resolve().parents[2] / "firmware" / "examples"


def write(tmp_path: Path, text: str) -> Path:
    path = tmp_path / "board.toml"
    path.write_text(text)
    return path


def test_a_full_valid_config_loads(tmp_path: Path) -> None:
    (tmp_path / "cal.json").write_text("{}")
    path = write(
        tmp_path,
        """
        [camera]
        source = "usb"
        calibration = "cal.json"
        fps = 12.5
        [game]
        variant = "gonu"
        mode = "computer-black"
        level = 7
        no_capture_limit = 0
        [journal]
        path = "state/j.json"
        [hardware]
        driver = "shift-register"
        """,
    )
    assert check_config(path) == []
    config = load_config(path)
    assert config.camera.calibration == tmp_path / "cal.json"
    assert config.game.variant is Variant.GONU and config.game.computer is Color.BLACK
    assert config.game.endings.no_capture_limit is None
    assert config.journal == tmp_path / "state" / "j.json"
    assert config.hardware is not None


@pytest.mark.parametrize(
    ("text", "problem"),
    [
        ("[camera]\nsorce = 'usb'\n", "camera.sorce: unknown key"),
        ("[cammera]\n", "cammera: unknown key"),
        ("[camera]\nfps = 'fast'\n", "camera.fps: expected int or float, got str"),
        ("[camera]\nfps = 0\n", "camera.fps: must be more than 0"),
        ("[camera]\nsource = 'webcam'\n", "camera.source: unknown source 'webcam'"),
        ("[camera]\nsource = 'usb'\n", "camera.calibration: needed for source 'usb'"),
        ("[camera]\ncalibration = 'missing.json'\n", "camera.calibration: file not found"),
        ("[game]\nlevel = 12\n", "game.level: must be 1 to 10, got 12"),
        ("[game]\nlevel = true\n", "game.level: expected int, got bool"),
        ("[game]\nvariant = 'chess'\n", "game.variant: unknown variant: 'chess'"),
        ("[game]\nmode = 'solo'\n", "game.mode: unknown mode 'solo'"),
        ("[hardware]\ndriver = 'laser'\n", "hardware.driver: unknown driver 'laser'"),
        ("[hardware]\ndata_pin = 17\nclock_pin = 17\n", "used twice"),
        ("[hardware]\ndata_pin = 40\n", "hardware.data_pin"),
        ("camera = 3\n", "camera: expected a table"),
        ("[camera]\ndevice = -1\n", "camera.device: must be 0 or more"),
        ("[camera]\nsource = 'folder'\npath = 'none'\n", "camera.path: not found"),
        # Lamps laid out for a 6x6 board under a 7x7 game.
        ("[game]\nvariant = 'sepur'\n[hardware]\ndriver = 'shift-register'\n",
         "hardware.board_size: 6 does not match game.variant 'sepur'"),
        ("[camera\n", "invalid TOML"),
    ],
)
def test_each_mistake_is_named(tmp_path: Path, text: str, problem: str) -> None:
    problems = check_config(write(tmp_path, text))
    assert any(problem in line for line in problems), problems
    with pytest.raises(ConfigError):
        load_config(write(tmp_path, text))


def test_several_problems_are_all_listed(tmp_path: Path) -> None:
    path = write(tmp_path, "[camera]\nfps = -1\nwidth = 'x'\n[game]\nlevel = 0\n")
    assert len(check_config(path)) == 3


def test_check_command_exit_codes(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    good = write(tmp_path, "[game]\nlevel = 3\n")
    assert main(["run", "--config", str(good), "--check"]) == 0
    bad = tmp_path / "bad.toml"
    bad.write_text("[game]\nlevel = 0\nmode = 'x'\n")
    assert main(["run", "--config", str(bad), "--check"]) == 2
    lines = capsys.readouterr().err.splitlines()
    assert len(lines) == 2 and all(line.startswith(str(bad)) for line in lines)


def test_missing_config_file(tmp_path: Path) -> None:
    assert check_config(tmp_path / "none.toml") == [
        f"config file not found: {str(tmp_path / 'none.toml')!r}"
    ]


def test_examples_differ_only_by_their_calibration_file() -> None:
    for example in sorted(EXAMPLES.glob("*.toml")):
        problems = check_config(example)
        assert all(p.startswith("camera.calibration: file not found") for p in problems), problems


def test_a_match_section(tmp_path: Path) -> None:
    from controller.match import Counting, Scoring

    text = '[match]\nplayers = ["Ana", "Budi"]\ntarget = 20\ncounting = "captured"\n'
    path = write(tmp_path, text)
    match = load_config(path).match
    assert match is not None and (match.first, match.second) == ("Ana", "Budi")
    assert match.rules.scoring is Scoring.TARGET and match.rules.target == 20
    assert match.rules.counting is Counting.CAPTURED
    bad = write(tmp_path, '[match]\nplayers = ["A", "A"]\ngames = 2\ntarget = 3\n')
    problems = check_config(bad)
    assert "match.players: expected two different names" in problems
    assert "match: give games or target, not both" in problems


def test_a_7x7_board_with_its_hardware_is_valid(tmp_path: Path) -> None:
    path = write(tmp_path, "[game]\nvariant = 'sepur'\n[hardware]\nboard_size = 7\n")
    assert check_config(path) == []
