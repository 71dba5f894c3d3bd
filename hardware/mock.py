"""gpiozero's own mock pins, for running the hardware layer on a PC."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from gpiozero import Device
from gpiozero.pins.mock import MockFactory, MockPWMPin

RECENT_STATES = 256
"""How many of its latest changes a mock pin keeps (gpiozero's keep every one)."""


class _RecentStates(list[Any]):
    """A pin's change history that forgets its oldest half when it grows past the cap."""

    def append(self, state: Any) -> None:
        super().append(state)
        if len(self) > RECENT_STATES:
            del self[: RECENT_STATES // 2]


class RecentMockPWMPin(MockPWMPin):  # type: ignore[misc]
    """gpiozero's mock PWM pin, keeping only its recent changes.

    MockPin appends every change to ``states`` for ever: a lamp blinking on a PC for
    an hour is about a hundred megabytes. Tests still read the recent history.
    """

    states: list[Any]
    """The pin's changes, oldest first (gpiozero's ``PinState`` records)."""

    def clear_states(self) -> None:
        super().clear_states()
        self.states = _RecentStates(self.states)


def mock_factory() -> MockFactory:
    """A MockFactory whose pins can do PWM and keep a bounded history."""
    return MockFactory(pin_class=RecentMockPWMPin)


@contextmanager
def mock_pins(*, pwm: bool = True) -> Iterator[MockFactory]:
    """A fresh MockFactory, made gpiozero's default while in use, then restored.

    It must be the default, not only passed as ``pin_factory=``: gpiozero's
    software SPI opens its bus on the default factory. With ``pwm`` every pin can
    do PWM (tonal buzzer, dimmable lamps).
    """
    saved = Device.pin_factory
    factory = mock_factory() if pwm else MockFactory()
    Device.pin_factory = factory
    try:
        yield factory
    finally:
        factory.reset()
        Device.pin_factory = saved
