"""Folders of rendered camera frames with their truth: the format renderers share.

Layout::

    DIR/<condition>/<setup>/truth.json
    DIR/<condition>/<setup>/start.jpg          # the start position, for calibration
    DIR/<condition>/<setup>/<frame files>.jpg

``truth.json``::

    {"format": "surakarta-renders", "version": 1, "condition": "window", "size": 6,
     "look_alike": false, "start": "start.jpg",
     "frames": [{"file": "f000.jpg", "board": "bbbbbb/bbbbbb/6/6/rrrrrr/rrrrrr", "hand": false},
                ...],
     "scene": {...free-form description...}}

The board string is ``BoardReading.board_string()`` (ranks from the top) or null;
hand frames have ``"hand": true`` and their board is the board under the hand (a reading
of them is wrong whatever it says). The room renderer's benchmark writes and reads it;
other renderers (e.g. the Blender one) write it with :class:`SetupWriter` or
:func:`truth_document`.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import cv2
import numpy as np

from controller.errors import SurakartaError
from controller.reading import BoardReading

FORMAT = "surakarta-renders"
VERSION = 1
TRUTH_FILE = "truth.json"
START_FILE = "start.jpg"
JPEG_QUALITY = 95
"""Quality of the JPEG files written (the renderer has already applied its own JPEG)."""


class BadRenderSet(SurakartaError, ValueError):
    """A folder of renders that does not follow the format."""


@dataclass(frozen=True, slots=True)
class RenderedFrame:
    """One frame file and what it shows."""

    file: str
    """File name inside the setup's folder."""
    board: BoardReading | None
    """The board in it (under the hand for hand frames), or None when unknown."""
    hand: bool
    """Whether a hand is over the board."""


@dataclass(frozen=True)
class RenderedSetup:
    """One setup (camera, light, pieces) of a condition: its start image and frames."""

    folder: Path
    """Where its files are."""
    condition: str
    """The room condition's name."""
    size: int
    """Lines per side of the board."""
    look_alike: bool
    """Whether the pieces are the look-alike set the vision must refuse."""
    start: str
    """File name of the start-position image."""
    frames: tuple[RenderedFrame, ...]
    """The other frames."""
    scene: dict[str, Any] = field(default_factory=dict)
    """Free-form description of the scene."""

    def image(self, file: str) -> np.ndarray:
        """The BGR image in ``file``; raises BadRenderSet when it cannot be read."""
        path = self.folder / file
        image = cv2.imread(str(path), cv2.IMREAD_COLOR)
        if image is None:
            raise BadRenderSet(f"cannot read the image {str(path)!r}")
        return np.asarray(image)


def truth_document(condition: str, size: int, look_alike: bool,
                   frames: list[RenderedFrame], scene: dict[str, Any],
                   start: str = START_FILE) -> dict[str, Any]:
    """The content of a setup's ``truth.json``."""
    return {
        "format": FORMAT,
        "version": VERSION,
        "condition": condition,
        "size": size,
        "look_alike": look_alike,
        "start": start,
        "frames": [{"file": f.file, "board": None if f.board is None else f.board.board_string(),
                    "hand": f.hand} for f in frames],
        "scene": scene,
    }


class SetupWriter:
    """Writes one setup's images as they come and its truth when closed."""

    def __init__(self, folder: Path, condition: str, size: int, look_alike: bool,
                 scene: dict[str, Any]) -> None:
        self.folder = folder
        self.condition = condition
        self.size = size
        self.look_alike = look_alike
        self.scene = scene
        self.frames: list[RenderedFrame] = []
        folder.mkdir(parents=True, exist_ok=True)

    def _write(self, file: str, image: np.ndarray) -> None:
        path = self.folder / file
        if not cv2.imwrite(str(path), image, [cv2.IMWRITE_JPEG_QUALITY, JPEG_QUALITY]):
            raise BadRenderSet(f"cannot write the image {str(path)!r}")

    def start(self, image: np.ndarray) -> None:
        """The start-position image."""
        self._write(START_FILE, image)

    def frame(self, image: np.ndarray, board: BoardReading | None, hand: bool) -> None:
        """The next frame: ``f000.jpg``, ``f001.jpg``... without a hand, ``h000.jpg``... with."""
        prefix = "h" if hand else "f"
        number = sum(f.hand == hand for f in self.frames)
        file = f"{prefix}{number:03d}.jpg"
        self._write(file, image)
        self.frames.append(RenderedFrame(file, board, hand))

    def close(self) -> None:
        """Write ``truth.json``."""
        document = truth_document(self.condition, self.size, self.look_alike, self.frames,
                                  self.scene)
        (self.folder / TRUTH_FILE).write_text(json.dumps(document, indent=1) + "\n",
                                              encoding="utf-8")


def _field(data: dict[str, Any], key: str, kind: type, path: Path) -> Any:
    value = data.get(key)
    if not isinstance(value, kind) or (kind is int and isinstance(value, bool)):
        raise BadRenderSet(f"{str(path)!r}: {key!r} must be a {kind.__name__}, got {value!r}")
    return value


def _board(text: object, size: int, path: Path) -> BoardReading | None:
    if text is None:
        return None
    if not isinstance(text, str):
        raise BadRenderSet(f"{str(path)!r}: a frame's board must be a string, got {text!r}")
    try:
        board = BoardReading.parse(text)
    except ValueError as error:
        raise BadRenderSet(f"{str(path)!r}: {error}") from None
    if board.size != size:
        raise BadRenderSet(f"{str(path)!r}: board {text!r} is not a {size}x{size} board")
    return board


def read_setup(folder: Path) -> RenderedSetup:
    """The setup in ``folder`` (its truth.json checked); raises BadRenderSet."""
    path = folder / TRUTH_FILE
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except OSError as error:
        raise BadRenderSet(f"cannot read {str(path)!r}: {error.strerror}") from None
    except json.JSONDecodeError as error:
        raise BadRenderSet(f"{str(path)!r} is not JSON: {error.msg}") from None
    if not isinstance(data, dict) or data.get("format") != FORMAT:
        raise BadRenderSet(f"{str(path)!r} is not a {FORMAT!r} truth file")
    if data.get("version") != VERSION:
        raise BadRenderSet(f"{str(path)!r}: unsupported version {data.get('version')!r} "
                           f"(expected {VERSION})")
    size = _field(data, "size", int, path)
    frames = []
    for entry in _field(data, "frames", list, path):
        if not isinstance(entry, dict):
            raise BadRenderSet(f"{str(path)!r}: a frame must be an object, got {entry!r}")
        frames.append(RenderedFrame(_field(entry, "file", str, path),
                                    _board(entry.get("board"), size, path),
                                    _field(entry, "hand", bool, path)))
    return RenderedSetup(
        folder=folder,
        condition=_field(data, "condition", str, path),
        size=size,
        look_alike=_field(data, "look_alike", bool, path),
        start=_field(data, "start", str, path),
        frames=tuple(frames),
        scene=data.get("scene") if isinstance(data.get("scene"), dict) else {},
    )


def read_render_set(root: Path) -> Iterator[RenderedSetup]:
    """Every setup under ``root``, condition by condition, in name order."""
    if not root.is_dir():
        raise BadRenderSet(f"no folder of renders at {str(root)!r}")
    found = False
    for condition in sorted(p for p in root.iterdir() if p.is_dir()):
        for setup in sorted(p for p in condition.iterdir() if (p / TRUTH_FILE).is_file()):
            found = True
            yield read_setup(setup)
    if not found:
        raise BadRenderSet(f"no {TRUTH_FILE} under {str(root)!r}")
