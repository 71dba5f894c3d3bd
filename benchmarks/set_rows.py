"""Training rows for the models that tell a piece's set where its colours leave it open.

Each render set (the folder format of ``benchmarks/render_set.py``: Blender renders from
``benchmarks/photoreal/generate.py``, the room renderer's from ``benchmarks/vision_rooms.py
--write``) is calibrated and read setup by setup, frame by frame, as the benchmark reads
it, by a reader that leaves the set forest and the set network out. Every piece of every
hand-free frame the reader located gives one row: what the forest is asked
(``BoardReader.pattern_features``), what the network is (``BoardReader.top_patches``, with
the sets' colours), whether it is of the paler set, and how the reader read it.
``benchmarks/train_set_forest.py`` and ``benchmarks/train_set_net.py`` train on them.
"""

from __future__ import annotations

import sys
from collections import defaultdict
from collections.abc import Callable, Iterator
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, fields
from pathlib import Path
from typing import Self

import numpy as np

# benchmarks/vision.py would shadow the ``vision`` package: drop this folder from the
# import path, and reach the shared folder format through the repository root.
_HERE = Path(__file__).resolve().parent
sys.path[:] = [entry for entry in sys.path if Path(entry or ".").resolve() != _HERE]
sys.path.insert(0, str(_HERE.parent))

from benchmarks.render_set import read_render_set  # noqa: E402
from controller.position import Color  # noqa: E402
from controller.reading import BoardReading  # noqa: E402
from vision.calibrate import CalibrationFailed, calibrate  # noqa: E402
from vision.colour import LABELS, PIECE_LABELS, PointLabel  # noqa: E402
from vision.config import VisionConfig  # noqa: E402
from vision.reader import BoardReader, FrameReading, ReadStatus  # noqa: E402
from vision.set_forest import FEATURES, pale_and_dark  # noqa: E402
from vision.set_net import PATCH_SIZE  # noqa: E402


class RowTable:
    """Training rows of render sets: a dataclass of arrays, one row an index, whose
    ``frame`` field names each row's frame (render set, setup, file)."""

    frame: np.ndarray

    @classmethod
    def field_names(cls) -> list[str]:
        return [field.name for field in fields(cls)]  # type: ignore[arg-type]

    @classmethod
    def joined(cls, parts: list[Self]) -> Self:
        return cls(*(np.concatenate([getattr(part, name) for part in parts])
                     for name in cls.field_names()))

    def only(self, mask: np.ndarray) -> Self:
        return type(self)(*(getattr(self, name)[mask] for name in self.field_names()))

    def held_out(self, roots: list[Path], fold: int, folds: int) -> np.ndarray:
        """(n,) the rows of the render sets in ``fold`` of ``folds`` (every ``folds``-th of
        ``roots``, from the ``fold``-th), which a cross-check judges by a model trained on
        the others."""
        sets = np.array([name.split("/")[0] for name in self.frame])
        result: np.ndarray = np.isin(sets, [root.name for root in roots[fold::folds]])
        return result

    def save(self, path: Path) -> None:
        np.savez_compressed(path, **vars(self))

    @classmethod
    def load(cls, path: Path) -> Self:
        with np.load(path) as data:
            return cls(*(data[name] for name in cls.field_names()))

    @classmethod
    def read(cls, of_root: Callable[[Path], Self], roots: list[Path], cache: Path | None,
             jobs: int) -> Self:
        """The rows of the render sets ``roots`` (each read by ``of_root``), from ``cache``
        when it exists, else from the renders (and then written to ``cache`` when given)."""
        if cache is not None and cache.exists():
            return cls.load(cache)
        with ProcessPoolExecutor(jobs) as pool:
            rows = cls.joined(list(pool.map(of_root, roots)))
        if cache is not None:
            rows.save(cache)
        return rows


@dataclass
class Rows(RowTable):
    """Training rows: one per piece of a hand-free frame."""

    features: np.ndarray
    """(n, FEATURES) what the set forest is asked."""
    pale: np.ndarray
    """(n,) whether the piece is of the paler set."""
    open_set: np.ndarray
    """(n,) whether the reader left its set open (its choices were the two sets)."""
    frame: np.ndarray
    """(n,) the frame's name (render set, setup, file)."""
    other_doubts: np.ndarray
    """(n,) whether the frame has doubtful points other than open sets' (it stays
    doubtful whatever the models say)."""
    read_surely_pale: np.ndarray
    """(n,) 1 where the reader read the piece surely as the paler set, 0 as the darker,
    -1 where it did not read it surely as a piece (for ``CONTRADICTING``)."""
    frame_read: np.ndarray
    """(n,) whether the reader read the piece's frame."""
    patches: np.ndarray
    """(n, PATCH_SIZE, PATCH_SIZE, 3) BGR of the view of the tops round the piece."""
    paper: np.ndarray
    """(n, 3) BGR of the paper the piece is judged against."""
    means: np.ndarray
    """(n, 6) the paler and the darker set's mean colours (log, relative to the paper)."""

    def settled_frames(self, told: np.ndarray, says_pale: np.ndarray
                       ) -> tuple[set[str], set[str], int]:
        """The frames whose only doubt was open sets that the ``told`` pieces (n,) would all
        settle, those of them read wrongly (a told piece's ``says_pale`` not its truth), and
        how many frames had only such doubts."""
        wrong = told & (says_pale != self.pale)
        by_frame: dict[str, list[bool]] = defaultdict(list)
        for index in np.flatnonzero(self.open_set & ~self.other_doubts):
            by_frame[self.frame[index]].append(bool(told[index]))
        read = {frame for frame, all_told in by_frame.items() if all(all_told)}
        return read, {self.frame[index] for index in np.flatnonzero(wrong)} & read, len(by_frame)

@dataclass(frozen=True)
class HandFreeFrame:
    """A hand-free frame of a render set as the training rows see it."""

    name: str
    """The render set, setup and file, joined by slashes."""
    board: BoardReading
    """What the frame truly shows."""
    reader: BoardReader
    """The reader that read it, with the colours it had then."""
    reading: FrameReading


def hand_free_frames(root: Path) -> Iterator[HandFreeFrame]:
    """Every hand-free frame of the render set ``root`` the reader located: each setup
    calibrated on its start image (one that does not calibrate is left out), all its frames
    read in order, hand frames among them as in play, by one reader that leaves the set
    patterns out (what the models learn to tell)."""
    config = VisionConfig()
    for setup in read_render_set(root):
        try:
            calibration = calibrate(config, setup.image(setup.start))
        except CalibrationFailed:
            continue
        reader = BoardReader(calibration, config, tell_sets_by_pattern=False)
        for frame in setup.frames:
            reading = reader.read(setup.image(frame.file))
            if frame.hand or frame.board is None or reading.status is ReadStatus.NO_BOARD:
                continue
            yield HandFreeFrame(f"{root.name}/{setup.condition}/{setup.folder.name}/{frame.file}",
                                frame.board, reader, reading)


def set_means(reader: BoardReader) -> np.ndarray:
    """(6,) the paler and the darker set's mean colour as ``reader`` has them (log, relative
    to the paper), as the networks take them."""
    pale, dark = pale_and_dark(reader.colours.means)
    result: np.ndarray = np.concatenate([reader.colours.means[pale, :3],
                                         reader.colours.means[dark, :3]])
    return result


def rows_of(root: Path) -> Rows:
    """The training rows of one render set."""
    columns: dict[str, list[object]] = {name: [] for name in Rows.field_names()}
    both = set(PIECE_LABELS)
    for seen in hand_free_frames(root):
        reader, reading = seen.reader, seen.reading
        truth = [seen.board.piece_at(point) for point in reading.points]
        pieces = np.array([i for i, colour in enumerate(truth) if colour is not None])
        found = reader.pattern_features(pieces) if len(pieces) else None
        around = reader.top_patches(pieces) if len(pieces) else None
        if found is None or around is None:
            continue
        paler = LABELS[pale_and_dark(reader.colours.means)[0]]
        opened = {reading.points.index(point) for point, choices
                  in zip(reading.doubtful, reading.choices, strict=True)
                  if set(choices) == both}
        doubted = {reading.points.index(point) for point in reading.doubtful}
        columns["features"].append(found)
        columns["patches"].append(around[0])
        columns["paper"].append(around[1])
        columns["means"].append(np.broadcast_to(set_means(reader), (len(pieces), 6)))
        columns["pale"].append([(truth[i] is Color.RED) == (paler is PointLabel.RED)
                                for i in pieces])
        columns["open_set"].append([i in opened for i in pieces])
        columns["frame"].append([seen.name] * len(pieces))
        columns["other_doubts"].append([len(opened) < len(reading.doubtful)] * len(pieces))
        columns["read_surely_pale"].append(
            [-1 if i in doubted or reading.labels[i] is PointLabel.EMPTY
             else int(reading.labels[i] is paler) for i in pieces])
        columns["frame_read"].append([reading.reading is not None] * len(pieces))
    empty = {"features": np.zeros((0, FEATURES), np.float32),
             "patches": np.zeros((0, PATCH_SIZE, PATCH_SIZE, 3), np.uint8),
             "paper": np.zeros((0, 3), np.float32), "means": np.zeros((0, 6), np.float32)}
    kinds = {"features": np.float32, "patches": np.uint8, "paper": np.float32,
             "means": np.float32, "pale": bool, "open_set": bool, "frame": str,
             "other_doubts": bool, "read_surely_pale": np.int8, "frame_read": bool}
    rows = Rows(*(np.concatenate([np.asarray(part) for part in columns[name]]).astype(kinds[name])
                  if columns[name] else empty.get(name, np.zeros(0, kinds[name]))
                  for name in Rows.field_names()))
    print(f"{root}: {len(rows.pale)} pieces, {int(rows.open_set.sum())} open", flush=True)
    return rows
