"""The light over the paper: a smooth field of log brightness fitted over the board.

Paper samples darker than their neighbours are shadows (a piece's, under a low lamp or
window light), never brighter: so besides a robust fit that follows most samples, the
field of the lit paper is fitted with samples below it weighing little. Both are
quadratics in the grid coordinates: a lamp's fall-off, a window's gradient and a wide
spotlight are smooth over a board.
"""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np

from vision.reductions import channel_mean

_FIT_ROUNDS = 4
_FIT_SCALE = 0.15  # log units: residuals well beyond this weigh little in the fit
_RIDGE = 1e-6
_RIDGE_MATRIX = _RIDGE * np.eye(6)
_SHADOW_WEIGHT = 4.0
"""How much more a sample darker than the lit field counts as far from it than one brighter."""


_DESIGNS_KEPT = 4
_designs: dict[tuple[int, tuple[int, ...], str, bytes], np.ndarray] = {}


def _design(size: int, grid: np.ndarray) -> np.ndarray:
    """The quadratic terms at ``grid``, from a small cache: a frame fits three fields over
    the same samples, and every frame of a board has the same samples."""
    key = (size, grid.shape, grid.dtype.str, grid.tobytes())
    design = _designs.get(key)
    if design is None:
        if len(_designs) >= _DESIGNS_KEPT:
            del _designs[next(iter(_designs))]
        design = _designs[key] = _quadratic_terms(size, grid)
        design.flags.writeable = False  # shared by every fit that asks for it
    return design


def _quadratic_terms(size: int, grid: np.ndarray) -> np.ndarray:
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
    fitted = brightness
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


@dataclass(frozen=True, slots=True)
class PaperLight:
    """The light over the paper samples, and what it was fitted to."""

    field: np.ndarray
    """(cells,) the robust field (:func:`smooth_field`), log brightness."""
    lit: np.ndarray
    """(cells,) the lit paper's level: the lit field, never below ``field``."""
    brightness: np.ndarray
    """(cells,) the samples' log brightness it was fitted to."""
    trusted: np.ndarray
    """(cells,) the samples trusted from the start."""
    judged: np.ndarray
    """(cells,) the samples judged at all."""

    def fits(self, brightness: np.ndarray, trusted: np.ndarray, judged: np.ndarray) -> bool:
        """Whether it was fitted to these samples: the same judged, trusted and levels."""
        return bool(np.array_equal(judged, self.judged) and np.array_equal(trusted, self.trusted)
                    and np.array_equal(brightness[judged], self.brightness[judged]))


def paper_light(size: int, grid: np.ndarray, brightness: np.ndarray, trusted: np.ndarray,
                judged: np.ndarray) -> PaperLight:
    """The robust field and the lit paper's level over the samples (see :func:`smooth_field`
    and :func:`lit_field`)."""
    field = smooth_field(size, grid, brightness, trusted, judged)
    lit = np.maximum(field, lit_field(size, grid, brightness, judged, field))
    return PaperLight(field, lit, brightness, trusted, judged)


def _weighted_fit(design: np.ndarray, values: np.ndarray, weights: np.ndarray
                  ) -> np.ndarray:
    """The weighted least-squares fit of ``values`` (one column per field, or one field)."""
    result: np.ndarray = (design @ _weighted_coefficients(design, values, weights)).reshape(
        values.shape)
    return result


def _weighted_coefficients(design: np.ndarray, values: np.ndarray, weights: np.ndarray
                           ) -> np.ndarray:
    """(6, fields) the quadratics' coefficients of :func:`_weighted_fit`."""
    # The weighted normal equations: six unknowns, solved far cheaper than by lstsq (and by
    # OpenCV's Cholesky, cheaper again than numpy's general solver on a matrix this small);
    # the tiny ridge keeps them solvable when pieces hide most of a row of samples.
    weighted = design.T * weights
    right = (weighted @ values).reshape(design.shape[1], -1)
    _, coefficients = cv2.solve(weighted @ design + _RIDGE_MATRIX, right, flags=cv2.DECOMP_CHOLESKY)
    result: np.ndarray = coefficients
    return result


_LIT_SCALE = 0.1
"""log units: how near the lit paper's level a sample must lie to tell the lit paper's colour."""


def lit_chroma(size: int, grid: np.ndarray, logs: np.ndarray, judged: np.ndarray,
               lit: np.ndarray) -> np.ndarray:
    """(n, 3) the colour (log colour less log brightness) of the lit paper at each sample:
    a smooth fit over the samples near the lit level ``lit`` (log brightness; ``logs`` the
    samples' log colours). A shadow is lit by the room's other light, of another colour."""
    design = _design(size, grid)
    result: np.ndarray = design @ lit_chroma_coefficients(size, grid, logs, judged, lit)
    return result


def lit_chroma_coefficients(size: int, grid: np.ndarray, logs: np.ndarray, judged: np.ndarray,
                            lit: np.ndarray) -> np.ndarray:
    """(6, 3) the quadratics of :func:`lit_chroma`, for :func:`quadratic_field`."""
    brightness = channel_mean(logs)
    chroma = logs - brightness[:, None]
    weights = judged * np.exp(-np.square(np.minimum(brightness - lit, 0.0) / _LIT_SCALE))
    return _weighted_coefficients(_design(size, grid), chroma, weights)


def quadratic_field(size: int, grid: np.ndarray, coefficients: np.ndarray) -> np.ndarray:
    """(n, fields) the quadratics ``coefficients`` (6, fields) at ``grid`` (grid coordinates
    of a board of ``size``)."""
    result: np.ndarray = _design(size, grid) @ coefficients
    return result
