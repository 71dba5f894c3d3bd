"""A physically modelled camera in a real room: what it sees of the board and its pieces.

The flat renderer (:mod:`vision.render`) draws discs on a flat sheet and warps it once;
that cannot show what real rooms do to the vision. This one models the room:

- a pinhole camera with OpenCV-style radial distortion (k1, k2), any tilt up to 45
  degrees, any rotation, at the distance where the printed square fills a chosen share
  of the image;
- solid pieces (bevelled cylinders, or domes for pebbles and shells) a few millimetres
  tall, found by casting a ray per pixel (only over each piece's projected bounding
  box) and kept in depth order, so a tilted camera sees their sides and their tops off
  their points;
- lamps, windows and spots with a colour temperature, falling off with distance, plus
  bounced ambient light; Lambertian shading with a Blinn-Phong highlight per material;
- cast shadows of every piece and of a hand held above the board, softened by the size
  of each light;
- a sensor: auto exposure and white balance (with drift), vignetting, lens and motion
  blur, shot and read noise, the sRGB-like encoding, JPEG.

The camera (lens, pose, sensor) is in :mod:`vision.room_camera`. Light is computed in
linear units and encoded at the end, like a camera does. An image
is a pure function of (board, :class:`~vision.room_scene.RoomScene`); every random
choice of a frame comes from the scene's seed.

Coordinates: sheet millimetres x (right), y (down as printed) and z = minus the height
above the table, a right-handed frame in which the camera sits at negative z.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from functools import lru_cache

import cv2
import numpy as np

from controller.geometry import Point
from controller.position import Color, Position
from controller.reading import BoardReading
from vision.board_model import BoardModel, Paper, board_model
from vision.render import INK_COLOUR, PAPER_COLOUR, hand_masks
from vision.room_camera import (
    CameraGeometry,
    camera_geometry,
    develop,
    kelvin_to_bgr,
    linear_colour,
    sheet_pixels,
)
from vision.room_conditions import CONDITIONS, next_frame, random_room_scene
from vision.room_scene import (
    PAPER,
    SKIN,
    Light,
    LightKind,
    Material,
    Pattern,
    PieceKind,
    RoomScene,
    Shape,
)
from vision.sheet import draw_shapes, sheet_shapes

SHEET_PIXELS_PER_MM = 4.0
"""Resolution of the printed sheet's texture (about twice the image's at 640x480)."""
SHADOW_PIXELS_PER_MM = 2.0
"""Resolution of the pieces' shadows on the sheet."""
HAND_PIXELS_PER_MM = 1.0
"""Resolution of the hand above the board."""
HAND_SHADOW_PIXELS_PER_MM = 0.5
"""Resolution of the hand's shadow (it is soft: the hand is far above the table)."""
FOOTPRINT_MARGIN_MM = 250.0
"""How far past the sheet the table is modelled (beyond it light and shadow are uniform)."""

__all__ = ["CONDITIONS", "RoomScene", "next_frame", "piece_positions", "random_room_scene",
           "render_room", "sheet_pixels"]


# ------------------------------------------------------------------ the world's surfaces


@dataclass
class _Surfaces:
    """What each pixel's ray hits first: the G-buffer the shading works on."""

    depth: np.ndarray
    """(h, w) distance along the ray, mm."""
    position: np.ndarray
    """(3, h, w) the point hit."""
    normal: np.ndarray
    """(3, h, w) the surface normal there (unit, towards the camera's side)."""
    albedo: np.ndarray
    """(3, h, w) linear reflectance, blue, green and red planes."""
    specular: np.ndarray
    """(h, w) strength of the highlight."""
    shininess: np.ndarray
    """(h, w) Blinn-Phong exponent."""
    kind: np.ndarray
    """(h, w) 0 paper or table, 1 piece, 2 hand."""
    on_sheet: np.ndarray
    """(h, w) whether the pixel shows bare sheet (for auto exposure)."""

    def write(self, rows: slice, cols: slice, hit: np.ndarray, depth: np.ndarray,
              position: np.ndarray, normal: np.ndarray, albedo: np.ndarray,
              material: Material, kind: int) -> None:
        """Keep the hits of a window of pixels that are nearer than what is there already.

        ``position``, ``normal`` and ``albedo`` are planes: (3, rows, cols).
        """
        view = self.depth[rows, cols]
        nearer = hit & (depth < view)
        if not nearer.any():
            return
        view[nearer] = depth[nearer]
        self.position[:, rows, cols][:, nearer] = position[:, nearer]
        self.normal[:, rows, cols][:, nearer] = normal[:, nearer]
        self.albedo[:, rows, cols][:, nearer] = albedo[:, nearer]
        self.specular[rows, cols][nearer] = material.specular
        self.shininess[rows, cols][nearer] = material.shininess
        self.kind[rows, cols][nearer] = kind
        self.on_sheet[rows, cols][nearer] = False


@lru_cache(maxsize=4)
def _ink_coverage(size: int, paper: Paper) -> np.ndarray:
    """Share of each texel of the sheet covered by ink, at :data:`SHEET_PIXELS_PER_MM`."""
    model = board_model(size, paper)
    shape = (round(paper.height * SHEET_PIXELS_PER_MM), round(paper.width * SHEET_PIXELS_PER_MM))
    grey = np.full(shape, 255, np.uint8)
    draw_shapes(grey, sheet_shapes(model), SHEET_PIXELS_PER_MM)
    coverage = (255 - grey.astype(np.float32)) / 255
    coverage.setflags(write=False)
    return coverage


def _plane_hits(geometry: CameraGeometry, height_mm: float) -> tuple[np.ndarray, np.ndarray]:
    """Distance along each pixel's ray to the plane ``height_mm`` above the table, and the hit
    points (3, h, w); rays that never meet it are sent far away."""
    rays = geometry.rays
    centre = geometry.centre.astype(np.float32)
    depth = (np.float32(-height_mm) - centre[2]) / np.maximum(rays[2], np.float32(1e-4))
    position = centre[:, None, None] + rays * depth
    return depth, position


def _paper_surfaces(scene: RoomScene, model: BoardModel, geometry: CameraGeometry) -> _Surfaces:
    # Rays at or above the horizon never meet the table: send them far away instead.
    depth, position = _plane_hits(geometry, 0.0)
    x, y = position[0], position[1]
    coverage = cv2.remap(_ink_coverage(model.size, model.paper),
                         x * np.float32(SHEET_PIXELS_PER_MM), y * np.float32(SHEET_PIXELS_PER_MM),
                         cv2.INTER_LINEAR, borderMode=cv2.BORDER_CONSTANT, borderValue=0)
    on_sheet = (x >= 0) & (x <= model.paper.width) & (y >= 0) & (y <= model.paper.height)
    paper, ink, table = (linear_colour(c)[:, None, None]
                         for c in (PAPER_COLOUR, (INK_COLOUR,) * 3, scene.table_colour))
    printed = paper + (ink - paper) * coverage
    albedo = np.where(on_sheet, printed, table).astype(np.float32)
    normal = np.zeros_like(position)
    normal[2] = -1
    shape = depth.shape
    return _Surfaces(
        depth=depth, position=position, normal=normal, albedo=albedo,
        specular=np.full(shape, PAPER.specular, np.float32),
        shininess=np.full(shape, PAPER.shininess, np.float32),
        kind=np.zeros(shape, np.uint8), on_sheet=on_sheet,
    )


# ------------------------------------------------------------------ pieces


@dataclass(frozen=True, slots=True)
class _Piece:
    centre: tuple[float, float]
    radius: float
    height: float
    turn: float
    kind: PieceKind


@dataclass(frozen=True, slots=True)
class _FrameRandom:
    """Every per-frame random draw, in a fixed order from the scene's seed."""

    offsets: np.ndarray
    turns: np.ndarray
    finger_spread: float
    cuff: float
    noise_seed: int


def _frame_random(scene: RoomScene, point_count: int) -> _FrameRandom:
    layout = np.random.default_rng(scene.layout_seed)
    rng = np.random.default_rng(scene.seed)
    return _FrameRandom(
        offsets=layout.uniform(0, 1, (point_count, 2)),
        turns=layout.uniform(0, 2 * math.pi, point_count),
        finger_spread=float(rng.uniform(-0.15, 0.15)),
        cuff=float(rng.uniform(0.5, 2.0)),
        noise_seed=int(rng.integers(0, 2**31 - 1)),
    )


def piece_positions(
    board: BoardReading | Position, scene: RoomScene
) -> dict[Point, tuple[float, float]]:
    """Where each piece of ``board`` actually stands in the scene: its centre, sheet mm."""
    model = board_model(board.size, scene.paper)
    random = _frame_random(scene, len(model.points))
    positions = {}
    for index, point in enumerate(model.points):
        if board.piece_at(point) is None:
            continue
        # Uniform in a disc of radius piece_offset pitches.
        distance = math.sqrt(random.offsets[index, 0]) * scene.piece_offset * model.pitch
        angle = random.offsets[index, 1] * 2 * math.pi
        x, y = model.point_mm(point)
        positions[point] = (x + distance * math.cos(angle), y + distance * math.sin(angle))
    return positions


def _pieces(board: BoardReading | Position, scene: RoomScene, model: BoardModel,
            random: _FrameRandom) -> list[_Piece]:
    radius = scene.piece_scale * model.disc_diameter / 2
    pieces = []
    for point, centre in piece_positions(board, scene).items():
        kind = scene.pieces.red if board.piece_at(point) is Color.RED else scene.pieces.black
        pieces.append(_Piece(centre, radius, scene.piece_height_mm,
                             float(random.turns[model.points.index(point)]), kind))
    return pieces


def _rings(piece: _Piece, bevel: float) -> tuple[tuple[float, float], ...]:
    """(height, radius) rings whose hull is the solid, for shadows and bounding boxes."""
    h, r = piece.height, piece.radius
    if piece.kind.shape is Shape.DOME:
        return ((0.0, r * 1.05), (0.5 * h, 0.87 * r), (0.87 * h, 0.5 * r), (h, 0.05 * r))
    return ((0.0, r), (h - bevel, r), (h, r - bevel))


def _circle(centre: tuple[float, float], radius: float, count: int = 24) -> np.ndarray:
    result: np.ndarray = _unit_circle(count) * radius + centre
    return result


@lru_cache(maxsize=4)
def _unit_circle(count: int) -> np.ndarray:
    angles = np.linspace(0, 2 * math.pi, count, endpoint=False)
    circle = np.column_stack([np.cos(angles), np.sin(angles)])
    circle.setflags(write=False)
    return circle


def _cast_piece(surfaces: _Surfaces, geometry: CameraGeometry, piece: _Piece,
                bevel: float) -> None:
    outline = np.vstack([
        np.column_stack([_circle(piece.centre, r, 16), np.full(16, -z)])
        for z, r in _rings(piece, bevel)
    ])
    pixels = geometry.project(outline)
    height, width = surfaces.depth.shape
    x0, y0 = np.floor(pixels.min(axis=0)).astype(int) - 2
    x1, y1 = np.ceil(pixels.max(axis=0)).astype(int) + 3
    x0, y0, x1, y1 = max(x0, 0), max(y0, 0), min(x1, width), min(y1, height)
    if x0 >= x1 or y0 >= y1:
        return
    rows, cols = slice(y0, y1), slice(x0, x1)
    rays = np.moveaxis(geometry.rays[:, rows, cols], 0, -1).astype(np.float64)
    origin = geometry.centre - np.array([piece.centre[0], piece.centre[1], 0.0])
    if piece.kind.shape is Shape.DOME:
        hit, depth, normal = _hit_dome(origin, rays, piece)
    else:
        hit, depth, normal = _hit_cylinder(origin, rays, piece, bevel)
    local = origin + rays * depth[..., None]
    position = local + np.array([piece.centre[0], piece.centre[1], 0.0])
    albedo = _piece_albedo(piece, local, normal)
    surfaces.write(rows, cols, hit, depth.astype(np.float32), _planes(position),
                   _planes(normal), _planes(albedo), piece.kind.material, 1)


def _planes(triples: np.ndarray) -> np.ndarray:
    result: np.ndarray = np.moveaxis(triples, -1, 0).astype(np.float32)
    return result


def _hit_cylinder(origin: np.ndarray, rays: np.ndarray, piece: _Piece,
                  bevel: float) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    # The solid is an infinite cylinder cut by the slab between the table and the top:
    # a ray enters it at the later of the two entries and must do so before either exit.
    r, h = piece.radius, piece.height
    dx, dy, dz = rays[..., 0], rays[..., 1], rays[..., 2]
    a = dx * dx + dy * dy
    b = 2 * (origin[0] * dx + origin[1] * dy)
    c = origin[0] ** 2 + origin[1] ** 2 - r * r
    discriminant = b * b - 4 * a * c
    root = np.sqrt(np.maximum(discriminant, 0))
    a_safe = np.maximum(a, 1e-12)
    side_in, side_out = (-b - root) / (2 * a_safe), (-b + root) / (2 * a_safe)
    top = (-h - origin[2]) / dz
    table = -origin[2] / dz
    entry = np.maximum(side_in, top)
    hit = (discriminant > 0) & (entry < np.minimum(side_out, table))
    point = origin + rays * entry[..., None]
    radial = np.hypot(point[..., 0], point[..., 1])
    outward = point[..., :2] / np.maximum(radial, 1e-9)[..., None]
    on_top = top >= side_in
    # The bevel: the top's normal leans outwards over its outer ``bevel`` millimetres.
    lean = np.where(on_top, np.clip((radial - (r - bevel)) / max(bevel, 1e-6), 0, 1), 1.0)
    lean_angle = lean * (math.pi / 4) + (~on_top) * (math.pi / 4)
    normal = np.concatenate([outward * np.sin(lean_angle)[..., None],
                             -np.cos(lean_angle)[..., None]], axis=-1)
    return hit, entry, normal


def _hit_dome(origin: np.ndarray, rays: np.ndarray,
              piece: _Piece) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    r, h = piece.radius, piece.height
    hit, entry, point = _hit_ellipsoid(origin, rays, np.full(rays.shape[:-1], r), h)
    if piece.kind.pattern is Pattern.RIDGES:
        # A shell's edge is scalloped: each ray meets the dome of the radius its own
        # direction round the piece has (taken where it meets the plain dome, or would).
        angle = np.arctan2(point[..., 1], point[..., 0]) + piece.turn
        edge = r * (1 + 0.05 * np.sin(5 * angle))
        hit, entry, point = _hit_ellipsoid(origin, rays, edge, h)
    else:
        edge = np.full(rays.shape[:-1], r)
    normal = point / np.stack([edge * edge, edge * edge, np.full_like(edge, h * h)], axis=-1)
    normal /= np.maximum(np.linalg.norm(normal, axis=-1, keepdims=True), 1e-12)
    return hit, entry, normal


def _hit_ellipsoid(origin: np.ndarray, rays: np.ndarray, radius: np.ndarray, height: float
                   ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Where each ray enters the upper half of an ellipsoid of its own ``radius`` (per ray)
    and ``height``: whether it does, the distance along it, and the point (near misses give
    the nearest approach, for the scalloped edge's angle)."""
    scale = np.stack([radius, radius, np.full_like(radius, height)], axis=-1)
    o, d = origin / scale, rays / scale
    a = np.sum(d * d, axis=-1)
    b = 2 * np.sum(o * d, axis=-1)
    c = np.sum(o * o, axis=-1) - 1
    discriminant = b * b - 4 * a * c
    entry = (-b - np.sqrt(np.maximum(discriminant, 0))) / (2 * a)
    point = origin + rays * entry[..., None]
    hit = (discriminant > 0) & (point[..., 2] <= 0)
    return hit, entry, point


def _piece_albedo(piece: _Piece, local: np.ndarray, normal: np.ndarray) -> np.ndarray:
    kind = piece.kind
    cos_t, sin_t = math.cos(piece.turn), math.sin(piece.turn)
    u = local[..., 0] * cos_t + local[..., 1] * sin_t
    v = -local[..., 0] * sin_t + local[..., 1] * cos_t
    rho = np.hypot(u, v) / piece.radius
    on_top = normal[..., 2] < -0.95
    pattern = kind.pattern
    if pattern is Pattern.WOOD:
        grain = 0.5 + 0.5 * np.sin((v + 1.5 * np.sin(u * 0.3 + piece.turn)) * 2.4)
        accent = 0.5 * grain**3
    elif pattern is Pattern.RIDGES:
        accent = 0.35 * (0.5 + 0.5 * np.cos(np.arctan2(v, u) * 16)) * np.clip(rho, 0, 1)
    elif pattern is Pattern.SPECKLES:
        cell = np.sin(np.floor(u * 1.5) * 12.9898 + np.floor(v * 1.5) * 78.233 + piece.turn)
        accent = np.where((cell * 43758.5453) % 1.0 > 0.8, 0.8, 0.0)
    elif pattern is Pattern.EMBLEM:
        accent = (on_top & ((np.abs(rho - 0.55) < 0.07) | (rho < 0.15))).astype(np.float64)
    elif pattern is Pattern.RIM:
        accent = (on_top & (rho > 0.7)).astype(np.float64)
    else:
        accent = np.zeros_like(rho)
    weight = accent[..., None].astype(np.float32)
    body, accent_colour = linear_colour(kind.colour), linear_colour(kind.accent)
    result: np.ndarray = body * (1 - weight) + accent_colour * weight
    return result


# ------------------------------------------------------------------ the hand


@dataclass(frozen=True)
class _HandLayer:
    """A hand drawn on its plane above the table, on the table-wide raster."""

    mask: np.ndarray
    """(rows, cols) float32 0..1 skin or sleeve."""
    sleeve: np.ndarray
    """(rows, cols) float32 0..1 sleeve."""
    tip: np.ndarray
    """Fingertips, mm."""
    direction: np.ndarray
    """Unit vector along the arm towards the fingertips."""
    arm_width: float
    """mm."""


def _raster_origin(paper: Paper) -> tuple[np.ndarray, tuple[int, int]]:
    """Top-left corner (mm) and (rows, cols) of the table-wide raster of hands and shadows."""
    origin = np.array([-FOOTPRINT_MARGIN_MM, -FOOTPRINT_MARGIN_MM])
    cols = round((paper.width + 2 * FOOTPRINT_MARGIN_MM) * HAND_PIXELS_PER_MM)
    rows = round((paper.height + 2 * FOOTPRINT_MARGIN_MM) * HAND_PIXELS_PER_MM)
    return origin, (rows, cols)


def _hand_layer(scene: RoomScene, model: BoardModel, geometry: CameraGeometry,
                random: _FrameRandom) -> _HandLayer | None:
    """The scene's hand drawn on its plane, or None without a hand."""
    if scene.hand is None:
        return None
    hand = scene.hand.outline
    lift = scene.hand.lift_mm
    width, height = scene.camera.width, scene.camera.height
    # The fingertips are where the camera sees them over the point reached for: on the
    # line from the camera to that point, at the hand's height.
    reach = np.array([*model.grid_position(*hand.reach), 0.0])
    along = (-lift - geometry.centre[2]) / (reach[2] - geometry.centre[2])
    tip = (geometry.centre + (reach - geometry.centre) * along)[:2]
    edge_pixel = {0: (hand.entry * width, 0), 1: (width - 1, hand.entry * height),
                  2: (hand.entry * width, height - 1), 3: (0, hand.entry * height)}[hand.edge]
    ray = geometry.rays[:, min(round(edge_pixel[1]), height - 1),
                        min(round(edge_pixel[0]), width - 1)]
    at_edge = geometry.centre + ray * (-lift - geometry.centre[2]) / max(float(ray[2]), 1e-4)
    # The arm comes from well beyond the image edge, through the point the edge shows.
    outwards = at_edge[:2] - tip
    direction_out = outwards / max(float(np.linalg.norm(outwards)), 1e-6)
    entry = at_edge[:2] + direction_out * 400.0
    origin, shape = _raster_origin(model.paper)
    arm_width = hand.width_pitches * model.pitch
    skin, sleeve = hand_masks(shape, (entry - origin) * HAND_PIXELS_PER_MM,
                              (tip - origin) * HAND_PIXELS_PER_MM, arm_width * HAND_PIXELS_PER_MM,
                              random.finger_spread, random.cuff if hand.sleeve else None)
    mask = cv2.max(skin, sleeve).astype(np.float32) / 255
    return _HandLayer(mask, sleeve.astype(np.float32) / 255, tip, -direction_out, arm_width)


def _draw_hand_layer(surfaces: _Surfaces, scene: RoomScene, geometry: CameraGeometry,
                     layer: _HandLayer) -> None:
    """Put the hand in front of everything it covers in the picture."""
    assert scene.hand is not None
    lift = scene.hand.lift_mm
    depth, position = _plane_hits(geometry, lift)
    origin, _ = _raster_origin(scene.paper)
    map_x = (position[0] - np.float32(origin[0])) * np.float32(HAND_PIXELS_PER_MM)
    map_y = (position[1] - np.float32(origin[1])) * np.float32(HAND_PIXELS_PER_MM)
    cover = cv2.remap(layer.mask, map_x, map_y, cv2.INTER_LINEAR)
    sleeve = cv2.remap(layer.sleeve, map_x, map_y, cv2.INTER_LINEAR)
    hit = (cover > 0.5) & (depth > 0)
    # The arm is round: its normal turns sideways towards its edges.
    side = np.array([-layer.direction[1], layer.direction[0]], np.float32)
    across = ((position[0] - np.float32(layer.tip[0])) * side[0]
              + (position[1] - np.float32(layer.tip[1])) * side[1]) / np.float32(
                  0.6 * layer.arm_width)
    lean = np.clip(across, -0.95, 0.95) * np.float32(0.8)
    normal = np.stack([side[0] * lean, side[1] * lean, -np.sqrt(1 - lean * lean)])
    outline = scene.hand.outline
    sleeve_colour = outline.sleeve if outline.sleeve is not None else outline.skin
    albedo = np.where(sleeve > 0.5, linear_colour(sleeve_colour)[:, None, None],
                      linear_colour(outline.skin)[:, None, None]).astype(np.float32)
    rows_hit, cols_hit = np.flatnonzero(hit.any(axis=1)), np.flatnonzero(hit.any(axis=0))
    if len(rows_hit) == 0:
        return
    rows = slice(rows_hit[0], rows_hit[-1] + 1)
    cols = slice(cols_hit[0], cols_hit[-1] + 1)
    surfaces.write(rows, cols, hit[rows, cols], depth[rows, cols], position[:, rows, cols],
                   normal[:, rows, cols], albedo[:, rows, cols], SKIN, 2)


# ------------------------------------------------------------------ light and shadow


def _light_xyz(light: Light) -> np.ndarray:
    x, y, height = light.position
    return np.array([x, y, -height])


def _piece_shadows(pieces: list[_Piece], light: Light, paper: Paper, bevel: float) -> np.ndarray:
    """Share of ``light`` the pieces block on each texel of the sheet (soft-edged)."""
    shape = (round(paper.height * SHADOW_PIXELS_PER_MM), round(paper.width * SHADOW_PIXELS_PER_MM))
    blocked = np.zeros(shape, np.float32)
    if not pieces:
        return blocked
    lamp = np.array(light.position[:2])
    lamp_height = light.position[2]
    for piece in pieces:
        # The shadow of a convex solid on the table is the hull of its rings' shadows.
        outline = np.vstack([
            lamp + (_circle(piece.centre, r) - lamp) * lamp_height / (lamp_height - z)
            for z, r in _rings(piece, bevel)
        ])
        hull = cv2.convexHull(np.round(outline * SHADOW_PIXELS_PER_MM * 16).astype(np.int32))
        cv2.fillConvexPoly(blocked, hull, 1.0, cv2.LINE_AA, 4)
    height = pieces[0].height
    # A light of some size makes a penumbra as wide as it looks from the top of a piece.
    penumbra_mm = height * light.radius_mm / max(lamp_height - height, 1.0)
    sigma = max(0.5, penumbra_mm / 2 * SHADOW_PIXELS_PER_MM)
    result: np.ndarray = cv2.GaussianBlur(blocked, (0, 0), sigma)
    return result


def _contact_occlusion(pieces: list[_Piece], paper: Paper) -> np.ndarray:
    """Share of the bounced light the pieces hide from the paper right round them."""
    shape = (round(paper.height * SHADOW_PIXELS_PER_MM), round(paper.width * SHADOW_PIXELS_PER_MM))
    bases = np.zeros(shape, np.float32)
    for piece in pieces:
        centre = tuple(round(c * SHADOW_PIXELS_PER_MM * 16) for c in piece.centre)
        radius = round(piece.radius * 1.1 * SHADOW_PIXELS_PER_MM * 16)
        cv2.circle(bases, (centre[0], centre[1]), radius, 0.6, -1, cv2.LINE_AA, 4)
    if not pieces:
        return bases
    sigma = 0.3 * pieces[0].radius * SHADOW_PIXELS_PER_MM
    result: np.ndarray = cv2.GaussianBlur(bases, (0, 0), sigma)
    return result


def _hand_shadow(layer: _HandLayer, light: Light, lift: float, paper: Paper) -> np.ndarray:
    """Share of ``light`` the hand blocks on the table-wide raster."""
    lamp_height = light.position[2]
    if lamp_height <= lift:
        return np.zeros_like(layer.mask)
    # Seen from the lamp, the hand's plane maps onto the table by a scaling round the
    # lamp's foot: a table point p is shadowed by the hand point a p + b.
    a = 1 - lift / lamp_height
    b = np.array(light.position[:2]) * lift / lamp_height
    origin, (rows, cols) = _raster_origin(paper)
    offset = (a * origin + b - origin) * HAND_PIXELS_PER_MM
    # The shadow raster is coarser than the hand's by ``step``.
    step = HAND_PIXELS_PER_MM / HAND_SHADOW_PIXELS_PER_MM
    to_hand = np.array([[a * step, 0, offset[0]], [0, a * step, offset[1]]], np.float32)
    shadow = cv2.warpAffine(layer.mask, to_hand, (round(cols / step), round(rows / step)),
                            flags=cv2.INTER_LINEAR | cv2.WARP_INVERSE_MAP)
    penumbra_mm = lift * light.radius_mm / (lamp_height - lift)
    result: np.ndarray = cv2.GaussianBlur(shadow, (0, 0),
                                          max(0.7, penumbra_mm / 2 * HAND_SHADOW_PIXELS_PER_MM))
    return result


def _shade(surfaces: _Surfaces, scene: RoomScene, geometry: CameraGeometry,
           pieces: list[_Piece], layer: _HandLayer | None) -> np.ndarray:
    """Linear radiance of every pixel, (3, h, w)."""
    position, normal = surfaces.position, surfaces.normal
    sheet_x = position[0] * np.float32(SHADOW_PIXELS_PER_MM)
    sheet_y = position[1] * np.float32(SHADOW_PIXELS_PER_MM)
    origin, _ = _raster_origin(scene.paper)
    table_x = (position[0] - np.float32(origin[0])) * np.float32(HAND_SHADOW_PIXELS_PER_MM)
    table_y = (position[1] - np.float32(origin[1])) * np.float32(HAND_SHADOW_PIXELS_PER_MM)
    on_paper = surfaces.kind == 0
    not_hand = surfaces.kind != 2
    # Paper has one small, dull highlight; only pieces and hands need their own exponent.
    glossy = ~on_paper

    def sample(raster: np.ndarray, map_x: np.ndarray, map_y: np.ndarray) -> np.ndarray:
        return cv2.remap(raster, map_x, map_y, cv2.INTER_LINEAR,
                         borderMode=cv2.BORDER_CONSTANT, borderValue=0)

    diffuse = np.zeros_like(position)
    specular = np.zeros_like(position)
    middle = np.array([scene.paper.width / 2, scene.paper.height / 2, 0.0])
    for light in scene.lights:
        lamp = _light_xyz(light)
        to_light = lamp.astype(np.float32)[:, None, None] - position
        distance_squared = np.einsum("ijk,ijk->jk", to_light, to_light)
        direction = to_light / np.sqrt(distance_squared)
        strength = np.float32(light.power * float(np.sum((lamp - middle) ** 2))) / distance_squared
        if light.kind is LightKind.SPOT:
            axis = np.array([light.aim[0], light.aim[1], 0.0]) - lamp
            axis = (axis / np.linalg.norm(axis)).astype(np.float32)
            along = -np.einsum("ijk,i->jk", direction, axis)
            inner = math.cos(math.radians(light.cone_degrees * 0.7))
            outer = math.cos(math.radians(light.cone_degrees * 1.2))
            cone = np.clip((along - np.float32(outer)) / np.float32(inner - outer), 0, 1)
            strength *= cone * cone
        blocked = sample(_piece_shadows(pieces, light, scene.paper, scene.bevel_mm),
                         sheet_x, sheet_y)
        lit = strength * (1 - np.where(on_paper, blocked, 0))
        if layer is not None and scene.hand is not None:
            hand = sample(_hand_shadow(layer, light, scene.hand.lift_mm, scene.paper),
                          table_x, table_y)
            lit *= 1 - np.where(not_hand, hand, 0)
        facing = np.maximum(np.einsum("ijk,ijk->jk", normal, direction), 0)
        colour = kelvin_to_bgr(light.kelvin).astype(np.float32)[:, None, None]
        diffuse += lit * facing * colour
        halfway = direction - geometry.rays
        halfway /= np.sqrt(np.einsum("ijk,ijk->jk", halfway, halfway))
        alignment = np.clip(np.einsum("ijk,ijk->jk", normal, halfway), 0, 1)
        gloss = alignment**np.float32(PAPER.shininess)
        gloss[glossy] = alignment[glossy] ** surfaces.shininess[glossy]
        specular += lit * (facing > 0) * surfaces.specular * gloss * colour
    ambient_level = scene.ambient * sum(light.power for light in scene.lights)
    occlusion = np.where(on_paper, sample(_contact_occlusion(pieces, scene.paper),
                                          sheet_x, sheet_y), 0)
    ambient = (np.float32(ambient_level) * (1 - occlusion)
               * kelvin_to_bgr(scene.ambient_kelvin).astype(np.float32)[:, None, None])
    radiance: np.ndarray = surfaces.albedo * (diffuse + ambient) + specular
    return radiance


# ------------------------------------------------------------------ the frame


def render_room(board: BoardReading | Position, scene: RoomScene) -> np.ndarray:
    """The BGR uint8 image the scene's camera takes of ``board`` in the scene's room."""
    model = board_model(board.size, scene.paper)
    geometry = camera_geometry(scene.camera, board.size, scene.paper)
    random = _frame_random(scene, len(model.points))
    surfaces = _paper_surfaces(scene, model, geometry)
    pieces = _pieces(board, scene, model, random)
    for piece in pieces:
        _cast_piece(surfaces, geometry, piece, scene.bevel_mm)
    layer = _hand_layer(scene, model, geometry, random)
    if layer is not None:
        _draw_hand_layer(surfaces, scene, geometry, layer)
    radiance = cv2.merge(list(_shade(surfaces, scene, geometry, pieces, layer)))
    return develop(radiance, surfaces.on_sheet, scene.sensor, random.noise_seed)
