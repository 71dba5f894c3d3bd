"""gpiozero's own mock pins, for running the hardware layer on a PC."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager

from gpiozero import Device
from gpiozero.pins.mock import MockFactory, MockPWMPin


@contextmanager
def mock_pins(*, pwm: bool = True) -> Iterator[MockFactory]:
    """A fresh MockFactory, made gpiozero's default while in use, then restored.

    It must be the default, not only passed as ``pin_factory=``: gpiozero's
    software SPI opens its bus on the default factory. With ``pwm`` every pin can
    do PWM (tonal buzzer, dimmable lamps).
    """
    saved = Device.pin_factory
    factory = MockFactory(pin_class=MockPWMPin) if pwm else MockFactory()
    Device.pin_factory = factory
    try:
        yield factory
    finally:
        factory.reset()
        Device.pin_factory = saved
