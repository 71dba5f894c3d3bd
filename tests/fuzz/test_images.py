"""Images and frames: files cut short, vanishing or of any bytes; arrays of any shape."""

from __future__ import annotations

from pathlib import Path

import cv2
import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp

from controller.position import start_position
from tests.fuzz import both_tiers, fuzz, one_line
from vision.errors import BadImage, CameraUnavailable
from vision.render import Scene, render
from vision.sources import BadFrame, ImageFolder, OpenCVCapture, as_frame, load_image, open_source


def _jpeg() -> bytes:
    ok, data = cv2.imencode(".jpg", render(start_position(), Scene()))
    assert ok
    return data.tobytes()


def test_a_jpeg_cut_short_is_refused_by_name(tmp_path: Path) -> None:
    data = _jpeg()
    path = tmp_path / "cut.jpg"
    path.write_bytes(data[: len(data) * 2 // 3])
    with pytest.raises(BadImage, match=r"'.*cut.jpg' \(the JPEG is cut short\)"):
        load_image(path)
    path.write_bytes(data)
    assert load_image(path).shape == (480, 640, 3)


def test_a_folder_goes_on_past_an_image_that_vanished_or_is_broken(tmp_path: Path) -> None:
    data = _jpeg()
    for name in ("a.jpg", "b.jpg", "c.jpg", "d.jpg"):
        (tmp_path / name).write_bytes(data)
    folder = ImageFolder(tmp_path)
    (tmp_path / "b.jpg").unlink()
    (tmp_path / "c.jpg").write_bytes(data[:100])
    assert folder.read() is not None
    with pytest.raises(BadImage, match=r"b.jpg' .no such file"):
        folder.read()
    with pytest.raises(BadImage, match=r"c\.jpg"):
        folder.read()
    assert folder.read() is not None
    assert folder.read() is None
    for path in tmp_path.iterdir():
        path.unlink()
    assert ImageFolder(tmp_path).read() is None, "an emptied folder has no frame, no error"


@fuzz(80)
@given(st.binary(max_size=2000), st.sampled_from([".png", ".jpg", ".bmp", ".webp", ".tif"]))
def test_any_bytes_as_an_image_file_load_or_are_refused_in_one_line(
    tmp_path: Path, data: bytes, suffix: str
) -> None:
    path = tmp_path / f"image{suffix}"
    path.write_bytes(data)
    try:
        image = load_image(path)
    except BadImage as error:
        assert str(path) in one_line(error)
    else:
        assert image.dtype == np.uint8 and image.ndim == 3 and image.shape[2] == 3


def _a_jpeg_cut_anywhere_is_refused(tmp_path: Path, length: int) -> None:
    path = tmp_path / "cut.jpg"
    path.write_bytes(_jpeg()[:length])
    with pytest.raises(BadImage):
        load_image(path)


(
    test_a_jpeg_cut_anywhere_is_refused,
    test_a_jpeg_cut_anywhere_is_refused_long,
) = both_tiers(
    given(st.integers(0, len(_jpeg()) - 1)), fast=5, long=120
)(_a_jpeg_cut_anywhere_is_refused)


def _any_array_from_a_camera_is_a_frame_or_a_bad_frame(array: np.ndarray) -> None:
    try:
        frame = as_frame(array, "camera 0")
    except BadFrame as error:
        assert one_line(error).startswith("camera 0 gave no usable frame")
    else:
        assert frame.dtype == np.uint8 and frame.ndim == 3 and frame.shape[2] == 3
        assert frame.shape[:2] == array.shape[:2]


camera_arrays = hnp.arrays(
    dtype=st.sampled_from([np.uint8, np.uint16, np.float32, np.int32, np.bool_]),
    shape=hnp.array_shapes(min_dims=0, max_dims=4, min_side=0, max_side=6),
)
(
    test_any_array_from_a_camera_is_a_frame_or_a_bad_frame,
    test_any_array_from_a_camera_is_a_frame_or_a_bad_frame_long,
) = both_tiers(
    given(camera_arrays), fast=20, long=600
)(_any_array_from_a_camera_is_a_frame_or_a_bad_frame)


def test_grey_colour_and_deep_frames_are_converted() -> None:
    grey = np.full((48, 64), 200, np.uint8)
    assert as_frame(grey, "c").shape == (48, 64, 3)
    assert as_frame(np.zeros((48, 64, 4), np.uint8), "c").shape == (48, 64, 3)
    deep = np.full((48, 64, 3), 65535, np.uint16)
    assert int(as_frame(deep, "c").max()) == 255
    with pytest.raises(BadFrame, match=r"shape \(0, 0, 3\)"):
        as_frame(np.zeros((0, 0, 3), np.uint8), "c")


@pytest.mark.parametrize("spec", ["99999999999999999999", "256", "9" * 5000])
def test_a_camera_number_out_of_range_is_one_line(spec: str) -> None:
    with pytest.raises(CameraUnavailable) as caught:
        open_source(spec)
    assert "expected 0 to 255" in one_line(caught.value)
    with pytest.raises(CameraUnavailable):
        OpenCVCapture(-1)


@pytest.mark.slow
def test_read_says_why_it_saw_no_board(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    from firmware.cli import main

    start = tmp_path / "start.png"
    cv2.imwrite(str(start), render(start_position(), Scene()))
    calibration = tmp_path / "cal.json"
    assert main(["calibrate", str(start), "--out", str(calibration)]) == 0
    grey = tmp_path / "grey.png"
    cv2.imwrite(str(grey), np.full((600, 800, 3), 128, np.uint8))
    capsys.readouterr()
    assert main(["read", str(grey), "--calibration", str(calibration)]) == 3
    out, err = capsys.readouterr()
    assert out == "occluded\n" and err.count("\n") == 1
    assert "grey.png': no board found; the image is 800x600 but the calibration was made on " \
           "640x480 images" in err
    cut = tmp_path / "cut.jpg"
    cut.write_bytes(_jpeg()[:5000])
    assert main(["read", str(cut), "--calibration", str(calibration)]) == 2
    assert "(the JPEG is cut short)" in capsys.readouterr().err
