"""Mock pins for the hardware tests: gpiozero's MockFactory, restored afterwards."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from gpiozero.pins.mock import MockFactory

from hardware.mock import mock_pins


@pytest.fixture
def mock_factory() -> Iterator[MockFactory]:
    """A fresh mock pin factory, also set as gpiozero's default for the test."""
    with mock_pins(pwm=False) as factory:
        yield factory


@pytest.fixture
def pwm_factory() -> Iterator[MockFactory]:
    """Like ``mock_factory`` but every pin can do PWM (tonal buzzer, dimmable LEDs)."""
    with mock_pins() as factory:
        yield factory
