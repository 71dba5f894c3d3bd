"""LED drivers, all through gpiozero with an injectable pin factory.

Every driver takes a frame (brightness per lamp name) and makes the lamps show
it. ``pin_factory=None`` means gpiozero's default factory (the real pins on a
Pi); tests pass ``gpiozero.pins.mock.MockFactory``. The devices come from
``hardware.gpio``.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Protocol

from hardware.chain import Chain, Frame
from hardware.gpio import Output, PinFactory, SpiLink, digital_output, lamp_output, open_spi

SHIFT_REGISTER_SPI_HZ = 2_000_000
"""SPI clock for a 74HC595 chain: well inside the chip's 20+ MHz at 3.3 V, and
slow enough for a long ribbon cable under the board."""


class LampDriver(Protocol):
    """What the scene needs from a driver."""

    @property
    def lamps(self) -> tuple[str, ...]:
        """The lamps this driver can light, in wiring order."""
        ...

    @property
    def is_dimmable(self) -> bool:
        """Whether brightness between 0 and 1 shows as such (otherwise any > 0 is on)."""
        ...

    def write(self, frame: Frame) -> None:
        """Show ``frame``: lamps in it at their brightness, every other lamp off."""
        ...

    def close(self) -> None:
        """Turn every lamp off and release the pins."""
        ...


class NullLamps:
    """No LEDs fitted: remembers the last frame (a simulator can draw it)."""

    def __init__(self, lamps: Iterable[str]) -> None:
        self._lamps = tuple(lamps)
        self.frame: dict[str, float] = {}
        """The frame last written, lamps off omitted."""

    @property
    def lamps(self) -> tuple[str, ...]:
        return self._lamps

    @property
    def is_dimmable(self) -> bool:
        return True

    def write(self, frame: Frame) -> None:
        self.frame = {name: value for name, value in frame.items() if value > 0}

    def close(self) -> None:
        self.frame = {}


class _ShiftRegisterBase:
    """Shared part of both 74HC595 drivers: the chain, change detection, output enable."""

    def __init__(
        self, chain: Chain, enable_pin: int | None, pin_factory: PinFactory | None
    ) -> None:
        self.chain = chain
        self._last_word: int | None = None
        self._ready = False
        # OE is active low; pulled up on the board, so the outputs stay dark until
        # the first frame has replaced the chips' random power-up contents.
        self._enable = (
            None
            if enable_pin is None
            else digital_output(
                enable_pin, active_high=False, initial_value=False, pin_factory=pin_factory
            )
        )

    @property
    def lamps(self) -> tuple[str, ...]:
        return self.chain.lamps

    @property
    def is_dimmable(self) -> bool:
        return False

    def _start(self) -> None:
        self.write({})
        if self._enable is not None:
            self._enable.on()
        self._ready = True

    def _go_dark(self) -> None:
        if self._ready:
            self.write({})
            self._ready = False

    def write(self, frame: Frame) -> None:
        word = self.chain.word(frame)
        # Shifting costs a few milliseconds on a Pi; most refreshes change nothing.
        if word != self._last_word:
            self._shift_out(word)
            self._last_word = word

    def _shift_out(self, word: int) -> None:
        raise NotImplementedError

    def _close_devices(self) -> None:
        if self._enable is not None:
            self._enable.close()


class ShiftRegisterChain(_ShiftRegisterBase):
    """A 74HC595 chain bit-banged on three pins: data (SER), clock (SRCLK), latch (RCLK)."""

    def __init__(
        self,
        chain: Chain,
        data_pin: int,
        clock_pin: int,
        latch_pin: int,
        *,
        enable_pin: int | None = None,
        pin_factory: PinFactory | None = None,
    ) -> None:
        super().__init__(chain, enable_pin, pin_factory)
        self._devices: list[Output] = []
        try:
            for pin in (data_pin, clock_pin, latch_pin):
                self._devices.append(digital_output(pin, pin_factory=pin_factory))
        except BaseException:
            self.close()
            raise
        self._data, self._clock, self._latch = self._devices
        self._start()

    def _shift_out(self, word: int) -> None:
        data, clock = self._data, self._clock
        # The first bit shifted ends at the far end of the chain: highest output first.
        for output in range(len(self.chain.outputs) - 1, -1, -1):
            data.value = word >> output & 1
            clock.on()
            clock.off()
        self._latch.on()
        self._latch.off()

    def close(self) -> None:
        """Turn every lamp off and release the pins."""
        self._go_dark()
        for device in self._devices:
            device.close()
        self._devices = []
        self._close_devices()


class SpiShiftRegisterChain(_ShiftRegisterBase):
    """A 74HC595 chain on SPI0: MOSI to SER, SCLK to SRCLK, a chip select to RCLK.

    The chip select rises at the end of each transfer, which latches the frame.
    """

    def __init__(
        self,
        chain: Chain,
        *,
        port: int = 0,
        device: int = 0,
        enable_pin: int | None = None,
        pin_factory: PinFactory | None = None,
    ) -> None:
        super().__init__(chain, enable_pin, pin_factory)
        self._link: SpiLink | None = None
        try:
            self._link = open_spi(port=port, device=device, pin_factory=pin_factory)
        except BaseException:
            self.close()
            raise
        self._link.try_set_rate(SHIFT_REGISTER_SPI_HZ)
        self._start()

    def _shift_out(self, word: int) -> None:
        assert self._link is not None
        self._link.send(word.to_bytes(self.chain.chips, "big"))

    def close(self) -> None:
        """Turn every lamp off and release the pins."""
        self._go_dark()
        if self._link is not None:
            self._link.close()
            self._link = None
        self._close_devices()


class GpioLamps:
    """One GPIO pin per lamp (through a resistor): for small test builds.

    With ``dimmable`` the pins are driven by PWM, so hints pulse in brightness.
    """

    def __init__(
        self,
        pins: Mapping[str, int],
        *,
        dimmable: bool = False,
        pin_factory: PinFactory | None = None,
    ) -> None:
        self._dimmable = dimmable
        self._leds: dict[str, Output] = {}
        try:
            for name, pin in pins.items():
                self._leds[name] = lamp_output(pin, dimmable=dimmable, pin_factory=pin_factory)
        except BaseException:
            self.close()
            raise

    @property
    def lamps(self) -> tuple[str, ...]:
        return tuple(self._leds)

    @property
    def is_dimmable(self) -> bool:
        return self._dimmable

    def write(self, frame: Frame) -> None:
        for name, led in self._leds.items():
            brightness = min(max(frame.get(name, 0.0), 0.0), 1.0)
            led.value = brightness if self._dimmable else brightness > 0

    def close(self) -> None:
        """Turn every lamp off and release the pins."""
        for led in self._leds.values():
            led.off()
            led.close()
        self._leds = {}
