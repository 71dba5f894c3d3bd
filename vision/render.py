"""A synthetic camera: what a camera would see of the printed board with pieces on it.

Tests, benchmarks and the simulator use it in place of a real camera, so it models
what breaks vision in a real room: the camera pose (tilt, rotation in the image,
distance), light that is uneven and coloured, soft shadows, sensor noise, blur,
JPEG artefacts, pieces a little off their points, and a hand reaching in from an
edge of the frame.

Decisions:
- A :class:`Scene` holds every random choice as a plain value, so an image is a
  pure function of (board, scene): :func:`random_scene` draws a scene from a numpy
  ``Generator`` and a :class:`RenderOptions` preset ("clean", "hard", "hand").
- Speed (a simulator wants ~30 frames a second at 640x480): the flat sheet is drawn
  once per (board size, paper, resolution) and cached; each frame copies it, draws
  the discs, warps it once with the camera homography, and multiplies one light
  field that is computed at 1/8 resolution and scaled up (light is smooth).
- Light multiplies the picture channel by channel (tint and brightness), which is
  also what a power-law camera response does to the encoded values; clipping at
  white is kept, as in a real sensor.
- The camera is a pinhole looking at the sheet centre from a direction tilted by
  up to ``tilt``; its distance is chosen so the printed square fills ``fill`` of the
  shorter image side.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field, replace
from functools import lru_cache

import cv2
import numpy as np

from controller.position import Position
from controller.reading import BoardReading
from vision.board_model import BoardModel, Paper, board_model
from vision.sheet import draw_shapes, sheet_shapes

BGR = tuple[float, float, float]

PAPER_COLOUR: BGR = (228.0, 234.0, 236.0)
"""Reflectance of the sheet, slightly warm white."""
INK_COLOUR = 35.0
"""Grey level of the printed lines and markers."""
RED_PIECE: BGR = (48.0, 46.0, 188.0)
BLACK_PIECE: BGR = (42.0, 40.0, 40.0)


@dataclass(frozen=True, slots=True)
class Pose:
    """Where the camera is, relative to the sheet."""

    tilt_degrees: float = 0.0
    """Angle between the optical axis and the sheet's normal (0 is straight down)."""
    tilt_direction_degrees: float = 0.0
    """Which side of the sheet the camera leans from."""
    rotation_degrees: float = 0.0
    """Rotation of the sheet in the image."""
    fill: float = 0.9
    """Share of the shorter image side the printed square spans (markers and their quiet
    zone included)."""
    shift: tuple[float, float] = (0.0, 0.0)
    """Offset of the sheet from the image centre, as a share (-1..1) of the room to spare."""
    field_of_view_degrees: float = 60.0
    """Horizontal field of view of the lens."""


@dataclass(frozen=True, slots=True)
class Shadow:
    """A soft shadow on the scene."""

    polygon: tuple[tuple[float, float], ...]
    """Outline in image coordinates scaled to 0..1."""
    darkness: float
    """Light left inside the shadow (0.5 is half the light)."""
    softness: float
    """Width of the penumbra, as a share of the image width."""


@dataclass(frozen=True, slots=True)
class Lighting:
    """The light falling on the scene."""

    brightness: float = 0.95
    """Overall light level (1 puts white paper near the top of the sensor's range)."""
    tint: BGR = (1.0, 1.0, 1.0)
    """Colour of the light, per channel (blue, green, red)."""
    gradient: float = 0.0
    """Relative change of light from one side of the image to the other."""
    gradient_direction_degrees: float = 0.0
    """Direction in which the light grows."""
    spot: float = 0.0
    """Extra light of a lamp's bright spot (relative)."""
    spot_centre: tuple[float, float] = (0.5, 0.5)
    """Centre of the bright spot, image coordinates scaled to 0..1."""
    vignetting: float = 0.1
    """Light lost in the image corners (relative)."""
    shadows: tuple[Shadow, ...] = ()
    """Soft shadows."""


@dataclass(frozen=True, slots=True)
class Hand:
    """A hand and arm reaching over the board from an edge of the image."""

    edge: int
    """The image edge the arm comes from: 0 top, 1 right, 2 bottom, 3 left."""
    entry: float
    """Where along that edge (0..1)."""
    reach: tuple[float, float]
    """Grid coordinates (file, rank) under the fingertips."""
    width_pitches: float
    """Width of the forearm, in pitches."""
    skin: BGR
    """Skin colour."""
    sleeve: BGR | None = None
    """Colour of a sleeve over the part of the arm nearest the edge, if any."""


@dataclass(frozen=True, slots=True)
class Scene:
    """Everything about one rendered frame except the pieces."""

    width: int = 640
    """Image width, pixels."""
    height: int = 480
    """Image height, pixels."""
    paper: Paper = Paper.A4
    """The sheet the board is printed on."""
    pose: Pose = field(default_factory=Pose)
    """Camera pose."""
    lighting: Lighting = field(default_factory=Lighting)
    """Light."""
    hand: Hand | None = None
    """A hand over the board, or None."""
    piece_colours: tuple[BGR, BGR] = (RED_PIECE, BLACK_PIECE)
    """Colours of the red and of the black pieces (any two distinguishable colours)."""
    table_colour: BGR = (70.0, 95.0, 120.0)
    """The table around the sheet."""
    piece_offset: float = 0.04
    """Largest distance of a piece from its point, pitches."""
    disc_scale: float = 0.95
    """Piece diameter as a share of the model's largest disc."""
    noise: float = 2.0
    """Standard deviation of sensor noise, grey levels."""
    blur: float = 0.0
    """Standard deviation of the lens blur, pixels (0 for none)."""
    jpeg_quality: int | None = 95
    """JPEG quality the frame passes through, or None for none."""
    seed: int = 0
    """Seed of the per-frame randomness (piece offsets, noise)."""
    markers: bool = True
    """Whether the sheet has its markers (False: a board drawn without them)."""


@dataclass(frozen=True, slots=True)
class RenderOptions:
    """Ranges that :func:`random_scene` draws scenes from."""

    max_tilt: float
    """Largest camera tilt, degrees."""
    max_rotation: float
    """Largest rotation of the sheet in the image, degrees either way."""
    fill: tuple[float, float]
    """Range of the share of the image the printed square fills."""
    brightness: tuple[float, float]
    """Range of the light level."""
    max_tint: float
    """Largest loss of one colour channel in the light (0 for white light)."""
    max_gradient: float
    """Largest light gradient across the image."""
    max_spot: float
    """Largest bright spot."""
    max_shadows: int
    """Most shadows."""
    shadow_darkness: tuple[float, float]
    """Range of the light left inside a shadow."""
    noise: tuple[float, float]
    """Range of sensor noise."""
    max_blur: float
    """Largest lens blur."""
    jpeg_quality: tuple[int, int]
    """Range of JPEG quality."""
    piece_offset: float
    """Largest distance of a piece from its point."""
    disc_scale: tuple[float, float]
    """Range of piece diameters."""
    hand: bool
    """Whether every scene has a hand in it."""

    @staticmethod
    def preset(name: str) -> RenderOptions:
        """``clean`` (a good camera in good light), ``hard`` (a real room) or ``hand``."""
        try:
            return _PRESETS[name]
        except KeyError:
            names = ", ".join(sorted(_PRESETS))
            raise ValueError(f"unknown render preset: {name!r} (expected {names})") from None


_CLEAN = RenderOptions(
    max_tilt=10.0, max_rotation=5.0, fill=(0.85, 0.95), brightness=(0.9, 1.0), max_tint=0.05,
    max_gradient=0.1, max_spot=0.0, max_shadows=0, shadow_darkness=(1.0, 1.0), noise=(1.0, 2.5),
    max_blur=0.0, jpeg_quality=(90, 95), piece_offset=0.04, disc_scale=(0.95, 1.0), hand=False,
)
_HARD = RenderOptions(
    max_tilt=35.0, max_rotation=180.0, fill=(0.6, 0.95), brightness=(0.45, 1.05), max_tint=0.3,
    max_gradient=0.5, max_spot=0.25, max_shadows=2, shadow_darkness=(0.5, 0.85),
    noise=(1.5, 6.0), max_blur=1.2, jpeg_quality=(60, 95), piece_offset=0.1,
    disc_scale=(0.85, 1.0), hand=False,
)
_PRESETS = {"clean": _CLEAN, "hard": _HARD, "hand": replace(_HARD, hand=True)}

SKIN_TONES: tuple[BGR, ...] = (
    (170.0, 190.0, 235.0), (140.0, 170.0, 220.0), (110.0, 145.0, 200.0),
    (80.0, 115.0, 170.0), (55.0, 80.0, 125.0), (40.0, 55.0, 90.0),
)
SLEEVE_COLOURS: tuple[BGR, ...] = (
    (120.0, 60.0, 30.0), (60.0, 60.0, 60.0), (40.0, 90.0, 40.0), (50.0, 40.0, 130.0),
    (150.0, 150.0, 150.0), (30.0, 30.0, 35.0),
)


def random_scene(
    rng: np.random.Generator,
    options: RenderOptions,
    width: int = 640,
    height: int = 480,
    size: int = 6,
) -> Scene:
    """A scene drawn from ``options``; the same generator state gives the same scene."""
    u = rng.uniform
    pose = Pose(
        tilt_degrees=u(0, options.max_tilt),
        tilt_direction_degrees=u(0, 360),
        rotation_degrees=u(-options.max_rotation, options.max_rotation),
        fill=u(*options.fill),
        shift=(u(-1, 1), u(-1, 1)),
    )
    tint = np.clip(1 - rng.uniform(0, options.max_tint, 3), 0, 1)
    tint = tint / tint.max()
    shadows = tuple(
        _random_shadow(rng, options) for _ in range(int(rng.integers(0, options.max_shadows + 1)))
    )
    lighting = Lighting(
        brightness=u(*options.brightness),
        tint=(float(tint[0]), float(tint[1]), float(tint[2])),
        gradient=u(0, options.max_gradient),
        gradient_direction_degrees=u(0, 360),
        spot=u(0, options.max_spot),
        spot_centre=(u(0.2, 0.8), u(0.2, 0.8)),
        vignetting=u(0.0, 0.2),
        shadows=shadows,
    )
    hand = random_hand(rng, size) if options.hand else None
    return Scene(
        width=width,
        height=height,
        pose=pose,
        lighting=lighting,
        hand=hand,
        piece_offset=options.piece_offset,
        disc_scale=u(*options.disc_scale),
        noise=u(*options.noise),
        blur=u(0, options.max_blur),
        jpeg_quality=int(rng.integers(options.jpeg_quality[0], options.jpeg_quality[1] + 1)),
        table_colour=(u(40, 160), u(50, 160), u(60, 170)),
        seed=int(rng.integers(0, 2**31)),
    )


def _random_shadow(rng: np.random.Generator, options: RenderOptions) -> Shadow:
    # A shadow cast by something at the edge of the scene: a quadrilateral from outside
    # the image reaching partway in.
    centre = rng.uniform(0.1, 0.9, 2)
    angle = rng.uniform(0, 2 * math.pi)
    direction = np.array([math.cos(angle), math.sin(angle)])
    normal = np.array([-direction[1], direction[0]])
    half = rng.uniform(0.1, 0.3)
    far = centre - direction * 2.0
    corners = [centre + normal * half, far + normal * half * 1.5,
               far - normal * half * 1.5, centre - normal * half]
    return Shadow(
        polygon=tuple((float(x), float(y)) for x, y in corners),
        darkness=rng.uniform(*options.shadow_darkness),
        softness=rng.uniform(0.02, 0.08),
    )


def random_hand(rng: np.random.Generator, size: int) -> Hand:
    """A hand and arm from a random image edge reaching over a random point, of any skin tone."""
    skin = SKIN_TONES[int(rng.integers(len(SKIN_TONES)))]
    sleeve = SLEEVE_COLOURS[int(rng.integers(len(SLEEVE_COLOURS)))] if rng.random() < 0.5 else None
    return Hand(
        edge=int(rng.integers(4)),
        entry=float(rng.uniform(0.15, 0.85)),
        reach=(float(rng.uniform(0, size - 1)), float(rng.uniform(0, size - 1))),
        width_pitches=float(rng.uniform(2.5, 4.0)),
        skin=skin,
        sleeve=sleeve,
    )


# ------------------------------------------------------------------ camera


def camera_orientation(tilt_degrees: float, tilt_direction_degrees: float,
                       rotation_degrees: float) -> tuple[np.ndarray, np.ndarray]:
    """Where a camera looking down at the sheet (+z) is, and how it is turned.

    Returns the unit vector from the point looked at to the camera, and the world-to-camera
    rotation (rows: image right, image down, optical axis). A rotation of 0 shows the
    sheet upright and unmirrored.
    """
    tilt = math.radians(tilt_degrees)
    lean = math.radians(tilt_direction_degrees)
    eye = np.array([math.sin(tilt) * math.cos(lean), math.sin(tilt) * math.sin(lean),
                    -math.cos(tilt)])
    forward = -eye
    right = np.cross(np.array([0.0, 1.0, 0.0]), forward)
    right /= np.linalg.norm(right)
    down = np.cross(forward, right)
    roll = math.radians(rotation_degrees)
    right, down = (math.cos(roll) * right + math.sin(roll) * down,
                   -math.sin(roll) * right + math.cos(roll) * down)
    return eye, np.stack([right, down, forward])


def camera_homography(model: BoardModel, scene: Scene) -> np.ndarray:
    """The 3x3 homography from sheet millimetres to image pixels for the scene's pose."""
    pose = scene.pose
    focal = scene.width / 2 / math.tan(math.radians(pose.field_of_view_degrees) / 2)
    camera = np.array([[focal, 0, scene.width / 2], [0, focal, scene.height / 2], [0, 0, 1]])
    # The sheet lies in z = 0 with its centre at the origin; the camera looks at it from -z.
    eye, rotation = camera_orientation(pose.tilt_degrees, pose.tilt_direction_degrees,
                                       pose.rotation_degrees)
    centre = np.array([[1, 0, -model.paper.width / 2], [0, 1, -model.paper.height / 2], [0, 0, 1]])
    outline = _printed_outline(model)

    def homography(distance: float) -> np.ndarray:
        translation = -rotation @ (eye * distance)
        extrinsic = np.column_stack([rotation[:, 0], rotation[:, 1], translation])
        matrix: np.ndarray = camera @ extrinsic @ centre
        return matrix

    distance = 1000.0
    for _ in range(3):  # the projected size is nearly inverse to distance; converge quickly
        projected = _project(homography(distance), outline)
        extent = (projected.max(axis=0) - projected.min(axis=0)).max()
        distance *= extent / (pose.fill * min(scene.width, scene.height))
    matrix = homography(distance)
    projected = _project(matrix, outline)
    low, high = projected.min(axis=0), projected.max(axis=0)
    room = np.array([scene.width, scene.height]) - (high - low)
    target = (np.array([scene.width, scene.height]) - (high - low)) / 2 + np.array(pose.shift) * (
        np.maximum(room, 0) / 2
    )
    move = target - low
    shift = np.array([[1, 0, move[0]], [0, 1, move[1]], [0, 0, 1]])
    result: np.ndarray = shift @ matrix
    normalised: np.ndarray = result / result[2, 2]
    return normalised


def _printed_outline(model: BoardModel) -> np.ndarray:
    # The markers with a quiet zone of half their side: detection needs white round them.
    corners: list[np.ndarray] = []
    for marker in model.markers().values():
        centre = np.mean(marker, axis=0)
        corners.extend(centre + (np.array(c) - centre) * 2.0 for c in marker)
    return np.array(corners, dtype=np.float64)


def _project(matrix: np.ndarray, points: np.ndarray) -> np.ndarray:
    homogeneous = np.column_stack([points, np.ones(len(points))]) @ matrix.T
    result: np.ndarray = homogeneous[:, :2] / homogeneous[:, 2:3]
    return result


def project_points(matrix: np.ndarray, points: np.ndarray) -> np.ndarray:
    """Apply a homography to an (N, 2) array of points."""
    return _project(matrix, np.asarray(points, dtype=np.float64).reshape(-1, 2))


# ------------------------------------------------------------------ drawing


@lru_cache(maxsize=8)
def _flat_sheet(size: int, paper: Paper, pixels_per_mm: float, markers: bool) -> np.ndarray:
    model = board_model(size, paper)
    shape = (round(paper.height * pixels_per_mm), round(paper.width * pixels_per_mm))
    grey = np.full(shape, 255, np.uint8)
    draw_shapes(grey, sheet_shapes(model, markers), pixels_per_mm)
    # Ink on paper: blend between the paper colour and the ink grey by the printed coverage.
    coverage = (255 - grey.astype(np.float32)) / 255
    paper_colour = np.array(PAPER_COLOUR, np.float32)
    sheet = paper_colour * (1 - coverage[..., None]) + INK_COLOUR * coverage[..., None]
    sheet = sheet.astype(np.uint8)
    sheet.setflags(write=False)
    return sheet


def _sheet_resolution(matrix: np.ndarray, model: BoardModel) -> float:
    """Sheet pixels per mm so that warping it to the image neither blurs nor aliases much."""
    cx, cy = model.paper.width / 2, model.paper.height / 2
    points = _project(matrix, np.array([[cx, cy], [cx + 10, cy], [cx, cy + 10]]))
    scale = max(np.linalg.norm(points[1] - points[0]), np.linalg.norm(points[2] - points[0])) / 10
    return float(min(8.0, max(2.0, math.ceil(scale * 1.2))))


def render(
    board: BoardReading | Position,
    scene: Scene,
    sheet: np.ndarray | None = None,
    sheet_pixels_per_mm: float | None = None,
) -> np.ndarray:
    """The BGR image the scene's camera sees of ``board``.

    ``sheet`` replaces the built-in drawing of the sheet by an image of it (e.g. the PNG
    that ``surakarta print-board`` wrote) at ``sheet_pixels_per_mm``.
    """
    model = board_model(board.size, scene.paper)
    rng = np.random.default_rng(scene.seed)
    to_image = camera_homography(model, scene)
    if sheet is None:
        pixels_per_mm = _sheet_resolution(to_image, model)
        flat = _flat_sheet(board.size, scene.paper, pixels_per_mm, scene.markers).copy()
    else:
        if sheet_pixels_per_mm is None:
            raise ValueError("sheet_pixels_per_mm is needed with a sheet image")
        pixels_per_mm = sheet_pixels_per_mm
        flat = cv2.cvtColor(sheet, cv2.COLOR_GRAY2BGR) if sheet.ndim == 2 else sheet.copy()
    _draw_pieces(flat, board, model, scene, pixels_per_mm, rng)
    from_flat = to_image @ np.diag([1 / pixels_per_mm, 1 / pixels_per_mm, 1.0])
    image = cv2.warpPerspective(
        flat, from_flat, (scene.width, scene.height), flags=cv2.INTER_LINEAR,
        borderMode=cv2.BORDER_CONSTANT, borderValue=scene.table_colour,
    )
    if scene.hand is not None:
        _draw_hand(image, scene.hand, model, to_image, rng)
    return _camera_effects(image, scene, rng)


def _draw_pieces(
    flat: np.ndarray,
    board: BoardReading | Position,
    model: BoardModel,
    scene: Scene,
    pixels_per_mm: float,
    rng: np.random.Generator,
) -> None:
    shift = 4
    one = 1 << shift
    radius = scene.disc_scale * model.disc_diameter / 2 * pixels_per_mm
    paper = np.array(PAPER_COLOUR)
    offsets = rng.uniform(0, 1, (len(model.points), 2))
    for index, point in enumerate(model.points):
        colour_of = board.piece_at(point)
        if colour_of is None:
            continue
        base = np.array(scene.piece_colours[0 if colour_of.value == "r" else 1])
        # Uniform in a disc of radius piece_offset pitches.
        distance = math.sqrt(offsets[index, 0]) * scene.piece_offset * model.pitch
        angle = offsets[index, 1] * 2 * math.pi
        x, y = model.point_mm(point)
        cx = (x + distance * math.cos(angle)) * pixels_per_mm
        cy = (y + distance * math.sin(angle)) * pixels_per_mm
        layers = (
            (0.06, 0.1, 1.0, paper * 0.55),  # the shadow the disc casts
            (0.0, 0.0, 1.0, base * 0.72),  # its side
            (-0.03, -0.05, 0.88, base),  # its top face
            (-0.35, -0.35, 0.22, base + (255 - base) * 0.3),  # gloss
        )
        for dx, dy, scale, colour in layers:
            centre = (round((cx + dx * radius) * one), round((cy + dy * radius) * one))
            cv2.circle(flat, centre, round(scale * radius * one),
                       tuple(float(c) for c in np.clip(colour, 0, 255)), -1, cv2.LINE_AA, shift)


def _draw_hand(
    image: np.ndarray,
    hand: Hand,
    model: BoardModel,
    to_image: np.ndarray,
    rng: np.random.Generator,
) -> None:
    height, width = image.shape[:2]
    tip_mm = model.grid_position(*hand.reach)
    ends = _project(to_image, np.array([tip_mm, (tip_mm[0] + model.pitch, tip_mm[1])]))
    tip = ends[0]
    pitch_px = float(np.linalg.norm(ends[1] - ends[0]))
    edge_points = {
        0: (hand.entry * width, -0.3 * height),
        1: (1.3 * width, hand.entry * height),
        2: (hand.entry * width, 1.3 * height),
        3: (-0.3 * width, hand.entry * height),
    }
    entry = np.array(edge_points[hand.edge])
    direction = tip - entry
    direction /= np.linalg.norm(direction)
    normal = np.array([-direction[1], direction[0]])
    arm_width = hand.width_pitches * pitch_px
    spread = rng.uniform(-0.15, 0.15)
    cuff = rng.uniform(0.5, 2.0) if hand.sleeve is not None else None
    skin_mask, sleeve_mask = hand_masks((height, width), entry, tip, arm_width, spread, cuff)

    hand_mask = cv2.max(skin_mask, sleeve_mask)
    # The hand is above the board: it casts a soft shadow a little to one side.
    offset = normal * 0.25 * arm_width + direction * 0.1 * arm_width
    translation = np.array([[1, 0, offset[0]], [0, 1, offset[1]]], np.float32)
    shadow = cv2.warpAffine(hand_mask, translation, (width, height))
    shadow = cv2.GaussianBlur(shadow, (0, 0), max(1.0, 0.15 * arm_width))
    shade = 1 - 0.45 * shadow.astype(np.float32) / 255
    image[:] = np.clip(image * shade[..., None], 0, 255).astype(np.uint8)

    # Skin is not flat colour: shade it across the arm, brighter along its middle.
    xs = np.arange(width, dtype=np.float32)[None, :] - np.float32(tip[0])
    ys = np.arange(height, dtype=np.float32)[:, None] - np.float32(tip[1])
    across = np.abs(xs * np.float32(normal[0]) + ys * np.float32(normal[1]))
    relief = (1.05 - 0.35 * np.clip(across / (0.8 * arm_width), 0, 1) ** 2).astype(np.float32)
    for mask, colour in ((skin_mask, hand.skin), (sleeve_mask, hand.sleeve)):
        if colour is None:
            continue
        alpha = mask.astype(np.float32)[..., None] / 255
        painted = np.array(colour, np.float32) * relief[..., None]
        image[:] = np.clip(image * (1 - alpha) + painted * alpha, 0, 255).astype(np.uint8)


def hand_masks(
    shape: tuple[int, int],
    entry: np.ndarray,
    tip: np.ndarray,
    arm_width: float,
    spread: float,
    cuff: float | None,
) -> tuple[np.ndarray, np.ndarray]:
    """Skin and sleeve masks (uint8, 0..255) of an arm from ``entry`` to the fingertips at ``tip``.

    Coordinates and ``arm_width`` are in pixels of ``shape`` (rows, columns); ``spread``
    fans the fingers (-0.15..0.15); ``cuff`` is the bare forearm's length in arm widths
    behind the wrist, or None for a bare arm.
    """
    direction = tip - entry
    direction /= np.linalg.norm(direction)
    normal = np.array([-direction[1], direction[0]])
    finger_length = 0.9 * arm_width
    palm_centre = tip - direction * (finger_length + 0.45 * arm_width)
    wrist = palm_centre - direction * 0.5 * arm_width

    skin_mask = np.zeros(shape, np.uint8)
    sleeve_mask = np.zeros(shape, np.uint8)

    def pt(v: np.ndarray) -> tuple[int, int]:
        return round(float(v[0]) * 16), round(float(v[1]) * 16)

    cv2.line(skin_mask, pt(entry), pt(wrist), 255, max(1, round(arm_width)), cv2.LINE_AA, 4)
    angle = math.degrees(math.atan2(direction[1], direction[0]))
    axes = (round(0.6 * arm_width * 16), round(0.62 * arm_width * 16))
    cv2.ellipse(skin_mask, pt(palm_centre), axes, angle, 0, 360, 255, -1, cv2.LINE_AA, 4)
    finger_width = max(1, round(0.24 * arm_width))
    for k in range(4):
        sideways = (k - 1.5) * 0.27 * arm_width
        base = palm_centre + direction * 0.45 * arm_width + normal * sideways
        bend = direction + normal * (spread + (k - 1.5) * 0.08)
        length = finger_length * (0.85 if k in (0, 3) else 1.0)
        end = base + bend / np.linalg.norm(bend) * length
        cv2.line(skin_mask, pt(base), pt(end), 255, finger_width, cv2.LINE_AA, 4)
    thumb_base = palm_centre + normal * 0.5 * arm_width
    thumb_end = thumb_base + (direction * 0.6 + normal * 0.6) * 0.7 * arm_width
    cv2.line(skin_mask, pt(thumb_base), pt(thumb_end), 255, finger_width + 2, cv2.LINE_AA, 4)
    if cuff is not None:
        cv2.line(sleeve_mask, pt(entry), pt(wrist - direction * cuff * arm_width), 255,
                 max(1, round(arm_width * 1.15)), cv2.LINE_AA, 4)
    return skin_mask, sleeve_mask


def _light_field(scene: Scene) -> np.ndarray:
    """Light per pixel and channel, computed small (light is smooth) and scaled up."""
    light = scene.lighting
    small_w, small_h = scene.width // 8 + 1, scene.height // 8 + 1
    ys, xs = np.mgrid[0:small_h, 0:small_w].astype(np.float32)
    u, v = xs / (small_w - 1), ys / (small_h - 1)
    angle = math.radians(light.gradient_direction_degrees)
    along = (u - 0.5) * math.cos(angle) + (v - 0.5) * math.sin(angle)
    field: np.ndarray = light.brightness * (1 + light.gradient * along)
    spot_distance = (u - light.spot_centre[0]) ** 2 + (v - light.spot_centre[1]) ** 2
    field = field * (1 + light.spot * np.exp(-spot_distance / 0.05))
    field = field * (1 - light.vignetting * ((u - 0.5) ** 2 + (v - 0.5) ** 2) * 2)
    for shadow in light.shadows:
        polygon = np.zeros((small_h, small_w), np.float32)
        outline = np.array([[x * (small_w - 1), y * (small_h - 1)] for x, y in shadow.polygon])
        cv2.fillPoly(polygon, [np.round(outline * 16).astype(np.int32)], 1.0, cv2.LINE_AA, 4)
        sigma = max(0.5, shadow.softness * small_w)
        soft = cv2.GaussianBlur(polygon, (0, 0), sigma)
        field = field * (1 - (1 - shadow.darkness) * soft)
    coloured = field[..., None] * np.array(light.tint, np.float32)
    full: np.ndarray = cv2.resize(coloured.astype(np.float32), (scene.width, scene.height),
                                  interpolation=cv2.INTER_LINEAR)
    return full


def _camera_effects(image: np.ndarray, scene: Scene, rng: np.random.Generator) -> np.ndarray:
    lit: np.ndarray = cv2.multiply(image.astype(np.float32), _light_field(scene))
    if scene.blur > 0.3:
        lit = cv2.GaussianBlur(lit, (0, 0), scene.blur)
    if scene.noise > 0:
        # OpenCV's generator is about three times faster than numpy's for a whole frame;
        # seeding it from ``rng`` keeps frames reproducible.
        noise = np.empty(lit.shape, np.float32)
        cv2.setRNGSeed(int(rng.integers(0, 2**31 - 1)))
        cv2.randn(noise, np.zeros(1), np.full(1, float(scene.noise)))
        lit += noise
    result: np.ndarray = np.clip(lit, 0, 255).astype(np.uint8)
    if scene.jpeg_quality is not None:
        ok, encoded = cv2.imencode(".jpg", result, [cv2.IMWRITE_JPEG_QUALITY, scene.jpeg_quality])
        if ok:
            result = np.asarray(cv2.imdecode(encoded, cv2.IMREAD_COLOR))
    return result


def point_pixels(board_size: int, scene: Scene) -> dict[int, tuple[float, float]]:
    """Where each point's centre lands in the image (for tests and debugging)."""
    model = board_model(board_size, scene.paper)
    matrix = camera_homography(model, scene)
    centres = project_points(matrix, np.array([model.point_mm(p) for p in model.points]))
    return {p: (float(x), float(y)) for p, (x, y) in zip(model.points, centres, strict=True)}
