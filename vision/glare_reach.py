"""How far a lamp's glare moved one piece set towards the other's colour at calibration.

Decisions:
- A glossy top mirroring a lamp has light of about the paper's colour added to its own: a
  black top turns grey, a dark one pale. Where the lamp's reflection falls, a top can look
  more like the other set than its own, and no colour tells it from one of that set. The
  start position shows whether it happens under this lamp: a piece nearer the other set's
  colour than its own, which the start position's check let pass as only part of the way
  there (``vision.calibrate``).
- The calibration then keeps where along that line the other set's own pieces began
  (``GlareReach.bound``). A frame's piece read as the other set but short of that bound
  may be either: the reader makes it doubtful with both sets as its choices, and the game
  tells which from the boards it expects. A piece of the other set as the start position
  showed them is read as before, and under a lamp whose glare reached no other set's
  colour at calibration nothing changes.
- The line is in log colour relative to the paper, the colour model's own features, from
  the glossy set's median (0) to the other set's (1).
"""

from __future__ import annotations

from dataclasses import dataclass
from itertools import permutations

import numpy as np

from vision.colour import LABELS, PIECE_LABEL_OF, PIECE_LABELS, PointLabel
from vision.errors import CalibrationFailed

REACH_TOLERANCE = 0.05
"""How much short of the other set's least position at calibration one of its pieces may
lie in a frame and still be read as it (a share of the line)."""


class GlareOverlap(CalibrationFailed):
    """The glare moved a set's top as far as the other set's own pieces lie."""


@dataclass(frozen=True, slots=True)
class GlareReach:
    """A piece set whose tops the glare moved towards the other set's colour."""

    glossy: PointLabel
    """The set whose tops the glare moved."""
    towards: PointLabel
    """The set it moved them towards."""
    bound: float
    """Least position along the line (``glossy`` at 0, ``towards`` at 1) of a piece read as
    ``towards`` that is sure of it."""

    def to_json(self) -> dict[str, object]:
        """JSON-ready data."""
        return {"glossy": self.glossy.value, "towards": self.towards.value,
                "bound": round(self.bound, 6)}

    @staticmethod
    def from_json(data: object) -> GlareReach:
        """Inverse of :meth:`to_json`; raises ValueError on malformed data."""
        if not isinstance(data, dict):
            raise ValueError("glare reach is not an object")
        glossy, towards = PIECE_LABEL_OF[data["glossy"]], PIECE_LABEL_OF[data["towards"]]
        bound = float(data["bound"])
        if glossy is towards or not np.isfinite(bound):
            raise ValueError("bad glare reach")
        return GlareReach(glossy, towards, bound)


def positions(means: np.ndarray, features: np.ndarray, glossy: PointLabel,
              towards: PointLabel) -> np.ndarray:
    """(points,) where each point's colour, as read as ``towards``, lies along the line from
    ``glossy``'s mean (0) to ``towards``'s (1); ``means`` (labels, 3+) as the colour
    model's, ``features`` as ``BoardSamples.features``."""
    start, end = means[LABELS.index(glossy), :3], means[LABELS.index(towards), :3]
    line = end - start
    length = float(line @ line)
    if length == 0.0:
        return np.full(len(features), np.inf)
    result: np.ndarray = (features[:, LABELS.index(towards), :3] - start) @ line / length
    return result


def learn_glare_reach(means: np.ndarray, features: np.ndarray, expected: np.ndarray,
                      looked_like: np.ndarray) -> tuple[GlareReach, ...]:
    """Each set the glare moved towards the other's colour in the start position (``means``
    the colour model's learned from it, ``features`` as ``BoardSamples.features``,
    ``expected`` its label indices, ``looked_like`` the label each point's colour was
    nearest, where the start position's check let that pass). Raises CalibrationFailed when
    such a piece lies as far along as one of the other set: then no colour tells the two
    sets apart in this light."""
    found = []
    for glossy, towards in permutations(PIECE_LABELS, 2):
        moved = (expected == LABELS.index(glossy)) & (looked_like == LABELS.index(towards))
        if not moved.any():
            continue
        along = positions(means, features, glossy, towards)
        bound = float(along[expected == LABELS.index(towards)].min()) - REACH_TOLERANCE
        if float(along[moved].max()) >= bound:
            raise GlareOverlap(
                f"the two piece sets look alike where the lamp's glare falls (a "
                f"{glossy.name.lower()} piece looks like the {towards.name.lower()} ones): "
                "move or dim the lamp, or use pieces with matt tops")
        found.append(GlareReach(glossy, towards, bound))
    return tuple(found)


def glared_from(reaches: tuple[GlareReach, ...], means: np.ndarray, features: np.ndarray,
                labels: np.ndarray) -> np.ndarray:
    """(points,) for each point read as a set some glare reaches, short of that reach's
    bound, the index of the glossy set it may be instead; the label read elsewhere
    (``means`` the colour model's, ``labels`` the label indices read)."""
    result = labels.copy()
    for reach in reaches:
        within = (labels == LABELS.index(reach.towards)) & (
            positions(means, features, reach.glossy, reach.towards) < reach.bound)
        result[within] = LABELS.index(reach.glossy)
    return result
