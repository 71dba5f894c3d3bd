"""The ``[hardware]`` configuration: errors that name the key, and builds on mock pins."""

from __future__ import annotations

import tomllib
from pathlib import Path
from typing import Any

import pytest
from gpiozero.pins.mock import MockFactory

from controller.errors import SurakartaError
from hardware.build import build_hardware
from hardware.buttons import ButtonName
from hardware.buzzer import Sound
from hardware.chip_model import ShiftRegisterChainModel
from hardware.config import (
    BuzzerKind,
    DriverKind,
    HardwareConfig,
    check_hardware_config,
    load_hardware_config,
    load_hardware_file,
)
from hardware.drivers import GpioLamps, NullLamps, ShiftRegisterChain, SpiShiftRegisterChain
from hardware.effects import Steady
from hardware.errors import HardwareConfigError
from hardware.lamps import LampLayout


def problems(text: str) -> list[str]:
    return check_hardware_config(tomllib.loads(text).get("hardware", {}))


def test_an_empty_section_is_the_documented_default_build() -> None:
    config = load_hardware_config({})
    assert config == HardwareConfig()
    assert config.driver is DriverKind.SHIFT_REGISTER
    assert len(config.layout) == 68 and config.chain_of().chips == 9
    assert dict(config.buttons.pins) == {
        ButtonName.HINT: 5, ButtonName.UNDO: 6, ButtonName.NEW: 13, ButtonName.MODE: 19
    }  # fmt: skip


def test_a_full_section_is_read() -> None:
    config = load_hardware_config(
        tomllib.loads(
            """
            [hardware]
            driver = "spi-shift-register"
            board_size = 7
            inner_loop_lamps = 2
            outer_loop_lamps = 4
            spi_device = 1
            enable_pin = 4
            chips = 12
            refresh_hz = 30
            [hardware.buttons]
            hint = 20
            undo = 21
            [hardware.buzzer]
            kind = "plain"
            pin = 12
            """
        )["hardware"]
    )
    assert config.driver is DriverKind.SPI_SHIFT_REGISTER
    assert len(config.layout) == 49 + 4 * 2 + 4 * 4
    assert config.chain_of().chips == 12
    assert config.shift_register.enable == 4 and config.spi_device == 1
    assert config.refresh_hz == 30.0
    assert dict(config.buttons.pins) == {ButtonName.HINT: 20, ButtonName.UNDO: 21}
    assert config.buzzer.kind is BuzzerKind.PLAIN and config.buzzer.pin == 12


TWICE = "is used twice (also by hardware."

CASES = [
    ('driver = "neopixel"', "hardware.driver: unknown driver 'neopixel'"),
    ("latch_pin = 17", f"hardware.latch_pin: pin 17 {TWICE}data_pin)"),
    ("clock_pin = 28", "hardware.clock_pin: pin 28 does not exist (BCM GPIO numbers are 0 to"),
    ("data_pin = -1", "hardware.data_pin: pin -1 does not exist"),
    ('data_pin = "17"', "hardware.data_pin: expected an integer, got '17'"),
    ("data_pin = true", "hardware.data_pin: expected an integer, got True"),
    ("colour = 1", "hardware.colour: unknown key"),
    ('chain = ["a1", "b1"]', "hardware.chain: chain shorter than the layout: 66 of 68 lamps"),
    ("chain = [1, 2]", "hardware.chain: expected a list of lamp names, got [1, 2]"),
    ("chips = 3", "hardware.chips: 3 chips have 24 outputs, fewer than the 68 the chain needs"),
    ("board_size = 8", "hardware.board_size: unsupported board size 8"),
    ("outer_loop_lamps = -2", "hardware.outer_loop_lamps: invalid lamp count -2"),
    ("refresh_hz = 0", "hardware.refresh_hz: invalid refresh rate 0.0"),
    ("spi_device = 2", "hardware.spi_device: invalid chip select 2"),
    ("ws2812_colour = [1, 2]", "hardware.ws2812_colour: expected [red, green, blue]"),
    ("buttons = 5", "hardware.buttons: expected a table, got 5"),
    ("[hardware.buttons]\nhint = 22", f"hardware.buttons.hint: pin 22 {TWICE}latch_pin)"),
    ("[hardware.buttons]\nstart = 26", "hardware.buttons.start: unknown key"),
    ('[hardware.buzzer]\nkind = "loud"', "hardware.buzzer.kind: unknown buzzer kind 'loud'"),
    ("[hardware.buzzer]\npin = 5", f"hardware.buzzer.pin: pin 5 {TWICE}buttons.hint)"),
    (
        'driver = "spi-shift-register"\n[hardware.buttons]\nhint = 10',
        f"hardware.buttons.hint: pin 10 {TWICE}spi_device)",
    ),
    ('driver = "gpio"', "hardware.lamp_pins: the gpio driver needs at least one lamp pin"),
    ('driver = "gpio"\n[hardware.lamp_pins]\nz9 = 4', "hardware.lamp_pins.z9: no lamp named 'z9'"),
]


@pytest.mark.parametrize(("text", "expected"), CASES)
def test_each_problem_names_its_key_and_reason(text: str, expected: str) -> None:
    found = problems("[hardware]\n" + text)
    assert any(problem.startswith(expected) for problem in found), found


def test_pins_of_another_driver_are_not_claimed() -> None:
    # With lamps on a WS2812 strip, the shift register's default pins are free.
    assert problems('[hardware]\ndriver = "ws2812"\n[hardware.buttons]\nhint = 17') == []
    assert problems('[hardware]\ndriver = "none"\n[hardware.buzzer]\nkind = "none"\npin = 5') == []


def test_every_problem_is_listed_and_loading_raises_the_first() -> None:
    table: dict[str, Any] = {"driver": "laser", "data_pin": 99, "extra": 1}
    found = check_hardware_config(table)
    assert len(found) == 3
    with pytest.raises(HardwareConfigError, match=r"^invalid hardware configuration: hardware\.ex"):
        load_hardware_config(table)
    assert issubclass(HardwareConfigError, SurakartaError)
    assert issubclass(HardwareConfigError, ValueError)


def test_file_loading(tmp_path: Path) -> None:
    path = tmp_path / "board.toml"
    path.write_text('[camera]\nindex = 0\n[hardware]\ndriver = "none"\n')
    assert load_hardware_file(path).driver is DriverKind.NONE
    path.write_text("[hardware\n")
    with pytest.raises(HardwareConfigError, match="invalid TOML in"):
        load_hardware_file(path)
    path.write_bytes(b"\xff\xfe[hardware]\n")
    with pytest.raises(HardwareConfigError, match=r"invalid TOML in '.*board.toml': not UTF-8"):
        load_hardware_file(path)
    with pytest.raises(OSError, match=r"cannot read configuration file: '.*missing.toml' \(No"):
        load_hardware_file(tmp_path / "missing.toml")
    with pytest.raises(OSError, match=r"cannot read configuration file: '.*'"):
        load_hardware_file(tmp_path)  # a folder


@pytest.mark.slow
def test_build_wires_the_default_board_and_close_releases_every_pin(
    mock_factory: MockFactory,
) -> None:
    config = HardwareConfig(buzzer=HardwareConfig().buzzer.__class__(BuzzerKind.PLAIN, 18))
    chain = config.chain_of()
    model = ShiftRegisterChainModel(mock_factory, data=17, clock=27, latch=22, chips=chain.chips)
    presses: list[ButtonName] = []
    played: list[float] = []
    hardware = build_hardware(config, mock_factory, on_press=presses.append, sleep=played.append)
    assert isinstance(hardware.driver, ShiftRegisterChain)
    hardware.scene.show("path", Steady(("c4", "d4")))
    hardware.refresher.refresh()
    assert model.lit_outputs() == sorted([chain.output_of("c4"), chain.output_of("d4")])
    mock_factory.pin(13).drive_low()
    assert presses == [ButtonName.NEW]
    assert hardware.buzzer is not None
    hardware.buzzer.play_now(Sound.MOVE_ACCEPTED)
    assert played == [0.08]
    hardware.close()
    assert model.lit_outputs() == []
    # Every pin is free again: the same build opens a second time.
    build_hardware(config, mock_factory).close()


@pytest.mark.parametrize(
    ("table", "driver_class"),
    [
        ({"driver": "spi-shift-register"}, SpiShiftRegisterChain),
        ({"driver": "gpio", "lamp_pins": {"c4": 20, "d6": 21}}, GpioLamps),
        ({"driver": "none"}, NullLamps),
    ],
)
@pytest.mark.slow
def test_build_picks_the_configured_driver(
    mock_factory: MockFactory, table: dict[str, Any], driver_class: type
) -> None:
    config = load_hardware_config({**table, "buzzer": {"kind": "plain"}})
    with build_hardware(config, mock_factory) as hardware:
        assert isinstance(hardware.driver, driver_class)
        assert hardware.refresher.is_running
    assert not hardware.refresher.is_running


def test_build_without_buttons_or_buzzer(mock_factory: MockFactory) -> None:
    config = load_hardware_config({"driver": "none", "buttons": {}, "buzzer": {"kind": "none"}})
    hardware = build_hardware(config, mock_factory)
    assert hardware.buttons is None and hardware.buzzer is None
    assert len(hardware.layout) == len(LampLayout(6))
    hardware.close()
