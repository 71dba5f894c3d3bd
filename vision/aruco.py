"""ArUco markers through either of OpenCV's two APIs.

OpenCV 4.7 moved ArUco detection into a class (``ArucoDetector``) and renamed
``drawMarker`` to ``generateImageMarker``; the OpenCV that Debian bookworm and so
Raspberry Pi OS ship (4.6, the one a Pi installs without compiling) has only the
functions. Both do the same work: this module gives the rest of the project one
detector and one marker drawing whichever is installed.

They refine the corners differently, though: 4.7 sizes the sub-pixel search window
to the marker's cells, 4.6 uses a fixed window that, on a marker twenty pixels
across, reaches its inner cells and moves the corners by a pixel (enough to fit a
wide lens another way). The detector here refines the corners itself, the 4.7 way,
so both give the same corners.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from types import ModuleType
from typing import Any

import cv2
import numpy as np

Detection = tuple[Sequence[np.ndarray], np.ndarray | None]
"""The corners of each marker found, (1, 4, 2) each, and their ids, (n, 1), or None."""


def _namespace(aruco: ModuleType | Any | None) -> Any:
    return cv2.aruco if aruco is None else aruco


def dictionary(name: str, aruco: ModuleType | Any | None = None) -> Any:
    """The predefined dictionary called ``name`` (such as ``"DICT_4X4_50"``)."""
    namespace = _namespace(aruco)
    return namespace.getPredefinedDictionary(getattr(namespace, name))


RELATIVE_REFINE_WINDOW = 0.3
"""Half-side of the corner refinement's search window, in marker cells (OpenCV 4.7's)."""


@dataclass(frozen=True, slots=True)
class Detector:
    """Finds the markers of one dictionary in greyscale images."""

    detect: Callable[[np.ndarray], Detection]
    """Corners and ids of the markers in a greyscale image."""
    api: str
    """"detector" (OpenCV 4.7 and later) or "functions" (OpenCV 4.6)."""


def detector(name: str, configure: Callable[[Any], None],
             aruco: ModuleType | Any | None = None) -> Detector:
    """A detector for dictionary ``name`` whose parameters ``configure`` sets in place."""
    namespace = _namespace(aruco)
    chosen = dictionary(name, namespace)
    modern = hasattr(namespace, "ArucoDetector")
    parameters = namespace.DetectorParameters() if modern else (
        namespace.DetectorParameters_create())
    configure(parameters)
    refine = _corner_refiner(parameters, chosen.markerSize, namespace)
    if modern:
        found = namespace.ArucoDetector(chosen, parameters)

        def detect(grey: np.ndarray) -> Detection:
            corners, ids, _ = found.detectMarkers(grey)
            return refine(grey, corners), ids

        return Detector(detect, "detector")

    def detect_old(grey: np.ndarray) -> Detection:
        corners, ids, _ = namespace.detectMarkers(grey, chosen, parameters=parameters)
        return refine(grey, corners), ids

    return Detector(detect_old, "functions")


Refiner = Callable[[np.ndarray, Sequence[np.ndarray]], Sequence[np.ndarray]]


def _corner_refiner(parameters: Any, marker_bits: int, namespace: Any) -> Refiner:
    """Takes sub-pixel refinement over from ``parameters`` when they ask for it."""
    if parameters.cornerRefinementMethod != namespace.CORNER_REFINE_SUBPIX:
        return lambda grey, corners: corners
    parameters.cornerRefinementMethod = namespace.CORNER_REFINE_NONE
    cells = marker_bits + 2 * parameters.markerBorderBits
    largest = parameters.cornerRefinementWinSize
    criteria = (cv2.TERM_CRITERIA_MAX_ITER | cv2.TERM_CRITERIA_EPS,
                parameters.cornerRefinementMaxIterations, parameters.cornerRefinementMinAccuracy)

    def refine(grey: np.ndarray, corners: Sequence[np.ndarray]) -> Sequence[np.ndarray]:
        refined = []
        for marker in corners:
            points = np.ascontiguousarray(marker, np.float32).reshape(-1, 1, 2)
            side = float(np.linalg.norm(points - np.roll(points, 1, axis=0), axis=2).mean())
            window = min(largest, max(1, round(RELATIVE_REFINE_WINDOW * side / cells)))
            found = cv2.cornerSubPix(grey, points, (window, window), (-1, -1), criteria)
            refined.append(found.reshape(marker.shape))
        return refined

    return refine


def marker_image(name: str, marker_id: int, side: int,
                 aruco: ModuleType | Any | None = None) -> np.ndarray:
    """Marker ``marker_id`` of dictionary ``name`` drawn ``side`` pixels square (uint8)."""
    namespace = _namespace(aruco)
    chosen = dictionary(name, namespace)
    if hasattr(namespace, "generateImageMarker"):
        return np.asarray(namespace.generateImageMarker(chosen, marker_id, side))
    return np.asarray(namespace.drawMarker(chosen, marker_id, side))
