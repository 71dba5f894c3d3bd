"""Config validation: every kind of mistake is named by its key, one line each."""

from __future__ import annotations

from pathlib import Path

import pytest

from controller import Color, Variant
from firmware.cli import main
from firmware.config import ConfigError, check_config, load_config
from tests.conftest import real_calibration_text

EXAMPLES = Path(__file__).resolve().parents[2] / "firmware" / "examples"


def write(tmp_path: Path, text: str) -> Path:
    path = tmp_path / "board.toml"
    path.write_text(text)
    return path


@pytest.fixture
def calibration_text() -> str:
    return real_calibration_text()


@pytest.mark.slow
def test_a_full_valid_config_loads(tmp_path: Path, calibration_text: str) -> None:
    (tmp_path / "cal.json").write_text(calibration_text)
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
        ("[camera]\nfps = 'fast'\n", "camera.fps: expected a number more than 0"),
        ("[camera]\nfps = 0\n", "camera.fps: expected a number more than 0 and at most 120, got 0"),
        ("[camera]\nsource = 'webcam'\n", "camera.source: unknown source 'webcam'"),
        ("[camera]\nsource = 'usb'\n", "camera.calibration: needed for source 'usb'"),
        ("[camera]\ncalibration = 'missing.json'\n", "camera.calibration: file not found"),
        ("[game]\nlevel = 12\n", "game.level: expected an integer from 1 to 10, got 12"),
        ("[game]\nlevel = true\n", "game.level: expected an integer from 1 to 10, got True"),
        ("[game]\nvariant = 'chess'\n", "game.variant: unknown variant: 'chess'"),
        ("[game]\nmode = 'solo'\n", "game.mode: unknown mode 'solo'"),
        ("[hardware]\ndriver = 'laser'\n", "hardware.driver: unknown driver 'laser'"),
        ("[hardware]\ndata_pin = 17\nclock_pin = 17\n", "used twice"),
        ("[hardware]\ndata_pin = 40\n", "hardware.data_pin"),
        ("camera = 3\n", "camera: expected a table"),
        ("[camera]\ndevice = -1\n", "camera.device: expected an integer from 0 to 255"),
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


@pytest.mark.parametrize(
    ("text", "problem"),
    [
        # Values that pass a plain "more than 0" and then hang or crash the board.
        ("[camera]\nfps = inf\n", "camera.fps: expected a number more than 0 and at most 120, "
         "got inf (not a finite number)"),
        ("[camera]\nfps = nan\n", "camera.fps: expected a number"),
        ("[vision]\nhold_seconds = inf\n", "vision.hold_seconds: expected a number"),
        ("[engine]\nseconds = inf\n", "engine.seconds: expected a number more than 0"),
        ("[engine]\nseconds = 1e9\n", "engine.seconds: expected a number more than 0"),
        ("[camera]\ndevice = 99999999999999999999\n", "camera.device: expected an integer"),
        ("[camera]\nwidth = 100000\nheight = 100000\n", "camera.width: expected an integer"),
        ("[camera]\nwidth = 1\n", "camera.width: expected an integer from 64 to 8192, got 1"),
        ("[game]\nno_capture_limit = 10000000000\n", "game.no_capture_limit: expected"),
        ("[match]\ngames = 100000000000\n", "match.games: expected an integer from 1 to 1000"),
        ("[hardware]\nchips = 1000000000\n", "hardware.chips: invalid number of chips"),
        ("[hardware]\nrefresh_hz = inf\n", "hardware.refresh_hz: expected a number, got inf"),
        ("[hardware]\nbuttons.bounce_time = nan\n", "hardware.buttons.bounce_time: expected"),
        ("[journal]\npath = ''\n", "journal.path: expected a file name, got ''"),
        ("[journal]\npath = '~nosuchuser/x'\n", "journal.path: cannot expand the home folder"),
        ("[journal]\nrecords = '~nosuchuser/x'\n", "journal.records: cannot expand the home"),
        ("[camera]\ncalibration = '~nosuchuser/c.json'\n", "camera.calibration: cannot expand"),
        ("[camera]\nsource = 'folder'\npath = '~nosuchuser/f'\n", "camera.path: cannot expand"),
        ("a = " + "[" * 500 + "]" * 500 + "\n", "nested too deeply"),
        ("a = " + "9" * 5000 + "\n", "invalid TOML"),
        ("[hardware]\ndata_pin = " + "9" * 4000 + "\n", "hardware.data_pin: pin ...9999"),
    ],
)
@pytest.mark.slow
def test_numbers_and_names_that_would_fail_later_are_refused(
    tmp_path: Path, text: str, problem: str, capsys: pytest.CaptureFixture[str]
) -> None:
    path = write(tmp_path, text)
    problems = check_config(path)
    assert any(problem in line for line in problems), problems
    assert all(len(line) < 300 for line in problems), "one short line each"
    with pytest.raises(ConfigError):
        load_config(path)
    # --check refuses what run would refuse, in one line per problem.
    assert main(["run", "--config", str(path), "--check"]) == 2
    assert "Traceback" not in capsys.readouterr().err


def test_a_config_that_cannot_be_read_is_one_line(tmp_path: Path) -> None:
    folder = tmp_path / "board.toml"
    folder.mkdir()
    assert check_config(folder)[0].startswith(f"cannot read config file {str(folder)!r}")
    binary = tmp_path / "bad.toml"
    binary.write_bytes(b"a = '\xff'\n")
    assert check_config(binary) == [f"invalid TOML in {str(binary)!r}: not UTF-8 text"]


@pytest.mark.parametrize(
    "text", ["{}", "[" * 100_000 + "]" * 100_000, '{"format": "surakarta-calibration"', ""]
)
def test_check_refuses_a_calibration_that_run_cannot_load(tmp_path: Path, text: str) -> None:
    (tmp_path / "cal.json").write_text(text)
    path = write(tmp_path, "[camera]\nsource = 'usb'\ncalibration = 'cal.json'\n")
    problems = check_config(path)
    assert len(problems) == 1 and problems[0].startswith("camera.calibration: "), problems
