"""Train the forest that tells a piece's set where its colours leave it open (vision.set_forest).

Usage: .venv/bin/python benchmarks/train_set_forest.py --renders DIR... [--features FILE]
           [--folds K] [--out FILE] [--jobs N]

The rows are the pieces of the render sets' hand-free frames, as ``benchmarks/set_rows.py``
reads them; the forest learns from what it is asked of each piece
(``BoardReader.pattern_features``) whether it is of the paler set. Pieces whose set the
reader left open (the rows the forest will be asked about) weigh ``OPEN_WEIGHT`` times as
much as the others.

``--features FILE`` keeps the rows (written when missing, read when there), so that the
forest can be trained again without reading the renders again. ``--folds K`` judges the
training first: the render sets are split into K folds, and each fold's rows are judged
by a forest trained on the others; it prints, for several shares of the trees' votes, how
many of the open pieces are told and how many of those wrongly, and the frames that would
then be read and read wrongly; and how many pieces read surely the forest goes against
(``vision.set_forest.CONTRADICTING``), how many of those were read wrongly, and the frames
read rightly it would leave to the game. It exits 1 when a frame would be read wrongly at
``vision.set_forest.SURE_SHARE``. Then the forest is trained on every set and written to
``--out`` (the package's model by default).

Training needs scikit-learn (``pip install -e '.[train]'``); the reader needs only numpy.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

import numpy as np

# benchmarks/vision.py would shadow the ``vision`` package: drop this folder from the
# import path, and reach the shared folder format through the repository root.
_HERE = Path(__file__).resolve().parent
sys.path[:] = [entry for entry in sys.path if Path(entry or ".").resolve() != _HERE]
sys.path.insert(0, str(_HERE.parent))

from benchmarks.set_rows import Rows, rows_of  # noqa: E402
from vision.set_forest import (  # noqa: E402
    CONTRADICTING,
    FEATURES,
    MODEL_FILE,
    SURE_SHARE,
)

OPEN_WEIGHT = 20.0
"""How much more a piece whose set the reader left open weighs in training than one it
read: those are the forest's questions, and a few hundred among tens of thousands."""
TREES = 100
MIN_LEAF = 1
"""Fewest training rows a leaf may hold."""
SPLIT_SHARE = 0.3
"""Share of the features each split chooses among."""
SHARES = (0.9, 0.95, SURE_SHARE, 0.99)
"""Shares of the trees' votes at which ``--folds`` reports."""


def train(rows: Rows, seed: int = 1):  # type: ignore[no-untyped-def]
    """A forest trained on ``rows`` (scikit-learn's)."""
    try:
        from sklearn.ensemble import RandomForestClassifier
    except ImportError:
        sys.exit("training needs scikit-learn: .venv/bin/pip install -e '.[train]'")
    forest = RandomForestClassifier(n_estimators=TREES, min_samples_leaf=MIN_LEAF,
                                    max_features=SPLIT_SHARE, n_jobs=2, random_state=seed)
    forest.fit(rows.features, rows.pale,
               sample_weight=np.where(rows.open_set, OPEN_WEIGHT, 1.0))
    return forest


def pale_shares(forest, features: np.ndarray) -> np.ndarray:  # type: ignore[no-untyped-def]
    """The forest's share of votes for the paler set (the mean of its trees' leaves)."""
    classes = list(forest.classes_)
    if True not in classes:
        return np.zeros(len(features))
    result: np.ndarray = forest.predict_proba(features)[:, classes.index(True)]
    return result


def cross_check(rows: Rows, folds: int, roots: list[Path]) -> bool:
    """Judge each fold of render sets by a forest trained on the others; prints what it
    tells and returns whether no frame would be read wrongly at SURE_SHARE."""
    shares = np.zeros(len(rows.pale))
    for fold in range(folds):
        held = rows.held_out(roots, fold, folds)
        if held.any() and (~held).any():
            shares[held] = pale_shares(train(rows.only(~held)), rows.features[held])
    asked = rows.open_set
    print(f"open pieces: {int(asked.sum())} of {len(asked)} pieces")
    ok = True
    for share in SHARES:
        told = asked & ((shares >= share) | (shares <= 1 - share))
        wrong = told & ((shares >= 0.5) != rows.pale)
        read, read_wrongly, only_sets = rows.settled_frames(told, shares >= 0.5)
        print(f"  at {share:.2f} of the votes: {int(told.sum())} told, {int(wrong.sum())} "
              f"wrongly; frames then read {len(read)} of {only_sets} whose doubt was "
              f"only sets, {len(read_wrongly)} wrongly")
        if share == SURE_SHARE and read_wrongly:
            ok = False
            print("    read wrongly: " + ", ".join(sorted(read_wrongly)))
    # The second witness: pieces read surely that the forest plainly gives the other set.
    sure = rows.read_surely_pale >= 0
    against = sure & np.where(rows.read_surely_pale == 1, shares <= 1 - CONTRADICTING,
                              shares >= CONTRADICTING)
    misread = against & ((rows.read_surely_pale == 1) != rows.pale)
    lost = {rows.frame[index] for index in np.flatnonzero(against & ~misread & rows.frame_read)}
    print(f"pieces read surely: {int(sure.sum())}, of them read wrongly "
          f"{int((sure & ((rows.read_surely_pale == 1) != rows.pale)).sum())}; at "
          f"{CONTRADICTING:.2f} of the votes against the set read: {int(against.sum())}, "
          f"{int(misread.sum())} of them read wrongly; frames read rightly then doubtful: "
          f"{len(lost)}")
    return ok


def write_forest(forest, path: Path) -> None:  # type: ignore[no-untyped-def]
    """Write ``forest`` as the flat arrays ``vision.set_forest.SetForest`` reads."""
    pale_column = list(forest.classes_).index(True)
    feature, threshold, low, high, pale, roots = [], [], [], [], [], []
    offset = 0
    for estimator in forest.estimators_:
        tree = estimator.tree_
        nodes = np.arange(tree.node_count)
        leaf = tree.children_left < 0
        roots.append(offset)
        feature.append(np.where(leaf, -1, tree.feature))
        threshold.append(tree.threshold)
        low.append(np.where(leaf, nodes, tree.children_left) + offset)
        high.append(np.where(leaf, nodes, tree.children_right) + offset)
        counts = tree.value[:, 0, :]
        pale.append(counts[:, pale_column] / counts.sum(axis=1))
        offset += tree.node_count
    np.savez_compressed(path, feature=np.concatenate(feature).astype(np.int16),
                        threshold=np.concatenate(threshold).astype(np.float64),
                        low=np.concatenate(low).astype(np.int32),
                        high=np.concatenate(high).astype(np.int32),
                        pale=np.concatenate(pale).astype(np.float32),
                        roots=np.array(roots, np.int32), features=np.array(FEATURES))
    print(f"wrote {path}: {len(roots)} trees, {offset} nodes")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--renders", type=Path, nargs="+", required=True)
    parser.add_argument("--features", type=Path)
    parser.add_argument("--folds", type=int, default=0)
    parser.add_argument("--out", type=Path,
                        default=_HERE.parent / "vision" / "models" / MODEL_FILE)
    parser.add_argument("--jobs", type=int, default=2)
    args = parser.parse_args()
    roots = sorted(args.renders)
    rows = Rows.read(rows_of, roots, args.features, args.jobs)
    ok = cross_check(rows, args.folds, roots) if args.folds else True
    write_forest(train(rows), args.out)
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
