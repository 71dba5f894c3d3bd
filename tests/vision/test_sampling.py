"""Sampling the printed cross: every point's lines are looked for where they are printed."""

from __future__ import annotations

import numpy as np
import pytest

from controller.geometry import point_at, point_name
from controller.position import parse_position
from vision.calibrate import Calibration
from vision.config import VisionConfig
from vision.locate import BoardLocator
from vision.render import Pose, Scene, render
from vision.sampling import (
    cross_contrast,
    judged_against_paper,
    sample_board,
    sampling_layout,
    view_maps,
)


@pytest.mark.parametrize("size", [6, 7])
def test_arms_are_the_printed_lines_and_loops(config: VisionConfig, size: int) -> None:
    layout = sampling_layout(config, size)
    arms = {point_name(point_at(x, y)): int(layout.point_arms[y * size + x].sum())
            for y in range(size) for x in range(size)}
    last = size - 1
    # A corner point has two lines and no loop; the other edge points carry a loop on,
    # except the middle line of a 7x7 board, which no loop continues.
    for corner in (point_at(0, 0), point_at(last, 0), point_at(0, last), point_at(last, last)):
        assert arms[point_name(corner)] == 2
    assert arms["b1"] == arms["c1"] == 4
    if size == 7:
        assert arms["d1"] == arms["a4"] == 3


@pytest.mark.parametrize("pose", [Pose(), Pose(tilt_degrees=30, tilt_direction_degrees=45,
                                                 rotation_degrees=20, fill=0.85)])
def test_corner_points_show_their_lines_as_plainly_as_the_others(
    calibration6: Calibration, config: VisionConfig, pose: Pose
) -> None:
    # An empty board: every point's cross is in plain view.
    image = render(parse_position("6/6/6/6/6/6 r"), Scene(pose=pose, seed=4))
    layout = sampling_layout(config, 6)
    camera = BoardLocator(config, calibration6.model, calibration6.camera).locate(image).camera
    assert camera is not None
    maps = view_maps(layout, calibration6.model, camera, calibration6.piece_height)
    samples = judged_against_paper(layout, sample_board(layout, image, maps), maps.cover,
                                   np.zeros(36, bool))
    corners = samples.cross[[0, 5, 30, 35]]
    assert corners.min() > 0.7 * float(np.median(samples.cross))


def _profiles(across: list[float]) -> np.ndarray:
    """One point's four arms, each showing ``across`` (grey levels, CROSS_ACROSS order)."""
    grey = np.array(across, np.float32)
    return np.repeat(np.repeat(grey[None, None, :, None], 4, axis=1), 3, axis=3)


@pytest.mark.parametrize(("across", "line"), [
    # Printed ink on paper in a low lamp's shadow: tens of levels below the paper beside.
    ([80, 74, 52, 34, 55, 76, 82], True),
    # The side of a black piece where its point's arms are sampled: shading and noise of a
    # few levels, a fifth of its own darkness. Taken for a line, black pieces showed half a
    # cross, and a shadowed bare point showing its lines was read nearly as a black piece.
    ([26, 30, 27, 22, 24, 29, 27], False),
])
def test_a_line_is_a_dip_deeper_than_a_dark_surface_varies(across: list[float],
                                                           line: bool) -> None:
    arms = np.ones((1, 4), bool)
    paper = np.array([[90.0, 90.0, 90.0]])
    contrast = float(cross_contrast(_profiles(across), arms, paper)[0])
    assert (contrast > 0.3) if line else contrast == 0.0
