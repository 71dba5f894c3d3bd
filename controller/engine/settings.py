"""Search settings: the evaluation weights and which prunings the search uses.

The defaults are the engine as shipped. Other settings exist so that a change can
be measured against the defaults in a match (``surakarta gtp --tune KEY=VALUE``),
which is how every weight and pruning here was chosen or kept.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterable
from dataclasses import dataclass

from controller.engine.evaluate import DEFAULT_WEIGHTS, Weights
from controller.errors import SurakartaError

_TRUE = {"1", "on", "yes", "true"}
_FALSE = {"0", "off", "no", "false"}


class BadSetting(SurakartaError, ValueError):
    """A ``KEY=VALUE`` tuning that names no setting or has a bad value."""


@dataclass(frozen=True, slots=True)
class SearchSettings:
    """How the search prunes, and how it weighs a position."""

    weights: Weights = DEFAULT_WEIGHTS
    null_move: bool = True
    """Skip a move at non-PV nodes; a fail-high even so cuts the node."""
    late_move_reductions: bool = True
    """Search late quiet moves less deep first."""
    multi_cut: bool = True
    """At expected cut nodes, cut when several of the first moves fail high at reduced depth."""
    contempt: int = 60
    """What a draw costs the engine, in hundredths of a piece, when a game is scored
    win or loss: it plays on at equal material unless every alternative is worse."""


DEFAULT_SETTINGS = SearchSettings()


def _switch(key: str, value: str) -> bool:
    lowered = value.lower()
    if lowered in _TRUE:
        return True
    if lowered in _FALSE:
        return False
    raise BadSetting(f"invalid value for {key}: {value!r} (expected on or off)")


def _number(key: str, value: str) -> int:
    try:
        return int(value)
    except ValueError:
        raise BadSetting(f"invalid value for {key}: {value!r} (expected a whole number)") from None


def tuned(tunings: Iterable[str], base: SearchSettings = DEFAULT_SETTINGS) -> SearchSettings:
    """``base`` with each ``KEY=VALUE`` applied: a switch (``multi_cut=off``), the
    contempt for draws (``contempt=0``) or a weight of the evaluation
    (``en_prise=35``); raises BadSetting."""
    switches: dict[str, bool] = {}
    numbers: dict[str, int] = {}
    weights: dict[str, int] = {}
    switch_names = {f.name for f in dataclasses.fields(SearchSettings)} - {"weights"}
    weight_names = {f.name for f in dataclasses.fields(Weights)}
    for tuning in tunings:
        key, separator, value = tuning.partition("=")
        key, value = key.strip(), value.strip()
        if not separator or not key or not value:
            raise BadSetting(f"invalid tuning: {tuning!r} (expected KEY=VALUE)")
        if key == "contempt":
            numbers[key] = _number(key, value)
        elif key in switch_names:
            switches[key] = _switch(key, value)
        elif key in weight_names:
            weights[key] = _number(key, value)
        else:
            known = ", ".join(sorted(switch_names | weight_names))
            raise BadSetting(f"unknown setting: {key!r} (known: {known})")
    if "contempt" in numbers:
        base = dataclasses.replace(base, contempt=numbers["contempt"])
    return dataclasses.replace(
        base, weights=dataclasses.replace(base.weights, **weights), **switches
    )
