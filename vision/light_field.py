"""The light over the paper: a smooth field of log brightness fitted over the board.

Paper samples darker than their neighbours are shadows (a piece's, under a low lamp or
window light), never brighter: so besides a robust fit that follows most samples, the
field of the lit paper is fitted with samples below it weighing little. Both are
quadratics in the grid coordinates: a lamp's fall-off, a window's gradient and a wide
spotlight are smooth over a board.
"""

from __future__ import annotations

import numpy as np

_FIT_ROUNDS = 4
_FIT_SCALE = 0.15  # log units: residuals well beyond this weigh little in the fit
_RIDGE = 1e-6
_SHADOW_WEIGHT = 4.0
"""How much more a sample darker than the lit field counts as far from it than one brighter."""


def _design(size: int, grid: np.ndarray) -> np.ndarray:
    # Grid coordinates scaled to about -1..1 so the quadratic terms are well conditioned.
    half = (size - 1) / 2
    x = (grid[:, 0] - half) / (half + 0.5)
    y = (grid[:, 1] - half) / (half + 0.5)
    return np.column_stack([np.ones_like(x), x, y, x * x, x * y, y * y])


def smooth_field(size: int, grid: np.ndarray, brightness: np.ndarray, trusted: np.ndarray,
                 judged: np.ndarray) -> np.ndarray:
    """A robust quadratic fit of log ``brightness`` over the samples at ``grid`` (grid
    coordinates of a board of ``size``), iteratively reweighted.

    Samples not ``trusted`` (that may lie in a piece's shadow) start with a small weight;
    samples not ``judged`` (hidden by pieces) have none.
    """
    design = _design(size, grid)
    weights = np.where(trusted, 1.0, 0.2) * judged
    fitted = np.full_like(brightness, np.median(brightness))
    for _ in range(_FIT_ROUNDS):
        fitted = _weighted_fit(design, brightness, weights)
        residual = (brightness - fitted) / _FIT_SCALE
        weights = judged / (1 + residual * residual)  # Cauchy weights: outliers fade, never flip
    return fitted


def lit_field(size: int, grid: np.ndarray, brightness: np.ndarray, judged: np.ndarray,
              field: np.ndarray) -> np.ndarray:
    """The smooth light field ``field`` refitted to the lit paper: samples darker than it
    weigh little, as shadows only ever darken."""
    design = _design(size, grid)
    for _ in range(_FIT_ROUNDS):
        residual = (brightness - field) / _FIT_SCALE
        residual = np.where(residual < 0, _SHADOW_WEIGHT * residual, residual)
        field = _weighted_fit(design, brightness, judged / (1 + residual * residual))
    return field


def _weighted_fit(design: np.ndarray, brightness: np.ndarray, weights: np.ndarray
                  ) -> np.ndarray:
    # The weighted normal equations: six unknowns, solved far cheaper than by lstsq;
    # the tiny ridge keeps them solvable when pieces hide most of a row of samples.
    weighted = design.T * weights
    coefficients = np.linalg.solve(weighted @ design + _RIDGE * np.eye(design.shape[1]),
                                   weighted @ brightness)
    result: np.ndarray = design @ coefficients
    return result


_LIT_SCALE = 0.1
"""log units: how near the lit paper's level a sample must lie to tell the lit paper's colour."""


def lit_chroma(size: int, grid: np.ndarray, logs: np.ndarray, judged: np.ndarray,
               lit: np.ndarray) -> np.ndarray:
    """(n, 3) the colour (log colour less log brightness) of the lit paper at each sample:
    a smooth fit over the samples near the lit level ``lit`` (log brightness; ``logs`` the
    samples' log colours). A shadow is lit by the room's other light, of another colour."""
    brightness = logs.mean(axis=1)
    chroma = logs - brightness[:, None]
    weights = judged * np.exp(-np.square(np.minimum(brightness - lit, 0.0) / _LIT_SCALE))
    design = _design(size, grid)
    return np.column_stack([_weighted_fit(design, chroma[:, channel], weights)
                            for channel in range(chroma.shape[1])])
