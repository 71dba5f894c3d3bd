"""ArUco markers through either of OpenCV's two APIs.

OpenCV 4.7 moved ArUco detection into a class (``ArucoDetector``) and renamed
``drawMarker`` to ``generateImageMarker``; the OpenCV that Debian bookworm and so
Raspberry Pi OS ship (4.6, the one a Pi installs without compiling) has only the
functions. Both do the same work: this module gives the rest of the project one
detector and one marker drawing whichever is installed.
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
    if hasattr(namespace, "ArucoDetector"):
        parameters = namespace.DetectorParameters()
        configure(parameters)
        found = namespace.ArucoDetector(chosen, parameters)

        def detect(grey: np.ndarray) -> Detection:
            corners, ids, _ = found.detectMarkers(grey)
            return corners, ids

        return Detector(detect, "detector")
    parameters = namespace.DetectorParameters_create()
    configure(parameters)

    def detect_old(grey: np.ndarray) -> Detection:
        corners, ids, _ = namespace.detectMarkers(grey, chosen, parameters=parameters)
        return corners, ids

    return Detector(detect_old, "functions")


def marker_image(name: str, marker_id: int, side: int,
                 aruco: ModuleType | Any | None = None) -> np.ndarray:
    """Marker ``marker_id`` of dictionary ``name`` drawn ``side`` pixels square (uint8)."""
    namespace = _namespace(aruco)
    chosen = dictionary(name, namespace)
    if hasattr(namespace, "generateImageMarker"):
        return np.asarray(namespace.generateImageMarker(chosen, marker_id, side))
    return np.asarray(namespace.drawMarker(chosen, marker_id, side))
