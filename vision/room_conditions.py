"""Named room conditions and the piece sets: the ranges random room scenes are drawn from.

A condition is what a user might have at home: a ceiling lamp, a window to one side,
a low lamp, a spotlight, a pendant over glossy pieces, a wide or fisheye lens, a steep
camera, a camera whose exposure and white balance wander. :func:`random_room_scene`
draws one scene (camera, lights, pieces, sensor) for a condition from a numpy
``Generator``; :func:`next_frame` draws the next frame of the same setup (same camera,
light and pieces; new piece offsets, noise and a little exposure drift), with or
without a hand over the board.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, replace

import numpy as np

from controller.errors import SurakartaError
from vision.board_model import board_model
from vision.render import random_hand
from vision.room_camera import camera_geometry
from vision.room_scene import (
    GLOSSY_PLASTIC,
    MATTE_WOOD,
    SATIN_PAINT,
    SHELL,
    STONE,
    Light,
    LightKind,
    Pattern,
    PieceKind,
    PieceSet,
    RoomCamera,
    RoomHand,
    RoomScene,
    Sensor,
    Shape,
)

Range = tuple[float, float]

PIECE_SETS: tuple[PieceSet, ...] = (
    PieceSet("red-black-plastic",
             PieceKind((40.0, 38.0, 185.0), material=GLOSSY_PLASTIC),
             PieceKind((34.0, 32.0, 32.0), material=GLOSSY_PLASTIC)),
    PieceSet("white-black",
             PieceKind((222.0, 226.0, 228.0), material=SATIN_PAINT),
             PieceKind((36.0, 35.0, 35.0), material=SATIN_PAINT)),
    PieceSet("light-dark-wood",
             PieceKind((140.0, 190.0, 225.0), pattern=Pattern.WOOD, accent=(95.0, 145.0, 190.0),
                       material=MATTE_WOOD),
             PieceKind((35.0, 60.0, 100.0), pattern=Pattern.WOOD, accent=(20.0, 35.0, 60.0),
                       material=MATTE_WOOD)),
    PieceSet("cream-brown",
             PieceKind((175.0, 220.0, 238.0)), PieceKind((40.0, 70.0, 120.0))),
    PieceSet("blue-yellow",
             PieceKind((170.0, 95.0, 30.0)), PieceKind((40.0, 200.0, 235.0))),
    PieceSet("shells-pebbles",
             PieceKind((212.0, 222.0, 230.0), Shape.DOME, Pattern.RIDGES, (170.0, 185.0, 200.0),
                       SHELL),
             PieceKind((105.0, 108.0, 110.0), Shape.DOME, Pattern.SPECKLES, (50.0, 52.0, 55.0),
                       STONE)),
    PieceSet("printed",
             PieceKind((45.0, 45.0, 175.0), pattern=Pattern.EMBLEM, accent=(225.0, 230.0, 232.0)),
             PieceKind((38.0, 36.0, 36.0), pattern=Pattern.EMBLEM, accent=(60.0, 190.0, 220.0))),
    PieceSet("rimmed",
             PieceKind((50.0, 50.0, 190.0), pattern=Pattern.RIM, accent=(30.0, 30.0, 120.0)),
             PieceKind((40.0, 38.0, 38.0), pattern=Pattern.RIM, accent=(110.0, 110.0, 110.0))),
)
"""The ordinary piece sets: two sides a person tells apart at a glance."""

LOOK_ALIKE = PieceSet("white-cream",
                      PieceKind((226.0, 230.0, 233.0)), PieceKind((200.0, 224.0, 236.0)),
                      look_alike=True)
"""White against cream: too alike for the vision, which must say so instead of guessing."""

GLOSSY_SETS = ("red-black-plastic",)


@dataclass(frozen=True, slots=True)
class LightRecipe:
    """Ranges one light of a condition is drawn from."""

    kind: LightKind
    """How it shines."""
    distance: Range
    """Horizontal distance from the sheet's middle, mm."""
    height: Range
    """Height above the table, mm."""
    kelvin: Range
    """Colour temperature."""
    power: Range
    """Power relative to the condition's other lights."""
    radius: Range
    """Size of the emitter, mm."""
    cone: Range = (90.0, 90.0)
    """Half-angle of a spot's cone, degrees."""


@dataclass(frozen=True, slots=True)
class RoomCondition:
    """The ranges of one named room condition."""

    lights: tuple[LightRecipe, ...]
    """The light sources."""
    tilt: Range = (0.0, 25.0)
    """Camera tilt from vertical, degrees."""
    field_of_view: Range = (55.0, 70.0)
    """Horizontal field of view, degrees."""
    k1: Range = (-0.05, 0.0)
    """First radial distortion coefficient (eased by :func:`sane_lens` if no real lens of
    the field could have it)."""
    k2: Range = (0.0, 0.02)
    """Second radial distortion coefficient (moved by :func:`sane_lens` as needed)."""
    fill: Range = (0.55, 0.95)
    """Share of the shorter image side the printed square spans."""
    ambient: Range = (0.1, 0.3)
    """Bounced light relative to the lights."""
    exposure_drift: float = 0.03
    """Largest relative exposure error of a frame."""
    white_balance_drift: float = 0.02
    """Largest relative error of the blue and red gains of a frame."""
    read_noise: Range = (0.002, 0.006)
    """Read noise, share of the linear range."""
    piece_offset: float = 0.15
    """Largest distance of a piece from its point, pitches."""
    piece_sets: tuple[str, ...] = ()
    """Names of the sets to draw from (empty: every ordinary set)."""
    look_alike: bool = False
    """Whether the pieces are the look-alike set."""


_CEILING = LightRecipe(LightKind.LAMP, (0.0, 500.0), (1500.0, 2200.0), (3000.0, 4000.0),
                       (1.0, 1.0), (80.0, 250.0))
_WINDOW = LightRecipe(LightKind.WINDOW, (700.0, 1200.0), (250.0, 700.0), (5500.0, 6500.0),
                      (1.0, 1.0), (300.0, 600.0))
_LOW_LAMP = LightRecipe(LightKind.LAMP, (300.0, 500.0), (150.0, 300.0), (2700.0, 2800.0),
                        (1.0, 1.0), (10.0, 30.0))
_TUNGSTEN = LightRecipe(LightKind.LAMP, (300.0, 700.0), (300.0, 700.0), (2700.0, 3000.0),
                        (0.4, 1.0), (15.0, 40.0))
# A cone of 5-9 degrees from about a metre up lights a patch 150-300 mm across: part of
# the board, the rest left to a dim ceiling lamp.
_SPOT = LightRecipe(LightKind.SPOT, (100.0, 500.0), (700.0, 1300.0), (3000.0, 4000.0),
                    (1.0, 1.0), (10.0, 30.0), (5.0, 9.0))
_DIM_CEILING = replace(_CEILING, power=(0.1, 0.25))
_PENDANT = LightRecipe(LightKind.LAMP, (0.0, 80.0), (450.0, 800.0), (2700.0, 3500.0),
                       (1.0, 1.0), (20.0, 60.0))

CONDITIONS: dict[str, RoomCondition] = {
    # A plain ceiling lamp well above: the easy room.
    "ceiling": RoomCondition(lights=(_CEILING,)),
    # Daylight from one side: cooler, a strong gradient, long soft shadows.
    "window": RoomCondition(lights=(_WINDOW,), ambient=(0.15, 0.3)),
    # A warm lamp low at the side: long hard shadows, dim (so noisier), strong falloff.
    "low-lamp": RoomCondition(lights=(_LOW_LAMP,), ambient=(0.05, 0.15),
                              read_noise=(0.005, 0.01)),
    # A narrow bright spot on part of the board, the rest dim.
    "spotlight": RoomCondition(lights=(_SPOT, _DIM_CEILING), ambient=(0.03, 0.1)),
    # A lamp right above glossy pieces: glare on their tops.
    "pendant-glossy": RoomCondition(lights=(_PENDANT,), piece_sets=GLOSSY_SETS),
    # Daylight and a tungsten lamp: two colour temperatures, two sets of shadows.
    "mixed": RoomCondition(lights=(_WINDOW, _TUNGSTEN), ambient=(0.1, 0.25)),
    # A camera like the Pi Camera Module 3 Wide: about 100-110 degrees, barrel distortion.
    "wide-lens": RoomCondition(lights=(_CEILING,), field_of_view=(100.0, 110.0),
                               k1=(-0.35, -0.25), k2=(0.04, 0.08)),
    # A fisheye-like webcam: about 120 degrees; over that field even a smaller k1 bends
    # the corners as much as the wide lens's.
    "fisheye-webcam": RoomCondition(lights=(_CEILING,), field_of_view=(115.0, 125.0),
                                    k1=(-0.25, -0.15), k2=(0.01, 0.04)),
    # A camera leaning in steeply: piece sides show, tops stand well off their points.
    "steep-tilt": RoomCondition(lights=(_CEILING,), tilt=(30.0, 40.0)),
    # Auto exposure and white balance wandering from frame to frame.
    "drift": RoomCondition(lights=(_CEILING,), exposure_drift=0.12, white_balance_drift=0.08),
    # White against cream pieces: the vision must refuse them.
    "look-alike": RoomCondition(lights=(_CEILING,), look_alike=True),
}
"""Every named condition; ordinary ones draw their pieces from :data:`PIECE_SETS`."""


class UnknownCondition(SurakartaError, ValueError):
    """A room condition that is not in :data:`CONDITIONS`."""


def condition_named(name: str) -> RoomCondition:
    """The condition called ``name``; raises UnknownCondition."""
    try:
        return CONDITIONS[name]
    except KeyError:
        names = ", ".join(CONDITIONS)
        raise UnknownCondition(f"unknown room condition: {name!r} (expected one of {names})") \
            from None


MIN_LENS_SLOPE = 0.25
"""Least radial spread of a lens anywhere in the image, relative to its centre."""


def _lens_is_sane(k1: float, k2: float, edge: float, aspect: float) -> bool:
    # Out to the image corners the lens must keep spreading rays apart (a model past its
    # peak folds back and shows the room twice) and never spread them more than at the
    # centre (past that the polynomial turns into a moustache no real lens has).
    radii = np.linspace(0.0, 6.0, 2401)
    distorted = radii * (1 + k1 * radii**2 + k2 * radii**4)
    slope = 1 + 3 * k1 * radii**2 + 5 * k2 * radii**4
    r2 = edge * edge
    corner = edge * (1 + k1 * r2 + k2 * r2 * r2) * math.hypot(1, aspect)
    reached = np.flatnonzero(distorted >= corner)
    if len(reached) == 0:
        return False
    # The field of view is measured to the edge of the image: that too must lie before the
    # peak.
    inside = slope[: max(reached[0], int(np.searchsorted(radii, edge))) + 1]
    return bool(inside.min() >= MIN_LENS_SLOPE and inside.max() <= 1.0 + 1e-9)


def sane_lens(k1: float, k2: float, field_of_view: float, aspect: float) -> tuple[float, float]:
    """The nearest (k1, k2) to the drawn ones that a real lens of that field could have.

    ``k2`` moves first (to the nearest workable value); when none works ``k1`` is eased.
    """
    edge = math.tan(math.radians(field_of_view) / 2)
    candidates = sorted(np.arange(0.0, 0.3, 0.0025), key=lambda value: abs(value - k2))
    while True:
        for candidate in candidates:
            if _lens_is_sane(k1, float(candidate), edge, aspect):
                return k1, float(candidate)
        k1 *= 0.9


def _draw_light(rng: np.random.Generator, recipe: LightRecipe, middle: np.ndarray) -> Light:
    u = rng.uniform
    bearing = u(0, 2 * math.pi)
    reach = u(*recipe.distance)
    x, y = middle + reach * np.array([math.cos(bearing), math.sin(bearing)])
    aim = middle + rng.uniform(-80, 80, 2)
    return Light(kind=recipe.kind, position=(float(x), float(y), u(*recipe.height)),
                 kelvin=u(*recipe.kelvin), power=u(*recipe.power), radius_mm=u(*recipe.radius),
                 aim=(float(aim[0]), float(aim[1])), cone_degrees=u(*recipe.cone))


def _piece_set(rng: np.random.Generator, condition: RoomCondition) -> PieceSet:
    if condition.look_alike:
        return LOOK_ALIKE
    names = condition.piece_sets or tuple(s.name for s in PIECE_SETS)
    name = names[int(rng.integers(len(names)))]
    return next(s for s in PIECE_SETS if s.name == name)


def random_room_hand(rng: np.random.Generator, size: int, camera_height_mm: float) -> RoomHand:
    """A hand reaching in from a random image edge, held 40-150 mm above the board.

    It stays below a third of the camera's height: a hand up against a close camera's
    lens is not how anyone moves a piece.
    """
    outline = random_hand(rng, size)
    lift = min(float(rng.uniform(40, 150)), camera_height_mm / 3)
    return RoomHand(outline, lift_mm=lift)


def random_room_scene(
    rng: np.random.Generator,
    condition: str,
    size: int = 6,
    width: int = 640,
    height: int = 480,
    piece_offset: float | None = None,
) -> RoomScene:
    """A scene for the named condition; the same generator state gives the same scene.

    ``size`` is the board it is for (6 or 7; raises ValueError otherwise); ``piece_offset``
    (pitches) overrides the condition's largest piece offset.
    """
    ranges = condition_named(condition)
    board_model(size)  # an unsupported size is refused here, not at the first render
    u = rng.uniform
    field_of_view = u(*ranges.field_of_view)
    k1, k2 = sane_lens(u(*ranges.k1), u(*ranges.k2), field_of_view, height / width)
    camera = RoomCamera(
        width=width, height=height, field_of_view_degrees=field_of_view, k1=k1, k2=k2,
        principal_offset=(u(-0.02, 0.02) * width, u(-0.02, 0.02) * height),
        tilt_degrees=u(*ranges.tilt), tilt_direction_degrees=u(0, 360),
        rotation_degrees=u(-180, 180), fill=u(*ranges.fill),
        # People set the camera up with the board roughly in the middle of the picture.
        shift=(u(-0.5, 0.5), u(-0.5, 0.5)),
    )
    middle = np.array([105.0, 148.5])
    lights = tuple(_draw_light(rng, recipe, middle) for recipe in ranges.lights)
    sensor = Sensor(
        exposure_target=u(0.6, 0.85),
        auto_white_balance=bool(rng.random() < 0.7),
        vignetting=u(0.05, 0.3 if ranges.field_of_view[0] > 90 else 0.15),
        read_noise=u(*ranges.read_noise),
        full_well=u(2000, 8000),
        lens_blur=u(0.3, 0.8),
        motion_blur=u(2, 5) if rng.random() < 0.15 else 0.0,
        motion_angle_degrees=u(0, 180),
        jpeg_quality=int(rng.integers(60, 96)),
    )
    return RoomScene(
        condition=condition,
        camera=camera,
        lights=lights,
        pieces=_piece_set(rng, ranges),
        sensor=sensor,
        ambient=u(*ranges.ambient),
        ambient_kelvin=u(4000, 6500),
        table_colour=(u(40, 160), u(50, 160), u(60, 170)),
        piece_scale=u(0.85, 1.0),
        piece_height_mm=u(4, 7),
        bevel_mm=u(0.5, 1.2),
        piece_offset=ranges.piece_offset if piece_offset is None else piece_offset,
        layout_seed=int(rng.integers(0, 2**31)),
        seed=int(rng.integers(0, 2**31)),
    )


def next_frame(scene: RoomScene, rng: np.random.Generator, hand: bool = False,
               size: int = 6, pieces_stay: bool = False) -> RoomScene:
    """Another frame of the same setup: new noise, a little drift, a hand if asked.

    The pieces are set down anew (new offsets from their points) unless ``pieces_stay``,
    as in a stream of frames where nobody touches them.
    """
    ranges = condition_named(scene.condition)
    exposure = ranges.exposure_drift
    balance = ranges.white_balance_drift
    sensor = replace(
        scene.sensor,
        exposure_drift=float(rng.uniform(-exposure, exposure)),
        white_balance_drift=(float(rng.uniform(-balance, balance)),
                             float(rng.uniform(-balance, balance))),
    )
    room_hand = None
    if hand:
        camera_height = -float(camera_geometry(scene.camera, size, scene.paper).centre[2])
        room_hand = random_room_hand(rng, size, camera_height)
    layout_seed = scene.layout_seed if pieces_stay else int(rng.integers(0, 2**31))
    return replace(scene, sensor=sensor, hand=room_hand, layout_seed=layout_seed,
                   seed=int(rng.integers(0, 2**31)))
