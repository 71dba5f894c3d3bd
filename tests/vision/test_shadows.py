"""A low lamp's long shadows: learned from the start position, allowed where they reach."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import cv2
import numpy as np
import pytest

from controller.geometry import point_name
from controller.reading import BoardReading
from tests.vision.calibration_files import assert_kept_in_file
from vision.calibrate import Calibration, start_labels
from vision.colour import LABELS, PointLabel
from vision.config import VisionConfig
from vision.reader import BoardReader, FrameReading, ReadStatus
from vision.shadows import ShadowReach, learn_shadow_reach, shadowed_cells

CELLS = np.array([(x + 0.5, y + 0.5) for y in range(-1, 6) for x in range(-1, 6)])
"""Grid positions of a 6x6 board's paper samples between and round its points."""
POINTS = np.array([(x, y) for y in range(6) for x in range(6)], np.float64)
"""Grid positions of its points, in the board model's order."""
ROOMS = Path(__file__).parent / "data" / "rooms"


def test_a_shadow_reaches_the_samples_along_its_way_and_no_others() -> None:
    piece = np.array([(x, y) == (2, 2) for x, y in POINTS])
    reach = ShadowReach((1.0, 0.0), 1.5)
    inside = {tuple(cell) for cell in CELLS[shadowed_cells(reach, CELLS, POINTS, piece)]}
    # Beside the piece on both sides of its way, and a pitch further along it.
    assert inside == {(2.5, 2.5), (2.5, 1.5), (3.5, 2.5), (3.5, 1.5)}
    assert not shadowed_cells(reach, CELLS, POINTS, np.zeros(len(POINTS), bool)).any()


def test_the_start_position_shows_the_way_and_length_of_the_shadows() -> None:
    occupied = start_labels(6) != LABELS.index(PointLabel.EMPTY)
    # The lamp low beyond the first rank: each shadow reaches two pitches up the files.
    truth = ShadowReach((0.0, 1.0), 2.0)
    depth = np.where(shadowed_cells(truth, CELLS, POINTS, occupied), 0.6, 0.0)
    beside = _beside(occupied)
    everywhere = np.ones(len(CELLS), bool)
    learned = learn_shadow_reach(CELLS, POINTS, occupied, depth, everywhere)
    assert learned is not None
    # Its shadows cover the shadowed samples beyond those beside the pieces, and no lit one.
    covers = shadowed_cells(learned, CELLS, POINTS, occupied)
    assert covers[(depth > 0) & ~beside].all()
    assert not covers[depth == 0].any()
    assert learned.direction[1] > 0.5  # up the files, as the lamp casts them
    # Paper lit evenly: nothing to learn.
    assert learn_shadow_reach(CELLS, POINTS, occupied, np.zeros(len(CELLS)), everywhere) is None


def test_a_few_dark_shadows_are_no_low_lamp() -> None:
    # Window light: three pieces of the second rank cast shadows dark enough to count, on
    # the paper beside them alone. A low lamp darkens the paper beside nearly every piece.
    occupied = start_labels(6) != LABELS.index(PointLabel.EMPTY)
    depth = np.where([tuple(cell) in {(0.5, 1.5), (2.5, 1.5), (4.5, 1.5)} for cell in CELLS],
                     0.4, 0.0)
    assert learn_shadow_reach(CELLS, POINTS, occupied, depth, np.ones(len(CELLS), bool),
                              _beside(occupied)) is None


def test_deep_shadows_teach_the_lamp_though_few_of_them_show() -> None:
    # A lamp low beyond the f-file: each shadow falls a pitch and a half along its rank,
    # over the next pieces, and shows only beyond the a-file's. Six samples, fewer than half
    # the pieces: as deep as only a low lamp casts, they are its shadows; as soft as a
    # window's, they are not.
    occupied = start_labels(6) != LABELS.index(PointLabel.EMPTY)
    along = shadowed_cells(ShadowReach((-1.0, 0.0), 1.5), CELLS, POINTS, occupied)
    showing = along & (CELLS[:, 0] < 0)
    assert 0.2 * occupied.sum() < showing.sum() < 0.5 * occupied.sum()
    everywhere = np.ones(len(CELLS), bool)
    learned = learn_shadow_reach(CELLS, POINTS, occupied, np.where(showing, 1.2, 0.0),
                                 everywhere, _beside(occupied))
    assert learned is not None
    assert learned.direction[0] < -0.9  # along the ranks, away from the lamp
    assert learned.deepest == pytest.approx(1.2)
    assert learn_shadow_reach(CELLS, POINTS, occupied, np.where(showing, 0.4, 0.0),
                              everywhere, _beside(occupied)) is None


def _beside(occupied: np.ndarray) -> np.ndarray:
    """(cells,) the samples diagonally next to an occupied point."""
    return np.array([any(abs(cx - x) == 0.5 and abs(cy - y) == 0.5 and taken
                         for (x, y), taken in zip(POINTS, occupied, strict=True))
                     for cx, cy in CELLS])


def test_the_shadow_reach_is_kept_in_the_calibration_file(calibration6: Calibration,
                                                          tmp_path: Path) -> None:
    assert_kept_in_file(calibration6, tmp_path, ('"length": 1.5', '"length": -1'),
                        shadow_reach=ShadowReach((0.0, -1.0), 1.5, 1.2))
    assert_kept_in_file(calibration6, tmp_path, ('"deepest": 1.2', '"deepest": -1'),
                        shadow_reach=ShadowReach((0.0, -1.0), 1.5, 1.2))


def test_a_shadow_reach_written_without_its_depth_is_as_deep_as_any_room_s() -> None:
    reach = ShadowReach.from_json({"direction": [0.0, -1.0], "length": 1.5})
    assert reach == ShadowReach((0.0, -1.0), 1.5, 0.0)


def test_long_shadows_under_a_low_lamp_calibrate_and_leave_the_board_readable(
        room_calibration: Callable[[str], Calibration], config: VisionConfig) -> None:
    # Red and black pieces under a lamp low beside the board (a Blender render): each
    # piece's shadow reaches two pitches across the paper, over samples no piece stands
    # beside. The start position was refused as covered, and nearly every frame with it.
    calibration = room_calibration("long-shadows-low-lamp-start.jpg")
    assert calibration.shadow_reach is not None
    reader = BoardReader(calibration, config)
    frame = reader.read(cv2.imread(str(ROOMS / "long-shadows-low-lamp-frame.jpg")))
    assert frame.reading == BoardReading.parse("bbrbrb/2rr2/1bbr2/1r2br/r1rr2/r1b1rb")
    # A hand over the board casts no such shadows: still a hand.
    hand = reader.read(cv2.imread(str(ROOMS / "long-shadows-low-lamp-hand.jpg")))
    assert hand.status is ReadStatus.OCCLUDED and hand.reading is None


def test_shadows_along_the_ranks_are_learned_though_half_the_paper_beside_them_is_lit(
        room_calibration: Callable[[str], Calibration], config: VisionConfig) -> None:
    # Glossy red pieces under a low lamp beyond the f-file (a Blender render): each shadow
    # falls a pitch and a half along its rank, over the next piece, so of the paper beside
    # the pieces only the side the shadow grazes is dark. Counting the lit side against the
    # lamp's way left the shadows unlearned, and every frame with a piece's shadow reaching
    # past its neighbours was taken for a hand. The bare point e2 lies in f2's shadow and
    # shows its lines: it was read nearly as a black piece, and the frame was doubtful.
    frame = _read_under_learned_shadows(room_calibration, config, "along-ranks-low-lamp")
    assert frame.reading == BoardReading.parse("6/1r1r2/1r4/rr4/b1r2r/2rr2")
    reach = room_calibration("along-ranks-low-lamp-start.jpg").shadow_reach
    assert reach is not None and abs(reach.direction[0]) > 0.9  # along the ranks


def test_a_lamp_8_cm_above_the_table_casts_shadows_that_are_no_hand(
        room_calibration: Callable[[str], Calibration], config: VisionConfig) -> None:
    # Printed pieces under a bulb 8 cm above the table, 30 cm beyond the f-file (a Blender
    # render, seed 401). The start position's shadows fall along its ranks onto the next
    # pieces, and only 12 shadowed samples show beside 24 pieces: no lamp was learned, and
    # every frame was taken for a hand. Those samples lie 0.9 to 1.4 below the lit paper,
    # deeper than a window's or a spotlight's shadows.
    frame = _read_under_learned_shadows(room_calibration, config, "lamp-8cm-low-lamp")
    assert frame.reading == BoardReading.parse("r3r1/2b1r1/3brb/1r1r1r/3r2/1rb3")
    # The bare points c1 and d2 lie 1.35 and 1.39 deep in shadows, as deep as the start
    # position's deepest, showing their whole cross: read bare, never as black pieces
    # (read surely as black, they were a wrong board that only a doubtful b5 hid).
    second = _read_under_learned_shadows(room_calibration, config, "lamp-8cm-low-lamp",
                                         "-2")
    truth = BoardReading.parse("b2r2/6/2bbb1/bbbb2/b3rb/3b1b")
    # (Read, where the presence network tells the doubtful point; else the game reads it.)
    assert second.reading == truth or second.fitting([truth]) == truth
    labels = dict(zip(map(point_name, second.points), second.labels, strict=True))
    assert labels["c1"] is PointLabel.EMPTY and labels["d2"] is PointLabel.EMPTY


def _read_under_learned_shadows(room_calibration: Callable[[str], Calibration],
                                config: VisionConfig, name: str, frame: str = ""
                                ) -> FrameReading:
    """What a fresh reader reads from the room render ``name``'s frame (``frame`` its
    suffix), after asserting that its calibration learned the pieces' shadows."""
    calibration = room_calibration(f"{name}-start.jpg")
    assert calibration.shadow_reach is not None
    return BoardReader(calibration, config).read(
        cv2.imread(str(ROOMS / f"{name}-frame{frame}.jpg")))
