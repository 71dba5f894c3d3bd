"""The room renderer's camera: lens, pose and sensor.

- The lens is a pinhole with OpenCV-style radial distortion (k1, k2); its focal length
  gives the horizontal field of view with the distortion included.
- The pose looks at the sheet from any tilt and direction, rotated in the image, at the
  distance where the printed square (markers included) spans ``fill`` of the shorter
  image side, aimed so the square sits ``shift`` of the way to the image edges.
- The sensor develops linear light: auto exposure (the paper at a target level) and
  white balance (grey world or fixed daylight), each with a frame's drift, vignetting,
  lens and motion blur, shot and read noise, the encoding, JPEG.

Coordinates: sheet millimetres x (right), y (down as printed) and z = minus the height
above the table, a right-handed frame in which the camera sits at negative z.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from functools import lru_cache

import cv2
import numpy as np

from vision.board_model import BoardModel, Paper, board_model
from vision.render import BGR, camera_orientation
from vision.room_scene import RoomCamera, RoomScene, Sensor

GAMMA = 2.2
"""Exponent of the camera's encoding of linear light."""
DAYLIGHT_KELVIN = 5500.0
"""White point of the fixed (non-automatic) white balance."""


def kelvin_to_bgr(kelvin: float) -> np.ndarray:
    """Linear BGR of a blackbody at ``kelvin`` (1000-40000 K), brightest channel 1.

    Tanner Helland's fit of the CIE blackbody colours, converted to linear light.
    """
    t = min(max(kelvin, 1000.0), 40000.0) / 100
    if t <= 66:
        red = 255.0
        green = 99.4708025861 * math.log(t) - 161.1195681661
        blue = 0.0 if t <= 19 else 138.5177312231 * math.log(t - 10) - 305.0447927307
    else:
        red = 329.698727446 * (t - 60) ** -0.1332047592
        green = 288.1221695283 * (t - 60) ** -0.0755148492
        blue = 255.0
    encoded = np.clip(np.array([blue, green, red]), 0, 255) / 255
    linear = encoded**GAMMA
    result: np.ndarray = linear / linear.max()
    return result


def linear_colour(colour: BGR) -> np.ndarray:
    """Linear reflectance (0..1) of a BGR colour as a camera would encode it (0..255)."""
    return (np.array(colour, np.float32) / 255) ** GAMMA


# ------------------------------------------------------------------ camera


@dataclass(frozen=True)
class CameraGeometry:
    """A camera placed in the room: intrinsics, distortion and pose."""

    matrix: np.ndarray
    """3x3 intrinsic matrix."""
    distortion: np.ndarray
    """OpenCV distortion coefficients (k1, k2, p1, p2)."""
    rotation: np.ndarray
    """3x3 world-to-camera rotation (rows: image right, image down, optical axis)."""
    centre: np.ndarray
    """Camera centre in world coordinates (mm; z is minus the height)."""
    rays: np.ndarray
    """(3, height, width) unit direction of each pixel's ray, world coordinates (x, y, z
    planes: whole-frame arithmetic on planes is several times faster than on triples)."""

    def project(self, points: np.ndarray) -> np.ndarray:
        """Image pixels (lens included) of world points (N, 3)."""
        cam = (np.asarray(points, np.float64).reshape(-1, 3) - self.centre) @ self.rotation.T
        return _distort(cam[:, :2] / cam[:, 2:3], self.matrix, self.distortion)


def _distort(normalised: np.ndarray, matrix: np.ndarray, distortion: np.ndarray) -> np.ndarray:
    k1, k2 = distortion[0], distortion[1]
    r2 = np.sum(normalised**2, axis=1, keepdims=True)
    distorted = normalised * (1 + k1 * r2 + k2 * r2 * r2)
    result: np.ndarray = distorted * [matrix[0, 0], matrix[1, 1]] + [matrix[0, 2], matrix[1, 2]]
    return result


def _undistort_radius(distorted: np.ndarray, k1: float, k2: float) -> np.ndarray:
    # Newton on r (1 + k1 r^2 + k2 r^4) = distorted; the conditions keep it monotonic.
    radius = distorted.copy()
    for _ in range(10):
        r2 = radius * radius
        value = radius * (1 + k1 * r2 + k2 * r2 * r2) - distorted
        slope = 1 + 3 * k1 * r2 + 5 * k2 * r2 * r2
        radius = radius - value / np.maximum(slope, 0.05)
    return radius


def focal_length(camera: RoomCamera) -> float:
    """Focal length in pixels that gives the camera's horizontal field of view, lens included."""
    undistorted = math.tan(math.radians(camera.field_of_view_degrees) / 2)
    r2 = undistorted * undistorted
    distorted = undistorted * (1 + camera.k1 * r2 + camera.k2 * r2 * r2)
    return camera.width / 2 / distorted


def _printed_corners(model: BoardModel) -> np.ndarray:
    corners = [corner for marker in model.markers().values() for corner in marker]
    return np.array([(x, y, 0.0) for x, y in corners])


@lru_cache(maxsize=16)
def camera_geometry(camera: RoomCamera, size: int, paper: Paper) -> CameraGeometry:
    """Place ``camera`` over the sheet of a ``size`` board: aimed, rotated and at its distance."""
    model = board_model(size, paper)
    focal = focal_length(camera)
    matrix = np.array([[focal, 0, camera.width / 2 + camera.principal_offset[0]],
                       [0, focal, camera.height / 2 + camera.principal_offset[1]], [0, 0, 1]])
    distortion = np.array([camera.k1, camera.k2, 0.0, 0.0])
    eye, rotation = camera_orientation(camera.tilt_degrees, camera.tilt_direction_degrees,
                                       camera.rotation_degrees)
    right, down = rotation[0], rotation[1]
    outline = _printed_corners(model)
    middle = np.array([paper.width / 2, paper.height / 2, 0.0])
    shorter = min(camera.width, camera.height)

    def placed(distance: float, target: np.ndarray) -> CameraGeometry:
        return CameraGeometry(matrix, distortion, rotation, target + eye * distance,
                              np.empty((3, 0, 0)))

    size_px = np.array([camera.width, camera.height], np.float64)

    def extent(distance: float, target: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        projected = placed(distance, target).project(outline)
        return projected.min(axis=0), projected.max(axis=0)

    target = middle
    for _ in range(6):
        # The distance at which the square spans the fill: the projected size shrinks
        # with distance, slowly where a strong lens squeezes the edges, so bisect.
        near, far = 50.0, 20000.0
        for _ in range(30):
            distance = math.sqrt(near * far)
            low, high = extent(distance, target)
            if (high - low).max() > camera.fill * shorter:
                near = distance
            else:
                far = distance
        # Aim so the square sits ``shift`` of the way to the image edges (the room it
        # leaves), moving the aim in the lens's undistorted terms, where a shift is linear.
        room = np.maximum(size_px - (high - low), 0)
        wanted = size_px / 2 + np.array(camera.shift) * room / 2
        dx, dy = (_normalised(wanted, matrix, camera.k1, camera.k2)
                  - _normalised((low + high) / 2, matrix, camera.k1, camera.k2))
        target = target - (right * dx + down * dy) * distance
        target[2] = 0.0
    geometry = placed(distance, target)
    return CameraGeometry(matrix, distortion, rotation, geometry.centre,
                          _pixel_rays(camera, matrix, rotation))


def _normalised(pixel: np.ndarray, matrix: np.ndarray, k1: float, k2: float) -> np.ndarray:
    """Undistorted normalised image coordinates of one pixel."""
    offset = (pixel - matrix[:2, 2]) / matrix[0, 0]
    distorted = float(np.hypot(*offset))
    if distorted == 0:
        return np.asarray(offset, np.float64)
    radius = _undistort_radius(np.array([distorted]), k1, k2)[0]
    result: np.ndarray = offset * radius / distorted
    return result


def _pixel_rays(camera: RoomCamera, matrix: np.ndarray, rotation: np.ndarray) -> np.ndarray:
    ys, xs = np.mgrid[0:camera.height, 0:camera.width].astype(np.float64)
    dx = (xs - matrix[0, 2]) / matrix[0, 0]
    dy = (ys - matrix[1, 2]) / matrix[1, 1]
    distorted = np.hypot(dx, dy)
    undistorted = _undistort_radius(distorted, camera.k1, camera.k2)
    scale = np.divide(undistorted, distorted, out=np.ones_like(distorted), where=distorted > 0)
    local = np.stack([dx * scale, dy * scale, np.ones_like(dx)], axis=-1)
    world = local @ rotation
    world /= np.linalg.norm(world, axis=-1, keepdims=True)
    rays = np.ascontiguousarray(np.moveaxis(world, -1, 0), dtype=np.float32)
    rays.setflags(write=False)
    return rays


# ------------------------------------------------------------------ the sensor


_LUMINANCE = np.array([0.114, 0.587, 0.299], np.float32)
_ENCODING_STEPS = 4096


@lru_cache(maxsize=1)
def _encoding() -> np.ndarray:
    """Encoded value (0..255) of each of the :data:`_ENCODING_STEPS` linear levels."""
    table = np.round(np.linspace(0, 1, _ENCODING_STEPS) ** (1 / GAMMA) * 255).astype(np.uint8)
    table.setflags(write=False)
    return table


@lru_cache(maxsize=8)
def _vignette(width: int, height: int, strength: float) -> np.ndarray:
    ys, xs = np.mgrid[0:height, 0:width].astype(np.float32)
    reach = (xs / (width - 1) - 0.5) ** 2 + (ys / (height - 1) - 0.5) ** 2
    falloff = (1 - strength * reach * 2).astype(np.float32)[..., None]
    falloff.setflags(write=False)
    result: np.ndarray = falloff
    return result


def _white_balance(sample: np.ndarray, sensor: Sensor) -> np.ndarray:
    if sensor.auto_white_balance:
        # Grey world over the brighter half of the picture (mostly paper), within the
        # range a camera allows: a coloured table or large coloured pieces still pull it.
        pixels = sample.reshape(-1, 3)
        luminance = pixels @ _LUMINANCE
        bright = pixels[luminance >= np.median(luminance)]
        means = bright.mean(axis=0)
        gains = np.clip(means[1] / np.maximum(means, 1e-6), 0.6, 1.6)
    else:
        daylight = kelvin_to_bgr(DAYLIGHT_KELVIN)
        gains = daylight[1] / daylight
    drift_blue, drift_red = sensor.white_balance_drift
    result: np.ndarray = (gains * np.array([1 + drift_blue, 1.0, 1 + drift_red])).astype(np.float32)
    return result


def develop(radiance: np.ndarray, paper: np.ndarray, sensor: Sensor,
            noise_seed: int) -> np.ndarray:
    """The BGR uint8 picture the sensor makes of linear ``radiance`` (h, w, 3).

    ``paper`` (h, w) marks the bare sheet, which auto exposure puts at its target.
    """
    sample = radiance[::4, ::4]
    gains = _white_balance(sample, sensor)
    paper = paper[::4, ::4]
    balanced = (sample * gains) @ _LUMINANCE
    level = float(np.median(balanced[paper])) if np.count_nonzero(paper) > 50 else float(
        np.median(balanced))
    # Auto exposure puts the bare paper at the target share of the encoded range.
    exposure = sensor.exposure_target**GAMMA / max(level, 1e-6) * (1 + sensor.exposure_drift)
    linear = radiance * (gains * np.float32(exposure))
    linear *= _vignette(radiance.shape[1], radiance.shape[0], sensor.vignetting)
    if sensor.lens_blur > 0.2:
        linear = np.asarray(cv2.GaussianBlur(linear, (0, 0), sensor.lens_blur), np.float32)
    if sensor.motion_blur >= 1.5:
        linear = np.asarray(cv2.filter2D(
            linear, -1, _streak(sensor.motion_blur, sensor.motion_angle_degrees)), np.float32)
    # Shot noise grows with the square root of the light; read noise is the floor.
    sigma = np.sqrt(np.maximum(linear, 0) / np.float32(sensor.full_well)
                    + np.float32(sensor.read_noise**2))
    noise = np.empty(linear.shape, np.float32)
    cv2.setRNGSeed(noise_seed)
    cv2.randn(noise, np.zeros(1), np.ones(1))
    linear += noise * sigma
    steps = np.clip(linear * (_ENCODING_STEPS - 1), 0, _ENCODING_STEPS - 1).astype(np.int32)
    image = _encoding()[steps]
    if sensor.jpeg_quality is not None:
        ok, encoded = cv2.imencode(".jpg", image, [cv2.IMWRITE_JPEG_QUALITY, sensor.jpeg_quality])
        if ok:
            image = np.asarray(cv2.imdecode(encoded, cv2.IMREAD_COLOR))
    return image


def _streak(length: float, angle_degrees: float) -> np.ndarray:
    size = math.ceil(length) | 1
    kernel = np.zeros((size, size), np.float32)
    centre = size // 2
    angle = math.radians(angle_degrees)
    half = (length - 1) / 2
    along = np.array([math.cos(angle), math.sin(angle)]) * half
    start = tuple(int(v) for v in np.round((centre - along) * 16))
    end = tuple(int(v) for v in np.round((centre + along) * 16))
    cv2.line(kernel, start, end, 1.0, 1, cv2.LINE_AA, 4)
    result: np.ndarray = kernel / kernel.sum()
    return result


# ------------------------------------------------------------------ where things are seen


def sheet_pixels(scene: RoomScene, size: int, points: np.ndarray, height_mm: float = 0.0,
                 lens: bool = True) -> np.ndarray:
    """Image pixels of sheet points (N, 2 mm) at ``height_mm`` above the table.

    ``lens=False`` leaves the lens distortion out (where a perfect pinhole would see them).
    """
    geometry = camera_geometry(scene.camera, size, scene.paper)
    world = np.column_stack([np.asarray(points, np.float64).reshape(-1, 2),
                             np.full(len(np.asarray(points).reshape(-1, 2)), -height_mm)])
    if lens:
        return geometry.project(world)
    straight = CameraGeometry(geometry.matrix, np.zeros(4), geometry.rotation, geometry.centre,
                              geometry.rays)
    return straight.project(world)
