"""Clicking the corners of a board without markers: the logic, the window (headless), the CLI."""

from __future__ import annotations

import json
import sys
from collections.abc import Iterator
from pathlib import Path

import cv2
import numpy as np
import pygame
import pytest

from controller.position import start_position
from controller.reading import BoardReading
from firmware.cli import main
from firmware.corner_picker import (
    CalibrationCancelled,
    CornerClicks,
    PickState,
    fit_scale,
    pick_corners,
    to_image,
    to_window,
    window_bounds,
)
from vision.board_model import board_model
from vision.calibrate import calibrate, homography_from_corners
from vision.config import VisionConfig
from vision.errors import CalibrationFailed
from vision.reader import BoardReader, ReadStatus
from vision.render import Pose, Scene, point_pixels, render

SQUARE = [(10.0, 90.0), (90.0, 90.0), (90.0, 10.0), (10.0, 10.0)]
"""A board seen straight on, in window pixels: a1 bottom-left, then anticlockwise."""


# ------------------------------------------------------------------ the logic


def test_prompts_ask_for_the_corners_in_order() -> None:
    clicks = CornerClicks(size=6, scale=1.0)
    prompts = []
    for position in SQUARE:
        prompts.append(clicks.prompt)
        clicks.click(position)
    assert "click the centre of point a1 (bottom-left)" in prompts[0]
    assert "point f1 (bottom-right)" in prompts[1]
    assert "point f6 (top-right)" in prompts[2]
    assert "point a6 (top-left)" in prompts[3]
    assert "Enter" in clicks.prompt


def test_prompts_name_the_points_of_a_seven_line_board() -> None:
    clicks = CornerClicks(size=7, scale=1.0)
    clicks.click(SQUARE[0])
    assert "point g1 (bottom-right)" in clicks.prompt


def test_undo_takes_back_the_last_click() -> None:
    clicks = CornerClicks(size=6, scale=1.0)
    clicks.undo()  # nothing to take back: no harm
    clicks.click(SQUARE[0])
    clicks.click((50.0, 50.0))
    clicks.undo()
    assert clicks.clicks == [SQUARE[0]]
    assert "point f1" in clicks.prompt
    clicks.click(SQUARE[1])
    assert clicks.clicks == SQUARE[:2]


def test_corners_are_in_original_image_pixels() -> None:
    # At scale 2 the window pixels 20 and 21 show image pixel 10: their middle is its centre.
    clicks = CornerClicks(size=6, scale=2.0)
    for x, y in SQUARE:
        clicks.click((2 * x + 0.5, 2 * y + 0.5))
    assert np.allclose(clicks.corners(), SQUARE)
    shrunk = CornerClicks(size=6, scale=0.5)
    shrunk.click((49.75, 99.75))
    assert np.allclose(shrunk.corners(), [(100.0, 200.0)])


def test_window_and_image_positions_convert_both_ways() -> None:
    for scale in (0.37, 1.0, 1.6):
        assert to_image(to_window((123.4, 56.7), scale), scale) == pytest.approx((123.4, 56.7))


def test_the_image_is_fitted_to_the_window_both_ways() -> None:
    assert fit_scale((640, 480), (1200, 800)) > 1.5  # a small frame is enlarged
    assert 0.5 < fit_scale((2000, 1500), (1200, 800)) < 0.6
    wide = fit_scale((2000, 500), (1200, 800))
    assert round(2000 * wide) == 1200


def test_accepting_needs_four_corners() -> None:
    clicks = CornerClicks(size=6, scale=1.0)
    for position in SQUARE[:3]:
        clicks.click(position)
    assert not clicks.accept()
    assert "point a6" in clicks.prompt  # still asking for the last corner
    clicks.click(SQUARE[3])
    assert clicks.accept()
    assert clicks.state is PickState.ACCEPTED


def test_a_fifth_click_accepts() -> None:
    clicks = CornerClicks(size=6, scale=1.0)
    for position in [*SQUARE, (500.0, 500.0)]:
        clicks.click(position)
    assert clicks.state is PickState.ACCEPTED and clicks.clicks == SQUARE


def test_corners_out_of_order_are_refused_until_undone() -> None:
    clicks = CornerClicks(size=6, scale=1.0)
    for position in (SQUARE[0], SQUARE[2], SQUARE[1], SQUARE[3]):  # outline crosses itself
        clicks.click(position)
    assert "out of order" in clicks.prompt
    assert not clicks.accept()
    clicks.click((1.0, 1.0))  # nor does a fifth click accept them
    assert clicks.state is PickState.PICKING
    clicks.undo()
    clicks.undo()
    clicks.undo()
    for position in SQUARE[1:]:
        clicks.click(position)
    assert clicks.accept()


def test_corners_that_go_round_the_wrong_way_are_refused_in_the_window() -> None:
    # As a camera that mirrors its picture shows a board: calibration would refuse these
    # corners, so the window does, while a click can still be undone.
    clicks = CornerClicks(size=6, scale=1.0)
    for x, y in SQUARE:
        clicks.click((100.0 - x, y))
    assert "mirror its picture" in clicks.prompt
    assert not clicks.accept()
    with pytest.raises(CalibrationFailed, match="wrong way"):
        homography_from_corners(6, clicks.corners())
    crossing = CornerClicks(size=6, scale=1.0)
    for position in (SQUARE[0], SQUARE[2], SQUARE[1], SQUARE[3]):
        crossing.click(position)
    assert "out of order" in crossing.prompt and "mirror" not in crossing.prompt


def test_the_grid_preview_runs_through_the_points() -> None:
    clicks = CornerClicks(size=6, scale=1.0)
    clicks.click(SQUARE[0])
    clicks.click(SQUARE[1])
    assert clicks.grid_lines() == [(SQUARE[0], SQUARE[1])]
    clicks.click(SQUARE[2])
    clicks.click(SQUARE[3])
    lines = clicks.grid_lines()
    assert len(lines) == 12
    # The second file line, b1 to b6, sits a fifth of the way across.
    assert any(a == pytest.approx((26.0, 90.0)) and b == pytest.approx((26.0, 10.0))
               for a, b in lines)


def test_cancelled_picking_ignores_further_clicks() -> None:
    clicks = CornerClicks(size=6, scale=1.0)
    clicks.cancel()
    clicks.click(SQUARE[0])
    assert clicks.clicks == [] and clicks.state is PickState.CANCELLED


# ------------------------------------------------------------------ the window, headless


@pytest.fixture
def display() -> Iterator[None]:
    """pygame's display on SDL's dummy driver (tests/conftest.py), to post events to."""
    pygame.display.init()
    try:
        yield
    finally:
        pygame.quit()


def post_key(key: int) -> None:
    pygame.event.post(pygame.event.Event(pygame.KEYDOWN, key=key, mod=0, unicode=""))


def post_click(position: tuple[float, float], button: int = 1) -> None:
    pos = (round(position[0]), round(position[1]))
    motion = pygame.event.Event(pygame.MOUSEMOTION, pos=pos, rel=(0, 0), buttons=(0, 0, 0))
    pygame.event.post(motion)
    pygame.event.post(pygame.event.Event(pygame.MOUSEBUTTONDOWN, pos=pos, button=button))


def true_corners(scene: Scene) -> list[tuple[float, float]]:
    pixels = point_pixels(6, scene)
    return [pixels[p] for p in board_model(6).corner_points()]


@pytest.fixture(scope="module")
def tilted() -> tuple[Scene, np.ndarray]:
    scene = Scene(pose=Pose(tilt_degrees=20, rotation_degrees=8))
    return scene, render(start_position(), scene)


def reads_the_start_position(image: np.ndarray, corners: list[tuple[float, float]]) -> bool:
    reading = BoardReader(calibrate(VisionConfig(), image, corners, 6)).read(image)
    return reading.status is ReadStatus.OK and reading.reading == BoardReading.of(start_position())


@pytest.mark.slow
@pytest.mark.parametrize("max_window", [(960, 750), (480, 390)], ids=["enlarged", "shrunk"])
def test_clicked_corners_calibrate_the_board(
        display: None, tilted: tuple[Scene, np.ndarray], max_window: tuple[int, int]) -> None:
    scene, image = tilted
    scale = fit_scale((image.shape[1], image.shape[0]), max_window)
    truth = true_corners(scene)
    post_click(to_window((5.0, 5.0), scale))  # a slip of the hand...
    post_key(pygame.K_BACKSPACE)  # ...taken back
    for corner in truth:
        post_click(to_window(corner, scale))
    post_key(pygame.K_RETURN)
    post_key(pygame.K_ESCAPE)  # never reached when Enter accepts: no hang if it does not
    corners = pick_corners(image, 6, max_window)
    assert np.allclose(corners, truth, atol=0.5 / scale + 0.01)
    assert reads_the_start_position(image, corners)


def test_clicks_on_the_status_line_are_ignored(
        display: None, tilted: tuple[Scene, np.ndarray]) -> None:
    scene, image = tilted
    scale = fit_scale((image.shape[1], image.shape[0]), (960, 750))
    post_click((100, 740))  # below the image
    for corner in true_corners(scene):
        post_click(to_window(corner, scale))
    post_click((100, 100), button=3)  # right click undoes too
    post_click(to_window(true_corners(scene)[3], scale))
    post_click((100, 100))  # a fifth click accepts
    post_key(pygame.K_ESCAPE)
    corners = pick_corners(image, 6, (960, 750))
    assert np.allclose(corners, true_corners(scene), atol=0.5 / scale + 0.01)


def test_closing_the_window_cancels(display: None, tilted: tuple[Scene, np.ndarray]) -> None:
    post_click((50, 50))
    pygame.event.post(pygame.event.Event(pygame.QUIT))
    with pytest.raises(CalibrationCancelled, match="calibration cancelled"):
        pick_corners(tilted[1], 6, (960, 750))


# ------------------------------------------------------------------ the command


@pytest.fixture(scope="module")
def start_image(tmp_path_factory: pytest.TempPathFactory,
                tilted: tuple[Scene, np.ndarray]) -> Path:
    path = tmp_path_factory.mktemp("click") / "start.png"
    cv2.imwrite(str(path), tilted[1])
    return path


@pytest.mark.slow
def test_calibrate_click_writes_the_clicked_corners(
        display: None, tilted: tuple[Scene, np.ndarray], start_image: Path, tmp_path: Path,
        capsys: pytest.CaptureFixture[str]) -> None:
    scene, image = tilted
    scale = fit_scale((image.shape[1], image.shape[0]), window_bounds())
    for corner in true_corners(scene):
        post_click(to_window(corner, scale))
    post_key(pygame.K_KP_ENTER)
    post_key(pygame.K_ESCAPE)
    cal = tmp_path / "cal.json"
    assert main(["calibrate", str(start_image), "--out", str(cal), "--click"]) == 0
    out = capsys.readouterr().out
    assert out.startswith("corners: ") and "(corners): wrote" in out
    stored = json.loads(cal.read_text())["corners"]
    assert np.allclose(stored, true_corners(scene), atol=0.5 / scale + 0.01)


def test_escape_cancels_the_calibration(
        display: None, start_image: Path, tmp_path: Path,
        capsys: pytest.CaptureFixture[str]) -> None:
    post_click((50, 50))
    post_key(pygame.K_ESCAPE)
    cal = tmp_path / "cal.json"
    assert main(["calibrate", str(start_image), "--out", str(cal), "--click"]) == 2
    assert capsys.readouterr().err == "surakarta calibrate: calibration cancelled\n"
    assert not cal.exists()


def test_click_without_a_display_suggests_corners(
        start_image: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str],
        monkeypatch: pytest.MonkeyPatch) -> None:
    for name in ("SDL_VIDEODRIVER", "DISPLAY", "WAYLAND_DISPLAY"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setattr(sys, "platform", "linux")
    assert main(["calibrate", str(start_image), "--out", str(tmp_path / "cal.json"),
                 "--click"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "no display" in err and "--corners" in err


def test_click_and_corners_do_not_go_together(
        start_image: Path, capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exit_status:
        main(["calibrate", str(start_image), "--out", "cal.json", "--click",
              "--corners", "1,2,3,4,5,6,7,8"])
    assert exit_status.value.code == 2
    assert "not allowed with" in capsys.readouterr().err
