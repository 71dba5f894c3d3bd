"""Registration: fit the camera to the printed sheet in an image, and check that it still fits.

The sheet's ink is known geometry: grid lines, and loops running round the outside
of the grid. Given a camera close to the truth (from the markers, or from four
clicked corners), each ink sample is projected into the image and the image is
searched along the line's normal for the printed line: a thin dark valley with
paper on both sides. A piece's edge is a step, not a valley, and a marker's black
square is dark on one side only, so neither is taken for a line. The camera is then
fitted again to the marker corners plus every line found, with a narrower search
each round. The same search, at the camera's current pose, tells whether the sheet
is still where the camera thinks it is: a camera knocked by a degree moves every
line by far more than a line's width.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from functools import lru_cache

import cv2
import numpy as np

from vision.board_model import BoardModel
from vision.camera import (
    MIN_SLANT_DEGREES,
    CameraModel,
    camera_from_correspondences,
    default_focal,
    focal_from_homography,
)

SEARCH_STEPS = 33
"""Positions sampled along each ink sample's normal."""
REFINE_ROUNDS_PITCHES = (0.3,) * 6 + (0.2,) * 4 + (0.12,) * 4 + (0.08,) * 4
"""Half-width of the search along the normal in each refinement round, pitches. A line is
searched only across itself, so each round corrects only part of an error along it:
many rounds, narrowing as the fit closes in."""
STRONG_DISTORTION = 0.1
"""Least first radial term (absolute) of a lens whose principal point is fitted too: the
centre of a wide lens's distortion moves its board's edge by pixels, while with little
distortion a flat sheet cannot tell the principal point from a tilt."""
CENTRE_ROUNDS_PITCHES = (0.12,) * 3 + (0.08,) * 3
"""Half-widths of the search in the rounds that fit the principal point too, pitches."""
SETTLED_PIXELS = 0.05
"""Largest move of any grid point between two rounds at which the fit has settled."""
VALLEY_CONTRAST = 0.12
"""Least depth of a printed line's valley, as a share of the paper's brightness beside it."""
ARC_END_CLEARANCE_DEGREES = 25.0
"""Loop samples skip this much of each end, where the loops meet the grid and its pieces."""


@dataclass(frozen=True, slots=True)
class InkSamples:
    """Points on the printed lines and loops, with the line's normal at each (sheet mm)."""

    points: np.ndarray
    """(N, 2) sheet positions on the ink, mm."""
    normals: np.ndarray
    """(N, 2) unit normals of the line there."""
    on_loop: np.ndarray
    """(N,) True for samples on a loop (outside the grid, never under a piece)."""


@lru_cache(maxsize=4)
def ink_samples(model: BoardModel) -> InkSamples:
    """Samples along the loops (every ~0.1 pitch) and the middle of every grid segment."""
    points, normals, on_loop = [], [], []
    for arc in model.loop_arcs():
        length = math.radians(arc.sweep_degrees) * arc.radius
        count = max(8, round(length / (0.1 * model.pitch)))
        start = arc.start_degrees + ARC_END_CLEARANCE_DEGREES
        end = arc.start_degrees + arc.sweep_degrees - ARC_END_CLEARANCE_DEGREES
        for angle in np.radians(np.linspace(start, end, count)):
            direction = np.array([math.cos(angle), math.sin(angle)])
            points.append(np.array(arc.centre) + arc.radius * direction)
            normals.append(direction)
            on_loop.append(True)
    last = model.size - 1
    for fraction in (0.3, 0.5, 0.7):
        for i in range(model.size):
            for j in range(last):
                # A segment of rank i between files j and j+1, and of file i between ranks.
                points.append(np.array(model.grid_position(j + fraction, i)))
                normals.append(np.array([0.0, 1.0]))
                points.append(np.array(model.grid_position(i, j + fraction)))
                normals.append(np.array([1.0, 0.0]))
                on_loop += [False, False]
    return InkSamples(np.array(points), np.array(normals), np.array(on_loop))


@dataclass(frozen=True, slots=True)
class InkMatch:
    """Where the printed lines were found in an image."""

    sheet: np.ndarray
    """(M, 2) sheet positions of the samples whose line was found, mm."""
    image: np.ndarray
    """(M, 2) where their line is in the image, pixels."""
    offsets: np.ndarray
    """(M,) distance of the line from where the camera put it, along the normal, mm."""
    found: np.ndarray
    """(N,) which samples found their line."""


def search_profiles(camera: CameraModel, samples: InkSamples, half_width: float,
                    select: np.ndarray | None = None) -> tuple[np.ndarray, np.ndarray]:
    """Image positions along every sample's normal: (N, steps, 2) pixels and (steps,) mm."""
    steps = np.linspace(-half_width, half_width, SEARCH_STEPS)
    points, normals = samples.points, samples.normals
    if select is not None:
        points, normals = points[select], normals[select]
    along = points[:, None, :] + steps[None, :, None] * normals[:, None, :]
    pixels = camera.project_sheet(along.reshape(-1, 2)).reshape(len(points), SEARCH_STEPS, 2)
    return pixels, steps


def find_ink(grey: np.ndarray, camera: CameraModel, samples: InkSamples,
             half_width: float) -> InkMatch:
    """Search every sample's normal in the (blurred) grey image for its printed line."""
    pixels, steps = search_profiles(camera, samples, half_width)
    return match_profiles(grey, pixels, steps, samples.points)


def match_profiles(image: np.ndarray, pixels: np.ndarray, steps: np.ndarray,
                   points: np.ndarray) -> InkMatch:
    """The valley of each profile sampled at ``pixels`` (see :func:`search_profiles`).

    ``image`` is grey or BGR; the profiles are smoothed along their length, so an
    unblurred frame works too.
    """
    maps = pixels.astype(np.float32)
    sampled = cv2.remap(image, maps[..., 0], maps[..., 1], cv2.INTER_LINEAR,
                        borderMode=cv2.BORDER_CONSTANT, borderValue=0).astype(np.float32)
    profiles: np.ndarray = sampled
    if sampled.ndim == 3:
        # The channels' mean, added up channel by channel: the same sums as numpy's mean
        # over a last axis of three, at a fraction of its cost.
        profiles = (sampled[..., 0] + sampled[..., 1] + sampled[..., 2]) / 3
    profiles = cv2.GaussianBlur(profiles, (3, 1), 0.8)
    height, width = image.shape[:2]
    inside = ((pixels >= 0) & (pixels <= np.array([width - 1, height - 1]))).all(axis=(1, 2))
    lowest = profiles.argmin(axis=1)
    rows = np.arange(len(profiles))
    bottom = profiles[rows, lowest]
    # Paper on both sides: the brightest value on each side of the valley.
    ramp = np.arange(SEARCH_STEPS)[None, :]
    left = np.where(ramp < lowest[:, None], profiles, 0).max(axis=1)
    right = np.where(ramp > lowest[:, None], profiles, 0).max(axis=1)
    shoulder = np.minimum(left, right)
    deep = shoulder - bottom >= VALLEY_CONTRAST * np.maximum(shoulder, 1.0)
    interior = (lowest > 0) & (lowest < SEARCH_STEPS - 1)
    found = inside & deep & interior
    # Sub-step position from a parabola through the lowest value and its neighbours.
    index = np.clip(lowest, 1, SEARCH_STEPS - 2)
    before, here, after = (profiles[rows, index - 1], profiles[rows, index],
                           profiles[rows, index + 1])
    curvature = before - 2 * here + after
    shift = np.where(curvature > 1e-6, 0.5 * (before - after) / np.maximum(curvature, 1e-6), 0.0)
    shift = np.clip(shift, -0.5, 0.5)
    position = index + shift
    step_mm = steps[1] - steps[0]
    offsets = steps[0] + position * step_mm
    base = np.floor(position).astype(int).clip(0, SEARCH_STEPS - 2)
    fraction = (position - base)[:, None]
    located = pixels[rows, base] * (1 - fraction) + pixels[rows, base + 1] * fraction
    return InkMatch(points[found], located[found], offsets[found], found)


def blurred_grey(image: np.ndarray) -> np.ndarray:
    """The grey image lightly smoothed, so a thin line is a smooth valley to search."""
    grey = image if image.ndim == 2 else cv2.cvtColor(image, cv2.COLOR_BGR2GRAY)
    return cv2.GaussianBlur(grey, (0, 0), 0.8)


def fit_camera(
    model: BoardModel,
    image: np.ndarray,
    sheet_points: np.ndarray,
    image_points: np.ndarray,
    start: CameraModel | None = None,
) -> tuple[CameraModel, float] | None:
    """The camera from known points (marker corners or grid corners) refined on the ink.

    ``start`` is a first guess fitted to the same points (with a lens guessed from the
    markers); without it the guess is a pinhole through the points' homography. Returns
    the camera and the RMS error (pixels) of the known points, or None.
    """
    height, width = image.shape[:2]
    size = (width, height)
    homography, _ = cv2.findHomography(sheet_points, image_points, 0)
    if homography is None:
        return None
    focal = focal_from_homography(homography, width, height)
    usable = focal is not None and 0.2 * width < focal < 5 * width
    if start is None:
        first = camera_from_correspondences(
            sheet_points, image_points, size, focal=focal if usable else default_focal(width),
            solve_focal=False, distortion_terms=0,
        )
        if first is None:
            return None
        start = first[0]
    grey = blurred_grey(image)
    known = (sheet_points, image_points)
    slanted = start.viewing_angle_degrees() >= MIN_SLANT_DEGREES
    camera = _refined_on_ink(model, grey, known, start, REFINE_ROUNDS_PITCHES,
                             solve_focal=slanted, solve_centre=False)
    if abs(camera.distortion[0]) >= STRONG_DISTORTION:
        camera = _refined_on_ink(model, grey, known, camera, CENTRE_ROUNDS_PITCHES,
                                 solve_focal=False, solve_centre=True)
    error = camera.project_sheet(sheet_points) - image_points
    return camera, float(np.sqrt((error**2).sum(axis=1).mean()))


def _refined_on_ink(model: BoardModel, grey: np.ndarray, known: tuple[np.ndarray, np.ndarray],
                    camera: CameraModel, rounds: tuple[float, ...], *, solve_focal: bool,
                    solve_centre: bool) -> CameraModel:
    """``camera`` fitted again to the ``known`` points and the ink found, round by round."""
    samples = ink_samples(model)
    grid = np.array([model.point_mm(p) for p in model.points])
    size = (grey.shape[1], grey.shape[0])
    for half_width in rounds:
        match = find_ink(grey, camera, samples, half_width * model.pitch)
        if len(match.sheet) < 12:
            break
        keep = _consistent(match.offsets, model.pitch)
        refined = camera_from_correspondences(
            np.concatenate([known[0], match.sheet[keep]]),
            np.concatenate([known[1], match.image[keep]]),
            size, start=camera, solve_focal=solve_focal, distortion_terms=2,
            solve_centre=solve_centre,
        )
        if refined is None:
            break
        change = np.abs(refined[0].project_sheet(grid) - camera.project_sheet(grid)).max()
        camera = refined[0]
        if change < SETTLED_PIXELS and half_width <= rounds[-1]:
            break
    return camera


def _consistent(offsets: np.ndarray, pitch: float) -> np.ndarray:
    # Lines found far from where their neighbours say are something else (a piece's
    # edge, a crease): keep those within a robust spread of the typical offset.
    middle = np.median(offsets)
    spread = 1.4826 * np.median(np.abs(offsets - middle))
    kept: np.ndarray = np.abs(offsets - middle) <= max(3 * spread, 0.03 * pitch) + 0.5 * abs(
        middle)
    return kept


@dataclass(frozen=True, slots=True)
class InkCheck:
    """Whether the printed loops are still where the camera puts them."""

    found: int
    """Loop samples whose line was found near its place."""
    looked: int
    """Loop samples looked at."""
    shift: float
    """Median distance of the found lines from their place, pitches."""


class LoopWatch:
    """Checks frame after frame that the loops lie where a fixed camera says they do."""

    def __init__(self, camera: CameraModel, model: BoardModel, half_width_pitches: float = 0.3):
        samples = ink_samples(model)
        select = np.flatnonzero(samples.on_loop)[::2]
        self._pixels, self._steps = search_profiles(
            camera, samples, half_width_pitches * model.pitch, select)
        self._points = samples.points[select]
        self._pitch = model.pitch

    def check(self, image: np.ndarray) -> InkCheck:
        """How many loop samples still show their line, and how far off they are."""
        match = match_profiles(image, self._pixels, self._steps, self._points)
        shift = float(np.median(np.abs(match.offsets))) / self._pitch if len(match.offsets) else 1.0
        return InkCheck(len(match.offsets), len(self._points), shift)
