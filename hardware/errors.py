"""Errors a builder can cause: a wrong configuration or hardware that cannot be driven."""

from __future__ import annotations

from controller.errors import SurakartaError


class HardwareConfigError(SurakartaError, ValueError):
    """A ``[hardware]`` configuration problem; the message names the key and the reason."""


class HardwareError(SurakartaError, OSError):
    """Hardware that cannot be driven as configured (e.g. no hardware SPI for WS2812)."""
