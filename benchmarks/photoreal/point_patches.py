"""What a learned point classifier sees of each point, and the classifier itself.

An experiment (``train_classifier.py``), not used by the board: does a small network read
the points the colour model leaves unsure? It is shown, for every point, a small square
of the view of the pieces' tops round it, in log colour relative to the paper round the
point (so that the light's brightness and colour cancel), and beside it what the start
position showed of each label: the bare points', the red set's and the black set's
colours over the whole start position, and the two sets' colours at the start position's
pieces nearest the point (a lamp's glare on glossy tops, or a window's light, changes a
set's colour across the board). It is told the sets by these references, never by their
colours as such: any two sets a maker chooses look like themselves in the start position.

The network is trained with PyTorch (``network_training.py``) and run, as the board
would run it, by OpenCV's ``dnn`` module from an ONNX file.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import NamedTuple

import cv2
import numpy as np

from controller.errors import SurakartaError
from vision.colour import LABELS, PointLabel
from vision.sampling import SamplingLayout

PATCH_PITCHES = 1.2
"""Side of the square shown round each point, pitches: the piece's whole top (0.76 across)
up to 0.2 off its point, and the paper or the neighbours' edges beyond it."""
CENTRE_RADIUS = 0.2
"""Radius (pitches) of the disc round a point whose median colour stands for the point in
the references."""
NEAREST_PIECES = 3
"""How many of a set's start-position pieces nearest a point make its local reference."""
REFERENCE_CHANNELS = 3 * 3 + 2 * 3
"""Global reference colours of the three labels, then the local ones of the two sets."""
PATCH_CHANNELS = 3
"""Log colour (blue, green, red) relative to the paper round the point."""


def patch_side(layout: SamplingLayout) -> int:
    """Side of a point's square, pixels of the tops' view (even)."""
    return 2 * round(PATCH_PITCHES * layout.pitch_px / 2)


def relative_patches(layout: SamplingLayout, top_view: np.ndarray, reference: np.ndarray
                     ) -> np.ndarray:
    """(points, 3, s, s) float32: each point's square of ``top_view`` (the tops' view, BGR)
    in log colour relative to ``reference`` (points, 3: ``BoardSamples.paper_round``, the
    brighter two of the four paper samples round each point), channels first."""
    side = patch_side(layout)
    half = side // 2
    logs = np.log(np.maximum(top_view.astype(np.float32), 1.0))
    squares = np.empty((len(layout.point_grid), 3, side, side), np.float32)
    for index, (x, y) in enumerate(layout.point_grid):
        column, row = (round(v) for v in layout.view_position(float(x), float(y)))
        square = logs[row - half:row + half, column - half:column + half]
        squares[index] = np.moveaxis(square, 2, 0)
    squares -= np.log(reference).astype(np.float32)[:, :, None, None]
    return squares


def centre_colours(layout: SamplingLayout, patches: np.ndarray) -> np.ndarray:
    """(points, 3) the median colour of the disc of CENTRE_RADIUS round each point."""
    side = patches.shape[-1]
    offsets = np.arange(side) - (side - 1) / 2
    disc = np.hypot(*np.meshgrid(offsets, offsets)) <= CENTRE_RADIUS * layout.pitch_px
    result: np.ndarray = np.median(patches[:, :, disc], axis=2)
    return result


@dataclass(frozen=True, slots=True)
class StartReferences:
    """What the start position showed of each label (see the module's docstring)."""

    grid: np.ndarray
    """(points, 2) grid coordinates of the points."""
    colours: np.ndarray
    """(points, 3) each point's centre colour in the start position."""
    labels: np.ndarray
    """(points,) the start position's label indices."""

    def channels(self) -> np.ndarray:
        """(points, REFERENCE_CHANNELS) the reference colours for every point."""
        global_colours = np.concatenate([np.median(self.colours[self.labels == index], axis=0)
                                         for index in range(len(LABELS))])
        local = []
        for label in (PointLabel.RED, PointLabel.BLACK):
            pieces = np.flatnonzero(self.labels == LABELS.index(label))
            distances = np.linalg.norm(self.grid[:, None, :] - self.grid[pieces][None], axis=2)
            nearest = pieces[np.argsort(distances, axis=1, kind="stable")[:, :NEAREST_PIECES]]
            local.append(np.median(self.colours[nearest], axis=1))
        return np.hstack([np.broadcast_to(global_colours, (len(self.grid), 9)), *local]
                         ).astype(np.float32)


def classifier_input(patches: np.ndarray, references: np.ndarray) -> np.ndarray:
    """(points, PATCH_CHANNELS + REFERENCE_CHANNELS, s, s) float32: each point's patch with
    its reference colours as constant planes beside it."""
    points, _, side, _ = patches.shape
    planes = np.broadcast_to(references[:, :, None, None],
                             (points, references.shape[1], side, side))
    return np.ascontiguousarray(np.concatenate([patches, planes], axis=1), np.float32)


class BadModel(SurakartaError, ValueError):
    """A file that is no network OpenCV can run."""


class PointClassifier:
    """The network, loaded once; raises BadModel when the file cannot be loaded."""

    def __init__(self, path: Path) -> None:
        try:
            self._network = cv2.dnn.readNetFromONNX(str(path))
        except cv2.error as error:
            raise BadModel(f"cannot load the point classifier {str(path)!r}: "
                           f"{str(error).strip().splitlines()[-1]}") from None

    def probabilities(self, patches: np.ndarray, references: np.ndarray) -> np.ndarray:
        """(points, 3) the probability of each label (``vision.colour.LABELS`` order) for
        each point's ``patches`` (points, 3, s, s) and ``references`` (points, r)."""
        self._network.setInput(classifier_input(patches, references))
        logits = np.asarray(self._network.forward(), np.float64)
        logits -= logits.max(axis=1, keepdims=True)
        weights = np.exp(logits)
        result: np.ndarray = weights / weights.sum(axis=1, keepdims=True)
        return result


class TrainingData(NamedTuple):
    """Points of many frames, as ``train_classifier.py extract`` writes them."""

    patches: np.ndarray
    """(n, 3, s, s) float16, see :func:`relative_patches`."""
    references: np.ndarray
    """(n, REFERENCE_CHANNELS) float16, see :meth:`StartReferences.channels`."""
    labels: np.ndarray
    """(n,) the true label's index."""
    groups: np.ndarray
    """(n,) which setup each point is of."""
    doubtful: np.ndarray
    """(n,) whether the colour reader left the point doubtful."""


def report(classifier: PointClassifier, data: TrainingData, sure: float) -> None:
    """Print how many of the points of ``data`` ``classifier`` reads right, how many surely
    (with at least ``sure`` probability) and how many of those wrongly; then the same for
    the points the colour reader left doubtful."""
    probabilities = classifier.probabilities(data.patches.astype(np.float32),
                                             data.references.astype(np.float32))
    right = probabilities.argmax(axis=1) == data.labels
    confident = probabilities.max(axis=1) >= sure
    for name, chosen in (("all points", np.ones(len(right), bool)),
                         ("doubtful points", data.doubtful)):
        count = int(chosen.sum())
        print(f"{name}: {int(right[chosen].sum())} of {count} right, "
              f"{int(confident[chosen].sum())} sure, "
              f"{int((confident & ~right)[chosen].sum())} of them wrong")
