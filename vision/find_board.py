"""Find a board without markers by its own ink: the lines and loops, no clicking.

A wooden or hand-drawn Surakarta board has no fiducials, but its drawing is known
geometry, and its outline is unmistakable: the outer loops are 3/4 circles of two
pitches round the grid's corners, so everything drawn lies inside a square of
``size + 3`` pitches whose sides touch the outer loops. A camera maps straight lines
to straight lines and keeps what touches what, so in the image the drawing's convex
hull is a four-sided shape with rounded corners, and the four lines its long sides lie
on meet at the image of that square's corners.

Decisions:
- The drawing is picked out as thin dark lines (a black-hat filter: darker than the
  paper either side, narrower than a piece), and the board is the connected drawing
  whose outline fits best. Pieces, their shadows and labels sit inside the outline or
  apart from the drawing, so they do not bend it.
- The outline's four sides are found by shrinking the hull to the quadrilateral of
  least area that still holds it (each step drops the side whose removal adds least),
  and by the hull's rectangle of least area, which a missing corner bends less.
- Pieces' shadows can hide the lines that join a loop to the rest, so the drawing falls
  apart. Each outline is moved corner by corner until the whole drawing lies on the ink
  (distance to the nearest ink, capped, so what pieces hide costs the same anywhere),
  and the drawings that then lie inside it join it for another outline.
- A quick look ranks the guesses: how much more often the loops land on ink than the
  paper between them (a table's grain is ink everywhere). The best few are fitted to the
  ink as clicked corners are (``vision.register``), which also learns a wide lens's
  bending, and the board whose loops are found best wins.
- Both board sizes are tried the same way.
- The drawing is symmetric under quarter turns, so it cannot tell a1. The start
  position tells ranks from files (its pieces stand on the first and last two ranks);
  of the two ways round that leaves, rank 1 is the side nearer the bottom of the
  image (the player facing the camera plays red). ``--corners`` or ``--click`` choose
  otherwise.
- A calibrated board that later moved too far for the search near its old place
  (``vision.locate``) is found again the same way (:func:`found_again`), each point
  named as the one nearest where it was: the old place tells a1.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import cv2
import numpy as np

from controller.geometry import point_xy
from vision.board_model import BoardModel, board_model
from vision.camera import CameraModel
from vision.register import blurred_grey, find_ink, fit_camera, ink_samples

LINE_KERNEL_SHARE = 1 / 45
"""Width of the black-hat filter as a share of the image's shorter side: wider than a
drawn line seen from afar, narrower than a piece seen from close."""
SMOOTHING_PIXELS = 1.0
"""Standard deviation of the blur before the lines are picked out, pixels."""
INK_DEPTH = 0.12
"""Least depth of a line's valley, as a share of the paper's brightness beside it."""
LEAST_OUTLINE_SHARE = 0.04
"""Least area of a drawing's box, as a share of the image, to be tried as a board."""
CANDIDATES = 8
"""Largest drawings tried as a board."""
JOINED_CANDIDATES = 40
"""Largest drawings that may join an outline they lie inside."""
JOINED_INSIDE = 0.9
"""Least share of a drawing inside an outline for it to join it."""
OUTLINE_PITCHES = 2.0
"""Distance of the outline's sides from the outer grid lines: the outer loops' radius."""
CHAMFER_CAP_PITCHES = 0.3
"""Largest distance from a line to the ink that counts against an outline, pitches."""
CHAMFER_FIRST_STEP_PITCHES = 0.5
"""First step of a corner of the outline as it is fitted to the ink, pitches."""
CHAMFER_LAST_STEP_PIXELS = 0.5
"""Last step of a corner of the outline, pixels."""
NEAR_INK_PITCHES = 0.15
"""Distance from the ink within which a loop counts as on it in the quick look, pitches: a
wide lens bends the loops away from where an outline's homography puts them."""
LEAST_QUICK_LOOPS = 0.25
"""Least share of the loops on the ink, beyond the paper between them, as the outline alone
puts them, for a drawing to be fitted as a board."""
SAME_GUESS_PITCHES = 0.25
"""Largest move of any corner between two outlines that count as one guess, pitches."""
FITTED = 5
"""Most outlines (each with a board size) fitted to the ink, those with most loops on it
first."""
FOUND_SEARCH_PITCHES = 0.08
"""Half-width of the search for each line once the camera is fitted, pitches."""
LEAST_INK_FOUND = 0.75
"""Least share of the loops' samples found on their line for a board to count as found."""
PLAINLY_FOUND = 0.9
"""Share of the loops' samples found at which no other guess is fitted."""


@dataclass(frozen=True, slots=True)
class FoundBoard:
    """A board found by its ink."""

    size: int
    """Lines per side."""
    camera: CameraModel
    """The camera fitted to the ink (lens and pose), its sheet the model of ``size``."""
    loops_found: float
    """Share of the loops' samples whose line lies where the camera puts it."""

    def corners(self, quarter_turns: int = 0) -> list[tuple[float, float]]:
        """The grid corners in the image, in the order a1, bottom-right, top-right, top-left,
        with a1 at the model's a1 corner turned ``quarter_turns`` times anticlockwise."""
        model = board_model(self.size)
        pixels = self.camera.project_sheet(grid_corners(model))
        order = [(i + quarter_turns) % 4 for i in range(4)]
        return [(float(pixels[i][0]), float(pixels[i][1])) for i in order]


def turned_camera(camera: CameraModel, model: BoardModel, quarter_turns: int) -> CameraModel:
    """``camera`` with the sheet turned ``quarter_turns`` times round the grid's centre: the
    same drawing seen, each point named as the one a quarter turn on is."""
    angle = math.pi / 2 * quarter_turns
    turn = np.array([[math.cos(angle), -math.sin(angle), 0.0],
                     [math.sin(angle), math.cos(angle), 0.0], [0.0, 0.0, 1.0]])
    centre = np.array([*model.grid_position((model.size - 1) / 2, (model.size - 1) / 2), 0.0])
    rotation, _ = cv2.Rodrigues(np.array(camera.rotation))
    # A sheet point x is seen where the old camera sees turn @ (x - centre) + centre.
    return camera.with_pose(cv2.Rodrigues(rotation @ turn)[0].ravel(),
                            np.array(camera.translation) + rotation @ (centre - turn @ centre))


def found_again(image: np.ndarray, model: BoardModel, before: CameraModel) -> CameraModel | None:
    """The board of ``model`` found anew in ``image`` after it moved, each point named as
    the point nearest where it was (``before``): the drawing cannot tell a1, the old place
    can. None when no board is found."""
    found = find_board(image, (model.size,))
    if found is None:
        return None
    corners = grid_corners(model)
    old = before.project_sheet(corners)
    cameras = [turned_camera(found.camera, model, turns) for turns in range(4)]
    return min(cameras, key=lambda camera: float(
        np.linalg.norm(camera.project_sheet(corners) - old, axis=1).max()))


def ink_mask(grey: np.ndarray) -> np.ndarray:
    """Thin dark lines: pixels darker than the closing of the image by ``INK_DEPTH``."""
    side = max(5, round(min(grey.shape[:2]) * LINE_KERNEL_SHARE) | 1)
    kernel = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (side, side))
    # Smoothed first: a grainy sensor's specks would otherwise join everything up.
    smooth = cv2.GaussianBlur(grey, (0, 0), SMOOTHING_PIXELS)
    closed = cv2.morphologyEx(smooth, cv2.MORPH_CLOSE, kernel).astype(np.float32)
    depth = (closed - smooth.astype(np.float32)) / np.maximum(closed, 1.0)
    mask: np.ndarray = (depth >= INK_DEPTH).astype(np.uint8)
    return mask


def enclosing_quadrilateral(hull: np.ndarray) -> np.ndarray | None:
    """The four-sided polygon of least area found by dropping sides from a convex hull.

    Each step removes the side whose neighbours, extended to meet, add the least area.
    Returns (4, 2) corners in the hull's order, or None when the hull cannot be closed
    by four sides.
    """
    points = [np.asarray(p, np.float64) for p in hull.reshape(-1, 2)]
    if len(points) < 4:
        return None
    while len(points) > 4:
        best: tuple[float, int, np.ndarray] | None = None
        count = len(points)
        for i in range(count):
            before, start = points[i - 1], points[i]
            end, after = points[(i + 1) % count], points[(i + 2) % count]
            meeting = _meeting(before, start, after, end)
            if meeting is None:
                continue
            added = abs(_cross(start - meeting, end - meeting)) / 2
            if best is None or added < best[0]:
                best = (added, i, meeting)
        if best is None:
            return None
        _, i, meeting = best
        points[i] = meeting
        del points[(i + 1) % count]
    return np.array(points)


def _cross(a: np.ndarray, b: np.ndarray) -> float:
    return float(a[0] * b[1] - a[1] * b[0])


def _meeting(a: np.ndarray, b: np.ndarray, d: np.ndarray, c: np.ndarray) -> np.ndarray | None:
    """Where the ray from ``a`` through ``b`` meets the ray from ``d`` through ``c``, past
    ``b`` and ``c``; None when they do not meet there."""
    first, second = b - a, c - d
    denominator = _cross(first, second)
    if abs(denominator) < 1e-9:
        return None
    t = _cross(d - a, second) / denominator
    s = _cross(d - a, first) / denominator
    if t < 1 or s < 1:
        return None
    meeting: np.ndarray = a + t * first
    return meeting


def grid_corners(model: BoardModel) -> np.ndarray:
    """(4, 2) the sheet positions (mm) of the grid's corner points, a1 first
    (:meth:`BoardModel.corner_points`)."""
    return np.array([model.point_mm(p) for p in model.corner_points()], np.float64)


def outline_corners(model: BoardModel) -> np.ndarray:
    """The sheet corners (mm) of the square the outer loops touch, in the order of
    :meth:`BoardModel.corner_points` (bottom-left first, anticlockwise as printed)."""
    left, top = model.grid_position(-OUTLINE_PITCHES, model.size - 1 + OUTLINE_PITCHES)
    right, bottom = model.grid_position(model.size - 1 + OUTLINE_PITCHES, -OUTLINE_PITCHES)
    return np.array([(left, bottom), (right, bottom), (right, top), (left, top)], np.float64)


class Drawings:
    """The connected drawings of an ink mask, largest (by their box) first."""

    def __init__(self, mask: np.ndarray) -> None:
        _, self.labels, stats, _ = cv2.connectedComponentsWithStats(mask, connectivity=8)
        boxes = stats[1:, cv2.CC_STAT_WIDTH] * stats[1:, cv2.CC_STAT_HEIGHT]
        height, width = mask.shape[:2]
        order = np.argsort(boxes)[::-1]
        self.large = [index + 1 for index in order[:JOINED_CANDIDATES]]
        """Labels of the drawings that may join an outline."""
        self.seeds = [index + 1 for index in order[:CANDIDATES]
                      if boxes[index] >= LEAST_OUTLINE_SHARE * width * height]
        """Labels of the drawings large enough to be a board."""

    def seed_outlines(self) -> list[np.ndarray]:
        """Outlines of each drawing large enough to be a board, alone."""
        return [outline for label in self.seeds for outline in _outlines(self.labels == label)]

    def joined_outlines(self, outline: np.ndarray, margin: float) -> list[np.ndarray]:
        """Outlines of the large drawings that lie inside ``outline`` widened by ``margin``
        pixels: a board's drawing broken apart (a loop cut off from the rest where pieces and
        their shadows hide the lines that join them) taken whole again."""
        filled = np.zeros(self.labels.shape, np.uint8)
        cv2.fillConvexPoly(filled, np.round(outline).astype(np.int32), 1)
        inside = cv2.dilate(filled, np.ones((2 * round(margin) + 1,) * 2, np.uint8))
        joined = np.zeros(self.labels.shape, bool)
        for label in self.large:
            part = self.labels == label
            if inside[part].mean() >= JOINED_INSIDE:
                joined |= part
        return _outlines(joined) if joined.any() else []


def _outlines(drawing: np.ndarray) -> list[np.ndarray]:
    """The drawing's enclosing quadrilateral, and its rectangle of least area: a drawing
    that lacks a corner (cut off from the rest) bends the first, hardly the second."""
    ys, xs = np.nonzero(drawing)
    hull = cv2.convexHull(np.stack([xs, ys], axis=1).astype(np.float32))
    rectangle = cv2.boxPoints(cv2.minAreaRect(hull)).astype(np.float64)
    quadrilateral = enclosing_quadrilateral(cv2.approxPolyDP(hull, 1.0, True))
    return [rectangle] if quadrilateral is None else [quadrilateral, rectangle]


def loops_on_mask(mask: np.ndarray, model: BoardModel, outline: np.ndarray) -> float:
    """How much more often the loops land on ink than the paper between them, when the
    outline is the board's: a quick look that tells a board's outline from a table's grain
    (ink everywhere) or a book's edge (ink nowhere)."""
    homography = cv2.getPerspectiveTransform(outline_corners(model).astype(np.float32),
                                             outline.astype(np.float32))
    reach = max(2, round(NEAR_INK_PITCHES * _pitch(model, outline)))
    near = cv2.dilate(mask, cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (2 * reach + 1,) * 2))
    height, width = mask.shape[:2]

    def on_ink(sheet_points: np.ndarray) -> float:
        pixels = cv2.perspectiveTransform(sheet_points.reshape(-1, 1, 2), homography)
        x, y = np.round(pixels.reshape(-1, 2)).astype(int).T
        inside = (x >= 0) & (x < width) & (y >= 0) & (y < height)
        return float((near[y[inside], x[inside]] > 0).sum() / len(x))

    samples = ink_samples(model)
    loops = samples.points[samples.on_loop]
    # Half a pitch out from each loop sample, towards or away from its corner: bare paper
    # between the loops and beyond the outer ones.
    centres = loops - model.pitch * samples.normals[samples.on_loop] * np.where(
        np.linalg.norm(loops - _nearest_corner(model, loops), axis=1) > 1.5 * model.pitch,
        1.0, -1.0)[:, None] / 2
    return on_ink(loops) - on_ink(centres)


def _nearest_corner(model: BoardModel, points: np.ndarray) -> np.ndarray:
    corners = grid_corners(model)
    nearest = np.linalg.norm(points[:, None] - corners[None], axis=2).argmin(axis=1)
    chosen: np.ndarray = corners[nearest]
    return chosen


def fitted_to_mask(mask: np.ndarray, model: BoardModel, outline: np.ndarray) -> np.ndarray:
    """The outline moved, corner by corner, until the board's drawing lies on the ink.

    An outline from a drawing broken apart (a line hidden by pieces and their shadows cuts
    a loop off) misses a corner; the drawing itself says where it is. The cost is each
    line's distance to the nearest ink, capped, so a loop or line that is not there (under
    a piece) costs the same wherever it goes.
    """
    sheet = outline_corners(model).astype(np.float32)
    samples = ink_samples(model).points.reshape(-1, 1, 2).astype(np.float32)
    pitch = _pitch(model, outline)
    cap = CHAMFER_CAP_PITCHES * pitch
    distance = np.minimum(cv2.distanceTransform(1 - mask, cv2.DIST_L2, 3), cap)
    height, width = mask.shape[:2]

    def cost(corners: np.ndarray) -> float:
        homography = cv2.getPerspectiveTransform(sheet, corners.astype(np.float32))
        pixels = cv2.perspectiveTransform(samples, homography).reshape(-1, 2)
        x, y = np.round(pixels[:, 0]).astype(int), np.round(pixels[:, 1]).astype(int)
        inside = (x >= 0) & (x < width) & (y >= 0) & (y < height)
        found = np.full(len(x), cap, np.float32)
        found[inside] = distance[y[inside], x[inside]]
        return float(found.mean())

    corners = outline.astype(np.float64).copy()
    best = cost(corners)
    step = CHAMFER_FIRST_STEP_PITCHES * pitch
    while step >= CHAMFER_LAST_STEP_PIXELS:
        improved = True
        while improved:
            improved = False
            for index in np.ndindex(4, 2):
                for sign in (1.0, -1.0):
                    trial = corners.copy()
                    trial[index] += sign * step
                    trial_cost = cost(trial)
                    if trial_cost < best:
                        corners, best, improved = trial, trial_cost, True
        step /= 2
    return corners


def find_board(image: np.ndarray, sizes: tuple[int, ...] = (6, 7)) -> FoundBoard | None:
    """The board whose drawing the image shows most clearly, or None."""
    grey = image if image.ndim == 2 else cv2.cvtColor(image, cv2.COLOR_BGR2GRAY)
    mask = ink_mask(grey)
    blurred = blurred_grey(grey)
    drawings = Drawings(mask)
    guesses = []
    for seed in drawings.seed_outlines():
        for size in sizes:
            model = board_model(size)
            facing = _facing(seed, model)
            # The outline as drawn too: a wide lens bends the drawing, and fitting one
            # homography to all its lines can move the outline's corners away.
            guesses.append((loops_on_mask(mask, model, facing), size, facing))
            outline = fitted_to_mask(mask, model, facing)
            guesses.append((loops_on_mask(mask, model, outline), size, outline))
            for joined in drawings.joined_outlines(outline, 0.5 * _pitch(model, outline)):
                wider = fitted_to_mask(mask, model, _facing(joined, model))
                guesses.append((loops_on_mask(mask, model, wider), size, wider))
    best: FoundBoard | None = None
    for quick, size, outline in _distinct(guesses)[:FITTED]:
        if quick < LEAST_QUICK_LOOPS:
            break
        found = _fitted(image, blurred, board_model(size), outline)
        if found is not None and (best is None or found.loops_found > best.loops_found):
            best = found
        if best is not None and best.loops_found >= PLAINLY_FOUND:
            break
    if best is None or best.loops_found < LEAST_INK_FOUND:
        return None
    return best


def _distinct(guesses: list[tuple[float, int, np.ndarray]]) -> list[tuple[float, int, np.ndarray]]:
    """The guesses, most loops on the ink first, without those much like a better one."""
    kept: list[tuple[float, int, np.ndarray]] = []
    for guess in sorted(guesses, key=lambda guess: -guess[0]):
        _, size, outline = guess
        tolerance = SAME_GUESS_PITCHES * _pitch(board_model(size), outline)
        if not any(size == other[1] and np.abs(outline - other[2]).max() < tolerance
                   for other in kept):
            kept.append(guess)
    return kept


def _facing(outline: np.ndarray, model: BoardModel) -> np.ndarray:
    """The outline's corners going round the way the sheet's do: a camera cannot mirror."""
    if (signed_area(outline) > 0) != (signed_area(outline_corners(model)) > 0):
        return outline[::-1]
    return outline


def _pitch(model: BoardModel, outline: np.ndarray) -> float:
    """The grid's pitch in the image, pixels, as the outline's mean side says."""
    side = float(np.mean(np.linalg.norm(outline - np.roll(outline, 1, axis=0), axis=1)))
    return side / (model.size - 1 + 2 * OUTLINE_PITCHES)


def _fitted(image: np.ndarray, blurred: np.ndarray, model: BoardModel, outline: np.ndarray
            ) -> FoundBoard | None:
    """The board of ``model`` whose outline (the square the outer loops touch) is
    ``outline`` in the image, its camera fitted to the ink; None when no camera fits.
    ``blurred`` is the image as ``vision.register.blurred_grey`` gives it."""
    first = fit_camera(model, image, outline_corners(model), outline)
    if first is None:
        return None
    # Fitted again from the grid corners the first fit puts: the outline's corners are
    # only as good as a straight-sided outline, which a wide lens bends.
    grid = grid_corners(model)
    fitted = fit_camera(model, image, grid, first[0].project_sheet(grid), first[0])
    if fitted is None:
        return None
    camera = fitted[0]
    samples = ink_samples(model)
    match = find_ink(blurred, camera, samples, FOUND_SEARCH_PITCHES * model.pitch)
    loops_found = float(match.found[samples.on_loop].mean())
    return FoundBoard(model.size, camera, loops_found)


def signed_area(points: np.ndarray) -> float:
    """Shoelace area of a polygon; its sign says which way round the corners go."""
    x, y = points[:, 0], points[:, 1]
    return float(np.dot(x, np.roll(y, -1)) - np.dot(np.roll(x, -1), y)) / 2


def rank_turns(found: FoundBoard, image: np.ndarray) -> list[int]:
    """The quarter turns of :meth:`FoundBoard.corners`, most likely first: the two ways
    round that put the start position's pieces along ranks, rank 1 nearer the image's
    bottom first, then the other two."""
    model = board_model(found.size)
    points = found.camera.project_sheet(np.array([model.point_mm(p) for p in model.points]))
    pitch = float(np.linalg.norm(points[1] - points[0]))
    colour = image if image.ndim == 3 else cv2.cvtColor(image, cv2.COLOR_GRAY2BGR)
    lab = cv2.cvtColor(colour, cv2.COLOR_BGR2LAB).astype(np.float32)
    looks = _square_means(lab, points, 0.25 * pitch)
    files = np.array([point_xy(p)[0] for p in model.points])
    ranks = np.array([point_xy(p)[1] for p in model.points])

    def spread_along(lines: np.ndarray) -> float:
        # The start position puts one kind of point along each rank: its looks vary
        # least along the ranks, whatever the pieces look like.
        return float(sum(looks[lines == line].var(axis=0).sum() for line in range(model.size)))

    ranks_first = spread_along(ranks) <= spread_along(files)
    turns = [0, 2] if ranks_first else [1, 3]
    others = [1, 3] if ranks_first else [0, 2]
    centre = points.mean(axis=0)

    def downwards(turn: int) -> float:
        a1, second = found.corners(turn)[:2]
        middle = (np.array(a1) + np.array(second)) / 2 - centre
        return -float(middle[1]) + 1e-3 * float(middle[0])

    return sorted(turns, key=downwards) + sorted(others, key=downwards)


def _square_means(image: np.ndarray, centres: np.ndarray, radius: float) -> np.ndarray:
    """The mean colour of ``image`` in a square of half-side ``radius`` round each centre."""
    height, width = image.shape[:2]
    reach = max(1, round(radius))
    means = []
    for x, y in centres:
        ix, iy = int(np.clip(round(x), 0, width - 1)), int(np.clip(round(y), 0, height - 1))
        patch = image[max(0, iy - reach):iy + reach + 1, max(0, ix - reach):ix + reach + 1]
        means.append(patch.reshape(-1, image.shape[2]).mean(axis=0))
    return np.array(means)
