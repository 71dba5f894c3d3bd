"""The per-frame pipeline: locate, sample, check the paper, classify, and say how it went.

A :class:`FrameReading` always has a status; it carries a ``BoardReading`` only when
the status is ``OK``, which needs the board located, every paper sample clear and
every point confident. Anything else is ``DOUBTFUL`` (the paper is clear but a point
or two fit no label well: a piece between two points, to be centred), ``OCCLUDED``
(a hand, a shadow too deep to trust, the sheet round the grid changed by an arm reaching
in), ``NO_BOARD`` (no markers) or ``BOARD_MOVED`` (the board or camera moved, or a board
without markers cannot be found where it was). Per-point labels and confidences are kept
even when the frame is not OK, for the debug image and for lighting the doubtful points.

The reader is the only stateful part: it keeps the locator's last place, the colour
model, which it nudges towards every fully confident frame (slow light change), and its
view of the sheet round the grid, which it follows likewise (``vision.surround``). Stages
stay functions of ``(config, ...)``.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, replace
from enum import Enum
from math import isqrt

import numpy as np

from controller.geometry import Point, bit
from controller.position import Color
from controller.reading import BoardReading
from vision.calibrate import Calibration, start_labels
from vision.camera import CameraModel
from vision.colour import (
    LABELS,
    PIECE_LABELS,
    SHADOW_DEEPEST,
    Classification,
    ColourModel,
    PointLabel,
    adapt,
    among,
    classify,
    classify_in_frame,
    lines_on_paper,
    pale_labels,
    piece_share,
    sharp_level,
)
from vision.config import VisionConfig
from vision.doubt import choices as choices_of
from vision.doubt import few_enough, with_also
from vision.errors import BadImage
from vision.glare_reach import glared_from
from vision.locate import BoardLocator, LocationStatus
from vision.mirror_spot import (
    FRAME_MIRROR_CHROMA,
    MIRROR_BRIGHTER,
    SPOT_BRIGHTER,
    dimmer_than_pale_mirror,
    hides_cross,
    mirror_choices,
    mirrors_lamp,
    of_paper_chroma,
    spot,
)
from vision.palette import (
    AGREEING,
    LEANING,
    SURE,
    agreeing,
    bin_codes,
    leaning_sets,
    overruled,
    paper_logs,
    scores,
    set_on_bare,
    settled,
    the_set_besides,
    verdicts,
)
from vision.palette import confirmed as confirmed_by_palette
from vision.paper import check_paper
from vision.presence_net import PRESENCE_SURE, shipped_presence_net
from vision.reductions import channel_mean, channel_norm, median_along
from vision.rims import dark_all_round, dark_rimmed, surely_dark
from vision.sampling import (
    CROSS_FULL,
    BoardSamples,
    ViewMaps,
    judged_against_paper,
    sample_board,
    sampling_layout,
    view_maps,
    wide_cross,
)
from vision.set_contrast import DISPUTED, confirmed, disputed, on_own_side
from vision.set_forest import FrameTops, SetPatterns, pale_and_dark
from vision.set_net import patches, point_inputs
from vision.shadows import DEEPEST_MARGIN, shadowed_cells
from vision.surround import SurroundMap, SurroundWatch, surround_map

LIT_PAPER = 0.3
"""Most a point read as a piece of a set unlike the paper may be brighter (log) than the
paper round it (see BoardReader._brighter_than_paper). Measured on room renders (seeds 12,
14, 21, 22): such pieces at most 0.20 brighter (21,790 of them), bare points at most 0.35,
and the bare point a low lamp lit between the pieces' shadows 0.55."""
SPLIT_TOP = 0.2
"""Least difference (log colour) between a top's median and its darker part for the median
to be read too."""
PALE_UNDER_ANOTHER = 0.5
"""Most of the sample of a point read as a pale piece that may look like another piece
(a pale piece's own side and shadow are grey, and count for some)."""
PALE_DARKENED = 0.2
"""How much darker (log) than its set a pale top may look before it is taken for a mix."""
ADAPTED_FRAMES = 4
"""Confident frames blended into the colour model before it is read with (see _adapt)."""
PALE_LINES = 0.5
"""Share of a plain cross's contrast that, looked for farther across, makes a pale piece
doubtful."""
LOCAL_CROSS_GAIN = 1.5
"""Most a point's cross is raised to the level the bare points round it show (see
BoardReader._cross_at_local_level)."""
LOCAL_CROSS_POINTS = 2
"""Least sure bare points within two steps for their level to count."""
PATTERN_AGAINST_PALETTE = 1.0
"""Least mean log-likelihood ratio per pixel by which a point's pixels favouring the other
set's palette keep the set forest from telling its set (``vision.set_forest``). Blender
seed 3701, rendered after the forest was trained, showed a white top under a low lamp whose
long blue shadow covered its point: all the trees said black, its pixels favoured white's
palette by 1.17, and the board was read wrongly. Of the 249 pieces the forest told held out
on twenty-six render sets (as ``vision.set_forest.SURE_SHARE`` is judged), none wrongly, 5
favoured the other set's palette by this much. (On the sets it was trained on, where it
tells far more, glossy tops mirroring a lamp among them, 42 of 5,758 frames read before
are left to the game.) Where the set networks are sure of the set told as well, the two
pattern witnesses stand against the palette's one: on four Blender seeds no model was
trained on (4201 to 4501), the palette stood against five of the 82 sets the forest and
networks told, all five told rightly (glossy tops mirroring a pendant lamp, which favour the
palette of the set whose start tops half mirrored it; a brown top a spotlight lightened),
and the networks were sure of all five; the white top of seed 3701 it was kept for gets
0.62 of their word for white, and stays doubtful."""
CORNER_SHARE = 0.5
"""Least share of a corner point's disc whose pixels look like a piece for it to hold that
piece, its lines showing (see ``BoardReader.read``)."""
_EMPTY = LABELS.index(PointLabel.EMPTY)
LABEL_OF_COLOUR = {Color.RED: PointLabel.RED, Color.BLACK: PointLabel.BLACK,
                   None: PointLabel.EMPTY}
"""The label a point holding a piece of each colour (or none) is read as."""
_PIECES = [index for index in range(len(LABELS)) if index != _EMPTY]
_OTHER_SET = np.array([_PIECES[1] if index == _PIECES[0] else _PIECES[0] if index == _PIECES[1]
                       else index for index in range(len(LABELS))])
"""Each label index's other piece set (bare paper's is its own)."""


class ReadStatus(Enum):
    """How a frame went."""

    OK = "ok"
    DOUBTFUL = "doubtful"
    OCCLUDED = "occluded"
    NO_BOARD = "no board"
    BOARD_MOVED = "board moved"


@dataclass(frozen=True, slots=True)
class FrameReading:
    """What one frame showed."""

    status: ReadStatus
    """OK only when ``reading`` can be trusted."""
    reading: BoardReading | None
    """The board, present exactly when the status is OK."""
    points: tuple[Point, ...] = ()
    """The points, a1 first (empty when the board was not located)."""
    labels: tuple[PointLabel, ...] = ()
    """Best label of each point."""
    confidences: tuple[float, ...] = ()
    """Confidence of each label, 0..1."""
    homography: np.ndarray | None = None
    """Sheet mm to (undistorted) image pixels for this frame."""
    image_points: np.ndarray | None = None
    """(points, 2) where each point's piece top is in the image, lens included."""
    doubtful: tuple[Point, ...] = ()
    """Points that fit no label well, when the paper round them is clear (``DOUBTFUL``)."""
    choices: tuple[tuple[PointLabel, ...], ...] = ()
    """For each doubtful point, in order, the labels it may hold: those its colour fits
    nearly as well as its best, when only its colour left it unsure; the two labels the two
    parts of a split top tell; its piece or bare paper, for a piece brighter than the paper
    round it or a pale one whose cross shows a little farther across; both sets, for a top
    a lamp's glare may have made look like the other set, or read surely as one set whose
    pixels fit the other set's palette (``vision.palette``; read unsurely, it is of the set
    its palette tells); none when something else did (a piece set down between points, a
    pale piece over another)."""
    paper_clear: bool = False
    """Whether all the bare paper looked like paper."""
    markers_seen: int = 0
    """Markers detected or confirmed (0 for a board without markers)."""

    @property
    def is_ok(self) -> bool:
        """Whether the frame gave a trustworthy reading."""
        return self.status is ReadStatus.OK

    def fitting(self, boards: Iterable[BoardReading]) -> BoardReading | None:
        """The one board of ``boards`` a doubtful frame can show, or None.

        A board fits when every sure point holds what was read there and every doubtful
        point one of its ``choices``. The game knows what the board may show next (the
        position, or the position after a legal move): a frame left doubtful by a glossy
        top mirroring a lamp then still shows which, as long as exactly one fits. None
        when the frame is not doubtful, when a doubtful point has no choices, and when no
        board or more than one fits.
        """
        if (self.status is not ReadStatus.DOUBTFUL or not self.doubtful
                or len(self.choices) != len(self.doubtful) or not all(self.choices)):
            return None
        read, sure = self._sure_reading()
        found: BoardReading | None = None
        for board in boards:
            if not self._allows(board, read, sure):
                continue
            if found is not None and found != board:
                return None
            found = board
        return found

    def allows(self, board: BoardReading) -> bool:
        """Whether a doubtful frame may show ``board``: every sure point holds what was
        read there, and every doubtful point one of its ``choices`` (anything, where it has
        none). A doubtful frame that does not allow the true board could only be fitted to
        a wrong one."""
        return self.status is ReadStatus.DOUBTFUL and self._allows(board, *self._sure_reading())

    def _sure_reading(self) -> tuple[BoardReading, int]:
        """The board as read, and the bits of the points read surely."""
        read = _board_reading(self.points, self.labels, isqrt(len(self.points)))
        return read, ~sum(map(bit, self.doubtful))

    def _allows(self, board: BoardReading, read: BoardReading, sure: int) -> bool:
        if (board.size != read.size or (board.red & sure, board.black & sure)
                != (read.red & sure, read.black & sure)):
            return False
        return all(not labels or LABEL_OF_COLOUR[board.piece_at(point)] in labels
                   for point, labels in zip(self.doubtful, self.choices, strict=True))

    def label_at(self, point: Point) -> PointLabel:
        """The label read on ``point``; raises KeyError when the point was not read."""
        try:
            return self.labels[self.points.index(point)]
        except ValueError:
            raise KeyError(point) from None


_STATUS_OF_LOCATION = {
    LocationStatus.MOVED: ReadStatus.BOARD_MOVED,
    LocationStatus.PARTLY_HIDDEN: ReadStatus.OCCLUDED,
    LocationStatus.NOT_FOUND: ReadStatus.NO_BOARD,
}


@dataclass(frozen=True, slots=True)
class _PoseTables:
    """What is computed once per camera pose."""

    camera: CameraModel
    maps: ViewMaps
    homography: np.ndarray
    image_points: np.ndarray
    surround: SurroundMap


class BoardReader:
    """Reads frames of one calibrated board, one after the other."""

    def __init__(self, calibration: Calibration, config: VisionConfig | None = None,
                 tell_sets_by_pattern: bool = True) -> None:
        """``tell_sets_by_pattern`` False leaves the set forest and the networks out
        (``vision.set_forest``, ``vision.set_net``, ``vision.presence_net``): their training
        reads frames as the reader would without them."""
        self.config = config or VisionConfig()
        self._tell_sets_by_pattern = tell_sets_by_pattern
        self.calibration = calibration
        self._model = calibration.model
        self._layout = sampling_layout(self.config, calibration.size, calibration.wide_tops,
                                       rims=calibration.rim_check is not None,
                                       palette=calibration.palette is not None)
        self._locator = BoardLocator(self.config, self._model, calibration.camera,
                                     fixed=not calibration.uses_markers)
        self._pose: _PoseTables | None = None
        self.colours: ColourModel = calibration.colours
        """The colour model, as adapted to the light so far (every few confident frames)."""
        self._adapting = calibration.colours
        self._frames_adapted = 0
        self._paper_chroma = (None if calibration.paper_chroma is None
                              else np.array(calibration.paper_chroma))
        self._last_occupied: np.ndarray | None = None
        """Points the last frame located read as holding a piece."""
        self._surround = (None if calibration.surround is None
                          else SurroundWatch.of(calibration.surround, self._model))
        self._set_patterns = (None if calibration.start_tops is None else SetPatterns(
            self._layout, calibration.start_tops, start_labels(calibration.size)))
        self._last_tops: FrameTops | None = None
        """What the last frame located showed of the tops (see ``pattern_features``)."""
        self._judged_board: np.ndarray | None = None
        """The labels of the last board the set patterns found no piece of to doubt (-1 at
        its points read unsurely)."""
        self._top_patterns = np.zeros((len(LABELS), 3))
        for label, shift in calibration.top_patterns.items():
            self._top_patterns[LABELS.index(label)] = shift
        corners = self._model.corner_points()
        self._corner = np.array([point in corners for point in self._model.points])
        """Whether each point is one of the grid's corners."""
        self._mirror_spot = spot(self._layout.point_grid,
                                 [point in calibration.mirror_points
                                  for point in self._model.points])
        darker_set = pale_and_dark(calibration.colours.means)[1]
        started = start_labels(calibration.size)
        self._reflection_spot = spot(self._layout.point_grid, [
            (point in calibration.mirror_points and started[index] == darker_set)
            or point in calibration.pale_mirrors
            for index, point in enumerate(self._model.points)])
        """Whether each point lies where the start position showed a lamp's reflection on
        glossy tops (the darker set's mirroring it whole, or the paler set's mirroring it),
        or near: a dark top there may look pale all over."""
        # How much brighter than the paper a dark set's top must be to mirror the lamp: in
        # the spot, as bright as the paper is enough (see vision.mirror_spot.SPOT_BRIGHTER).
        self._mirror_brighter = np.where(self._mirror_spot, SPOT_BRIGHTER, MIRROR_BRIGHTER)
        self._lamp_set = np.array([label in calibration.lamp_sets for label in LABELS])
        """Whether each label is a set whose colour was learned with tops mirroring a lamp."""
        self._pale_mirror_levels = np.array([calibration.pale_mirrors.get(point, -np.inf)
                                             for point in self._model.points])
        # How dark a bare point showing its lines may be: as dark as any room's shadows, or
        # as the start position's, a little deeper (a point's paper round it is a
        # shadow's reference too).
        reach = calibration.shadow_reach
        self._deepest_shadow = SHADOW_DEEPEST if reach is None else max(
            SHADOW_DEEPEST, reach.deepest + DEEPEST_MARGIN)

    def reset(self) -> None:
        """Forget the board's last place (the next frame runs a full marker detection)."""
        self._locator.reset()

    def read(self, frame: np.ndarray) -> FrameReading:
        """Read one BGR frame; raises BadImage for anything that is not a colour image."""
        if not isinstance(frame, np.ndarray) or frame.ndim != 3 or frame.shape[2] != 3:
            shape = getattr(frame, "shape", None)
            raise BadImage(f"expected a BGR colour image, got an array of shape {shape!r}")
        # Marker detection and the colour samples assume 8-bit pixels; anything else
        # (a 16-bit or float frame, an empty one) would fail deep inside OpenCV.
        if frame.dtype != np.uint8 or frame.size == 0:
            raise BadImage(
                f"expected an 8-bit BGR image, got {frame.dtype} of shape {frame.shape!r}"
            )
        self._last_tops = None
        location = self._locator.locate(frame)
        camera = location.camera
        if location.status is not LocationStatus.FOUND or camera is None:
            homography = None if camera is None else camera.homography()
            return FrameReading(
                _STATUS_OF_LOCATION.get(location.status, ReadStatus.NO_BOARD), None,
                homography=homography, markers_seen=location.markers_seen,
            )
        pose = self._tables(camera)
        maps = pose.maps
        # Each point is judged against the paper the pieces round it leave visible. Where
        # they stand is first guessed from the last frame: on a still board the guess holds
        # and the frame is judged once; where it does not, it is judged again.
        guess = self._last_occupied
        samples = sample_board(self._layout, frame, maps, guess)
        result = classify_in_frame(self.config, self.colours, samples.features,
                                   self._in_shadows(guess))
        occupied = result.labels != _EMPTY
        if guess is None or not np.array_equal(occupied, guess):
            samples = judged_against_paper(self._layout, samples, maps.cover, occupied)
            result = classify_in_frame(self.config, self.colours, samples.features,
                                       self._in_shadows(occupied))
            occupied = result.labels != _EMPTY
        palette_scores = self._palette_scores(samples)
        palette_says = None if palette_scores is None else verdicts(palette_scores)
        # The set each point's pixels plainly favour, the paper's palette left aside.
        favoured_set = None if palette_scores is None else leaning_sets(palette_scores, SURE)
        # Second looks, for frames with an unsure point only (a still, clear board has none).
        if not (result.confidences >= self.config.confident).all():
            levelled = self._cross_at_local_level(samples.features, result)
            if levelled is not None:
                result = classify_in_frame(self.config, self.colours, levelled,
                                           self._in_shadows(occupied))
                occupied = result.labels != _EMPTY
            if self.calibration.set_contrast is not None:
                result = replace(result, confidences=confirmed(
                    self.calibration.set_contrast, samples.features, result,
                    self.config.confident,
                    None if favoured_set is None else favoured_set == result.labels))
            if palette_scores is not None:
                assert palette_says is not None
                result = replace(result, confidences=agreeing(palette_scores, result,
                                                              self.config.confident))
                result = replace(result, confidences=confirmed_by_palette(
                    palette_says, result.labels, result.confidences, self.config.confident))
        read_by_colours = result.labels
        overruled_sure = np.zeros(len(result.labels), bool)
        if palette_scores is not None:
            assert palette_says is not None
            labels_told, confidences_told = settled(palette_says, result.labels,
                                                    result.confidences, self.config.confident)
            result = replace(result, labels=labels_told, confidences=confidences_told)
            # And a piece read surely whose pixels plainly favour the other set's palette
            # is of that set.
            overruling = overruled(palette_scores, result.labels)
            overruled_sure = overruling != result.labels
            result = _relabelled(result, overruling, self.config.confident)
        # A top read as the pale set whose rim is a dark one's is a dark one mirroring a lamp.
        by_rims, dark_by_rim = self._dark_mirroring_lamp(samples, result.labels, palette_says)
        # (dark_by_rim: the dark tops whose rims say so surely, whatever they were read as.)
        rim_told = (by_rims != result.labels) | dark_by_rim
        result = _relabelled(result, by_rims, self.config.confident)
        # A dark top read unsurely, between the sets, is told by that rim too; one that
        # may be bare paper (a shadow is dark all round too) shows its cross.
        between_sets = dark_by_rim & (samples.features[:, _EMPTY, 3] == 0.0)
        result = replace(result, confidences=np.where(
            between_sets, np.maximum(result.confidences, self.config.confident),
            result.confidences))
        # The label each top's median tells where it differs from its darker part's (worked
        # out once: the relabelling below changes a point only to the label given here).
        split = self._split_tops(samples, result)
        if palette_scores is not None:
            # (Not a top the rim told: a dark top mirroring the lamp has the pale set's
            # pixels in its middle.)
            result = _relabelled(result, np.where(
                rim_told, result.labels, _told_by_median(split, result.labels, palette_scores)),
                self.config.confident)
        # (A top the rim told has the lamp's colour: it would teach the dark set's wrongly.)
        told_by_palette = result.labels != read_by_colours
        contested = np.zeros(len(result.labels), bool)
        if self.calibration.set_contrast is not None:
            contested = disputed(self.calibration.set_contrast, samples.features, result.labels)
            if palette_says is not None:
                # A printed top's colours are its own set's, whatever excess its print
                # shows: a black top's yellow ring, washed by the light, has a red one.
                # On five render sets no disputed piece whose pixels plainly fit the set
                # read was of the other set (the nearest fell 1.6 per pixel short).
                contested &= palette_says != result.labels
            # (Not a top whose rim all round is surely dark: a lamp greys a dark top's face
            # towards the pale set's, excess and all, never its rim.)
            result = replace(result, confidences=np.where(
                contested & ~dark_by_rim, np.minimum(result.confidences, DISPUTED),
                result.confidences))
        pale_sets = pale_labels(self.config, self.colours)
        # Where the point shows its lines on the paper (a bare point, maybe in a shadow).
        showing_lines = lines_on_paper(self.config, self.colours, samples.features,
                                       self._deepest_shadow)
        if palette_scores is not None:
            shadowed_bare = _bare_in_deep_shadow(
                result.labels, among(result.labels, pale_sets), showing_lines,
                samples.features[:, _EMPTY, 3], palette_scores)
            # The paper in a shadow has the shadow's colour: it would teach it wrongly.
            told_by_palette |= shadowed_bare
            result = _relabelled(result, np.where(shadowed_bare, _EMPTY, result.labels),
                                 self.config.confident)
            split = np.where(shadowed_bare, _EMPTY, split)
            contested &= ~shadowed_bare
            occupied = result.labels != _EMPTY
        self._last_occupied = occupied
        labels = tuple(LABELS[i] for i in result.labels.tolist())
        pieces = self.colours.means[_PIECES, :3]
        pale = among(result.labels, pale_sets)
        coloured = occupied & ~pale
        paper = check_paper(self.config, self._layout, samples, occupied,
                            maps.cover, pieces, coloured, self._paper_chroma,
                            self.calibration.shadow_reach, maps.edge_cover,
                            self.calibration.paper_tint)
        # A hand over the grid whose skin looks like the paper there still crosses the
        # sheet round it on its way in.
        clear = paper.is_clear and not (self._surround is not None
                                        and self._surround.arm_over(frame, pose.surround))
        # A piece set down off its point covers part of this one: never read it as bare
        # surely. It may hold that piece, or be bare beside it (the game tells which). But
        # the dark pixels round a bare point that shows its lines plainly are a shadow's:
        # such a piece would hide some of them (a low lamp's deep blue shadows looked like
        # a black set).
        assert samples.disc_relative is not None
        covering = piece_share(self.config, self.colours, samples.disc_relative)
        maybe_piece = ~showing_lines
        if palette_scores is not None:
            # Unless the point's pixels fit that piece's palette better than the paper's by
            # AGREEING: a piece set down off a corner point, outwards, leaves both its lines
            # showing. (Bare points with a piece's pixels in their disc favoured it over the
            # paper by 1.24 at most on eight render sets; a black top off f6, seed 602, by
            # 1.47.)
            own = palette_scores[np.arange(len(occupied)), covering.label]
            maybe_piece |= own - palette_scores[:, _EMPTY] >= AGREEING
            # A corner has two neighbours, not four: a piece's pixels over half of its disc
            # that favour that piece's palette over the paper's at all are its own piece's,
            # set down off it outwards, when an arm shows less than plainly (a white top off
            # f6 under a steeply tilted camera, Blender seed 2901, favoured by 0.59, its
            # fainter arm at 0.16: read as bare, surely). On twenty-one render sets, the bare
            # corners whose discs held a piece's pixels (low lamps' shadows, a quarter to
            # 0.83 of the disc) all favoured the paper's palette, by 0.23 or more; a bare
            # corner deep in a lamp's shadow 8 cm above the table, its whole disc dark,
            # favoured black's by 0.8, both its arms plain (0.57; see plainly_bare below).
            maybe_piece |= self._corner & (covering.share >= CORNER_SHARE) & (
                own > palette_scores[:, _EMPTY]) & (samples.faintest_arm < CROSS_FULL)
        half_covered = ~occupied & (covering.share > self.config.bare_piece_share) & (
            maybe_piece)
        off_point = (np.full(len(occupied), _EMPTY)
                     if palette_scores is None or palette_says is None else
                     _hiding_arms(~occupied, showing_lines, samples, palette_scores,
                                  palette_says))
        # A point read as bare, unsurely, that shows its whole cross with the paper's colour
        # and has no piece's pixels in its disc is bare paper, maybe in a shadow the start
        # position did not show: a piece there would hide some of its cross or its paper.
        # So is one whose every arm shows plainly, whatever its disc holds (a low lamp's
        # shadow, a neighbour's edge between its arms) and whatever colour it has against
        # the paper round it (a point the lamp lights between the pieces' shadows): on
        # thirteen Blender seeds and the room renderer's full set, the points holding a
        # piece that were read as bare showed their faintest arm at 0.16 at most
        # (CROSS_FULL is 0.3).
        plainly_bare = (result.labels == _EMPTY) & (
            (showing_lines & (covering.share <= self.config.bare_piece_share))
            | (samples.faintest_arm >= CROSS_FULL))
        result = replace(result, confidences=np.where(
            plainly_bare, np.maximum(result.confidences, self.config.confident),
            result.confidences))
        flagged = self._pale_over_another(samples, result.labels, pale, covering.share)
        flagged |= self._unconfirmed_pale(result.labels, pale, samples.features[:, _EMPTY, 3])
        paper_coloured = self._paper_coloured(samples.features, result.labels, pale)
        if palette_says is not None:
            # Unless its pixels plainly hold its set's colours: a printed top's pale ring
            # brings its colour near the paper's, but a fingertip's pixels are skin's (the
            # paper-coloured hand of a warm pendant lamp favoured the paper's palette).
            paper_coloured &= palette_says != result.labels
        flagged_besides = flagged.copy()
        flagged |= paper_coloured
        # A label a point may hold besides the one read: what a split top's median tells,
        # bare paper for a piece brighter than the paper round it, a pale one whose cross
        # shows a little farther across, or one read where the lines show as plainly as on
        # bare paper (nothing else: a fingertip would hide the lines too), or a glossy set.
        # (A bare point deep in a low lamp's shadow, dark and a little cool, showed its whole
        # cross and was read surely as a black piece.)
        may_be_bare = (self._brighter_than_paper(samples, result.labels, pale)
                       | self._pale_on_lines(frame, maps, samples, pale)
                       | ((result.labels != _EMPTY) & showing_lines))
        if palette_says is not None:
            # Unless its pixels plainly fit its set's palette, better than the paper's and
            # the other set's: a top set down off its point shows some lines, a glossy one
            # mirroring the lamp is brighter than the paper, but it is no bare paper. (The
            # bare points in deep shadows read as black on six render sets favoured black's
            # palette over the paper's by 1.2 per pixel at most, and over red's by less.)
            may_be_bare &= palette_says != result.labels
        if favoured_set is not None:
            assert palette_scores is not None
            # Which set a split top is of is a question between the two sets' palettes
            # alone: pixels that plainly favour the set read settle it, whether or not
            # they fit the paper's palette too (a printed top's pale ring does); so do
            # pixels that favour it less plainly when the colours read it surely.
            agreed = ((leaning_sets(palette_scores, AGREEING) == result.labels)
                      & (result.confidences >= self.config.confident))
            split = np.where((favoured_set == result.labels) | agreed, result.labels, split)
        # The set a piece may be instead, whether or not it may also be bare paper: a glossy
        # top mirroring the lamp may be both brighter than the paper and of the other set.
        set_other = np.where(split == result.labels,
                             self._mirroring(samples, result.labels, pale), split)
        # A top the rim told is a dark one mirroring the lamp: that is why it looked pale.
        set_other = np.where(rim_told, result.labels, set_other)
        if palette_says is not None:
            # (Not for a top whose rim all round is surely dark: a dark top mirroring the
            # lamp has the pale set's pixels, its rim none of them.)
            set_other = np.where(dark_by_rim, set_other,
                                 the_set_besides(palette_says, result.labels, set_other))
        other = np.where(may_be_bare, _EMPTY, set_other)
        if palette_says is not None:
            other = set_on_bare(palette_says, result.labels, other,
                                samples.features[:, _EMPTY, 3], pale_sets)
        other = np.where(half_covered, covering.label, other)
        other = np.where(off_point != _EMPTY, off_point, other)
        if palette_scores is not None:
            # A piece whose pixels lean to the other set's palette may be of that set.
            leaning = leaning_sets(palette_scores)
            contested |= (result.labels != _EMPTY) & (leaning >= 0) & (leaning != result.labels)
        # A top the rim told is of the dark set, whatever its pixels lean to. One on which
        # the palette overruled the colours, or the rim told, and which a check above flags
        # (those judge the set named: a paper-coloured dark top may be a fingertip in a warm
        # light), may be of either set, as when the two witnesses disagreed.
        contested &= ~rim_told
        told_again = overruled_sure | rim_told
        # (Not a top whose rim is far darker all round than a pale one's ever was: no
        # fingertip is; see vision.rims.ROUND_SURE.)
        contested |= told_again & flagged & ~dark_by_rim
        flagged &= ~told_again
        other = np.where(contested & (other == result.labels), _OTHER_SET[result.labels], other)
        second = other != result.labels
        unsure = flagged | second | (result.confidences < self.config.confident)
        # What each unsure point may hold; nothing known when another check flagged it.
        # (Only a frame on clear paper can be doubtful: a hand's frame needs none.)
        # What else it may hold besides: the set a piece that may be bare may be instead,
        # and bare paper where the point shows its whole cross, whatever its colour (bare
        # paper deep in a low lamp's blue shadow was read as black, unsure, no other label
        # as near).
        besides = np.where(may_be_bare & (set_other != _EMPTY), set_other, result.labels)
        bare_cross = samples.features[:, _EMPTY, 3] >= sharp_level(self.config, self.colours)
        # A top of the paper's colour read as a dark set may be a fingertip: nothing known.
        # But with the sheet round the grid quiet, no hand is over the board (its arm would
        # cross that sheet): it is a glossy top mirroring the lamp, of either set.
        mirroring = flagged & paper_coloured & ~flagged_besides & (
            self._surround is not None and self._surround.quiet())
        flagged &= ~mirroring
        second |= mirroring
        other = np.where(mirroring, _OTHER_SET[result.labels], other)
        choices = {i: () if flagged[i] else with_also(
                   (labels[i], LABELS[other[i]]) if second[i] else choices_of(result, i),
                   LABELS[besides[i]], PointLabel.EMPTY if bare_cross[i] else labels[i])
                   for i in map(int, np.flatnonzero(unsure & clear))}
        choices.update(self._in_mirror_spot(samples.features, result, choices))
        assert samples.top_view is not None and samples.tops_paper is not None
        self._last_tops = FrameTops(samples.top_view, samples.tops_paper, result.labels,
                                    ~unsure)
        # A point open between a piece and bare paper alone may show which
        # (vision.presence_net): bare paper is told; a piece leaves its set to tell, since
        # the set its colour was nearest may not be its own (a brown top a low lamp lit
        # was open between bare paper and the cream set).
        told: dict[int, int] = {}
        for point, piece in self._told_by_presence(choices).items():
            if piece:
                piece_set = next(label for label in choices[point] if label != PointLabel.EMPTY)
                choices[point] = (piece_set, LABELS[_OTHER_SET[LABELS.index(piece_set)]])
            else:
                told[point] = _EMPTY
        # A piece whose set alone is open may show it round its colour (vision.set_forest).
        told |= self._told_by_pattern(choices, palette_scores)
        if told:
            points_told = list(told)
            unsure[points_told] = False
            for point in points_told:
                del choices[point]
            relabelled, confidences = result.labels.copy(), result.confidences.copy()
            relabelled[points_told] = list(told.values())
            confidences[points_told] = np.maximum(confidences[points_told],
                                                  self.config.confident)
            result = replace(result, labels=relabelled, confidences=confidences)
            labels = tuple(LABELS[i] for i in result.labels.tolist())
            # Its colour is a mirror's, not its set's: it would teach the set's wrongly.
            told_by_palette[points_told] = True
        if clear:
            # A piece read surely whose pattern plainly tells another set is doubtful there:
            # two witnesses disagree. (In a doubtful frame too: the game would take the
            # piece's set as read when it settles the other doubts.)
            for point, other_set in self._contradicted_by_pattern(result.labels,
                                                                  ~unsure).items():
                unsure[point] = True
                choices[point] = (labels[point], LABELS[other_set])
        reading = None
        status = ReadStatus.OCCLUDED
        if clear and not unsure.any():
            reading = _board_reading(self._model.points, labels, self._model.size)
            # A top the palette told has the other set's colour: it would teach it wrongly.
            self._adapt(samples.features, np.where(told_by_palette, -1, result.labels))
            status = ReadStatus.OK
        elif clear and few_enough(list(choices.values())):
            status = ReadStatus.DOUBTFUL
        if self._surround is not None and status is not ReadStatus.OCCLUDED:
            # No hand over the board (a doubtful point is a piece's doubt): the light on the
            # sheet round it is followed.
            self._surround.follow()
        if paper.uniform and clear:
            # Follow the paper's colour as white balance drifts, from frames where it is plain
            # and all of it looks like paper: a hand coming in can swing the white balance
            # for as long as it is there, and the paper is judged against this colour after.
            rate = self.config.paper_chroma_rate
            self._paper_chroma = paper.chroma if self._paper_chroma is None else (
                (1 - rate) * self._paper_chroma + rate * paper.chroma)
        points = self._model.points
        doubtful = sorted(choices) if status is ReadStatus.DOUBTFUL else []
        return FrameReading(
            status=status,
            reading=reading,
            points=points,
            labels=labels,
            confidences=tuple(result.confidences.tolist()),
            homography=pose.homography,
            image_points=pose.image_points,
            doubtful=tuple(points[i] for i in doubtful),
            choices=tuple(choices[i] for i in doubtful),
            paper_clear=clear,
            markers_seen=location.markers_seen,
        )

    def _told_by_pattern(self, choices: dict[int, tuple[PointLabel, ...]],
                         palette_scores: np.ndarray | None) -> dict[int, int]:
        """The set (label index) of each point whose choices are the two sets alone, where the
        pattern of its top, side and shadow tells it (``vision.set_forest``), and its pixels
        do not favour the other set's palette by ``PATTERN_AGAINST_PALETTE``
        (``palette_scores`` as ``_palette_scores``); none where the sheet round the grid is
        not quiet (``vision.surround.QUIET_SHARE``), nor with a set learned with tops
        mirroring the lamp (``Calibration.lamp_sets``)."""
        judging = self._set_patterns_judging()
        if judging is None or (self._surround is not None and not self._surround.quiet()):
            # (Something may be coming in over the sheet: a doubt may be a fingertip's.)
            return {}
        if self.calibration.lamp_sets:
            # The forest and the networks judge a top against the sets' colours, and a lamp
            # set's is a mirror's: a red top mirroring the lamp got 0.98 of the forest's
            # votes for a black set learned near-white.
            return {}
        patterns, tops = judging
        open_set = set(PIECE_LABELS)
        points = np.array([point for point, labels in choices.items()
                           if set(labels) == open_set], np.intp)
        if not len(points):
            return {}
        told = patterns.told(tops, points, self.colours.means)
        if palette_scores is not None:
            # Two witnesses that disagree: the pixels of a white top whose long shadow
            # covered its point favoured white's palette, where the forest said black.
            leaning = leaning_sets(palette_scores[points], PATTERN_AGAINST_PALETTE)
            against = (told >= 0) & (leaning >= 0) & (leaning != told)
            # Unless the networks are sure of the set told too: glossy tops mirroring a
            # pendant lamp favour the palette of the set whose start tops half mirrored it.
            against[against] = ~patterns.networks_sure(tops, points[against], told[against],
                                                       self.colours.means)
            told = np.where(against, -1, told)
        return {int(point): int(label) for point, label in zip(points, told, strict=True)
                if label >= 0}

    def _told_by_presence(self, choices: dict[int, tuple[PointLabel, ...]]) -> dict[int, bool]:
        """Whether each point whose choices are a piece and bare paper alone holds a piece,
        where the presence network tells it (``vision.presence_net.PRESENCE_SURE``); none
        where the sheet round the grid is not quiet (a fingertip may be coming in), nor in a
        frame with more such points than a doubtful frame may have
        (``vision.doubt.MAX_DOUBTFUL``): a pale hand's fingers look like a light piece or
        bare paper, unsure, and are a hand, whatever a network says of each."""
        net = shipped_presence_net()
        if (net is None or not self._tell_sets_by_pattern or self._last_tops is None
                or (self._surround is not None and not self._surround.quiet())
                or not few_enough(list(choices.values()))):
            return {}
        points = np.array([point for point, labels in choices.items()
                           if len(set(labels)) == 2 and PointLabel.EMPTY in labels], np.intp)
        if not len(points):
            return {}
        tops = self._last_tops
        pale, dark = pale_and_dark(self.colours.means)
        share = net.share(point_inputs(self._layout, tops.view, tops.paper, points,
                                       self.colours.means[pale], self.colours.means[dark]))
        return {int(point): bool(piece >= 0.5) for point, piece in zip(points, share, strict=True)
                if piece >= PRESENCE_SURE or piece <= 1 - PRESENCE_SURE}

    def _contradicted_by_pattern(self, labels: np.ndarray, sure: np.ndarray
                                 ) -> dict[int, int]:
        """The pieces of ``labels`` read ``sure`` (a mask) whose pattern plainly tells the
        other set (``vision.set_forest.CONTRADICTING``, ``CONTRADICTION_ASKED``), each with
        that set. A board is judged once: a still board read again is the board already
        judged."""
        judging = self._set_patterns_judging()
        if judging is None:
            return {}
        patterns, tops = judging
        judged = np.where(sure, labels, -1)
        if self._judged_board is not None and np.array_equal(judged, self._judged_board):
            return {}
        pieces = np.flatnonzero((labels != _EMPTY) & sure)
        other = patterns.contradicted(tops, pieces, labels[pieces], self.colours.means,
                                      self._reflection_spot[pieces])
        if not (other >= 0).any():
            self._judged_board = judged
        return {int(point): int(label) for point, label in zip(pieces, other, strict=True)
                if label >= 0}

    def _set_patterns_judging(self) -> tuple[SetPatterns, FrameTops] | None:
        """The set patterns and the last frame's tops, when the set forest judges that
        frame (not when left out, or without the start's tops: see ``__init__``)."""
        if (not self._tell_sets_by_pattern or self._set_patterns is None
                or self._last_tops is None):
            return None
        return self._set_patterns, self._last_tops

    def pattern_features(self, points: np.ndarray) -> np.ndarray | None:
        """The set-pattern features (``vision.set_forest``) of ``points`` (indices) in the
        last frame located, as the forest is asked about them; None before any such frame
        or for a calibration without the start's tops. For training the forest."""
        if self._set_patterns is None or self._last_tops is None:
            return None
        return self._set_patterns.features(self._last_tops, np.asarray(points, np.intp),
                                           self.colours.means)

    def top_patches(self, points: np.ndarray) -> tuple[np.ndarray, np.ndarray] | None:
        """The view of the tops round ``points`` (indices) in the last frame located, as the
        set network is shown them (``vision.set_net.patches``), and the BGR of the paper
        each is judged against; None before any such frame. For training the network."""
        if self._last_tops is None:
            return None
        points = np.asarray(points, np.intp)
        return (patches(self._layout, self._last_tops.view, points),
                self._last_tops.paper[points].astype(np.float32))

    def _cross_at_local_level(self, features: np.ndarray, result: Classification
                              ) -> np.ndarray | None:
        """``features`` with each point's cross raised to the frame's level as far as the
        sure bare points round it show theirs fainter, or None when nothing changes.

        The printed lines show fainter where the camera sees the sheet from farther or more
        from the side (the far ranks of a steep view, the edge of a wide lens), and a bare
        point there hides more of its cross than the start position's bare points did,
        which made it look half like a pale piece. A cross is only ever raised, and at most
        by ``LOCAL_CROSS_GAIN``: a piece hides its cross wherever it stands, so no point is
        made to look more like a piece.
        """
        cross = features[:, _EMPTY, 3]
        bare = (result.labels == _EMPTY) & (result.confidences >= self.config.confident)
        if bare.sum() <= LOCAL_CROSS_POINTS:
            return None
        level = float(median_along(cross[bare], 0))
        around = np.append(np.where(bare, cross, np.nan), np.nan)[self._layout.point_neighbours]
        known = ~np.isnan(around)
        enough = known.sum(axis=1) >= LOCAL_CROSS_POINTS
        if not enough.any():
            return None
        local = np.full(len(cross), level)
        local[enough] = np.nanmedian(around[enough], axis=1)
        gain = np.clip(level / np.maximum(local, 1e-6), 1.0, LOCAL_CROSS_GAIN)
        if not (gain > 1.0).any():
            return None
        levelled = features.copy()
        levelled[:, :, 3] = np.minimum(features[:, :, 3] * gain[:, None], 1.0)
        return levelled

    def _in_shadows(self, occupied: np.ndarray | None) -> np.ndarray | None:
        """(points,) the points the long shadows of pieces on ``occupied`` points reach,
        as the calibration learned them (a low lamp's); None when it learned none."""
        reach = self.calibration.shadow_reach
        if reach is None or occupied is None:
            return None
        return shadowed_cells(reach, self._layout.point_grid, self._layout.point_grid,
                              occupied)

    def _adapt(self, features: np.ndarray, labels: np.ndarray) -> None:
        """Nudge the colour model towards a confidently read frame's colours.

        Every frame is blended in, but the model read with changes only every
        ADAPTED_FRAMES of them: each new model costs its tables (inverses, glare) anew,
        about half a millisecond, and the light changes slowly.
        """
        self._adapting = adapt(self.config, self._adapting, features, labels)
        self._frames_adapted += 1
        if self._frames_adapted >= ADAPTED_FRAMES:
            self.colours, self._frames_adapted = self._adapting, 0

    def _mirroring(self, samples: BoardSamples, labels: np.ndarray, pale: np.ndarray
                   ) -> np.ndarray:
        """Each point's glossy set it may be instead of the set read, where a lamp's glare
        may have made it look so; its label read elsewhere.

        A piece the start position's glare says may be of a glossy set (``glare_reach``),
        unless its excess says plainly which set it is, as glare cannot make it; a piece
        read as a pale set whose rim is a dark one's (``rim_check``: the whole ring's
        darkest part, or the ring as dark as it is all round): a dark top mirroring the
        lamp whole; a piece of a set darker than the paper whose top is brighter than the
        paper round it, and of its colour (``vision.mirror_spot.mirrors_lamp``): only a
        mirror of the lamp is, and a glossy top of either set mirrors it alike; and a piece
        read as a pale set where a pale top mirrored the lamp at calibration, plainly dimmer
        than that top was: a dark glossy top mirrors the lamp there over a dark body. A set
        whose colour was learned with tops mirroring the lamp (``Calibration.lamp_sets``)
        is no pale set here: a top read as it that mirrors the lamp may be of either set.
        ``pale`` says which points are read as a pale set.
        """
        assert samples.middle_relative is not None
        pale = pale & ~self._lamp_set[labels]
        dark = (labels != _EMPTY) & ~pale
        # A top read as a lamp set mirrors the lamp as a top in the spot does: as bright as
        # the paper is enough (a red top a little dimmer than the paper, on a board whose
        # black was learned near-white, was read surely as black).
        brighter = np.where(self._lamp_set[labels], SPOT_BRIGHTER, self._mirror_brighter)
        mirroring = np.where(pale, dimmer_than_pale_mirror(self._pale_mirror_levels,
                                                           samples.middle_relative),
                             dark & mirrors_lamp(samples.middle_relative, brighter,
                                                 FRAME_MIRROR_CHROMA))
        result = np.where(mirroring, _OTHER_SET[labels], labels)
        if self.calibration.glare_reach:
            glossy = glared_from(self.calibration.glare_reach, self.colours.means,
                                 samples.features, labels)
            if self.calibration.set_contrast is not None:
                glossy = np.where(on_own_side(self.calibration.set_contrast, samples.features,
                                              labels), labels, glossy)
            result = glossy
        rims = self.calibration.rim_check
        if rims is not None:
            assert samples.rim_relative is not None
            assert samples.round_relative is not None
            dark = (dark_rimmed(rims, samples.rim_relative, labels)
                    | dark_all_round(rims, samples.round_relative, labels))
            result = np.where(dark & (result == labels), LABELS.index(rims.dark), result)
        return result

    def _dark_mirroring_lamp(self, samples: BoardSamples, labels: np.ndarray,
                             palette_says: np.ndarray | None
                             ) -> tuple[np.ndarray, np.ndarray]:
        """``labels``, with each top read as the pale set whose rim is a dark set's
        (``vision.rims``) read as the dark set: a dark top mirroring a lamp. That is one
        whose rim all round lies far below a pale top's (``ROUND_SURE``), and, where the
        start position showed glossy tops mirroring a lamp whole
        (``Calibration.mirror_points``), one whose rim's darkest part lies below its floor.
        Elsewhere the rim only makes such a top doubtful (``_mirroring``). Also the tops
        of either set the first says are dark (``vision.rims.surely_dark``).

        But not a top with a colour of its own that its pixels plainly say is the pale
        set's (``palette_says``, as ``vision.palette.verdicts``): a mirror of the lamp has
        the paper's colour (``vision.mirror_spot.of_paper_chroma``). Seen 37 degrees off
        the vertical, a light wooden top's shaded side, its long shadow and a dark piece
        beside it made its rim dark all round, and it was read as dark wood, surely (the
        room renderer, seed 4949), though its colour lay 0.02 from light wood's and 0.32
        from the paper's, and its pixels favoured light wood's palette by 5 per pixel.
        """
        rims = self.calibration.rim_check
        if rims is None:
            return labels, np.zeros(len(labels), bool)
        assert samples.rim_relative is not None and samples.round_relative is not None
        surely = surely_dark(rims, samples.round_relative, labels)
        if palette_says is not None:
            pale = LABELS.index(rims.pale)
            surely &= ~((palette_says == pale) & ~of_paper_chroma(samples.features[:, pale, :3]))
        dark = surely.copy()
        if self.calibration.mirror_points:
            dark |= dark_rimmed(rims, samples.rim_relative, labels)
        result: np.ndarray = np.where(dark, LABELS.index(rims.dark), labels)
        return result, surely

    def _palette_scores(self, samples: BoardSamples) -> np.ndarray | None:
        """(points, labels) how well each point's pixels fit each label's palette
        (``vision.palette.scores``); None when the calibration kept no palette (a file
        written before it was)."""
        if self.calibration.palette is None:
            return None
        assert samples.palette_logs is not None and samples.tops_paper is not None
        return scores(self.calibration.palette,
                      bin_codes(samples.palette_logs, paper_logs(samples.tops_paper)))

    def _in_mirror_spot(self, features: np.ndarray, result: Classification,
                        choices: dict[int, tuple[PointLabel, ...]]
                        ) -> dict[int, tuple[PointLabel, ...]]:
        """The choices of the unsure points (``choices``) that may be glossy tops mirroring
        the lamp whole: those in its spot that hide their cross (``vision.mirror_spot``),
        where nothing is known or bare paper is among the choices. Either piece set, never
        bare paper: bare paper shows its cross."""
        hidden = self._mirror_spot & hides_cross(features, float(self.colours.means[_EMPTY, 3]))
        return {i: mirror_choices(result, i) for i in map(int, np.flatnonzero(hidden))
                if i in choices and (not choices[i] or PointLabel.EMPTY in choices[i])}

    def _paper_coloured(self, features: np.ndarray, labels: np.ndarray, pale: np.ndarray
                        ) -> np.ndarray:
        """Pieces of a dark set read where the colour is the paper's.

        Only the missing cross says such a point is no bare paper, and the colour model's
        wide spread of a glossy set (its tops may mirror the lamp) then makes it that set's:
        a hand over the grid in a warm light, where skin and paper alike reach the sensor's
        ceiling in red, read as glossy red tops. A top mirroring the lamp whole looks the
        same, and nothing in the frame tells which it is, but the sheet round the grid,
        which a hand's arm crosses (see ``read``). ``pale`` as above; a dark set is
        ``dark_piece`` darker than the paper.
        """
        points = np.arange(len(labels))
        paper = self.colours.means[_EMPTY, :3]
        own = channel_norm(features[points, labels, :3] - paper)
        dark = (channel_mean(paper) - channel_mean(self.colours.means[:, :3])
                ) > self.config.dark_piece
        result: np.ndarray = ((labels != _EMPTY) & ~pale & dark[labels]
                              & (own < self.config.pale_piece))
        return result

    def _unconfirmed_pale(self, labels: np.ndarray, pale: np.ndarray, cross: np.ndarray
                          ) -> np.ndarray:
        """Pale pieces (the paper's colour) with no bare point near them showing its cross.

        Such a piece is told from bare paper only by the cross it hides; if no point within
        two steps shows a cross plainly, the camera may be a little off there, and a bare
        point would look the same. (Two steps: a piece inside a group of its own, like the
        start position's first rank, has no bare point right next to it.) ``pale`` says
        which points are read as a pale piece.
        """
        if not pale.any():
            return pale
        plain = np.append((labels == _EMPTY) & (cross >= sharp_level(self.config, self.colours)),
                          False)
        result: np.ndarray = pale & ~plain[self._layout.point_neighbours].any(axis=1)
        return result

    def _pale_on_lines(self, frame: np.ndarray, maps: ViewMaps, samples: BoardSamples,
                       pale: np.ndarray) -> np.ndarray:
        """Pale pieces (the paper's colour) whose cross shows when looked for farther across.

        Such a piece is told from bare paper by the cross it hides, looked for within a pixel
        of where the camera's pose puts it; where the pose is two or three pixels off (near
        the edge of a wide lens's view), a bare point would hide its cross the same way. It
        is the piece or bare paper, and the game may tell which.
        """
        if not pale.any():
            return pale
        lines = wide_cross(self._layout, frame, maps, samples) >= PALE_LINES * CROSS_FULL
        result: np.ndarray = pale & lines
        return result

    def _pale_over_another(self, samples: BoardSamples, labels: np.ndarray,
                           pale: np.ndarray, covered: np.ndarray) -> np.ndarray:
        """Points read as a pale piece where another piece's body may stand instead.

        Seen steeply, a dark piece set down off its point can stand off its top's sample
        while its body fills the point: the sample is then part paper, part piece, a grey
        darker than any pale top, and most of the point looks like another piece. (A pale
        piece's own shaded side looks dark too, but its top keeps its colour.)
        """
        own = channel_mean(self.colours.means[labels, :3])
        darker = channel_mean(samples.relative) < own - PALE_DARKENED
        result: np.ndarray = pale & darker & (covered > PALE_UNDER_ANOTHER)
        return result

    def _brighter_than_paper(self, samples: BoardSamples, labels: np.ndarray,
                             pale: np.ndarray) -> np.ndarray:
        """Pieces of a set unlike the paper read where the point is brighter than the paper
        round it (``LIT_PAPER``).

        A point is read against the brighter of the paper samples round it. Under a low
        lamp the pieces' long shadows can cover all of them while the lamp still lights
        the point between the pieces: bare paper there, against paper in shadow, is
        brighter and has the lamp's warmer colour, and its printed lines do not count
        against the shadow's colour. It was read, surely, as a light wooden top. Such a
        set's pieces are darker than the paper round them, or hardly brighter.
        """
        assert samples.paper_round is not None and samples.tops_paper is not None
        # Against the paper the lamp lights: a piece's lit top is brighter than its
        # neighbours' shadows round it (``vision.sampling.judged_against_paper``).
        lifted = channel_mean(np.log(samples.tops_paper / samples.paper_round))
        bare_brightness = channel_mean(samples.features[:, _EMPTY, :3]) - lifted
        result: np.ndarray = (labels != _EMPTY) & ~pale & (bare_brightness > LIT_PAPER)
        return result

    def _split_tops(self, samples: BoardSamples, result: Classification) -> np.ndarray:
        """Each point's label as its top's median tells it, where that differs from the
        label its darker part tells (``result``'s), else ``result``'s label.

        A piece's label is read from the darker part of its top, which leaves glare out;
        seen steeply, a piece set down off its point shows its side or its shadow there
        too, and a light piece can then look like a dark one. Its median says otherwise.
        A set printed with a pattern has medians that differ from its darker parts by the
        pattern itself: each label's median is taken less what its pattern adds
        (``Calibration.top_patterns``; nothing for plain sets). The medians are matched
        against the colours the frame was read with (fitted to it, if it was).
        """
        assert samples.middle_relative is not None
        labels = result.labels
        # As each label would see it: (points, labels, 3).
        middles = samples.middle_relative[:, None, :] - self._top_patterns[None]
        own = np.arange(len(labels))
        # Only tops whose two parts differ plainly need a second look (few, if any, a frame).
        split: np.ndarray = (labels != _EMPTY) & (channel_norm(
            middles[own, labels] - samples.features[own, labels, :3]) > SPLIT_TOP)
        if not split.any():
            return labels
        features = samples.features.copy()
        features[:, _PIECES, :3] = middles[:, _PIECES]
        by_middle = classify(self.config, result.model or self.colours, features).labels
        told_apart = split & (by_middle != _EMPTY)
        return np.where(told_apart, by_middle, labels)

    def _tables(self, camera: CameraModel) -> _PoseTables:
        # They depend on the pose only: a steady camera reuses them.
        if self._pose is None or self._pose.camera is not camera:
            height = self.calibration.piece_height
            centres = np.array([self._model.point_mm(p) for p in self._model.points])
            self._pose = _PoseTables(
                camera, view_maps(self._layout, self._model, camera, height),
                camera.homography(), camera.project_sheet(centres, height),
                surround_map(self._model, camera))
        return self._pose


def _relabelled(result: Classification, labels: np.ndarray, sure: float) -> Classification:
    """``result`` with ``labels``, each point whose label they change read at least
    ``sure``: another witness told it."""
    return replace(result, labels=labels, confidences=np.where(
        labels != result.labels, np.maximum(result.confidences, sure), result.confidences))


def _told_by_median(split: np.ndarray, labels: np.ndarray, palette_scores: np.ndarray
                    ) -> np.ndarray:
    """``labels``, with each split top whose median names the other piece set (``split``, as
    ``BoardReader._split_tops`` gives it) read as that set where its pixels favour that set's
    palette over the set read by ``AGREEING`` and over the paper's by ``LEANING``.

    A light piece set down off its point, its long shadow beside it (window light), shows
    that shadow in the darker part of its top, and a white top was read as black, surely.
    Its pixels say otherwise, by 1.3 per pixel and more over black's palette and 0.5 and
    more over the paper's. A glossy dark top whose median a lamp's glare pales favours the
    pale set's palette too, but no more than the paper's (on nine render sets, about 1,900
    frames: 133 split tops read rightly by their darker part, none that would have been
    told otherwise; 13 told rightly).
    """
    other_set = (split != labels) & (split != _EMPTY)
    if not other_set.any():  # a plain, still board has no split top
        return labels
    points = np.arange(len(labels))
    favoured = ((leaning_sets(palette_scores, AGREEING) == split)
                & (palette_scores[points, split] - palette_scores[:, _EMPTY] >= LEANING))
    told: np.ndarray = np.where(other_set & favoured, split, labels)
    return told


HIDDEN_ARM = 0.01
"""Contrast below which an arm of a point's cross shows no line at all (bare paper's arms
show 0.3-0.6; a blurred one, in dim light, 0.05 and more)."""
FAINT_ARM = 0.06
"""Contrast below which an arm's line is barely seen."""
HIDING_LEANING = 0.5
"""Least lean of a point's pixels to a set's palette over the paper's for a hidden arm to
make it doubtful where its lines do not show as bare paper's do (a shell off d3, Blender
seed 2101, two arms hidden, leaned by 0.84; the one bare point of ten seeds and the room
renderer's full set that hid an arm so, by 0.31)."""


def _hiding_arms(bare: np.ndarray, showing_lines: np.ndarray, samples: BoardSamples,
                 palette_scores: np.ndarray, palette_says: np.ndarray) -> np.ndarray:
    """(points,) the set a point read as bare (``bare``) may hold, as a piece set down off it
    that hides some of its arms; bare paper elsewhere (``palette_says`` the palette's
    verdicts on ``palette_scores``, as ``vision.palette.verdicts``). That is where:

    - its pixels lean to the set's palette over the paper's (``LEANING`` where the point
      shows its lines, ``showing_lines``, else ``HIDING_LEANING``), one of its arms shows
      no line at all (``HIDDEN_ARM``) and another one plainly (``CROSS_FULL``); or
    - its pixels plainly hold the set's colours (the palette's verdict, ``SURE`` over both
      other labels) and one of its arms is barely seen (``FAINT_ARM``).

    A pale piece set down off its point, seen steeply, hides the arms it stands over and
    leaves the others showing, so the median arm reads bare paper; its pixels, the paper's
    colour but a little darker, need not favour it by much (a shell off b6, Blender seed
    1501, by 0.65, two arms hidden, the others at 0.5 and 0.59). A shell off a corner point
    (seed 1901, a6) hid one of its two arms (0.04), and its pixels plainly held the shells'
    colours; read as bare, surely, the board was wrong. On nine Blender seeds and the room
    renderer's full set (69,000 points read as bare), no bare point met either condition:
    1,691 that showed their lines leaned to a set by 0.3 or more, 364 plainly held a set's
    colours (the faintest arm of those at 0.09); blurred bare points at a spotlight's dim
    edge leaned to the black set by up to 1.24, their arms all faint (0.05 to 0.28).
    """
    sets = palette_scores.copy()
    sets[:, _EMPTY] = -np.inf
    favoured = sets.argmax(axis=1)
    over_paper = sets.max(axis=1) - palette_scores[:, _EMPTY]
    leaning = (over_paper >= LEANING) & (showing_lines | (over_paper >= HIDING_LEANING))
    hiding = (samples.faintest_arm < HIDDEN_ARM) & (samples.plainest_arm >= CROSS_FULL)
    plainly = palette_says == favoured
    faint = samples.faintest_arm < FAINT_ARM
    result: np.ndarray = np.where(bare & ((leaning & hiding) | (plainly & faint)), favoured,
                                  _EMPTY)
    return result


def _bare_in_deep_shadow(labels: np.ndarray, pale: np.ndarray, showing_lines: np.ndarray,
                         cross: np.ndarray, palette_scores: np.ndarray) -> np.ndarray:
    """(points,) the points read as a dark piece that are bare paper in a deep shadow: they
    show their lines on the paper (``showing_lines``, as ``lines_on_paper`` gives it), their
    whole cross (``cross`` at its full level, as a sharp bare point's), and their pixels do
    not favour that piece's palette over the paper's by ``AGREEING``.

    A low lamp beside the board casts shadows 0.7 to 1.3 deep, lit by the room's cooler
    light alone, and a bare point there looks as dark and as cool as a black piece: on
    Blender renders of low lamps (seeds 401, 701, 801 and 1001), 25 such points were read
    as black, unsurely, leaving their frames doubtful; their pixels favoured black's
    palette over the paper's by 1.21 at most. A black piece shows lines too when it stands
    off its point or its glossy rim mirrors the lamp at the board's edge; of those on nine
    render sets (about 2,000 frames), the ones showing their whole cross favoured black's
    palette by 1.32 and more.
    """
    points = np.arange(len(labels))
    unfavoured = palette_scores[points, labels] - palette_scores[:, _EMPTY] < AGREEING
    result: np.ndarray = ((labels != _EMPTY) & ~pale & showing_lines & (cross >= 1.0)
                          & unfavoured)
    return result


def _board_reading(points: tuple[Point, ...], labels: tuple[PointLabel, ...],
                   size: int) -> BoardReading:
    red = black = 0
    for point, label in zip(points, labels, strict=True):
        if label is PointLabel.RED:
            red |= 1 << point
        elif label is PointLabel.BLACK:
            black |= 1 << point
    return BoardReading(red, black, size)
