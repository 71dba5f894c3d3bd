"""From a frame and the board's homography to colour samples of every point and paper patch.

The frame is warped once into a small top-down view of the grid (``canonical``: a
fixed number of pixels per pitch), and every sample is then a fixed set of pixel
indices into that view, computed once per board size. Warping only the grid area
to ~140x140 pixels is what makes a frame cheap whatever the camera resolution.

- Point samples are discs of ``point_sample_radius`` pitches minus a cross-shaped
  band along the printed lines, so an empty point shows paper, not ink; their
  per-channel median shrugs off a piece's gloss, its rim, or a piece sitting off
  its point.
- Paper samples are small discs at the centres of the grid squares (and the half
  squares round the grid), where nothing is printed and no piece reaches.
- Each point is judged relative to the paper around it: its colour divided, channel
  by channel, by the mean of the four paper samples diagonally next to it. That
  cancels the colour of the light, its unevenness and soft shadows.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

import cv2
import numpy as np

from vision.board_model import BoardModel
from vision.config import VisionConfig


@dataclass(frozen=True, slots=True)
class SamplingLayout:
    """Pixel indices of every sample in the top-down view of one board size."""

    size: int
    """Board size."""
    view_size: int
    """Side of the square top-down view, pixels."""
    pitch_px: int
    """Pixels per pitch in the view."""
    margin: float
    """Pitches of sheet round the grid in the view."""
    point_pixels: np.ndarray
    """(points, k) flat pixel indices of each point's sample, points in model order."""
    paper_pixels: np.ndarray
    """(cells, m) flat pixel indices of each paper sample."""
    paper_grid: np.ndarray
    """(cells, 2) grid coordinates of the paper samples (half-integers)."""
    point_cells: np.ndarray
    """(points, 4) indices of the paper samples diagonally next to each point."""

    def view_position(self, x: float, y: float) -> tuple[float, float]:
        """Pixel position in the view of grid coordinates (file index, rank index)."""
        return ((x + self.margin) * self.pitch_px,
                (self.size - 1 - y + self.margin) * self.pitch_px)


@lru_cache(maxsize=8)
def sampling_layout(config: VisionConfig, size: int) -> SamplingLayout:
    """The sampling layout of a ``size`` board (built once per config and size)."""
    pitch = config.canonical_pitch_px
    margin = config.canonical_margin
    view = round((size - 1 + 2 * margin) * pitch)
    ys, xs = np.mgrid[0:view, 0:view].astype(np.float64)

    def disc(cx: float, cy: float, radius: float, avoid_lines: bool) -> np.ndarray:
        dx, dy = xs - cx, ys - cy
        inside = dx * dx + dy * dy <= (radius * pitch) ** 2
        if avoid_lines:
            band = config.line_clearance * pitch
            inside &= (np.abs(dx) > band) & (np.abs(dy) > band)
        return np.flatnonzero(inside)

    def centre(x: float, y: float) -> tuple[float, float]:
        # Pixel centres sit at integer coordinates in OpenCV's warp.
        return (x + margin) * pitch, (size - 1 - y + margin) * pitch

    points = [(x, y) for y in range(size) for x in range(size)]
    point_samples = [disc(*centre(x, y), config.point_sample_radius, True) for x, y in points]
    cells = [(x - 0.5, y - 0.5) for y in range(size + 1) for x in range(size + 1)]
    paper_samples = [disc(*centre(x, y), config.paper_sample_radius, False) for x, y in cells]
    cell_index = {cell: i for i, cell in enumerate(cells)}
    point_cells = [
        [cell_index[(x + dx, y + dy)] for dx in (-0.5, 0.5) for dy in (-0.5, 0.5)]
        for x, y in points
    ]
    return SamplingLayout(
        size=size,
        view_size=view,
        pitch_px=pitch,
        margin=margin,
        point_pixels=_rectangular(point_samples),
        paper_pixels=_rectangular(paper_samples),
        paper_grid=np.array(cells, np.float64),
        point_cells=np.array(point_cells, np.intp),
    )


def _rectangular(samples: list[np.ndarray]) -> np.ndarray:
    # Discs at different sub-pixel phases can differ by a pixel or two; trim to the
    # smallest so that all samples stack into one array (one numpy call per frame).
    count = min(len(s) for s in samples)
    return np.stack([s[(len(s) - count) // 2:(len(s) - count) // 2 + count] for s in samples])


def view_to_sheet(layout: SamplingLayout, model: BoardModel) -> np.ndarray:
    """The homography from top-down view pixels to sheet millimetres."""
    scale = model.pitch / layout.pitch_px
    left = model.grid_left - layout.margin * model.pitch
    top = model.grid_top - layout.margin * model.pitch
    return np.array([[scale, 0, left], [0, scale, top], [0, 0, 1]], np.float64)


def top_down_view(
    layout: SamplingLayout, model: BoardModel, frame: np.ndarray, sheet_to_image: np.ndarray
) -> np.ndarray:
    """The grid area of ``frame`` seen from straight above, ``view_size`` pixels square."""
    matrix = sheet_to_image @ view_to_sheet(layout, model)
    return cv2.warpPerspective(
        frame, matrix, (layout.view_size, layout.view_size),
        flags=cv2.INTER_LINEAR | cv2.WARP_INVERSE_MAP, borderMode=cv2.BORDER_REPLICATE,
    )


@dataclass(frozen=True, slots=True)
class BoardSamples:
    """Colour samples of one frame."""

    point_colours: np.ndarray
    """(points, 3) median BGR of each point's sample."""
    paper_colours: np.ndarray
    """(cells, 3) mean BGR of each paper sample."""
    paper_spread: np.ndarray
    """(cells,) standard deviation of brightness inside each paper sample, relative to its mean."""
    relative: np.ndarray
    """(points, 3) each point's colour divided by the paper round it: the colour features."""


def sample_board(layout: SamplingLayout, view: np.ndarray) -> BoardSamples:
    """Sample every point and paper patch of a top-down view."""
    pixels = view.reshape(-1, 3).astype(np.float32)
    point_colours = np.median(pixels[layout.point_pixels], axis=1)
    paper = pixels[layout.paper_pixels]
    paper_colours = paper.mean(axis=1)
    brightness = paper.mean(axis=2)
    paper_spread = brightness.std(axis=1) / np.maximum(brightness.mean(axis=1), 1.0)
    around = paper_colours[layout.point_cells].mean(axis=1)
    relative = point_colours / np.maximum(around, 1.0)
    return BoardSamples(point_colours, paper_colours, paper_spread, relative)
