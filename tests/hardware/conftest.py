"""Mock pins for the hardware tests: gpiozero's MockFactory, restored afterwards."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from gpiozero import Device
from gpiozero.pins.mock import MockFactory, MockPWMPin


@pytest.fixture
def mock_factory() -> Iterator[MockFactory]:
    """A fresh mock pin factory, also set as gpiozero's default for the test."""
    saved = Device.pin_factory
    factory = MockFactory()
    Device.pin_factory = factory
    try:
        yield factory
    finally:
        factory.reset()
        Device.pin_factory = saved


@pytest.fixture
def pwm_factory() -> Iterator[MockFactory]:
    """Like ``mock_factory`` but every pin can do PWM (tonal buzzer, dimmable LEDs)."""
    saved = Device.pin_factory
    factory = MockFactory(pin_class=MockPWMPin)
    Device.pin_factory = factory
    try:
        yield factory
    finally:
        factory.reset()
        Device.pin_factory = saved
