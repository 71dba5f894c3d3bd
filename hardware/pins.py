"""Raspberry Pi header facts: which BCM GPIO numbers exist and where they sit on the header."""

from __future__ import annotations

BCM_PINS = range(28)
"""The GPIO numbers (BCM) on the 40-pin header of every Pi with one: 0 to 27."""

PHYSICAL_PIN = {
    2: 3, 3: 5, 4: 7, 14: 8, 15: 10, 17: 11, 18: 12, 27: 13, 22: 15, 23: 16,
    24: 18, 10: 19, 9: 21, 25: 22, 11: 23, 8: 24, 7: 26, 0: 27, 1: 28, 5: 29,
    6: 31, 12: 32, 13: 33, 19: 35, 16: 36, 26: 37, 20: 38, 21: 40,
}  # fmt: skip
"""Physical header pin (1-40) of each BCM GPIO number."""

SPI0_SCLK = 11
"""BCM pin of SPI0's clock."""
SPI0_MOSI = 10
"""BCM pin of SPI0's data out."""
SPI0_MISO = 9
"""BCM pin of SPI0's data in (unused, but the SPI driver claims it)."""
SPI0_CHIP_SELECT = (8, 7)
"""BCM pins of SPI0's chip selects CE0 and CE1."""


def spi0_pins(device: int) -> tuple[int, ...]:
    """The BCM pins SPI0 with chip select ``device`` occupies."""
    return (SPI0_SCLK, SPI0_MOSI, SPI0_MISO, SPI0_CHIP_SELECT[device])


def pin_label(bcm: int) -> str:
    """How a builder finds a pin: ``GPIO17 (pin 11)``."""
    physical = PHYSICAL_PIN.get(bcm)
    return f"GPIO{bcm}" if physical is None else f"GPIO{bcm} (pin {physical})"
