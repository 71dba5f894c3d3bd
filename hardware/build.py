"""Wiring a whole build from its configuration: lamps, scene, refresher, buttons, buzzer."""

from __future__ import annotations

import contextlib
import time
from collections.abc import Callable

from hardware.buttons import ButtonPanel, PressHandler
from hardware.buzzer import SoundPlayer
from hardware.config import BuzzerKind, DriverKind, HardwareConfig
from hardware.drivers import (
    GpioLamps,
    LampDriver,
    NullLamps,
    ShiftRegisterChain,
    SpiShiftRegisterChain,
)
from hardware.gpio import PinFactory
from hardware.lamps import LampLayout
from hardware.scene import Clock, LampRefresher, LedScene
from hardware.ws2812 import Ws2812Strip


def build_driver(config: HardwareConfig, pin_factory: PinFactory | None = None) -> LampDriver:
    """The lamp driver a configuration describes."""
    kind = config.driver
    if kind is DriverKind.SHIFT_REGISTER:
        pins = config.shift_register
        return ShiftRegisterChain(
            config.chain_of(),
            pins.data,
            pins.clock,
            pins.latch,
            enable_pin=pins.enable,
            pin_factory=pin_factory,
        )
    if kind is DriverKind.SPI_SHIFT_REGISTER:
        return SpiShiftRegisterChain(
            config.chain_of(),
            device=config.spi_device,
            enable_pin=config.shift_register.enable,
            pin_factory=pin_factory,
        )
    if kind is DriverKind.GPIO:
        return GpioLamps(dict(config.lamp_pins), dimmable=config.dimmable, pin_factory=pin_factory)
    if kind is DriverKind.WS2812:
        return Ws2812Strip(
            config.chain_of(),
            colour=config.ws2812_colour,
            max_brightness=config.ws2812_brightness,
            device=config.spi_device,
            pin_factory=pin_factory,
        )
    return NullLamps(config.layout.names)


class Hardware:
    """A running build: use ``scene`` for lamps, ``buzzer`` for sounds, ``buttons`` for input.

    ``start`` begins refreshing the lamps; ``close`` darkens them and releases every
    pin. As a context manager it starts on entry and closes on exit.
    """

    def __init__(
        self,
        config: HardwareConfig,
        layout: LampLayout,
        driver: LampDriver,
        scene: LedScene,
        refresher: LampRefresher,
        buttons: ButtonPanel | None,
        buzzer: SoundPlayer | None,
    ) -> None:
        self.config = config
        """The configuration built from."""
        self.layout = layout
        """Every lamp of the board."""
        self.driver = driver
        """The lamp driver."""
        self.scene = scene
        """The named effect layers to show."""
        self.refresher = refresher
        """The loop writing the scene to the driver."""
        self.buttons = buttons
        """The buttons (``None`` if none are fitted)."""
        self.buzzer = buzzer
        """The buzzer (``None`` if not fitted)."""

    def start(self) -> None:
        """Start refreshing the lamps."""
        self.refresher.start()

    def close(self) -> None:
        """Stop the refresh loop, darken every lamp and release every pin."""
        self.refresher.stop()
        if self.buttons is not None:
            self.buttons.close()
        if self.buzzer is not None:
            self.buzzer.close()
        self.driver.close()

    def __enter__(self) -> Hardware:
        self.start()
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.close()


def build_hardware(
    config: HardwareConfig,
    pin_factory: PinFactory | None = None,
    *,
    on_press: PressHandler | None = None,
    clock: Clock = time.monotonic,
    sleep: Callable[[float], None] = time.sleep,
) -> Hardware:
    """Open every device of a build (not yet refreshing: call ``start``).

    ``pin_factory`` is passed to every gpiozero device (``None``: gpiozero's
    default, the real pins). ``on_press`` receives button presses (``None``: they
    queue in ``hardware.buttons.presses``). ``clock`` times the effects and
    ``sleep`` the buzzer's notes.
    """
    with contextlib.ExitStack() as opened:
        driver = build_driver(config, pin_factory)
        opened.callback(driver.close)
        buttons = None
        if config.buttons.pins:
            buttons = ButtonPanel(
                dict(config.buttons.pins),
                on_press,
                bounce_time=config.buttons.bounce_time,
                pin_factory=pin_factory,
            )
            opened.callback(buttons.close)
        buzzer = None
        if config.buzzer.kind is not BuzzerKind.NONE:
            buzzer = SoundPlayer(
                config.buzzer.pin,
                tonal=config.buzzer.kind is BuzzerKind.TONAL,
                pin_factory=pin_factory,
                sleep=sleep,
            )
            opened.callback(buzzer.close)
        scene = LedScene(clock=clock)
        refresher = LampRefresher(scene, driver, rate_hz=config.refresh_hz)
        # Everything opened: the hardware object owns it now.
        opened.pop_all()
    return Hardware(config, config.layout, driver, scene, refresher, buttons, buzzer)
