"""The builder's commands: ``lamps``, ``lamp-map`` and ``selftest --mock``."""

from __future__ import annotations

import re
import xml.etree.ElementTree as ElementTree
from pathlib import Path

import pytest
from gpiozero import Device

from firmware.cli import main
from hardware.lamps import LampLayout, default_chain_order
from vision.board_model import Paper, board_model


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


def drawn_pitch(svg: str) -> float:
    """Distance between the lamps under a1 and b1 in a lamp map, mm."""
    x = {}
    for group in ElementTree.fromstring(svg).iter("{http://www.w3.org/2000/svg}g"):
        circle = group.find("{http://www.w3.org/2000/svg}circle")
        if group.get("id") in ("lamp-a1", "lamp-b1") and circle is not None:
            x[group.get("id")] = float(circle.get("cx", "nan"))
    return x["lamp-b1"] - x["lamp-a1"]


@pytest.mark.parametrize(("size", "paper"), [("6", "a4"), ("6", "a3"), ("7", "a4"), ("7", "a3")])
def test_lamp_map_is_drawn_at_the_pitch_of_the_printed_board(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, size: str, paper: str
) -> None:
    sheet = str(tmp_path / "board.svg")
    status, out, _ = run(capsys, "print-board", "--out", sheet, "--size", size, "--paper", paper)
    printed = re.search(r"pitch ([0-9.]+) mm", out)
    assert status == 0 and printed is not None
    status, out, _ = run(capsys, "lamp-map", "--size", size, "--paper", paper)
    assert status == 0
    assert drawn_pitch(out) == pytest.approx(float(printed.group(1)), abs=0.01)


def test_lamp_map_takes_its_default_size_from_the_config_and_paper_a4(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    config = tmp_path / "board.toml"
    config.write_text("[hardware]\nboard_size = 7\n")
    _, out, _ = run(capsys, "lamp-map", "--config", str(config))
    assert drawn_pitch(out) == pytest.approx(board_model(7, Paper.A4).pitch, abs=0.01)


def test_lamp_map_keeps_an_explicit_pitch(capsys: pytest.CaptureFixture[str]) -> None:
    _, out, _ = run(capsys, "lamp-map", "--pitch", "40", "--paper", "a3")
    assert drawn_pitch(out) == pytest.approx(40.0, abs=0.01)


@pytest.mark.parametrize("pitch", ["nan", "inf", "0", "-3"])
def test_lamp_map_refuses_a_pitch_that_is_not_a_length(
    capsys: pytest.CaptureFixture[str], pitch: str
) -> None:
    status, out, err = run(capsys, "lamp-map", f"--pitch={pitch}")
    assert status == 2 and out == ""
    assert err.startswith("surakarta lamp-map: invalid pitch:") and err.count("\n") == 1


def test_builder_commands_name_a_config_file_they_cannot_read(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    binary = tmp_path / "board.toml"
    binary.write_bytes(b"\xff\xfe")
    for argv in (
        ("lamps", "3b2/6/2r3/6/6/6 r", "c4xd6"),
        ("lamp-map",),
        ("selftest", "--mock"),
    ):
        status, _, err = run(capsys, *argv, "--config", str(binary))
        assert status == 2 and err.count("\n") == 1
        assert "board.toml" in err and "not UTF-8" in err


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


def test_selftest_with_gpiozero_mock_pins_from_the_environment(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    # As in: GPIOZERO_PIN_FACTORY=mock surakarta selftest (the tonal buzzer needs PWM,
    # which gpiozero's default mock pin lacks).
    monkeypatch.setenv("GPIOZERO_PIN_FACTORY", "mock")
    saved = Device.pin_factory
    Device.pin_factory = None  # so that gpiozero picks its factory from the environment
    try:
        status, out, err = run(capsys, "selftest", "--button-timeout", "0")
    finally:
        if Device.pin_factory is not None:
            Device.pin_factory.close()
        Device.pin_factory = saved
    assert (status, err) == (0, "")
    assert "sound: game-over" in out.splitlines()
    assert "selftest: done (mock pins" in out


@pytest.mark.slow
def test_selftest_names_ws2812_lamps_by_their_place_on_the_strip(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    # A dark LED ("-") between the first two lamps, as where a strip turns a corner.
    order = list(default_chain_order(LampLayout(6)))
    chain = ", ".join(f'"{name}"' for name in [order[0], "-", *order[1:]])
    config = tmp_path / "board.toml"
    config.write_text(f'[hardware]\ndriver = "ws2812"\nchain = [{chain}]\n')
    status, out, _ = run(
        capsys, "selftest", "--mock", "--button-timeout", "0", "--no-sound", "--config", str(config)
    )
    assert status == 0
    lamp_lines = [line for line in out.splitlines() if line[:3].strip().isdigit()]
    assert lamp_lines[0].split() == ["1", "a1", "output", "0,", "LED", "1"]
    assert lamp_lines[1].split() == ["2", "b1", "output", "2,", "LED", "3"]
    assert lamp_lines[-1].split() == ["68", "outer-sw-4", "output", "68,", "LED", "69"]
    assert "chip" not in out


def test_selftest_reports_a_config_error(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    config = tmp_path / "board.toml"
    config.write_text("[hardware]\ndata_pin = 99\n")
    status, _, err = run(capsys, "selftest", "--mock", "--config", str(config))
    assert status == 2
    assert "hardware.data_pin: pin 99 does not exist" in err


def test_lamp_map_of_a_ws2812_strip_counts_leds_along_the_strip(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    config = tmp_path / "board.toml"
    config.write_text('[hardware]\ndriver = "ws2812"\n')
    status, out, _ = run(capsys, "lamp-map", "--config", str(config))
    assert status == 0
    texts = [t.text or "" for t in ElementTree.fromstring(out).iter("{http://www.w3.org/2000/svg}text")]
    outputs = [text for text in texts if text.startswith("#")]
    assert "#0 LED 1" in outputs and len(outputs) == 68
    assert not any("chip" in text for text in texts)
