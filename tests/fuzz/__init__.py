"""The fuzz suite: every input channel fed malformed input by hypothesis.

Each property says the same thing: a clear one-line error, or a correct answer;
never a traceback, never a hang. By default each property runs a bounded number of
examples that fits the fast tier; ``SURAKARTA_FUZZ=long`` runs a hundred times as
many (the slow tier, by hand or nightly)::

    SURAKARTA_FUZZ=long .venv/bin/python -m pytest tests/fuzz
"""

from __future__ import annotations

import json
import math
import os
from collections.abc import Callable
from typing import Any

import pytest
from hypothesis import HealthCheck, settings
from hypothesis import strategies as st

LONG = os.environ.get("SURAKARTA_FUZZ") == "long"


def fuzz(examples: int = 60) -> settings:
    """The settings of one property: ``examples`` now, a hundred times more when long."""
    return settings(
        max_examples=examples * 100 if LONG else examples,
        deadline=None,
        suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large,
                               HealthCheck.function_scoped_fixture],
    )


def both_tiers(
    given: Callable[[Callable[..., None]], Any], fast: int, long: int
) -> Callable[[Callable[..., None]], tuple[Any, Any]]:
    """A property as two tests: ``fast`` examples in the fast tier, ``long`` in the slow
    tier (marked slow). ``given`` is hypothesis's ``given(...)`` of the property."""

    def tiers(prop: Callable[..., None]) -> tuple[Any, Any]:
        return fuzz(fast)(given(prop)), pytest.mark.slow(fuzz(long)(given(prop)))

    return tiers


def one_line(error: BaseException) -> str:
    """The error's message, checked to be one short line as the command line prints it."""
    text = str(error)
    assert text and "\n" not in text and len(text) < 400, repr(text)
    return text


# -- TOML values, for the config files the properties write ---------------------------

KEYS = {
    "camera": ["source", "device", "path", "width", "height", "fps", "calibration"],
    "vision": ["hold_seconds"],
    "game": ["variant", "mode", "level", "no_capture_limit", "repetition", "show_danger"],
    "engine": ["seconds"],
    "match": ["players", "games", "target", "counting", "swap_colours"],
    "journal": ["path", "records"],
    "hardware": ["driver", "board_size", "chips", "refresh_hz", "data_pin", "clock_pin",
                 "latch_pin", "enable_pin", "spi_device", "inner_loop_lamps", "dimmable",
                 "ws2812_brightness", "ws2812_colour", "chain", "buttons", "buzzer", "lamp_pins"],
}
"""Every key of each section of the board's config."""

toml_numbers = st.one_of(
    st.integers(-(10**30), 10**30), st.integers(-3, 40),
    st.floats(allow_nan=True, allow_infinity=True),
)
toml_strings = st.one_of(
    st.sampled_from(["synthetic", "usb", "folder", "standard", "sepur", "computer-red", "",
                     "~nosuchuser/x", "~/x", "/", ".", "none", "shift-register", "ws2812",
                     "gpio", "captured", "red"]),
    st.text(max_size=12),
)
toml_values: st.SearchStrategy[Any] = st.recursive(
    st.one_of(toml_numbers, toml_strings, st.booleans()),
    lambda inner: st.one_of(st.lists(inner, max_size=3),
                            st.dictionaries(st.sampled_from(["a", "red", "pin"]), inner,
                                            max_size=2)),
    max_leaves=6,
)


def toml_value(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, float):
        if math.isnan(value):
            return "nan"
        if math.isinf(value):
            return "inf" if value > 0 else "-inf"
        return repr(value)
    if isinstance(value, int):
        return str(value)
    if isinstance(value, str):
        return json.dumps(value)  # a JSON string is a TOML basic string
    if isinstance(value, list):
        return "[" + ", ".join(toml_value(item) for item in value) + "]"
    return "{" + ", ".join(f"{key} = {toml_value(item)}" for key, item in value.items()) + "}"
