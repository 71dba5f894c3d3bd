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

One bad sample is enough: the frame is occluded. A sample diagonally next to a piece
is judged more leniently in darkness and texture: pieces have height, so their
shadows fall on the paper round them. A hand is still caught there by its colour,
and everywhere else by all three tests.
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


def check_paper(config: VisionConfig, layout: SamplingLayout, samples: BoardSamples,
                occupied: np.ndarray | None = None) -> PaperCheck:
    """Judge every paper sample against the board's paper as a whole.

    ``occupied`` (points,) says which points hold a piece; samples next to one are
    allowed its shadow.
    """
    logs = np.log(np.maximum(samples.paper_colours, 1.0).astype(np.float64))
    brightness = logs.mean(axis=1)
    chroma = logs - brightness[:, None]
    near = np.zeros(len(brightness), bool)
    if occupied is not None:
        near = layout.cell_points[:, np.asarray(occupied, bool)].any(axis=1)
    # The paper's colour from the samples no piece can shade, when there are enough.
    reference = chroma[~near] if (~near).sum() >= 4 else chroma
    chroma_error = np.linalg.norm(chroma - np.median(reference, axis=0), axis=1)
    brightness_error = brightness - _smooth_field(layout, brightness, ~near)
    dark = np.where(near, config.near_piece_dark_tolerance, config.paper_dark_tolerance)
    texture = np.where(near, config.near_piece_texture_tolerance, config.paper_texture_tolerance)
    covered = (
        (chroma_error > config.paper_chroma_tolerance)
        | (brightness_error < -dark)
        | (brightness_error > config.paper_bright_tolerance)
        | (samples.paper_spread > texture)
    )
    return PaperCheck(covered, chroma_error, brightness_error)


def _design(layout: SamplingLayout) -> np.ndarray:
    # Grid coordinates scaled to about -1..1 so the quadratic terms are well conditioned.
    half = (layout.size - 1) / 2
    x = (layout.paper_grid[:, 0] - half) / (half + 0.5)
    y = (layout.paper_grid[:, 1] - half) / (half + 0.5)
    return np.column_stack([np.ones_like(x), x, y, x * x, x * y, y * y])


def _smooth_field(layout: SamplingLayout, brightness: np.ndarray,
                  trusted: np.ndarray) -> np.ndarray:
    """A robust quadratic fit of log brightness over the board (iteratively reweighted).

    Samples that may lie in a piece's shadow start with a small weight.
    """
    design = _design(layout)
    weights = np.where(trusted, 1.0, 0.2)
    fitted = np.full_like(brightness, np.median(brightness))
    for _ in range(_FIT_ROUNDS):
        root = np.sqrt(weights)[:, None]
        coefficients, *_ = np.linalg.lstsq(design * root, brightness * root[:, 0], rcond=None)
        fitted = design @ coefficients
        residual = (brightness - fitted) / _FIT_SCALE
        weights = 1 / (1 + residual * residual)  # Cauchy weights: outliers fade, never flip
    return fitted
