"""What a physically modelled room is made of: camera, lights, pieces, hand, sensor.

Every value a rendered frame depends on is a plain field of a frozen dataclass, so an
image is a pure function of (board, :class:`RoomScene`). :mod:`vision.room_conditions`
draws scenes for named room conditions; :mod:`vision.room` renders them.

Units: millimetres on the sheet (origin at its top-left corner, x right, y down as
printed), heights in millimetres above the table, angles in degrees, colours as BGR
triples in 0..255 as a camera with a neutral white balance would record them.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum

from vision.board_model import Paper
from vision.render import BGR, Hand


class Shape(Enum):
    """The solid a piece is."""

    CYLINDER = "cylinder"
    """A draughtsman-like disc with a bevelled top edge."""
    DOME = "dome"
    """Half an ellipsoid, like a pebble or a shell."""


class Pattern(Enum):
    """What is on a piece besides its colour."""

    PLAIN = "plain"
    WOOD = "wood"
    """Procedural grain across the top and down the side."""
    RIDGES = "ridges"
    """A shell's radial ridges, with a slightly irregular outline."""
    SPECKLES = "speckles"
    """A pebble's fine speckles."""
    EMBLEM = "emblem"
    """A ring and a dot printed on the top in the accent colour."""
    RIM = "rim"
    """An outer ring of the top in the accent colour."""


@dataclass(frozen=True, slots=True)
class Material:
    """How a surface reflects light: Lambertian plus a Blinn-Phong lobe."""

    name: str
    """For reports."""
    specular: float
    """Strength of the specular lobe (0 for perfectly matte)."""
    shininess: float
    """Blinn-Phong exponent: larger is a smaller, sharper highlight."""


MATTE_WOOD = Material("matte wood", 0.04, 6.0)
SATIN_PAINT = Material("satin paint", 0.15, 25.0)
GLOSSY_PLASTIC = Material("glossy plastic", 0.55, 90.0)
STONE = Material("stone", 0.05, 8.0)
SHELL = Material("shell", 0.2, 30.0)
PAPER = Material("paper", 0.02, 6.0)
SKIN = Material("skin", 0.08, 12.0)


@dataclass(frozen=True, slots=True)
class PieceKind:
    """The pieces of one side."""

    colour: BGR
    """Body colour."""
    shape: Shape = Shape.CYLINDER
    """The solid."""
    pattern: Pattern = Pattern.PLAIN
    """What is on it besides its colour."""
    accent: BGR = (0.0, 0.0, 0.0)
    """Colour of the emblem, the rim, the grain or the speckles."""
    material: Material = SATIN_PAINT
    """How it reflects light."""


@dataclass(frozen=True, slots=True)
class PieceSet:
    """A set of pieces: one kind for red's side, one for black's."""

    name: str
    """For reports and the truth files."""
    red: PieceKind
    """The pieces that stand for red."""
    black: PieceKind
    """The pieces that stand for black."""
    look_alike: bool = False
    """Whether the two sides are too alike to tell apart (the vision must refuse them)."""


class LightKind(Enum):
    """How a light source shines."""

    LAMP = "lamp"
    """A bulb: light from a point (of ``radius_mm``) falling off with distance."""
    WINDOW = "window"
    """A large bright area to one side: soft shadows, a gradient across the board."""
    SPOT = "spot"
    """A lamp whose light is confined to a cone round its aim."""


@dataclass(frozen=True, slots=True)
class Light:
    """One light source."""

    kind: LightKind
    """How it shines."""
    position: tuple[float, float, float]
    """Centre of the emitter: sheet x, y (mm) and height above the table (mm)."""
    kelvin: float
    """Colour temperature."""
    power: float
    """Light falling on the sheet centre from straight on, relative to the other lights."""
    radius_mm: float
    """Size of the emitter, which makes shadow edges soft."""
    aim: tuple[float, float] = (105.0, 148.5)
    """Sheet point a spot is aimed at (mm)."""
    cone_degrees: float = 90.0
    """Half-angle of a spot's cone."""


@dataclass(frozen=True, slots=True)
class RoomCamera:
    """Lens, sensor size and pose of the camera."""

    width: int = 640
    """Image width, pixels."""
    height: int = 480
    """Image height, pixels."""
    field_of_view_degrees: float = 62.0
    """Horizontal field of view, lens distortion included."""
    k1: float = 0.0
    """First radial distortion coefficient (OpenCV model; negative is barrel)."""
    k2: float = 0.0
    """Second radial distortion coefficient."""
    principal_offset: tuple[float, float] = (0.0, 0.0)
    """Principal point's distance from the image centre, pixels."""
    tilt_degrees: float = 0.0
    """Angle between the optical axis and the vertical."""
    tilt_direction_degrees: float = 0.0
    """Side of the sheet the camera leans from (0 is +x, 90 is +y, i.e. towards rank 1)."""
    rotation_degrees: float = 0.0
    """Rotation of the sheet in the image."""
    fill: float = 0.85
    """Share of the shorter image side the printed square (markers included) spans."""
    shift: tuple[float, float] = (0.0, 0.0)
    """Where the camera aims, as a share (-1..1) of the room the fill leaves."""


@dataclass(frozen=True, slots=True)
class Sensor:
    """What the camera does with the light: exposure, white balance, noise, blur, JPEG."""

    exposure_target: float = 0.72
    """Auto exposure puts the paper at this share of the encoded range."""
    exposure_drift: float = 0.0
    """Relative error of this frame's exposure (auto exposure hunting)."""
    auto_white_balance: bool = True
    """Grey-world white balance; otherwise fixed daylight (5500 K)."""
    white_balance_drift: tuple[float, float] = (0.0, 0.0)
    """Relative error of this frame's blue and red gains."""
    vignetting: float = 0.15
    """Light lost in the image corners (relative)."""
    read_noise: float = 0.004
    """Standard deviation of read noise, share of the linear range."""
    full_well: float = 4000.0
    """Photo-electrons at white: shot noise is the square root of the electrons."""
    lens_blur: float = 0.5
    """Standard deviation of the optics' blur, pixels."""
    motion_blur: float = 0.0
    """Length of the motion blur streak, pixels (0 for none)."""
    motion_angle_degrees: float = 0.0
    """Direction of the motion blur."""
    jpeg_quality: int | None = 90
    """JPEG quality the frame passes through, or None."""


@dataclass(frozen=True, slots=True)
class RoomHand:
    """A hand and arm held above the board."""

    outline: Hand
    """Where it comes from and reaches to, its width and colours (as in the flat renderer)."""
    lift_mm: float = 80.0
    """Height of the hand above the table."""


@dataclass(frozen=True, slots=True)
class RoomScene:
    """Everything about one frame except the board: a pure value."""

    condition: str
    """Name of the room condition it was drawn for."""
    camera: RoomCamera
    """The camera."""
    lights: tuple[Light, ...]
    """The light sources."""
    pieces: PieceSet
    """The piece set."""
    sensor: Sensor = Sensor()
    """Exposure, white balance, noise, blur, JPEG."""
    paper: Paper = Paper.A4
    """The sheet the board is printed on."""
    ambient: float = 0.15
    """Light bounced off walls and ceiling, relative to the lights' power."""
    ambient_kelvin: float = 5000.0
    """Colour temperature of the bounced light."""
    table_colour: BGR = (70.0, 95.0, 120.0)
    """Colour of the table round the sheet."""
    piece_scale: float = 0.92
    """Piece diameter as a share of the model's ``disc_diameter``."""
    piece_height_mm: float = 5.0
    """Height of the pieces."""
    bevel_mm: float = 0.8
    """Width of the rounded top edge of cylinders."""
    piece_offset: float = 0.1
    """Largest distance of a piece from its point, pitches."""
    hand: RoomHand | None = None
    """A hand over the board, or None."""
    layout_seed: int = 0
    """Seed of where each piece stands off its point and how it is turned."""
    seed: int = 0
    """Seed of the rest of a frame's randomness: sensor noise, the hand's fingers."""
