"""Training rows for the network that tells a piece from bare paper where the colours leave
it open (``vision.presence_net``).

Each render set (the folder format of ``benchmarks/render_set.py``) is calibrated and read
setup by setup, frame by frame, as the benchmark reads it, by a reader that leaves the set
patterns out. Every point of every hand-free frame the reader located gives one row: the
view round it (``BoardReader.top_patches``) with the sets' colours, what it truly holds,
and whether the reader left it open between a piece and bare paper.
``benchmarks/train_presence_net.py`` trains on them.
"""

from __future__ import annotations

import sys
from dataclasses import dataclass
from pathlib import Path

import numpy as np

# benchmarks/vision.py would shadow the ``vision`` package: drop this folder from the
# import path, and reach the shared folder format through the repository root.
_HERE = Path(__file__).resolve().parent
sys.path[:] = [entry for entry in sys.path if Path(entry or ".").resolve() != _HERE]
sys.path.insert(0, str(_HERE.parent))

from benchmarks.set_rows import RowTable, hand_free_frames, set_means  # noqa: E402
from vision.colour import PointLabel  # noqa: E402
from vision.set_net import PATCH_SIZE  # noqa: E402


@dataclass
class PointRows(RowTable):
    """Training rows: one per point of a hand-free frame."""

    patches: np.ndarray
    """(n, PATCH_SIZE, PATCH_SIZE, 3) BGR of the view of the tops round the point."""
    paper: np.ndarray
    """(n, 3) BGR of the paper the point is judged against."""
    means: np.ndarray
    """(n, 6) the paler and the darker set's mean colours (log, relative to the paper)."""
    piece: np.ndarray
    """(n,) whether the point holds a piece."""
    open_presence: np.ndarray
    """(n,) whether the reader left it open between a piece and bare paper alone."""
    other_doubts: np.ndarray
    """(n,) whether its frame has doubtful points of other kinds."""
    frame: np.ndarray
    """(n,) the frame's name (render set, setup, file)."""


def points_of(root: Path) -> PointRows:
    """The training rows of one render set."""
    parts: list[PointRows] = []
    for seen in hand_free_frames(root):
        reading = seen.reading
        points = np.arange(len(reading.points))
        around = seen.reader.top_patches(points)
        if around is None:
            continue
        opened = np.zeros(len(points), bool)
        others = False
        for point, choices in zip(reading.doubtful, reading.choices, strict=True):
            presence = len(set(choices)) == 2 and PointLabel.EMPTY in choices
            opened[reading.points.index(point)] = presence
            others |= not presence
        parts.append(PointRows(
            around[0], around[1].astype(np.float32),
            np.broadcast_to(set_means(seen.reader), (len(points), 6)).astype(np.float32),
            np.array([seen.board.piece_at(point) is not None for point in reading.points]),
            opened, np.full(len(points), others), np.full(len(points), seen.name)))
    if not parts:
        return PointRows(np.zeros((0, PATCH_SIZE, PATCH_SIZE, 3), np.uint8),
                         np.zeros((0, 3), np.float32), np.zeros((0, 6), np.float32),
                         np.zeros(0, bool), np.zeros(0, bool), np.zeros(0, bool),
                         np.zeros(0, str))
    rows = PointRows.joined(parts)
    print(f"{root}: {len(rows.piece)} points, {int(rows.open_presence.sum())} open", flush=True)
    return rows
