"""The lamps as the board would show them: read back from the mock pins of the LED chain.

The simulator does not ask the referee or the LED scene what is lit: a model of the
74HC595 chain watches the data, clock and latch pins that the real driver toggles,
and the lamp on each latched-high output is lit. A wiring or driver mistake would
show in the window just as it would on the board.
"""

from __future__ import annotations

from gpiozero.pins.mock import MockFactory

from hardware.chain import Chain
from hardware.chip_model import ShiftRegisterChainModel
from hardware.config import HardwareConfig


class LampWatch:
    """Which lamps the chain's outputs light; create it before the hardware opens its pins."""

    def __init__(self, factory: MockFactory, config: HardwareConfig) -> None:
        self.chain: Chain = config.chain_of()
        pins = config.shift_register
        self.model = ShiftRegisterChainModel(
            factory, data=pins.data, clock=pins.clock, latch=pins.latch, chips=self.chain.chips
        )

    def lit(self) -> frozenset[str]:
        """Names of the lamps on latched-high outputs."""
        latched = self.model.latched
        return frozenset(
            name
            for index, name in enumerate(self.chain.outputs)
            if name is not None and latched >> index & 1
        )
