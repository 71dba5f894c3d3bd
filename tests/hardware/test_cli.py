"""The builder's commands: ``lamps``, ``lamp-map`` and ``selftest --mock``."""

from __future__ import annotations

import xml.etree.ElementTree as ElementTree
from pathlib import Path

import pytest
from gpiozero import Device

from firmware.cli import main


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    status = main(list(argv))
    captured = capsys.readouterr()
    return status, captured.out, captured.err


def test_lamps_prints_the_worked_example_in_travel_order(
    capsys: pytest.CaptureFixture[str],
) -> None:
    status, out, _ = run(capsys, "lamps", "3b2/6/2r3/6/6/6 r", "c4xd6")
    assert status == 0
    assert out == "c4 d4 e4 f4 outer-ne-0 outer-ne-1 outer-ne-2 outer-ne-3 outer-ne-4 d6\n"


def test_lamps_of_a_borobudur_capture_and_a_step(capsys: pytest.CaptureFixture[str]) -> None:
    _, out, _ = run(capsys, "lamps", "3b2/6/2r3/6/6/6 r", "c4xd6>d5", "--variant", "borobudur")
    assert out.split()[-3:] == ["outer-ne-4", "d6", "d5"]
    _, out, _ = run(capsys, "lamps", "3b2/6/2r3/6/6/6 r", "c4-b5")
    assert out == "c4 b5\n"


def test_lamps_uses_the_configured_loop_lamps(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    config = tmp_path / "board.toml"
    config.write_text("[hardware]\nouter_loop_lamps = 2\n")
    _, out, _ = run(capsys, "lamps", "3b2/6/2r3/6/6/6 r", "c4xd6", "--config", str(config))
    assert out == "c4 d4 e4 f4 outer-ne-0 outer-ne-1 d6\n"


def test_lamps_refuses_an_illegal_move_in_one_line(capsys: pytest.CaptureFixture[str]) -> None:
    status, out, err = run(capsys, "lamps", "3b2/6/2r3/6/6/6 r", "c4xd5")
    assert status == 2 and out == ""
    assert err.startswith("surakarta lamps: ") and "c4xd5" in err and err.count("\n") == 1


def test_lamp_map_draws_every_lamp_with_its_chain_output(
    capsys: pytest.CaptureFixture[str],
) -> None:
    status, out, _ = run(capsys, "lamp-map")
    assert status == 0
    svg = ElementTree.fromstring(out)
    ids = [g.get("id") for g in svg.iter("{http://www.w3.org/2000/svg}g") if g.get("id")]
    assert len(ids) == 68 and "lamp-outer-ne-4" in ids
    assert "#67 chip 9 QD" in out  # outer-sw-4, last in the default order
    _, out, _ = run(capsys, "lamp-map", "--size", "7")
    assert out.count('id="lamp-') == 49 + 32


def test_selftest_on_mock_pins_lights_every_lamp_and_gets_every_button(
    capsys: pytest.CaptureFixture[str],
) -> None:
    saved = Device.pin_factory
    status, out, _ = run(capsys, "selftest", "--mock", "--button-timeout", "0")
    assert status == 0
    assert Device.pin_factory is saved  # the mock does not leak out
    lines = out.splitlines()
    lamp_lines = [line for line in lines if line[:3].strip().isdigit()]
    assert len(lamp_lines) == 68
    assert lamp_lines[0].split()[:2] == ["1", "a1"] and "chip 1 QA" in lamp_lines[0]
    assert lamp_lines[-1].split()[:2] == ["68", "outer-sw-4"]
    for button in ("HINT", "UNDO", "NEW", "MODE"):
        assert any(line.startswith(f"press {button}") and line.endswith("ok") for line in lines)
    assert "sound: game-over" in lines
    assert "mock pins" in out


def test_selftest_reports_a_config_error(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    config = tmp_path / "board.toml"
    config.write_text("[hardware]\ndata_pin = 99\n")
    status, _, err = run(capsys, "selftest", "--mock", "--config", str(config))
    assert status == 2
    assert "hardware.data_pin: pin 99 does not exist" in err
