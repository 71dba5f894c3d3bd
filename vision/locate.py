"""Locate the board in a frame: ArUco markers to a camera pose, cheaply on a steady camera.

Decisions:
- The lens is calibrated once (``vision.register``); per frame only the camera's pose
  changes. It is fitted to the corners of every marker found (three markers are
  enough, so one may be hidden by a hand), with the calibrated lens, so a wide lens
  locates as well as a narrow one.
- A steady camera should cost almost nothing: after a successful detection the
  locator keeps a small normalised grey patch of each marker found. On the next
  frame it only compares those patches (a few hundred pixels) with the same spots
  in the new frame; when at least three still correlate, the board has not moved
  and detection is skipped. Correlation ignores changes of light.
- When the patches disagree the markers are detected again. If the new homography
  moves the grid by more than ``moved_tolerance`` pitches, the frame is reported as
  ``MOVED`` (a moving board is blurred and not worth reading) and the new place is
  kept for the next frame.
- Boards without markers keep the calibrated pose, and every frame checks that the
  printed loops are still where it puts them. When they are not (the camera was
  knocked), the pose is fitted again to the ink near its old place, or, when it moved
  too far for that, the board is found anew over the whole frame (``vision.find_board``,
  each point named as the one nearest where it was); a frame is read again only once
  the loops fit, and until then it is reported as ``MOVED``.
"""

from __future__ import annotations

import math
import time
from dataclasses import dataclass
from enum import Enum
from functools import lru_cache
from typing import Any

import cv2
import numpy as np

from vision import aruco
from vision.board_model import ARUCO_DICTIONARY, BoardModel, marker_ids
from vision.camera import (
    DEFAULT_FIELD_OF_VIEW_DEGREES,
    CameraModel,
    camera_from_correspondences,
)
from vision.config import VisionConfig
from vision.find_board import found_again, grid_corners
from vision.reductions import mean_along
from vision.register import LoopWatch, blurred_grey, find_ink, ink_samples

PATCH_SIDE = 12
"""Side of the normalised marker patches compared on a steady camera, pixels."""
MIN_MARKERS = 3
MIN_MARKERS_STILL = 2
"""Fewest markers found that, where the last pose puts them and with the loops where it puts
them too, confirm a board that has not moved."""
MARKER_FIT_TOLERANCE = 0.15
"""Largest corner misfit of a marker, as a share of its side, for it to count."""
FIRST_FIT_TOLERANCE = 0.3
"""Largest corner misfit of a marker, as a share of its side, in the first fit of a lens."""
WIDER_LENS_GAIN = 0.8
"""How much better (RMS) a wider lens guess must fit the markers than the typical one."""
LENS_FIELDS_OF_VIEW = (DEFAULT_FIELD_OF_VIEW_DEGREES, 80.0, 100.0, 120.0)
"""Horizontal fields of view tried for an unknown lens: camera module, webcam, wide, fisheye."""
FOCAL_REFIT_ERROR = 1.0
"""RMS misfit of the marker corners (pixels) above which the focal length is fitted again."""
REFIT_GAIN = 0.5
"""How much smaller the misfit must become for a refitted focal length or centre to be kept."""
CALIBRATED_POSE = 0.04
"""Grid corner movement (pitches) below which the board counts as where it was calibrated."""
SAME_POSE = 0.01
"""Grid corner movement (pitches) below which a pose found again counts as unchanged."""
LOOPS_SEEN = 0.35
"""Least share of loop samples whose line shows, for a marker-free board to count as seen."""
LOOPS_SHIFT = 0.05
"""Largest median shift of the loops (pitches) before a marker-free board counts as moved."""
REFIND_AFTER_FRAMES = 3
"""Frames in a row a marker-free board must be seen moved before the whole frame is searched."""
REFIND_SECONDS = 10.0
"""Least time between two searches of the whole frame for a marker-free board that moved."""


class LocationStatus(Enum):
    """What the locator made of a frame."""

    FOUND = "found"
    MOVED = "moved"
    PARTLY_HIDDEN = "partly hidden"
    NOT_FOUND = "not found"


@dataclass(frozen=True, slots=True)
class Location:
    """Where the board is in one frame."""

    status: LocationStatus
    """Found, moved since the last frame, partly hidden, or not found."""
    camera: CameraModel | None
    """The camera's lens and pose, when known."""
    markers_seen: int
    """Markers detected or confirmed in this frame."""
    detected: bool
    """Whether marker detection ran (False: the steady-camera check sufficed)."""


def _tune(parameters: Any) -> None:
    parameters.cornerRefinementMethod = cv2.aruco.CORNER_REFINE_SUBPIX
    # Tuned on the hard rendered set: small, tilted, blurred markers read better with
    # finer bit sampling, full error correction (a wrong id is caught by the homography
    # consistency check) and fewer, smaller threshold windows (also faster).
    parameters.perspectiveRemovePixelPerCell = 8
    parameters.errorCorrectionRate = 1.0
    parameters.maxErroneousBitsInBorderRate = 0.5
    parameters.adaptiveThreshWinSizeMin = 5
    parameters.adaptiveThreshWinSizeMax = 15
    parameters.adaptiveThreshWinSizeStep = 5


@lru_cache(maxsize=1)
def _detector() -> aruco.Detector:
    # OpenCV 4.6 (the Pi's own) and 4.7+ spell ArUco detection differently: see vision.aruco.
    return aruco.detector(ARUCO_DICTIONARY, _tune)


def as_grey(frame: np.ndarray) -> np.ndarray:
    """A greyscale copy of a BGR (or already grey) frame."""
    return frame if frame.ndim == 2 else cv2.cvtColor(frame, cv2.COLOR_BGR2GRAY)


SMALL_MARKER_ZOOM = 1.5
"""Zoom of a second look for markers when fewer than four were found: markers a dozen
pixels across (a small board in the frame, blur) are found in an enlarged image."""


def detect_markers(config: VisionConfig, frame: np.ndarray) -> dict[int, np.ndarray]:
    """Every marker of the board's dictionary in the frame: id to its (4, 2) corners in pixels."""
    grey = as_grey(frame)
    scale = 1.0
    if grey.shape[1] > config.detection_max_width:
        scale = config.detection_max_width / grey.shape[1]
        grey = cv2.resize(grey, None, fx=scale, fy=scale, interpolation=cv2.INTER_AREA)
    found = _markers_in(grey, scale)
    looks = {1.0: grey}
    if len(found) < 4 and grey.shape[1] * SMALL_MARKER_ZOOM <= 2 * config.detection_max_width:
        looks[SMALL_MARKER_ZOOM] = cv2.resize(grey, None, fx=SMALL_MARKER_ZOOM,
                                              fy=SMALL_MARKER_ZOOM, interpolation=cv2.INTER_CUBIC)
        for key, corners in _markers_in(looks[SMALL_MARKER_ZOOM],
                                        scale * SMALL_MARKER_ZOOM).items():
            found.setdefault(key, corners)
    # Last looks for markers still missing, through an unsharp mask: a soft lens or a
    # shaking hand smears a small marker's cells together (measured on rendered rooms: a
    # quarter as many calibration images short of a marker).
    for zoom, looked in looks.items():
        if len(found) >= 4:
            break
        for key, corners in _markers_in(_sharpened(looked, SHARPEN_SIGMA * zoom),
                                        scale * zoom).items():
            found.setdefault(key, corners)
    return found


SHARPEN_SIGMA = 3.0
"""Blur radius (pixels of the frame) of the unsharp mask of the last looks for markers."""


def _sharpened(grey: np.ndarray, sigma: float) -> np.ndarray:
    """``grey`` with an unsharp mask: twice its difference from a blurred copy added."""
    blurred = cv2.GaussianBlur(grey, (0, 0), sigma)
    result: np.ndarray = cv2.addWeighted(grey, 3.0, blurred, -2.0, 0)
    return result


def _markers_in(grey: np.ndarray, scale: float) -> dict[int, np.ndarray]:
    """The markers in ``grey``, a frame resized by ``scale``, in the frame's pixels."""
    corners, ids = _detector().detect(grey)
    found: dict[int, np.ndarray] = {}
    if ids is None:
        return found
    for marker_corners, marker_id in zip(corners, ids.ravel(), strict=True):
        # A duplicate id is a reflection or a second print: keep neither.
        key = int(marker_id)
        if key in found:
            found[key] = np.empty((0, 2))
        else:
            found[key] = marker_corners.reshape(4, 2).astype(np.float64) / scale
    return {key: value for key, value in found.items() if len(value)}


def marker_points(model: BoardModel, found: dict[int, np.ndarray],
                  markers: list[int]) -> tuple[np.ndarray, np.ndarray]:
    """Sheet (mm) and image (pixel) positions of the corners of ``markers``, each (4k, 2)."""
    sheet_markers = model.markers()
    sheet = np.array([c for marker in markers for c in sheet_markers[marker]], np.float64)
    return sheet, np.concatenate([found[marker] for marker in markers])


def fit_marker_camera(model: BoardModel, found: dict[int, np.ndarray],
                      image_size: tuple[int, int], lens: CameraModel | None = None
                      ) -> tuple[CameraModel, list[int]] | None:
    """The camera that sees the model's markers among ``found`` where they are.

    With ``lens`` only the pose is fitted; without, the focal length and one distortion
    term too (with three markers, only when they need it), or two when all four markers
    need them (a first guess, refined on the ink at calibration). None when fewer than
    three markers agree: a marker whose corners do not fit the others (a misread id, a
    reflection) is dropped when three remain. Also returns the markers used.
    """
    usable = [marker for marker in model.markers() if marker in found]
    while len(usable) >= MIN_MARKERS:
        sheet, image = marker_points(model, found, usable)
        camera = _pose_of_lens(lens, sheet, image) if lens is not None else _first_camera(
            sheet, image, image_size, len(usable))
        if camera is None:
            return None
        errors, sides = _marker_misfits(camera, sheet, image)
        # An unknown lens is only roughly fitted to the markers here (the printed lines
        # refine it at calibration), so it is given more room.
        tolerance = MARKER_FIT_TOLERANCE if lens is not None else FIRST_FIT_TOLERANCE
        if lens is None and errors.max() > tolerance * sides:
            # A fisheye seen steeply bends the markers' places more than the first guess
            # follows: sixteen corners pin a second term down, and twelve (a marker unread
            # at the bent edge of the view) the first, which that guess leaves out.
            bent = _first_camera(sheet, image, image_size, len(usable), distortion_terms=2,
                                 bent=True)
            if bent is not None:
                camera = bent
                errors, sides = _marker_misfits(camera, sheet, image)
        worst = int(errors.argmax())
        if errors[worst] <= tolerance * sides:
            return camera, usable
        usable.pop(worst)
    return None


def _marker_misfits(camera: CameraModel, sheet: np.ndarray, image: np.ndarray
                    ) -> tuple[np.ndarray, float]:
    """Each marker's worst corner misfit under ``camera`` (pixels), and the markers' mean
    side in the image (pixels); ``sheet`` and ``image`` as :func:`marker_points` gives them."""
    projected = camera.project_sheet(sheet).reshape(-1, 4, 2)
    corners = image.reshape(-1, 4, 2)
    errors = np.linalg.norm(projected - corners, axis=2).max(axis=1)
    sides = float(np.linalg.norm(corners - np.roll(corners, 1, axis=1), axis=2).mean())
    return errors, sides


def _first_camera(sheet: np.ndarray, image: np.ndarray, image_size: tuple[int, int],
                  markers: int, distortion_terms: int = 1, bent: bool = False
                  ) -> CameraModel | None:
    # Three markers (12 corners) pin a distortion term down only poorly: it is fitted
    # to them only when they are plainly ``bent``, and the printed lines check it at
    # calibration. A wide lens bends the markers' places so far that a typical focal
    # length would not fit them: try the fields of view of the lenses makers use, and keep
    # the one that fits best.
    best: tuple[CameraModel, float] | None = None
    for field_of_view in LENS_FIELDS_OF_VIEW:
        focal = image_size[0] / 2 / math.tan(math.radians(field_of_view) / 2)
        fitted = camera_from_correspondences(sheet, image, image_size, focal=focal,
                                             solve_focal=False,
                                             distortion_terms=1 if markers == 4 or bent
                                             else 0)
        # Seen from straight above every lens fits about as well: another than the
        # typical one must fit clearly better.
        if fitted is not None and (best is None or fitted[1] < best[1] * WIDER_LENS_GAIN):
            best = fitted
    if best is not None and markers == 4:
        # Sixteen corners can also tell the focal length near the best guess.
        refined = camera_from_correspondences(sheet, image, image_size, start=best[0],
                                              solve_focal=True,
                                              distortion_terms=distortion_terms)
        if refined is not None and refined[1] < best[1]:
            best = refined
    return None if best is None else best[0]


def _pose_of_lens(lens: CameraModel, sheet: np.ndarray, image: np.ndarray
                  ) -> CameraModel | None:
    """The lens at the pose the markers show, its focal length refitted when it must be.

    A calibration image taken from straight above cannot tell the focal length; when
    the board is later seen at another slant and the markers do not fit the assumed
    one, the focal length is fitted again to them, and then, if they still do not fit,
    the principal point (the distortion is kept).
    """
    camera = _pose(lens, sheet, image)
    if camera is None:
        return camera
    error = np.sqrt(((camera.project_sheet(sheet) - image) ** 2).sum(axis=1).mean())
    # Three markers cannot tell the focal length from the pose reliably.
    if error <= FOCAL_REFIT_ERROR or len(sheet) < 16:
        return camera
    for solve_centre in (False, True):
        refitted = camera_from_correspondences(sheet, image, camera.image_size, start=camera,
                                               solve_focal=not solve_centre, distortion_terms=0,
                                               solve_centre=solve_centre)
        # Only a clear gain: marker corners are noisy, and the calibrated lens was fitted to
        # hundreds of points on the printed lines.
        if refitted is not None and refitted[1] < REFIT_GAIN * error:
            camera, error = refitted[0], refitted[1]
        if error <= FOCAL_REFIT_ERROR:
            break
    return camera


def _pose(lens: CameraModel, sheet: np.ndarray, image: np.ndarray) -> CameraModel | None:
    objects = np.column_stack([sheet, np.zeros(len(sheet))])
    # IPPE solves a flat target from scratch (the board may have turned any way since the
    # last pose); a final Levenberg-Marquardt pass polishes it.
    ok, rotation, translation = cv2.solvePnP(objects, image, lens.matrix, lens.coefficients,
                                             flags=cv2.SOLVEPNP_IPPE)
    if ok:
        rotation, translation = cv2.solvePnPRefineLM(objects, image, lens.matrix,
                                                     lens.coefficients, rotation, translation)
    if not ok or not np.all(np.isfinite(translation)) or float(translation[2, 0]) <= 0:
        return None
    return lens.with_pose(rotation, translation)


def refit_pose(camera: CameraModel, model: BoardModel, image: np.ndarray,
               half_width_pitches: float = 1.0) -> CameraModel | None:
    """The pose fitted again to the printed ink near where ``camera`` puts it (lens kept)."""
    grey = blurred_grey(image)
    samples = ink_samples(model)
    for half_width in (half_width_pitches, 0.4, 0.2, 0.1):
        match = find_ink(grey, camera, samples, half_width * model.pitch)
        if len(match.sheet) < 30:
            return None
        moved = _pose(camera, match.sheet, match.image)
        if moved is None:
            return None
        camera = moved
    return camera


def grid_corners_in_image(model: BoardModel, camera: CameraModel) -> np.ndarray:
    """The four grid corner points projected into the image, (4, 2)."""
    return camera.project_sheet(grid_corners(model))


def pitch_in_pixels(model: BoardModel, camera: CameraModel) -> float:
    """Average length of one pitch in the image."""
    corners = grid_corners_in_image(model, camera)
    sides = np.linalg.norm(corners - np.roll(corners, 1, axis=0), axis=1)
    return float(sides.mean() / (model.size - 1))


@dataclass(frozen=True, slots=True)
class _MarkerPatch:
    box: tuple[int, int, int, int]  # x0, y0, x1, y1 in the frame
    pattern: np.ndarray  # zero-mean, unit-norm PATCH_SIDE x PATCH_SIDE


def _patch(grey_crop: np.ndarray) -> np.ndarray | None:
    small = cv2.resize(grey_crop, (PATCH_SIDE, PATCH_SIDE), interpolation=cv2.INTER_AREA)
    values = small.astype(np.float32).ravel()
    values -= mean_along(values, 0)
    # The length as numpy's norm works it out for a vector, without its wrapper.
    norm = float(np.sqrt(values.dot(values)))
    return values / norm if norm > 1e-3 else None


class BoardLocator:
    """Finds the board frame after frame, re-detecting markers only when something changed."""

    def __init__(self, config: VisionConfig, model: BoardModel, camera: CameraModel | None = None,
                 fixed: bool = False) -> None:
        """``camera`` is the calibrated lens and pose; ``fixed`` for a board without markers."""
        self._config = config
        self._model = model
        self._lens = camera
        self._calibrated = camera
        self._fixed = fixed and camera is not None
        self._camera: CameraModel | None = camera if self._fixed else None
        self._patches: dict[int, _MarkerPatch] = {}
        self._watch = LoopWatch(camera, model) if self._fixed and camera is not None else None
        self._last: CameraModel | None = None
        """The last pose found, kept through a reset: a pose found again unchanged is handed
        on as the same object, so what was computed for it (remap tables) is reused."""
        self._frame_shape: tuple[int, ...] | None = None
        self._last_search: float | None = None
        """When a board without markers was last searched for over the whole frame."""
        self._moved_frames = 0
        """Frames in a row in which a board without markers was seen moved and not found."""

    def reset(self) -> None:
        """Forget the last place, so the next frame runs a full detection."""
        if not self._fixed:
            if self._camera is not None:
                self._last = self._camera
            self._camera = None
        self._patches = {}

    def locate(self, frame: np.ndarray) -> Location:
        """Where the board is in ``frame``."""
        if self._fixed:
            return self._check_loops(frame)
        if frame.shape != self._frame_shape:
            # Marker patches and poses of frames of another size say nothing about this one.
            self.reset()
            self._last = None
            self._frame_shape = frame.shape
        confirmed = self._confirmed_markers(frame)
        if self._camera is not None and confirmed >= MIN_MARKERS:
            return Location(LocationStatus.FOUND, self._camera, confirmed, detected=False)
        found = {
            marker: corners
            for marker, corners in detect_markers(self._config, frame).items()
            if marker in marker_ids(self._model.size)
        }
        height, width = frame.shape[:2]
        fitted = fit_marker_camera(self._model, found, (width, height), self._lens)
        if fitted is None:
            known = self._camera or self._last or self._calibrated
            if known is not None and self._still_there(found, known, frame):
                self._last = known
                return Location(LocationStatus.FOUND, known, len(found), detected=True)
            if found or confirmed:
                return Location(LocationStatus.PARTLY_HIDDEN, self._camera,
                                max(len(found), confirmed), detected=True)
            return Location(LocationStatus.NOT_FOUND, None, 0, detected=True)
        camera, used = fitted
        if self._lens is not None and len(used) == 4:
            # A focal length or principal point refitted to all four markers is the
            # camera's own: keep it, so later detections need not fit it again.
            self._lens = camera
        moved = self._camera is not None and self._has_moved(camera, self._camera)
        if self._calibrated is not None and not self._has_moved(camera, self._calibrated,
                                                                CALIBRATED_POSE):
            # The board is where it was at calibration: that pose was fitted to the printed
            # lines as well as the markers, and is the more exact.
            camera = self._calibrated
        elif self._last is not None and not self._has_moved(camera, self._last, SAME_POSE):
            camera = self._last
        self._last = camera
        self._remember(frame, camera, {marker: found[marker] for marker in used})
        status = LocationStatus.MOVED if moved else LocationStatus.FOUND
        return Location(status, camera, len(used), detected=True)

    def _check_loops(self, frame: np.ndarray) -> Location:
        assert self._camera is not None and self._watch is not None
        check = self._watch.check(frame)
        if check.found < LOOPS_SEEN * check.looked:
            # Too little of the loops shows: a hand over them, or the sheet is gone. A
            # knocked camera shows a moved sheet, so try to find it near its old place.
            moved = refit_pose(self._camera, self._model, frame)
            if moved is not None and self._loops_fit(moved, frame):
                return self._moved_to(moved)
            return Location(LocationStatus.PARTLY_HIDDEN, self._camera, 0, detected=False)
        if check.shift <= LOOPS_SHIFT:
            self._moved_frames = 0
            return Location(LocationStatus.FOUND, self._camera, 0, detected=False)
        moved = refit_pose(self._camera, self._model, frame, 0.5)
        if moved is None or not self._loops_fit(moved, frame):
            moved = self._found_anew(frame)
        if moved is not None and self._loops_fit(moved, frame):
            return self._moved_to(moved)
        return Location(LocationStatus.MOVED, self._camera, 0, detected=True)

    def _found_anew(self, frame: np.ndarray) -> CameraModel | None:
        """The board found anywhere in the frame by its lines and loops, after a move too far
        for the search near its old place (``vision.find_board``), once it has been seen
        moved for ``REFIND_AFTER_FRAMES`` frames. That takes a second or more, so it is tried
        at most every ``REFIND_SECONDS`` while the board stays lost."""
        # Only a move that lasts: a hand passing over the loops can shift a frame's lines.
        self._moved_frames += 1
        now = time.monotonic()
        if self._moved_frames < REFIND_AFTER_FRAMES or (
                self._last_search is not None and now - self._last_search < REFIND_SECONDS):
            return None
        self._last_search = now
        assert self._camera is not None
        return found_again(frame, self._model, self._camera)

    def _still_there(self, found: dict[int, np.ndarray], camera: CameraModel,
                     frame: np.ndarray) -> bool:
        """Whether the board is where ``camera`` puts it, though too few markers were found
        to fit a pose: every one found lies where the camera puts it, and so do the loops.

        Small markers far from a steeply tilted camera are found in one frame and missed in
        the next; a camera that moved shows its markers elsewhere, and is not trusted.
        """
        if len(found) < MIN_MARKERS_STILL:
            return False
        errors, sides = _marker_misfits(camera, *marker_points(self._model, found, sorted(found)))
        return bool(errors.max() <= MARKER_FIT_TOLERANCE * sides) and self._loops_fit(
            camera, frame)

    def _loops_fit(self, camera: CameraModel, frame: np.ndarray) -> bool:
        check = LoopWatch(camera, self._model).check(frame)
        return check.found >= 2 * LOOPS_SEEN * check.looked and check.shift <= LOOPS_SHIFT

    def _moved_to(self, camera: CameraModel) -> Location:
        # Reported as moved once: the frame that showed the move may be blurred.
        self._camera = camera
        self._watch = LoopWatch(camera, self._model)
        return Location(LocationStatus.MOVED, camera, 0, detected=True)

    def _has_moved(self, camera: CameraModel, before: CameraModel,
                   tolerance: float | None = None) -> bool:
        """Whether the grid corners moved by more than ``tolerance`` pitches (default: the
        config's ``moved_tolerance``)."""
        corners = grid_corners_in_image(self._model, before)
        shift = float(np.linalg.norm(grid_corners_in_image(self._model, camera) - corners,
                                     axis=1).max())
        limit = self._config.moved_tolerance if tolerance is None else tolerance
        return shift > limit * pitch_in_pixels(self._model, camera)

    def _remember(self, frame: np.ndarray, camera: CameraModel,
                  found: dict[int, np.ndarray]) -> None:
        self._camera = camera
        self._patches = {}
        height, width = frame.shape[:2]
        for marker, corners in found.items():
            low, high = corners.min(axis=0), corners.max(axis=0)
            grow = (high - low) * 0.15  # include the white quiet zone: more structure to match
            x0, y0 = np.floor(low - grow).astype(int)
            x1, y1 = np.ceil(high + grow).astype(int)
            if x0 < 0 or y0 < 0 or x1 > width or y1 > height or x1 - x0 < 4 or y1 - y0 < 4:
                continue
            pattern = _patch(as_grey(frame[y0:y1, x0:x1]))
            if pattern is not None:
                self._patches[marker] = _MarkerPatch((x0, y0, x1, y1), pattern)

    def _confirmed_markers(self, frame: np.ndarray) -> int:
        count = 0
        for patch in self._patches.values():
            x0, y0, x1, y1 = patch.box
            now = _patch(as_grey(frame[y0:y1, x0:x1]))
            if now is not None and float(now @ patch.pattern) >= self._config.marker_match:
                count += 1
        return count
