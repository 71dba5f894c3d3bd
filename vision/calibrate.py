"""Calibration: learn the camera, the board and what its pieces look like from the start position.

Decisions:
- One image of the start position is enough: its 24 (28 on 7x7) pieces stand on
  known points, so the two piece colours are learned by place, not by name. The
  same image gives the lens and the camera's pose (``vision.register``: the markers,
  then the printed lines and loops) and the height of the pieces' tops: the height
  at which the top-down view shows each piece's top as one even disc.
  Whatever stands on ranks 1-2 is "red", whatever stands on the top two ranks is
  "black"; any two colours that differ from each other and from the paper work.
- The image must convince before it is used: the paper must be clear, every rank
  must look like what the start position puts there, the three labels must be well
  apart, and the learned model must read the image back rightly, and surely enough
  that a frame of it can be read (a few pieces unsure only of their set are read from
  the game: ``vision.doubt``). Otherwise calibration fails with a one-line reason
  instead of storing a model that would misread; two piece sets too alike to tell
  apart are named as such, with what to change. A glossy top a lamp's glare moved
  towards the other set's colour, up to ``PLAINLY_OTHER`` of the way, fits the start
  position when nothing else does: the reader keeps such tops doubtful later
  (``vision.glare_reach``), and a pale set's dark-rimmed look-alikes too
  (``vision.rims``). So does a glossy top that mirrors the lamp whole: one that looks
  like bare paper but hides the cross, or a dark one that looks like the pale set but
  keeps its dark rim. It tells nothing of its set's colour and is left out of what is
  learned; where it stood, the reader takes such tops for a piece of either set later
  (``vision.mirror_spot``). So are the tops beside it that, learned without it, read as
  bare paper hiding its cross: the lamp's reflection reaches them too.
- Under a lamp low beside the board, the start position also shows which way and how far
  the pieces' shadows fall on the paper (``vision.shadows``): frames judge the paper they
  reach as a shadow.
- A piece set whose tops vary within the small disc each point is read over (a printed
  ring and dot falling in and out of it as pieces stand a little off their points) is
  read over a wider disc instead, when that makes its pieces alike (``wide_tops``).
- The board size comes from the marker ids (ids 0-3 for 6x6, 4-7 for 7x7). A board
  without markers is found by its lines and loops (``vision.find_board``), rank 1 the
  side nearer the image's bottom, or its four grid corners are given in image pixels,
  in the order a1, bottom-right, top-right, top-left (e.g. a1 f1 f6 a6); either way the
  corners are stored and the camera is then assumed not to move.
- The file is JSON: format tag and version, board size, the camera (lens and pose
  at calibration time), the pieces' height, the corners (marker-free only), the
  colour model, the piece sets read over the wider disc, the sets' contrast, the glare's
  reach, the rim check and the points whose tops mirrored the lamp whole. A missing,
  corrupt or outdated file is one clear error.
- The sheet's paper size does not matter: the marker layout is in pitches, so a
  board printed on A3 is located with the A4 model (the homography absorbs scale).
"""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import NamedTuple

import cv2
import numpy as np

from controller.geometry import Point, parse_point, point_name, point_xy
from controller.position import start_position
from controller.reading import BoardReading
from vision.board_model import BoardModel, board_model, size_of_marker
from vision.camera import CameraModel, triple
from vision.colour import (
    LABELS,
    PIECE_LABEL_OF,
    PIECE_LABELS,
    Classification,
    ColourModel,
    PointLabel,
    classify,
    dark_without_cross,
    learn_colours,
    pale_labels,
    piece_cross_floor,
)
from vision.config import VisionConfig
from vision.doubt import choices, few_enough
from vision.errors import BadCalibration, CalibrationFailed
from vision.find_board import find_board, grid_corners, rank_turns, signed_area
from vision.glare_reach import GlareOverlap, GlareReach, learn_glare_reach
from vision.locate import detect_markers, fit_marker_camera, marker_points
from vision.mirror_spot import lamp_split, mirrored_whole, pale_mirrors, spot
from vision.palette import Palette, bin_codes, learn_palette, own_set_fits, paper_logs
from vision.palette import confirmed as confirmed_by_palette
from vision.paper import PaperCheck, check_paper
from vision.paper_tint import PaperTint, learn_paper_tint
from vision.register import fit_camera
from vision.rims import PALE_SET, RimCheck, dark_rimmed, learn_rim_check, mirrored_pale_set
from vision.sampling import (
    BoardSamples,
    SamplingLayout,
    ViewMaps,
    judged_against_paper,
    remap,
    sample_board,
    sampling_layout,
    view_maps,
)
from vision.set_contrast import SetContrast, confirmed, learn_set_contrast, on_own_side
from vision.set_forest import ring_middles, ring_pixels
from vision.shadows import ShadowReach, learn_shadow_reach
from vision.surround import SheetSurround, take_surround

FORMAT = "surakarta-calibration"
VERSION = 2
MIN_LABEL_SEPARATION = 0.3
"""Least distance between the median features of a piece set and the paper (log
paper-relative units)."""
MIN_SET_SEPARATION = 0.36
"""Least distance between the two piece sets' median colours (log paper-relative units).
Measured on physically based renders (six sets) and room renders (seeds 12 to 18): the
white and cream sets that calibrated lay 0.31 and 0.33 apart, every other pair calibrated
0.40 or more."""
PALE_SETS_SEPARATION = 0.45
"""Least distance between the two piece sets' median colours where both are pale (within
``vision.rims.PALE_SET`` of the paper's colour): told apart by their colour alone, with the
paper's between and round them. Blender renders of white against cream (seeds 1401 and
3901) calibrated at 0.37 and 0.36, their white set 0.01 and 0.03 from the paper; no frame
of 3901's was read alone. On twenty-nine Blender seeds and the room renderer's two sets,
every other setup that calibrated had a set at least 0.78 from the paper."""
BRIGHTNESS_WEIGHT = 0.5
"""Weight of brightness against colour when checking the start position's points."""
LEAST_CALIBRATION_CONFIDENCE = 0.5
"""Least confidence of a point of the start position, read rightly."""
PLAINLY_OTHER = 0.75
"""How far along the way from a start position point's own label to another label it may
lie before it is plainly that other label (see _check_start_position)."""
CROSS_WEIGHT = 0.5
"""Weight of the cross against colour in that check: a piece set down off its point shows
part of the cross it stands on."""
PALE_CROSS = 0.3
"""Most cross a pale piece set may show at calibration."""
PALE_BARE_CROSS = 0.4
"""How much more cross the bare points must show at calibration than pieces the paper's
colour, for them to be told apart (less as the pieces differ in colour): the frames read
later must show it too (``vision.colour.sharp_level``)."""
FAINT_LINES = 0.1
"""Cross feature of the start position's bare points below which the lines hardly show."""
MARKER_RMS_TOLERANCE = 0.1
"""Largest RMS misfit of the marker corners after fitting the lens, as a share of a marker."""
TOP_HEIGHTS_MM = (0.0, 2.0, 4.0, 5.0, 6.0, 7.0, 8.0, 10.0)
"""Heights tried for the pieces' tops."""
PARALLAX_PROBE_MM = 5.0
MIN_PARALLAX_PITCHES = 0.1
"""Least shift of a 5 mm top from its point (at the board's most slanted tenth), pitches, for
the image to tell the height."""
MAX_PIECE_HEIGHT_MM = 50.0
"""Highest pieces' tops a calibration takes, mm: far above any board game's pieces."""
COMMON_HEIGHT_MM = 5.0
"""Height of the tops of common pieces (draughts, go stones, plastic discs: 4 to 7 mm):
heights are retried from it outwards."""
RETRY_PROBE_MM = 8.0
"""Height of the tallest common pieces (draughts, domed shells): other heights are tried when
a top this tall would stand MIN_PARALLAX_PITCHES off its point."""
HEIGHT_TIE = 1.05
"""Heights whose discs are this close to the most even count as a tie."""
WIDE_TOP_SPREAD = 0.3
"""Least spread of a set's start-position colours (log units; see ``wide_tops``) for the set
to be tried over the wider disc."""
WIDE_TOP_GAIN = 0.75
"""Most the wider disc's spread may be, as a share of the narrower one's, to be chosen."""
PATTERNED_TOP = 0.2
"""Least median gap (log, the channel where it is widest) between a set's tops' medians and
their darker parts for the set to count as patterned. (Plain sets show under 0.15 but for
a few glossy or white ones.)"""


@dataclass(frozen=True, slots=True)
class Calibration:
    """Everything learned from the start position image."""

    size: int
    """Board size: 6 or 7."""
    camera: CameraModel
    """The lens, and the camera's pose relative to the sheet (A4 model of ``size``) then."""
    colours: ColourModel
    """What empty, red and black look like relative to the paper."""
    corners: tuple[tuple[float, float], ...] | None = None
    """Image positions of the grid corners (a1, bottom-right, top-right, top-left) for a
    board without markers; None when the board is located by its markers."""
    piece_height: float = 0.0
    """Height of the pieces' tops above the paper, mm (as the camera sees it)."""
    paper_chroma: tuple[float, float, float] | None = None
    """The paper's log chroma (blue, green, red) in the calibration image; None in files
    written before it was kept."""
    top_patterns: dict[PointLabel, tuple[float, float, float]] = field(default_factory=dict)
    """The piece sets read over the wider disc (see :func:`wide_tops`), each with how its
    tops' medians differ from their darker parts (log colour, the median over the start
    position): what its printed pattern adds to a median."""
    set_contrast: SetContrast | None = None
    """How the two sets differ in the colour glare cannot make (``vision.set_contrast``);
    None when the start position's sets are not plainly apart in it."""
    glare_reach: tuple[GlareReach, ...] = ()
    """Each set a lamp's glare moved towards the other's colour in the start position, and
    how far (``vision.glare_reach``)."""
    rim_check: RimCheck | None = None
    """How dark a pale set's rims may be (``vision.rims``); None unless one set is pale and
    the other's rims plainly darker."""
    mirror_points: frozenset[Point] = frozenset()
    """The start position's points whose glossy tops mirrored a lamp whole
    (``vision.mirror_spot``)."""
    shadow_reach: ShadowReach | None = None
    """The way and length of the pieces' shadows under a low lamp (``vision.shadows``);
    None when the start position shows no such shadows."""
    palette: Palette | None = None
    """The colours each label's tops are made of (``vision.palette``); None in files written
    before it was kept."""
    printed_points: frozenset[Point] = frozenset()
    """The start position's points whose pieces looked like another label by their colour
    but were told by their palette: printed tops seen off their points."""
    pale_mirrors: dict[Point, float] = field(default_factory=dict)
    """The start position's pale pieces whose tops mirrored a lamp, each with its top's
    brightness (log, relative to the paper round it): a glossy dark top there would mirror
    it too (``vision.mirror_spot``)."""
    piece_height_given: bool = False
    """Whether ``piece_height`` was given by the maker (measured) rather than judged from the
    image: a calibration made again (from the companion page) keeps a given height, which
    the image may not show as well. False in files written before it was kept."""
    lamp_sets: frozenset[PointLabel] = frozenset()
    """The piece sets some of whose start tops mirrored a lamp, learned with those tops as
    their colour had the lamp's: there a top of either set mirroring the lamp may be read
    as such a set, so it is doubtful between them (``vision.mirror_spot.lamp_split``)."""
    surround: SheetSurround | None = None
    """The sheet round the grid as the start position showed it: a hand reaching over the
    board changes it (``vision.surround``). None in files written before it was kept."""
    start_tops: np.ndarray | None = None
    """(points, 6) how the start position showed the top of each point, in model order: the
    medians of its two inner rings (``vision.set_forest.ring_middles``). A lamp mirrored
    in glossy tops lies where it lies: a piece in play is compared with the start's nearest
    piece of each set (``vision.set_forest``). None in files written before it was kept."""
    paper_tint: PaperTint | None = None
    """The colour the light gave the paper across the sheet (``vision.paper_tint``); None
    where it was too strong to keep, or in files written before it was kept."""

    @property
    def model(self) -> BoardModel:
        """The board model the camera's pose refers to."""
        return board_model(self.size)

    @property
    def homography(self) -> np.ndarray:
        """Sheet millimetres to (undistorted) image pixels at calibration time."""
        return self.camera.homography()

    @property
    def wide_tops(self) -> frozenset[PointLabel]:
        """The piece sets read over the wider disc."""
        return frozenset(self.top_patterns)

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
            "camera": self.camera.to_json(),
            "piece_height": round(self.piece_height, 3),
            "piece_height_given": self.piece_height_given,
            "corners": None if self.corners is None else [list(c) for c in self.corners],
            "colours": self.colours.to_json(),
            "paper_chroma": None if self.paper_chroma is None else [
                round(value, 6) for value in self.paper_chroma],
            "top_patterns": {label.value: [round(value, 6) for value in shift]
                             for label, shift in self.top_patterns.items()},
            "set_contrast": None if self.set_contrast is None else self.set_contrast.to_json(),
            "glare_reach": [reach.to_json() for reach in self.glare_reach],
            "rim_check": None if self.rim_check is None else self.rim_check.to_json(),
            "mirror_points": sorted(point_name(point) for point in self.mirror_points),
            "shadow_reach": None if self.shadow_reach is None else self.shadow_reach.to_json(),
            "palette": None if self.palette is None else self.palette.to_json(),
            "printed_points": sorted(point_name(point) for point in self.printed_points),
            "pale_mirrors": {point_name(point): round(level, 6)
                             for point, level in sorted(self.pale_mirrors.items())},
            "lamp_sets": sorted(label.value for label in self.lamp_sets),
            "surround": None if self.surround is None else self.surround.to_json(),
            "start_tops": None if self.start_tops is None else [
                [round(float(value), 4) for value in row] for row in self.start_tops],
            "paper_tint": None if self.paper_tint is None else self.paper_tint.to_json(),
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
    source = grid_corners(model)
    area = signed_area(target)
    if abs(area) < 100:
        raise CalibrationFailed(f"the four corners enclose no area: {corners!r}")
    # A flat square seen by a camera is a convex quadrilateral; anything else is a typo
    # or corners given in a crossing order.
    if not cv2.isContourConvex(target.astype(np.float32).reshape(-1, 1, 2)):
        raise CalibrationFailed(f"the four corners do not form a convex outline: {corners!r}")
    # A camera cannot see the board mirrored: corners that go round the other way were
    # given in the wrong order, and the start position (symmetric left to right) would
    # not show it; every later reading would be mirrored.
    if (area > 0) != (signed_area(source) > 0):
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
    piece_height: float | None = None,
) -> Calibration:
    """Learn the board from an image of the start position; raises CalibrationFailed.

    With ``corners`` (marker-free board) ``size`` says which board it is; otherwise the
    markers say. ``piece_height`` (mm, as a maker measures it) is where the pieces' tops
    are read; without it, it is judged from the image (``_piece_height``), which a
    printed or textured set can mislead.
    """
    if piece_height is not None and not piece_height_allowed(piece_height):
        raise ValueError(f"bad piece height {piece_height!r} mm "
                         f"(expected 0 to {MAX_PIECE_HEIGHT_MM:g})")
    height, width = image.shape[:2]
    if corners is None:
        located = _camera_from_markers(config, image)
        if located is None:
            return _calibrate_drawn_board(config, image, piece_height)
        size, camera = located
    else:
        homography_from_corners(size, corners, (width, height))
        model = board_model(size)
        sheet = grid_corners(model)
        fitted = fit_camera(model, image, sheet, np.array(corners, np.float64))
        if fitted is None:
            raise CalibrationFailed(f"no board found at the corners {corners!r}")
        camera = fitted[0]
    model = board_model(size)
    layout = sampling_layout(config, size, frozenset(PIECE_LABELS), palette=True)
    expected = start_labels(size)
    stored = None if corners is None else tuple((float(x), float(y)) for x, y in corners)
    heights = iter([piece_height]) if piece_height is not None else _piece_heights(
        layout, model, camera, image, expected)
    failure: CalibrationFailed | None = None
    for top in heights:
        try:
            return _calibrate_at(config, image, layout, model, camera, expected, stored, top,
                                 given=piece_height is not None)
        except CalibrationFailed as error:
            # The first height tried is the one judged best: its failure is the one to tell.
            failure = failure or error
    assert failure is not None
    raise failure


def piece_height_allowed(height: float) -> bool:
    """Whether ``height`` (mm) can be the pieces' tops' height (NaN cannot)."""
    return 0 <= height <= MAX_PIECE_HEIGHT_MM


def _calibrate_at(config: VisionConfig, image: np.ndarray, layout: SamplingLayout,
                  model: BoardModel, camera: CameraModel, expected: np.ndarray,
                  stored: tuple[tuple[float, float], ...] | None, top: float,
                  given: bool) -> Calibration:
    """The calibration of the start position ``expected`` with the pieces' tops read at
    ``top`` mm (``given``: the maker's height, not one judged); raises CalibrationFailed."""
    size = model.size
    occupied = expected != LABELS.index(PointLabel.EMPTY)
    maps = view_maps(layout, model, camera, top)
    samples = sample_board(layout, image, maps, occupied)
    paper, shadows, tint = _clear_paper(config, layout, samples, maps, occupied)
    if _faint_lines(samples.features, expected):
        # Bare paper is told from a piece of its colour by the cross the piece hides; where
        # the bare points hide theirs too (a spotlight burning the sheet white), every point
        # of the paper's colour would look bare to the reader, a washed-out piece too.
        raise CalibrationFailed(
            "the image does not show the start position's bare points clearly; the printed "
            "lines hardly show: dim or move the lamp over the board, or focus the camera")
    learned = _learn_any(config, size, samples, maps.cover, expected,
                         wide_tops(samples, expected), _start_palette(samples, expected))
    assert samples.top_view is not None and samples.tops_paper is not None
    calibration = Calibration(size, camera, learned.colours, stored, top,
                              triple(paper.chroma), learned.top_patterns, learned.set_contrast,
                              learned.glare_reach, learned.rim_check,
                              frozenset(model.points[i] for i in learned.mirror_points),
                              shadows, learned.palette,
                              frozenset(model.points[i] for i in learned.printed_points),
                              {model.points[i]: level
                               for i, level in learned.pale_mirrors.items()}, given,
                              learned.lamp_sets, take_surround(image, model, camera),
                              ring_middles(ring_pixels(layout), samples.top_view,
                                           np.arange(len(model.points)), samples.tops_paper),
                              tint)
    _check_read_as_start(config, calibration, image)
    return calibration


def _check_read_as_start(config: VisionConfig, calibration: Calibration,
                         image: np.ndarray) -> None:
    """Raise CalibrationFailed unless the reader, with ``calibration``, reads ``image`` as the
    start position, as the game will when it begins: the reader judges more than the start
    position's check does (paper beyond the grid, a piece brighter than the paper round it),
    and a calibration whose own image it cannot read would leave the game waiting for ever.
    """
    # The reader is built on a calibration, so it is imported here, when one exists.
    from vision.reader import BoardReader

    frame = BoardReader(calibration, config).read(image)
    start = BoardReading.of(start_position(calibration.size))
    if frame.reading == start or frame.fitting([start]) == start:
        return
    if frame.reading is not None:
        odd = (frame.reading.red ^ start.red) | (frame.reading.black ^ start.black)
        mask = np.array([odd >> point & 1 for point in frame.points], bool)
        read = np.array([LABELS.index(label) for label in frame.labels])
        hint = _other_set_hint(start_labels(calibration.size)[mask], read[mask])
        raise CalibrationFailed(f"the image does not show the start position (odd points: "
                                f"{_names(calibration.size, mask)}){hint}")
    if calibration.lamp_sets and frame.paper_clear:
        sets = " and ".join(sorted(label.name.lower() for label in calibration.lamp_sets))
        raise GlareOverlap(_lamp_mirrored(f"the glossy {sets} tops"))
    if not frame.paper_clear:
        raise CalibrationFailed(
            "something covers the board in the calibration image, or its light makes the "
            "sheet look like the pieces: clear the board, or light it more evenly")
    raise CalibrationFailed(
        "the pieces are read rightly but not surely: the light over the board is too uneven "
        "for the sets to be told apart everywhere; light the board more evenly, or use "
        "pieces that differ more")


def _clear_paper(config: VisionConfig, layout: SamplingLayout, samples: BoardSamples,
                 maps: ViewMaps, occupied: np.ndarray
                 ) -> tuple[PaperCheck, ShadowReach | None, PaperTint | None]:
    """The start position's paper check, the way and length of the pieces' shadows
    (``vision.shadows``) when it shows them, and the light's colour over the sheet
    (``vision.paper_tint``); raises CalibrationFailed when something covers the board. The
    paper samples are the same whichever disc the pieces are read over."""
    paper = check_paper(config, layout, samples, occupied, maps.cover,
                        edge_cover=maps.edge_cover)
    # A low lamp's long shadows, beyond the paper right beside the pieces: in frames they
    # fall wherever the pieces stand.
    shadows = learn_shadow_reach(layout.paper_grid, layout.point_grid, occupied,
                                 paper.shadow_depth, paper.judged, paper.beside)
    if shadows is not None:
        with_shadows = check_paper(config, layout, samples, occupied, maps.cover,
                                   shadow_reach=shadows, edge_cover=maps.edge_cover)
        if paper.is_clear and not with_shadows.is_clear:
            shadows = None
        else:
            paper = with_shadows
    if not paper.is_clear:
        # Where, so that a maker can look: in a few places often nothing but a piece set far
        # off its point, whose edge reaches the paper beside it; over many, uneven light.
        near = _nearest_points(layout, paper.covered)
        raise CalibrationFailed(
            "something covers the board in the calibration image " + (
                f"(by {_names(layout.size, near)}): clear it, or centre the pieces there"
                if near.sum() <= MAX_NAMED_COVERED else
                "(over much of it): clear it, or light it more evenly"))
    # Learned from paper that all looks like paper: a hand's colour is never in it.
    return paper, shadows, learn_paper_tint(layout, samples)


def _nearest_points(layout: SamplingLayout, cells: np.ndarray) -> np.ndarray:
    """(points,) the points nearest each of the paper samples ``cells`` (a mask)."""
    nearest = np.zeros(len(layout.point_grid), bool)
    for cell in layout.paper_grid[cells]:
        distances = np.linalg.norm(layout.point_grid - cell, axis=1)
        nearest |= distances <= distances.min() + 1e-6
    return nearest


class _StartPalette(NamedTuple):
    """The start position's tops by the colours they are made of (``vision.palette``)."""

    codes: np.ndarray
    """(points, p) each pixel's palette bin."""
    fits: np.ndarray
    """(points,) the points whose pixels fit their own label's palette, learned without
    them (``vision.palette.own_set_fits``)."""


def _start_palette(samples: BoardSamples, expected: np.ndarray) -> _StartPalette:
    """The start position's palette bins and fits (``expected`` its label indices). The tops'
    pixels and the paper round each point are the same whichever disc the pieces are read
    over, and whatever the start position's check lets pass: worked out once."""
    assert samples.palette_logs is not None and samples.tops_paper is not None
    codes = bin_codes(samples.palette_logs, paper_logs(samples.tops_paper))
    return _StartPalette(codes, own_set_fits(learn_palette(codes, expected), codes, expected))


class _Learned(NamedTuple):
    """What the start position's colours teach (see the fields of Calibration)."""

    colours: ColourModel
    top_patterns: dict[PointLabel, tuple[float, float, float]]
    set_contrast: SetContrast | None
    glare_reach: tuple[GlareReach, ...]
    rim_check: RimCheck | None
    mirror_points: tuple[int, ...]
    palette: Palette
    printed_points: tuple[int, ...]
    pale_mirrors: dict[int, float]
    lamp_sets: frozenset[PointLabel] = frozenset()


def _learn_any(config: VisionConfig, size: int, samples: BoardSamples, cover: np.ndarray,
               expected: np.ndarray, wide: frozenset[PointLabel], palette: _StartPalette
               ) -> _Learned:
    """What the start position's colours teach, read over the wider disc for the ``wide``
    sets or, failing that, over the narrower one; raises CalibrationFailed.

    The wider disc can make a set alike but the start position no clearer (a glossy set,
    say, whose wider samples reach a shadow): the narrower one may still do. A glossy top
    the glare moved part of the way to the other set's colour is let pass only when
    neither does without it, so a start position that fits as it is keeps the model it
    has always had; and the sets' colours are learned without such tops only when they
    cannot be learned with them.

    A set whose tops the lamp's reflection turns the paper's colour is learned from its
    other tops, which show its own (``vision.mirror_spot.lamp_split``), and the mirrored
    ones are left out as tops mirroring the lamp whole. Where that leaves more doubtful
    points than a frame may have, it is learned with them, as a set whose colour may be
    the lamp's (``Calibration.lamp_sets``): frames read its tops mirroring the lamp as
    doubtful between the sets.
    """
    discs = [wide, frozenset()] if wide else [frozenset()]
    assert samples.middle_relative is not None
    split = lamp_split(samples.features, samples.middle_relative, expected)
    # (The tops left out of their set's colour, and the lamp sets kept.)
    ways = [(split, frozenset[PointLabel]())]
    if split.any():
        ways.append((np.zeros_like(split), frozenset(LABELS[i] for i in expected[split])))
    failures: list[CalibrationFailed] = []
    for lamp_tops, lamp_sets in ways:
        failure: CalibrationFailed | None = None
        for tolerant, glared_left_out in ((False, False), (True, False), (True, True)):
            for disc in discs:
                try:
                    learned = _learn(config, size, samples, cover, expected, disc, palette,
                                     tolerant, lamp_tops, glared_left_out)
                except GlareOverlap as error:
                    failure = error
                    continue
                except CalibrationFailed as error:
                    if not tolerant:
                        failure = error
                    continue
                return learned._replace(lamp_sets=lamp_sets)
        assert failure is not None
        failures.append(failure)
    raise failures[-1]


def _learn(config: VisionConfig, size: int, samples: BoardSamples, cover: np.ndarray,
           expected: np.ndarray, wide: frozenset[PointLabel], palette: _StartPalette,
           tolerant: bool, lamp_tops: np.ndarray, glared_left_out: bool = False) -> _Learned:
    """What the start position's colours teach, with the ``wide`` sets read over the wider
    disc; raises CalibrationFailed. ``tolerant``: let a glossy top the glare moved part of
    the way to the other set pass (see _check_start_position). ``lamp_tops``: (points,) tops
    mirroring the lamp left out of their set's colour (see _check_start_position).
    ``glared_left_out``: learn the sets' colours without such tops (they still teach how
    far the glare reaches)."""
    occupied = expected != LABELS.index(PointLabel.EMPTY)
    layout = sampling_layout(config, size, wide)
    samples = judged_against_paper(layout, samples, cover, occupied)
    contrast = learn_set_contrast(samples.features, expected)
    assert samples.rim_relative is not None
    start = _check_start_position(config, samples.features, expected, size, contrast,
                                  samples.rim_relative, palette.fits, tolerant, lamp_tops)
    assert samples.middle_relative is not None
    patterns = {label: triple(np.median(samples.middle_relative[expected == index]
                                        - samples.features[expected == index, index, :3], axis=0))
                for index, label in enumerate(LABELS) if label in wide}
    # A top mirroring the lamp whole tells nothing of its set's colour, nor of its rims'
    # or of how far glare moves it, and a printed one seen off its point little: they are
    # left out (-1 is no label).
    mirrored = start.mirrored
    left_out = mirrored | start.patterned
    learning = np.where(left_out, -1, expected)
    # Learned with the tops the glare moved part of the way, a dark set's colour may spread
    # so far towards a pale set's that every pale piece is read unsurely. Without them, they
    # are read as the other set, and are doubtful in frames for as far as the glare reached.
    glared = (start.looked_like != expected) & ~left_out & glared_left_out
    colours = learn_colours(config, samples.features, np.where(glared, -1, learning))
    reread = classify(config, colours, samples.features)
    # Read as frames will be: glossy pieces the colours leave unsure may be confirmed.
    confidences = reread.confidences if contrast is None else confirmed(
        contrast, samples.features, reread, config.confident)
    confidences = confirmed_by_palette(np.where(palette.fits, expected, -1), reread.labels,
                                       confidences, config.confident)
    unsure = confidences < config.confident
    wrong = reread.labels != expected
    # A point read unsurely as another label that may still hold its own is doubtful in
    # frames later, as a point read rightly but unsurely is; so is one read as another
    # label whose pixels fit its own set's palette (the reader's palette check).
    told_by_palette = tolerant & wrong & palette.fits
    explained = (tolerant & wrong & unsure & np.array(
        [LABELS[label] in choices(reread, i) for i, label in enumerate(expected)])
        | told_by_palette)
    # Tops beside one mirroring the lamp whole may mirror it whole too, though the start
    # position's check found them near their set: read as bare paper that hides its
    # cross, where the lamp's reflection may reach (vision.mirror_spot), they are taken
    # for a piece of either set there, as frames will take them.
    if mirrored.any():
        mirrored = mirrored | (tolerant & mirrored_whole(samples.features, expected, reread.labels)
                               & spot(layout.point_grid, mirrored))
        left_out = left_out | mirrored
    odd = ~left_out & ((wrong & ~explained)
                       | (~wrong & (confidences < LEAST_CALIBRATION_CONFIDENCE)))
    # Points read rightly but unsurely (glossy tops catching the lamp, printed tops at the
    # edge of a spotlight's cone) are doubtful in frames later, never wrong, and read from
    # the game: as many as a frame may have, or the start position itself could not be.
    # So are the tops mirroring the lamp whole, which may hold either set.
    if not odd.any() and not few_enough([
            PIECE_LABELS if left_out[i] else choices(reread, int(i))
            for i in np.flatnonzero(unsure | left_out)]):
        if not (unsure & ~mirrored).any():
            raise GlareOverlap(_lamp_mirrored(f"the glossy tops at {_names(size, mirrored)}"))
        raise CalibrationFailed(
            f"the pieces are read rightly but not surely (at {_names(size, unsure)}): "
            f"{_alike(reread, unsure)} look too much alike in this light; use pieces that "
            "differ more, or light the board more evenly")
    if np.any(odd):
        raise CalibrationFailed(
            f"the image does not show the start position clearly (odd points: "
            f"{_names(size, odd)})"
        )
    assert samples.round_relative is not None
    mirrored_set = mirrored_pale_set(colours.means, samples.round_relative, learning)
    if mirrored_set is not None:
        # Its colour is the lamp's: a glossy top of the other set under the lamp would look
        # the same, and nothing in a frame would tell them apart.
        pale, other = (label.name.lower() for label in mirrored_set)
        raise GlareOverlap(
            f"the {pale} pieces look pale only because a lamp is mirrored in their glossy "
            f"tops (their rims are dark), and a {other} piece there would look the same: "
            "move or dim the lamp, or use pieces with matt tops")
    return _Learned(colours, patterns, contrast,
                    learn_glare_reach(colours.means, samples.features, learning, start.looked_like),
                    learn_rim_check(colours.means, samples.rim_relative, learning,
                                    samples.round_relative),
                    tuple(int(i) for i in np.flatnonzero(mirrored)),
                    learn_palette(palette.codes, np.where(mirrored, -1, expected)),
                    tuple(int(i) for i in np.flatnonzero(start.patterned | told_by_palette)),
                    pale_mirrors(samples.middle_relative,
                                 np.isin(expected, pale_labels(config, colours))))


def wide_tops(samples: BoardSamples, expected: np.ndarray) -> frozenset[PointLabel]:
    """The piece sets to read over the wider disc: those whose pieces look alike there and
    not in the narrower one.

    A top printed with a ring and a dot puts the ring right where the narrower disc reads
    it, and a piece a little off its point shows more or less of it: the set's colour
    then varies from piece to piece more than between sets. Over the wider disc each
    sample holds more of the whole pattern. A plain set keeps the narrower disc, which
    reaches less of the paper and the shadows beside a piece set down off its point.
    A set goes wide when its pieces spread much less there (``WIDE_TOP_GAIN``), and either
    spread widely in the narrower disc or have patterned tops (``PATTERNED_TOP``); glossy
    tops mirroring a lamp look patterned too, and lose more than they gain on the wider
    disc unless it makes them plainly more alike. The spread of a set is
    the 90th percentile of its pieces' distances (log colour) from their median.

    ``samples`` are of the start position ``expected``, taken with every piece set over the
    wider disc: their features hold the wider disc's colours, ``relative`` the narrower's.
    """
    assert samples.middle_relative is not None
    chosen = set()
    for index, label in enumerate(LABELS):
        if label is PointLabel.EMPTY:
            continue
        narrow, wide = (_spread(colours[expected == index])
                        for colours in (samples.relative, samples.features[:, index, :3]))
        pattern = float(np.median((samples.middle_relative - samples.relative)[
            expected == index].max(axis=1)))
        if wide <= WIDE_TOP_GAIN * narrow and (narrow >= WIDE_TOP_SPREAD
                                               or pattern >= PATTERNED_TOP):
            chosen.add(label)
    return frozenset(chosen)


def _spread(colours: np.ndarray) -> float:
    return float(np.quantile(np.linalg.norm(colours - np.median(colours, axis=0), axis=1),
                             0.9))


def _calibrate_drawn_board(config: VisionConfig, image: np.ndarray,
                           piece_height: float | None) -> Calibration:
    """Calibrate a board without markers found by its lines and loops (``vision.find_board``),
    its corners kept as if clicked. Of the ways round that put the start position's pieces
    on ranks, rank 1 nearer the image's bottom is tried first; the other way is tried only
    when that fails (the ranks told wrongly from the files)."""
    found = find_board(image)
    if found is None:
        raise CalibrationFailed("no board found in the image (no markers, and no board's "
                                "lines and loops)")
    turns = rank_turns(found, image)
    failure: CalibrationFailed | None = None
    for turn in (turns[0], turns[2]):
        try:
            return calibrate(config, image, found.corners(turn), found.size, piece_height)
        except CalibrationFailed as error:
            failure = failure or error
    assert failure is not None
    raise failure


def _camera_from_markers(config: VisionConfig,
                         image: np.ndarray) -> tuple[int, CameraModel] | None:
    """The board's size and the camera from its markers; None when the image shows none."""
    found = detect_markers(config, image)
    sizes = [s for s in (size_of_marker(marker) for marker in found) if s is not None]
    if not sizes:
        return None
    size = max(set(sizes), key=sizes.count)
    model = board_model(size)
    height, width = image.shape[:2]
    first = fit_marker_camera(model, found, (width, height))
    if first is None:
        raise CalibrationFailed(
            f"no board found in the image (only {sizes.count(size)} of its 4 markers fit "
            "together)"
        )
    sheet, pixels = marker_points(model, found, first[1])
    fitted = fit_camera(model, image, sheet, pixels, first[0])
    side = float(np.linalg.norm(pixels[1] - pixels[0]))
    if fitted is None or fitted[1] > MARKER_RMS_TOLERANCE * side:
        raise CalibrationFailed("no board found in the image (its markers do not fit a lens)")
    return size, fitted[0]


def _piece_height(layout: SamplingLayout, model: BoardModel, camera: CameraModel,
                  image: np.ndarray, expected: np.ndarray) -> float:
    """The height at which the start position's pieces show their tops as even discs.

    Seen from nearly straight above, a top at any height lands nearly on its point, so
    the image cannot tell the height and it hardly matters: the paper's (0) is kept.
    """
    # Where the camera sees the board most from the side is where the height shows, and
    # where it matters.
    if _parallax(model, camera, PARALLAX_PROBE_MM) < MIN_PARALLAX_PITCHES:
        return 0.0
    pieces = layout.point_pixels[expected != LABELS.index(PointLabel.EMPTY)]
    spreads = []
    for height in TOP_HEIGHTS_MM:
        view = remap(image, view_maps(layout, model, camera, height).tops)
        discs = view.reshape(-1, 3).astype(np.float32)[pieces]  # (pieces, pixels, 3)
        middle = np.median(discs, axis=1, keepdims=True)
        # The upper quartile of the deviations: a glint covers a tenth of a top and is
        # ignored, while a disc a quarter off the top (side, paper) shows.
        deviation = np.quantile(np.abs(discs - middle).mean(axis=2), 0.75, axis=1)
        spreads.append(float(np.mean(deviation / np.maximum(middle.mean(axis=(1, 2)), 1.0))))
    # The lowest height of a near tie: seen from straight above, height hardly matters.
    close = np.flatnonzero(np.array(spreads) <= min(spreads) * HEIGHT_TIE)
    return TOP_HEIGHTS_MM[int(close[0])]


def _piece_heights(layout: SamplingLayout, model: BoardModel, camera: CameraModel,
                   image: np.ndarray, expected: np.ndarray) -> Iterator[float]:
    """The heights to read the start position's tops at, the one judged best first
    (``_piece_height``); then, where tall pieces would stand visibly off their points,
    every other, from the height of common pieces (``COMMON_HEIGHT_MM``) outwards, the
    lower of two as near first.

    How even the tops look misjudges ringed, printed, domed or textured tops: seen 15 to 35
    degrees from above, shells 6.8 mm tall were read at the paper, where each disc took in
    a white shell's shaded side, and the start position was refused as "the two piece sets
    look alike"; ringed tops 4 mm tall were read at 2 mm and refused for odd points.
    A calibration that succeeds at the judged height is kept as it was; the others are
    tried only when it fails, and pass every check the first one must. Tops read at the
    wrong height are read off the pieces in every frame, and a height that misjudged once
    is a poor guide to the next: printed tops 4.6 mm tall seen 18 degrees from above,
    judged at 2 mm and refused for odd points, passed at 10 mm, where the two sets looked
    most apart, and none of the setup's four frames was read; at 5 mm three were.
    Printed tops 5.6 mm tall seen 39 degrees from above were judged at 10 mm.
    """
    first = _piece_height(layout, model, camera, image, expected)
    yield first
    if _parallax(model, camera, RETRY_PROBE_MM) < MIN_PARALLAX_PITCHES:
        return
    yield from sorted((height for height in TOP_HEIGHTS_MM if height != first),
                      key=lambda height: (abs(height - COMMON_HEIGHT_MM), height))


def _parallax(model: BoardModel, camera: CameraModel, height: float) -> float:
    """How far (pitches) a top ``height`` mm tall stands off its point in the image, at the
    board's most slanted tenth: where the camera sees the board most from the side (its
    far points, or the edges of a wide lens's view)."""
    points = np.array([model.point_mm(p) for p in model.points])
    shift = np.quantile(np.linalg.norm(camera.project_sheet(points, height)
                                       - camera.project_sheet(points), axis=1), 0.9)
    pitch = np.linalg.norm(camera.project_sheet(points[1:2]) - camera.project_sheet(points[:1]))
    return float(shift / pitch)


def _lamp_mirrored(tops: str) -> str:
    """The refusal of a start position whose ``tops`` (in words) mirror a lamp whole."""
    return (f"a lamp is mirrored in {tops}: they look like the sheet, and a piece of either "
            "set there would look the same; move or dim the lamp, or use pieces with matt "
            "tops")


def _alike(result: Classification, unsure: np.ndarray) -> str:
    """What the ``unsure`` points were most often torn between, in words."""
    pairs = Counter(frozenset(LABELS[i] for i in np.argsort(distances)[:2])
                    for distances in result.distances[unsure])
    pair = pairs.most_common(1)[0][0]
    if PointLabel.EMPTY not in pair:
        return "the two sets"
    (piece,) = pair - {PointLabel.EMPTY}
    return f"the {piece.name.lower()} pieces and the sheet"


def _faint_lines(features: np.ndarray, expected: np.ndarray) -> bool:
    """Whether the start position ``expected``'s bare points show hardly any printed line
    (``features`` as ``BoardSamples.features``): a lamp burning the sheet white, or a
    picture out of focus, not the pieces' fault."""
    empty = LABELS.index(PointLabel.EMPTY)
    return float(np.median(features[expected == empty, empty, 3])) < FAINT_LINES


def _other_set_hint(expected: np.ndarray, looked_like: np.ndarray) -> str:
    """A hint for a refused start position whose odd points all hold a piece that looks like
    the other set (``expected`` and ``looked_like`` their labels): a piece of the wrong set,
    or glossy tops mirroring a lamp, which a person tells by their rims."""
    empty = LABELS.index(PointLabel.EMPTY)
    if not len(expected) or (expected == empty).any() or (looked_like == empty).any():
        return ""
    return ("; if the pieces there are right, the light makes them look like the other set "
            "(a lamp mirrored in glossy tops): move or dim the lamp, or use pieces with matt "
            "tops")


MAX_NAMED_COVERED = 8
"""Most points named beside the paper that looks covered at calibration; more is said as
"much of" the board."""


def _names(size: int, mask: np.ndarray) -> str:
    return " ".join(point_name(board_model(size).points[i]) for i in np.flatnonzero(mask))


class _StartCheck(NamedTuple):
    """What the start position's check found of the points it let pass."""

    looked_like: np.ndarray
    """(points,) the label each point looks most like where that is let pass (a glossy top
    greyed by a lamp, nearer the other set), its own elsewhere."""
    mirrored: np.ndarray
    """(points,) the pieces whose glossy tops mirror the lamp whole
    (``vision.mirror_spot``)."""
    patterned: np.ndarray
    """(points,) the pieces whose colour looked like another label's but whose pixels fit
    their own set's palette (``vision.palette``): printed tops seen off their points."""


def _check_start_position(config: VisionConfig, features: np.ndarray, expected: np.ndarray,
                          size: int, contrast: SetContrast | None, rims: np.ndarray,
                          palette_fits: np.ndarray, tolerant: bool,
                          lamp_tops: np.ndarray) -> _StartCheck:
    """Raise CalibrationFailed unless every point of ``features`` looks like its label of the
    start position ``expected``; ``contrast`` is the sets' contrast learned from them,
    ``rims`` their rims (``BoardSamples.rim_relative``), ``palette_fits`` the points whose
    pixels fit their own set's palette (``vision.palette.own_set_fits``). ``tolerant`` lets a
    glossy top the glare moved part of the way to the other set pass, one mirroring the lamp
    whole, or a printed one whose palette is its set's. ``lamp_tops`` (points,) are tops
    mirroring the lamp of a set whose other tops show its own colour
    (``vision.mirror_spot.lamp_split``): they say nothing of their set's colour, and are
    taken as mirroring the lamp whole."""
    medians = np.stack([np.median(features[(expected == i) & ~lamp_tops, i], axis=0)
                        for i in range(len(LABELS))])
    empty, red, black = (LABELS.index(label) for label in
                         (PointLabel.EMPTY, PointLabel.RED, PointLabel.BLACK))
    colour = slice(0, 3)
    for what, piece in (("red", red), ("black", black)):
        # Pieces near the paper's colour must make up with the printed cross they hide: a
        # cream set a little yellower than the paper, on a board whose lines are faint.
        colour_gap = np.linalg.norm(medians[piece, colour] - medians[empty, colour])
        cross_gap = medians[empty, 3] - medians[piece, 3] if medians[piece, 3] <= PALE_CROSS \
            else 0.0
        if np.hypot(colour_gap / MIN_LABEL_SEPARATION, cross_gap / PALE_BARE_CROSS) < 1.0:
            raise CalibrationFailed(
                f"the image does not show the start position (the {what} pieces look like "
                "bare paper: use pieces that stand out from the sheet, or check the setup)"
            )
    set_gap = float(np.linalg.norm(medians[red, colour] - medians[black, colour]))
    both_pale = all(float(np.linalg.norm(medians[piece, colour] - medians[empty, colour]))
                    < PALE_SET for piece in (red, black))
    if set_gap < MIN_SET_SEPARATION or (both_pale and set_gap < PALE_SETS_SEPARATION):
        raise CalibrationFailed(
            "the two piece sets look alike to the camera: use pieces that differ more in "
            "colour or brightness (for example dark against light), or more light"
        )
    # Each point must be nearer its own label's median than any other's, in colour and cross
    # more than in brightness: glossy pieces under a lamp differ most in how bright they are.
    # The cross counts for a set as much as the colour model lets it (piece_cross_floor): a
    # set far from the paper's colour may show lines (a printed pattern, an arm uncovered).
    cross_weights = np.array([
        CROSS_WEIGHT if label is PointLabel.EMPTY else CROSS_WEIGHT * config.cross_floor
        / piece_cross_floor(config, float(np.linalg.norm(medians[index, colour]
                                                         - medians[empty, colour])))
        for index, label in enumerate(LABELS)])[:, None]

    def weighed(values: np.ndarray) -> np.ndarray:
        brightness = values[..., :3].mean(axis=-1, keepdims=True)
        return np.concatenate([values[..., :3] - brightness, BRIGHTNESS_WEIGHT * brightness,
                               cross_weights * values[..., 3:]], axis=-1)

    differences = weighed(features) - weighed(medians)[None]
    # Darker than the darkest set is no nearer any other label: a dark piece outside a
    # spotlight's cone is darker still, never paper.
    darkest = int(medians[:, :3].mean(axis=1).argmin())
    brightness = 3  # the weighed features: chroma (three), brightness, cross
    differences[:, darkest, brightness] = np.maximum(differences[:, darkest, brightness], 0.0)
    distances = np.linalg.norm(differences, axis=2)
    # As in reading, a dark point hiding its cross is no bare paper in shadow: a dark set
    # with a printed pattern varies in colour more than its median says.
    distances[dark_without_cross(config, features), empty] = np.inf
    nearest = distances.argmin(axis=1)
    points = np.arange(len(expected))
    # A point is odd when it lies plainly nearer another label than its own: past
    # PLAINLY_OTHER of the way from its own label's median to the other's. A glossy top
    # mirroring a lamp lies half way (a black top greyed, a red one washed pale), and the
    # reader will call it doubtful, which the game reads; a piece of the other set, a missing
    # piece or one too many lies all the way.
    apart = np.linalg.norm(weighed(medians)[expected] - weighed(medians)[nearest], axis=1)
    own, other = distances[points, expected], distances[points, nearest]
    with np.errstate(invalid="ignore", divide="ignore"):
        along = (own**2 - other**2 + apart**2) / (2 * apart**2)
    unlike = nearest != expected
    if contrast is not None:
        # A piece nearer the other set's median whose excess says plainly which set it is
        # (a glossy or printed top the lamp lights unevenly) fits the start position.
        unlike &= ~((nearest != empty) & on_own_side(contrast, features, expected))
    # Glare moves a top towards the other set, not to bare paper, which shows its cross.
    odd = unlike & ~(tolerant & (along <= PLAINLY_OTHER) & (nearest != empty))
    # A glossy top mirroring the lamp whole looks like paper, but hides the cross; a dark
    # one looks like the pale set, but keeps its dark rim. (One the glare moved only part
    # of the way passed above: it teaches how far the glare reaches.)
    mirrored = lamp_tops | (tolerant & odd & (
        mirrored_whole(features, expected, nearest)
        | _pale_looking_dark(medians, rims, expected, nearest)))
    odd &= ~mirrored
    # A printed top off its point shows more or less of its print; the colours it is made
    # of still say which set it is (a missing piece's or another set's do not). Whether it
    # looks plainly like another label or only part of the way, it is no glare: glare
    # moves a top's colours off its palette.
    patterned = tolerant & unlike & ~mirrored & palette_fits
    odd &= ~patterned
    if np.any(odd):
        raise CalibrationFailed(
            f"the image does not show the start position (odd points: {_names(size, odd)})"
            f"{_other_set_hint(expected[odd], nearest[odd])}"
        )
    return _StartCheck(np.where(unlike & ~mirrored & ~patterned, nearest, expected), mirrored,
                       patterned)


def _pale_looking_dark(medians: np.ndarray, rims: np.ndarray, expected: np.ndarray,
                       nearest: np.ndarray) -> np.ndarray:
    """(points,) the start position's pieces of a dark set that look like the pale set
    (``nearest``) but whose rims are dark (``vision.rims``); ``medians`` (labels, 3+) the
    labels' colours."""
    check = learn_rim_check(medians, rims, expected)
    if check is None:
        return np.zeros(len(expected), bool)
    result: np.ndarray = (expected == LABELS.index(check.dark)) & dark_rimmed(check, rims,
                                                                              nearest)
    return result


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
        data = json.loads(text)
        if isinstance(data, dict) and data.get("format") == FORMAT and data.get("version") == 1:
            # The first files held a homography and no lens: nothing to convert them from.
            raise BadCalibration(f"calibration file from an older version: {str(path)!r} "
                                 "(run surakarta calibrate again)")
        return _calibration_from_json(data)
    except BadCalibration:
        raise
    except (ValueError, KeyError, TypeError, IndexError, RecursionError) as error:
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
    camera = CameraModel.from_json(data["camera"])
    piece_height = float(data.get("piece_height", 0.0))
    if not piece_height_allowed(piece_height):
        raise ValueError(f"bad piece height {piece_height!r}")
    piece_height_given = data.get("piece_height_given", False)
    if type(piece_height_given) is not bool:
        raise ValueError(f"bad piece height given {piece_height_given!r} (expected true or "
                         "false)")
    corners_data = data.get("corners")
    corners = None
    if corners_data is not None:
        array = np.asarray(corners_data, np.float64).reshape(4, 2)
        if not np.all(np.isfinite(array)):
            raise ValueError("bad corners")
        corners = tuple((float(x), float(y)) for x, y in array)
    chroma_data = data.get("paper_chroma")
    paper_chroma = None
    if chroma_data is not None:
        chroma = np.asarray(chroma_data, np.float64).reshape(3)
        if not np.all(np.isfinite(chroma)):
            raise ValueError("bad paper chroma")
        paper_chroma = triple(chroma)
    contrast_data = data.get("set_contrast")
    contrast = None if contrast_data is None else SetContrast.from_json(contrast_data)
    reach_data = data.get("glare_reach", [])
    if not isinstance(reach_data, list):
        raise ValueError("glare reach is not a list")
    reach = tuple(GlareReach.from_json(item) for item in reach_data)
    rim_data = data.get("rim_check")
    rims = None if rim_data is None else RimCheck.from_json(rim_data)
    mirrors = _points_named(data, "mirror_points", size)
    shadow_data = data.get("shadow_reach")
    shadows = None if shadow_data is None else ShadowReach.from_json(shadow_data)
    palette_data = data.get("palette")
    palette = None if palette_data is None else Palette.from_json(palette_data)
    surround_data = data.get("surround")
    surround = None if surround_data is None else SheetSurround.from_json(
        surround_data, board_model(size))
    start_tops = _start_tops(data.get("start_tops"), size)
    tint_data = data.get("paper_tint")
    tint = None if tint_data is None else PaperTint.from_json(tint_data)
    return Calibration(size, camera, ColourModel.from_json(data["colours"]), corners,
                       piece_height, paper_chroma, _top_patterns(data.get("top_patterns", {})),
                       contrast, reach, rims, mirrors, shadows, palette,
                       _points_named(data, "printed_points", size),
                       _pale_mirrors(data.get("pale_mirrors", {}), size), piece_height_given,
                       _lamp_sets(data.get("lamp_sets", [])), surround, start_tops, tint)


MAX_TOP_LOG = 10.0
"""Largest size of a number in ``Calibration.start_tops`` a calibration file may hold."""


def _start_tops(data: object, size: int) -> np.ndarray | None:
    """``Calibration.start_tops`` from a calibration file (None when it has none)."""
    if data is None:
        return None
    try:
        tops = np.asarray(data, np.float64)
    except (TypeError, ValueError) as error:
        raise ValueError("bad start tops: not a table of numbers") from error
    # Logs of a top's colour against the paper's: an 8-bit image keeps them within 6.
    if tops.shape != (size * size, 6) or not np.all(np.abs(tops) <= MAX_TOP_LOG):
        raise ValueError(f"bad start tops: expected {size * size} rows of 6 numbers "
                         f"within ±{MAX_TOP_LOG:g}")
    return tops.astype(np.float32)


def _points_named(data: dict[str, object], key: str, size: int) -> frozenset[Point]:
    """The points a calibration file lists by name under ``key`` (none when it has no such
    list: files written before it was kept)."""
    names = data.get(key, [])
    if not isinstance(names, list) or not all(isinstance(name, str) for name in names):
        raise ValueError(f"{key.replace('_', ' ')} are not a list of point names")
    return frozenset(parse_point(name, size) for name in names)


def _pale_mirrors(data: object, size: int) -> dict[Point, float]:
    if not isinstance(data, dict) or not all(
            isinstance(name, str) and isinstance(level, (int, float)) and np.isfinite(level)
            for name, level in data.items()):
        raise ValueError(f"bad pale mirrors {data!r}")
    return {parse_point(name, size): float(level) for name, level in data.items()}


def _lamp_sets(data: object) -> frozenset[PointLabel]:
    if not isinstance(data, list) or not all(
            isinstance(key, str) and key in PIECE_LABEL_OF for key in data):
        raise ValueError(f"bad lamp sets {data!r}")
    return frozenset(PIECE_LABEL_OF[key] for key in data)


def _top_patterns(data: object) -> dict[PointLabel, tuple[float, float, float]]:
    if not isinstance(data, dict) or not all(key in PIECE_LABEL_OF for key in data):
        raise ValueError(f"bad top patterns {data!r}")
    patterns: dict[PointLabel, tuple[float, float, float]] = {}
    for key, shift in data.items():
        try:
            array = np.asarray(shift, np.float64)
        except (TypeError, ValueError):
            array = np.zeros(0)
        if array.shape != (3,) or not np.all(np.isfinite(array)):
            raise ValueError(f"bad top pattern {shift!r}")
        patterns[PIECE_LABEL_OF[key]] = triple(array)
    return patterns
