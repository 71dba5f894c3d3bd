"""The named conditions of the photoreal set: piece sets, tables, lights and lenses.

Everything here is a recipe in plain JSON-ready data for ``scene_blender.py``: colours
are linear RGB, lengths metres, the sheet's centre is the origin, +X its right and +Y
the top of the page. Each ``draw_*`` function takes the random generator and returns
a fresh variation, so that setups of one condition differ in every detail that the
condition does not fix.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

import numpy as np

from controller.errors import SurakartaError

Spec = dict[str, Any]


class UnknownCondition(SurakartaError, ValueError):
    """A condition or piece set name that this generator does not know."""


def plain(colour: tuple[float, float, float], roughness: float, specular: float = 0.5,
          clearcoat: float = 0.0) -> Spec:
    """A uniform Principled BSDF material."""
    return {"kind": "plain", "colour": list(colour), "roughness": roughness,
            "specular": specular, "clearcoat": clearcoat}


def wood(light: tuple[float, float, float], dark: tuple[float, float, float],
         scale: float) -> Spec:
    """Wood grain: rings between a light and a dark tone; ``scale`` sets the ring spacing."""
    return {"kind": "wood", "colour": list(light), "dark": list(dark), "scale": scale,
            "roughness": 0.45}


def side(body: Spec, shape: str = "disc", **extras: Spec) -> Spec:
    """One side of a piece set: the body material, the shape, and an emblem or a rim."""
    return {"body": body, "shape": shape, **extras}


GLOSSY_RED = plain((0.50, 0.02, 0.02), 0.12, 0.6, clearcoat=0.6)
GLOSSY_BLACK = plain((0.012, 0.012, 0.014), 0.12, 0.6, clearcoat=0.6)
GOLD = plain((0.80, 0.52, 0.12), 0.25, 1.0)

PIECE_SETS: dict[str, dict[str, Spec]] = {
    "red-black": {"red": side(GLOSSY_RED), "black": side(GLOSSY_BLACK)},
    "white-black": {"red": side(plain((0.80, 0.80, 0.78), 0.3, clearcoat=0.3)),
                    "black": side(plain((0.02, 0.02, 0.022), 0.3, clearcoat=0.3))},
    "light-dark-wood": {"red": side(wood((0.62, 0.43, 0.22), (0.42, 0.26, 0.11), 140.0)),
                        "black": side(wood((0.13, 0.06, 0.025), (0.05, 0.022, 0.01), 140.0))},
    "cream-brown": {"red": side(plain((0.74, 0.64, 0.44), 0.4)),
                    "black": side(plain((0.20, 0.08, 0.03), 0.4))},
    "shells-pebbles": {"red": side(plain((0.82, 0.72, 0.62), 0.3), shape="shell"),
                       "black": side(plain((0.07, 0.07, 0.075), 0.65), shape="pebble")},
    "printed": {"red": side(plain((0.55, 0.05, 0.03), 0.35),
                            emblem=plain((0.85, 0.85, 0.8), 0.4)),
                "black": side(plain((0.02, 0.03, 0.06), 0.35),
                              emblem=plain((0.85, 0.70, 0.15), 0.4))},
    "rimmed": {"red": side(GLOSSY_RED, rim={"thickness": 0.0014, "material": GOLD}),
               "black": side(GLOSSY_BLACK, rim={"thickness": 0.0014, "material": GOLD})},
    "white-cream": {"red": side(plain((0.80, 0.80, 0.78), 0.35)),
                    "black": side(plain((0.78, 0.67, 0.46), 0.35))},
}
"""Piece sets by name; the project's "red" side is the first colour of the name."""

ORDINARY_SETS = tuple(name for name in PIECE_SETS if name != "white-cream")
GLOSSY_SETS = ("red-black", "white-black", "rimmed")


@dataclass(frozen=True, slots=True)
class Lens:
    """The camera's lens: focal length in output pixels and OpenCV radial distortion."""

    focal_pixels: float
    """Focal length of the 640x480 output, pixels."""
    k1: float
    """First radial coefficient (negative: barrel)."""
    k2: float
    """Second radial coefficient."""
    vignetting: float
    """Light lost at the image corners, as a share."""


@dataclass(frozen=True, slots=True)
class Condition:
    """How one named condition draws its setups."""

    lights: str
    """Name of the lighting recipe."""
    lens: str
    """``normal``, ``wide`` or ``fisheye``."""
    tilt_degrees: tuple[float, float]
    """Range of the camera's tilt from vertical."""
    piece_sets: tuple[str, ...]
    """Piece sets to choose from."""


CONDITIONS: dict[str, Condition] = {
    "ceiling": Condition("ceiling", "normal", (0, 30), ORDINARY_SETS),
    "window": Condition("window", "normal", (0, 30), ORDINARY_SETS),
    "low-lamp": Condition("low-lamp", "normal", (0, 30), ORDINARY_SETS),
    "spotlight": Condition("spotlight", "normal", (0, 30), ORDINARY_SETS),
    "pendant-glossy": Condition("pendant", "normal", (0, 30), GLOSSY_SETS),
    "mixed": Condition("mixed", "normal", (0, 30), ORDINARY_SETS),
    "wide-lens": Condition("ceiling", "wide", (0, 30), ORDINARY_SETS),
    "fisheye-webcam": Condition("ceiling", "fisheye", (0, 30), ORDINARY_SETS),
    "steep-tilt": Condition("ceiling", "normal", (32, 40), ORDINARY_SETS),
    "look-alike": Condition("ceiling", "normal", (0, 30), ("white-cream",)),
}


def condition_named(name: str) -> Condition:
    """The condition called ``name``; raises UnknownCondition."""
    try:
        return CONDITIONS[name]
    except KeyError:
        raise UnknownCondition(f"unknown condition: {name!r} (expected one of "
                               f"{', '.join(CONDITIONS)})") from None


def piece_set_named(name: str) -> dict[str, Spec]:
    """The piece set called ``name``; raises UnknownCondition."""
    try:
        return PIECE_SETS[name]
    except KeyError:
        raise UnknownCondition(f"unknown piece set: {name!r} (expected one of "
                               f"{', '.join(PIECE_SETS)})") from None


def draw_lens(rng: np.random.Generator, kind: str) -> Lens:
    """A lens of the kind: a Pi-camera-like normal lens, a wide lens, or a cheap fisheye webcam."""
    if kind == "wide":
        return Lens(float(rng.uniform(400, 440)), float(rng.uniform(-0.33, -0.27)),
                    float(rng.uniform(0.06, 0.10)), 0.15)
    if kind == "fisheye":
        return Lens(float(rng.uniform(330, 360)), float(rng.uniform(-0.45, -0.40)),
                    float(rng.uniform(0.11, 0.13)), 0.3)
    return Lens(float(rng.uniform(500, 580)), 0.0, 0.0, 0.0)


def _around(rng: np.random.Generator, distance: tuple[float, float],
            height: tuple[float, float]) -> list[float]:
    """A random place at a horizontal distance from the board's centre and a height."""
    angle = rng.uniform(0, 2 * math.pi)
    reach = rng.uniform(*distance)
    return [float(reach * math.cos(angle)), float(reach * math.sin(angle)),
            float(rng.uniform(*height))]


def _near_centre(rng: np.random.Generator, spread: float) -> list[float]:
    return [float(rng.uniform(-spread, spread)), float(rng.uniform(-spread, spread)), 0.0]


def _area(rng: np.random.Generator, location: list[float], size: tuple[float, float],
          power: float, kelvin: tuple[float, float]) -> Spec:
    return {"kind": "area", "location": location, "target": _near_centre(rng, 0.1),
            "size": list(size), "power": power, "kelvin": float(rng.uniform(*kelvin))}


def _point(rng: np.random.Generator, location: list[float], radius: float, power: float,
           kelvin: tuple[float, float]) -> Spec:
    return {"kind": "point", "location": location, "target": [0.0, 0.0, 0.0], "radius": radius,
            "power": power, "kelvin": float(rng.uniform(*kelvin))}


def _ceiling(rng: np.random.Generator) -> list[Spec]:
    location = _around(rng, (0.0, 0.6), (1.5, 2.2))
    return [_area(rng, location, (0.6, 0.6), float(rng.uniform(150, 300)), (3500, 5000))]


def _window(rng: np.random.Generator) -> list[Spec]:
    # A big soft source low at one side: bright near the window, falling off across the sheet.
    location = _around(rng, (0.7, 1.1), (0.4, 0.8))
    return [_area(rng, location, (1.0, 1.4), float(rng.uniform(500, 900)), (5500, 6500))]


def _low_lamp(rng: np.random.Generator) -> list[Spec]:
    location = _around(rng, (0.3, 0.45), (0.08, 0.18))
    return [_point(rng, location, 0.015, float(rng.uniform(8, 16)), (2700, 3000))]


def _spotlight(rng: np.random.Generator) -> list[Spec]:
    location = _around(rng, (0.2, 0.6), (0.8, 1.2))
    return [{"kind": "spot", "location": location, "target": _near_centre(rng, 0.05),
             "radius": 0.02, "power": float(rng.uniform(120, 220)),
             "kelvin": float(rng.uniform(3000, 4500)),
             "cone_degrees": float(rng.uniform(30, 45)), "blend": float(rng.uniform(0.2, 0.4))}]


def _pendant(rng: np.random.Generator) -> list[Spec]:
    # Right above the board: small and bright, so glossy tops show its reflection.
    location = _around(rng, (0.0, 0.08), (0.4, 0.7))
    return [_point(rng, location, 0.03, float(rng.uniform(25, 50)), (2700, 3500))]


def _mixed(rng: np.random.Generator) -> list[Spec]:
    window = _window(rng)[0]
    lamp_place = [-window["location"][0] * 0.5, -window["location"][1] * 0.5,
                  float(rng.uniform(0.3, 0.6))]
    return [window, _point(rng, lamp_place, 0.03, float(rng.uniform(15, 30)), (2700, 2900))]


LIGHTING = {"ceiling": _ceiling, "window": _window, "low-lamp": _low_lamp,
            "spotlight": _spotlight, "pendant": _pendant, "mixed": _mixed}


def draw_lights(rng: np.random.Generator, recipe: str) -> list[Spec]:
    """The lamps of a lighting recipe."""
    return LIGHTING[recipe](rng)


def draw_world(rng: np.random.Generator) -> Spec:
    """The dim ambient light of the rest of the room."""
    return {"kelvin": float(rng.uniform(4000, 7000)), "strength": float(rng.uniform(0.03, 0.12))}


def draw_table(rng: np.random.Generator) -> Spec:
    """A wooden table or a cloth, reaching far past the sheet."""
    if rng.random() < 0.6:
        tone = rng.uniform(0.4, 1.0)
        material = wood((0.45 * tone, 0.28 * tone, 0.14 * tone),
                        (0.25 * tone, 0.14 * tone, 0.06 * tone), float(rng.uniform(8, 20)))
    else:
        hue = rng.uniform(0.05, 0.5, 3)
        material = {"kind": "cloth", "colour": [float(v) for v in hue],
                    "dark": [float(v) * 0.6 for v in hue], "scale": 12.0, "roughness": 0.9}
    return {"size": 3.0, "offset": [float(v) for v in rng.uniform(-0.3, 0.3, 2)],
            "rotation": float(rng.uniform(0, math.pi)), "material": material}


SKIN_TONES = ((0.80, 0.56, 0.45), (0.62, 0.40, 0.28), (0.40, 0.24, 0.15), (0.22, 0.12, 0.08))
"""Linear RGB skin colours, light to dark."""


def draw_skin(rng: np.random.Generator) -> Spec:
    """The skin of the hand reaching over the board in this setup."""
    return {"colour": list(SKIN_TONES[int(rng.integers(len(SKIN_TONES)))])}
