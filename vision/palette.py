"""Telling printed or patterned tops by the colours they are made of, wherever they lie.

Decisions:
- A point's colour is one number per channel from a small disc round it (a low quantile,
  ``vision.sampling``). For a plain top that is the top's colour wherever the piece lies;
  for a printed one (a ring, an emblem) it depends on which part of the print the disc
  falls on, and a piece set a little off its point can look like the other set, or like
  paper: a yellow ring on a black top, a white dot on a red one. Calibration then found
  "odd points" on a start position a person sees as plainly right.
- The colours a top is made of do not depend on where it lies. Each label's *palette* is
  the histogram of its pixels' colours over the start position (log colour relative to the
  paper round each point: brightness and two chroma axes, ``BINS`` bins each), and a point
  is scored by how much likelier its own pixels are under one palette than under another
  (the mean log-likelihood ratio per pixel), as a bag: the print's offset does not matter.
- The palette is a second witness: it names a label only where the colours are in doubt
  (a piece they read unsurely, a start position piece they call odd). At calibration it
  lets a start position piece pass that the colours call odd when its pixels fit its own
  set's palette plainly better than the others' (``SURE`` per pixel, its own pixels left
  out of its set's palette): a missing piece or one of the other set fits another
  palette, and stays odd. Such pieces are left out of what the colours learn.
- In a frame (and in the start position), a piece the colours read unsurely is sure when
  its pixels plainly fit its set's palette: two witnesses agree. So is a piece whose top's
  parts tell two sets (a split top), or whose rim is darker than its set's, when its
  pixels plainly fit the set read. Where the colours name a piece's set plainly but not
  surely, a lesser margin over the other set's palette (``AGREEING``) confirms it: neither
  witness is sure alone, but they agree. In a frame, a piece the colours read unsurely whose
  pixels plainly fit the other set's palette is of that set (``settled``: a glossy black
  top a spotlight reddens); one the colours read surely is doubtful, with both sets as its
  choices: a printed top read as the other set never passes as sure.
- Only pieces, and only between the two sets: bare paper is told by the printed cross it
  shows, and the paper's palette is the least sure (paper in a shadow, or lit by another
  light than the start position's, may fit a pale set's palette better than its own).
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from vision.colour import LABELS, Classification, PointLabel, among
from vision.reductions import channel_mean, mean_along
from vision.set_contrast import plainly_a_piece

_EMPTY = LABELS.index(PointLabel.EMPTY)
_RED, _BLACK = LABELS.index(PointLabel.RED), LABELS.index(PointLabel.BLACK)

BINS = 12
"""Bins per axis of a palette: brightness, red against green, blue against green."""
BRIGHTNESS_RANGE = (-2.5, 0.5)
"""Log brightness relative to the paper the brightness bins span (darker or brighter
pixels fall in the first or last bin)."""
CHROMA_RANGE = (-1.0, 1.0)
"""Log chroma relative to the paper the chroma bins span."""
RADIUS = 0.3
"""Radius (pitches) of the disc round each point whose pixels are scored: most of a top,
little of the paper round it."""
FLOOR = 1e-3
"""Least probability of a bin, so that a pixel no start position piece showed (glare, a
speck) counts against a palette without deciding alone."""
SURE = 1.5
"""Least mean log-likelihood ratio per pixel by which a point's pixels must favour one
palette over each other for the palette to give it that label. Measured on physically
based renders (six sets, 8,977 pieces in frames): of the pieces the colours left unsure,
104 were confirmed at 1.5, all rightly, where 1.0 confirmed 131 and 5 wrongly (glossy
tops a lamp greyed, which the palette cannot tell either). The printed tops refused as
odd at calibration favoured their own set by 1.3 to 4.0."""


@dataclass(frozen=True, slots=True, eq=False)
class Palette:
    """The pixel counts of each label's tops over the start position."""

    counts: np.ndarray
    """(labels, BINS**3) pixel counts per bin, rows in :data:`vision.colour.LABELS` order."""
    log_probabilities: np.ndarray = field(init=False, repr=False)
    """(labels, BINS**3) log probability of each bin (:func:`_log_probabilities`), worked
    out once: every frame scores against it."""

    def __post_init__(self) -> None:
        object.__setattr__(self, "log_probabilities", _log_probabilities(self.counts))

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Palette) and np.array_equal(self.counts, other.counts)

    def to_json(self) -> dict[str, object]:
        """JSON-ready data: each label's non-empty bins and their counts."""
        return {label.name.lower(): {str(int(bin_)): int(self.counts[i, bin_])
                                     for bin_ in np.flatnonzero(self.counts[i])}
                for i, label in enumerate(LABELS)}

    @staticmethod
    def from_json(data: object) -> Palette:
        """Inverse of :meth:`to_json`; raises ValueError on malformed data."""
        if not isinstance(data, dict):
            raise ValueError("palette is not an object")
        counts = np.zeros((len(LABELS), BINS**3))
        for i, label in enumerate(LABELS):
            bins = data[label.name.lower()]
            if not isinstance(bins, dict) or not bins:
                raise ValueError(f"palette of {label.name.lower()} is not a set of bins")
            for bin_, count in bins.items():
                index, value = int(bin_), float(count)
                if not 0 <= index < BINS**3 or not value > 0:
                    raise ValueError("bad palette bin")
                counts[i, index] = value
        return Palette(counts)


_AXIS_RANGES = (BRIGHTNESS_RANGE, CHROMA_RANGE, CHROMA_RANGE)
_AXIS_LOWS = np.array([low for low, _ in _AXIS_RANGES])[:, None, None]
_AXIS_SPANS = np.array([high - low for low, high in _AXIS_RANGES])[:, None, None]
"""Where the bins of each axis of a palette (brightness, red against green, blue against
green) start, and how wide they span, each as a (3, 1, 1) column."""


def bin_codes(pixel_logs: np.ndarray, paper_logs: np.ndarray) -> np.ndarray:
    """(points, k) each pixel's palette bin; ``pixel_logs`` (points, k, 3) log BGR of the
    pixels, ``paper_logs`` (points, 3) log BGR of the paper round each point."""
    relative = pixel_logs - paper_logs[:, None, :]
    axes = np.stack([channel_mean(relative), relative[..., 2] - relative[..., 1],
                     relative[..., 0] - relative[..., 1]])
    # The three axes binned together: the same arithmetic as one by one, in a third of the
    # numpy calls. Bounded by maximum and minimum: np.clip's wrapper costs more than both.
    index = np.minimum(np.maximum(
        ((axes - _AXIS_LOWS) / _AXIS_SPANS * BINS).astype(np.intp), 0), BINS - 1)
    code: np.ndarray = (index[0] * BINS + index[1]) * BINS + index[2]
    return code


def paper_logs(paper: np.ndarray) -> np.ndarray:
    """(points, 3) log BGR of the paper round each point (``BoardSamples.paper_round``)."""
    result: np.ndarray = np.log(np.maximum(paper, 1.0))
    return result


BARE_CROSS = 0.5
"""Least cross feature (a share of a plain line's contrast) a point read as bare shows for its
palette not to count against it. A printed red top read as bare in a person's shade (a
Blender render) showed 0.42; at 0.7, bare points between a low lamp's shadows (a room
session) were doubted often enough that 12 of 20 moves waited for the game's boards."""


def set_on_bare(palette_verdicts: np.ndarray, labels: np.ndarray, others: np.ndarray,
                cross: np.ndarray, pale: list[int]) -> np.ndarray:
    """(points,) ``others`` with the set a point read as bare paper may hold instead, where
    its pixels plainly fit that set's palette (``palette_verdicts`` as :func:`verdicts`) and
    it shows less than ``BARE_CROSS`` of the cross (``cross``, as the classifier's feature): a
    printed top whose disc falls on its pale ring and centre looks like paper by its
    colour, but its colours are its set's. Read as bare, it would be a capture nobody made.
    Bare paper beside a piece shows its whole cross. The ``pale`` sets (label indices) are
    made of the paper's colours: their palette tells nothing of bare paper."""
    empty = LABELS.index(PointLabel.EMPTY)
    told = (labels == empty) & (palette_verdicts >= 0) & (palette_verdicts != empty) & (
        cross < BARE_CROSS) & ~among(palette_verdicts, pale)
    result: np.ndarray = np.where(told, palette_verdicts, others)
    return result


def the_set_besides(palette_verdicts: np.ndarray, labels: np.ndarray, others: np.ndarray
                    ) -> np.ndarray:
    """(points,) the label each point may hold besides the one read (``labels``), as the
    palette has it (``palette_verdicts`` as :func:`verdicts`): a piece's ``others`` (what a
    split top or a dark rim tells, or ``labels`` where nothing does) unless that is the
    other set and the piece's pixels plainly fit its own set's palette; and for a piece
    nothing else doubted, the other set when its pixels plainly fit that set's palette.
    Bare paper, and a piece that may be bare paper, are left as they are: the paper's
    palette is the least sure."""
    empty = LABELS.index(PointLabel.EMPTY)
    pieces = (labels != empty) & (others != empty)
    own_set = pieces & (palette_verdicts == labels)
    other_set = pieces & (others == labels) & (palette_verdicts != empty) & (
        palette_verdicts >= 0)
    result: np.ndarray = np.where(own_set, labels, np.where(other_set, palette_verdicts, others))
    return result


def histograms(codes: np.ndarray) -> np.ndarray:
    """(points, BINS**3) pixel counts per bin of each point."""
    offsets = codes + (np.arange(len(codes)) * BINS**3)[:, None]
    counts: np.ndarray = np.bincount(offsets.ravel(), minlength=len(codes) * BINS**3)
    return counts.reshape(len(codes), BINS**3).astype(np.float64)


def learn_palette(codes: np.ndarray, expected: np.ndarray) -> Palette:
    """The start position's palette (``expected`` its label indices)."""
    counts = histograms(codes)
    return Palette(np.stack([counts[expected == i].sum(axis=0) for i in range(len(LABELS))]))


def _log_probabilities(counts: np.ndarray) -> np.ndarray:
    """Log probability of each bin of each row of counts, floored at FLOOR."""
    totals = np.maximum(counts.sum(axis=-1, keepdims=True), 1.0)
    result: np.ndarray = np.log(counts / totals + FLOOR)
    return result


def scores(palette: Palette, codes: np.ndarray) -> np.ndarray:
    """(points, labels) each point's mean log-likelihood per pixel under each palette."""
    # Numpy's take is several times faster than the same indexing.
    per_pixel = np.take(palette.log_probabilities, codes, axis=1)
    result: np.ndarray = mean_along(per_pixel, 2).T
    return result


def verdicts(point_scores: np.ndarray) -> np.ndarray:
    """(points,) the label index each point's pixels favour over both others by ``SURE``
    per pixel, or -1 where no palette is plainly likeliest; ``point_scores`` as
    :func:`scores`."""
    order = np.argsort(-point_scores, axis=1)
    rows = np.arange(len(point_scores))
    best, second = point_scores[rows, order[:, 0]], point_scores[rows, order[:, 1]]
    result: np.ndarray = np.where(best - second >= SURE, order[:, 0], -1)
    return result


LEANING = 0.3
"""Least mean log-likelihood ratio per pixel by which a piece's pixels must favour the other
set's palette over its own set's (the paper's left aside) for the piece to be doubtful:
less than ``SURE``, for it only ever makes a piece doubtful. A black top printed with a
yellow ring and a grey centre, a little off its point under a spotlight (a Blender render),
was read as red, surely, while its pixels favoured black by 0.35, 0.76 and 1.47 in three
frames. Lowered from 0.5 to 0.3, it left as many frames read, alone and in play, in two
Blender and two room sets (about 1,360 frames): in play, one low-lamp frame fewer and one
spotlight frame more."""


def leaning_sets(point_scores: np.ndarray, margin: float | None = None) -> np.ndarray:
    """(points,) the piece set whose palette each point's pixels favour over the other
    set's by ``margin`` (``LEANING`` when not given) per pixel, or -1 (the paper's palette
    left aside); ``point_scores`` as :func:`scores`."""
    margin = LEANING if margin is None else margin
    red, black = LABELS.index(PointLabel.RED), LABELS.index(PointLabel.BLACK)
    apart = point_scores[:, red] - point_scores[:, black]
    result: np.ndarray = np.where(apart >= margin, red, np.where(apart <= -margin, black, -1))
    return result


def confirmed(palette_verdicts: np.ndarray, labels: np.ndarray, confidences: np.ndarray,
              sure: float) -> np.ndarray:
    """(points,) ``confidences`` raised to ``sure`` where a piece the colours read unsurely
    has pixels that plainly fit its set's palette (``palette_verdicts`` as
    :func:`verdicts`): two witnesses that agree."""
    confirms = (labels != LABELS.index(PointLabel.EMPTY)) & (palette_verdicts == labels)
    result: np.ndarray = np.where(confirms, np.maximum(confidences, sure), confidences)
    return result


AGREEING = 1.0
"""Least mean log-likelihood ratio per pixel by which the pixels of a piece the colours read
unsurely must favour its set's palette over the other set's, when the colours too name that
set plainly, for the two to confirm it (:func:`agreeing`): two thirds of ``SURE``. On five
render sets (Blender seeds 302, 401 and 701, room sets 501 and 502), 41 unsure pieces met
every condition and all were of the set read. The nearest piece of the other set that the
colours named plainly favoured its palette by 0.73 (light and dark wood under a ceiling
lamp). With those sets and seed 801, the benchmark read one wrong board at 0.75 without
``COLOURS_APART``, none at 0.5 with it."""
COLOURS_APART = 0.3
"""Least distance (standard deviations) by which such a piece's colour must lie nearer its
set than the other set for the colours to name it plainly. The wood top above, and another
of that board favouring its palette by 0.84, lay 0.15 and 0.07 nearer: at 0 the benchmark
read one wrong board with ``AGREEING`` 0.75, none at 1.0."""
NEAR_OWN = 1.0
"""Most distance (standard deviations) of a piece's colour from its set's, and least
distance by which it must lie nearer that set than the other, for the colours to name it
so plainly that pixels leaning to its palette at all (``LEANING``) confirm it. Cream and
brown tops under a ceiling lamp differ mostly in brightness, which the colour model lets
vary most: a brown top half a deviation from brown and two from cream was read at 0.86,
its pixels favouring brown by 0.56 (Blender seed 901). On eleven render sets (about 2,000
hand-free frames), the 9 unsure pieces this confirms were all of the set read; the nearest
point of another label that met the rest lay 3.5 deviations from the set read (a bare point
in a low lamp's shadow, read as black)."""


def agreeing(point_scores: np.ndarray, result: Classification, sure: float) -> np.ndarray:
    """(points,) the confidences of ``result`` raised to ``sure`` where the colours read a
    piece unsurely but name its set plainly (no outlier, plainly not bare, ``COLOURS_APART``
    nearer that set than the other) and its pixels favour that set's palette over the other
    set's by ``AGREEING`` and over the paper's at all (``point_scores`` as :func:`scores`),
    or by ``LEANING`` where the colours name it very plainly (``NEAR_OWN``): two witnesses
    that agree, neither alone sure."""
    labels, distances = result.labels, result.distances
    points = np.arange(len(labels))
    other = _other_sets(labels)
    own = distances[points, labels]
    nearer_by = distances[points, other] - own
    colours_name_it = plainly_a_piece(result) & (nearer_by >= COLOURS_APART)
    colours_name_it_plainly = colours_name_it & (own <= NEAR_OWN) & (nearer_by >= NEAR_OWN)
    own_scores = point_scores[points, labels]
    favoured_by = own_scores - point_scores[points, other]
    fits_a_set = own_scores >= point_scores[:, _EMPTY]
    confirms = (result.confidences < sure) & fits_a_set & (
        (colours_name_it & (favoured_by >= AGREEING))
        | (colours_name_it_plainly & (favoured_by >= LEANING)))
    confidences: np.ndarray = np.where(confirms, sure, result.confidences)
    return confidences


def _other_sets(labels: np.ndarray) -> np.ndarray:
    """(points,) the piece set other than each label's (red for bare paper)."""
    result: np.ndarray = np.where(labels == _RED, _BLACK, _RED)
    return result


def settled(palette_verdicts: np.ndarray, labels: np.ndarray, confidences: np.ndarray,
            sure: float) -> tuple[np.ndarray, np.ndarray]:
    """``labels`` and ``confidences`` with each piece the colours read unsurely (below
    ``sure``) as one set whose pixels plainly fit the other set's palette
    (``palette_verdicts`` as :func:`verdicts`) read as that set, surely: a glossy black top
    a lamp reddens, or a red one it darkens, keeps the colours it is made of. A piece the
    colours read surely stays as it is (unless :func:`overruled`), and so does bare paper
    (the paper's palette is the least sure) and a point the palette does not tell."""
    empty = LABELS.index(PointLabel.EMPTY)
    other_set = ((labels != empty) & (confidences < sure) & (palette_verdicts >= 0)
                 & (palette_verdicts != empty) & (palette_verdicts != labels))
    return (np.where(other_set, palette_verdicts, labels),
            np.where(other_set, sure, confidences))


def overruled(point_scores: np.ndarray, labels: np.ndarray) -> np.ndarray:
    """``labels``, with each piece whose pixels favour the other set's palette over its own
    set's by ``SURE`` per pixel, and over the paper's by ``LEANING``, read as that set,
    however surely the colours read it (``point_scores`` as :func:`scores`).

    Which set a piece is of is a question between the two sets' palettes: a dark wood top
    at the edge of a spotlight's cone, or a printed black one whose yellow ring a warm lamp
    reddens, was read surely as the other set, its pixels favouring its own by 2.5 per
    pixel. On nine render sets (about 2,000 hand-free frames), the colours and the palette
    disagreed so on 31 pieces, and the palette was right on all of them. The pieces of the
    set read whose pixels favoured the other set more were white tops beside black ones
    that mirrored a pendant lamp at calibration (by up to 2.0): their pixels fit the
    paper's palette better still (by 0.2 and more).
    """
    points = np.arange(len(labels))
    other = _other_sets(labels)
    own_scores = point_scores[points, labels]
    other_scores = point_scores[points, other]
    told = ((labels != _EMPTY) & (other_scores - own_scores >= SURE)
            & (other_scores - point_scores[:, _EMPTY] >= LEANING))
    result: np.ndarray = np.where(told, other, labels)
    return result


def own_set_fits(palette: Palette, codes: np.ndarray, expected: np.ndarray) -> np.ndarray:
    """(points,) the start position's points whose pixels favour their own label's palette,
    learned without them, over each other's by ``SURE`` per pixel."""
    counts = histograms(codes)
    fits = np.zeros(len(codes), bool)
    for point, label in enumerate(expected):
        left_out = palette.counts.copy()
        left_out[label] -= counts[point]
        per_bin = _log_probabilities(left_out)
        fits[point] = verdicts(per_bin[:, codes[point]].mean(axis=1)[None])[0] == label
    return fits
