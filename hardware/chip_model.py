"""A model of a 74HC595 chain that watches mock pins and rebuilds what its outputs show.

Each chip shifts its serial input into QA on a rising edge of SRCLK (QH spills
into the next chip's serial input) and copies the shift register to its
outputs on a rising edge of RCLK. The model follows the pins' state changes, so
it sees exactly what a real chain would: the hardware tests check the bits a
driver sends with it, and the simulator window draws its lamps from it.

It must be created before the driver opens its pins: it creates the three pins
itself (as watched mock pins) and gpiozero then hands the driver the same pins.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from gpiozero.pins.mock import MockFactory, MockPin, MockPWMPin

Listener = Callable[[bool], None]


class _Watched:
    """Mixin for mock pins: tell listeners about every change of the level."""

    listeners: list[Listener]

    def _change_state(self, value: bool) -> bool:
        changed = bool(super()._change_state(value))  # type: ignore[misc]
        if changed:
            for listener in getattr(self, "listeners", []):
                listener(bool(value))
        return changed


class WatchedPin(_Watched, MockPin):  # type: ignore[misc]
    """A mock pin that reports its level changes."""


class WatchedPWMPin(_Watched, MockPWMPin):  # type: ignore[misc]
    """A PWM-capable mock pin that reports its level changes (for a PWM pin factory)."""


class ShiftRegisterChainModel:
    """``chips`` 74HC595s with shared clock and latch, data into the first chip."""

    def __init__(
        self, factory: MockFactory, *, data: int, clock: int, latch: int, chips: int
    ) -> None:
        self.chips = chips
        # Real chips power up holding arbitrary bits; all ones makes a driver that
        # forgets to clear them show it.
        self.shift = (1 << (8 * chips)) - 1
        """Shift register bits, bit ``i`` = output ``i`` (QA of chip 0 is bit 0)."""
        self.latched = self.shift
        """Output bits after the last latch."""
        self.latches = 0
        """How many latch pulses were seen."""
        self.clock_pulses = 0
        """How many bits were shifted in."""
        self._data = self._watch(factory, data, None)
        self._watch(factory, clock, self._on_clock)
        self._watch(factory, latch, self._on_latch)

    @staticmethod
    def _watch(factory: MockFactory, number: int, listener: Listener | None) -> Any:
        # Creating the pin first makes gpiozero reuse it when the driver asks for it;
        # the class must match the factory's, which gpiozero checks (PWM or not).
        pwm = issubclass(factory.pin_class, MockPWMPin)
        pin = factory.pin(number, pin_class=WatchedPWMPin if pwm else WatchedPin)
        if not isinstance(pin, _Watched):
            raise ValueError(f"pin {number!r} was opened before the chain model watched it")
        pin.listeners = [] if listener is None else [listener]
        return pin

    def _on_clock(self, level: bool) -> None:
        if level:
            mask = (1 << (8 * self.chips)) - 1
            self.shift = (self.shift << 1 | int(bool(self._data.state))) & mask
            self.clock_pulses += 1

    def _on_latch(self, level: bool) -> None:
        if level:
            self.latched = self.shift
            self.latches += 1

    def output(self, index: int) -> bool:
        """Whether output ``index`` (chip ``index // 8``, Q ``index % 8``) is high."""
        return bool(self.latched >> index & 1)

    def lit_outputs(self) -> list[int]:
        """The outputs that are high, lowest first."""
        return [i for i in range(8 * self.chips) if self.output(i)]
