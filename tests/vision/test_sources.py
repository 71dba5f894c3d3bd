"""Frame sources: a folder, the synthetic camera, a video file; the Pi camera off the Pi."""

from __future__ import annotations

import sys
from pathlib import Path

import cv2
import numpy as np
import pytest

from controller.position import start_position
from controller.reading import BoardReading
from vision.calibrate import Calibration
from vision.errors import BadImage, CameraUnavailable
from vision.reader import BoardReader
from vision.render import Scene, render
from vision.sources import (
    FrameSource,
    ImageFolder,
    OpenCVCapture,
    PiCamera,
    SyntheticCamera,
    load_image,
    open_source,
)

START = BoardReading.of(start_position())


def read_all(source: FrameSource) -> list[np.ndarray]:
    frames = []
    while (frame := source.read()) is not None:
        frames.append(frame)
    source.close()
    return frames


def test_folder_gives_its_images_in_name_order(tmp_path: Path) -> None:
    for name, level in (("b.png", 20), ("a.png", 10), ("c.jpg", 30)):
        cv2.imwrite(str(tmp_path / name), np.full((8, 8, 3), level, np.uint8))
    (tmp_path / "notes.txt").write_text("not an image")
    frames = read_all(ImageFolder(tmp_path))
    assert [int(f[0, 0, 0]) for f in frames] == [10, 20, 30]


def test_folder_with_a_broken_image(tmp_path: Path) -> None:
    (tmp_path / "broken.png").write_bytes(b"not a png")
    with ImageFolder(tmp_path) as folder, pytest.raises(BadImage, match=r"broken.png"):
        folder.read()


def test_synthetic_camera_is_readable_and_ends_after_its_frames(
        calibration6: Calibration) -> None:
    frames = read_all(SyntheticCamera(start_position(), Scene(), frames=3))
    assert len(frames) == 3
    assert not np.array_equal(frames[0], frames[1])  # fresh noise each frame
    reader = BoardReader(calibration6)
    assert all(reader.read(frame).reading == START for frame in frames)


def test_synthetic_camera_follows_a_changing_board() -> None:
    boards = iter([start_position(), BoardReading(0, 0, 6)])
    camera = SyntheticCamera(lambda: next(boards), Scene(noise=0, jpeg_quality=None))
    assert not np.array_equal(camera.read(), camera.read())


def test_video_file_through_opencv(tmp_path: Path, calibration6: Calibration) -> None:
    path = tmp_path / "board.avi"
    writer = cv2.VideoWriter(str(path), cv2.VideoWriter_fourcc(*"MJPG"), 10, (640, 480))
    assert writer.isOpened()
    for seed in range(4):
        writer.write(render(start_position(), Scene(seed=seed)))
    writer.release()
    with open_source(str(path)) as source:
        assert isinstance(source, OpenCVCapture)
        frames = read_all(source)
    assert len(frames) == 4
    assert BoardReader(calibration6).read(frames[-1]).reading == START


def test_missing_video_and_image() -> None:
    with pytest.raises(CameraUnavailable, match=r"nothere.avi"):
        OpenCVCapture("nothere.avi")
    with pytest.raises(BadImage, match=r"cannot read image: 'nothere.png'"):
        load_image(Path("nothere.png"))


def test_pi_camera_off_the_pi_says_how_to_install_it(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "picamera2", None)  # as if it were not installed
    with pytest.raises(CameraUnavailable, match=r"sudo apt install python3-picamera2"):
        PiCamera()
