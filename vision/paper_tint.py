"""The colour the light gives the paper across the sheet, as calibration saw it.

Decisions:
- Two lights of different colours over a board (a warm spotlight's cone in a room lit by
  a warmer lamp and a magenta tablecloth) make the paper's colour vary smoothly across the
  sheet. Paper beyond the cone lay 0.13 to 0.14 from the median paper's colour, pinker,
  where the paper check allows 0.13 anywhere (a hand is told by its colour): a room render's
  spotlight left 4 of the 10 frames of one board covered there.
- The lit paper's colour is fitted to the start position as a quadratic over the sheet
  (as the light's brightness is, ``vision.light_field``), less its median over the grid:
  the tint of each sample. In a frame, a paper sample is covered only where it looks like
  bare paper neither as it is nor with its tint taken away (``vision.paper.check_paper``):
  a light switched since calibration leaves the check as it was without a tint.
- The lights stay where they were, so the tint is learned once, after calibration's own
  paper check (which takes none) found the start position's paper all bare: a hand's
  colour is never in it. Learned from a start image with a hand over the board, it took
  half of the hand's colour for the light's.
- A tint of more than ``MOST_TINT`` anywhere on the grid is not kept: taken away, it could
  make skin look like paper.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from vision.light_field import lit_chroma_coefficients, quadratic_field
from vision.reductions import channel_norm, median_along
from vision.sampling import BoardSamples, SamplingLayout

MOST_TINT = 0.25
"""Most tint (log chroma) of a grid sample for the tint to be kept. Over the 350 setups the
room renderer's full set and Blender seeds 4301 to 4801 calibrate, the strongest tints were a
median 0.008, 0.13 at the 99th percentile, 0.17 at the pink edge of a spotlight's cone, and
one low lamp's 0.33 (whose frames all read without it)."""
SHOWN_TINT = 0.1
"""Least tint that ``surakarta calibrate`` mentions: lights of plainly different colours (10
of those 350 setups: spotlights and low lamps)."""


@dataclass(frozen=True, slots=True)
class PaperTint:
    """The light's colour over the sheet: quadratics of log chroma in grid coordinates."""

    coefficients: tuple[tuple[float, float, float], ...]
    """Six rows (the terms of ``vision.light_field``'s quadratics), one column per channel
    (blue, green, red)."""

    def at(self, size: int, grid: np.ndarray) -> np.ndarray:
        """(n, 3) the tint at ``grid`` (grid coordinates of a board of ``size``)."""
        return quadratic_field(size, grid, np.array(self.coefficients, np.float64))

    def strongest(self, size: int) -> float:
        """The most tint (log chroma) of a paper sample between and round the points of a
        board of ``size``: the grid's samples."""
        grid = np.array([(x + 0.5, y + 0.5) for y in range(-1, size) for x in range(-1, size)])
        return float(channel_norm(self.at(size, grid)).max())

    def to_json(self) -> list[list[float]]:
        """JSON-ready data."""
        return [[round(value, 6) for value in row] for row in self.coefficients]

    @staticmethod
    def from_json(data: object) -> PaperTint:
        """Inverse of :meth:`to_json`; raises ValueError on malformed data."""
        rows = np.array(data, np.float64) if isinstance(data, list) else None
        if rows is None or rows.shape != (6, 3) or not np.isfinite(rows).all():
            raise ValueError("paper tint is not six rows of three numbers")
        return PaperTint(_rows(rows))


def learn_paper_tint(layout: SamplingLayout, samples: BoardSamples) -> PaperTint | None:
    """The tint of the paper in the start position, from the paper its pieces leave visible
    and the light over it as ``samples`` were judged against them
    (``vision.sampling.judged_against_paper``); None where it reaches beyond ``MOST_TINT``,
    or for samples not so judged."""
    visible, light = samples.visible, samples.paper_light
    if visible is None or light is None:
        return None
    logs = np.log(np.maximum(visible.colours, 1.0).astype(np.float64))
    judged = visible.usable
    coefficients = lit_chroma_coefficients(layout.size, layout.paper_grid, logs, judged,
                                           light.lit)
    on_grid = judged & layout.on_grid
    if not on_grid.any():
        return None
    field = quadratic_field(layout.size, layout.paper_grid, coefficients)
    # The constant term is the first: less the median, the tint leaves the paper's colour.
    coefficients[0] -= median_along(field[on_grid], axis=0)
    tint = PaperTint(_rows(coefficients))
    return None if tint.strongest(layout.size) > MOST_TINT else tint


def _rows(coefficients: np.ndarray) -> tuple[tuple[float, float, float], ...]:
    return tuple((float(row[0]), float(row[1]), float(row[2])) for row in coefficients)
