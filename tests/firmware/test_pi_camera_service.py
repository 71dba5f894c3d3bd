"""The Pi camera as the board's service sees it: checked, and never retried when broken."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
from packaging.version import Version

from firmware.cli import main
from firmware.commands.run import EXIT_CAMERA_STACK, EXIT_NO_CAMERA
from tests.conftest import real_calibration_text
from tests.vision.test_sources import install_picamera2, install_picamera2_stand_in

THIS_NUMPY = Version(np.__version__)
ANOTHER_NUMPY = Version(f"{THIS_NUMPY.major + 1}.0")


def pi_config(folder: Path) -> Path:
    (folder / "cal.json").write_text(real_calibration_text())
    config = folder / "board.toml"
    config.write_text('[camera]\nsource = "picamera"\ncalibration = "cal.json"\n'
                      '[journal]\npath = "journal.json"\n')
    return config


def test_check_reports_a_usable_pi_camera(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    install_picamera2_stand_in(tmp_path, monkeypatch, THIS_NUMPY)
    assert main(["run", "--config", str(pi_config(tmp_path)), "--check"]) == 0
    assert "camera: Pi camera imx708 (picamera2 with numpy" in capsys.readouterr().out


def test_check_reports_a_pi_camera_stack_built_for_another_numpy(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    install_picamera2_stand_in(tmp_path, monkeypatch, ANOTHER_NUMPY)
    assert main(["run", "--config", str(pi_config(tmp_path)), "--check"]) == EXIT_CAMERA_STACK
    assert "pip uninstall -y numpy opencv-python-headless" in capsys.readouterr().err


def test_check_reports_a_pi_with_no_camera_found(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    install_picamera2(
        tmp_path, monkeypatch,
        "class Picamera2:\n    @staticmethod\n    def global_camera_info():\n        return []\n",
    )
    assert main(["run", "--config", str(pi_config(tmp_path)), "--check"]) == EXIT_NO_CAMERA
    assert "no Pi camera found" in capsys.readouterr().err


def test_a_broken_camera_stack_stops_the_board_with_one_line(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    install_picamera2_stand_in(tmp_path, monkeypatch, ANOTHER_NUMPY)
    assert main(["run", "--config", str(pi_config(tmp_path))]) == EXIT_CAMERA_STACK
    err = capsys.readouterr().err
    assert err.startswith("surakarta run: the Pi camera's picamera2 is built for the Pi's own ")
    assert err.count("\n") == 1


def test_the_service_is_not_restarted_for_a_broken_camera_stack(tmp_path: Path) -> None:
    config = tmp_path / "board.toml"
    config.write_text("[game]\nlevel = 4\n")
    units = tmp_path / "units"
    assert main(["install-service", "--config", str(config), "--unit-dir", str(units),
                 "--no-start"]) == 0
    service = (units / "surakarta.service").read_text().split("[Service]")[1]
    assert f"\nRestartPreventExitStatus={EXIT_CAMERA_STACK}\n" in service
    assert "\nRestart=on-failure\n" in service, "other failures are still retried"


def test_numpy_2s_own_traceback_gives_way_to_the_one_line(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    # What an extension built for numpy 1 does under numpy 2: a banner, then ImportError.
    install_picamera2(
        tmp_path, monkeypatch,
        "import sys\n"
        "sys.stderr.write('A module that was compiled using NumPy 1.x cannot be run in\\n'\n"
        "                 'NumPy 2.0.0 as it may crash.\\nTraceback (most recent call last):\\n')\n"
        "raise ImportError('numpy.core.multiarray failed to import')\n",
    )
    assert main(["run", "--config", str(pi_config(tmp_path)), "--check"]) == EXIT_CAMERA_STACK
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "Traceback" not in err
    assert "(numpy.core.multiarray failed to import)" in err
