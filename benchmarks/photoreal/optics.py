"""The camera of a photoreal setup: its pose over the sheet, its lens, and the distortion map.

Conventions: world coordinates in metres with the sheet on z = 0 (see ``conditions``);
camera coordinates as OpenCV has them (x right, y down, z forward). Blender renders a
pinhole image with a wider field than the output; ``distortion_maps`` then bends it
into the output through OpenCV's radial model, so the distorted image is exact for
the recorded coefficients.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import cv2
import numpy as np
from conditions import Lens

OUTPUT_SIZE = (640, 480)
"""Width and height of the finished images."""
SENSOR_MM = 36.0
"""Blender's sensor width; only the ratio of focal length to it matters."""
EDGE_MARGIN = 0.03
"""Share of the image kept clear around the printed square."""


@dataclass(frozen=True, slots=True)
class Pose:
    """Where the camera is and how it is turned."""

    rotation: np.ndarray
    """3x3 world-to-camera rotation (rows: the camera's x, y and z axes in the world)."""
    centre: np.ndarray
    """Camera centre in the world, metres."""

    def blender_matrix(self) -> list[list[float]]:
        """The camera's 4x4 ``matrix_world`` in Blender (it looks down its -Z, Y up)."""
        x_axis, y_axis, z_axis = self.rotation
        columns = np.stack([x_axis, -y_axis, -z_axis, self.centre], axis=1)
        matrix = np.vstack([columns, [0.0, 0.0, 0.0, 1.0]])
        return [[float(v) for v in row] for row in matrix]


def intrinsics(focal: float, width: int, height: int) -> np.ndarray:
    """Camera matrix with the principal point at the image centre (pixel centres at integers)."""
    return np.array([[focal, 0, (width - 1) / 2], [0, focal, (height - 1) / 2], [0, 0, 1]])


def distortion(lens: Lens) -> np.ndarray:
    """OpenCV's distortion vector (k1, k2, p1, p2, k3) of the lens."""
    return np.array([lens.k1, lens.k2, 0.0, 0.0, 0.0])


def look_from(target: np.ndarray, tilt: float, azimuth: float, roll: float,
              distance: float) -> Pose:
    """A camera ``distance`` from ``target``, tilted from vertical, turned about its axis."""
    towards_camera = np.array([math.sin(tilt) * math.cos(azimuth),
                               math.sin(tilt) * math.sin(azimuth), math.cos(tilt)])
    forward = -towards_camera
    # Any axis across the view, then turned by the roll about the line of sight.
    reference = np.array([1.0, 0.0, 0.0]) if abs(forward[0]) < 0.9 else np.array([0, 1.0, 0])
    across = np.cross(forward, reference)
    across /= np.linalg.norm(across)
    down = np.cross(forward, across)
    x_axis = math.cos(roll) * across + math.sin(roll) * down
    y_axis = np.cross(forward, x_axis)
    rotation = np.stack([x_axis, y_axis, forward])
    return Pose(rotation, target + distance * towards_camera)


def project(pose: Pose, lens: Lens, points: np.ndarray) -> np.ndarray:
    """Pixels of world points in the distorted output image."""
    rvec, _ = cv2.Rodrigues(pose.rotation)
    tvec = -pose.rotation @ pose.centre
    camera = intrinsics(lens.focal_pixels, *OUTPUT_SIZE)
    pixels, _ = cv2.projectPoints(points.astype(np.float64), rvec, tvec, camera, distortion(lens))
    return pixels.reshape(-1, 2)


def fill_of(pixels: np.ndarray) -> float:
    """Size of a projected square as a share of the image's shorter side (root of its area)."""
    return math.sqrt(cv2.contourArea(pixels.astype(np.float32))) / min(OUTPUT_SIZE)


def fits(pixels: np.ndarray) -> bool:
    """Whether all the points are inside the image, clear of its edges by the margin."""
    width, height = OUTPUT_SIZE
    margin = EDGE_MARGIN * min(OUTPUT_SIZE)
    return bool(np.all((pixels[:, 0] > margin) & (pixels[:, 0] < width - margin)
                       & (pixels[:, 1] > margin) & (pixels[:, 1] < height - margin)))


def place_camera(target: np.ndarray, tilt: float, azimuth: float, roll: float, lens: Lens,
                 square: np.ndarray, fill: float) -> tuple[Pose, float]:
    """The pose at which the printed square fills ``fill`` of the shorter side, or less if
    it would not fit whole in the image; with the fill reached."""
    near, far = 0.15, 5.0
    for _ in range(60):
        middle = math.sqrt(near * far)
        pixels = project(look_from(target, tilt, azimuth, roll, middle), lens, square)
        if fill_of(pixels) > fill or not fits(pixels):
            near = middle
        else:
            far = middle
    pose = look_from(target, tilt, azimuth, roll, far)
    return pose, fill_of(project(pose, lens, square))


NEWTON_STEPS = 30
"""Newton steps to invert the radial model; it converges to float precision in far fewer."""


def undistort(pixels: np.ndarray, camera: np.ndarray, lens: Lens) -> np.ndarray:
    """Normalised pinhole coordinates (x/z, y/z) of distorted output pixels.

    Solves r_d = r (1 + k1 r^2 + k2 r^4) for r by Newton's method: exact where the
    lens is monotonic (every lens drawn here is, over its whole image).
    """
    points = pixels.reshape(-1, 2)
    distorted = (points - camera[:2, 2]) / camera[0, 0]
    target = np.hypot(distorted[:, 0], distorted[:, 1])
    radius = target.copy()
    for _ in range(NEWTON_STEPS):
        squared = radius * radius
        value = radius * (1 + lens.k1 * squared + lens.k2 * squared * squared) - target
        slope = 1 + 3 * lens.k1 * squared + 5 * lens.k2 * squared * squared
        radius -= value / slope
    scale = np.divide(radius, target, out=np.ones_like(target), where=target > 0)
    return np.asarray(distorted * scale[:, None])


def render_size(lens: Lens) -> tuple[int, int]:
    """Pinhole render size (same focal length) that covers every pixel of the distorted output."""
    width, height = OUTPUT_SIZE
    if lens.k1 == 0 and lens.k2 == 0:
        return width, height
    border = np.array([(x, y) for x in np.linspace(0, width - 1, 65)
                       for y in (0, height - 1)]
                      + [(x, y) for y in np.linspace(0, height - 1, 49)
                         for x in (0, width - 1)], np.float64)
    camera = intrinsics(lens.focal_pixels, width, height)
    ideal = undistort(border, camera, lens)
    reach = np.abs(ideal).max(axis=0) * lens.focal_pixels
    # Even sizes keep the principal point where the output has it; a few pixels for interpolation.
    return tuple(int(2 * math.ceil(r + 3)) for r in reach)  # type: ignore[return-value]


def distortion_maps(lens: Lens, rendered: tuple[int, int]) -> tuple[np.ndarray, np.ndarray]:
    """``cv2.remap`` maps from the distorted output to the pinhole render of size ``rendered``."""
    width, height = OUTPUT_SIZE
    xs, ys = np.meshgrid(np.arange(width, dtype=np.float64), np.arange(height, dtype=np.float64))
    pixels = np.stack([xs.ravel(), ys.ravel()], axis=1)
    camera = intrinsics(lens.focal_pixels, width, height)
    ideal = undistort(pixels, camera, lens)
    render_camera = intrinsics(lens.focal_pixels, *rendered)
    map_x = ideal[:, 0] * lens.focal_pixels + render_camera[0, 2]
    map_y = ideal[:, 1] * lens.focal_pixels + render_camera[1, 2]
    return (map_x.reshape(height, width).astype(np.float32),
            map_y.reshape(height, width).astype(np.float32))
