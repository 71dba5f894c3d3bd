"""Whether a point holds a piece or bare paper, told by a small network over the view round
it, where the colours leave it open.

A piece set down a little off its point, a cream or printed top on cream paper, a shell
whose colour is the sheet's: the colours and the printed cross may leave such a point open
between a piece and bare paper. A person sees the piece at once, by its round shading, its
rim and the shadow at its foot; the network sees the same pixels. It has the set network's
layers and inputs (``vision.set_net``), trained on rendered rooms to tell whether a point
holds a piece (``benchmarks/train_presence_net.py``), and is asked only about the points
left open that way, a few a frame.
"""

from __future__ import annotations

from functools import cache
from importlib import resources
from pathlib import Path

from vision.set_net import PatchNet

MODEL_FILE = "presence_net.npz"
"""The trained network, in the package's ``models`` folder."""
PRESENCE_SURE = 0.98
"""Share for a piece (or for bare paper, at one less it) at which the network tells a
point left open between a piece and bare paper: bare paper is then read, and a piece is
left open between the two sets (the set its colour was nearest may not be its own).
Measured on thirty-three render sets (thirty-one Blender seeds, 1101 to 4101, and two of
the room renderer's), each third judged by a network trained on the other two
(``benchmarks/train_presence_net.py --folds 3``): of 139 such points (71 pieces), it told
106 at 0.98, none wrongly; 124 at 0.9, none wrongly."""


@cache
def shipped_presence_net() -> PatchNet | None:
    """The network shipped with the package, loaded once; None when the package has none:
    such points then stay open."""
    path = Path(str(resources.files("vision") / "models" / MODEL_FILE))
    return PatchNet(path) if path.exists() else None
