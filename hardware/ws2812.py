"""WS2812 (NeoPixel) LEDs driven from the SPI data line: works on every Pi, Pi 5 included.

A WS2812 reads one bit per 1.25 microseconds from the width of a high pulse. At
an SPI clock of 2.4 MHz each SPI bit lasts 0.417 microseconds, so three SPI bits
make one LED bit: ``110`` (0.83 us high) is a 1 and ``100`` (0.42 us high) is a 0.
A low line for more than 280 microseconds ends the frame.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from hardware.chain import Chain, Frame
from hardware.errors import HardwareError
from hardware.gpio import PinFactory, SpiLink, open_spi
from hardware.lamp_colours import layer_colour

WS2812_SPI_HZ = 2_400_000
"""SPI clock giving three SPI bits per WS2812 bit."""
ONE = 0b110
"""SPI bits of a WS2812 1."""
ZERO = 0b100
"""SPI bits of a WS2812 0."""
RESET_BYTES = 96
"""Low bytes after a frame: 96 x 8 / 2.4 MHz = 320 us, over the 280 us latch time."""
DEFAULT_COLOUR = (255, 150, 60)
"""A warm white, RGB: reads well through paper or wood."""

Colour = tuple[int, int, int]


def encode_ws2812(colours: Sequence[Colour]) -> bytes:
    """SPI bytes for a strip showing ``colours`` (RGB, first LED first), without reset."""
    bits = 0
    count = 0
    for red, green, blue in colours:
        # The chips take green, red, blue, each most significant bit first.
        for channel in (green, red, blue):
            if not 0 <= channel <= 255:
                raise ValueError(f"invalid colour channel: {channel!r} (expected 0 to 255)")
            for shift in range(7, -1, -1):
                bits = bits << 3 | (ONE if channel >> shift & 1 else ZERO)
                count += 3
    return bits.to_bytes(count // 8, "big") if count else b""


def scaled(colour: Colour, brightness: float) -> Colour:
    """``colour`` at ``brightness`` (0 to 1)."""
    level = min(max(brightness, 0.0), 1.0)
    red, green, blue = colour
    return (round(red * level), round(green * level), round(blue * level))


class Ws2812Strip:
    """A WS2812 strip on SPI0's MOSI (through a 3.3 V to 5 V level shifter).

    The chain order is the order of the LEDs along the strip; spare outputs are
    LEDs left dark (e.g. strip between two lamps).
    """

    def __init__(
        self,
        chain: Chain,
        *,
        colour: Colour = DEFAULT_COLOUR,
        max_brightness: float = 0.25,
        port: int = 0,
        device: int = 0,
        pin_factory: PinFactory | None = None,
    ) -> None:
        self.chain = chain
        self._colour = colour
        self._max_brightness = max_brightness
        self._link: SpiLink | None = open_spi(port=port, device=device, pin_factory=pin_factory)
        # The LEDs read their bits from the timing of the SPI clock: bit-banged SPI, where
        # gpiozero fell back to it, is too slow and too uneven for them.
        if not self._link.is_hardware:
            self._link.close()
            self._link = None
            raise HardwareError(
                "ws2812 needs hardware SPI: enable SPI (dtparam=spi=on) and install spidev or lgpio"
            )
        self._link.try_set_rate(WS2812_SPI_HZ)
        self.write({})

    @property
    def lamps(self) -> tuple[str, ...]:
        return self.chain.lamps

    @property
    def is_dimmable(self) -> bool:
        return True

    def frame_bytes(self, frame: Frame, owners: Mapping[str, str] | None = None) -> bytes:
        """The SPI bytes of one frame, reset gap included; with ``owners`` (lamp to the
        layer showing it) each lamp takes its layer's colour."""
        owners = owners or {}
        colours = [
            scaled(layer_colour(owners[name], self._colour) if name in owners else self._colour,
                   frame.get(name, 0.0) * self._max_brightness)
            if name is not None
            else (0, 0, 0)
            for name in self.chain.outputs
        ]
        return encode_ws2812(colours) + bytes(RESET_BYTES)

    def write_coloured(self, frame: Frame, owners: Mapping[str, str]) -> None:
        """Show ``frame``, each lamp in the colour of the layer that shows it."""
        if self._link is None:
            raise HardwareError("ws2812 strip is closed")
        self._link.send(self.frame_bytes(frame, owners))

    def write(self, frame: Frame) -> None:
        if self._link is None:
            raise HardwareError("ws2812 strip is closed")
        self._link.send(self.frame_bytes(frame))

    def close(self) -> None:
        """Turn every LED off and release the SPI interface."""
        if self._link is not None:
            self.write({})
            self._link.close()
            self._link = None
