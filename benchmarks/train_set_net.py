"""Train the networks that tell a piece's set where its colours leave it open (vision.set_net).

Usage: .venv/bin/python benchmarks/train_set_net.py --renders DIR... [--rows FILE]
           [--folds K] [--shares FILE] [--epochs N] [--members M] [--out FILE] [--jobs N]
           [--seed S]

The rows are the pieces of the render sets' hand-free frames, as ``benchmarks/set_rows.py``
reads them (``--rows FILE`` keeps them, as ``train_set_forest.py --features`` does: the same
file serves both). Each network learns from the view round each piece
(``vision.set_net.net_inputs``) whether it is of the paler set; pieces whose set the reader
left open weigh ``OPEN_WEIGHT`` times as much as the others, and each batch is shown turned
and mirrored at random. ``--members M`` networks are trained alike, from seeds ``S``,
``S + 1``, ..., and written to one file; the reader averages their shares.

``--folds K`` judges the training first: the render sets are split into K folds as
``train_set_forest.py`` splits them, and each fold's rows are judged by networks and a
forest trained on the others, through the shipped forward pass (``vision.set_net.PatchNet``).
It prints how many of the open pieces the networks tell at several shares, alone and where
the forest leans the same way (``vision.set_net.FOREST_AGREES``), how many of those
wrongly, and the frames whose only doubt was such pieces that would then be read, and read
wrongly, with the reader's rule (the forest sure, or the networks sure and the forest
agreeing); then, of the pieces read surely whose set the forest doubts
(``vision.set_forest.CONTRADICTION_ASKED``), how many the networks would make doubtful at
several shares for the other set, and the frames read rightly that would be lost. It exits
1 when a frame would be read wrongly at ``vision.set_net.NET_SURE``. ``--shares FILE`` keeps
the held-out shares (the networks', on the pieces judged, and the forest's), to weigh other
thresholds without training again. Then the networks are trained on every set and written
to ``--out`` (the package's model by default).

Training needs PyTorch (``pip install -e '.[train]'``; on a PC without a GPU the CPU build
is enough: ``pip install torch --index-url https://download.pytorch.org/whl/cpu``); the
reader needs only numpy.
"""

from __future__ import annotations

import argparse
import sys
import tempfile
from pathlib import Path

import numpy as np

# benchmarks/vision.py would shadow the ``vision`` package: drop this folder from the
# import path, and reach the shared folder format through the repository root.
_HERE = Path(__file__).resolve().parent
sys.path[:] = [entry for entry in sys.path if Path(entry or ".").resolve() != _HERE]
sys.path.insert(0, str(_HERE.parent))

from benchmarks.set_rows import Rows, rows_of  # noqa: E402
from benchmarks.train_set_forest import pale_shares, train  # noqa: E402
from vision.set_forest import CONTRADICTION_ASKED, SURE_SHARE  # noqa: E402
from vision.set_net import (  # noqa: E402
    CHANNELS,
    FOREST_AGREES,
    LAYERS,
    MODEL_FILE,
    NET_SURE,
    PatchNet,
    net_inputs,
)

OPEN_WEIGHT = 20.0
"""How much more a piece whose set the reader left open weighs in training than one it
read (as for the forest)."""
EPOCHS = 6
BATCH = 256
LEARNING_RATE = 3e-3
"""Peak of the one-cycle schedule (AdamW)."""
MEMBERS = 3
"""Networks trained from as many seeds, whose shares the reader averages."""
SHARES = (0.95, NET_SURE, 0.99, 0.995)
"""Shares of the network's word at which ``--folds`` reports."""
CONTRADICTION_SHARES = (0.9, 0.95, 0.98, 0.99)
"""Shares of the network's word for the other set at which ``--folds`` reports pieces read
surely that it would make doubtful."""


def inputs_of(rows: Rows) -> np.ndarray:
    return net_inputs(rows.patches, rows.paper, rows.means[:, :3], rows.means[:, 3:])


def train_network(inputs: np.ndarray, targets: np.ndarray, weights: np.ndarray, epochs: int,
                  seed: int) -> dict[str, np.ndarray]:
    """The weights of a network (``vision.set_net.LAYERS``) trained to give each of
    ``inputs`` (as ``vision.set_net.net_inputs``) its ``targets`` (bool), each row weighing
    ``weights``; named as ``vision.set_net.PatchNet`` reads a member's."""
    try:
        import torch
        from torch import nn
    except ImportError:
        sys.exit("training needs PyTorch: .venv/bin/pip install -e '.[train]'")
    torch.manual_seed(seed)
    generator = np.random.default_rng(seed)
    layers = {
        "conv0": nn.Conv2d(CHANNELS, 24, 3, padding=1), "conv1": nn.Conv2d(24, 24, 3, padding=1),
        "conv2": nn.Conv2d(24, 48, 3, padding=1), "conv3": nn.Conv2d(48, 48, 3, padding=1),
        "dense0": nn.Linear(96, 48), "dense1": nn.Linear(48, 1)}
    assert tuple(layers) == LAYERS
    features = nn.Sequential(layers["conv0"], nn.ReLU(), layers["conv1"], nn.ReLU(),
                             nn.MaxPool2d(2), layers["conv2"], nn.ReLU(), nn.MaxPool2d(2),
                             layers["conv3"], nn.ReLU())
    head = nn.Sequential(layers["dense0"], nn.ReLU(), nn.Dropout(0.2), layers["dense1"])

    def forward(batch: torch.Tensor) -> torch.Tensor:
        maps = features(batch)
        return head(torch.cat([maps.mean((2, 3)), maps.amax((2, 3))], 1)).squeeze(1)

    parameters = [p for layer in layers.values() for p in layer.parameters()]
    optimiser = torch.optim.AdamW(parameters, LEARNING_RATE, weight_decay=1e-4)
    x = torch.from_numpy(inputs)
    y = torch.from_numpy(targets.astype(np.float32))
    weight = torch.from_numpy(weights.astype(np.float32))
    batches = len(y) // BATCH
    schedule = torch.optim.lr_scheduler.OneCycleLR(optimiser, LEARNING_RATE,
                                                   total_steps=epochs * batches)
    features.train()
    head.train()
    for epoch in range(epochs):
        order = torch.from_numpy(generator.permutation(len(y)))
        total = 0.0
        for start in range(0, batches * BATCH, BATCH):
            chosen = order[start:start + BATCH]
            batch = torch.rot90(x[chosen], int(generator.integers(4)), (2, 3))
            if generator.random() < 0.5:
                batch = torch.flip(batch, (3,))
            loss = (nn.functional.binary_cross_entropy_with_logits(
                forward(batch), y[chosen], reduction="none") * weight[chosen]).sum() \
                / weight[chosen].sum()
            optimiser.zero_grad()
            loss.backward()
            optimiser.step()
            schedule.step()
            total += float(loss.detach())
        print(f"  epoch {epoch + 1}/{epochs}: loss {total / max(batches, 1):.4f}", flush=True)
    return {f"{name}.{part}": getattr(layer, part).detach().numpy().astype(np.float32)
            for name, layer in layers.items() for part in ("weight", "bias")}


def train_members(rows: Rows, epochs: int, seed: int, members: int) -> dict[str, np.ndarray]:
    """The weights of ``members`` networks trained on ``rows``, each from its own seed
    (``seed``, ``seed + 1``, ...), named as ``vision.set_net.PatchNet`` reads them."""
    inputs, weights = inputs_of(rows), np.where(rows.open_set, OPEN_WEIGHT, 1.0)
    result = {}
    for member in range(members):
        print(f" member {member + 1}/{members}", flush=True)
        result.update(as_member(member, train_network(inputs, rows.pale, weights, epochs,
                                                      seed + member)))
    return result


def as_member(member: int, weights: dict[str, np.ndarray]) -> dict[str, np.ndarray]:
    """One network's ``weights`` named as member ``member`` of a ``vision.set_net.PatchNet``."""
    return {f"member{member}.{name}": array for name, array in weights.items()}


def net_shares(weights: dict[str, np.ndarray], rows: Rows) -> np.ndarray:
    """The shipped forward pass's shares for the paler set, for ``rows``."""
    return network_shares(weights, inputs_of(rows))


def network_shares(weights: dict[str, np.ndarray], inputs: np.ndarray) -> np.ndarray:
    """The shipped forward pass's shares for ``inputs``, of the network ``weights``."""
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / MODEL_FILE
        np.savez(path, **weights)
        net = PatchNet(path)
    return np.concatenate([net.share(inputs[start:start + 512])
                           for start in range(0, len(inputs), 512)] or [np.zeros(0)])


def doubted_by_forest(rows: Rows, forest: np.ndarray) -> np.ndarray:
    """(n,) the pieces read surely whose set the forest's shares ``forest`` (n,) doubt, as
    the reader asks the network whether they are of the other set
    (``vision.set_forest.CONTRADICTION_ASKED``)."""
    toward_read = np.where(rows.read_surely_pale == 1, forest, 1 - forest)
    result: np.ndarray = (rows.read_surely_pale >= 0) & (toward_read < CONTRADICTION_ASKED)
    return result


def report_contradictions(rows: Rows, net: np.ndarray, forest: np.ndarray) -> None:
    """How many pieces read surely the network would make doubtful at several shares
    for the other set, where the forest doubts them: read wrongly, and frames read rightly
    that would be left doubtful."""
    asked = doubted_by_forest(rows, forest)
    misread = (rows.read_surely_pale >= 0) & ((rows.read_surely_pale == 1) != rows.pale)
    against_read = np.where(rows.read_surely_pale == 1, 1 - net, net)
    print(f"pieces read surely: {int((rows.read_surely_pale >= 0).sum())}, "
          f"{int(misread.sum())} of them wrongly; the forest doubts {int(asked.sum())}, "
          f"{int((asked & misread).sum())} of those wrongly")
    for share in CONTRADICTION_SHARES:
        against = asked & (against_read >= share)
        lost = {rows.frame[index] for index in np.flatnonzero(against & ~misread
                                                                & rows.frame_read)}
        print(f"  the network against at {share:.2f}: {int(against.sum())} pieces, "
              f"{int((against & misread).sum())} of them read wrongly; frames read rightly "
              f"then doubtful: {len(lost)}")


def cross_check(rows: Rows, folds: int, roots: list[Path], epochs: int, seed: int,
                members: int, shares_file: Path | None = None) -> bool:
    """Judge each fold of render sets by a network and a forest trained on the others;
    prints what they tell and returns whether no frame would be read wrongly. The held-out
    shares are written to ``shares_file`` when given."""
    net, forest = np.full(len(rows.pale), 0.5), np.full(len(rows.pale), 0.5)
    for fold in range(folds):
        held = rows.held_out(roots, fold, folds)
        if held.any() and (~held).any():
            print(f"fold {fold + 1}/{folds}: {int(held.sum())} rows held out", flush=True)
            forest[held] = pale_shares(train(rows.only(~held)), rows.features[held])
            # Only the pieces the reader asks the network about are judged: the open ones,
            # and those read surely whose set the forest doubts (CONTRADICTION_ASKED).
            judged = held & (rows.open_set | doubted_by_forest(rows, forest))
            net[judged] = net_shares(train_members(rows.only(~held), epochs, seed, members),
                                     rows.only(judged))
    if shares_file is not None:
        np.savez_compressed(shares_file, net=net, forest=forest, pale=rows.pale,
                            open_set=rows.open_set, frame=rows.frame)
    asked = rows.open_set
    print(f"open pieces: {int(asked.sum())} of {len(asked)} pieces")
    forest_sure = (forest >= SURE_SHARE) | (forest <= 1 - SURE_SHARE)
    ok = True
    for share in SHARES:
        net_sure = (net >= share) | (net <= 1 - share)
        agreeing = np.where(net >= 0.5, forest, 1 - forest) >= FOREST_AGREES
        for way, told, says_pale in (
                ("alone", net_sure, net >= 0.5),
                ("with the forest", forest_sure | (net_sure & agreeing),
                 np.where(forest_sure, forest >= 0.5, net >= 0.5))):
            told = told & asked
            read, read_wrongly, _ = rows.settled_frames(told, says_pale)
            print(f"  at {share:.3f}, {way}: {int(told.sum())} told, "
                  f"{int((told & (says_pale != rows.pale)).sum())} wrongly; frames then read "
                  f"{len(read)}, {len(read_wrongly)} wrongly")
            if share == NET_SURE and way != "alone" and read_wrongly:
                ok = False
                print("    read wrongly: " + ", ".join(sorted(read_wrongly)))
    read, _, _ = rows.settled_frames(asked & forest_sure, forest >= 0.5)
    print(f"  the forest alone at {SURE_SHARE:.2f}: {int((asked & forest_sure).sum())} told; "
          f"frames then read {len(read)}")
    report_contradictions(rows, net, forest)
    return ok


def network_parser(description: str, model_file: str, epochs: int) -> argparse.ArgumentParser:
    """The options of a script that trains a patch network: the render sets, the rows'
    cache, the folds of its held-out check, the epochs, the model file written (``model_file``
    in the package's models folder unless given), the processes that read the renders and
    the training seed."""
    parser = argparse.ArgumentParser(description=description)
    parser.add_argument("--renders", type=Path, nargs="+", required=True)
    parser.add_argument("--rows", type=Path)
    parser.add_argument("--folds", type=int, default=0)
    parser.add_argument("--epochs", type=int, default=epochs)
    parser.add_argument("--out", type=Path,
                        default=_HERE.parent / "vision" / "models" / model_file)
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--seed", type=int, default=1)
    return parser


def main() -> int:
    parser = network_parser(__doc__.split("\n")[0], MODEL_FILE, EPOCHS)
    parser.add_argument("--shares", type=Path)
    parser.add_argument("--members", type=int, default=MEMBERS)
    args = parser.parse_args()
    roots = sorted(args.renders)
    rows = Rows.read(rows_of, roots, args.rows, args.jobs)
    ok = cross_check(rows, args.folds, roots, args.epochs, args.seed, args.members,
                     args.shares) if args.folds else True
    np.savez_compressed(args.out, **train_members(rows, args.epochs, args.seed, args.members))
    print(f"wrote {args.out}")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
