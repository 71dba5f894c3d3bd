"""``surakarta selftest``: check a build's wiring lamp by lamp, button by button, sound by sound.

Lamps light one at a time in chain order with their names on the terminal, so a
builder sees at once a lamp that is dark or in the wrong place. Then each button
is asked for in turn. Off a Raspberry Pi (or with ``--mock``, or with gpiozero's
mock factory chosen by ``GPIOZERO_PIN_FACTORY=mock``) the same steps run on mock
pins that can do PWM, as the tonal buzzer needs: nothing lights, presses are
simulated, nothing waits.
"""

from __future__ import annotations

import argparse
import threading
import time
import warnings
from typing import Any

from gpiozero import Device
from gpiozero.exc import BadPinFactory, GPIOZeroError
from gpiozero.pins.mock import MockFactory

from controller.numbers import Bounds
from firmware.commands import check_numbers
from hardware.build import Hardware, build_hardware
from hardware.buttons import ButtonName
from hardware.buzzer import Sound
from hardware.config import DriverKind, HardwareConfig, load_hardware_file
from hardware.errors import HardwareError
from hardware.mock import mock_pins
from hardware.pins import pin_label

NAME = "selftest"
HELP = "light every lamp in chain order, then ask for each button: checks the wiring"

EXIT_FAULT = 1


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--config", metavar="FILE", help="TOML file with a [hardware] section")
    parser.add_argument(
        "--mock", action="store_true", help="use mock pins (simulate presses, skip waits)"
    )
    parser.add_argument(
        "--lamp-seconds", type=float, default=0.5, help="seconds each lamp stays lit (default 0.5)"
    )
    parser.add_argument(
        "--button-timeout",
        type=float,
        default=30.0,
        help="seconds to wait for each button press (default 30)",
    )
    parser.add_argument("--no-sound", action="store_true", help="skip the buzzer")


def _open(config: HardwareConfig, pin_factory: Any, on_press: Any, mock: bool) -> Hardware:
    try:
        return build_hardware(
            config, pin_factory, on_press=on_press, sleep=(lambda _: None) if mock else time.sleep
        )
    except BadPinFactory:
        raise
    except GPIOZeroError as error:
        raise HardwareError(f"cannot open the pins: {gpio_error_text(error)}") from None


def gpio_error_text(error: GPIOZeroError) -> str:
    """gpiozero's message, or its error's description when it gave none (PinPWMUnsupported)."""
    text = str(error).strip()
    if text:
        return text
    description = (type(error).__doc__ or type(error).__name__).strip().splitlines()[0]
    return description[0].lower() + description[1:]


def _lamp_places(config: HardwareConfig) -> dict[str, str]:
    """Where each lamp is wired, in the words a builder finds it by on the board."""
    if config.driver is DriverKind.GPIO:
        return {name: pin_label(pin) for name, pin in config.lamp_pins}
    chain = config.chain_of()
    places = {}
    for name in chain.lamps:
        output = chain.output_of(name)
        places[name] = f"output {output}, {config.output_place(output)}"
    return places


def _test_lamps(hardware: Hardware, seconds: float, mock: bool) -> None:
    config, driver = hardware.config, hardware.driver
    if config.driver is DriverKind.NONE:
        print("lamps: none fitted (driver = none)")
        return
    places = _lamp_places(config)
    print(f"lamps: {len(driver.lamps)} in chain order ({config.driver.value})")
    for number, name in enumerate(driver.lamps, start=1):
        print(f"{number:3d}  {name:<11} {places[name]}", flush=True)
        driver.write({name: 1.0})
        if not mock:
            time.sleep(seconds)
    driver.write({})


def _test_buttons(
    hardware: Hardware, pressed: dict[ButtonName, threading.Event], timeout: float, mock: bool
) -> list[ButtonName]:
    panel = hardware.buttons
    if panel is None:
        print("buttons: none fitted")
        return []
    missed = []
    bcm = dict(hardware.config.buttons.pins)
    for name in panel.fitted:
        pin = panel.button(name).pin
        print(f"press {name.value.upper()} ({pin_label(bcm[name])}) ... ", end="", flush=True)
        if mock:
            # Mock pins: press and release the button as a finger would.
            pin.drive_low()
            pin.drive_high()
        if pressed[name].wait(0 if mock else timeout):
            print("ok")
        else:
            print(f"no press within {timeout:g} s")
            missed.append(name)
    return missed


def _test_sounds(hardware: Hardware) -> None:
    if hardware.buzzer is None:
        print("buzzer: none fitted")
        return
    for sound in Sound:
        print(f"sound: {sound.value}", flush=True)
        hardware.buzzer.play_now(sound)


def _selftest(config: HardwareConfig, args: argparse.Namespace, pin_factory: Any) -> int:
    mock = pin_factory is not None
    pressed = {name: threading.Event() for name in ButtonName}
    hardware = _open(config, pin_factory, lambda name: pressed[name].set(), mock)
    try:
        _test_lamps(hardware, args.lamp_seconds, mock)
        missed = _test_buttons(hardware, pressed, args.button_timeout, mock)
        if not args.no_sound:
            _test_sounds(hardware)
    finally:
        hardware.close()
    if missed:
        print(f"selftest: buttons not pressed: {', '.join(name.value for name in missed)}")
        return EXIT_FAULT
    print("selftest: done" + (" (mock pins: the wiring itself was not checked)" if mock else ""))
    return 0


def run(args: argparse.Namespace) -> int:
    check_numbers(args, lamp_seconds=Bounds(0, 60), button_timeout=Bounds(0, 3600))
    config = HardwareConfig() if args.config is None else load_hardware_file(args.config)
    if not args.mock:
        try:
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                Device.ensure_pin_factory()
        except BadPinFactory:
            print("no GPIO pins found (not a Raspberry Pi?): using mock pins, nothing will light")
            args.mock = True
        if isinstance(Device.pin_factory, MockFactory):
            # gpiozero's own mock pins have no PWM unless asked (GPIOZERO_MOCK_PIN_CLASS),
            # and nobody can press a mock button: the --mock run serves both.
            print("gpiozero's mock pin factory is chosen (GPIOZERO_PIN_FACTORY): using mock pins")
            args.mock = True
    if args.mock:
        print("mock pins: presses are simulated and nothing waits")
        with mock_pins() as factory:
            return _selftest(config, args, factory)
    return _selftest(config, args, None)
