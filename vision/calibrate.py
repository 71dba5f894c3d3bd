"""Calibration: learn where the board is and what its pieces look like from the start position.

Decisions:
- One image of the start position is enough: its 24 (28 on 7x7) pieces stand on
  known points, so the two piece colours are learned by place, not by name.
  Whatever stands on ranks 1-2 is "red", whatever stands on the top two ranks is
  "black"; any two colours that differ from each other and from the paper work.
- The image must convince before it is used: the paper must be clear, every rank
  must look like what the start position puts there (each sample close to the
  median of its label), the three labels must be well apart, and the learned
  model must read the image back with full confidence. Otherwise calibration
  fails with a one-line reason instead of storing a model that would misread.
- The board size comes from the marker ids (ids 0-3 for 6x6, 4-7 for 7x7). For a
  board without markers the four grid corners are given in image pixels, in the
  order a1, bottom-right, top-right, top-left (e.g. a1 f1 f6 a6), and stored; the
  camera is then assumed not to move.
- The file is JSON: format tag and version, board size, the homography from sheet
  millimetres to image pixels at calibration time, the corners (marker-free only)
  and the colour model. A missing or corrupt file is one clear error.
- The sheet's paper size does not matter: the marker layout is in pitches, so a
  board printed on A3 is located with the A4 model (the homography absorbs scale).
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path

import cv2
import numpy as np

from controller.geometry import point_name, point_xy
from vision.board_model import BoardModel, board_model, size_of_marker
from vision.colour import LABELS, ColourModel, PointLabel, classify, learn_colours
from vision.config import VisionConfig
from vision.errors import BadCalibration, CalibrationFailed
from vision.locate import detect_markers, fit_homography
from vision.paper import check_paper
from vision.sampling import sample_board, sampling_layout, top_down_view

FORMAT = "surakarta-calibration"
VERSION = 1
MIN_LABEL_SEPARATION = 0.2
"""Least distance between the median colours of two labels (paper-relative units)."""
MAX_LABEL_SPREAD = 0.25
"""Largest distance of one start-position sample from the median of its label."""


@dataclass(frozen=True, slots=True)
class Calibration:
    """Everything learned from the start position image."""

    size: int
    """Board size: 6 or 7."""
    homography: np.ndarray
    """Sheet millimetres (A4 model of ``size``) to image pixels, as calibrated."""
    colours: ColourModel
    """What empty, red and black look like relative to the paper."""
    corners: tuple[tuple[float, float], ...] | None = None
    """Image positions of the grid corners (a1, bottom-right, top-right, top-left) for a
    board without markers; None when the board is located by its markers."""

    @property
    def model(self) -> BoardModel:
        """The board model the homography refers to."""
        return board_model(self.size)

    @property
    def uses_markers(self) -> bool:
        """Whether the board is located by markers in every frame."""
        return self.corners is None

    def to_json(self) -> dict[str, object]:
        """JSON-ready data."""
        return {
            "format": FORMAT,
            "version": VERSION,
            "size": self.size,
            "homography": [[float(v) for v in row] for row in self.homography],
            "corners": None if self.corners is None else [list(c) for c in self.corners],
            "colours": self.colours.to_json(),
        }


def start_labels(size: int) -> np.ndarray:
    """The label index (into LABELS) of every point in the start position, model order."""
    labels = []
    for point in board_model(size).points:
        rank = point_xy(point)[1]
        label = (PointLabel.RED if rank < 2 else
                 PointLabel.BLACK if rank >= size - 2 else PointLabel.EMPTY)
        labels.append(LABELS.index(label))
    return np.array(labels)


def _signed_area(points: np.ndarray) -> float:
    """Shoelace area of a polygon; its sign says which way round the corners go."""
    x, y = points[:, 0], points[:, 1]
    return float(np.dot(x, np.roll(y, -1)) - np.dot(np.roll(x, -1), y)) / 2


def homography_from_corners(
    size: int,
    corners: list[tuple[float, float]],
    image_size: tuple[int, int] | None = None,
) -> np.ndarray:
    """The homography of a marker-free board from its four grid corners in the image.

    ``image_size`` (width, height), when given, is where the corners must lie.
    Raises CalibrationFailed quoting the corners when they cannot be a board seen by
    a camera.
    """
    model = board_model(size)
    if len(corners) != 4:
        raise CalibrationFailed(f"expected four corners, got {len(corners)}: {corners!r}")
    target = np.array(corners, np.float64)
    if not np.all(np.isfinite(target)):
        raise CalibrationFailed(f"invalid corners: {corners!r} (not finite numbers)")
    if image_size is not None:
        width, height = image_size
        # Half a pixel of slack: a corner clicked on the image's edge pixel is inside.
        inside = (target >= -0.5) & (target <= np.array([width, height]) - 0.5)
        if not np.all(inside):
            raise CalibrationFailed(
                f"the corners lie outside the {width}x{height} image: {corners!r}"
            )
    source = np.array([model.point_mm(p) for p in model.corner_points()], np.float64)
    area = _signed_area(target)
    if abs(area) < 100:
        raise CalibrationFailed(f"the four corners enclose no area: {corners!r}")
    # A flat square seen by a camera is a convex quadrilateral; anything else is a typo
    # or corners given in a crossing order.
    if not cv2.isContourConvex(target.astype(np.float32).reshape(-1, 1, 2)):
        raise CalibrationFailed(f"the four corners do not form a convex outline: {corners!r}")
    # A camera cannot see the board mirrored: corners that go round the other way were
    # given in the wrong order, and the start position (symmetric left to right) would
    # not show it; every later reading would be mirrored.
    if (area > 0) != (_signed_area(source) > 0):
        raise CalibrationFailed(
            f"the corners go round the wrong way: {corners!r} (expected a1, bottom-right, "
            "top-right, top-left)"
        )
    matrix: np.ndarray = cv2.getPerspectiveTransform(
        source.astype(np.float32), target.astype(np.float32)
    ).astype(np.float64)
    return matrix


def calibrate(
    config: VisionConfig,
    image: np.ndarray,
    corners: list[tuple[float, float]] | None = None,
    size: int = 6,
) -> Calibration:
    """Learn the board from an image of the start position; raises CalibrationFailed.

    With ``corners`` (marker-free board) ``size`` says which board it is; otherwise the
    markers say.
    """
    if corners is None:
        found = detect_markers(config, image)
        sizes = [s for s in (size_of_marker(marker) for marker in found) if s is not None]
        if not sizes:
            raise CalibrationFailed("no board found in the image (no markers detected)")
        size = max(set(sizes), key=sizes.count)
        homography = fit_homography(board_model(size), found)
        if homography is None:
            raise CalibrationFailed(
                f"no board found in the image (only {sizes.count(size)} of its 4 markers seen)"
            )
    else:
        height, width = image.shape[:2]
        homography = homography_from_corners(size, corners, (width, height))
    model = board_model(size)
    layout = sampling_layout(config, size)
    samples = sample_board(layout, top_down_view(layout, model, image, homography))
    if not check_paper(config, layout, samples).is_clear:
        raise CalibrationFailed("something covers the board in the calibration image")
    expected = start_labels(size)
    _check_start_position(samples.relative, expected)
    colours = learn_colours(config, samples.relative, expected)
    reread = classify(config, colours, samples.relative)
    if np.any(reread.labels != expected) or np.any(reread.confidences < config.confident):
        raise CalibrationFailed("the image does not show the start position clearly")
    stored = None if corners is None else tuple((float(x), float(y)) for x, y in corners)
    return Calibration(size, homography, colours, stored)


def _check_start_position(features: np.ndarray, expected: np.ndarray) -> None:
    medians = np.stack([np.median(features[expected == i], axis=0) for i in range(len(LABELS))])
    empty, red, black = (LABELS.index(label) for label in
                         (PointLabel.EMPTY, PointLabel.RED, PointLabel.BLACK))
    pairs = {"red and black pieces": (red, black), "red pieces and empty points": (red, empty),
             "black pieces and empty points": (black, empty)}
    for what, (a, b) in pairs.items():
        if np.linalg.norm(medians[a] - medians[b]) < MIN_LABEL_SEPARATION:
            raise CalibrationFailed(
                f"the image does not show the start position ({what} look alike)"
            )
    spread = np.linalg.norm(features - medians[expected], axis=1)
    if np.any(spread > MAX_LABEL_SPREAD):
        size = 6 if len(expected) == 36 else 7
        odd = [point_name(board_model(size).points[i])
               for i in np.flatnonzero(spread > MAX_LABEL_SPREAD)]
        raise CalibrationFailed(
            f"the image does not show the start position (odd points: {' '.join(odd)})"
        )


# ------------------------------------------------------------------ files


def save_calibration(calibration: Calibration, path: Path) -> None:
    """Write the calibration as JSON."""
    path.write_text(json.dumps(calibration.to_json(), indent=1) + "\n", encoding="utf-8")


def load_calibration(path: Path) -> Calibration:
    """Read a calibration file; raises BadCalibration with one line saying what is wrong."""
    try:
        text = path.read_text(encoding="utf-8")
    except OSError as error:
        raise BadCalibration(
            f"cannot read calibration file: {str(path)!r} ({error.strerror or error})"
        ) from None
    except UnicodeDecodeError:
        raise BadCalibration(f"corrupt calibration file: {str(path)!r} (not text)") from None
    try:
        return _calibration_from_json(json.loads(text))
    except (ValueError, KeyError, TypeError, IndexError) as error:
        reason = str(error).splitlines()[0] if str(error) else type(error).__name__
        raise BadCalibration(f"corrupt calibration file: {str(path)!r} ({reason})") from None


def _calibration_from_json(data: object) -> Calibration:
    if not isinstance(data, dict) or data.get("format") != FORMAT:
        raise ValueError("not a calibration file")
    if data.get("version") != VERSION:
        raise ValueError(f"unsupported version {data.get('version')!r}")
    size = data["size"]
    # type() rather than isinstance(): true is an int, and 6.0 is not a board size.
    if type(size) is not int or size not in (6, 7):
        raise ValueError(f"bad board size {size!r}")
    homography = np.asarray(data["homography"], np.float64).reshape(3, 3)
    if not np.all(np.isfinite(homography)) or abs(np.linalg.det(homography)) < 1e-12:
        raise ValueError("bad homography")
    corners_data = data.get("corners")
    corners = None
    if corners_data is not None:
        array = np.asarray(corners_data, np.float64).reshape(4, 2)
        if not np.all(np.isfinite(array)):
            raise ValueError("bad corners")
        corners = tuple((float(x), float(y)) for x, y in array)
    return Calibration(size, homography, ColourModel.from_json(data["colours"]), corners)
