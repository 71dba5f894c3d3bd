"""Which lamp hangs on which output of a driver chain, and the bits a frame becomes.

Output 0 is the output nearest the Pi: on a 74HC595 chain, QA of the first chip
(the chip whose serial input is wired to the Pi). Output ``i`` is pin ``Q`` +
``"ABCDEFGH"[i % 8]`` of chip ``i // 8``. A chain may have more outputs than
lamps: unused outputs are spares and stay off.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from functools import cached_property

from hardware.lamps import LampLayout, default_chain_order

OUTPUTS_PER_CHIP = 8
"""A 74HC595 has eight outputs, QA to QH."""
SPARE = "-"
"""How a configuration marks an unused output in the chain order."""

Frame = Mapping[str, float]
"""Brightness (0 to 1) of each lit lamp by name; a lamp that is absent is off."""


def check_chain_order(layout: LampLayout, order: Sequence[str | None]) -> list[str]:
    """Every problem with a wiring order for ``layout``, one sentence each (empty if fine)."""
    problems = []
    names = [name for name in order if name is not None]
    unknown = [name for name in names if name not in layout]
    if unknown:
        problems.append(f"names lamps that are not on this board: {', '.join(map(repr, unknown))}")
    repeated = [name for name, count in Counter(names).items() if count > 1]
    if repeated:
        problems.append(f"names lamps more than once: {', '.join(map(repr, repeated))}")
    present = set(names)
    missing = [name for name in layout.names if name not in present]
    if missing:
        shown = ", ".join(map(repr, missing[:6])) + (" ..." if len(missing) > 6 else "")
        problems.append(
            f"chain shorter than the layout: {len(missing)} of {len(layout)} lamps "
            f"have no output ({shown})"
        )
    return problems


@dataclass(frozen=True)
class Chain:
    """A wiring order: the lamp on each output, ``None`` for a spare output."""

    outputs: tuple[str | None, ...]
    """Lamp name per output, output 0 first (nearest the Pi)."""

    @classmethod
    def of(
        cls,
        layout: LampLayout,
        order: Iterable[str | None] | None = None,
        *,
        chips: int | None = None,
    ) -> Chain:
        """The chain for ``layout`` wired in ``order`` (default: the documented order).

        ``chips`` pads the chain with spare outputs up to that many 74HC595s; by
        default the chain is padded to a whole number of chips. Raises ValueError
        when the order does not fit the layout.
        """
        outputs = list(default_chain_order(layout) if order is None else order)
        problems = check_chain_order(layout, outputs)
        if problems:
            raise ValueError(f"invalid chain order: {problems[0]}")
        needed = -(-len(outputs) // OUTPUTS_PER_CHIP)
        if chips is None:
            chips = needed
        elif chips < needed:
            raise ValueError(f"invalid chip count: {chips!r} (the chain needs {needed})")
        outputs.extend([None] * (chips * OUTPUTS_PER_CHIP - len(outputs)))
        return cls(tuple(outputs))

    @property
    def chips(self) -> int:
        """How many 74HC595 chips the chain needs."""
        return -(-len(self.outputs) // OUTPUTS_PER_CHIP)

    @cached_property
    def lamps(self) -> tuple[str, ...]:
        """The lamps wired, in chain order."""
        return tuple(name for name in self.outputs if name is not None)

    @cached_property
    def _output_of(self) -> dict[str, int]:
        return {name: index for index, name in enumerate(self.outputs) if name is not None}

    def output_of(self, lamp: str) -> int:
        """The output a lamp hangs on; raises KeyError for a lamp not wired."""
        return self._output_of[lamp]

    def word(self, frame: Frame) -> int:
        """The frame as an integer with bit ``i`` set when output ``i`` is lit."""
        word = 0
        for name, brightness in frame.items():
            output = self._output_of.get(name)
            if output is not None and brightness > 0:
                word |= 1 << output
        return word

    def frame_bytes(self, frame: Frame) -> bytes:
        """The bytes to shift out, MSB first: the last chip's byte goes first."""
        return self.word(frame).to_bytes(self.chips, "big")


def output_label(output: int) -> str:
    """Where an output is on the chain: ``chip 2 QC`` (chips counted from 1)."""
    return f"chip {output // OUTPUTS_PER_CHIP + 1} Q{'ABCDEFGH'[output % OUTPUTS_PER_CHIP]}"


def strip_label(output: int) -> str:
    """Where an output is on a WS2812 strip: ``LED 12``, counted from 1 at the Pi's end."""
    return f"LED {output + 1}"
