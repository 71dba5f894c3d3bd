"""One rule for every number that comes from outside: configs, journals, the command line.

A number read from a file or typed by a user is accepted only when it is of the
right kind (``true`` is not 1), finite (``inf`` and ``nan`` pass every ``> 0`` test
and then hang a loop or overflow a conversion) and within bounds that a board can
really use (a billion LED chips passes ``>= 1`` and then exhausts the memory).
Anything else is one line quoting the value, never a traceback further on.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from controller.errors import SurakartaError

SHOWN_DIGITS = 24
"""A giant integer is quoted by its first digits: Python refuses to print more than 4300."""


class BadNumber(SurakartaError, ValueError):
    """A number that is not finite, not of the right kind, or out of bounds."""


def shown(value: object) -> str:
    """``repr(value)``, cut short for giant integers and long strings."""
    if isinstance(value, int) and not isinstance(value, bool) and value.bit_length() > 80:
        sign = "-" if value < 0 else ""
        digits = str(abs(value) % 10**SHOWN_DIGITS).zfill(SHOWN_DIGITS)
        return f"{sign}...{digits} ({value.bit_length()} bits)"
    text = repr(value)
    return text if len(text) <= 80 else text[:77] + "..."


def _plain(bound: float) -> str:
    return str(int(bound)) if float(bound).is_integer() else f"{bound:g}"


@dataclass(frozen=True, slots=True)
class Bounds:
    """What a number read from outside may be."""

    low: float
    """The smallest value allowed (or the value it must be above, with ``above``)."""
    high: float
    """The largest value allowed."""
    integer: bool = False
    """Whole numbers only."""
    above: bool = False
    """The value must be more than ``low``, not equal to it."""

    def describe(self) -> str:
        kind = "an integer" if self.integer else "a number"
        low = "more than" if self.above else "from"
        joint = "and at most" if self.above else "to"
        return f"{kind} {low} {_plain(self.low)} {joint} {_plain(self.high)}"

    def problem(self, value: object) -> str | None:
        """Why ``value`` is not allowed (one lowercase phrase quoting it), or None."""
        kinds = (int,) if self.integer else (int, float)
        if isinstance(value, bool) or not isinstance(value, kinds):
            return f"expected {self.describe()}, got {shown(value)}"
        if isinstance(value, float) and not math.isfinite(value):
            return f"expected {self.describe()}, got {shown(value)} (not a finite number)"
        too_low = value <= self.low if self.above else value < self.low
        if too_low or value > self.high:
            return f"expected {self.describe()}, got {shown(value)}"
        return None

    def check(self, value: object, name: str) -> float:
        """``value`` when allowed; BadNumber naming ``name`` otherwise."""
        problem = self.problem(value)
        if problem is not None:
            raise BadNumber(f"invalid {name}: {problem}")
        assert isinstance(value, int | float)
        return value

    def parse(self, text: str, name: str) -> float:
        """A number typed by a user (``1e400`` is infinite, and refused)."""
        try:
            value: float = int(text) if self.integer else float(text)
        except ValueError:
            raise BadNumber(
                f"invalid {name}: expected {self.describe()}, got {shown(text)}"
            ) from None
        return self.check(value, name)


def seconds(high: float) -> Bounds:
    """A duration: more than 0 and at most ``high`` seconds."""
    return Bounds(0.0, high, above=True)


def whole(low: int, high: int) -> Bounds:
    """An integer from ``low`` to ``high``."""
    return Bounds(low, high, integer=True)


NO_CAPTURE_LIMIT = whole(1, 10_000)
"""A no-capture limit in plies, wherever it is read (configs, journals, records)."""
LEVEL = whole(1, 10)
"""The engine's strength, wherever it is read."""
