"""vision.aruco: the same markers found and drawn through OpenCV 4.6's API and the current one."""

from types import SimpleNamespace
from typing import Any

import cv2
import numpy as np
import pytest

from vision import aruco, locate
from vision.board_model import ARUCO_DICTIONARY, board_model, marker_ids
from vision.config import VisionConfig
from vision.sheet import rasterise


def opencv_4_6() -> SimpleNamespace:
    """A cv2.aruco as Debian bookworm's OpenCV 4.6 has it: functions only, no detector class
    and no generateImageMarker. Each function does its work with the installed OpenCV."""
    real = cv2.aruco
    calls: list[str] = []
    # On an OpenCV 4.6 (the Pi's own) the real functions are there to wrap.
    current = hasattr(real, "ArucoDetector")

    def detect_markers(image: np.ndarray, dictionary: Any, parameters: Any) -> Any:
        calls.append("detectMarkers")
        if not current:
            return real.detectMarkers(image, dictionary, parameters=parameters)
        return real.ArucoDetector(dictionary, parameters).detectMarkers(image)

    def draw_marker(dictionary: Any, marker_id: int, side: int) -> np.ndarray:
        calls.append("drawMarker")
        if not current:
            return real.drawMarker(dictionary, marker_id, side)
        return real.generateImageMarker(dictionary, marker_id, side)

    def parameters_create() -> Any:
        calls.append("DetectorParameters_create")
        return real.DetectorParameters() if current else real.DetectorParameters_create()

    return SimpleNamespace(
        getPredefinedDictionary=real.getPredefinedDictionary,
        DICT_4X4_50=real.DICT_4X4_50, CORNER_REFINE_SUBPIX=real.CORNER_REFINE_SUBPIX,
        CORNER_REFINE_NONE=real.CORNER_REFINE_NONE,
        DetectorParameters_create=parameters_create, detectMarkers=detect_markers,
        drawMarker=draw_marker, calls=calls)


def test_the_old_api_finds_the_same_markers_as_the_new_one() -> None:
    sheet = rasterise(board_model(6), 2.0)
    old = opencv_4_6()
    found_old = aruco.detector(ARUCO_DICTIONARY, locate._tune, old)
    found_new = aruco.detector(ARUCO_DICTIONARY, locate._tune)
    installed = "detector" if hasattr(cv2.aruco, "ArucoDetector") else "functions"
    assert (found_old.api, found_new.api) == ("functions", installed)
    corners_old, ids_old = found_old.detect(sheet)
    corners_new, ids_new = found_new.detect(sheet)
    assert old.calls == ["DetectorParameters_create", "detectMarkers"]
    assert ids_old is not None and ids_new is not None
    assert sorted(ids_old.ravel()) == sorted(ids_new.ravel()) == list(marker_ids(6))
    np.testing.assert_allclose(np.concatenate(corners_old), np.concatenate(corners_new))


def test_the_old_api_draws_the_same_marker() -> None:
    old = opencv_4_6()
    drawn = aruco.marker_image(ARUCO_DICTIONARY, 3, 60, old)
    assert old.calls == ["drawMarker"]
    assert np.array_equal(drawn, aruco.marker_image(ARUCO_DICTIONARY, 3, 60))
    assert drawn.shape == (60, 60) and set(np.unique(drawn)) == {0, 255}


def test_the_board_is_located_through_the_old_api(monkeypatch: pytest.MonkeyPatch) -> None:
    old = opencv_4_6()
    monkeypatch.setattr(cv2, "aruco", old)
    locate._detector.cache_clear()
    try:
        sheet = cv2.cvtColor(rasterise(board_model(6), 2.0), cv2.COLOR_GRAY2BGR)
        found = locate.detect_markers(VisionConfig(), sheet)
    finally:
        monkeypatch.undo()
        locate._detector.cache_clear()
    assert "detectMarkers" in old.calls
    assert sorted(found) == list(marker_ids(6))


def test_small_markers_corners_are_found_to_a_fraction_of_a_pixel() -> None:
    # The sheet seen small and slanted, its markers about 22 pixels across, as a camera
    # high above a big board sees them. OpenCV 4.6 refined corners over a fixed 11-pixel
    # window that reaches the marker's inner cells (median error about a pixel here, 2.5 at
    # worst): a wide lens was then fitted another way than on a newer OpenCV.
    model = board_model(6)
    pixels_per_mm = 8.0
    sheet = rasterise(model, pixels_per_mm)
    height, width = sheet.shape
    to_image = cv2.getPerspectiveTransform(
        np.float32([[0, 0], [width, 0], [width, height], [0, height]]),
        np.float32([[160, 120], [400, 140], [420, 330], [150, 310]]))
    image = cv2.warpPerspective(sheet, to_image, (640, 480), flags=cv2.INTER_AREA,
                                borderValue=255)
    image = cv2.GaussianBlur(image, (0, 0), 0.7)
    corners, ids = aruco.detector(ARUCO_DICTIONARY, locate._tune).detect(image)
    # (OpenCV 4.6 misses one of these small markers; the others tell how exact it is.)
    assert ids is not None and len(ids) >= 3
    errors = []
    for found, marker in zip(corners, ids.ravel(), strict=True):
        # A sheet pixel's centre is half a pixel past its corner.
        true_corners = np.float32(model.markers()[int(marker)]) * pixels_per_mm - 0.5
        expected = cv2.perspectiveTransform(true_corners.reshape(-1, 1, 2), to_image)
        errors.extend(np.linalg.norm(found.reshape(4, 2) - expected.reshape(4, 2), axis=1))
    assert float(np.median(errors)) < 0.65
