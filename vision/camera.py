"""The camera as a lens and a pose: where any point of the sheet, or above it, lands in the image.

A homography maps the flat sheet to a pinhole image, and that is all the first
vision had. Real boards break it twice: pieces stand 4-7 mm above the paper, so a
tilted or wide-angle camera sees their tops off their points; and wide lenses bend
straight lines (barrel distortion), so no single homography fits the whole sheet.

Decisions:
- One :class:`CameraModel`: a pinhole with square pixels, its principal point at the
  image centre unless the markers say otherwise (a camera mode that crops its sensor
  moves it), a focal length, two radial distortion coefficients (OpenCV's k1 and k2)
  and the pose of the sheet. Sheet
  coordinates are millimetres as printed (x right, y down) with z pointing into the
  table, so a height of ``h`` above the paper is ``z = -h``.
- It is fitted to the printed marker corners first and then refined on the printed
  ink (grid lines and loops, whose geometry is known): for each ink point the
  image is searched along the line's normal for the dark valley of the printed line,
  and the camera is fitted to those points again, with shrinking search windows.
  The loops run round the outside of the grid, where a wide lens bends most and no
  piece of the start position stands, so they pin the distortion down.
- The focal length is free only when the sheet is seen at a slant; seen straight
  from above, focal length and distance cannot be told apart from one image, and a
  typical camera's focal length is assumed instead (the distortion terms absorb the
  difference).
"""

from __future__ import annotations

import math
from dataclasses import dataclass, replace

import cv2
import numpy as np

DEFAULT_FIELD_OF_VIEW_DEGREES = 62.0
"""Horizontal field of view assumed when one image cannot tell: the Pi camera module's."""
MIN_SLANT_DEGREES = 12.0
"""Least tilt of the sheet at which its image tells the focal length reliably."""

_FIXED = (cv2.CALIB_USE_INTRINSIC_GUESS | cv2.CALIB_FIX_PRINCIPAL_POINT
          | cv2.CALIB_FIX_ASPECT_RATIO | cv2.CALIB_ZERO_TANGENT_DIST | cv2.CALIB_FIX_K3
          | cv2.CALIB_FIX_K4 | cv2.CALIB_FIX_K5 | cv2.CALIB_FIX_K6)


@dataclass(frozen=True, slots=True)
class CameraModel:
    """A camera's lens and its pose relative to the sheet."""

    width: int
    """Image width, pixels."""
    height: int
    """Image height, pixels."""
    focal: float
    """Focal length, pixels."""
    distortion: tuple[float, float]
    """Radial distortion k1, k2 (OpenCV's model; negative k1 is barrel distortion)."""
    rotation: tuple[float, float, float]
    """Rotation from sheet to camera coordinates, as a Rodrigues vector."""
    translation: tuple[float, float, float]
    """Sheet origin in camera coordinates, mm."""
    principal_point: tuple[float, float] | None = None
    """Where the optical axis meets the image, pixels; None for the image centre."""

    @property
    def matrix(self) -> np.ndarray:
        """The 3x3 intrinsic matrix."""
        matrix = intrinsic_matrix(self.focal, self.width, self.height)
        if self.principal_point is not None:
            matrix[0, 2], matrix[1, 2] = self.principal_point
        return matrix

    @property
    def coefficients(self) -> np.ndarray:
        """Distortion coefficients in OpenCV's order (k1, k2, p1, p2, k3)."""
        return np.array([*self.distortion, 0.0, 0.0, 0.0], np.float64)

    @property
    def image_size(self) -> tuple[int, int]:
        """(width, height) in pixels."""
        return self.width, self.height

    def project(self, points: np.ndarray) -> np.ndarray:
        """Image positions of (N, 3) sheet points (mm, z = -height), distortion included."""
        objects = np.asarray(points, np.float64).reshape(-1, 1, 3)
        projected, _ = cv2.projectPoints(objects, np.array(self.rotation), np.array(
            self.translation), self.matrix, self.coefficients)
        result: np.ndarray = projected.reshape(-1, 2)
        return result

    def project_sheet(self, points: np.ndarray, height: float = 0.0) -> np.ndarray:
        """Image positions of (N, 2) sheet points (mm) at ``height`` mm above the paper."""
        flat = np.asarray(points, np.float64).reshape(-1, 2)
        return self.project(np.column_stack([flat, np.full(len(flat), -height)]))

    def with_pose(self, rotation: np.ndarray, translation: np.ndarray) -> CameraModel:
        """The same lens at another pose."""
        return replace(self, rotation=triple(rotation), translation=triple(translation))

    def homography(self) -> np.ndarray:
        """Sheet mm to undistorted image pixels: the paper plane as a pinhole sees it."""
        rotation, _ = cv2.Rodrigues(np.array(self.rotation))
        extrinsic = np.column_stack([rotation[:, 0], rotation[:, 1], np.array(self.translation)])
        matrix: np.ndarray = self.matrix @ extrinsic
        normalised: np.ndarray = matrix / matrix[2, 2]
        return normalised

    def viewing_angle_degrees(self) -> float:
        """Angle between the optical axis and the sheet's normal."""
        rotation, _ = cv2.Rodrigues(np.array(self.rotation))
        return math.degrees(math.acos(min(1.0, abs(float(rotation[2, 2])))))

    def to_json(self) -> dict[str, object]:
        """JSON-ready data."""
        return {
            "image_size": [self.width, self.height],
            "focal": round(self.focal, 6),
            "distortion": [round(v, 10) for v in self.distortion],
            "rotation": [round(v, 12) for v in self.rotation],
            "translation": [round(v, 8) for v in self.translation],
            "principal_point": None if self.principal_point is None else [
                round(v, 4) for v in self.principal_point],
        }

    @staticmethod
    def from_json(data: object) -> CameraModel:
        """Inverse of :meth:`to_json`; raises ValueError on malformed data."""
        if not isinstance(data, dict):
            raise ValueError("camera is not an object")
        size = [float(v) for v in data["image_size"]]
        if len(size) != 2 or not all(math.isfinite(v) and v == int(v) for v in size):
            raise ValueError("camera has an image size that is not two whole numbers")
        width, height = (int(v) for v in size)
        values = [float(data["focal"]), *map(float, data["distortion"]),
                  *map(float, data["rotation"]), *map(float, data["translation"])]
        if len(values) != 9 or not all(math.isfinite(v) for v in values):
            raise ValueError("camera has missing or non-finite numbers")
        if width <= 0 or height <= 0 or values[0] <= 0:
            raise ValueError("camera has a non-positive size or focal length")
        centre = data.get("principal_point")
        principal = None
        if centre is not None:
            cx, cy = (float(v) for v in centre)
            if not (math.isfinite(cx) and math.isfinite(cy)):
                raise ValueError("camera has a non-finite principal point")
            principal = (cx, cy)
        return CameraModel(width, height, values[0], (values[1], values[2]),
                           (values[3], values[4], values[5]), (values[6], values[7], values[8]),
                           principal)


def triple(vector: object) -> tuple[float, float, float]:
    """The first three numbers of ``vector`` as a tuple of floats."""
    flat = np.asarray(vector, np.float64).ravel()
    return float(flat[0]), float(flat[1]), float(flat[2])


def intrinsic_matrix(focal: float, width: int, height: int) -> np.ndarray:
    """A pinhole with its principal point at the image centre and square pixels."""
    return np.array([[focal, 0, (width - 1) / 2], [0, focal, (height - 1) / 2], [0, 0, 1]],
                    np.float64)


def default_focal(width: int) -> float:
    """The focal length of a camera with the default field of view, pixels."""
    return width / 2 / math.tan(math.radians(DEFAULT_FIELD_OF_VIEW_DEGREES) / 2)


def focal_from_homography(homography: np.ndarray, width: int, height: int) -> float | None:
    """The focal length a homography of a slanted plane implies, or None when it cannot tell.

    The plane's two axes must be perpendicular and equally long once the intrinsics
    are taken out (Zhang's constraints); with the principal point known, each gives
    the focal length, and they are combined by least squares.
    """
    centre = np.array([[1, 0, -(width - 1) / 2], [0, 1, -(height - 1) / 2], [0, 0, 1]])
    h = centre @ homography
    h1, h2 = h[:, 0], h[:, 1]
    # With K = diag(f, f, 1): r = K^-1 h, so x/f, y/f, z components.
    # Perpendicular: (h1x h2x + h1y h2y)/f^2 + h1z h2z = 0.
    # Equal length: (h1x^2 + h1y^2 - h2x^2 - h2y^2)/f^2 + h1z^2 - h2z^2 = 0.
    rows = np.array([[h1[0] * h2[0] + h1[1] * h2[1], h1[2] * h2[2]],
                     [h1[0] ** 2 + h1[1] ** 2 - h2[0] ** 2 - h2[1] ** 2, h1[2] ** 2 - h2[2] ** 2]])
    a, b = rows[:, 0], rows[:, 1]
    # Solve a * u + b = 0 for u = 1/f^2 in the least-squares sense.
    denominator = float(a @ a)
    if denominator <= 1e-18:
        return None
    u = -float(a @ b) / denominator
    if u <= 0:
        return None
    return 1 / math.sqrt(u)


def camera_from_correspondences(
    sheet_points: np.ndarray,
    image_points: np.ndarray,
    image_size: tuple[int, int],
    *,
    focal: float | None = None,
    solve_focal: bool = True,
    distortion_terms: int = 1,
    start: CameraModel | None = None,
    solve_centre: bool = False,
) -> tuple[CameraModel, float] | None:
    """The camera that best maps sheet points (N, 2 mm on the paper) to image points (N, 2).

    ``distortion_terms`` is how many radial terms to fit (0, 1 or 2; 0 keeps ``start``'s);
    ``solve_centre`` frees the principal point (with the focal length fixed, a flat target
    then pins it down). Returns the model and its RMS reprojection error in pixels, or None
    when OpenCV cannot solve it.
    """
    width, height = image_size
    objects = np.column_stack([sheet_points, np.zeros(len(sheet_points))]).astype(np.float32)
    pixels = np.asarray(image_points, np.float32).reshape(-1, 1, 2)
    guess = start.focal if start is not None else (focal or default_focal(width))
    matrix = start.matrix if start is not None else intrinsic_matrix(guess, width, height)
    coefficients = start.coefficients.copy() if start is not None else np.zeros(5)
    flags = _FIXED
    if solve_centre:
        flags &= ~cv2.CALIB_FIX_PRINCIPAL_POINT
    if not solve_focal:
        flags |= cv2.CALIB_FIX_FOCAL_LENGTH
    if distortion_terms < 2:
        flags |= cv2.CALIB_FIX_K2
        coefficients[1] = 0.0 if start is None else coefficients[1]
    if distortion_terms < 1:
        flags |= cv2.CALIB_FIX_K1
    try:
        rms, matrix, coefficients, rotations, translations = cv2.calibrateCamera(
            [objects.reshape(-1, 1, 3)], [pixels], (width, height), matrix, coefficients,
            flags=flags,
            criteria=(cv2.TERM_CRITERIA_COUNT | cv2.TERM_CRITERIA_EPS, 60, 1e-9),
        )
    except cv2.error:
        return None
    values = np.concatenate([matrix.ravel(), coefficients.ravel()[:2], rotations[0].ravel(),
                             translations[0].ravel()])
    if not np.all(np.isfinite(values)) or matrix[0, 0] <= 0:
        return None
    centre = (float(matrix[0, 2]), float(matrix[1, 2]))
    model = CameraModel(
        width, height, float(matrix[0, 0]),
        (float(coefficients.ravel()[0]), float(coefficients.ravel()[1])),
        triple(rotations[0]), triple(translations[0]),
        centre if solve_centre or (start is not None and start.principal_point) else None,
    )
    # The sheet must lie in front of the camera, seen from its printed side.
    if model.translation[2] <= 0:
        return None
    return model, float(rms)
