"""A hand crosses the sheet round the grid on its way in; light changing slowly does not
make a hand of it."""

from __future__ import annotations

import json
from dataclasses import replace
from pathlib import Path

import numpy as np
import pytest

from controller.position import start_position
from controller.reading import BoardReading
from tests.vision.calibration_files import assert_kept_in_file
from vision.calibrate import Calibration, load_calibration, save_calibration
from vision.config import VisionConfig
from vision.reader import BoardReader, ReadStatus
from vision.render import Hand, Lighting, Scene, Shadow, render
from vision.surround import SheetSurround

START = start_position(6)
SKIN = (150.0, 170.0, 210.0)


def _arm_beyond_the_grid() -> Hand:
    # Fingertips a pitch and a half beyond file a: over the sheet round the grid, where no
    # paper sample between or beside the points reaches.
    return Hand(edge=3, entry=0.5, reach=(-1.5, 2.5), width_pitches=2.5, skin=SKIN)


def test_an_arm_over_the_sheet_round_the_grid_is_a_hand(
        config: VisionConfig, calibration6: Calibration) -> None:
    frame = render(START, Scene(hand=_arm_beyond_the_grid(), seed=3))
    reading = BoardReader(calibration6, config).read(frame)
    assert reading.status is ReadStatus.OCCLUDED and not reading.paper_clear
    assert reading.reading is None
    # Without the start position's view of that sheet (a calibration file written before
    # it was kept), the points alone are judged, and the board is read.
    unwatched = BoardReader(replace(calibration6, surround=None), config).read(frame)
    assert unwatched.reading == BoardReading.of(START)


def test_the_light_changing_over_the_sheet_is_no_hand(
        config: VisionConfig, calibration6: Calibration) -> None:
    # The light of the whole room, and its colour, changing at once: the camera sees the
    # sheet round the grid change alike.
    dimmer = Lighting(brightness=0.7, tint=(0.9, 1.0, 1.1))
    assert BoardReader(calibration6, config).read(
        render(START, Scene(lighting=dimmer, seed=4))).reading == BoardReading.of(START)


def _shadow_over_the_near_side(darkness: float) -> Lighting:
    # A soft shadow over the sheet beyond the first rank: a window's light leaving that side.
    return Lighting(shadows=(Shadow(((0.0, 0.8), (1.0, 0.8), (1.0, 1.0), (0.0, 1.0)),
                                    darkness, 0.05),))


def test_a_shadow_coming_in_slowly_is_followed(config: VisionConfig,
                                               calibration6: Calibration) -> None:
    final = render(START, Scene(lighting=_shadow_over_the_near_side(0.45), seed=5))
    # Come in at once, the shadow's edge over the sheet round the grid is as sharp as an
    # arm's: that frame alone is not read.
    assert BoardReader(calibration6, config).read(final).reading is None
    # Come in over a dozen frames (a second at the camera's rate, as a cloud passes), each
    # frame read plainly brings the reader's view of that sheet along with the light.
    reader = BoardReader(calibration6, config)
    for step, darkness in enumerate(np.linspace(0.95, 0.45, 12)):
        frame = render(START, Scene(lighting=_shadow_over_the_near_side(float(darkness)),
                                    seed=10 + step))
        assert reader.read(frame).reading == BoardReading.of(START), darkness
    assert reader.read(final).reading == BoardReading.of(START)


def test_the_sheet_round_the_grid_is_kept_in_the_calibration_file(
        calibration6: Calibration, tmp_path: Path) -> None:
    assert calibration6.surround is not None
    text = calibration6.surround.to_json()
    assert_kept_in_file(calibration6, tmp_path, (f'"surround": "{text[:12]}',
                                                 '"surround": "#not base64#'),
                        surround=calibration6.surround)


@pytest.mark.parametrize("data", ["", "aGVsbG8=", 7])
def test_a_malformed_sheet_surround_is_refused(calibration6: Calibration, data: object
                                               ) -> None:
    with pytest.raises(ValueError, match="sheet surround"):
        SheetSurround.from_json(data, calibration6.model)


def test_a_calibration_file_without_the_sheet_round_the_grid_still_loads(
        calibration6: Calibration, tmp_path: Path) -> None:
    path = tmp_path / "calibration.json"
    save_calibration(calibration6, path)
    data = json.loads(path.read_text())
    path.write_text(json.dumps({**data, "surround": None}))
    assert load_calibration(path).surround is None

