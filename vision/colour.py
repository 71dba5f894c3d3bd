"""The colour model: what red, black and empty look like relative to the paper round them.

Decisions:
- Features are a point's colour divided channel by channel by the paper round it
  (see ``vision.sampling``), so the model holds no absolute colours: the same model
  works in warm and cold, bright and dim light, and for any two piece colours
  that differ from each other and from the paper.
- Each label is a Gaussian (mean and covariance learned from the start position,
  with a floor on the spread, since 12 samples under one light understate how much
  a real room varies). A point's confidence is the posterior of its best label
  against the other two and an "outlier" alternative whose likelihood equals a
  label's at ``outlier_distance`` standard deviations: a colour far from all three
  (a finger, a sleeve) gets a low confidence, not a forced guess.
- Slow light change is followed by nudging each label's mean towards the colours
  of a frame read with full confidence (``adaptation_rate``); a single frame cannot
  move the model far, so one bad frame cannot poison it.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum

import numpy as np

from vision.config import VisionConfig


class PointLabel(Enum):
    """What a point holds, as the camera sees it."""

    EMPTY = "."
    RED = "r"
    BLACK = "b"


LABELS = (PointLabel.EMPTY, PointLabel.RED, PointLabel.BLACK)
"""Label order of the rows of :class:`ColourModel` arrays."""


@dataclass(frozen=True, slots=True)
class ColourModel:
    """Mean and covariance of the paper-relative colour of each label."""

    means: np.ndarray
    """(3, 3) mean feature of empty, red and black (rows in :data:`LABELS` order)."""
    covariances: np.ndarray
    """(3, 3, 3) covariance of each label, floor included."""

    def to_json(self) -> dict[str, object]:
        """JSON-ready data."""
        return {
            label.name.lower(): {
                "mean": [round(float(v), 6) for v in self.means[i]],
                "covariance": [[round(float(v), 8) for v in row] for row in self.covariances[i]],
            }
            for i, label in enumerate(LABELS)
        }

    @staticmethod
    def from_json(data: object) -> ColourModel:
        """Inverse of :meth:`to_json`; raises ValueError on malformed data."""
        if not isinstance(data, dict):
            raise ValueError("colour model is not an object")
        means, covariances = [], []
        for label in LABELS:
            entry = data[label.name.lower()]
            means.append(np.asarray(entry["mean"], np.float64).reshape(3))
            covariances.append(np.asarray(entry["covariance"], np.float64).reshape(3, 3))
        model = ColourModel(np.stack(means), np.stack(covariances))
        if not np.all(np.isfinite(model.means)) or not np.all(np.isfinite(model.covariances)):
            raise ValueError("colour model has non-finite numbers")
        # A covariance must be symmetric and positive definite, or the distances of
        # classify() turn meaningless (negative) and every point looks confident or none.
        if not np.allclose(model.covariances, model.covariances.transpose(0, 2, 1)):
            raise ValueError("colour model has a covariance that is not symmetric")
        try:
            np.linalg.cholesky(model.covariances)
        except np.linalg.LinAlgError:
            reason = "colour model has a covariance that is not positive definite"
            raise ValueError(reason) from None
        return model


def learn_colours(config: VisionConfig, features: np.ndarray, labels: np.ndarray) -> ColourModel:
    """A model from labelled features: (n, 3) features and (n,) indices into :data:`LABELS`."""
    floor = np.eye(3) * config.colour_floor**2
    means, covariances = [], []
    for index in range(len(LABELS)):
        chosen = features[labels == index]
        means.append(chosen.mean(axis=0))
        covariances.append(np.cov(chosen, rowvar=False) + floor)
    return ColourModel(np.stack(means), np.stack(covariances))


@dataclass(frozen=True, slots=True)
class Classification:
    """The label and confidence of every point of one frame."""

    labels: np.ndarray
    """(points,) index into :data:`LABELS` of each point's best label."""
    confidences: np.ndarray
    """(points,) posterior of that label, 0..1."""
    distances: np.ndarray
    """(points, 3) Mahalanobis distance of each point to each label."""


def classify(config: VisionConfig, model: ColourModel, features: np.ndarray) -> Classification:
    """Label every point's features with a confidence."""
    differences = features[:, None, :] - model.means[None, :, :]
    inverse = np.linalg.inv(model.covariances)
    squared = np.einsum("nli,lij,nlj->nl", differences, inverse, differences)
    distances = np.sqrt(np.maximum(squared, 0))
    # Posterior against the other labels and an outlier alternative, computed from
    # the smallest distance to stay finite far from every label.
    best = squared.min(axis=1, keepdims=True)
    weights = np.exp(-(squared - best) / 2)
    outlier = np.exp(np.minimum(best[:, 0] - config.outlier_distance**2, 50.0) / 2)
    labels = weights.argmax(axis=1)
    confidences = weights.max(axis=1) / (weights.sum(axis=1) + outlier)
    return Classification(labels, confidences, distances)


def adapt(config: VisionConfig, model: ColourModel, features: np.ndarray,
          labels: np.ndarray) -> ColourModel:
    """The model nudged towards a confidently read frame's colours."""
    means = model.means.copy()
    rate = config.adaptation_rate
    for index in range(len(LABELS)):
        chosen = features[labels == index]
        if len(chosen):
            means[index] = (1 - rate) * means[index] + rate * chosen.mean(axis=0)
    return ColourModel(means, model.covariances)
