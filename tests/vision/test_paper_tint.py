"""The light's colour over the sheet, learned at calibration (``vision.paper_tint``).

A room render (``benchmarks/vision_rooms.py``, condition spotlight) of rimmed red and black
pieces under a 3,550 K spotlight, in a room lit by a 3,000 K lamp over a magenta
tablecloth: beyond the spotlight's cone the paper is pinker than in it, by a little more
than the paper check allows anywhere (0.13). Four of this board's ten frames were taken for
covered there.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from pathlib import Path

import cv2
import numpy as np
import pytest

from controller.position import start_position
from controller.reading import BoardReading
from tests.vision.calibration_files import assert_kept_in_file
from vision.calibrate import Calibration
from vision.config import VisionConfig
from vision.paper_tint import PaperTint
from vision.reader import BoardReader, FrameReading
from vision.reductions import channel_norm
from vision.sampling import sampling_layout

ROOMS = Path(__file__).parent / "data" / "rooms"
ROOM = "pink-edge-spotlight"


def test_paper_at_the_pink_edge_of_a_spotlight_is_read_as_bare(
        room_reading: Callable[[str], FrameReading]) -> None:
    assert room_reading(ROOM).reading == BoardReading.parse("2bb2/1r3b/2b3/1b2bb/rbb3/b3b1")


def test_the_tint_is_the_paper_s_pinker_colour_beyond_the_cone(
        config: VisionConfig, room_calibration: Callable[[str], Calibration]) -> None:
    tint = room_calibration(f"{ROOM}-start.jpg").paper_tint
    assert tint is not None
    layout = sampling_layout(config, 6)
    at_cells = tint.at(6, layout.paper_grid[layout.on_grid])
    # Zero at the median paper, and up to about 0.17 where the cone ends.
    assert float(np.median(channel_norm(at_cells))) < 0.06
    assert 0.13 < float(channel_norm(at_cells).max()) < 0.25


def test_a_hand_at_the_pink_edge_is_still_a_hand(
        config: VisionConfig, room_calibration: Callable[[str], Calibration]) -> None:
    reader = BoardReader(room_calibration(f"{ROOM}-start.jpg"), config)
    assert reader.read(cv2.imread(str(ROOMS / f"{ROOM}-hand.jpg"))).reading is None


def test_a_light_changed_since_calibration_loses_no_frame(
        config: VisionConfig, room_calibration: Callable[[str], Calibration]) -> None:
    # Shells and pebbles under an evenly coloured spotlight, with a tint from red at one
    # side of the sheet to blue at the other that its light no longer gives: the paper
    # is judged as it is too.
    name = "spotlight-shells-start.jpg"
    gone = PaperTint(((0.0, 0.0, 0.0), (0.2, 0.0, -0.2), (0.0, 0.0, 0.0), (0.0, 0.0, 0.0),
                      (0.0, 0.0, 0.0), (0.0, 0.0, 0.0)))
    calibration = replace(room_calibration(name), paper_tint=gone)
    frame = BoardReader(calibration, config).read(cv2.imread(str(ROOMS / name)))
    assert frame.reading == BoardReading.of(start_position(6))


def test_the_tint_is_kept_in_the_calibration_file(calibration6: Calibration,
                                                   tmp_path: Path) -> None:
    tint = PaperTint(((0.01, -0.02, 0.01), (0.05, 0.0, -0.05), (0.0, 0.0, 0.0),
                      (0.0, 0.0, 0.0), (0.0, 0.0, 0.0), (0.0, 0.0, 0.0)))
    assert_kept_in_file(calibration6, tmp_path, ('"paper_tint": [\n  [\n   0.01',
                                                 '"paper_tint": [\n  [\n   "pink"'),
                        paper_tint=tint)


@pytest.mark.parametrize("data", [[[0.0, 0.0, 0.0]] * 5, "pink", [[0.0, 0.0, float("nan")]] * 6])
def test_a_malformed_tint_is_refused_in_one_line(data: object) -> None:
    with pytest.raises(ValueError, match="paper tint is not six rows of three numbers"):
        PaperTint.from_json(data)
