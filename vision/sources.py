"""Frame sources: where frames come from, behind one small protocol.

``read()`` returns the next BGR frame, or None when a finite source (a video file, a
folder) has no more. A live camera that stops delivering raises :class:`CameraLost`
instead, so the firmware can tell "finished" from "broken" and reopen the camera.
``close()`` releases the device. Sources are context managers.

picamera2 exists only on a Raspberry Pi, so it is imported inside :class:`PiCamera`
alone; anywhere else that class fails with a clear error and the rest works. A
camera stack that cannot be imported at all (picamera2 missing, or built for
another numpy than the one this Python loads) is :class:`CameraStackBroken`: no
retry fixes it, so the board stops instead of retrying.
"""

from __future__ import annotations

import contextlib
import io
import sys
from collections.abc import Callable
from dataclasses import dataclass, replace
from pathlib import Path
from types import TracebackType
from typing import Any, Protocol, Self, runtime_checkable

import cv2
import numpy as np

from controller.numbers import shown
from controller.position import Position, start_position
from controller.reading import BoardReading
from vision.errors import BadImage, CameraLost, CameraUnavailable
from vision.render import Scene, render

IMAGE_SUFFIXES = (".png", ".jpg", ".jpeg", ".bmp", ".tif", ".tiff", ".webp")
MAX_DEVICE = 255
"""The largest camera index (``/dev/video255``); OpenCV cannot even take a larger one."""
JPEG_END = b"\xff\xd9"
"""The marker every complete JPEG file ends with (give or take padding)."""


class BadFrame(CameraLost):
    """A camera delivered something that is no picture (empty, or not an image array).

    A camera that does so is as good as lost: the caller reopens it.
    """


def as_frame(frame: Any, source: str) -> np.ndarray:
    """``frame`` as the 8-bit, 3-channel BGR array the vision expects.

    Grey, 4-channel and 16-bit frames (some USB cameras and drivers give them) are
    converted; an empty array or anything else raises BadFrame naming ``source``.
    """
    array = np.asarray(frame)
    if array.ndim == 3 and array.shape[2] == 1:
        array = array[:, :, 0]
    channels = 1 if array.ndim < 3 else array.shape[-1]
    usable = array.ndim in (2, 3) and array.size > 0 and channels in (1, 3, 4)
    if not usable or array.dtype not in (np.uint8, np.uint16):
        raise BadFrame(
            f"{source} gave no usable frame: an array of {array.dtype} and shape {array.shape}"
        )
    if array.dtype == np.uint16:
        array = (array >> 8).astype(np.uint8)
    if array.ndim == 2:
        return cv2.cvtColor(array, cv2.COLOR_GRAY2BGR)
    if array.shape[2] == 4:
        return cv2.cvtColor(array, cv2.COLOR_BGRA2BGR)
    return np.ascontiguousarray(array)


@runtime_checkable
class FrameSource(Protocol):
    """Anything that delivers camera frames."""

    def read(self) -> np.ndarray | None:
        """The next BGR frame, or None when the source has ended."""
        ...

    def close(self) -> None:
        """Release the device or file."""
        ...


class _Closing:
    def __enter__(self) -> Self:
        return self

    def __exit__(self, kind: type[BaseException] | None, error: BaseException | None,
                 trace: TracebackType | None) -> None:
        self.close()

    def close(self) -> None:
        """Release resources (nothing by default)."""


def load_image(path: Path) -> np.ndarray:
    """A BGR image from a file; raises BadImage with the file name when it cannot be read.

    The file is read once, then decoded: one that vanishes meanwhile (a folder being
    emptied) is "no such file", and a JPEG cut short by an interrupted copy is refused
    (OpenCV would decode its top and leave the rest grey).
    """
    try:
        data = path.read_bytes()
    except FileNotFoundError:
        raise BadImage(f"cannot read image: {str(path)!r} (no such file)") from None
    except OSError as error:
        raise BadImage(f"cannot read image: {str(path)!r} ({error.strerror or error})") from None
    if data[:2] == b"\xff\xd8" and JPEG_END not in data[-64:]:
        raise BadImage(f"cannot read image: {str(path)!r} (the JPEG is cut short)")
    image = cv2.imdecode(np.frombuffer(data, np.uint8), cv2.IMREAD_COLOR) if data else None
    if image is None or image.size == 0:
        raise BadImage(f"cannot read image: {str(path)!r} (not an image)")
    return image


class OpenCVCapture(_Closing):
    """A USB webcam (by index) or a video file, through OpenCV."""

    def __init__(self, device: int | str | Path, width: int | None = None,
                 height: int | None = None) -> None:
        self._is_file = not isinstance(device, int)
        if isinstance(device, int) and not 0 <= device <= MAX_DEVICE:
            raise CameraUnavailable(
                f"no camera number {shown(device)} (expected 0 to {MAX_DEVICE})"
            )
        self._name = str(device)
        if self._is_file and not Path(self._name).is_file():
            raise CameraUnavailable(f"cannot open video: {self._name!r} (no such file)")
        try:
            self._capture = cv2.VideoCapture(device if isinstance(device, int) else self._name)
        except cv2.error as error:
            raise CameraUnavailable(
                f"cannot open camera: {self._name!r} ({_first_line(error)})"
            ) from None
        if not self._capture.isOpened():
            raise CameraUnavailable(f"cannot open camera: {self._name!r}")
        if width and height:
            self._capture.set(cv2.CAP_PROP_FRAME_WIDTH, width)
            self._capture.set(cv2.CAP_PROP_FRAME_HEIGHT, height)

    def read(self) -> np.ndarray | None:
        """The next frame; None at the end of a file; CameraLost when a camera stops."""
        try:
            ok, frame = self._capture.read()
        except cv2.error as error:
            raise CameraLost(
                f"camera stopped delivering frames: {self._name!r} ({_first_line(error)})"
            ) from None
        if ok and frame is not None:
            return as_frame(frame, f"camera {self._name!r}")
        if self._is_file:
            return None
        raise CameraLost(f"camera stopped delivering frames: {self._name!r}")

    def close(self) -> None:
        """Release the camera or file."""
        self._capture.release()


_NUMPY_MISMATCH_SIGNS = (
    "numpy.dtype size changed",
    "compiled using numpy 1.x",
    "_array_api not found",
    "numpy.core.multiarray failed to import",
    "numpy.core._multiarray_umath failed to import",
)
"""What an extension module built for another numpy says when it is imported."""


class CameraStackBroken(CameraUnavailable):
    """The Pi camera's software (picamera2, libcamera) cannot even be imported.

    Unlike a camera that is unplugged or busy, this fails the same way on every
    start: reinstalling fixes it, retrying does not.
    """


def _first_line(error: BaseException) -> str:
    text = str(error).strip()
    return text.splitlines()[0] if text else type(error).__name__


def _stack_error(error: Exception) -> CameraStackBroken:
    """The one line that says why picamera2 did not import and what fixes it."""
    if any(sign in str(error).lower() for sign in _NUMPY_MISMATCH_SIGNS):
        return CameraStackBroken(
            f"the Pi camera's picamera2 is built for the Pi's own numpy, not numpy "
            f"{np.__version__} from {str(Path(np.__file__).parent)!r}: remove it "
            f"({sys.executable} -m pip uninstall -y numpy opencv-python-headless) and "
            f"install the project as the README's Pi steps say, with pip install --no-deps "
            f"-e . ({_first_line(error)})"
        )
    if isinstance(error, ModuleNotFoundError) and error.name is not None:
        return CameraStackBroken(
            f"the Pi camera needs {error.name.split('.')[0]}, which this Python cannot see: "
            "sudo apt install python3-picamera2, in a venv made with "
            "python3 -m venv --system-site-packages"
        )
    return CameraStackBroken(
        f"the Pi camera's picamera2 cannot be imported: {_first_line(error)} "
        "(see: python3 -c 'import picamera2'; sudo apt install --reinstall python3-picamera2)"
    )


class PiCamera(_Closing):
    """The Raspberry Pi camera through picamera2 (only available on the Pi)."""

    def __init__(self, width: int = 640, height: int = 480) -> None:
        picamera2 = self.load_stack()
        try:
            self._camera = picamera2()
            # libcamera's "RGB888" is stored blue first: exactly OpenCV's BGR.
            config = self._camera.create_video_configuration(
                main={"size": (width, height), "format": "RGB888"}
            )
            self._camera.configure(config)
            self._camera.start()
        except Exception as error:  # picamera2 raises RuntimeError, OSError, IndexError...
            raise CameraUnavailable(
                f"cannot start the Pi camera: {_first_line(error)} (is it connected, and not "
                "used by another program? see: rpicam-hello --list-cameras)"
            ) from None

    @staticmethod
    def load_stack() -> Any:
        """picamera2's ``Picamera2`` class; raises CameraStackBroken when it cannot be imported.

        Any failure counts: a missing module, an extension built for another numpy
        (a ValueError or ImportError), libcamera's own RuntimeError.
        """
        # numpy 2 prints a long traceback of its own for an extension built for numpy 1.x;
        # the one line of CameraStackBroken says it better. What a working import prints
        # is passed on.
        printed = io.StringIO()
        try:
            with contextlib.redirect_stderr(printed):
                from picamera2 import Picamera2  # type: ignore[import-not-found]
        except Exception as error:
            raise _stack_error(error) from None
        sys.stderr.write(printed.getvalue())
        return Picamera2

    @classmethod
    def describe(cls) -> str:
        """The cameras picamera2 finds, without opening one (a running board keeps working).

        Raises CameraStackBroken when picamera2 cannot be imported, CameraUnavailable
        when it finds no camera.
        """
        picamera2 = cls.load_stack()
        try:
            cameras = picamera2.global_camera_info()
        except Exception as error:
            raise CameraUnavailable(
                f"cannot list the Pi cameras: {_first_line(error)}"
            ) from None
        if not cameras:
            raise CameraUnavailable(
                "no Pi camera found: check its ribbon cable (see: rpicam-hello --list-cameras)"
            )
        models = ", ".join(str(camera.get("Model", "unknown")) for camera in cameras)
        return f"Pi camera {models} (picamera2 with numpy {np.__version__})"

    def read(self) -> np.ndarray | None:
        """The next frame; CameraLost when the camera stops."""
        try:
            frame = self._camera.capture_array("main")
        except Exception as error:
            raise CameraLost(f"the Pi camera stopped: {_first_line(error)}") from None
        return as_frame(frame, "the Pi camera")

    def close(self) -> None:
        """Stop the camera."""
        try:
            self._camera.stop()
            self._camera.close()
        except Exception:  # closing a camera that already failed must not fail again
            pass


class ImageFolder(_Closing):
    """The images of a folder, in name order, as frames."""

    def __init__(self, folder: Path) -> None:
        if not folder.is_dir():
            raise CameraUnavailable(f"not a folder of images: {str(folder)!r}")
        self._paths = sorted(p for p in folder.iterdir() if p.suffix.lower() in IMAGE_SUFFIXES)
        self._next = 0

    def __len__(self) -> int:
        return len(self._paths)

    def read(self) -> np.ndarray | None:
        """The next image; None after the last; BadImage for an unreadable file (one that
        vanished, or is cut short): the next read goes on with the image after it."""
        if self._next >= len(self._paths):
            return None
        path = self._paths[self._next]
        self._next += 1
        return load_image(path)


BoardSupplier = Callable[[], BoardReading | Position]


class SyntheticCamera(_Closing):
    """The synthetic renderer as a camera: a fixed scene, fresh noise every frame.

    ``board`` is what stands on the board: a fixed reading or position, or a function
    asked at every frame (the simulator passes its virtual board).
    """

    def __init__(self, board: BoardReading | Position | BoardSupplier, scene: Scene | None = None,
                 frames: int | None = None) -> None:
        self._board = board
        self._scene = scene or Scene()
        self._frames = frames
        self._count = 0

    def read(self) -> np.ndarray | None:
        """The next rendered frame; None after ``frames`` frames when a count was given."""
        if self._frames is not None and self._count >= self._frames:
            return None
        board = self._board() if callable(self._board) else self._board
        scene = replace(self._scene, seed=self._scene.seed + self._count)
        self._count += 1
        return render(board, scene)


class CameraSettings(Protocol):
    """Where frames come from, as the ``[camera]`` section of a board's config says it
    (``firmware.config.CameraConfig``) or as a command-line word does (:class:`CameraSpec`)."""

    @property
    def source(self) -> str:
        """``synthetic``, ``usb``, ``picamera``, ``file`` (a video) or ``folder`` (images)."""
        ...

    @property
    def device(self) -> int:
        """The USB camera's number."""
        ...

    @property
    def path(self) -> Path | None:
        """The video file or the folder of images."""
        ...

    @property
    def width(self) -> int | None:
        """The frame width asked of the camera; None: the camera's own."""
        ...

    @property
    def height(self) -> int | None:
        """The frame height asked of the camera; None: the camera's own."""
        ...


@dataclass(frozen=True, slots=True)
class CameraSpec:
    """A camera named on the command line (see :func:`parse_camera`)."""

    source: str
    """As in :class:`CameraSettings`."""
    device: int = 0
    """The USB camera's number."""
    path: Path | None = None
    """The video file or the folder of images."""
    width: int | None = None
    """The frame width asked of the camera; None: the camera's own."""
    height: int | None = None
    """The frame height asked of the camera; None: the camera's own."""


def parse_camera(spec: str) -> CameraSpec:
    """A command-line word as a camera: a camera number, ``picamera``, a folder or a video."""
    if spec.isdigit():
        # A number too long to convert is no camera either: refused as out of range.
        return CameraSpec("usb", device=int(spec) if len(spec) < 100 else MAX_DEVICE + 1)
    if spec == "picamera":
        return CameraSpec("picamera")
    path = Path(spec)
    return CameraSpec("folder" if path.is_dir() else "file", path=path)


def open_camera(camera: CameraSettings, board_size: int = 6) -> FrameSource:
    """The frame source ``camera`` describes; the one place a camera is opened.

    A synthetic camera shows the start position of a board of ``board_size`` lines.
    Raises CameraUnavailable in one line when the source cannot be opened.
    """
    width, height = camera.width, camera.height
    if camera.source == "usb":
        return OpenCVCapture(camera.device, width, height)
    # Without both sides a camera keeps its own frame size (the renderer its default).
    if camera.source == "picamera":
        return PiCamera(width, height) if width and height else PiCamera()
    if camera.source == "synthetic":
        scene = Scene(width=width, height=height) if width and height else Scene()
        return SyntheticCamera(start_position(board_size), scene)
    if camera.source not in ("file", "folder"):
        raise CameraUnavailable(f"unknown camera source: {camera.source!r}")
    if camera.path is None:
        raise CameraUnavailable(f"camera source {camera.source!r} needs a path")
    if camera.source == "folder":
        return ImageFolder(camera.path)
    return OpenCVCapture(camera.path)


def open_source(spec: str) -> FrameSource:
    """A source from a command-line word: a camera index, ``picamera``, a folder or a video."""
    return open_camera(parse_camera(spec))
