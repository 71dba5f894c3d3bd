"""From a frame and the calibrated camera to colour samples of every point and paper patch.

The frame is remapped into small top-down views of the grid (``canonical``: a fixed
number of pixels per pitch), and every sample is then a fixed set of pixel indices
into a view, computed once per board size. Remapping only the grid area to ~140x140
pixels is what makes a frame cheap whatever the camera resolution; the remap tables
come from the camera model (lens distortion included) and are computed once per
camera pose, so a wide lens costs nothing per frame.

- Two views: the paper plane, where the paper samples and the printed lines are,
  and the plane of the pieces' tops (a height learned at calibration), where a
  piece's top face is, wherever a tilted or wide-angle camera sees it.

- Point samples are discs of ``point_sample_radius`` pitches minus a cross-shaped
  band along the printed lines, so an empty point shows paper, not ink; a low
  quantile per channel shrugs off a piece's gloss. A piece set whose tops carry a
  printed pattern is read over a wider disc (``wide_point_sample_radius``), chosen
  at calibration: the narrow one falls on the pattern's ring.
- Paper samples are small discs at the centres of the grid squares (and the half
  squares round the grid), where nothing is printed and no piece reaches; and a row
  beyond each side of the grid, between the loops' ink, half a pitch apart: a finger
  reaching an edge point from outside may slip between the half squares, not these.
- Each point is judged relative to the paper around it: its colour divided, channel
  by channel, by the paper samples diagonally next to it (the brighter two of the
  four, since a piece's own shadow may fall on the others). That cancels the colour
  of the light, its unevenness and soft shadows. Features are logarithms, so a
  shadow is a shift of all three channels alike. A piece's top is never in its
  neighbours' shadows: where they darken all the paper round it (a window or a low
  lamp to one side), the top is judged against the lit paper's smooth field instead
  (``vision.light_field``).
- A ring round each point on the tops' plane gives its rim's grey (a low quantile): a
  glossy dark top mirroring a lamp looks pale but keeps its dark rim (``vision.rims``).
- The printed cross at each point is sampled in the image itself (lines are a pixel
  or two wide, too thin for the small views): the ink darker than the paper beside
  it says the point is bare, whatever the pieces' colour, even white on white.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, replace
from functools import lru_cache

import cv2
import numpy as np

from vision.board_model import BoardModel
from vision.camera import CameraModel
from vision.colour import LABELS, PointLabel
from vision.config import VisionConfig
from vision.light_field import PaperLight, lit_chroma, paper_light
from vision.palette import RADIUS as PALETTE_RADIUS
from vision.reductions import channel_mean, channel_norm, mean_along, median_along


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
    colour_rank: int
    """Which of a point's k sample pixels, in order of brightness per channel, gives its
    colour."""
    wide_point_pixels: np.ndarray
    """(points, w) the same over a wider disc (``VisionConfig.wide_point_sample_radius``)."""
    wide_colour_rank: int
    """``colour_rank`` of the wider disc."""
    wide_tops: frozenset[PointLabel]
    """The piece sets read over the wider disc."""
    rim_pixels: np.ndarray
    """(points, r) flat pixel indices of the ring round each point where a piece's rim is
    (:data:`RIM_RADII`); r is 0 when the rims are not read."""
    rim_sector_pixels: np.ndarray
    """(points, sectors, r) flat pixel indices of a wider ring round each point
    (:data:`ROUND_RADII`), sector by sector (:data:`RIM_SECTORS`); empty when the rims are
    not read."""
    palette_pixels: np.ndarray
    """(points, p) flat pixel indices of the disc round each point whose colours the
    palette scores (``vision.palette``); p is 0 when the palette is not read."""
    point_grid: np.ndarray
    """(points, 2) grid coordinates (file index, rank index) of the points, model order."""
    paper_pixels: np.ndarray
    """(cells, m) flat pixel indices of each paper sample."""
    paper_grid: np.ndarray
    """(cells, 2) grid coordinates of the paper samples: the half squares of the grid and
    round it (half-integers), then those beyond the grid's sides (see ``OUTER_DISTANCE``)."""
    on_grid: np.ndarray
    """(cells,) True for the half squares, False for the samples beyond the grid."""
    point_cells: np.ndarray
    """(points, 4) indices of the paper samples diagonally next to each point."""
    point_arms: np.ndarray
    """(points, 4) True where the printed cross has an arm (see :data:`ARMS`)."""
    cell_neighbours: np.ndarray
    """(cells, 4) the points diagonally next to each paper sample; the number of points
    (one past the last) where the sample has fewer than four."""
    point_neighbours: np.ndarray
    """(points, 24) the points up to two steps from each point (files and ranks); the number
    of points where there is none."""

    paper_positions: np.ndarray
    """(cells, m, 2) grid coordinates (file, rank) of every pixel of each paper sample."""

    def view_position(self, x: float, y: float) -> tuple[float, float]:
        """Pixel position in the view of grid coordinates (file index, rank index)."""
        return ((x + self.margin) * self.pitch_px,
                (self.size - 1 - y + self.margin) * self.pitch_px)


@lru_cache(maxsize=8)
def sampling_layout(config: VisionConfig, size: int,
                    wide_tops: frozenset[PointLabel] = frozenset(),
                    rims: bool = True, palette: bool = False) -> SamplingLayout:
    """The sampling layout of a ``size`` board (built once per config and size), reading the
    ``wide_tops`` piece sets over the wider disc, the pieces' rims when ``rims`` and the
    colours of their tops (``vision.palette``) when ``palette`` (a reader whose calibration
    has no rim check or palette needs neither: each costs a tenth of a steady frame)."""
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
    wide_samples = [disc(*centre(x, y), config.wide_point_sample_radius, True)
                    for x, y in points]
    palette_discs = [disc(*centre(x, y), PALETTE_RADIUS, False) for x, y in points
                     ] if palette else [np.zeros(0, np.intp) for _ in points]
    def ring(cx: float, cy: float, radii: tuple[float, float]) -> np.ndarray:
        return np.setdiff1d(disc(cx, cy, radii[1], False), disc(cx, cy, radii[0], False))

    def sectors(cx: float, cy: float) -> list[np.ndarray]:
        pixels = ring(cx, cy, ROUND_RADII)
        angles = np.arctan2(ys.flat[pixels] - cy, xs.flat[pixels] - cx)
        sector = np.floor((angles + np.pi) / (2 * np.pi) * RIM_SECTORS).astype(int) % RIM_SECTORS
        return [pixels[sector == index] for index in range(RIM_SECTORS)]

    rings = [ring(*centre(x, y), RIM_RADII) if rims else np.zeros(0, np.intp)
             for x, y in points]
    # Every sector of every ring, point by point, trimmed to one length as the rings are.
    round_rings = [sector for x, y in points for sector in sectors(*centre(x, y))
                   ] if rims else []
    cells = [(x - 0.5, y - 0.5) for y in range(size + 1) for x in range(size + 1)]
    paper_samples = [disc(*centre(x, y), config.paper_sample_radius, False) for x, y in cells]
    # Beyond the grid's edge, between its loops: a finger reaching an edge point from
    # outside passes there, and may slip between the half squares. Where a loop leaves too
    # little paper (beside the inner loop near a corner) there is none: the half squares
    # there are as near the grid's edge.
    loops = _loop_ink(size, xs / pitch - margin, size - 1 - (ys / pitch - margin))
    enough = min(len(sample) for sample in paper_samples)
    for x, y in _outer_cells(size):
        inside = disc(*centre(x, y), OUTER_SAMPLE_RADIUS, False)
        paper = inside[~loops.flat[inside]]
        if len(paper) >= enough:
            cells.append((x, y))
            paper_samples.append(paper)
    paper_pixels = _rectangular(paper_samples)
    point_pixels = _rectangular(point_samples)
    wide_pixels = _rectangular(wide_samples)
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
        point_pixels=point_pixels,
        colour_rank=round(config.point_colour_quantile * (point_pixels.shape[1] - 1)),
        wide_point_pixels=wide_pixels,
        wide_colour_rank=round(config.point_colour_quantile * (wide_pixels.shape[1] - 1)),
        wide_tops=wide_tops,
        rim_pixels=_rectangular(rings),
        rim_sector_pixels=(_rectangular(round_rings).reshape(len(points), RIM_SECTORS, -1)
                           if round_rings else np.zeros((len(points), 0, 0), np.intp)),
        palette_pixels=_rectangular(palette_discs),
        point_grid=np.array(points, np.float64),
        paper_pixels=paper_pixels,
        paper_grid=np.array(cells, np.float64),
        on_grid=np.arange(len(cells)) < (size + 1) ** 2,
        point_cells=np.array(point_cells, np.intp),
        point_arms=np.array([[_printed_arm(size, x, y, dx, dy) for dx, dy in ARMS]
                             for x, y in points]),
        cell_neighbours=_cell_neighbours(cells, points, size),
        point_neighbours=np.array([[points.index((x + dx, y + dy))
                                    if (x + dx, y + dy) in points else len(points)
                                    for dx in range(-2, 3) for dy in range(-2, 3) if dx or dy]
                                   for x, y in points], np.intp),
        paper_positions=_grid_positions(paper_pixels, view, pitch, margin, size),
    )


def _printed_arm(size: int, x: int, y: int, dx: int, dy: int) -> bool:
    """Whether ink leaves point (x, y) towards (dx, dy): a grid line, or past the grid's edge a
    loop, which carries on the second and third lines from each side (never the outermost, nor
    the middle line of a 7x7 board)."""
    if 0 <= x + dx < size and 0 <= y + dy < size:
        return True
    line = y if dx else x
    return min(line, size - 1 - line) in (1, 2)


RIM_RADII = (0.25, 0.45)
"""Inner and outer radius (pitches) of the ring sampled round each point for a piece's rim:
the edge of a top up to 0.4 pitch across, a little off its point."""
RIM_QUANTILE = 0.15
"""Which quantile of the ring's brightness is its rim's: a dark rim fills about a third of
the ring, the printed lines crossing it less."""
ROUND_RADII = (0.2, 0.5)
"""Inner and outer radius (pitches) of the ring that tells how dark a rim is all round."""
RIM_SECTORS = 16
"""Sectors that ring is cut into round its point: each sector's darkest pixel is where the
rim crosses it."""
ROUND_QUANTILE = 0.75
"""Which quantile of the sectors' darkest pixels is the rim's grey all round: a glossy dark
top's dark bevel runs round most of it, while a pale top's own shadow and the printed
lines darken only some sectors. (Some dark tops mirror the lamp on their bevels too, and
show their dark rim on one side only: the low quantile of the whole ring catches those.)"""
OUTER_DISTANCE = 0.8
"""Pitches beyond the grid's outer lines of the paper samples outside the grid."""
OUTER_SAMPLE_RADIUS = 0.2
"""Radius (pitches) of those samples before the loops' ink is taken out of them."""
LOOP_CLEARANCE = 0.12
"""Pitches from a loop's arc inside which no pixel is paper: the arc's own width, blur and
the lens fit's error."""
OUTER_STEP = 0.5
"""Pitches between them along each side: narrower than a finger."""


def _outer_cells(size: int) -> list[tuple[float, float]]:
    """Grid coordinates of the paper samples beyond each side of the grid."""
    along = [OUTER_STEP * i for i in range(round((size - 1) / OUTER_STEP) + 1)]
    far = size - 1 + OUTER_DISTANCE
    return ([(-OUTER_DISTANCE, t) for t in along] + [(far, t) for t in along]
            + [(t, -OUTER_DISTANCE) for t in along] + [(t, far) for t in along])


def _loop_ink(size: int, x: np.ndarray, y: np.ndarray) -> np.ndarray:
    """Which pixels (grid coordinates ``x``, ``y``) lie on or beside a printed loop: arcs
    round the corner points through the second and third lines from each side."""
    radii = {min(line, size - 1 - line) for line in range(size)} & {1, 2}
    ink = np.zeros(x.shape, bool)
    for corner_x in (0, size - 1):
        for corner_y in (0, size - 1):
            distance = np.hypot(x - corner_x, y - corner_y)
            for radius in radii:
                ink |= np.abs(distance - radius) < LOOP_CLEARANCE
    return ink


def _cell_neighbours(cells: list[tuple[float, float]], points: list[tuple[int, int]],
                     size: int) -> np.ndarray:
    """(cells, 4) the points each paper sample lies next to (the number of points where
    there is none): diagonally for a half square; beyond the grid, the edge points nearest
    it, whose pieces' shadows may reach it."""
    index = {point: i for i, point in enumerate(points)}
    table = np.full((len(cells), 4), len(points), np.intp)
    for cell, (x, y) in enumerate(cells):
        if min(x, y) < -0.5 or max(x, y) > size - 0.5:
            edge_x, edge_y = min(max(x, 0.0), size - 1.0), min(max(y, 0.0), size - 1.0)
            nearest = {(math.floor(edge_x), math.floor(edge_y)),
                       (math.ceil(edge_x), math.ceil(edge_y))}
            around = sorted(nearest)
        else:
            around = [(round(x + dx), round(y + dy)) for dx in (-0.5, 0.5) for dy in (-0.5, 0.5)]
        for slot, point in enumerate(around):
            table[cell, slot] = index.get(point, len(points))
    return table


def _grid_positions(pixels: np.ndarray, view: int, pitch: int, margin: float, size: int
                    ) -> np.ndarray:
    rows, columns = np.divmod(pixels, view)
    return np.stack([columns / pitch - margin, size - 1 - (rows / pitch - margin)], axis=-1)


def _adjacency(point_cells: list[list[int]], cells: int) -> np.ndarray:
    table = np.zeros((cells, len(point_cells)), bool)
    for point, around in enumerate(point_cells):
        table[around, point] = True
    return table


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


@dataclass(frozen=True, slots=True)
class ViewMaps:
    """Remap tables from one camera pose to the two top-down views and the line crosses."""

    paper: tuple[np.ndarray, np.ndarray]
    """cv2.remap tables of the paper-plane view."""
    tops: tuple[np.ndarray, np.ndarray]
    """cv2.remap tables of the view of the pieces' tops."""
    cross: tuple[np.ndarray, np.ndarray]
    """cv2.remap tables of the cross samples: (points, arms x steps x across) positions."""
    wide_cross: tuple[np.ndarray, np.ndarray]
    """The same, farther across each arm (:data:`WIDE_CROSS_ACROSS`)."""
    cover: np.ndarray
    """(cells, 4, m) which pixels of each paper sample the piece on each of the four points
    next to it may hide from this camera (its side, seen at a slant), were one there."""
    edge_cover: np.ndarray
    """(cells, 4, m) the same out to the edge of a piece set down off its point
    (:data:`EDGE_COVER_RADIUS`)."""


CROSS_STEPS = (0.07, 0.11, 0.15)
"""Distances from the point, pitches, at which each arm of the printed cross is sampled."""
CROSS_ACROSS = (-0.075, -0.035, -0.0175, 0.0, 0.0175, 0.035, 0.075)
"""Offsets across an arm, pitches: paper beside it, five places the line may be (the camera's
pose is known to a pixel, the line is about a pixel wide), paper on the other side. The
paper is sampled close to the line so that a dark piece's edge is not taken for a line."""
WIDE_CROSS_ACROSS = (-0.14, -0.1, -0.07, -0.035, 0.0, 0.035, 0.07, 0.1, 0.14)
"""Offsets across an arm that find its line when the camera's pose is two or three pixels off
there (a wide lens near its edge), to check that a pale piece really hides its cross."""
CROSS_FULL = 0.3
"""Contrast of the cross at which a point counts as plainly bare; the feature is the contrast
up to this, as a share of it, so focus and resolution above it do not matter."""
COVER_HEIGHT_MM = 5.0
"""Least piece height assumed for what a piece hides (a near-vertical view cannot tell)."""
COVER_RADIUS = 0.6
"""Radius of what a piece may cover, pitches: its 0.4 and 0.2 off its point."""
EDGE_COVER_RADIUS = 0.7
"""The same with the piece's blurred edge and the dark foot of its side: a piece set down
0.2 off its point towards a paper sample darkens its near side (see ``vision.paper``)."""
VIEW_STEP = 4
"""Every how many view pixels the camera is projected exactly (the rest interpolated)."""
ARMS = ((1, 0), (0, 1), (-1, 0), (0, -1))
"""Directions of the cross's arms on the grid (file, rank)."""


def cross_positions(model: BoardModel, across: tuple[float, ...] = CROSS_ACROSS
                    ) -> np.ndarray:
    """Sheet positions (mm) of the cross samples: (points, arms, steps, across, 2)."""
    arms = []
    for dx, dy in ARMS:
        steps = []
        for distance in CROSS_STEPS:
            # Ranks count up the sheet, its y axis down.
            along = np.array([dx, -dy], np.float64) * distance
            normal = np.array([-dy, dx], np.float64)
            steps.append([along + normal * offset for offset in across])
        arms.append(steps)
    offsets = np.array(arms) * model.pitch  # (arms, steps, 3, 2)
    centres = np.array([model.point_mm(p) for p in model.points])
    result: np.ndarray = centres[:, None, None, None, :] + offsets[None]
    return result


def view_maps(layout: SamplingLayout, model: BoardModel, camera: CameraModel,
              top_height: float) -> ViewMaps:
    """The remap tables of ``camera`` (computed once per pose)."""

    def tables(points: np.ndarray, height: float, shape: tuple[int, int]
               ) -> tuple[np.ndarray, np.ndarray]:
        pixels = camera.project_sheet(points, height).astype(np.float32).reshape(*shape, 2)
        return _fixed_point(pixels)

    def view_tables(height: float) -> tuple[np.ndarray, np.ndarray]:
        # The mapping is smooth: project every VIEW_STEP-th pixel and interpolate.
        coarse = np.arange(0, layout.view_size + VIEW_STEP, VIEW_STEP, dtype=np.float64)
        ys, xs = np.meshgrid(coarse, coarse, indexing="ij")
        sheet = np.column_stack([xs.ravel(), ys.ravel(), np.ones(xs.size)]) @ view_to_sheet(
            layout, model).T
        pixels = camera.project_sheet(sheet[:, :2], height).astype(np.float32)
        grid = pixels.reshape(len(coarse), len(coarse), 2)
        at = np.arange(layout.view_size, dtype=np.float32) / VIEW_STEP
        full = cv2.remap(grid, *np.meshgrid(at, at), cv2.INTER_LINEAR)
        return _fixed_point(full)

    paper = view_tables(0.0)
    tops = paper if top_height < 0.25 else view_tables(top_height)
    crosses = cross_positions(model)
    wide = cross_positions(model, WIDE_CROSS_ACROSS)
    reach = piece_reach(layout, model, camera, top_height)
    return ViewMaps(paper, tops, tables(crosses.reshape(-1, 2), 0.0, (len(crosses), -1)),
                    tables(wide.reshape(-1, 2), 0.0, (len(wide), -1)),
                    reach <= COVER_RADIUS, reach <= EDGE_COVER_RADIUS)


def _fixed_point(pixels: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Float remap positions (h, w, 2) as OpenCV's fast fixed-point tables."""
    # OpenCV's type stubs leave out the map2=None that convertMaps takes for a (h, w, 2) map.
    first, second = cv2.convertMaps(pixels, None, cv2.CV_16SC2)  # type: ignore[call-overload]
    return np.asarray(first), np.asarray(second)


def piece_reach(layout: SamplingLayout, model: BoardModel, camera: CameraModel,
                top_height: float) -> np.ndarray:
    """(cells, 4, m) how far (pitches) each pixel of each paper sample lies from what a piece
    on each point next to it shows of itself (infinite where there is no such point).

    Seen at a slant, a piece hides the paper from its base to where its top's edge
    lands on the paper, farther from the camera: the pixels within a radius of the line
    from the point to the top's place (COVER_RADIUS for a piece set down a little off its
    point, EDGE_COVER_RADIUS for that and its blurred edge).
    """
    height = max(top_height, COVER_HEIGHT_MM)
    centres = np.array([model.point_mm(p) for p in model.points])
    seen = camera.project_sheet(centres, height).reshape(-1, 1, 2)
    flat = cv2.undistortPoints(seen, camera.matrix, camera.coefficients, P=camera.matrix)
    landing = cv2.perspectiveTransform(flat, np.linalg.inv(camera.homography())).reshape(-1, 2)
    shift = (landing - centres) / model.pitch * np.array([1.0, -1.0])  # grid units, rank up
    grid = np.array([[x, y] for y in range(layout.size) for x in range(layout.size)], np.float64)
    bases = np.vstack([grid, [np.nan, np.nan]])[layout.cell_neighbours]  # (cells, 4, 2)
    shifts = np.vstack([shift, [0.0, 0.0]])[layout.cell_neighbours]
    pixels = layout.paper_positions[:, None, :, :]  # (cells, 1, m, 2)
    start, along = bases[:, :, None, :], shifts[:, :, None, :]
    length = np.maximum((along**2).sum(axis=3), 1e-9)
    t = np.clip(((pixels - start) * along).sum(axis=3) / length, 0.0, 1.0)
    nearest = start + t[..., None] * along
    distance = np.sqrt(((pixels - nearest) ** 2).sum(axis=3))
    result: np.ndarray = np.nan_to_num(distance, nan=np.inf)
    return result


def remap(frame: np.ndarray, tables: tuple[np.ndarray, np.ndarray]) -> np.ndarray:
    """The frame sampled through remap tables (edge pixels repeated outside the frame)."""
    result: np.ndarray = cv2.remap(frame, tables[0], tables[1], cv2.INTER_LINEAR,
                                   borderMode=cv2.BORDER_REPLICATE)
    return result


@dataclass(frozen=True, slots=True)
class BoardSamples:
    """Colour samples of one frame."""

    point_colours: np.ndarray
    """(points, 3) BGR of each point's sample in the view of the pieces' tops (see
    ``VisionConfig.point_colour_quantile``)."""
    paper_colours: np.ndarray
    """(cells, 3) mean BGR of each paper sample."""
    paper_spread: np.ndarray
    """(cells,) standard deviation of brightness inside each paper sample, relative to its mean."""
    relative: np.ndarray
    """(points, 3) log of each point's colour divided by the paper round it."""
    cross_profiles: np.ndarray
    """(points, arms, across, 3) BGR across each arm of the printed cross, averaged along it
    (see :data:`CROSS_ACROSS`)."""
    cross: np.ndarray
    """(points,) how much darker the printed cross is than the paper beside it (0: no line
    seen; about 0.3-0.6 on bare paper), the median over its arms."""
    faintest_arm: np.ndarray
    """(points,) the contrast of each point's faintest printed arm (0: an arm shows no line,
    as where a piece set down off the point hides it)."""
    plainest_arm: np.ndarray
    """(points,) the contrast of each point's plainest printed arm."""
    features: np.ndarray
    """(points, labels, 4) the classifier's features for each label (see
    :data:`vision.colour.LABELS`): the colour relative to the paper (on the paper plane for
    the bare label, on the tops' plane for the pieces) and the cross."""
    disc_logs: np.ndarray
    """(points, pixels, 3) log BGR of every pixel of each point's sample on the paper plane."""
    disc_median_logs: np.ndarray
    """(points, 3) their median, per channel (a bare point's colour, before the paper round
    it is divided out: the median of logs less a constant is the median less it)."""
    paper_values: np.ndarray
    """(cells, m, 3) BGR of every pixel of each paper sample."""
    top_middles: np.ndarray
    """(points, 3) BGR median of each point's sample in the view of the pieces' tops."""
    middle_relative: np.ndarray | None = None
    """(points, 3) log of ``top_middles`` divided by the paper round each point."""
    disc_relative: np.ndarray | None = None
    """(points, pixels, 3) ``disc_logs`` relative to the paper round each point (log), to
    tell a piece that covers part of a point (set down off it) from bare paper."""
    paper_round: np.ndarray | None = None
    """(points, 3) BGR of the paper round each point, as judged."""
    lit_paper: np.ndarray | None = None
    """(points, 3) BGR of the paper at each point as the light falls on it, out of any
    shadow: the smooth field of the lit paper (``vision.light_field``)."""
    tops_paper: np.ndarray | None = None
    """(points, 3) BGR of the paper each point's top is judged against: ``paper_round``, or
    ``lit_paper`` where the pieces' shadows darken it round a piece (see
    :func:`judged_against_paper`)."""
    wide_colours: np.ndarray | None = None
    """(points, 3) as ``point_colours`` over the wider disc, when a piece set is read so
    (``SamplingLayout.wide_tops``)."""
    rims: np.ndarray | None = None
    """(points,) grey level of the ring round each point on the tops' plane
    (:data:`RIM_QUANTILE`): a glossy dark top mirroring a lamp keeps its dark rim. None
    when the layout reads no rims."""
    rim_relative: np.ndarray | None = None
    """(points,) log of ``rims`` relative to the paper round each point's brightness."""
    rims_round: np.ndarray | None = None
    """(points,) grey level of the wider ring round each point, as dark as it is all round
    (:data:`ROUND_QUANTILE`); None when the layout reads no rims."""
    round_relative: np.ndarray | None = None
    """(points,) log of ``rims_round`` relative to the paper round each point's brightness."""
    palette_logs: np.ndarray | None = None
    """(points, p, 3) log BGR of every pixel of the disc round each point on the tops'
    plane that the palette scores (``vision.palette``); None when the layout reads none."""
    visible: VisiblePaper | None = None
    """What the pieces judged against left of each paper sample; None when judged without."""
    paper_light: PaperLight | None = None
    """The light over the paper samples the points were judged against."""
    paper_brightness: np.ndarray | None = None
    """(cells, m) the brightness (mean of the channels) of every pixel of each paper
    sample, when worked out with the samples."""
    top_view: np.ndarray | None = None
    """The frame's view of the pieces' tops (``SamplingLayout``'s pixels index it)."""

    def visible_paper(self, layout: SamplingLayout, cover: np.ndarray,
                      occupied: np.ndarray) -> VisiblePaper:
        """The paper samples without what the pieces on ``occupied`` hide: as judged, when
        the points were judged against the paper with those pieces (a still board), else
        worked out."""
        if self.visible is not None and self.visible.left_by(cover, occupied):
            return self.visible
        return visible_paper(layout, self, cover, occupied)


def sample_board(layout: SamplingLayout, frame: np.ndarray, maps: ViewMaps,
                 occupied: np.ndarray | None = None) -> BoardSamples:
    """Sample every point, paper patch and printed cross of a frame.

    ``occupied`` (points,), when known, says where pieces stand: the paper each point is
    judged against then leaves out what those pieces hide (a white piece's top is
    brighter than the paper, a dark one's side darker).
    """
    paper_view = remap(frame, maps.paper)
    top_view = paper_view if maps.tops is maps.paper else remap(frame, maps.tops)
    # Only the pixels sampled are taken into floats, not the whole view.
    top_pixels = top_view.reshape(-1, 3)
    discs = _rows_at(top_pixels, layout.point_pixels).astype(np.float32)
    # A low quantile rather than the median: see VisionConfig.point_colour_quantile.
    # The median proper: the mean of the middle two of an even count of pixels.
    rank, lower, middle = layout.colour_rank, (discs.shape[1] - 1) // 2, discs.shape[1] // 2
    ranked = np.partition(discs, sorted({rank, lower, middle}), axis=1)
    point_colours, top_middles = ranked[:, rank], (ranked[:, lower] + ranked[:, middle]) / 2
    wide_colours = None
    if layout.wide_tops:
        wide_discs = _rows_at(top_pixels, layout.wide_point_pixels).astype(np.float32)
        wide_colours = np.partition(wide_discs, layout.wide_colour_rank,
                                    axis=1)[:, layout.wide_colour_rank]
    palette_logs = None
    if layout.palette_pixels.size:
        palette_logs = pixel_logs(_rows_at(top_pixels, layout.palette_pixels))
    rims = rims_round = None
    if layout.rim_pixels.size:
        rings = channel_mean(_rows_at(top_pixels, layout.rim_pixels).astype(np.float32))
        rim_rank = round(RIM_QUANTILE * (rings.shape[1] - 1))
        rims = np.partition(rings, rim_rank, axis=1)[:, rim_rank]
        points, count, per_sector = layout.rim_sector_pixels.shape
        darkest = channel_mean(_rows_at(top_pixels, layout.rim_sector_pixels.reshape(
            points, -1)).astype(np.float32)).reshape(points, count, per_sector).min(axis=2)
        round_rank = round(ROUND_QUANTILE * (count - 1))
        rims_round = np.partition(darkest, round_rank, axis=1)[:, round_rank]
    paper_pixels = paper_view.reshape(-1, 3)
    paper = _rows_at(paper_pixels, layout.paper_pixels).astype(np.float32)
    paper_colours = mean_along(paper, 1)
    brightness = channel_mean(paper)
    # The standard deviation as numpy's std works it out, from the mean the spread is
    # relative to: one mean, not two.
    brightness_mean = mean_along(brightness, 1, keepdims=True)
    deviation = brightness - brightness_mean
    paper_spread = np.sqrt(mean_along(deviation * deviation, 1)) / np.maximum(
        brightness_mean[:, 0], 1.0)
    # On the paper plane the printed lines lie in the band the samples leave out; on the
    # tops' plane a slanted camera shows them shifted into the sample.
    disc_logs = pixel_logs(_rows_at(paper_pixels, layout.point_pixels))
    # Averaged along each arm: the line lies at the same offset all along it.
    profiles = mean_along(remap(frame, maps.cross).astype(np.float32).reshape(
        len(discs), len(ARMS), len(CROSS_STEPS), len(CROSS_ACROSS), 3), 2)
    # Relative colours, the cross and the features are judged against the paper round each
    # point by judged_against_paper.
    unjudged = np.zeros(len(discs))
    samples = BoardSamples(point_colours, paper_colours, paper_spread, point_colours, profiles,
                           unjudged, unjudged, unjudged,
                           np.zeros((len(discs), len(LABELS), 4)),
                           disc_logs,
                           median_along(disc_logs, 1), paper, top_middles,
                           wide_colours=wide_colours, rims=rims, rims_round=rims_round,
                           palette_logs=palette_logs,
                           paper_brightness=brightness, top_view=top_view)
    return judged_against_paper(layout, samples, maps.cover, occupied)


def _rows_at(values: np.ndarray, indices: np.ndarray) -> np.ndarray:
    """``values[indices]`` of (n, 3) ``values`` (a view's pixels, colours of the paper
    samples): numpy's take is several times faster than indexing such short rows."""
    return np.take(values, indices, axis=0)


_BYTE_LOGS = np.log(np.maximum(np.arange(256, dtype=np.float32), 1.0)).reshape(1, 256)
"""The log of every 8-bit pixel value (at least 1), in single precision, as a table for
OpenCV's look-up."""


def pixel_logs(pixels: np.ndarray) -> np.ndarray:
    """Log BGR of ``pixels`` ((points, k, 3); at least 1, in single precision)."""
    if pixels.dtype == np.uint8:
        # Looked up: a few thousand pixels a frame take only 256 values, the same numbers.
        result: np.ndarray = cv2.LUT(pixels, _BYTE_LOGS).reshape(pixels.shape)
        return result
    return np.log(np.maximum(pixels.astype(np.float32), 1.0))


MIN_VISIBLE_SHARE = 0.3
"""Least share of a paper sample left visible by the pieces round it for it to be judged."""


@dataclass(frozen=True, slots=True)
class VisiblePaper:
    """What the pieces round each paper sample leave of it."""

    colours: np.ndarray
    """(cells, 3) mean BGR of the visible pixels."""
    spread: np.ndarray
    """(cells,) standard deviation of their brightness, relative to its mean."""
    usable: np.ndarray
    """(cells,) whether enough of the sample is visible to judge it."""
    occupied: np.ndarray
    """(points,) where the pieces stood."""
    cover: np.ndarray
    """What each piece would hide (``ViewMaps.cover``)."""

    def left_by(self, cover: np.ndarray, occupied: np.ndarray) -> bool:
        """Whether this is what pieces on ``occupied`` hiding ``cover`` leave."""
        return self.cover is cover and np.array_equal(self.occupied, occupied)


def visible_paper(layout: SamplingLayout, samples: BoardSamples, cover: np.ndarray,
                  occupied: np.ndarray) -> VisiblePaper:
    """Each paper sample without what the pieces on ``occupied`` points hide (``cover``)."""
    hidden = _hidden_paper(layout, cover, occupied)
    weights, share = hidden.weights, hidden.share
    values = samples.paper_values
    colours = (values * weights[..., None]).sum(axis=1) / share[:, None]
    brightness = samples.paper_brightness
    if brightness is None:
        brightness = channel_mean(values)
    mean = (brightness * weights).sum(axis=1) / share
    deviation = np.sqrt((((brightness - mean[:, None]) ** 2) * weights).sum(axis=1) / share)
    return VisiblePaper(colours, deviation / np.maximum(mean, 1.0), hidden.usable, occupied,
                        cover)


@dataclass(frozen=True, slots=True)
class _HiddenPaper:
    """What the pieces on some points hide of the paper samples from one camera pose."""

    cover: np.ndarray
    """What each piece would hide (``ViewMaps.cover``)."""
    weights: np.ndarray
    """(cells, m) 1 for each pixel of each paper sample left visible, else 0."""
    share: np.ndarray
    """(cells,) how many pixels of each sample are left visible (at least 1)."""
    usable: np.ndarray
    """(cells,) whether enough of each sample is visible to judge it."""
    beside: np.ndarray
    """(cells,) the samples diagonally next to a piece."""


_HIDDEN_KEPT = 4
_hidden_by_pieces: dict[tuple[int, bytes], _HiddenPaper] = {}


def _hidden_paper(layout: SamplingLayout, cover: np.ndarray, occupied: np.ndarray
                  ) -> _HiddenPaper:
    """What the pieces on ``occupied`` points hide of the paper samples (``cover``), from a
    small cache: it changes only when the pieces or the camera do, and frames of a still
    board share it."""
    pieces = np.asarray(occupied, bool)
    key = (id(cover), pieces.tobytes())
    hidden = _hidden_by_pieces.get(key)
    if hidden is not None and hidden.cover is cover:
        return hidden
    taken = np.append(pieces, False)[layout.cell_neighbours]
    weights = (~(cover & taken[:, :, None]).any(axis=1)).astype(np.float32)
    count = weights.sum(axis=1)
    hidden = _HiddenPaper(cover, weights, np.maximum(count, 1.0),
                          count >= MIN_VISIBLE_SHARE * cover.shape[2], taken.any(axis=1))
    for table in (hidden.weights, hidden.share, hidden.usable, hidden.beside):
        table.flags.writeable = False  # shared by the frames that ask for it
    if len(_hidden_by_pieces) >= _HIDDEN_KEPT:
        del _hidden_by_pieces[next(iter(_hidden_by_pieces))]
    _hidden_by_pieces[key] = hidden
    return hidden


_BEFORE_HIDDEN = 1e6
"""Added to a visible paper sample's brightness so that it sorts before any hidden one."""


def judged_against_paper(layout: SamplingLayout, samples: BoardSamples, cover: np.ndarray,
                         occupied: np.ndarray | None) -> BoardSamples:
    """``samples`` with each point's colours relative to the paper round it."""
    around_colours = samples.paper_colours
    usable = np.ones(len(around_colours), bool)
    visible = None
    if occupied is not None:
        visible = visible_paper(layout, samples, cover, occupied)
        # A sample almost hidden by the pieces round it keeps all its pixels.
        around_colours = np.where(visible.usable[:, None], visible.colours,
                                  samples.paper_colours)
        usable = visible.usable
    around = _rows_at(around_colours, layout.point_cells)  # (points, 4, 3)
    around_usable = usable[layout.point_cells]
    # The brighter two of the four: a piece's own shadow darkens the others. Samples the
    # pieces round the point almost hide come last and do not count (all four hidden: below).
    brightness = around.sum(axis=2)
    order = np.argsort(np.where(around_usable, brightness + _BEFORE_HIDDEN, brightness),
                       axis=1)[:, 2:]
    # Indexed directly: np.take_along_axis builds these index arrays anew on every call.
    rows = np.arange(len(around))
    chosen = around[rows[:, None], order]
    weights = around_usable[rows[:, None], order]
    reference = (chosen * weights[..., None]).sum(axis=1) / np.maximum(
        weights.sum(axis=1, keepdims=True), 1)
    # A point whose four samples are all almost hidden takes the one most like paper, the
    # brightest in its darkest channel: a bright piece (yellow, say) in another would tint
    # the paper, and the bare point would look the other way (blue).
    hidden = ~around_usable.any(axis=1)
    whitest = around[rows, around.min(axis=2).argmax(axis=1)]
    reference = np.where(hidden[:, None], whitest, reference)
    reference = np.maximum(reference, 1.0)
    beside = (np.zeros(len(around_colours), bool) if occupied is None
              else _hidden_paper(layout, cover, occupied).beside)
    lit_paper, light = _lit_paper(layout, around_colours, usable, beside)
    top_reference = reference if occupied is None else _tops_paper(reference, lit_paper,
                                                                    occupied)
    relative = np.log(np.maximum(samples.point_colours, 1.0) / top_reference)
    middle_relative = np.log(np.maximum(samples.top_middles, 1.0) / top_reference)
    reference_logs = np.log(reference)
    disc_relative = samples.disc_logs - reference_logs[:, None, :]
    # Whether a point is bare is judged on the paper plane, where its sample leaves the
    # printed lines out; which piece stands on it, on the plane of the pieces' tops.
    bare = samples.disc_median_logs - reference_logs
    arms = arm_contrasts(samples.cross_profiles, layout.point_arms, reference, lit_paper)
    cross_seen = median_arm(arms, layout.point_arms)
    cross = np.minimum(np.maximum(cross_seen, 0.0), CROSS_FULL)[:, None] / CROSS_FULL
    colours = {label: relative for label in LABELS}
    colours[PointLabel.EMPTY] = bare
    if layout.wide_tops:
        assert samples.wide_colours is not None
        wide_relative = np.log(np.maximum(samples.wide_colours, 1.0) / top_reference)
        colours.update((label, wide_relative) for label in layout.wide_tops)
    # Filled in place: cheaper than stacking a copy per label.
    features = np.empty((len(relative), len(LABELS), 4))
    for index, label in enumerate(LABELS):
        features[:, index, :3] = colours[label]
    features[:, :, 3] = cross
    paper_level = channel_mean(np.log(top_reference))

    def relative_grey(grey: np.ndarray | None) -> np.ndarray | None:
        return None if grey is None else np.log(np.maximum(grey, 1.0)) - paper_level

    return replace(samples, relative=relative, cross=cross_seen,
                   faintest_arm=arms.min(axis=1),
                   plainest_arm=np.where(layout.point_arms, arms, 0.0).max(axis=1),
                   features=features,
                   disc_relative=disc_relative, middle_relative=middle_relative,
                   paper_round=reference, lit_paper=lit_paper, tops_paper=top_reference,
                   visible=visible, paper_light=light, rim_relative=relative_grey(samples.rims),
                   round_relative=relative_grey(samples.rims_round))


SHADOWED_PAPER = 0.1
"""How far (log brightness) the paper round a point may lie below the lit paper's level there
before the pieces' tops are judged against that level instead."""


def _lit_paper(layout: SamplingLayout, colours: np.ndarray, usable: np.ndarray,
               beside: np.ndarray) -> tuple[np.ndarray, PaperLight]:
    """(points, 3) BGR of the lit paper at each point, and the light field it comes from:
    the smooth field of the lit paper's
    brightness and colour (``vision.light_field``) fitted to the ``colours`` of the paper
    samples (those ``usable``; the ones ``beside`` a piece, which may lie in its shadow,
    trusted less)."""
    # In double precision, as the paper check takes them: it uses this fit when its samples
    # are these (``PaperLight.fits``).
    logs = np.log(np.maximum(colours, 1.0).astype(np.float64))
    brightness = channel_mean(logs)
    light = paper_light(layout.size, layout.paper_grid, brightness, usable & ~beside, usable)
    chroma = lit_chroma(layout.size, layout.paper_grid, logs, usable, light.lit)
    at_points = mean_along(_rows_at(light.lit[:, None] + chroma, layout.point_cells), 1)
    return np.exp(at_points), light


def _tops_paper(reference: np.ndarray, lit_paper: np.ndarray, occupied: np.ndarray
                ) -> np.ndarray:
    """(points, 3) the paper ``reference`` round each point of ``occupied``, lifted to the
    ``lit_paper`` where the pieces' shadows darken it.

    A lamp to one side (a window, a low lamp) casts each piece's shadow on the paper beside
    it, and in the start position the paper round a piece may lie all in its neighbours'
    shadows. The piece's own top is not in them (pieces are all as tall), so its colour is
    judged against the paper the light falls on. A shadow is lit by the room's other light,
    of another colour: the lit paper's colour replaces its colour too. A bare point's paper
    lies in the shadows as the paper round it does, so bare paper is still judged against
    the paper round it.
    """
    local, lit = np.log(reference), np.log(lit_paper)
    deficit = channel_mean(lit - local)
    # How much of the way to the lit paper: none within SHADOWED_PAPER of it, all of it
    # twice as far below, so that a frame's noise moves nothing by a step.
    # Bounded by maximum and minimum: np.clip's wrapper costs more than both.
    share = np.minimum(np.maximum(
        2 * (deficit - SHADOWED_PAPER) / np.maximum(deficit, 1e-9), 0.0), 1.0)
    share = np.where(occupied, share, 0.0)
    lifted: np.ndarray = np.exp(local + share[:, None] * (lit - local))
    return lifted


def wide_cross(layout: SamplingLayout, frame: np.ndarray, maps: ViewMaps,
               samples: BoardSamples) -> np.ndarray:
    """Per point, the cross's contrast (as ``BoardSamples.cross``) looked for farther across
    each arm (:data:`WIDE_CROSS_ACROSS`)."""
    assert samples.paper_round is not None
    profiles = remap(frame, maps.wide_cross).astype(np.float32).reshape(
        len(layout.point_pixels), len(ARMS), len(CROSS_STEPS), len(WIDE_CROSS_ACROSS), 3)
    return cross_contrast(mean_along(profiles, 2), layout.point_arms, samples.paper_round,
                          samples.lit_paper)


LINE_DEPTH = 5.0
"""Least dip (grey levels, 0-255) across an arm that counts as its printed line. The ink
lies tens of levels below the paper, even in a deep shadow; the side of a dark piece, where
its point's arms are sampled, varies by a few levels (noise, shading) which are a large
share of its own darkness: black pieces showed half a cross."""
CROSS_PAPER_CHROMA = 0.2
"""Most the colour (chroma, log units) beside an arm may differ from the paper's round the
point for the arm to count: a dark band between a piece's printed rings is no line."""


def cross_contrast(profiles: np.ndarray, arms: np.ndarray, paper: np.ndarray,
                   lit_paper: np.ndarray | None = None) -> np.ndarray:
    """Per point, how much darker the ink of its arms is than the paper beside it (median).

    ``profiles`` (points, arms, across, 3) are BGR across each arm, ``arms`` (points, 4) says
    which arms are printed (not past the grid's edge), ``paper`` (points, 3) is the BGR of
    the paper round each point, ``lit_paper`` (the same) the lit paper there when known.
    """
    return median_arm(arm_contrasts(profiles, arms, paper, lit_paper), arms)


def arm_contrasts(profiles: np.ndarray, arms: np.ndarray, paper: np.ndarray,
                  lit_paper: np.ndarray | None = None) -> np.ndarray:
    """(points, 4) how much darker each arm's ink is than the paper beside it (0: no line
    there), infinite for an arm not printed; the arguments as :func:`cross_contrast`."""
    grey = channel_mean(profiles)
    # Both sides must be brighter than the line: a glint on a piece is bright on one side only.
    beside = np.minimum(grey[..., 0], grey[..., -1])
    on = grey[..., 1:-1].min(axis=2)
    # ... and both must be paper, not a piece's coloured pattern.
    sides = np.log(np.maximum(profiles[:, :, [0, -1], :], 1.0))
    # A point the lamp lights between the pieces' shadows has the lit paper's colour: the
    # sides may be like either paper (both are judged in one pass).
    papers = paper[None] if lit_paper is None else np.stack([paper, lit_paper])
    papery = _like_paper(sides, papers).any(axis=0)
    # ... and the dip must be deeper than the shading and noise of a dark surface: on a dark
    # piece's side a few grey levels are a large share, and read as a line there.
    deep = beside - on >= LINE_DEPTH
    contrast: np.ndarray = np.where(
        arms, np.where(papery & deep, 1 - on / np.maximum(beside, 1.0), 0.0), np.inf)
    return contrast


def median_arm(contrast: np.ndarray, arms: np.ndarray) -> np.ndarray:
    """(points,) the median of each point's printed arms' ``contrast`` (as
    :func:`arm_contrasts`)."""
    # The median of each point's printed arms (missing arms sort last as infinities);
    # numpy's nanmedian costs a millisecond a frame here.
    ordered = np.sort(contrast, axis=1)
    count = arms.sum(axis=1)
    rows = np.arange(len(ordered))
    result: np.ndarray = (ordered[rows, (count - 1) // 2] + ordered[rows, count // 2]) / 2
    return result


def _like_paper(sides: np.ndarray, papers: np.ndarray) -> np.ndarray:
    """(papers, points, arms) whether both sides of each arm (``sides``: log BGR, (points,
    arms, 2, 3)) have the colour of each of ``papers`` (BGR, (papers, points, 3)). The line
    may lie in a shadow lit by the room's other light (blue beside a warm lamp): the darker
    the paper there, the more its colour may differ."""
    relative = sides - np.log(papers)[:, :, None, None, :]
    brightness = channel_mean(relative)
    hue = channel_norm(relative - brightness[..., None])
    result: np.ndarray = (hue <= CROSS_PAPER_CHROMA + np.maximum(-brightness, 0.0)).all(axis=3)
    return result
