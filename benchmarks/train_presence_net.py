"""Train the network that tells a piece from bare paper where the colours leave it open
(vision.presence_net).

Usage: .venv/bin/python benchmarks/train_presence_net.py --renders DIR... [--rows FILE]
           [--folds K] [--epochs N] [--out FILE] [--jobs N] [--seed S]

The rows are the points of the render sets' hand-free frames, as ``benchmarks/point_rows.py``
reads them (``--rows FILE`` keeps them). The network (the set network's layers,
``vision.set_net``) learns from the view round each point whether it holds a piece. Nearly
all points are plain; the network learns from every point the reader left open between a
piece and bare paper, or read otherwise than the truth, weighing ``OPEN_WEIGHT`` times as
much, and from ``EASY_SHARE`` of the others (drawn with the seed).

``--folds K`` judges the training first: the render sets are split into K folds as the set
models' scripts split them, and each fold's open points are judged by a network trained on
the others, through the shipped forward pass. It prints how many the network tells at
several shares, how many wrongly, and how many frames whose only doubts were such points
would then be read, and exits 1 when one would be read wrongly at
``vision.presence_net.PRESENCE_SURE``. Then the network is trained on every set and written
to ``--out`` (the package's model by default).

Training needs PyTorch (``pip install -e '.[train]'``); the reader needs only numpy.
"""

from __future__ import annotations

import sys
from collections import defaultdict
from pathlib import Path

import numpy as np

# benchmarks/vision.py would shadow the ``vision`` package: drop this folder from the
# import path, and reach the shared folder format through the repository root.
_HERE = Path(__file__).resolve().parent
sys.path[:] = [entry for entry in sys.path if Path(entry or ".").resolve() != _HERE]
sys.path.insert(0, str(_HERE.parent))

from benchmarks.point_rows import PointRows, points_of  # noqa: E402
from benchmarks.train_set_net import (  # noqa: E402
    as_member,
    network_parser,
    network_shares,
    train_network,
)
from vision.presence_net import MODEL_FILE, PRESENCE_SURE  # noqa: E402
from vision.set_net import net_inputs  # noqa: E402

OPEN_WEIGHT = 20.0
"""How much more a point the reader left open (or read wrongly) weighs in training."""
EASY_SHARE = 0.25
"""Share of the other points trained on: they are many and alike."""
EPOCHS = 4
SHARES = (0.9, 0.95, PRESENCE_SURE, 0.99)
"""Shares of the network's word at which ``--folds`` reports."""


def inputs_of(rows: PointRows) -> np.ndarray:
    return net_inputs(rows.patches, rows.paper, rows.means[:, :3], rows.means[:, 3:])


def trained(rows: PointRows, epochs: int, seed: int) -> dict[str, np.ndarray]:
    """The weights of a network trained on the open points of ``rows`` and ``EASY_SHARE``
    of the rest, as one member of ``vision.set_net.PatchNet``."""
    easy = np.random.default_rng(seed).random(len(rows.piece)) < EASY_SHARE
    chosen = rows.only(rows.open_presence | easy)
    return as_member(0, train_network(inputs_of(chosen), chosen.piece,
                                      np.where(chosen.open_presence, OPEN_WEIGHT, 1.0),
                                      epochs, seed))


def cross_check(rows: PointRows, folds: int, roots: list[Path], epochs: int, seed: int) -> bool:
    """Judge each fold's open points by a network trained on the other folds; prints what
    it tells and returns whether no frame would be read wrongly at ``PRESENCE_SURE``."""
    share = np.full(len(rows.piece), 0.5)
    for fold in range(folds):
        held = rows.held_out(roots, fold, folds)
        if held.any() and (~held).any():
            print(f"fold {fold + 1}/{folds}: {int(held.sum())} rows held out", flush=True)
            judged = held & rows.open_presence
            share[judged] = network_shares(trained(rows.only(~held), epochs, seed),
                                           inputs_of(rows.only(judged)))
    asked = rows.open_presence
    only_presence: dict[str, list[int]] = defaultdict(list)
    for index in np.flatnonzero(asked & ~rows.other_doubts):
        only_presence[rows.frame[index]].append(int(index))
    print(f"open points: {int(asked.sum())} of {len(asked)} ({int((asked & rows.piece).sum())} "
          f"pieces); frames whose only doubts they are: {len(only_presence)}")
    ok = True
    for level in SHARES:
        told = asked & ((share >= level) | (share <= 1 - level))
        wrong = told & ((share >= 0.5) != rows.piece)
        read = [frame for frame, points in only_presence.items() if told[points].all()]
        wrongly = [frame for frame in read if wrong[only_presence[frame]].any()]
        print(f"  at {level:.2f}: {int(told.sum())} told, {int(wrong.sum())} wrongly; frames "
              f"then read {len(read)}, {len(wrongly)} wrongly")
        if level == PRESENCE_SURE and wrongly:
            ok = False
            print("    read wrongly: " + ", ".join(sorted(wrongly)))
    return ok


def main() -> int:
    args = network_parser(__doc__.split("\n")[0], MODEL_FILE, EPOCHS).parse_args()
    roots = sorted(args.renders)
    rows = PointRows.read(points_of, roots, args.rows, args.jobs)
    ok = cross_check(rows, args.folds, roots, args.epochs, args.seed) if args.folds else True
    np.savez_compressed(args.out, **trained(rows, args.epochs, args.seed))
    print(f"wrote {args.out}")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
