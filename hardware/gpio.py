"""gpiozero as the hardware layer uses it: every device opened here, typed by a protocol.

gpiozero carries no type information, so its classes would spread ``Any`` through
the layer. Instead every device is opened by a function of this module and handed
back as the narrow protocol the layer relies on: mypy checks the rest of the
layer against these protocols, and what the project asks of gpiozero is listed in
one place. Only public gpiozero API is used.

A ``pin_factory`` of ``None`` means gpiozero's default factory (the real pins on
a Pi, or the one ``GPIOZERO_PIN_FACTORY`` names); tests and the simulator pass
gpiozero's ``MockFactory``.
"""

from __future__ import annotations

import warnings
from collections.abc import Callable
from typing import Any, Protocol

from gpiozero import (
    LED,
    PWMLED,
    Buzzer,
    Device,
    DigitalInputDevice,
    DigitalOutputDevice,
    TonalBuzzer,
)
from gpiozero.exc import GPIOZeroError, SPIFixedRate, SPISoftwareFallback
from gpiozero.tones import Tone

__all__ = [
    "GPIOZeroError",
    "Output",
    "PinFactory",
    "Sounder",
    "SpiLink",
    "Switch",
    "buzzer",
    "digital_output",
    "lamp_output",
    "open_spi",
    "switch",
]


class SpiInterface(Protocol):
    """The SPI interface a factory opens (gpiozero's ``SPI`` class)."""

    rate: int

    def transfer(self, data: list[int]) -> list[int]: ...

    def close(self) -> None: ...


class PinFactory(Protocol):
    """What the layer asks of a pin factory besides passing it to devices."""

    def spi(self, *, port: int, device: int) -> SpiInterface: ...


class Output(Protocol):
    """An output pin: on/off, or a brightness from 0 to 1 when it can do PWM."""

    value: float

    def on(self) -> None: ...

    def off(self) -> None: ...

    def close(self) -> None: ...


class Switch(Protocol):
    """A push button to ground, on a pulled-up pin."""

    when_activated: Callable[[], None] | None
    """Called on gpiozero's event thread when the button is pressed."""

    @property
    def pin(self) -> Any:
        """gpiozero's pin (a mock pin can be driven low and high, as a finger would)."""

    def close(self) -> None: ...


class Sounder(Protocol):
    """A buzzer: a tone (a note name such as ``"A4"``), a plain beep, or silence."""

    def sound(self, tone: str | None) -> None:
        """Sound ``tone`` (any tone on an active buzzer, which has only one); None: silence."""

    def close(self) -> None: ...


def digital_output(
    pin: int,
    *,
    active_high: bool = True,
    initial_value: bool = False,
    pin_factory: PinFactory | None = None,
) -> Output:
    """An on/off output (a chain's data, clock and latch, its output enable)."""
    device: Output = DigitalOutputDevice(
        pin, active_high=active_high, initial_value=initial_value, pin_factory=pin_factory
    )
    return device


def lamp_output(pin: int, *, dimmable: bool, pin_factory: PinFactory | None = None) -> Output:
    """One lamp on its own pin; ``dimmable`` drives it by PWM."""
    device: Output = (PWMLED if dimmable else LED)(pin, pin_factory=pin_factory)
    return device


def switch(pin: int, *, bounce_time: float | None, pin_factory: PinFactory | None = None) -> Switch:
    """A push button between ``pin`` and ground, using the Pi's pull-up."""
    # Not gpiozero's Button: that is this input plus a thread per button watching for a
    # hold, which the board never uses (it wakes every 0.1 s, and a close waits for it).
    device: Switch = DigitalInputDevice(pin, pull_up=True, bounce_time=bounce_time,
                                        pin_factory=pin_factory)
    return device


class _Tonal:
    def __init__(self, pin: int, mid_tone: str, pin_factory: PinFactory | None) -> None:
        self._device = TonalBuzzer(pin, mid_tone=Tone(mid_tone), octaves=1, pin_factory=pin_factory)

    def sound(self, tone: str | None) -> None:
        self._device.play(None if tone is None else Tone(tone))

    def close(self) -> None:
        self._device.close()


class _Active:
    def __init__(self, pin: int, pin_factory: PinFactory | None) -> None:
        self._device = Buzzer(pin, pin_factory=pin_factory)

    def sound(self, tone: str | None) -> None:
        if tone is None:
            self._device.off()
        else:
            self._device.on()

    def close(self) -> None:
        self._device.close()


def buzzer(
    pin: int, *, tonal: bool, mid_tone: str, pin_factory: PinFactory | None = None
) -> Sounder:
    """A passive buzzer playing tones around ``mid_tone`` (``tonal``), or an active one."""
    return _Tonal(pin, mid_tone, pin_factory) if tonal else _Active(pin, pin_factory)


class SpiLink:
    """An SPI interface that writes bytes: gpiozero's public ``Factory.spi``."""

    def __init__(self, interface: SpiInterface, *, is_hardware: bool) -> None:
        self._interface = interface
        self.is_hardware = is_hardware
        """False when gpiozero fell back to bit-banging (no spidev, SPI not enabled)."""

    def send(self, data: bytes) -> None:
        self._interface.transfer(list(data))

    def try_set_rate(self, hertz: int) -> bool:
        """Set the SPI clock; False where the interface has none (software SPI)."""
        try:
            self._interface.rate = hertz
        except SPIFixedRate:
            return False
        return True

    def close(self) -> None:
        self._interface.close()


def open_spi(*, port: int = 0, device: int = 0, pin_factory: PinFactory | None = None) -> SpiLink:
    """SPI ``port``.``device`` on the factory's pins.

    gpiozero falls back to bit-banging, with a warning, when hardware SPI cannot be
    opened; the link says so in ``is_hardware`` rather than the warning being lost.
    """
    if pin_factory is None:
        Device.ensure_pin_factory()
        pin_factory = Device.pin_factory
    factory: PinFactory = pin_factory
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always", SPISoftwareFallback)
        interface = factory.spi(port=port, device=device)
    fell_back = any(issubclass(w.category, SPISoftwareFallback) for w in caught)
    for warning in caught:
        if not issubclass(warning.category, SPISoftwareFallback):
            warnings.warn_explicit(
                warning.message, warning.category, warning.filename, warning.lineno
            )
    return SpiLink(interface, is_hardware=not fell_back)
