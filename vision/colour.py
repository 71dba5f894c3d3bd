"""The colour model: what red, black and empty look like relative to the paper round them.

Decisions:
- Features are the logarithm of a point's colour divided channel by channel by the
  paper round it, plus how clearly the printed cross shows (see ``vision.sampling``),
  so the model holds no absolute colours: the same model works in warm and cold,
  bright and dim light, and for any two piece sets that differ from each other and
  from the paper. A bare point in a piece's shadow is darker in all three channels
  alike, so the empty label's spread is widened along that one direction; a piece's
  top catches more or less light than the paper (glare, a lamp's angle), so the
  pieces' spread is widened along it a little.
- Each label is a Gaussian (mean and covariance learned from the start position,
  with a floor on the spread, since 12 samples under one light understate how much
  a real room varies). A point's confidence is the posterior of its best label
  against the other two and an "outlier" alternative whose likelihood equals a
  label's at ``outlier_distance`` standard deviations: a colour far from all three
  (a finger, a sleeve) gets a low confidence, not a forced guess.
- Light that changed since the model was learned (exposure, white balance, a lamp
  moved) moves every piece of a set alike: a frame whose points are not all sure is
  classified again with each set's colour moved to the median of its sure pieces in
  that frame (:func:`classify_in_frame`), as far as ``frame_fit_limit``.
- Slow light change is followed by nudging each label's mean towards the colours
  of a frame read with full confidence (``adaptation_rate``); a single frame cannot
  move the model far, so one bad frame cannot poison it.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from enum import Enum
from typing import NamedTuple

import numpy as np

from vision.config import VisionConfig
from vision.reductions import channel_mean, channel_norm, mean_along, median_along, short_sum


class PointLabel(Enum):
    """What a point holds, as the camera sees it."""

    EMPTY = "."
    RED = "r"
    BLACK = "b"


LABELS = (PointLabel.EMPTY, PointLabel.RED, PointLabel.BLACK)
"""Label order of the rows of :class:`ColourModel` arrays."""
PIECE_LABELS = tuple(label for label in LABELS if label is not PointLabel.EMPTY)
"""The two piece sets, in :data:`LABELS` order."""
PIECE_LABEL_OF = {label.value: label for label in PIECE_LABELS}
"""Each piece set by its one-letter value, as calibration files name it."""
FEATURES = 4
"""Features per point: log colour relative to the paper (blue, green, red) and the cross."""
_SHADOW_DIRECTION = np.array([1.0, 1.0, 1.0, 0.0]) / np.sqrt(3)
WARM = np.array([-1.0, 0.0, 1.0]) / np.sqrt(2)
"""Direction of warmer colour in log (blue, green, red): skin, a tungsten lamp."""


def without_cool_light(config: VisionConfig, chroma: np.ndarray, darkness: np.ndarray,
                       shadowed: np.ndarray | bool = True, deepest: float | None = None
                       ) -> np.ndarray:
    """(n, 3) log chroma with the share of it that cooler light explains taken away.

    Light of another colour temperature (daylight round a warm spotlight's cone, a shadow
    lit by the sky alone) moves paper along the warm-cool axis only, and towards cool: no
    hand is bluer than the paper. A little of that is allowed anywhere; in a shadow
    (``shadowed``), up to as much again as the sample is dark, at most ``deepest``
    (``cool_shadow_tolerance`` when not given).
    """
    most = config.cool_shadow_tolerance if deepest is None else deepest
    allowance = config.cool_light_tolerance + np.where(
        shadowed, np.minimum(darkness, most), 0.0)
    return without_warmth(chroma, cooler=allowance, warmer=0.0)


def dark_without_cross(config: VisionConfig, features: np.ndarray) -> np.ndarray:
    """(points,) whether a point is darker than a shadow may be and hides its printed cross.

    A bare point in a shadow still shows its cross; a dark point that shows none may be a
    dark piece seen badly, or a dark set's printed pattern, and is not bare paper.
    ``features`` as in :func:`classify`.
    """
    bare = features[:, LABELS.index(PointLabel.EMPTY)]
    result: np.ndarray = (channel_mean(bare[:, :3]) < -config.shadow_needs_cross) & (
        bare[:, 3] < 0.5)
    return result


def without_warmth(chroma: np.ndarray, cooler: np.ndarray | float,
                   warmer: np.ndarray | float) -> np.ndarray:
    """(n, 3) log chroma with its move along the warm-cool axis taken away, as far as up to
    ``cooler`` towards cool and up to ``warmer`` towards warm (per sample or for all)."""
    # Bounded by maximum and minimum: np.clip's wrapper costs more than both.
    move = np.minimum(np.maximum(chroma @ WARM, -np.asarray(cooler)), warmer)
    result: np.ndarray = chroma - move[:, None] * WARM
    return result


@dataclass(frozen=True, slots=True)
class ColourModel:
    """Mean and covariance of the paper-relative colour of each label."""

    means: np.ndarray
    """(3, features) mean feature of empty, red and black (rows in :data:`LABELS` order)."""
    covariances: np.ndarray
    """(3, features, features) covariance of each label, floors included."""

    def to_json(self) -> dict[str, object]:
        """JSON-ready data."""
        return {
            label.name.lower(): {
                "mean": [round(float(v), 6) for v in self.means[i]],
                "covariance": [[round(float(v), 8) for v in row] for row in self.covariances[i]],
            }
            for i, label in enumerate(LABELS)
        }

    @staticmethod
    def from_json(data: object) -> ColourModel:
        """Inverse of :meth:`to_json`; raises ValueError on malformed data."""
        if not isinstance(data, dict):
            raise ValueError("colour model is not an object")
        means, covariances = [], []
        for label in LABELS:
            entry = data[label.name.lower()]
            means.append(np.asarray(entry["mean"], np.float64).reshape(FEATURES))
            covariances.append(
                np.asarray(entry["covariance"], np.float64).reshape(FEATURES, FEATURES))
        model = ColourModel(np.stack(means), np.stack(covariances))
        if not np.all(np.isfinite(model.means)) or not np.all(np.isfinite(model.covariances)):
            raise ValueError("colour model has non-finite numbers")
        # A covariance must be symmetric and positive definite, or the distances of
        # classify() turn meaningless (negative) and every point looks confident or none.
        if not np.allclose(model.covariances, model.covariances.transpose(0, 2, 1)):
            raise ValueError("colour model has a covariance that is not symmetric")
        try:
            np.linalg.cholesky(model.covariances)
        except np.linalg.LinAlgError:
            reason = "colour model has a covariance that is not positive definite"
            raise ValueError(reason) from None
        return model


def learn_colours(config: VisionConfig, features: np.ndarray, labels: np.ndarray) -> ColourModel:
    """A model from labelled features: (n, labels, FEATURES) features (each label's own, see
    ``vision.sampling.BoardSamples.features``) and (n,) indices into :data:`LABELS`.

    Means are medians, so one piece badly off its point does not move its label; the
    spread is that of every sample, since glossy pieces under a lamp vary a lot.
    """
    along = np.outer(_SHADOW_DIRECTION, _SHADOW_DIRECTION)
    middles = [np.median(features[labels == index, index], axis=0)
               for index in range(len(LABELS))]
    empty = LABELS.index(PointLabel.EMPTY)
    # A bare point's cross may fade (blur, a small board in the image, deep shadow), while
    # a piece never shows one, so only a visible cross is strong evidence, unless a piece
    # set is the paper's colour: then the cross is what tells them apart.
    pale = any(float(np.linalg.norm(middles[index][:3] - middles[empty][:3])) < config.pale_piece
               for index in range(len(LABELS)) if index != empty)
    bare_cross = pale_bare_cross_spread(config, float(middles[empty][3])) if pale \
        else config.bare_cross_floor
    covariances = []
    for index, label in enumerate(LABELS):
        chosen = features[labels == index, index]
        spread = np.cov(chosen, rowvar=False) if len(chosen) > 2 else np.zeros(
            (FEATURES, FEATURES))
        # Glare at calibration must not make a label a catch-all for any colour.
        values, vectors = np.linalg.eigh(spread)
        spread = (vectors * np.minimum(values, config.largest_spread**2)) @ vectors.T
        cross = bare_cross if label is PointLabel.EMPTY else piece_cross_floor(
            config, float(np.linalg.norm(middles[index][:3] - middles[empty][:3])))
        floor = np.diag([config.colour_floor**2] * 3 + [cross**2])
        light = config.shadow_spread if label is PointLabel.EMPTY else config.top_light_spread
        covariances.append(spread + floor + light**2 * along)
    return ColourModel(np.stack(middles), np.stack(covariances))


def piece_cross_floor(config: VisionConfig, colour_distance: float) -> float:
    """Least spread of a piece set in the cross: wider for a set far from the paper's colour.

    A piece set down a little off its point uncovers the arms on its far side. For a dark
    or strongly coloured set the colour says plainly it is a piece, and the uncovered arms
    must not make it an outlier; for a set near the paper's colour the cross is evidence.
    """
    if colour_distance >= config.distinct_piece:
        return config.distinct_piece_cross_floor
    return config.cross_floor


@dataclass(frozen=True, slots=True)
class Classification:
    """The label and confidence of every point of one frame."""

    labels: np.ndarray
    """(points,) index into :data:`LABELS` of each point's best label."""
    confidences: np.ndarray
    """(points,) posterior of that label, 0..1."""
    distances: np.ndarray
    """(points, 3) Mahalanobis distance of each point to each label."""
    model: ColourModel | None = None
    """The model the frame was read with, when fitted to it (:func:`classify_in_frame`)."""


SHADOW_DEEPEST = 1.3
"""Darkest (log, below the paper round the point) a point may look, on the paper's plane
and on the pieces' tops', for its darkness to be taken for a shadow: a low lamp's shadows
were measured 0.8-1.4 deep on Blender renders, dark sets 1.5-2.2."""


def classify(config: VisionConfig, model: ColourModel, features: np.ndarray,
             shadowed: np.ndarray | None = None) -> Classification:
    """Label every point's features (points, labels, FEATURES) with a confidence.

    ``shadowed`` (points,) marks the points a piece's long shadow may cover in this frame
    (``vision.shadows``): there, a point showing its lines on the paper
    (:func:`lines_on_paper`) is judged as bare paper as bright as the paper round it (see
    :func:`_out_of_shadow`).
    """
    empty = LABELS.index(PointLabel.EMPTY)
    cross = features[:, empty, 3]
    showing = None if shadowed is None else lines_on_paper(config, model, features)
    features = features.copy()
    features[:, empty, :3] = _without_cool_shadow(config, features[:, empty, :3])
    if shadowed is not None:
        features[:, empty, :3] = _out_of_shadow(config, features, shadowed & showing)
    # A line seen more plainly than the bare points showed it at calibration (out of a
    # shadow, or of a spotlight's glare) is no evidence against bare paper.
    features[:, empty, 3] = np.minimum(cross, model.means[empty, 3])
    squared = _squared_distances(config, model, features)
    first = _posterior(config, squared)
    bare = first.labels == empty
    level = sharp_level(config, model)
    sharp = bare.sum() >= 3 and bool(median_along(cross[bare], 0) >= level)
    # In a frame sharp enough to show the bare points' crosses plainly, a missing cross is
    # strong evidence of a piece: the bare label's spread in it narrows to match.
    narrowed = pale_bare_cross_spread(config, float(model.means[empty, 3]))
    result = first
    if sharp:
        # Only the bare label's distances change: the pieces' are measured once.
        bare_label = slice(empty, empty + 1)
        squared = squared.copy()
        squared[:, bare_label] = _squared_distances(
            config, _with_bare_cross(model, narrowed), features, bare_label)
        result = _posterior(config, squared)
    labels, confidences = result.labels, result.confidences
    bare = labels == empty
    confidences[bare & dark_without_cross(config, features)] = 0.0
    if sharp:
        # A "bare" point without its lines where the others show them is something else:
        # a light piece, or a glossy one mirroring a lamp.
        confidences[bare & (cross < level / 3)] = 0.0
    else:
        # Pieces the colour of the paper (white on white) are told from it only by the
        # printed cross they cover; a frame too blurred to show the crosses cannot.
        for label in pale_labels(config, model):
            confidences[labels == label] = 0.0
    return result


def _without_cool_shadow(config: VisionConfig, colours: np.ndarray,
                         deepest: float | None = None) -> np.ndarray:
    """(points, 3) bare points' ``colours`` with the cooler light of a shadow taken away: a
    bare point in a piece's shadow is lit by the room's other light alone, and when that is
    cooler, so is the point (up to as far again as it is dark, ``deepest`` at most as for
    :func:`without_cool_light`)."""
    brightness = channel_mean(colours)[:, None]
    result: np.ndarray = brightness + without_cool_light(
        config, colours - brightness, np.maximum(-brightness[:, 0], 0.0), deepest=deepest)
    return result


DEEP_SHADOW_COOLING = 0.7
"""How much cooler (log, along the warm-cool axis) than the paper a point that shows its
lines may be, up to as much as it is dark, besides ``cool_light_tolerance``: a low lamp's
deep shadows are lit by the room's daylight alone. On Blender renders of a warm lamp low
beside the board they were 1.2 deep and up to 0.64 cooler, where a shadow beside a piece's
0.35 (``cool_shadow_tolerance``) left them blue: bare points there that showed their whole
cross were left doubtful, and a start position was refused."""


def lines_on_paper(config: VisionConfig, model: ColourModel, features: np.ndarray,
                   deepest: float = SHADOW_DEEPEST) -> np.ndarray:
    """(points,) the points that show their printed cross as plainly as a sharp frame's bare
    points, with the paper's colour (a shadow's cooler light allowed for, as far as
    ``DEEP_SHADOW_COOLING``), no darker than a shadow (``deepest``, SHADOW_DEEPEST unless
    the start position showed deeper ones): bare paper, maybe in a shadow.

    A piece on its point hides the middle of its cross, where the arms are sampled: a dark
    one all of it (a few grey levels of shading on its side are no line:
    ``vision.sampling.LINE_DEPTH``), one set down a third of a pitch off shows an arm or
    two. A printed top's rings may pass for lines, but the point then has the print's
    colours, not the paper's. A dark glossy top at the board's edge, its rim mirroring
    the lamp, showed most of a cross, and is darker than any shadow.
    """
    empty = LABELS.index(PointLabel.EMPTY)
    colours = _without_cool_shadow(config, features[:, empty, :3], DEEP_SHADOW_COOLING)
    brightness = channel_mean(colours)[:, None]
    darkness = np.maximum(-brightness[:, 0], 0.0)
    paper_chroma = model.means[empty, :3] - model.means[empty, :3].mean()
    # The darker a sample, the noisier its colour, and the less of its light the paper's.
    papery = channel_norm(colours - brightness - paper_chroma) <= (
        config.paper_chroma_tolerance * (1.0 + darkness / 2))
    result: np.ndarray = (papery & (darkness <= deepest)
                          & (features[:, empty, 3] >= sharp_level(config, model)))
    return result


def _out_of_shadow(config: VisionConfig, features: np.ndarray, showing: np.ndarray
                   ) -> np.ndarray:
    """(points, 3) the bare label's colours of ``features`` with a shadow's darkness taken
    away where the points ``showing`` their lines on the paper in a piece's long shadow are
    no darker than SHADOW_DEEPEST on the tops' plane.

    Under a low lamp each piece casts a shadow a pitch or two long over the next points.
    The start position's bare points lay mostly out of them, so the bare label learned
    little of a shadow's darkness: a shadowed bare point was read unsurely, nearly as a
    dark piece, though it showed its lines plainly. Only where the lamp's shadows were
    learned and fall in this frame, and not as dark as a dark set: a dark top set down a
    third of a pitch off its point may show most of its cross.
    """
    empty = LABELS.index(PointLabel.EMPTY)
    colour = features[:, empty, :3]
    tops = features[:, [LABELS.index(label) for label in PIECE_LABELS], :3]
    lifted_points = showing & (channel_mean(tops).min(axis=1) >= -SHADOW_DEEPEST)
    darkness = np.clip(-channel_mean(colour), 0.0, config.paper_dark_tolerance)
    lifted: np.ndarray = colour + np.where(lifted_points, darkness, 0.0)[:, None]
    return lifted


def classify_in_frame(config: VisionConfig, model: ColourModel, features: np.ndarray,
                      shadowed: np.ndarray | None = None) -> Classification:
    """Like :func:`classify`, with the piece sets' colours fitted to this frame when some
    point is unsure.

    Measured on room renders: exposure drift, a lamp's glare on glossy sets and low warm
    light shift a set's colour in one frame far enough from the start position's that its
    pieces fall between the two sets, read right but unsure. A set's median over the
    pieces read as it with full confidence follows the shift; unsure ones do not count
    (two glared black tops read as red among three red pieces pulled red's median to
    them, and made one of them sure). Fewer than ``frame_fit_pieces`` move nothing.
    ``shadowed`` as for :func:`classify`.
    """
    first = classify(config, model, features, shadowed)
    sure = first.confidences >= config.confident
    if sure.all():
        return first
    means = model.means.copy()
    for index, label in enumerate(LABELS):
        chosen = (first.labels == index) & sure
        if label is PointLabel.EMPTY or chosen.sum() < config.frame_fit_pieces:
            continue
        shift = median_along(features[chosen, index, :3], 0) - model.means[index, :3]
        length = float(np.linalg.norm(shift))
        if length > config.frame_fit_limit:
            shift *= config.frame_fit_limit / length
        means[index, :3] += shift
    fitted = ColourModel(means, model.covariances)
    return replace(classify(config, fitted, features, shadowed), model=fitted)


def sharp_level(config: VisionConfig, model: ColourModel) -> float:
    """The cross feature of most bare points in a frame as sharp as the calibration image.

    A small board in a low-resolution image draws its lines fainter even when in focus,
    so the level follows the bare points' cross learned at calibration (up to the config's).
    """
    empty = LABELS.index(PointLabel.EMPTY)
    return min(config.sharp_cross, config.sharp_share * float(model.means[empty, 3]))


LEAST_CROSS_SPREAD_SHARE = 0.5
"""Least share of ``pale_bare_cross_floor`` that :func:`pale_bare_cross_spread` keeps."""


def pale_bare_cross_spread(config: VisionConfig, bare_cross: float) -> float:
    """Least spread of bare points in the cross where it tells pieces from them, for bare
    points whose cross was ``bare_cross`` at calibration.

    A board small in the image draws its lines fainter, and the blur and the pose's error
    that vary a line's contrast from point to point shrink with it: the spread follows the
    level, or a white set on white paper, covering a cross of half the full contrast, is
    never read with confidence. It stays at least half the full floor: a calibration
    image that shows the lines barely or not at all (a spotlight burning the paper white)
    says nothing of how they vary.
    """
    return config.pale_bare_cross_floor * min(1.0, max(bare_cross / config.sharp_cross,
                                                       LEAST_CROSS_SPREAD_SHARE))


def _with_bare_cross(model: ColourModel, spread: float) -> ColourModel:
    """The model with the bare label's cross variance at most ``spread`` squared."""
    covariances = model.covariances.copy()
    empty = LABELS.index(PointLabel.EMPTY)
    covariances[empty, 3, :] = covariances[empty, :, 3] = 0.0
    covariances[empty, 3, 3] = min(float(model.covariances[empty, 3, 3]), spread**2)
    return ColourModel(model.means, covariances)


GLARE_STEPS = 6
"""Amounts of glare tried per piece label, from none to ``config.glare_limit``."""


@dataclass(frozen=True, slots=True)
class _LabelTables:
    """What matching a frame against one colour model needs, computed once per model."""

    inverse: np.ndarray
    """(labels, f, f) inverse covariances."""
    glared: np.ndarray
    """(glare, labels, f) each label's mean with each amount of glare added."""
    allowed: np.ndarray
    """(glare, labels) whether a label may be matched with that much glare."""


_TABLES_KEPT = 4
_tables_by_model: dict[tuple[bytes, bytes, float, float], _LabelTables] = {}


def _label_tables(config: VisionConfig, model: ColourModel) -> _LabelTables:
    """The model's tables, from a small cache: a frame matches against the same model
    up to four times (two passes, each maybe with the bare cross narrowed)."""
    key = (model.means.tobytes(), model.covariances.tobytes(), config.glare_limit,
           config.glare_clearance)
    tables = _tables_by_model.get(key)
    if tables is None:
        tables = _LabelTables(np.linalg.inv(model.covariances), *_glare_tables(config, model))
        if len(_tables_by_model) >= _TABLES_KEPT:
            del _tables_by_model[next(iter(_tables_by_model))]
        _tables_by_model[key] = tables
    return tables


_glare_by_colours: dict[tuple[bytes, bytes, float, float], tuple[np.ndarray, np.ndarray]] = {}


def _glare_tables(config: VisionConfig, model: ColourModel) -> tuple[np.ndarray, np.ndarray]:
    """The model's glared means and where they are allowed (``_LabelTables``), from a small
    cache of their own: they depend on the means and the colours' covariances only, which
    the model with the bare cross narrowed keeps, and the adapted model's means change
    every few frames."""
    colour = slice(0, 3)
    key = (model.means.tobytes(), model.covariances[:, colour, colour].tobytes(),
           config.glare_limit, config.glare_clearance)
    tables = _glare_by_colours.get(key)
    if tables is None:
        glared = _glared_means(config, model)
        tables = glared, _glare_allowed(config, model, glared)
        if len(_glare_by_colours) >= _TABLES_KEPT:
            del _glare_by_colours[next(iter(_glare_by_colours))]
        _glare_by_colours[key] = tables
    return tables


GLARE_REMOVED = (0.3, 0.6, 0.85)
"""Shares of a piece label's darkest channel (linear) tried as glare it had when learned.

A glossy set under a lamp above shows glare on every top of the start position, so the
colour learned is the glared one; a top of that set later out of the glare is darker and
purer in colour, along the same curve run backwards."""


def _glared_means(config: VisionConfig, model: ColourModel) -> np.ndarray:
    """(glare, labels, f) each label's mean with each amount of glare added (pieces only):
    first none, then more up to ``config.glare_limit``, then the learned glare taken away."""
    added = np.linspace(0.0, config.glare_limit, GLARE_STEPS)
    pieces = [index for index in range(len(LABELS)) if LABELS[index] is not PointLabel.EMPTY]
    linear = np.exp(model.means[:, :3])
    amounts = np.zeros((GLARE_STEPS + len(GLARE_REMOVED), len(LABELS)))
    amounts[:GLARE_STEPS, pieces] = added[:, None]
    amounts[GLARE_STEPS:, pieces] = -np.outer(GLARE_REMOVED, linear[pieces].min(axis=1))
    glared = np.repeat(model.means[None, :, :], len(amounts), axis=0)
    glared[:, :, :3] = np.log(linear[None] + amounts[:, :, None])
    return glared


def _squared_distances(config: VisionConfig, model: ColourModel, features: np.ndarray,
                       chosen: slice = slice(None)) -> np.ndarray:
    """(points, labels) squared Mahalanobis distance, glare on the pieces allowed for, to
    the ``chosen`` labels (by index; all of them by default).

    A glossy top mirrors the lamp: light of the lamp's colour is added to the piece's own,
    which in log colour is no shift along one direction but a pull towards the paper's
    colour, strongest on dark pieces. So a black top under glare turns grey, never red,
    and a dark red one pink, never grey: each piece label is matched at the amount of
    added light (a share of the paper's brightness) that fits the sample best.
    """
    tables = _label_tables(config, model)
    # (points, glare, labels, f)
    differences = features[:, None, chosen, :] - tables.glared[None, :, chosen]
    # Batched per label as matrix products: several times faster than one einsum here.
    points, steps, labels, size = differences.shape
    by_label = differences.transpose(2, 0, 1, 3).reshape(labels, points * steps, size)
    squared = short_sum((by_label @ tables.inverse[chosen]) * by_label).reshape(
        labels, points, steps).transpose(1, 2, 0)
    result: np.ndarray = np.where(tables.allowed[None, :, chosen], squared, np.inf).min(axis=1)
    return result


def _glare_allowed(config: VisionConfig, model: ColourModel, glared: np.ndarray) -> np.ndarray:
    """(glare, labels) whether a label may be matched with that much glare.

    Glare may not carry a piece onto another label: dark wood under a lamp looks like light
    wood, a mid-tone set like paper in the shade. Only as much glare as keeps a label's
    colour ``glare_clearance`` standard deviations from every other label's is tried.
    """
    colour = slice(0, 3)
    inverse = np.linalg.inv(model.covariances[:, colour, colour])
    differences = glared[:, :, None, colour] - model.means[None, None, :, colour]
    squared = np.einsum("glmi,mij,glmj->glm", differences, inverse, differences)
    own = np.arange(len(LABELS))
    squared[:, own, own] = np.inf
    allowed: np.ndarray = squared.min(axis=2) >= config.glare_clearance**2
    allowed[0] = True
    return allowed


def _posterior(config: VisionConfig, squared: np.ndarray) -> Classification:
    """Each point's label and confidence from its squared distances (points, labels)."""
    distances = np.sqrt(np.maximum(squared, 0))
    # Posterior against the other labels and an outlier alternative, computed from
    # the smallest distance to stay finite far from every label.
    best = squared.min(axis=1, keepdims=True)
    # Far from every label, the nearer one is less sure than the gap alone says: a glossy
    # red top washed out by a lamp's glare can end up nearer a grey-black set. The gap is
    # judged in units that grow with the distance to the nearest label.
    temper = np.maximum(best / config.tempered_distance**2, 1.0)
    weights = np.exp(-(squared - best) / (2 * temper))
    outlier = np.exp(np.minimum(best[:, 0] - config.outlier_distance**2, 50.0) / 2)
    labels = weights.argmax(axis=1)
    confidences = weights.max(axis=1) / (weights.sum(axis=1) + outlier)
    return Classification(labels, confidences, distances)


def among(labels: np.ndarray, chosen: list[int]) -> np.ndarray:
    """Whether each of ``labels`` (indices into :data:`LABELS`) is one of ``chosen``: as
    np.isin, without its cost (it prepares for long lists; these hold two labels at most)."""
    result = np.zeros(labels.shape, bool)
    for label in chosen:
        result |= labels == label
    return result


_pale_labels_by_means: dict[tuple[bytes, float], tuple[int, ...]] = {}


def pale_labels(config: VisionConfig, model: ColourModel) -> list[int]:
    """The piece labels whose colour is too near the paper's to tell them apart by colour."""
    # From a small cache: a frame asks three or four times, and the model changes every
    # few frames at most.
    key = (model.means.tobytes(), config.pale_piece)
    pale = _pale_labels_by_means.get(key)
    if pale is None:
        empty = LABELS.index(PointLabel.EMPTY)
        pale = tuple(index for index in range(len(LABELS)) if index != empty and float(
            np.linalg.norm(model.means[index, :3] - model.means[empty, :3])) < config.pale_piece)
        if len(_pale_labels_by_means) >= _TABLES_KEPT:
            del _pale_labels_by_means[next(iter(_pale_labels_by_means))]
        _pale_labels_by_means[key] = pale
    return list(pale)


_LABEL_INDICES = np.arange(len(LABELS))


class PieceShare(NamedTuple):
    """How much of each point's sample looks like a piece rather than paper, and which."""

    share: np.ndarray
    """(points,) the share of the sample's pixels that look like a coloured or dark set."""
    label: np.ndarray
    """(points,) the label index of the set most of those pixels look like (of the set with
    the most of them; the bare label where none do)."""


def piece_share(config: VisionConfig, model: ColourModel, pixels: np.ndarray) -> PieceShare:
    """Per point, the share of its sample's pixels that look like a piece rather than paper.

    ``pixels`` is (points, k, 3) paper-relative log colours. Each pixel goes to the
    nearest label by colour alone (its noise widens every label); a bare point's pixels
    are paper or shadow, so pieces in them mean a piece set down partly over the point.
    """
    means = model.means[:, :3]
    inverse = _pixel_inverses(config, model)
    # One matrix product per label: several times faster than one einsum over all three.
    squared = np.stack([_squared_lengths(pixels - mean, inverse_covariance)
                        for mean, inverse_covariance in zip(means, inverse, strict=True)],
                       axis=2)
    nearest = squared.argmin(axis=2)
    # A pale piece's pixels look like paper's: only the coloured and dark sets count.
    silent = [LABELS.index(PointLabel.EMPTY), *pale_labels(config, model)]
    counts = np.add.reduce(nearest[:, :, None] == _LABEL_INDICES, axis=1)
    counts[:, silent] = 0
    label = np.where(counts.any(axis=1), counts.argmax(axis=1), LABELS.index(PointLabel.EMPTY))
    return PieceShare(counts.sum(axis=1) / nearest.shape[1], label)


def _squared_lengths(differences: np.ndarray, inverse_covariance: np.ndarray) -> np.ndarray:
    """(points, k) the squared Mahalanobis length of each of ``differences`` (points, k, 3)."""
    result: np.ndarray = short_sum((differences @ inverse_covariance) * differences)
    return result


_pixel_inverses_by_model: dict[tuple[bytes, float, float], np.ndarray] = {}


def _pixel_inverses(config: VisionConfig, model: ColourModel) -> np.ndarray:
    """(labels, 3, 3) the inverse covariances of single pixels' colours, from a small cache
    (the model changes every few frames at most)."""
    key = (model.covariances.tobytes(), config.pixel_noise, config.pixel_shadow_spread)
    inverse = _pixel_inverses_by_model.get(key)
    if inverse is None:
        covariances = model.covariances[:, :3, :3] + np.eye(3) * config.pixel_noise**2
        # A single pixel of a shadow's edge can be darker than the points' medians ever are.
        shadow = _SHADOW_DIRECTION[:3]
        covariances[LABELS.index(PointLabel.EMPTY)] += (
            config.pixel_shadow_spread**2 * np.outer(shadow, shadow))
        inverse = np.linalg.inv(covariances)
        if len(_pixel_inverses_by_model) >= _TABLES_KEPT:
            del _pixel_inverses_by_model[next(iter(_pixel_inverses_by_model))]
        _pixel_inverses_by_model[key] = inverse
    return inverse


def adapt(config: VisionConfig, model: ColourModel, features: np.ndarray,
          labels: np.ndarray) -> ColourModel:
    """The model nudged towards a confidently read frame's colours."""
    means = model.means.copy()
    rate = config.adaptation_rate
    for index in range(len(LABELS)):
        chosen = features[labels == index, index]
        if len(chosen):
            means[index] = (1 - rate) * means[index] + rate * mean_along(chosen, 0)
    return ColourModel(means, model.covariances)
