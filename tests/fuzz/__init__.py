"""The fuzz suite: every input channel fed malformed input by hypothesis.

Each property says the same thing: a clear one-line error, or a correct answer;
never a traceback, never a hang. By default each property runs a bounded number of
examples that fits the fast tier; ``SURAKARTA_FUZZ=long`` runs a hundred times as
many (the slow tier, by hand or nightly)::

    SURAKARTA_FUZZ=long .venv/bin/python -m pytest tests/fuzz
"""

from __future__ import annotations

import os
from collections.abc import Callable
from typing import Any

import pytest
from hypothesis import HealthCheck, settings

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
