"""Which set a piece is of, told by a small convolutional network over its top's pixels.

The set forest (``vision.set_forest``) judges a top by statistics of rings round it; a
network sees the pixels themselves: where a lamp's mirror image ends on a top, the thin
dark edge of a black glossy top whose face mirrors the lamp whole, a lit side against a
shaded one. Held out on thirty-one render sets it told twice as many of the pieces whose
set the colours left open as the forest did, but not without error; taken only where the
forest does not plainly disagree, it told 595 of 939 where the forest alone told 275, none
wrongly (``NET_SURE``, ``FOREST_AGREES``). Where the forest doubts a piece read surely,
its word for the other set leaves the piece doubtful (``NET_CONTRADICTING``).

The network is three networks trained alike from three seeds, whose answers are averaged:
where the forest leaned the same way, one network alone gave pieces held out up to 0.97 to
0.99 for the wrong set, the three together 0.89 at most. They are trained on rendered rooms
(``benchmarks/train_set_net.py``, with PyTorch) and shipped as plain arrays: the forward
pass here needs only numpy, so the Pi needs nothing more. They are asked only about a few
pieces a frame, and average their answers over the eight turns and mirror images of each
patch (a piece is of its set whichever way the lamp lights it).
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
"""Share for one set, averaged over the eight views of a patch and the three networks, at
which the network tells a piece's set, where the forest does not plainly disagree
(``FOREST_AGREES``). Measured on thirty-one render sets (twenty-nine Blender seeds, 1101 to
3901, and two of the room renderer's), each third of them judged by networks and a forest
trained on the other two (``benchmarks/train_set_net.py --folds 3``): of 939 pieces whose
set the colours left open, the forest alone told 275 (at
``vision.set_forest.SURE_SHARE``) and 153 of the 542 frames whose only doubt was such
pieces would be read; with the network's word, 595, none wrongly, and 330 frames. The
pieces it was wrong of where the forest gave its set 0.3 or more had 0.92 of its word at
most; one network alone, as shipped before, told 516 (298 frames) with the forest agreeing
at 0.7, and had up to 0.97 for the wrong set where the forest leaned its way."""
FOREST_AGREES = 0.3
"""Least share of the set forest's votes for the set the network tells for its word to
stand: the forest sees the same piece through other eyes (statistics of rings round it),
and where it plainly disagrees the piece stays doubtful. Judged as for ``NET_SURE``: a room
renderer's spotlight setup fooled all three networks (up to 0.99 for the wrong set) while
the forest gave the truth 0.88 of its votes or more; every piece the networks were sure of
wrongly had 0.12 of the forest's votes or less. At 0.5 (the forest leaning the same way)
they told 559 of the 939 pieces, 36 fewer, and 312 frames. On four Blender seeds no model
was trained on (4201 to 4501), each of the fourteen open pieces the networks were sure of
was of the set they told, five of them with 0.33 to 0.48 of the forest's votes."""
NET_CONTRADICTING = 0.95
"""Share of the network's word for the other set that makes a piece read surely doubtful,
where the forest doubts the set read (``vision.set_forest.CONTRADICTION_ASKED``). On three
Blender seeds neither the networks nor the forest were trained on (4001, 4101 and 4201),
the reader without the patterns read 3,782 pieces surely, 14 of them as the wrong set, all
with less than 0.9 of the forest's votes for the set read; so had 164 read rightly. The
networks gave 3 of the 14 the other set at 0.98 or more, and the 164 at most 0.31. One was
a black top mirroring the lamp on a wide lens's board, read as red because red's start
tops had mirrored it too: once a red top beside it was told, a wrong board."""
LAYERS = ("conv0", "conv1", "conv2", "conv3", "dense0", "dense1")
"""The layers of each member network in order, each stored as
``member<k>.<name>.weight`` and ``member<k>.<name>.bias``: two 3x3 convolutions, a 2x2
max pool, a convolution, a pool, a convolution, then the mean and the maximum of each
channel over the patch into two dense layers (ReLU between)."""


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



def point_inputs(layout: SamplingLayout, view: np.ndarray, paper: np.ndarray,
                 points: np.ndarray, pale_mean: np.ndarray, dark_mean: np.ndarray
                 ) -> np.ndarray:
    """What a network takes of ``points`` (indices) in a view of the tops (``patches``),
    each judged against its ``paper`` (points, 3) BGR, with the sets' colours as for
    ``net_inputs``."""
    return net_inputs(patches(layout, view, points), paper[points], pale_mean, dark_mean)

class PatchNet:
    """A trained network over the view round a point (``patches``, ``net_inputs``): how
    sure it is of one thing, that a piece is of the paler set (this module's network) or
    that the point holds a piece (``vision.presence_net``). A model file may hold several
    members, each trained from another start (``member<k>.<layer>.<part>``); their shares
    are averaged, so a point is told only where every member leans its way."""

    def __init__(self, path: Path) -> None:
        try:
            with np.load(path) as data:
                weights = {name: data[name].astype(np.float32) for name in data.files}
        except (OSError, ValueError) as error:
            raise ValueError(f"{path}: not a patch network ({error})") from error
        count = len({name.split(".", 1)[0] for name in weights if name.startswith("member")})
        missing = [f"member{member}.{layer}.{part}" for member in range(max(count, 1))
                   for layer in LAYERS for part in ("weight", "bias")
                   if f"member{member}.{layer}.{part}" not in weights]
        if missing:
            raise ValueError(f"{path}: not a patch network (no {', '.join(missing)})")
        self.members = [_Member({name.split(".", 1)[1]: array for name, array in weights.items()
                                 if name.startswith(f"member{member}.")})
                        for member in range(count)]
        channels = {member.weights["conv0.weight"].shape[1] for member in self.members}
        if channels != {CHANNELS}:
            raise ValueError(f"{path}: a network of {min(channels)} channels, not {CHANNELS}")

    def share(self, inputs: np.ndarray) -> np.ndarray:
        """(n,) how sure the network is of its one thing for each of ``inputs`` (as
        ``net_inputs``): each member's share averaged over the patch's eight turns and
        mirror images (a piece is what it is whichever way the lamp lights it), and those
        averaged over the members."""
        if not len(inputs):
            return np.zeros(0)
        turned = [np.rot90(inputs, turn, axes=(2, 3)) for turn in range(4)]
        views = np.ascontiguousarray(np.concatenate(turned + [view[..., ::-1] for view in turned]))
        shares = [1.0 / (1.0 + np.exp(-member.forward(views))) for member in self.members]
        result: np.ndarray = np.mean(shares, axis=0).reshape(8, len(inputs)).mean(axis=0)
        return result


class _Member:
    """One trained network of a ``PatchNet``: its weights, named ``<layer>.<part>``."""

    def __init__(self, weights: dict[str, np.ndarray]) -> None:
        self.weights = weights

    def forward(self, x: np.ndarray) -> np.ndarray:
        """(n,) the network's logits for ``x`` (n, CHANNELS, PATCH_SIZE, PATCH_SIZE)."""
        x = _relu(self.convolve(x, "conv0"))
        x = _pool(_relu(self.convolve(x, "conv1")))
        x = _pool(_relu(self.convolve(x, "conv2")))
        x = _relu(self.convolve(x, "conv3"))
        pooled = np.concatenate([x.mean(axis=(2, 3)), x.max(axis=(2, 3))], axis=1)
        hidden = _relu(pooled @ self.weights["dense0.weight"].T + self.weights["dense0.bias"])
        logits = hidden @ self.weights["dense1.weight"].T + self.weights["dense1.bias"]
        result: np.ndarray = logits[:, 0]
        return result

    def convolve(self, x: np.ndarray, layer: str) -> np.ndarray:
        """A 3x3 convolution of ``x`` (n, c, h, w), padded to keep its size."""
        weight, bias = self.weights[f"{layer}.weight"], self.weights[f"{layer}.bias"]
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
def shipped_net() -> PatchNet | None:
    """The network shipped with the package, loaded once; None when the package has none:
    the reader then asks the forest alone."""
    path = Path(str(resources.files("vision") / "models" / MODEL_FILE))
    return PatchNet(path) if path.exists() else None
