"""Frame sources: a folder, the synthetic camera, a video file; the Pi camera off the Pi."""

from __future__ import annotations

import sys
import tomllib
from pathlib import Path

import cv2
import numpy as np
import pytest
from packaging.requirements import Requirement
from packaging.version import Version

from controller.position import start_position
from controller.reading import BoardReading
from vision.calibrate import Calibration
from vision.errors import BadImage, CameraUnavailable
from vision.reader import BoardReader
from vision.render import Scene, render
from vision.sources import (
    CameraSpec,
    CameraStackBroken,
    FrameSource,
    ImageFolder,
    OpenCVCapture,
    PiCamera,
    SyntheticCamera,
    load_image,
    open_camera,
    open_source,
    parse_camera,
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


def test_a_command_line_word_names_a_camera(tmp_path: Path) -> None:
    assert parse_camera("3") == CameraSpec("usb", device=3)
    assert parse_camera("picamera") == CameraSpec("picamera")
    assert parse_camera(str(tmp_path)) == CameraSpec("folder", path=tmp_path)
    assert parse_camera("board.avi") == CameraSpec("file", path=Path("board.avi"))
    with pytest.raises(CameraUnavailable, match=r"^no camera number .*\(expected 0 to 255\)$"):
        open_source("9" * 120)


def test_a_synthetic_camera_shows_the_start_of_its_board_at_its_size(
    calibration6: Calibration,
) -> None:
    with open_camera(CameraSpec("synthetic", width=320, height=240), board_size=7) as camera:
        assert isinstance(camera, SyntheticCamera)
        small = camera.read()
    assert small is not None and small.shape == (240, 320, 3)
    with open_camera(CameraSpec("synthetic")) as camera:
        frame = camera.read()
    assert frame is not None and frame.shape == (480, 640, 3)
    assert BoardReader(calibration6).read(frame).reading == START


def test_a_folder_camera_reads_its_folder(tmp_path: Path) -> None:
    cv2.imwrite(str(tmp_path / "a.png"), np.full((8, 8, 3), 10, np.uint8))
    with open_camera(CameraSpec("folder", path=tmp_path)) as camera:
        assert isinstance(camera, ImageFolder) and len(camera) == 1


@pytest.mark.parametrize(("camera", "message"), [
    (CameraSpec("webcam"), r"^unknown camera source: 'webcam'$"),
    (CameraSpec("file"), r"^camera source 'file' needs a path$"),
    (CameraSpec("folder", path=Path("nothere")), r"^not a folder of images: 'nothere'$"),
    (CameraSpec("usb", device=256), r"^no camera number 256 \(expected 0 to 255\)$"),
])
def test_a_camera_that_cannot_be_opened_is_one_line(camera: CameraSpec, message: str) -> None:
    with pytest.raises(CameraUnavailable, match=message):
        open_camera(camera)


def test_missing_video_and_image() -> None:
    with pytest.raises(CameraUnavailable, match=r"nothere.avi"):
        OpenCVCapture("nothere.avi")
    with pytest.raises(BadImage, match=r"cannot read image: 'nothere.png'"):
        load_image(Path("nothere.png"))


def test_pi_camera_off_the_pi_says_how_to_install_it(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "picamera2", None)  # as if it were not installed
    with pytest.raises(CameraUnavailable, match=r"sudo apt install python3-picamera2"):
        PiCamera()


ROOT = Path(__file__).resolve().parents[2]

PI_CONSTRAINTS = "pi-constraints.txt"
PI_NUMPY = Version("1.24.2")
"""The numpy Raspberry Pi OS bookworm ships, which its apt camera stack is compiled against."""


def pi_pins() -> dict[str, Version]:
    """The exact versions the Pi install's constraints file gives, by package name."""
    pins = {}
    for line in (ROOT / PI_CONSTRAINTS).read_text().splitlines():
        if line.split("#")[0].strip():
            requirement = Requirement(line.split("#")[0])
            (specifier,) = requirement.specifier
            assert specifier.operator == "==", f"not an exact version: {line!r}"
            pins[requirement.name] = Version(specifier.version)
    return pins


def test_the_project_accepts_the_pi_s_own_packages() -> None:
    # The Pi installs the project with --no-deps over its own packages: a floor above
    # them would go unnoticed there and break on a Pi.
    pins = pi_pins()
    assert pins["numpy"] == PI_NUMPY and "pygame" in pins
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    for requirement in map(Requirement, project["dependencies"]):
        if requirement.name in pins:
            assert pins[requirement.name] in requirement.specifier, (
                f"{PI_CONSTRAINTS} pins {requirement.name} {pins[requirement.name]}, "
                f"pyproject.toml asks for {requirement}"
            )


def install_picamera2(folder: Path, monkeypatch: pytest.MonkeyPatch, source: str) -> None:
    """Make ``import picamera2`` run ``source`` for the rest of the test."""
    (folder / "picamera2.py").write_text(source)
    monkeypatch.syspath_prepend(str(folder))
    monkeypatch.delitem(sys.modules, "picamera2", raising=False)


def install_picamera2_stand_in(folder: Path, monkeypatch: pytest.MonkeyPatch,
                               built_for: Version) -> None:
    """A picamera2 whose import fails as the real one does under another numpy major."""
    install_picamera2(folder, monkeypatch, f"""
import numpy

if int(numpy.__version__.split(".")[0]) != {built_for.major}:
    raise ValueError("numpy.dtype size changed, may indicate binary incompatibility. "
                     "Expected 96 from C header, got 88 from PyObject")


class Picamera2:
    @staticmethod
    def global_camera_info():
        return [{{"Model": "imx708", "Num": 0}}]
""")


def test_pi_camera_on_the_numpy_its_stack_was_built_for(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    install_picamera2_stand_in(tmp_path, monkeypatch, Version(np.__version__))
    assert PiCamera.describe() == f"Pi camera imx708 (picamera2 with numpy {np.__version__})"


def test_pi_camera_on_another_numpy_says_which_and_how_to_reinstall(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    other = Version(f"{Version(np.__version__).major + 1}.0")
    install_picamera2_stand_in(tmp_path, monkeypatch, other)
    with pytest.raises(CameraStackBroken) as caught:
        PiCamera()
    message = str(caught.value)
    assert f"numpy {np.__version__}" in message
    assert f"{sys.executable} -m pip uninstall -y numpy opencv-python-headless" in message
    assert "pip install --no-deps -e ." in message
    assert "dtype size changed" in message and "\n" not in message


@pytest.mark.parametrize(("failure", "words"), [
    ("raise RuntimeError('libcamera: failed to load the IPA module\\nmore')",
     "cannot be imported: libcamera: failed to load the IPA module ("),
    ("import libcamera_bindings_not_here", "needs libcamera_bindings_not_here"),
])
def test_pi_camera_stack_that_fails_otherwise_is_one_line(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, failure: str, words: str) -> None:
    install_picamera2(tmp_path, monkeypatch, failure + "\n")
    with pytest.raises(CameraStackBroken, match=r"^the Pi camera") as caught:
        PiCamera.load_stack()
    assert words in str(caught.value) and "\n" not in str(caught.value)
