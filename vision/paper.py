"""Occlusion: does the bare paper between the points still look like paper?

A hand or arm over the board is the one thing that must never turn into a board
reading. Missing markers are only a weak hint (a hand over the middle leaves all
four visible), and a uniform occluder fools the per-point test because the point
and the "paper" round it are then the same skin. So every paper sample is checked
against the board as a whole:

- colour: its chromaticity (log colour minus log brightness) must match the median
  chromaticity of all paper samples; coloured light shifts every sample alike and
  cancels, skin and sleeves do not;
- brightness: it must lie near a smooth light field (a quadratic in log brightness
  over the board, fitted robustly so that a few bad samples do not drag it); a
  shadow darkens paper by up to ~0.7 in log units, a dark sleeve or dark skin by
  more;
- texture: a sample with an edge through it (a finger's outline) is not bare paper.

One bad sample is enough: the frame is occluded.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from vision.config import VisionConfig
from vision.sampling import BoardSamples, SamplingLayout

_FIT_ROUNDS = 4
_FIT_SCALE = 0.15  # log units: residuals well beyond this weigh little in the fit


@dataclass(frozen=True, slots=True)
class PaperCheck:
    """What the paper samples of one frame say about occlusion."""

    covered: np.ndarray
    """(cells,) True for each paper sample that does not look like bare paper."""
    chroma_error: np.ndarray
    """(cells,) distance of each sample's chromaticity from the board's paper, log units."""
    brightness_error: np.ndarray
    """(cells,) log brightness minus the smooth light field."""

    @property
    def is_clear(self) -> bool:
        """Whether every paper sample looks like bare paper."""
        return not bool(self.covered.any())


def check_paper(config: VisionConfig, layout: SamplingLayout, samples: BoardSamples) -> PaperCheck:
    """Judge every paper sample against the board's paper as a whole."""
    logs = np.log(np.maximum(samples.paper_colours, 1.0).astype(np.float64))
    brightness = logs.mean(axis=1)
    chroma = logs - brightness[:, None]
    chroma_error = np.linalg.norm(chroma - np.median(chroma, axis=0), axis=1)
    brightness_error = brightness - _smooth_field(layout, brightness)
    covered = (
        (chroma_error > config.paper_chroma_tolerance)
        | (brightness_error < -config.paper_dark_tolerance)
        | (brightness_error > config.paper_bright_tolerance)
        | (samples.paper_spread > config.paper_texture_tolerance)
    )
    return PaperCheck(covered, chroma_error, brightness_error)


def _design(layout: SamplingLayout) -> np.ndarray:
    # Grid coordinates scaled to about -1..1 so the quadratic terms are well conditioned.
    half = (layout.size - 1) / 2
    x = (layout.paper_grid[:, 0] - half) / (half + 0.5)
    y = (layout.paper_grid[:, 1] - half) / (half + 0.5)
    return np.column_stack([np.ones_like(x), x, y, x * x, x * y, y * y])


def _smooth_field(layout: SamplingLayout, brightness: np.ndarray) -> np.ndarray:
    """A robust quadratic fit of log brightness over the board (iteratively reweighted)."""
    design = _design(layout)
    weights = np.ones_like(brightness)
    fitted = np.full_like(brightness, np.median(brightness))
    for _ in range(_FIT_ROUNDS):
        root = np.sqrt(weights)[:, None]
        coefficients, *_ = np.linalg.lstsq(design * root, brightness * root[:, 0], rcond=None)
        fitted = design @ coefficients
        residual = (brightness - fitted) / _FIT_SCALE
        weights = 1 / (1 + residual * residual)  # Cauchy weights: outliers fade, never flip
    return fitted
