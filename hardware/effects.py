"""Light effects as pure functions of time, so they are testable without threads or clocks.

An effect owns a set of lamps and says, for any moment, how bright each of them
is. ``frame_at`` layers several effects: a later effect decides its own lamps
even where it shows them dark, so an error lamp blinking on a lit hint path
still visibly blinks.
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Protocol

from hardware.chain import Frame

HEARTBEAT = ((0.0, 0.25), (0.4, 0.65))
"""On-intervals, as fractions of a pulse period, of a pulse on lamps that cannot dim:
two long flashes then a pause (lit 60% of the time, so a glance catches it), unlike
the even on/off of a blink."""


class Effect(Protocol):
    """A light pattern over some lamps.

    Effects are frozen dataclasses with a ``start`` field: ``LedScene.show``
    replaces it with the time the effect is shown.
    """

    @property
    def lamps(self) -> tuple[str, ...]:
        """The lamps the effect decides, in order (travel order for a chase)."""
        ...

    @property
    def start(self) -> float:
        """Clock time the effect began (its phase counts from here)."""
        ...

    def levels(self, t: float, dimmable: bool) -> dict[str, float]:
        """Brightness of each of its lamps at time ``t`` (0 means dark)."""
        ...


@dataclass(frozen=True)
class Steady:
    """Lamps simply on (a move's path, the last move)."""

    lamps: tuple[str, ...]
    """The lamps lit."""
    brightness: float = 1.0
    """How bright, 0 to 1."""
    start: float = 0.0
    """Clock time the effect began (unused: a steady light has no phase)."""

    def levels(self, t: float, dimmable: bool) -> dict[str, float]:
        return dict.fromkeys(self.lamps, self.brightness)


@dataclass(frozen=True)
class Blink:
    """Lamps flashing on and off: an error, such as an illegal move's points."""

    lamps: tuple[str, ...]
    """The lamps that blink together."""
    period: float = 0.5
    """Seconds per on/off cycle."""
    duty: float = 0.5
    """Fraction of each cycle that is on."""
    start: float = 0.0
    """Clock time the first cycle begins (lamps on)."""

    def levels(self, t: float, dimmable: bool) -> dict[str, float]:
        phase = ((t - self.start) / self.period) % 1.0
        return dict.fromkeys(self.lamps, 1.0 if phase < self.duty else 0.0)


@dataclass(frozen=True)
class Chase:
    """A light running along a path in the direction of travel, then starting again."""

    lamps: tuple[str, ...]
    """The path's lamps in travel order (see ``lamps_for_move``)."""
    step: float = 0.08
    """Seconds the head spends on each lamp."""
    tail: int = 3
    """Lamps lit behind the head; they fade on a dimmable driver."""
    pause: int = 4
    """Steps of darkness between the end of one run and the start of the next."""
    background: float = 0.0
    """Brightness of the rest of the path (0 leaves it dark)."""
    start: float = 0.0
    """Clock time the head is on the first lamp."""
    runs: int = 0
    """Runs along the path before it stays lit, steady (0: it runs for ever)."""

    def levels(self, t: float, dimmable: bool) -> dict[str, float]:
        levels = dict.fromkeys(self.lamps, self.background)
        # The head runs past the end far enough for the tail to leave too.
        cycle = len(self.lamps) + self.tail + self.pause
        steps = math.floor((t - self.start) / self.step)
        if self.runs and steps >= self.runs * cycle - self.pause:
            return dict.fromkeys(self.lamps, 1.0)
        head = steps % cycle if cycle else 0
        for behind in range(self.tail + 1):
            index = head - behind
            if 0 <= index < len(self.lamps):
                fade = 1.0 - behind / (self.tail + 1) if dimmable else 1.0
                # A path may pass a point twice; keep the brighter of the two visits.
                name = self.lamps[index]
                levels[name] = max(levels[name], fade)
        return levels


@dataclass(frozen=True)
class Pulse:
    """Lamps breathing slowly: a hint. Lamps that cannot dim flash a heartbeat instead."""

    lamps: tuple[str, ...]
    """The lamps that pulse together."""
    period: float = 1.2
    """Seconds per breath."""
    floor: float = 0.1
    """Lowest brightness of a breath on a dimmable driver."""
    start: float = 0.0
    """Clock time a breath begins (at its dimmest)."""

    def levels(self, t: float, dimmable: bool) -> dict[str, float]:
        phase = ((t - self.start) / self.period) % 1.0
        if dimmable:
            swell = 0.5 - 0.5 * math.cos(2 * math.pi * phase)
            level = self.floor + (1.0 - self.floor) * swell
        else:
            level = 1.0 if any(lo <= phase < hi for lo, hi in HEARTBEAT) else 0.0
        return dict.fromkeys(self.lamps, level)


def frame_at(effects: Iterable[Effect], t: float, *, dimmable: bool = True) -> Frame:
    """The lamps lit at time ``t`` by ``effects`` layered bottom to top.

    Returns brightness per lit lamp; dark lamps are left out. ``dimmable`` says
    whether the driver shows brightness (otherwise effects use on/off patterns).
    """
    levels: dict[str, float] = {}
    for effect in effects:
        levels.update(effect.levels(t, dimmable))
    return {name: level for name, level in levels.items() if level > 0}
