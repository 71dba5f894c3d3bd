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
