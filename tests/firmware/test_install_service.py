"""``surakarta install-service`` writes a unit that runs this Python with the config."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from firmware.cli import main
from tests.conftest import systemctl_failing_as_over_ssh


def test_writes_the_unit_without_starting_it(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    config = tmp_path / "board.toml"
    config.write_text("[game]\nlevel = 4\n")
    units = tmp_path / "units"
    assert main(["install-service", "--config", str(config), "--unit-dir", str(units),
                 "--no-start"]) == 0
    unit = (units / "surakarta.service").read_text()
    assert f'ExecStart="{sys.executable}" -m firmware.cli run --config "{config.resolve()}"' in unit
    assert "WantedBy=default.target" in unit and "Restart=on-failure" in unit
    assert "StartLimitBurst=10" in unit.split("[Service]")[0], "a broken config stops retrying"
    assert "systemctl --user enable --now surakarta.service" in capsys.readouterr().out


def test_refuses_an_invalid_config(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    config = tmp_path / "board.toml"
    config.write_text("[game]\nlevel = 0\n")
    units = tmp_path / "units"
    assert main(["install-service", "--config", str(config), "--unit-dir", str(units)]) == 2
    assert "game.level: expected an integer from 1 to 10, got 0" in capsys.readouterr().err
    assert not units.exists()


def test_a_path_with_spaces_and_percent_signs_stays_one_argument(tmp_path: Path) -> None:
    folder = tmp_path / "my board 100%"
    folder.mkdir()
    config = folder / "board.toml"
    config.write_text("[game]\nlevel = 4\n")
    units = tmp_path / "units"
    assert main(["install-service", "--config", str(config), "--unit-dir", str(units),
                 "--no-start"]) == 0
    unit = (units / "surakarta.service").read_text()
    resolved = str(config.resolve()).replace("%", "%%")
    assert f'--config "{resolved}"' in unit and "100%%" in unit


def test_a_systemctl_that_fails_is_one_line_with_the_way_out(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    systemctl_failing_as_over_ssh(tmp_path, monkeypatch)
    config = tmp_path / "board.toml"
    config.write_text("[game]\nlevel = 4\n")
    units = tmp_path / "units"
    assert main(["install-service", "--config", str(config), "--unit-dir", str(units)]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1, err
    assert "systemctl --user daemon-reload failed: Failed to connect to bus" in err
    assert "loginctl enable-linger" in err
    assert (units / "surakarta.service").exists(), "the unit is kept for a later start"


def test_a_config_under_an_unknown_home_is_one_line(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["install-service", "--config", "~nosuchuser/board.toml", "--no-start"]) == 2
    assert "cannot expand the home folder" in capsys.readouterr().err
