"""Boards without markers found by their own lines and loops, with no corners clicked."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import cv2
import numpy as np
import pytest

from benchmarks.vision_rooms import turned_half_way
from controller.position import Position, parse_position, start_position
from controller.reading import BoardReading
from vision.board_model import board_model
from vision.calibrate import Calibration, calibrate
from vision.config import VisionConfig
from vision.errors import CalibrationFailed
from vision.find_board import enclosing_quadrilateral, find_board
from vision.reader import BoardReader
from vision.render import Pose, Scene, point_pixels, render

from .test_lens_and_pose import MIDDLE_GAME, barrel

ROOMS = Path(__file__).parent / "data" / "rooms"
MIDDLE_GAME_7 = parse_position("b5b/1r5/2b1r2/3r3/r1b4/7/6r b")


def test_the_outline_of_a_rounded_square_is_the_square() -> None:
    # The drawing's hull: a square with its corners rounded off, as the outer loops make it.
    angles = np.radians(np.arange(0, 360, 10))
    centres = [(2, 2), (7, 2), (7, 7), (2, 7)]
    points = np.concatenate([np.stack([cx + 2 * np.cos(angles), cy + 2 * np.sin(angles)], 1)
                             for cx, cy in centres]) * 20
    hull = cv2.convexHull(points.astype(np.float32))
    corners = enclosing_quadrilateral(hull)
    assert corners is not None
    expected = np.array([(0, 0), (180, 0), (180, 180), (0, 180)], np.float64)
    for corner in expected:
        assert np.linalg.norm(corners - corner, axis=1).min() < 1.0


def test_three_points_have_no_outline() -> None:
    assert enclosing_quadrilateral(np.array([[0, 0], [10, 0], [0, 10]], np.float32)) is None


@pytest.mark.parametrize("pose", [
    Pose(tilt_degrees=25, tilt_direction_degrees=120, rotation_degrees=30, fill=0.9),
    Pose(tilt_degrees=35, tilt_direction_degrees=10, rotation_degrees=-80, fill=0.7),
])
def test_a_board_without_markers_is_found_where_it_is(pose: Pose) -> None:
    scene = Scene(pose=pose, markers=False)
    found = find_board(render(start_position(), scene))
    assert found is not None and found.size == 6
    truth = point_pixels(6, scene)
    model = board_model(6)
    expected = np.array([truth[p] for p in model.points])
    seen = found.camera.project_sheet(np.array([model.point_mm(p) for p in model.points]))
    # Every point within a twentieth of a pitch of a true point (whichever way round).
    pitch = np.linalg.norm(expected[1] - expected[0])
    nearest = np.linalg.norm(seen[:, None] - expected[None], axis=2).min(axis=1)
    assert nearest.max() < 0.05 * pitch


@pytest.mark.slow
def test_an_image_of_a_table_has_no_board(config: VisionConfig) -> None:
    # Wood grain: long thin dark lines everywhere, but no loops.
    ys, xs = np.mgrid[0:480, 0:640]
    grain = 150 + 40 * np.sin((xs + 0.3 * ys + 8 * np.sin(ys / 40)) / 3.0)
    image = cv2.cvtColor(grain.astype(np.uint8), cv2.COLOR_GRAY2BGR)
    assert find_board(image) is None
    with pytest.raises(CalibrationFailed, match="no board found"):
        calibrate(config, image)


def calibrated_reading(config: VisionConfig, pose: Pose, board: Position,
                       lens: Callable[[np.ndarray], np.ndarray] = lambda image: image,
                       ) -> tuple[Calibration, BoardReading | None]:
    """Calibrate on the start position of a sheet without markers, no corners given, and
    read ``board`` in a frame of the same camera."""
    start = lens(render(start_position(board.size), Scene(pose=pose, markers=False)))
    calibration = calibrate(config, start)
    frame = lens(render(board, Scene(pose=pose, markers=False, seed=3)))
    return calibration, BoardReader(calibration, config).read(frame).reading


@pytest.mark.slow
def test_a_board_without_markers_calibrates_with_no_corners_given(
        config: VisionConfig) -> None:
    pose = Pose(tilt_degrees=25, tilt_direction_degrees=120, rotation_degrees=30, fill=0.9)
    calibration, reading = calibrated_reading(config, pose, MIDDLE_GAME)
    assert not calibration.uses_markers
    assert reading == BoardReading.of(MIDDLE_GAME)


@pytest.mark.slow
def test_rank_1_is_the_side_nearer_the_bottom_of_the_image(config: VisionConfig) -> None:
    # The board is upside down in the image: its a1 is at the top. A drawn board cannot tell
    # a1, so the side nearer the bottom is taken for rank 1 and the sets are named from it.
    pose = Pose(tilt_degrees=15, tilt_direction_degrees=250, rotation_degrees=175, fill=0.6)
    _, reading = calibrated_reading(config, pose, MIDDLE_GAME)
    assert reading == turned_half_way(BoardReading.of(MIDDLE_GAME))


@pytest.mark.slow
def test_ranks_are_told_from_files_on_a_board_turned_a_quarter(config: VisionConfig) -> None:
    pose = Pose(tilt_degrees=30, tilt_direction_degrees=0, rotation_degrees=95, fill=0.95,
                shift=(0.3, -0.2))
    _, reading = calibrated_reading(config, pose, MIDDLE_GAME)
    assert reading in (BoardReading.of(MIDDLE_GAME), turned_half_way(BoardReading.of(MIDDLE_GAME)))


@pytest.mark.slow
def test_a_7x7_board_without_markers_is_told_by_its_lines(config: VisionConfig) -> None:
    pose = Pose(tilt_degrees=20, tilt_direction_degrees=200, rotation_degrees=-10, fill=0.9)
    calibration, reading = calibrated_reading(config, pose, MIDDLE_GAME_7)
    assert calibration.size == 7
    assert reading == BoardReading.of(MIDDLE_GAME_7)


@pytest.mark.slow
def test_a_board_without_markers_through_a_wide_lens(config: VisionConfig) -> None:
    pose = Pose(tilt_degrees=25, tilt_direction_degrees=120, rotation_degrees=30, fill=0.9)
    calibration, reading = calibrated_reading(config, pose, MIDDLE_GAME,
                                              lambda image: barrel(image, -0.32, 0.08))
    assert calibration.camera.distortion[0] < -0.1
    assert reading == BoardReading.of(MIDDLE_GAME)


@pytest.mark.slow
def test_a_photoreal_board_whose_drawing_shadows_break_apart(config: VisionConfig) -> None:
    # Blender: a sheet without markers under a low lamp. The pieces' long shadows hide the
    # lines between them, so the drawing falls apart in the image and one loop stands
    # alone. Far side up: the board's a1 is at the image's top.
    start = cv2.imread(str(ROOMS / "no-markers-low-lamp-start.jpg"))
    calibration = calibrate(config, start)
    assert not calibration.uses_markers
    frame = BoardReader(calibration, config).read(
        cv2.imread(str(ROOMS / "no-markers-low-lamp-frame.jpg")))
    truth = BoardReading.parse("6/rb3r/1rb2r/1r4/1r4/6")
    assert frame.reading == turned_half_way(truth)
