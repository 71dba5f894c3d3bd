"""Lenses and camera poses of real rooms: wide lenses, knocked cameras, look-alike pieces."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path

import cv2
import numpy as np
import pytest

from controller.position import parse_position, start_position
from controller.reading import BoardReading
from vision.board_model import board_model
from vision.calibrate import Calibration, calibrate, load_calibration, save_calibration
from vision.camera import intrinsic_matrix
from vision.config import VisionConfig
from vision.errors import BadCalibration, CalibrationFailed
from vision.reader import BoardReader, FrameReading, ReadStatus
from vision.render import Pose, Scene, point_pixels, render

MIDDLE_GAME = parse_position("b4b/1r4/2b1r1/3r2/r1b3/5r b")


def barrel(image: np.ndarray, k1: float, k2: float = 0.0) -> np.ndarray:
    """The image as a lens with radial distortion (OpenCV's model) would have taken it."""
    height, width = image.shape[:2]
    matrix = intrinsic_matrix(width / 2 / np.tan(np.radians(30)), width, height)
    ys, xs = np.mgrid[0:height, 0:width].astype(np.float32)
    seen = np.stack([xs.ravel(), ys.ravel()], axis=1).reshape(-1, 1, 2)
    # Each distorted pixel shows what the pinhole image has at its undistorted place.
    source = cv2.undistortPoints(seen, matrix, np.array([k1, k2, 0, 0, 0.0]), P=matrix)
    maps = source.reshape(height, width, 2)
    return cv2.remap(image, maps[..., 0], maps[..., 1], cv2.INTER_LINEAR,
                     borderMode=cv2.BORDER_REPLICATE)


@pytest.mark.parametrize("pose", [
    Pose(fill=0.92),
    Pose(tilt_degrees=25, tilt_direction_degrees=120, rotation_degrees=30, fill=0.9),
])
@pytest.mark.slow
def test_a_wide_lens_calibrates_and_reads(config: VisionConfig, pose: Pose) -> None:
    # A Pi Camera Module 3 Wide bends the sheet's straight lines; one homography cannot fit
    # its four markers, so the lens is learned from the sheet's own lines and loops.
    start = barrel(render(start_position(), Scene(pose=pose)), -0.32, 0.08)
    calibration = calibrate(config, start)
    assert calibration.camera.distortion[0] < -0.1
    reader = BoardReader(calibration, config)
    frame = reader.read(barrel(render(MIDDLE_GAME, Scene(pose=pose, seed=4)), -0.32, 0.08))
    assert frame.reading == BoardReading.of(MIDDLE_GAME)


def test_a_fisheye_seen_steeply_calibrates_from_its_four_markers(
        config: VisionConfig, room_reading: Callable[[str], FrameReading],
        room_calibration: Callable[[str], Calibration]) -> None:
    # Shells and pebbles under a cheap fisheye webcam looking 28 degrees from above (a
    # Blender render: k1 -0.43, k2 0.13). One distortion term left a marker 15 pixels off,
    # which refused the calibration ("only 4 of its 4 markers fit together").
    lens = room_calibration("steep-fisheye-shells-start.jpg").camera
    assert lens.distortion[0] == pytest.approx(-0.43, abs=0.05)
    assert lens.distortion[1] == pytest.approx(0.13, abs=0.05)
    assert room_reading("steep-fisheye-shells").reading == BoardReading.parse(
        "1r3r/1rr2r/rb1r2/5r/1r2r1/6")


def test_a_fisheye_with_a_marker_unread_calibrates_from_the_other_three(
        config: VisionConfig, room_reading: Callable[[str], FrameReading],
        room_calibration: Callable[[str], Calibration]) -> None:
    # Pebbles under a fisheye webcam seen from the side (a room render): the marker at the
    # bent edge of the view is not read. Three markers fitted without a distortion term
    # left each a third of its side off, and the calibration was refused ("only 3 of its
    # 4 markers fit together").
    lens = room_calibration("unread-marker-fisheye-start.jpg").camera
    assert lens.distortion[0] < -0.1
    assert room_reading("unread-marker-fisheye").reading == BoardReading.parse(
        "rb4/6/2r2b/4b1/3r2/6")


def marker_free(scene: Scene, config: VisionConfig) -> BoardReader:
    pixels = point_pixels(6, scene)
    # Corners clicked a pixel or two off, as a person clicks.
    corners = [(pixels[p][0] + 1.5, pixels[p][1] - 1.0) for p in board_model(6).corner_points()]
    return BoardReader(calibrate(config, render(start_position(), scene), corners=corners), config)


STEADY = Pose(tilt_degrees=15, tilt_direction_degrees=30, rotation_degrees=5, fill=0.85)


@pytest.mark.slow
def test_a_knocked_camera_without_markers_is_noticed_and_found_again(
        config: VisionConfig) -> None:
    reader = marker_free(Scene(pose=STEADY), config)
    assert reader.read(render(MIDDLE_GAME, Scene(pose=STEADY))).is_ok
    knocked = Pose(tilt_degrees=15, tilt_direction_degrees=30, rotation_degrees=6, fill=0.85)
    frames = [reader.read(render(MIDDLE_GAME, Scene(pose=knocked, seed=seed)))
              for seed in range(3)]
    # The board turned by a degree in the image: a whole file's shift on the far side if the
    # old place were kept. It is reported as moved, then read at its new place.
    assert frames[0].status is ReadStatus.BOARD_MOVED
    assert all(f.reading in (None, BoardReading.of(MIDDLE_GAME)) for f in frames)
    assert frames[-1].reading == BoardReading.of(MIDDLE_GAME)


@pytest.mark.slow
def test_a_board_moved_far_without_markers_is_found_again_by_its_lines(
        config: VisionConfig) -> None:
    reader = marker_free(Scene(pose=STEADY), config)
    moved = Pose(tilt_degrees=15, tilt_direction_degrees=30, rotation_degrees=5, fill=0.85,
                 shift=(0.15, 0.0))
    frames = [reader.read(render(MIDDLE_GAME, Scene(pose=moved, seed=seed)))
              for seed in range(5)]
    # Too far to be searched for near its old place: once the move has lasted three frames
    # the board is found anew over the whole frame. Never read shifted.
    assert all(frame.reading is None and frame.status is ReadStatus.BOARD_MOVED
               for frame in frames[:3])
    assert [frame.reading for frame in frames[3:]] == [BoardReading.of(MIDDLE_GAME)] * 2


@pytest.mark.slow
def test_a_board_without_markers_that_is_gone_is_never_read(config: VisionConfig) -> None:
    reader = marker_free(Scene(pose=STEADY), config)
    table = np.full((480, 640, 3), (70, 95, 120), np.uint8)
    for _ in range(3):
        frame = reader.read(table)
        assert frame.reading is None and frame.status is not ReadStatus.OK


@pytest.mark.slow
def test_pieces_that_look_alike_are_named_with_a_suggestion(config: VisionConfig) -> None:
    white, cream = (235.0, 240.0, 242.0), (200.0, 228.0, 238.0)
    with pytest.raises(CalibrationFailed, match=r"look like bare paper|look alike"):
        calibrate(config, render(start_position(), Scene(piece_colours=(white, cream))))


def test_a_calibration_from_the_first_version_asks_for_a_new_one(
        calibration6: object, tmp_path: Path) -> None:
    path = tmp_path / "old.json"
    save_calibration(calibration6, path)  # type: ignore[arg-type]
    data = json.loads(path.read_text())
    data["version"] = 1
    path.write_text(json.dumps(data))
    with pytest.raises(BadCalibration, match="calibrate again"):
        load_calibration(path)
