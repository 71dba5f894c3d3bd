"""The ``[hardware]`` section of the configuration: what is wired to which pin.

Example (every key optional; these are the defaults)::

    [hardware]
    driver = "shift-register"     # spi-shift-register, gpio, ws2812 or none
    board_size = 6
    inner_loop_lamps = 3
    outer_loop_lamps = 5
    refresh_hz = 50.0
    data_pin = 17                 # shift-register: SER of the first 74HC595
    clock_pin = 27                # shift-register: SRCLK of every chip
    latch_pin = 22                # shift-register: RCLK of every chip
    # enable_pin = 4              # optional: OE of every chip (pulled up to 3.3 V)
    spi_device = 0                # spi-shift-register, ws2812: chip select CE0 or CE1
    # chain = ["a1", "b1", "-", ...]  # wiring order, "-" for a spare output
    # chips = 9                   # optional: chips fitted, if more than the chain needs
    dimmable = false              # gpio: PWM brightness on the lamp pins
    ws2812_colour = [255, 150, 60]
    ws2812_brightness = 0.25

    [hardware.lamp_pins]          # gpio: lamp name = BCM pin
    # a1 = 5

    [hardware.buttons]            # when present, exactly the buttons listed
    hint = 5
    undo = 6
    new = 13
    mode = 19
    bounce_time = 0.05

    [hardware.buzzer]
    kind = "tonal"                # plain (active buzzer) or none
    pin = 18

Pins are BCM GPIO numbers. Every problem names its key: ``check_hardware_config``
lists them all, ``load_hardware_config`` raises the first.
"""

from __future__ import annotations

import math
import tomllib
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from enum import Enum
from pathlib import Path
from typing import Any, TypeVar

from controller.geometry import SIZES, CircuitKind
from controller.numbers import shown
from hardware.buttons import DEFAULT_BOUNCE_TIME, ButtonName
from hardware.chain import SPARE, Chain, check_chain_order, output_label, strip_label
from hardware.errors import HardwareConfigError, HardwareError
from hardware.lamps import DEFAULT_LOOP_LAMPS, LampLayout, default_chain_order
from hardware.pins import BCM_PINS, SPI0_CHIP_SELECT, spi0_pins
from hardware.scene import DEFAULT_REFRESH_HZ
from hardware.ws2812 import DEFAULT_COLOUR

T = TypeVar("T")

MAX_CHIPS = 64
"""More 74HC595 chips than any board's chain needs (a 7x7 board with full loops needs 15)."""


class DriverKind(Enum):
    """How the lamps are driven."""

    SHIFT_REGISTER = "shift-register"
    """74HC595 chain bit-banged on three GPIO pins."""
    SPI_SHIFT_REGISTER = "spi-shift-register"
    """74HC595 chain on the SPI0 interface."""
    GPIO = "gpio"
    """One GPIO pin per lamp (small test builds)."""
    WS2812 = "ws2812"
    """A WS2812 strip on SPI0's MOSI."""
    NONE = "none"
    """No lamps fitted."""


class BuzzerKind(Enum):
    """What sort of buzzer is fitted."""

    TONAL = "tonal"
    """A passive piezo on a PWM-capable pin: plays notes."""
    PLAIN = "plain"
    """An active buzzer: on or off."""
    NONE = "none"
    """No buzzer."""


DEFAULT_BUTTON_PINS = {
    ButtonName.HINT: 5,
    ButtonName.UNDO: 6,
    ButtonName.NEW: 13,
    ButtonName.MODE: 19,
}
"""Buttons on physical pins 29, 31, 33 and 35, each next to a ground pin."""


@dataclass(frozen=True)
class ShiftRegisterPins:
    """Pins of a bit-banged 74HC595 chain."""

    data: int = 17
    """SER (pin 14) of the first chip."""
    clock: int = 27
    """SRCLK (pin 11) of every chip."""
    latch: int = 22
    """RCLK (pin 12) of every chip."""
    enable: int | None = None
    """OE (pin 13) of every chip, if wired to the Pi rather than to ground."""


@dataclass(frozen=True)
class ButtonConfig:
    """The buttons fitted."""

    pins: tuple[tuple[ButtonName, int], ...] = tuple(DEFAULT_BUTTON_PINS.items())
    """Each fitted button and its pin."""
    bounce_time: float = DEFAULT_BOUNCE_TIME
    """Debounce time in seconds."""


@dataclass(frozen=True)
class BuzzerConfig:
    """The buzzer fitted."""

    kind: BuzzerKind = BuzzerKind.TONAL
    """Tonal, plain or none."""
    pin: int = 18
    """Its pin (GPIO18 has hardware PWM on every Pi)."""


@dataclass(frozen=True)
class HardwareConfig:
    """Everything ``build_hardware`` needs to know about a build."""

    driver: DriverKind = DriverKind.SHIFT_REGISTER
    """How the lamps are driven."""
    board_size: int = 6
    """Lines per side of the board."""
    inner_loop_lamps: int = DEFAULT_LOOP_LAMPS[CircuitKind.INNER]
    """Lamps on each small loop."""
    outer_loop_lamps: int = DEFAULT_LOOP_LAMPS[CircuitKind.OUTER]
    """Lamps on each large loop."""
    refresh_hz: float = DEFAULT_REFRESH_HZ
    """Lamp refreshes per second."""
    chain: tuple[str | None, ...] | None = None
    """Wiring order (``None`` for a spare output); ``None`` for the documented order."""
    chips: int | None = None
    """74HC595 chips fitted, if more than the chain needs."""
    shift_register: ShiftRegisterPins = field(default_factory=ShiftRegisterPins)
    """Pins of the bit-banged chain."""
    spi_device: int = 0
    """SPI0 chip select used (0 for CE0, 1 for CE1)."""
    lamp_pins: tuple[tuple[str, int], ...] = ()
    """GPIO driver: each lamp wired and its pin."""
    dimmable: bool = False
    """GPIO driver: whether lamp pins use PWM."""
    ws2812_colour: tuple[int, int, int] = DEFAULT_COLOUR
    """WS2812 lamp colour, RGB 0-255."""
    ws2812_brightness: float = 0.25
    """WS2812 brightness at full lamp level, 0 to 1 (limits the current drawn)."""
    buttons: ButtonConfig = field(default_factory=ButtonConfig)
    """The buttons fitted."""
    buzzer: BuzzerConfig = field(default_factory=BuzzerConfig)
    """The buzzer fitted."""

    @property
    def layout(self) -> LampLayout:
        """The lamp layout of this build."""
        return LampLayout(self.board_size, self.inner_loop_lamps, self.outer_loop_lamps)

    def chain_of(self) -> Chain:
        """The chain of this build (wiring order padded with spares)."""
        return Chain.of(self.layout, self.chain, chips=self.chips)

    def output_place(self, output: int) -> str:
        """Where a chain output is found on the build: an LED counted along a WS2812
        strip (which has no chips), else a 74HC595 pin."""
        return strip_label(output) if self.driver is DriverKind.WS2812 else output_label(output)


_TOP_KEYS = {
    "driver",
    "board_size",
    "inner_loop_lamps",
    "outer_loop_lamps",
    "refresh_hz",
    "chain",
    "chips",
    "data_pin",
    "clock_pin",
    "latch_pin",
    "enable_pin",
    "spi_device",
    "lamp_pins",
    "dimmable",
    "ws2812_colour",
    "ws2812_brightness",
    "buttons",
    "buzzer",
}
_BUTTON_KEYS = {name.value for name in ButtonName} | {"bounce_time"}
_BUZZER_KEYS = {"kind", "pin"}
_CHAINED = (DriverKind.SHIFT_REGISTER, DriverKind.SPI_SHIFT_REGISTER, DriverKind.WS2812)
"""Drivers whose lamps hang on one chain, in the wiring order of ``chain``."""


def _choices(kind: type[Enum]) -> str:
    return ", ".join(repr(member.value) for member in kind)


class _Reader:
    """Reads typed values out of the TOML table, collecting every problem."""

    def __init__(self) -> None:
        self.problems: list[str] = []
        self.pin_owners: dict[int, str] = {}

    def problem(self, key: str, reason: str) -> None:
        self.problems.append(f"{key}: {reason}")

    def unknown_keys(self, table: Mapping[str, Any], known: set[str], prefix: str) -> None:
        for key in table:
            if key not in known:
                self.problem(f"{prefix}.{key}", "unknown key")

    def value(
        self,
        table: Mapping[str, Any],
        key: str,
        prefix: str,
        check: Callable[[Any], T | None],
        expected: str,
        default: T,
    ) -> T:
        if key not in table:
            return default
        raw = table[key]
        converted = check(raw)
        if converted is None:
            self.problem(f"{prefix}.{key}", f"expected {expected}, got {shown(raw)}")
            return default
        return converted

    def integer(self, table: Mapping[str, Any], key: str, prefix: str, default: int) -> int:
        return self.value(table, key, prefix, _as_int, "an integer", default)

    def number(self, table: Mapping[str, Any], key: str, prefix: str, default: float) -> float:
        return self.value(table, key, prefix, _as_float, "a number", default)

    def table(self, table: Mapping[str, Any], key: str, prefix: str) -> Mapping[str, Any] | None:
        if key not in table:
            return None
        raw = table[key]
        if not isinstance(raw, dict):
            self.problem(f"{prefix}.{key}", f"expected a table, got {raw!r}")
            return None
        return raw

    def pin(self, key: str, value: int) -> int:
        """Check that a pin exists and has no other use; returns it."""
        if value not in BCM_PINS:
            self.problem(
                key, f"pin {shown(value)} does not exist (BCM GPIO numbers are 0 to 27)"
            )
        elif value in self.pin_owners:
            self.problem(key, f"pin {value} is used twice (also by {self.pin_owners[value]})")
        else:
            self.pin_owners[value] = key
        return value


def _as_int(raw: Any) -> int | None:
    # bool is an int in Python, but ``pin = true`` is a mistake, not pin 1.
    return raw if isinstance(raw, int) and not isinstance(raw, bool) else None


def _as_float(raw: Any) -> float | None:
    # inf and nan pass range checks written as ``not low <= x`` in one direction or the
    # other; a number from the file must be an ordinary, finite one.
    if isinstance(raw, int | float) and not isinstance(raw, bool) and math.isfinite(raw):
        return float(raw)
    return None


def _as_bool(raw: Any) -> bool | None:
    return raw if isinstance(raw, bool) else None


def _as_str(raw: Any) -> str | None:
    return raw if isinstance(raw, str) else None


def _as_str_list(raw: Any) -> list[str] | None:
    if isinstance(raw, list) and all(isinstance(item, str) for item in raw):
        return raw
    return None


def _as_colour(raw: Any) -> tuple[int, int, int] | None:
    if (
        isinstance(raw, list)
        and len(raw) == 3
        and all(_as_int(channel) is not None and 0 <= channel <= 255 for channel in raw)
    ):
        return (raw[0], raw[1], raw[2])
    return None


def _enum(kind: type[Enum]) -> Callable[[Any], Any]:
    def convert(raw: Any) -> Any:
        try:
            return kind(raw)
        except ValueError:
            return None

    return convert


def _parse(table: Mapping[str, Any]) -> tuple[HardwareConfig, list[str]]:
    """The build and every problem of a ``[hardware]`` table, in the order of its keys'
    checks (the first problem is the one ``load_hardware_config`` reports)."""
    p = "hardware"
    r = _Reader()
    r.unknown_keys(table, _TOP_KEYS, p)
    defaults = HardwareConfig()
    driver = _parse_driver(r, table, p)
    size, inner, outer = _parse_board(r, table, p)
    layout = LampLayout(size, inner, outer)
    refresh_hz = r.number(table, "refresh_hz", p, defaults.refresh_hz)
    if not 1 <= refresh_hz <= 500:
        r.problem(f"{p}.refresh_hz", f"invalid refresh rate {refresh_hz!r} (expected 1 to 500)")
        refresh_hz = defaults.refresh_hz
    chain, chips = _parse_chain(r, table, p, driver, layout)
    shift_register, spi_device = _parse_driver_pins(r, table, p, driver)
    lamp_pins = _parse_lamp_pins(r, table, p, driver, layout)
    dimmable = r.value(table, "dimmable", p, _as_bool, "true or false", defaults.dimmable)
    colour = r.value(
        table,
        "ws2812_colour",
        p,
        _as_colour,
        "[red, green, blue] from 0 to 255",
        defaults.ws2812_colour,
    )
    brightness = r.number(table, "ws2812_brightness", p, defaults.ws2812_brightness)
    if not 0 <= brightness <= 1:
        r.problem(f"{p}.ws2812_brightness", f"invalid brightness {brightness!r} (expected 0 to 1)")
        brightness = defaults.ws2812_brightness

    buttons = _parse_buttons(r, r.table(table, "buttons", p), f"{p}.buttons")
    buzzer = _parse_buzzer(r, r.table(table, "buzzer", p), f"{p}.buzzer")
    config = HardwareConfig(
        driver,
        size,
        inner,
        outer,
        refresh_hz,
        chain,
        chips,
        shift_register,
        spi_device,
        lamp_pins,
        dimmable,
        colour,
        brightness,
        buttons,
        buzzer,
    )
    return config, r.problems


def _parse_driver(r: _Reader, table: Mapping[str, Any], p: str) -> DriverKind:
    default = HardwareConfig().driver
    raw = table.get("driver", default.value)
    if not isinstance(raw, str):
        r.problem(f"{p}.driver", f"expected a string, got {raw!r}")
        return default
    try:
        return DriverKind(raw)
    except ValueError:
        expected = _choices(DriverKind)
        r.problem(f"{p}.driver", f"unknown driver {raw!r} (expected {expected})")
        return default


def _parse_board(r: _Reader, table: Mapping[str, Any], p: str) -> tuple[int, int, int]:
    """The board size and the lamps of its inner and outer loops."""
    defaults = HardwareConfig()
    size = r.integer(table, "board_size", p, defaults.board_size)
    if size not in SIZES:
        r.problem(f"{p}.board_size", f"unsupported board size {shown(size)} (expected 6 or 7)")
        size = defaults.board_size
    counts = []
    for key in ("inner_loop_lamps", "outer_loop_lamps"):
        count = r.integer(table, key, p, getattr(defaults, key))
        if not 0 <= count <= 16:
            r.problem(f"{p}.{key}", f"invalid lamp count {shown(count)} (expected 0 to 16)")
            count = getattr(defaults, key)
        counts.append(count)
    return size, counts[0], counts[1]


def _parse_chain(
    r: _Reader, table: Mapping[str, Any], p: str, driver: DriverKind, layout: LampLayout
) -> tuple[tuple[str | None, ...] | None, int | None]:
    """The wiring order of a chained driver's lamps, and its number of chips."""
    chain_names = r.value(table, "chain", p, _as_str_list, "a list of lamp names", None)
    chain = None if chain_names is None else tuple(None if n == SPARE else n for n in chain_names)
    chips = r.value(table, "chips", p, _as_int, "an integer", None)
    if chips is not None and not 1 <= chips <= MAX_CHIPS:
        # Each chip is a byte shifted out at every refresh: a billion would exhaust the memory.
        expected = f"expected 1 to {MAX_CHIPS}"
        r.problem(f"{p}.chips", f"invalid number of chips {shown(chips)} ({expected})")
        chips = None
    if driver in _CHAINED:
        order = chain if chain is not None else default_chain_order(layout)
        for problem in check_chain_order(layout, order):
            r.problem(f"{p}.chain", problem)
        if chips is not None and chips * 8 < len(order):
            outputs = f"{chips} chips have {chips * 8} outputs"
            r.problem(f"{p}.chips", f"{outputs}, fewer than the {len(order)} the chain needs")
    return chain, chips


def _parse_driver_pins(
    r: _Reader, table: Mapping[str, Any], p: str, driver: DriverKind
) -> tuple[ShiftRegisterPins, int]:
    """The shift register's pins and the SPI chip select, each pin the driver uses
    claimed (so that a second use of it is a problem)."""
    sr_defaults = ShiftRegisterPins()
    shift_register = ShiftRegisterPins(
        r.integer(table, "data_pin", p, sr_defaults.data),
        r.integer(table, "clock_pin", p, sr_defaults.clock),
        r.integer(table, "latch_pin", p, sr_defaults.latch),
        r.value(table, "enable_pin", p, _as_int, "an integer", None),
    )
    default_device = HardwareConfig().spi_device
    spi_device = r.integer(table, "spi_device", p, default_device)
    if spi_device not in range(len(SPI0_CHIP_SELECT)):
        r.problem(f"{p}.spi_device", f"invalid chip select {shown(spi_device)} (expected 0 or 1)")
        spi_device = default_device
    if driver is DriverKind.SHIFT_REGISTER:
        for key in ("data_pin", "clock_pin", "latch_pin"):
            r.pin(f"{p}.{key}", getattr(shift_register, key.removesuffix("_pin")))
    if driver in (DriverKind.SPI_SHIFT_REGISTER, DriverKind.WS2812):
        for pin in spi0_pins(spi_device):
            r.pin(f"{p}.spi_device", pin)
    if shift_register.enable is not None and driver in (
        DriverKind.SHIFT_REGISTER,
        DriverKind.SPI_SHIFT_REGISTER,
    ):
        r.pin(f"{p}.enable_pin", shift_register.enable)
    return shift_register, spi_device


def _parse_lamp_pins(
    r: _Reader, table: Mapping[str, Any], p: str, driver: DriverKind, layout: LampLayout
) -> tuple[tuple[str, int], ...]:
    """The gpio driver's pin of each lamp (claimed only when that driver is used)."""
    lamp_pins: list[tuple[str, int]] = []
    lamp_table = r.table(table, "lamp_pins", p)
    for name, raw in (lamp_table or {}).items():
        key = f"{p}.lamp_pins.{name}"
        if name not in layout:
            r.problem(key, f"no lamp named {name!r} on a {layout.size}x{layout.size} board")
        elif _as_int(raw) is None:
            r.problem(key, f"expected an integer, got {raw!r}")
        else:
            lamp_pins.append((name, r.pin(key, raw) if driver is DriverKind.GPIO else raw))
    if driver is DriverKind.GPIO and not lamp_pins and not r.problems:
        r.problem(f"{p}.lamp_pins", "the gpio driver needs at least one lamp pin")
    return tuple(lamp_pins)


def _parse_buttons(r: _Reader, table: Mapping[str, Any] | None, p: str) -> ButtonConfig:
    if table is None:
        for name, pin in DEFAULT_BUTTON_PINS.items():
            r.pin(f"{p}.{name.value}", pin)
        return ButtonConfig()
    r.unknown_keys(table, _BUTTON_KEYS, p)
    pins = []
    for name in ButtonName:
        if name.value not in table:
            continue
        raw = table[name.value]
        if _as_int(raw) is None:
            r.problem(f"{p}.{name.value}", f"expected an integer, got {raw!r}")
        else:
            pins.append((name, r.pin(f"{p}.{name.value}", raw)))
    bounce = r.number(table, "bounce_time", p, DEFAULT_BOUNCE_TIME)
    if not 0 <= bounce <= 1:
        r.problem(f"{p}.bounce_time", f"invalid bounce time {bounce!r} (expected 0 to 1 second)")
        bounce = DEFAULT_BOUNCE_TIME
    return ButtonConfig(tuple(pins), bounce)


def _parse_buzzer(r: _Reader, table: Mapping[str, Any] | None, p: str) -> BuzzerConfig:
    defaults = BuzzerConfig()
    table = table or {}
    r.unknown_keys(table, _BUZZER_KEYS, p)
    kind_raw = table.get("kind", defaults.kind.value)
    kind = _enum(BuzzerKind)(kind_raw)
    if kind is None:
        expected = _choices(BuzzerKind)
        r.problem(f"{p}.kind", f"unknown buzzer kind {kind_raw!r} (expected {expected})")
        kind = defaults.kind
    pin = r.integer(table, "pin", p, defaults.pin)
    if kind is not BuzzerKind.NONE:
        r.pin(f"{p}.pin", pin)
    return BuzzerConfig(kind, pin)


def check_hardware_config(table: Mapping[str, Any]) -> list[str]:
    """Every problem of a ``[hardware]`` table, one line each naming the key (empty if fine)."""
    return _parse(table)[1]


def load_hardware_config(table: Mapping[str, Any]) -> HardwareConfig:
    """The build described by a ``[hardware]`` table; raises HardwareConfigError."""
    config, problems = _parse(table)
    if problems:
        raise HardwareConfigError(f"invalid hardware configuration: {problems[0]}")
    return config


def read_toml(path: str | Path, invalid: Callable[[str], Exception]) -> dict[str, Any]:
    """The document of a TOML file (the board's config, whose ``[hardware]`` table this
    module reads); text that is no TOML raises ``invalid("invalid TOML in 'path': why")``,
    and a file that cannot be read its OSError."""
    try:
        with open(path, "rb") as file:
            return tomllib.load(file)
    except tomllib.TOMLDecodeError as error:
        raise invalid(f"invalid TOML in {str(path)!r}: {error}") from None
    except UnicodeDecodeError:
        # tomllib decodes the bytes itself; its error would not name the file.
        raise invalid(f"invalid TOML in {str(path)!r}: not UTF-8 text") from None
    except RecursionError:
        raise invalid(f"invalid TOML in {str(path)!r}: nested too deeply") from None
    except ValueError as error:  # an integer of more digits than Python converts
        raise invalid(f"invalid TOML in {str(path)!r}: {error}") from None


def read_hardware_table(path: str | Path) -> Mapping[str, Any]:
    """The ``[hardware]`` table of a TOML file (empty when the file has none)."""
    try:
        document = read_toml(path, HardwareConfigError)
    except OSError as error:
        reason = error.strerror or str(error)
        raise HardwareError(f"cannot read configuration file: {str(path)!r} ({reason})") from None
    table = document.get("hardware", {})
    if not isinstance(table, dict):
        raise HardwareConfigError(f"invalid configuration {str(path)!r}: 'hardware' is not a table")
    return table


def load_hardware_file(path: str | Path) -> HardwareConfig:
    """The build described by the ``[hardware]`` section of a TOML file."""
    return load_hardware_config(read_hardware_table(path))
