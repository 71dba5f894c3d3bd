"""Locating the board: steady camera, a hidden marker, a moved board, no board at all."""

from __future__ import annotations

import cv2
import numpy as np

from controller.position import start_position
from controller.reading import BoardReading
from vision.board_model import board_model
from vision.calibrate import Calibration
from vision.config import VisionConfig
from vision.locate import BoardLocator, LocationStatus
from vision.reader import BoardReader, ReadStatus
from vision.render import Pose, Scene, camera_homography, project_points, render


def hide_marker(image: np.ndarray, scene: Scene, marker: int) -> np.ndarray:
    model = board_model(6)
    box = project_points(camera_homography(model, scene), np.array(model.markers()[marker]))
    x0, y0 = np.floor(box.min(axis=0)).astype(int) - 3
    x1, y1 = np.ceil(box.max(axis=0)).astype(int) + 3
    covered = image.copy()
    covered[max(y0, 0):y1, max(x0, 0):x1] = (60, 80, 100)
    return covered


def test_steady_camera_skips_marker_detection(config: VisionConfig) -> None:
    scene = Scene()
    locator = BoardLocator(config, board_model(6))
    first = locator.locate(render(start_position(), scene))
    second = locator.locate(render(start_position(), Scene(seed=1)))  # fresh noise, same pose
    assert first.status is LocationStatus.FOUND and first.detected
    assert second.status is LocationStatus.FOUND and not second.detected


def test_one_hidden_marker_is_tolerated(calibration6: Calibration) -> None:
    scene = Scene()
    image = hide_marker(render(start_position(), scene), scene, marker=2)
    frame = BoardReader(calibration6).read(image)
    assert frame.reading == BoardReading.of(start_position())
    assert frame.markers_seen == 3


def test_two_hidden_markers_read_only_where_the_board_was(calibration6: Calibration) -> None:
    # Two markers found (small ones far from a tilted camera are often missed) confirm a
    # board that has not moved, with its loops where they were; never a moved one.
    scene = Scene()
    image = hide_marker(hide_marker(render(start_position(), scene), scene, 0), scene, 1)
    frame = BoardReader(calibration6).read(image)
    assert frame.reading == BoardReading.of(start_position())
    assert frame.markers_seen == 2
    moved = Scene(pose=Pose(rotation_degrees=8, fill=0.85))
    image = hide_marker(hide_marker(render(start_position(), moved), moved, 0), moved, 1)
    assert BoardReader(calibration6).read(image).reading is None
    hidden = hide_marker(hide_marker(hide_marker(render(start_position(), scene), scene, 0),
                                     scene, 1), scene, 2)
    assert BoardReader(calibration6).read(hidden).status is ReadStatus.OCCLUDED


def test_a_moved_board_is_reported_once_then_read_again(calibration6: Calibration) -> None:
    reader = BoardReader(calibration6)
    before = render(start_position(), Scene())
    after = render(start_position(), Scene(pose=Pose(rotation_degrees=8, fill=0.85)))
    assert reader.read(before).status is ReadStatus.OK
    assert reader.read(after).status is ReadStatus.BOARD_MOVED
    assert reader.read(after).status is ReadStatus.OK


def test_no_board_in_view(calibration6: Calibration) -> None:
    table = np.full((480, 640, 3), (70, 95, 120), np.uint8)
    assert BoardReader(calibration6).read(table).status is ReadStatus.NO_BOARD


def test_a_frame_of_another_size_does_not_spoil_the_next_ones(calibration6: Calibration) -> None:
    # A camera that hiccups with a tiny or resized frame must not leave the locator
    # looking for its markers where they were in the other frame.
    reader = BoardReader(calibration6)
    image = render(start_position(6), Scene())
    assert reader.read(image).status is ReadStatus.OK
    for odd in (image[:1, :1].copy(), cv2.resize(image, None, fx=0.5, fy=0.5)):
        assert reader.read(odd).reading in (None, BoardReading.of(start_position(6)))
        frame = reader.read(image)
        assert frame.status is ReadStatus.OK
        assert frame.reading == BoardReading.of(start_position(6))
