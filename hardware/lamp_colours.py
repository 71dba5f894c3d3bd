"""The colour of each lamp layer on lamps that have colours (a WS2812 strip).

Lamps of one colour tell the layers apart by rhythm alone (see hardware.effects);
colour lamps also light each in its own colour, chosen far apart: red for what must
be put right, green for a hint, blue for the computer's move, white for where a
lifted piece can go, amber for the last capture.
"""

from __future__ import annotations

from controller.decisions import Layer

Colour = tuple[int, int, int]

LAYER_COLOURS: dict[str, Colour] = {
    Layer.TROUBLE: (255, 0, 0),
    Layer.DOUBT: (255, 190, 0),
    Layer.FIX: (255, 20, 0),
    Layer.LIFT: (220, 220, 255),
    Layer.COMPUTER: (0, 90, 255),
    Layer.HINT: (0, 255, 60),
    Layer.LAST: (255, 140, 40),
    Layer.DANGER: (255, 60, 160),
    Layer.RESULT: (170, 0, 255),
}
"""Colour of each layer, by its name (RGB, full brightness)."""


def layer_colour(layer: str, default: Colour) -> Colour:
    """The colour of ``layer``, or ``default`` for a layer without one."""
    return LAYER_COLOURS.get(layer, default)
