"""Telling the two piece sets apart by the colour a lamp's glare cannot make.

Decisions:
- A glossy top mirrors the lamp: light of about the paper's colour is added to the top's
  own. In linear colour relative to the paper that adds the same amount to every channel,
  so what a top has in each channel beyond its weakest one (its *excess*) is the same
  with glare or without; and since it is relative to the paper round the point, a top in
  the lamp's cone and one outside it show the same excess too. A red top washed pink by
  glare keeps its red excess; a black one turned grey keeps none.
- The colour model (``vision.colour``) reads log colours, where glare moves a red top
  towards the black set's grey, and its spreads are wide enough for any light. On glossy
  sets under a lamp, a piece can then sit between the two sets: read right, but unsure.
  The excess is a second, narrower witness for that one question, red or black: learned
  at calibration as the line between the two sets' median excesses, the middle of that
  line, and how far the start position's pieces spread along it.
- It confirms: a point the colour model reads as a piece, plainly not bare, and no
  outlier, whose excess lies on its own set's side of the middle by at least
  ``SURE_SPREADS`` spreads is sure; so is one whose pixels plainly favour its set's
  palette over the other set's (``vision.palette``) and whose excess lies on its own
  side at all: two witnesses that agree. It disputes: a piece whose excess lies on the other
  set's side by ``DISPUTE_SPREADS`` or more is unsure, unless the piece's pixels plainly
  fit its own set's palette (``vision.palette``; the reader's choice: a printed top's ring
  has an excess of its own). It never changes a label, and it confirms nothing when the
  start position's two sets are not ``APART_SPREADS`` apart along the line.
- Then it may still dispute. Glossy tops mirror the room as well as the lamp, and a few of
  the start position's red tops under a wide lens showed as little excess as the black
  ones: the red set spread over the whole line. A black top greyed by the lamp later in
  a frame was read as red, surely, and the board was wrong. Where the sets' medians lie
  ``DISPUTE_ONLY_GAP`` apart or more and one set is grey, a piece whose excess lies on the
  other set's side of the middle at all is unsure, with both sets its choices; none is
  confirmed.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from vision.colour import LABELS, Classification, PointLabel

SURE_SPREADS = 3.5
"""Least distance of a piece's excess from the middle, in spreads, on its own set's side.
Measured on room renders of glossy and printed sets (four seeds, 14,469 pieces): no
piece the colour model read as the wrong set lay more than 2.7 spreads on that set's side."""
APART_SPREADS = 2.0
"""Least distance of each set's median from the middle, in spreads, at calibration: a piece
confirmed then lies beyond its own set's median, far from the other's."""
LEAST_SPREAD = 0.02
"""Least spread of a set along the line (linear colour relative to the paper): twelve
pieces under one light understate how much they vary."""
NOT_BARE = 3.5
"""Least distance (standard deviations) from the bare label for a point to be confirmed.
Lowered from 4: glossy black tops a wide lens's lamp greyed halfway to red lay 3.9
from bare paper, hiding their whole cross, their pixels favouring black's palette by 3 per
pixel, and five frames in ten of that room render were left doubtful. On nine Blender and
room sets and the room renderer's quick set (about 2,400 hand-free frames) the pieces
confirmed between 3.5 and 4 were six, all of the set read; no hand frame was read."""
NOT_OUTLIER = 3.0
"""Most distance (standard deviations) from its own label for a point to be confirmed."""

_EMPTY = LABELS.index(PointLabel.EMPTY)
_RED, _BLACK = LABELS.index(PointLabel.RED), LABELS.index(PointLabel.BLACK)


@dataclass(frozen=True, slots=True)
class SetContrast:
    """The line between the two sets' excesses, learned from the start position."""

    axis: tuple[float, float, float]
    """Unit direction (blue, green, red) from the black set's median excess to the red's."""
    middle: float
    """Position along it halfway between the two sets' medians."""
    spread: float
    """The larger of the two sets' standard deviations along it (at least LEAST_SPREAD)."""
    confirms: bool = True
    """Whether the sets lie far enough apart for the excess to confirm a piece's set; when
    not, it only disputes (see the module's decisions)."""

    def to_json(self) -> dict[str, object]:
        """JSON-ready data."""
        return {"axis": [round(value, 6) for value in self.axis],
                "middle": round(self.middle, 6), "spread": round(self.spread, 6),
                "confirms": self.confirms}

    @staticmethod
    def from_json(data: object) -> SetContrast:
        """Inverse of :meth:`to_json`; raises ValueError on malformed data."""
        if not isinstance(data, dict):
            raise ValueError("set contrast is not an object")
        axis = np.asarray(data["axis"], np.float64).reshape(3)
        middle, spread = float(data["middle"]), float(data["spread"])
        if not (np.all(np.isfinite(axis)) and np.isfinite(middle) and np.isfinite(spread)):
            raise ValueError("set contrast has non-finite numbers")
        # A unit axis has no component beyond 1 (checked first: the norm of a huge one
        # overflows).
        if (spread < LEAST_SPREAD or np.abs(axis).max() > 1.0 + 1e-3
                or not np.isclose(np.linalg.norm(axis), 1.0, atol=1e-3)):
            raise ValueError("bad set contrast")
        confirms = data.get("confirms", True)
        if not isinstance(confirms, bool):
            raise ValueError("bad set contrast")
        return SetContrast((float(axis[0]), float(axis[1]), float(axis[2])), middle, spread,
                           confirms)


def excess(features: np.ndarray) -> np.ndarray:
    """(..., 3) what each linear colour has beyond its weakest channel; ``features`` (..., 3+)
    are log colours relative to the paper."""
    linear = np.exp(features[..., :3])
    result: np.ndarray = linear - linear.min(axis=-1, keepdims=True)
    return result


DISPUTE_ONLY_GAP = 0.12
"""Least distance between the two sets' median excesses along the line (linear colour
relative to the paper) for the excess to dispute when it cannot confirm. A red set's
excess is about 0.5 unlit by glare and 0.2 to 0.3 washed by it, a black or white one's
under 0.03: sets of one hue (white and black, light and dark wood) are never disputed."""
GREY_EXCESS = 0.05
"""Most median excess of one of the sets for the excess to dispute when it cannot confirm:
a grey set (black, white) greyed further by glare keeps none, while two sets of some
colour each (cream and brown) can share a piece's excess in any light."""


def learn_set_contrast(features: np.ndarray, expected: np.ndarray) -> SetContrast | None:
    """The line between the sets of the start position (``features`` as
    ``BoardSamples.features``, ``expected`` the start position's label indices): one that
    confirms when the sets lie APART_SPREADS spreads or more from its middle, one that only
    disputes when they lie DISPUTE_ONLY_GAP apart, else None."""
    red, black = (excess(features[expected == index, index]) for index in (_RED, _BLACK))
    gap = np.median(red, axis=0) - np.median(black, axis=0)
    length = float(np.linalg.norm(gap))
    if length == 0.0:
        return None
    axis = gap / length
    along_red, along_black = red @ axis, black @ axis
    middle = float(np.median(along_red) + np.median(along_black)) / 2
    spread = max(float(along_red.std()), float(along_black.std()), LEAST_SPREAD)
    apart = min(float(np.median(along_red)) - middle, middle - float(np.median(along_black)))
    confirms = apart >= APART_SPREADS * spread
    grey = min(float(np.linalg.norm(np.median(red, axis=0))),
               float(np.linalg.norm(np.median(black, axis=0)))) <= GREY_EXCESS
    if not confirms and (2 * apart < DISPUTE_ONLY_GAP or not grey):
        return None
    return SetContrast((float(axis[0]), float(axis[1]), float(axis[2])), middle, spread,
                       confirms)


def confirmed(contrast: SetContrast, features: np.ndarray, result: Classification,
              sure: float, palette_favoured: np.ndarray | None = None) -> np.ndarray:
    """(points,) the confidences of ``result``, raised to ``sure`` where the excess confirms
    an unsure piece's set (see the module's decisions). ``palette_favoured`` (points,)
    marks the pieces whose pixels plainly favour the palette of the set read over the
    other set's (``vision.palette``): for those, an excess on their own set's side at all
    is a second witness enough."""
    if not contrast.confirms:
        return result.confidences
    labels = result.labels
    side = on_own_side(contrast, features, labels)
    if palette_favoured is not None:
        side |= palette_favoured & (labels != _EMPTY) & (
            _own_side(contrast, features, labels) >= 0.0)
    confirms = plainly_a_piece(result) & (result.confidences < sure) & side
    confidences: np.ndarray = np.where(confirms, sure, result.confidences)
    return confidences


def plainly_a_piece(result: Classification) -> np.ndarray:
    """(points,) the points the colour model reads as a piece that lie plainly off the bare
    label (``NOT_BARE``) and near their own (``NOT_OUTLIER``): what a second witness may
    confirm."""
    labels, distances = result.labels, result.distances
    own = distances[np.arange(len(labels)), labels]
    piece: np.ndarray = ((labels != _EMPTY) & (distances[:, _EMPTY] >= NOT_BARE)
                         & (own <= NOT_OUTLIER))
    return piece


def on_own_side(contrast: SetContrast, features: np.ndarray, labels: np.ndarray) -> np.ndarray:
    """(points,) whether each piece's excess lies SURE_SPREADS or more on the side of the set
    ``labels`` names (label indices; bare points are never; none when the contrast only
    disputes)."""
    result: np.ndarray = contrast.confirms & (labels != _EMPTY) & (
        _own_side(contrast, features, labels) >= SURE_SPREADS)
    return result


DISPUTE_SPREADS = 1.0
"""Least distance of a piece's excess from the middle, in spreads, on the other set's side
for it to be unsure. Measured on room sets (seeds 12, 14, 18) and physically based renders
(25,201 pieces read surely and rightly, 6 surely and wrongly): at 2.0 no wrong one was
caught, at 1.0 one was (a glossy black top in the middle of a spotlight's cone, 1.3 spreads
on the red side) and 12 right ones were made unsure."""
DISPUTED = 0.5
"""Confidence left to a piece whose excess lies on the other set's side of the middle."""


def disputed(contrast: SetContrast, features: np.ndarray, labels: np.ndarray) -> np.ndarray:
    """(points,) the pieces (``labels``, label indices) whose excess lies on the other set's
    side of the middle by DISPUTE_SPREADS or more (at all, when the contrast only disputes):
    a black top greyed by a lamp's glare can be nearer the red set's wide colour than the
    black's, but it has no red excess. Such a piece is unsure (DISPUTED), and may be of
    either set."""
    side = _own_side(contrast, features, labels)
    other = side <= -DISPUTE_SPREADS if contrast.confirms else side < 0.0
    result: np.ndarray = (labels != _EMPTY) & other
    return result


def _own_side(contrast: SetContrast, features: np.ndarray, labels: np.ndarray) -> np.ndarray:
    """(points,) how far, in spreads, each point's excess (read as its label's) lies on the
    side of the set its label names: negative on the other set's side."""
    points = np.arange(len(labels))
    along = excess(features[points, labels]) @ np.asarray(contrast.axis)
    side: np.ndarray = np.where(labels == _RED, 1.0, -1.0) * (
        along - contrast.middle) / contrast.spread
    return side
