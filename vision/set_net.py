"""Which set a piece is of, told by a small convolutional network over its top's pixels.

The set forest (``vision.set_forest``) judges a top by statistics of rings round it; a
network sees the pixels themselves: where a lamp's mirror image ends on a top, the thin
dark edge of a black glossy top whose face mirrors the lamp whole, a lit side against a
shaded one. Held out on thirty-one render sets it told twice as many of the pieces whose
set the colours left open as the forest did, but not without error; taken only where the
forest agrees, it told 516 of 939 where the forest alone told 275, none wrongly
(``NET_SURE``, ``FOREST_AGREES``).

The network is trained on rendered rooms (``benchmarks/train_set_net.py``, with PyTorch)
and shipped as plain arrays: its forward pass here needs only numpy, so the Pi needs
nothing more. It is asked only about pieces whose set is open, a few a frame, and
averages its answers over the eight turns and mirror images of each patch (a piece is of
its set whichever way the lamp lights it).
"""

from __future__ import annotations

from functools import cache
from importlib import resources
from pathlib import Path

import cv2
import numpy as np
from numpy.lib.stride_tricks import sliding_window_view

from vision.sampling import SamplingLayout

PATCH_REACH = 0.7
"""How far (pitches) the patch round a point reaches each side: the top, its side and the
paper or shadow beyond (tops are 0.7 to 0.9 of a pitch across)."""
PATCH_SIZE = 28
"""Side of the patch (pixels) the network takes: 0.7 pitch each side at the canonical 20
pixels a pitch."""
CHANNELS = 9
"""The patch's log colour relative to the paper, and that less each set's mean colour."""
MODEL_FILE = "set_net.npz"
"""The trained network, in the package's ``models`` folder."""
NET_SURE = 0.98
"""Share for one set, averaged over the eight views of a patch, at which the network tells
a piece's set, where the forest agrees (``FOREST_AGREES``). Measured on thirty-one render
sets (twenty-nine Blender seeds, 1101 to 3901, and two of the room renderer's), each third
of them judged by a network and a forest trained on the other two
(``benchmarks/train_set_net.py --folds 3``): of 939 pieces whose set the colours left open,
the forest alone told 275 (at ``vision.set_forest.SURE_SHARE``) and 153 of the 542 frames
whose only doubt was such pieces would be read; with the network's word where the forest
agrees at 0.7, 516, none wrongly, and 298 frames. The network alone told 595 at 0.98, one
wrongly; with the forest agreeing at 0.8 but the network at 0.95, two of 479 were wrong."""
FOREST_AGREES = 0.7
"""Least share of the set forest's votes for the set the network tells for its word to
stand: the forest sees the same piece through other eyes (statistics of rings round it),
and where the two disagree the piece stays doubtful. Judged as for ``NET_SURE``: none told
wrongly at any agreement from 0.5 (588 told) to 0.8 (463); the one piece the network alone
told wrongly had less than half the votes. Seed 4101's black tops mirroring a white lamp
had 0.91 of the forest's votes and 0.94 of the network's, both for red: the network's
share is the guard there, not this one."""
LAYERS = ("conv0", "conv1", "conv2", "conv3", "dense0", "dense1")
"""The network's layers in order, each stored as ``<name>.weight`` and ``<name>.bias``:
two 3x3 convolutions, a 2x2 max pool, a convolution, a pool, a convolution, then the mean
and the maximum of each channel over the patch into two dense layers (ReLU between)."""


def patches(layout: SamplingLayout, view: np.ndarray, points: np.ndarray) -> np.ndarray:
    """(len(points), PATCH_SIZE, PATCH_SIZE, 3) BGR of the view round each of ``points``
    (indices); the view's edge is repeated where a patch reaches past it."""
    reach = round(PATCH_REACH * layout.pitch_px)
    padded = cv2.copyMakeBorder(view, reach, reach, reach, reach, cv2.BORDER_REPLICATE)
    result = np.empty((len(points), PATCH_SIZE, PATCH_SIZE, 3), np.uint8)
    for row, point in enumerate(points):
        x, y = (round(value) for value in layout.view_position(*layout.point_grid[point]))
        patch = padded[y:y + 2 * reach, x:x + 2 * reach]
        result[row] = patch if patch.shape[0] == PATCH_SIZE else cv2.resize(
            patch, (PATCH_SIZE, PATCH_SIZE), interpolation=cv2.INTER_AREA)
    return result


def net_inputs(patch_pixels: np.ndarray, paper: np.ndarray, pale_mean: np.ndarray,
               dark_mean: np.ndarray) -> np.ndarray:
    """(n, CHANNELS, PATCH_SIZE, PATCH_SIZE) what the network takes of ``patch_pixels``
    (n, PATCH_SIZE, PATCH_SIZE, 3) BGR: their log colour relative to each one's ``paper``
    (n, 3) BGR, and that less the paler and the darker set's mean (``pale_mean``,
    ``dark_mean``: (3,) or (n, 3), log relative to the paper as ``ColourModel`` keeps
    them)."""
    logs = np.log(np.maximum(patch_pixels.astype(np.float32), 1.0))
    relative = logs - np.log(np.maximum(paper.astype(np.float32), 1.0))[:, None, None, :]
    pale = np.broadcast_to(np.asarray(pale_mean, np.float32)[..., :3], (len(relative), 3))
    dark = np.broadcast_to(np.asarray(dark_mean, np.float32)[..., :3], (len(relative), 3))
    stacked = np.concatenate([relative, relative - pale[:, None, None, :],
                              relative - dark[:, None, None, :]], axis=3)
    result: np.ndarray = np.ascontiguousarray(stacked.transpose(0, 3, 1, 2))
    return result


class SetNet:
    """The trained network: how sure it is that a piece is of the paler set."""

    def __init__(self, path: Path) -> None:
        try:
            with np.load(path) as data:
                self._weights = {name: data[name].astype(np.float32) for name in data.files}
        except (OSError, ValueError) as error:
            raise ValueError(f"{path}: not a set network ({error})") from error
        missing = [f"{layer}.{part}" for layer in LAYERS for part in ("weight", "bias")
                   if f"{layer}.{part}" not in self._weights]
        if missing:
            raise ValueError(f"{path}: not a set network (no {', '.join(missing)})")
        if self._weights["conv0.weight"].shape[1] != CHANNELS:
            raise ValueError(f"{path}: a network of {self._weights['conv0.weight'].shape[1]} "
                             f"channels, not {CHANNELS}")

    def pale_share(self, inputs: np.ndarray) -> np.ndarray:
        """(n,) how sure the network is that each of ``inputs`` (as ``net_inputs``) is of
        the paler set, averaged over the patch's eight turns and mirror images."""
        if not len(inputs):
            return np.zeros(0)
        turned = [np.rot90(inputs, turn, axes=(2, 3)) for turn in range(4)]
        views = np.concatenate(turned + [view[..., ::-1] for view in turned])
        logits = self._forward(np.ascontiguousarray(views))
        result: np.ndarray = (1.0 / (1.0 + np.exp(-logits))).reshape(8, len(inputs)).mean(axis=0)
        return result

    def _forward(self, x: np.ndarray) -> np.ndarray:
        """(n,) the network's logits for ``x`` (n, CHANNELS, PATCH_SIZE, PATCH_SIZE)."""
        x = _relu(self._convolve(x, "conv0"))
        x = _pool(_relu(self._convolve(x, "conv1")))
        x = _pool(_relu(self._convolve(x, "conv2")))
        x = _relu(self._convolve(x, "conv3"))
        pooled = np.concatenate([x.mean(axis=(2, 3)), x.max(axis=(2, 3))], axis=1)
        hidden = _relu(pooled @ self._weights["dense0.weight"].T + self._weights["dense0.bias"])
        logits = hidden @ self._weights["dense1.weight"].T + self._weights["dense1.bias"]
        result: np.ndarray = logits[:, 0]
        return result

    def _convolve(self, x: np.ndarray, layer: str) -> np.ndarray:
        """A 3x3 convolution of ``x`` (n, c, h, w), padded to keep its size."""
        weight, bias = self._weights[f"{layer}.weight"], self._weights[f"{layer}.bias"]
        n, channels, height, width = x.shape
        windows = sliding_window_view(np.pad(x, ((0, 0), (0, 0), (1, 1), (1, 1))), (3, 3),
                                      axis=(2, 3))
        columns = windows.transpose(0, 2, 3, 1, 4, 5).reshape(n * height * width, channels * 9)
        out = columns @ weight.reshape(len(weight), -1).T + bias
        result: np.ndarray = out.reshape(n, height, width, -1).transpose(0, 3, 1, 2)
        return result


def _relu(x: np.ndarray) -> np.ndarray:
    result: np.ndarray = np.maximum(x, 0.0)
    return result


def _pool(x: np.ndarray) -> np.ndarray:
    """2x2 max pooling (the sides are even)."""
    n, channels, height, width = x.shape
    result: np.ndarray = x.reshape(n, channels, height // 2, 2, width // 2, 2).max(axis=(3, 5))
    return result


@cache
def shipped_net() -> SetNet | None:
    """The network shipped with the package, loaded once; None when the package has none:
    the reader then asks the forest alone."""
    path = Path(str(resources.files("vision") / "models" / MODEL_FILE))
    return SetNet(path) if path.exists() else None
