"""Locate the board in a frame: ArUco markers to a homography, cheaply on a steady camera.

Decisions:
- The homography maps sheet millimetres (the board model) to image pixels and is
  fitted to the corners of every marker found (three markers are enough, so one
  may be hidden by a hand).
- A steady camera should cost almost nothing: after a successful detection the
  locator keeps a small normalised grey patch of each marker found. On the next
  frame it only compares those patches (a few hundred pixels) with the same spots
  in the new frame; when at least three still correlate, the board has not moved
  and detection is skipped. Correlation ignores changes of light.
- When the patches disagree the markers are detected again. If the new homography
  moves the grid by more than ``moved_tolerance`` pitches, the frame is reported as
  ``MOVED`` (a moving board is blurred and not worth reading) and the new place is
  kept for the next frame.
- Boards without markers are located by a fixed homography from the calibration.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum
from functools import lru_cache

import cv2
import numpy as np

from vision.board_model import ARUCO_DICTIONARY, BoardModel, marker_ids
from vision.config import VisionConfig

PATCH_SIDE = 12
"""Side of the normalised marker patches compared on a steady camera, pixels."""
MIN_MARKERS = 3
MARKER_FIT_TOLERANCE = 0.15
"""Largest corner misfit of a marker, as a share of its side, for it to count."""


class LocationStatus(Enum):
    """What the locator made of a frame."""

    FOUND = "found"
    MOVED = "moved"
    PARTLY_HIDDEN = "partly hidden"
    NOT_FOUND = "not found"


@dataclass(frozen=True, slots=True)
class Location:
    """Where the board is in one frame."""

    status: LocationStatus
    """Found, moved since the last frame, partly hidden, or not found."""
    homography: np.ndarray | None
    """Sheet mm to image pixels, when known."""
    markers_seen: int
    """Markers detected or confirmed in this frame."""
    detected: bool
    """Whether marker detection ran (False: the steady-camera check sufficed)."""


@lru_cache(maxsize=1)
def _detector() -> cv2.aruco.ArucoDetector:
    dictionary = cv2.aruco.getPredefinedDictionary(getattr(cv2.aruco, ARUCO_DICTIONARY))
    parameters = cv2.aruco.DetectorParameters()
    parameters.cornerRefinementMethod = cv2.aruco.CORNER_REFINE_SUBPIX
    # Tuned on the hard rendered set: small, tilted, blurred markers read better with
    # finer bit sampling, full error correction (a wrong id is caught by the homography
    # consistency check) and fewer, smaller threshold windows (also faster).
    parameters.perspectiveRemovePixelPerCell = 8
    parameters.errorCorrectionRate = 1.0
    parameters.maxErroneousBitsInBorderRate = 0.5
    parameters.adaptiveThreshWinSizeMin = 5
    parameters.adaptiveThreshWinSizeMax = 15
    parameters.adaptiveThreshWinSizeStep = 5
    return cv2.aruco.ArucoDetector(dictionary, parameters)


def as_grey(frame: np.ndarray) -> np.ndarray:
    """A greyscale copy of a BGR (or already grey) frame."""
    return frame if frame.ndim == 2 else cv2.cvtColor(frame, cv2.COLOR_BGR2GRAY)


def detect_markers(config: VisionConfig, frame: np.ndarray) -> dict[int, np.ndarray]:
    """Every marker of the board's dictionary in the frame: id to its (4, 2) corners in pixels."""
    grey = as_grey(frame)
    scale = 1.0
    if grey.shape[1] > config.detection_max_width:
        scale = config.detection_max_width / grey.shape[1]
        grey = cv2.resize(grey, None, fx=scale, fy=scale, interpolation=cv2.INTER_AREA)
    corners, ids, _ = _detector().detectMarkers(grey)
    found: dict[int, np.ndarray] = {}
    if ids is None:
        return found
    for marker_corners, marker_id in zip(corners, ids.ravel(), strict=True):
        # A duplicate id is a reflection or a second print: keep neither.
        key = int(marker_id)
        if key in found:
            found[key] = np.empty((0, 2))
        else:
            found[key] = marker_corners.reshape(4, 2).astype(np.float64) / scale
    return {key: value for key, value in found.items() if len(value)}


def fit_homography(model: BoardModel, found: dict[int, np.ndarray]) -> np.ndarray | None:
    """Sheet-to-image homography from the model's markers among ``found``.

    None when fewer than three markers agree: a marker whose corners do not fit the
    others (a misread id, a reflection) is dropped when three remain.
    """
    sheet_markers = model.markers()
    usable = [marker for marker in sheet_markers if marker in found]
    while len(usable) >= MIN_MARKERS:
        source = np.array([c for marker in usable for c in sheet_markers[marker]], np.float64)
        target = np.concatenate([found[marker] for marker in usable])
        matrix, _ = cv2.findHomography(source, target, 0)
        if matrix is None or not np.all(np.isfinite(matrix)):
            return None
        projected = cv2.perspectiveTransform(source.reshape(-1, 1, 2), matrix).reshape(-1, 4, 2)
        errors = np.linalg.norm(projected - target.reshape(-1, 4, 2), axis=2).max(axis=1)
        sides = np.linalg.norm(target.reshape(-1, 4, 2) - np.roll(target.reshape(-1, 4, 2), 1,
                                                                   axis=1), axis=2).mean()
        worst = int(errors.argmax())
        if errors[worst] <= MARKER_FIT_TOLERANCE * sides:
            result: np.ndarray = matrix / matrix[2, 2]
            return result
        usable.pop(worst)
    return None


def grid_corners_in_image(model: BoardModel, homography: np.ndarray) -> np.ndarray:
    """The four grid corner points projected into the image, (4, 2)."""
    corners = np.array([model.point_mm(p) for p in model.corner_points()], np.float64)
    projected = cv2.perspectiveTransform(corners.reshape(-1, 1, 2), homography)
    result: np.ndarray = projected.reshape(-1, 2)
    return result


def pitch_in_pixels(model: BoardModel, homography: np.ndarray) -> float:
    """Average length of one pitch in the image."""
    corners = grid_corners_in_image(model, homography)
    sides = np.linalg.norm(corners - np.roll(corners, 1, axis=0), axis=1)
    return float(sides.mean() / (model.size - 1))


@dataclass(frozen=True, slots=True)
class _MarkerPatch:
    box: tuple[int, int, int, int]  # x0, y0, x1, y1 in the frame
    pattern: np.ndarray  # zero-mean, unit-norm PATCH_SIDE x PATCH_SIDE


def _patch(grey_crop: np.ndarray) -> np.ndarray | None:
    small = cv2.resize(grey_crop, (PATCH_SIDE, PATCH_SIDE), interpolation=cv2.INTER_AREA)
    values = small.astype(np.float32).ravel()
    values -= values.mean()
    norm = float(np.linalg.norm(values))
    return values / norm if norm > 1e-3 else None


class BoardLocator:
    """Finds the board frame after frame, re-detecting markers only when something changed."""

    def __init__(
        self, config: VisionConfig, model: BoardModel, fixed_homography: np.ndarray | None = None
    ) -> None:
        self._config = config
        self._model = model
        self._fixed = fixed_homography
        self._homography: np.ndarray | None = None
        self._patches: dict[int, _MarkerPatch] = {}

    def reset(self) -> None:
        """Forget the last place, so the next frame runs a full detection."""
        self._homography = None
        self._patches = {}

    def locate(self, frame: np.ndarray) -> Location:
        """Where the board is in ``frame``."""
        if self._fixed is not None:
            return Location(LocationStatus.FOUND, self._fixed, 0, detected=False)
        confirmed = self._confirmed_markers(frame)
        if self._homography is not None and confirmed >= MIN_MARKERS:
            return Location(LocationStatus.FOUND, self._homography, confirmed, detected=False)
        found = {
            marker: corners
            for marker, corners in detect_markers(self._config, frame).items()
            if marker in marker_ids(self._model.size)
        }
        homography = fit_homography(self._model, found)
        if homography is None:
            if found or confirmed:
                return Location(LocationStatus.PARTLY_HIDDEN, self._homography,
                                max(len(found), confirmed), detected=True)
            return Location(LocationStatus.NOT_FOUND, None, 0, detected=True)
        moved = self._homography is not None and self._has_moved(homography)
        self._remember(frame, homography, found)
        status = LocationStatus.MOVED if moved else LocationStatus.FOUND
        return Location(status, homography, len(found), detected=True)

    def _has_moved(self, homography: np.ndarray) -> bool:
        assert self._homography is not None
        before = grid_corners_in_image(self._model, self._homography)
        after = grid_corners_in_image(self._model, homography)
        shift = float(np.linalg.norm(after - before, axis=1).max())
        return shift > self._config.moved_tolerance * pitch_in_pixels(self._model, homography)

    def _remember(self, frame: np.ndarray, homography: np.ndarray,
                  found: dict[int, np.ndarray]) -> None:
        self._homography = homography
        self._patches = {}
        height, width = frame.shape[:2]
        for marker, corners in found.items():
            low, high = corners.min(axis=0), corners.max(axis=0)
            grow = (high - low) * 0.15  # include the white quiet zone: more structure to match
            x0, y0 = np.floor(low - grow).astype(int)
            x1, y1 = np.ceil(high + grow).astype(int)
            if x0 < 0 or y0 < 0 or x1 > width or y1 > height or x1 - x0 < 4 or y1 - y0 < 4:
                continue
            pattern = _patch(as_grey(frame[y0:y1, x0:x1]))
            if pattern is not None:
                self._patches[marker] = _MarkerPatch((x0, y0, x1, y1), pattern)

    def _confirmed_markers(self, frame: np.ndarray) -> int:
        count = 0
        for patch in self._patches.values():
            x0, y0, x1, y1 = patch.box
            now = _patch(as_grey(frame[y0:y1, x0:x1]))
            if now is not None and float(now @ patch.pattern) >= self._config.marker_match:
                count += 1
        return count
