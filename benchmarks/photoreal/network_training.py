"""PyTorch side of ``train_classifier.py``: the network, its training and its export.

Imported only by ``train_classifier.py train``; the exported ONNX file runs with OpenCV
(``point_patches.PointClassifier``).
"""

from __future__ import annotations

import time
from pathlib import Path

import numpy as np
import torch
from point_patches import (
    PATCH_CHANNELS,
    REFERENCE_CHANNELS,
    PointClassifier,
    TrainingData,
    classifier_input,
    report,
)
from torch import nn


class PointNetwork(nn.Module):
    """A small convolutional network: patch and reference planes in, three labels out."""

    def __init__(self) -> None:
        super().__init__()
        channels = PATCH_CHANNELS + REFERENCE_CHANNELS
        # Where in the square a top lies matters (on the point, or a neighbour's edge): the
        # last maps are pooled to three by three, not to one value.
        self.features = nn.Sequential(
            nn.Conv2d(channels, 32, 3, padding=1), nn.ReLU(), nn.MaxPool2d(2),
            nn.Conv2d(32, 48, 3, padding=1), nn.ReLU(), nn.MaxPool2d(2),
            nn.Conv2d(48, 64, 3, padding=1), nn.ReLU(), nn.AdaptiveAvgPool2d(3),
        )
        self.head = nn.Sequential(nn.Flatten(), nn.Linear(64 * 9, 64), nn.ReLU(),
                                  nn.Linear(64, 3))

    def forward(self, inputs: torch.Tensor) -> torch.Tensor:
        logits: torch.Tensor = self.head(self.features(inputs))
        return logits


def _inputs(patches: np.ndarray, references: np.ndarray) -> torch.Tensor:
    return torch.from_numpy(classifier_input(patches, references))


SURE = 0.97
"""The probability the report on held-out setups counts an answer sure from."""
SWAPPED_REFERENCES = np.r_[0:3, 6:9, 3:6, 12:15, 9:12]
"""The reference channels with the red and black sets swapped."""
SWAPPED_LABELS = np.array([0, 2, 1])


def _augmented(patches: np.ndarray, references: np.ndarray, labels: np.ndarray,
               rng: np.random.Generator) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    swap = rng.random(len(labels)) < 0.5
    references = np.where(swap[:, None], references[:, SWAPPED_REFERENCES], references)
    labels = np.where(swap, SWAPPED_LABELS[labels], labels)
    turns = int(rng.integers(4))
    patches = np.rot90(patches, turns, axes=(2, 3))
    if rng.random() < 0.5:
        patches = patches[..., ::-1]
    # The camera's exposure and white balance: a small shift of the patch against its paper.
    patches = patches + rng.normal(0, 0.03, (len(labels), 3, 1, 1)).astype(np.float32)
    return np.ascontiguousarray(patches), references, labels


def _split(groups: np.ndarray, hold_out: float, seed: int) -> tuple[np.ndarray, np.ndarray]:
    rng = np.random.default_rng(seed)
    names = np.unique(groups)
    held = rng.choice(names, max(1, round(hold_out * len(names))), replace=False) \
        if hold_out > 0 else np.array([], int)
    test = np.isin(groups, held)
    return ~test, test


def train(data: TrainingData, out: Path, epochs: int, seed: int, hold_out: float) -> int:
    """Fit the network to ``data`` but the ``hold_out`` share of its setups, write it to
    ``out`` and report on the setups held out."""
    patches, references, labels, groups = data.patches, data.references, data.labels, \
        data.groups
    torch.manual_seed(seed)
    torch.set_num_threads(2)
    rng = np.random.default_rng(seed)
    training, test = _split(groups, hold_out, seed)
    network = PointNetwork()
    optimiser = torch.optim.AdamW(network.parameters(), lr=2e-3, weight_decay=1e-4)
    schedule = torch.optim.lr_scheduler.OneCycleLR(
        optimiser, max_lr=3e-3, total_steps=epochs * (int(training.sum()) // 256 + 1))
    loss_of = nn.CrossEntropyLoss()
    chosen = np.flatnonzero(training)
    print(f"training on {len(chosen)} points of {len(np.unique(groups[training]))} setups, "
          f"{int(test.sum())} points held out", flush=True)
    for epoch in range(epochs):
        started = time.perf_counter()
        network.train()
        order = rng.permutation(chosen)
        total = 0.0
        for first in range(0, len(order), 256):
            batch = order[first:first + 256]
            p, r, y = _augmented(patches[batch].astype(np.float32),
                                 references[batch].astype(np.float32),
                                 labels[batch].astype(np.int64), rng)
            optimiser.zero_grad()
            loss = loss_of(network(_inputs(p, r)), torch.from_numpy(y))
            loss.backward()
            optimiser.step()
            schedule.step()
            total += float(loss.detach()) * len(batch)
        print(f"epoch {epoch + 1}: loss {total / len(order):.4f} "
              f"({time.perf_counter() - started:.0f} s)", flush=True)
    network.eval()
    _export(network, out, patches.shape[-1])
    if test.any():
        report(PointClassifier(out), TrainingData(*(part[test] for part in data)), SURE)
    return 0


def _export(network: PointNetwork, out: Path, side: int) -> None:
    example = torch.zeros(1, PATCH_CHANNELS + REFERENCE_CHANNELS, side, side)
    out.parent.mkdir(parents=True, exist_ok=True)
    torch.onnx.export(network, (example,), str(out), input_names=["points"],
                      output_names=["logits"], dynamic_axes={"points": {0: "n"}},
                      opset_version=13, dynamo=False)
    print(f"written {out} ({out.stat().st_size} bytes)")
