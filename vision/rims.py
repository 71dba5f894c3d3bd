"""Telling a glossy dark top that mirrors a lamp from a pale one by its rim.

Decisions:
- A glossy dark top right under a lamp mirrors it over its whole face: it looks as light
  as a white or cream piece, and no colour tells them apart (physically based renders of
  glossy white and black sets under a pendant lamp or a spotlight read it as white, sure).
  Its rim does not mirror the lamp (the bevel and the side face elsewhere), so it stays
  dark; a pale piece's rim stays pale. That is how a person tells them.
- The rim is sampled as a low quantile of a ring round each point on the tops' plane
  (``vision.sampling.RIM_RADII``), relative to the paper round the point.
- Learned at calibration when one set is pale (its colour within ``PALE_SET`` of the
  paper's) and the other set's rims are plainly darker: the pale set's rim level (the
  median over the start position) less ``RIM_MARGIN``, or less ``RIM_SPREADS`` times how
  far its rims there spread below the level, whichever is lower.
- A dark bevel runs all round a glossy dark top; a pale top's shadow darkens one side of
  its ring. The rim as dark as it is all round (a quantile of the darkest pixel of each
  sector of a wider ring) gets a floor of its own, learned the same way. On Blender seeds
  1201 and 1301, all 20 dark tops read as the pale set lay below it, and 1 of 617 pale tops;
  the low quantile of the whole ring caught 13 of the 20. But some dark tops mirror the lamp
  on their bevels too and show their dark rim on one side only (a room render under a
  ceiling lamp): only the whole ring's low quantile catches those. Either makes a piece
  doubtful (below).
- A top whose rim all round lies ``ROUND_SURE`` below that floor is of the dark set,
  whatever it was read as, and nothing that looks pale about it (its pixels, its median,
  its paper colour, its excess over the sets' contrast) makes it doubtful: no pale top's
  rim lay that dark on eight Blender seeds. Read as the dark set unsurely, it is sure of
  it where it hides its cross: bare paper in a shadow is dark all round too, but shows
  its lines.
- In a frame, a piece read as the pale set whose rim lies below that floor is of the dark
  set where the start position showed glossy tops mirroring a lamp whole
  (``Calibration.mirror_points``): there a dark top mirrors it whole. On eleven render
  sets (2,470 hand-free frames, four such setups) 8 tops below the floor there were dark,
  none pale; the nearest pale rim lay 0.14 above it.
- Elsewhere it may be either, and the reader makes it doubtful with both sets as its
  choices; the game tells which from the boards it expects. A pale piece's rim, shaded by
  a low lamp or seen at a wide lens's edge, fell up to 0.45 below the floor where the start
  position showed no lamp mirrored. And where it showed only pale tops mirroring one, a
  dark top mirroring it with a rim as pale as theirs was read surely as pale: the doubt
  a neighbour's dark rim raised was all that kept that frame from a wrong board.
- A "pale" set of the paper's very colour whose rims are dark all round is a dark glossy
  set whose every start top mirrors a lamp (``mirrored_pale_set``): its colour is the
  lamp's, and a glossy top of the other set under the lamp looks just the same. No frame
  can tell them apart, so calibration refuses it and says to move or dim the lamp, or use
  matt pieces.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from vision.colour import LABELS, PIECE_LABEL_OF, PIECE_LABELS, PointLabel

PALE_SET = 0.6
"""Most distance (log colour) of a set's colour from the paper's for it to count as pale."""
RIM_MARGIN = 0.25
"""Least distance (log) below the pale set's rim level of its floor, and least distance by
which the other set's rims must lie below that level for the check to be learned."""
RIM_SPREADS = 3.0
"""How many times its start position spread below the level a pale piece's rim may lie."""
SPREAD_QUANTILE = 10
"""Percentile of the pale set's rims at calibration that measures their spread below the
level."""

_EMPTY = LABELS.index(PointLabel.EMPTY)
_PIECES = [LABELS.index(label) for label in PIECE_LABELS]


@dataclass(frozen=True, slots=True)
class RimCheck:
    """The floor of a pale set's rims, below which a piece read as it may be a dark one."""

    pale: PointLabel
    """The pale set."""
    dark: PointLabel
    """The set with the darker rims."""
    floor: float
    """Least rim (log, relative to the paper) of a piece read as ``pale`` that is sure."""
    round_floor: float | None = None
    """The same for the rim as dark as it is all round (``BoardSamples.round_relative``);
    None in files written before it was learned."""

    def to_json(self) -> dict[str, object]:
        """JSON-ready data."""
        data: dict[str, object] = {"pale": self.pale.value, "dark": self.dark.value,
                                   "floor": round(self.floor, 6)}
        if self.round_floor is not None:
            data["round_floor"] = round(self.round_floor, 6)
        return data

    @staticmethod
    def from_json(data: object) -> RimCheck:
        """Inverse of :meth:`to_json`; raises ValueError on malformed data."""
        if not isinstance(data, dict):
            raise ValueError("rim check is not an object")
        pale, dark = PIECE_LABEL_OF[data["pale"]], PIECE_LABEL_OF[data["dark"]]
        floor = float(data["floor"])
        round_floor = None if data.get("round_floor") is None else float(data["round_floor"])
        if pale is dark or not np.isfinite(floor) or (
                round_floor is not None and not np.isfinite(round_floor)):
            raise ValueError("bad rim check")
        return RimCheck(pale, dark, floor, round_floor)


def learn_rim_check(means: np.ndarray, rims: np.ndarray, expected: np.ndarray,
                    round_rims: np.ndarray | None = None) -> RimCheck | None:
    """The rim check of the start position (``means`` (labels, 3+) its labels' colours as the
    colour model's, ``rims`` as ``BoardSamples.rim_relative``, ``round_rims`` as its
    ``round_relative``, ``expected`` its label indices), or None when no set is pale or the
    other's rims are not plainly darker."""
    pale, dark, from_paper = _pale_and_dark(means)
    if from_paper > PALE_SET:
        return None
    if float(np.median(rims[expected == dark])) >= float(np.median(rims[expected == pale])
                                                       ) - RIM_MARGIN:
        return None
    return RimCheck(LABELS[pale], LABELS[dark], _floor(rims[expected == pale]),
                    None if round_rims is None else _floor(round_rims[expected == pale]))


def _pale_and_dark(means: np.ndarray) -> tuple[int, int, float]:
    """The brighter piece set's label index, the other's, and how far (log colour) the
    brighter one's colour lies from the paper's (``means`` (labels, 3+) as the colour
    model's)."""
    means = means[:, :3]
    pale, dark = sorted(_PIECES, key=lambda index: -float(means[index].mean()))
    return pale, dark, float(np.linalg.norm(means[pale] - means[_EMPTY]))


def _floor(pale_rims: np.ndarray) -> float:
    """The pale set's rim level less ``RIM_MARGIN``, or less ``RIM_SPREADS`` times how far
    its rims spread below the level, whichever is lower."""
    level = float(np.median(pale_rims))
    spread = level - float(np.percentile(pale_rims, SPREAD_QUANTILE))
    return level - max(RIM_MARGIN, RIM_SPREADS * spread)


ROUND_SURE = 0.2
"""How far below its floor (log) a top's rim all round must lie for it to be of the dark set,
whether or not the start position's tops mirrored a lamp. On five Blender seeds (1101-1501,
1,543 pale tops in frames of setups with a rim check) the lowest pale rim lay 0.13 below the
floor; of the 53 dark tops read as pale or left doubtful, 35 lay more than 0.2 below it.
Three seeds rendered after (1601-1801) added 563 pale tops, none lower than 0.1 below it."""


MIRRORED_COLOUR = 0.3
"""Most distance (log colour) of a pale set's colour from the paper's for its tops to be
the lamp's reflection: the lamp lights the paper too. White sets lay 0.03 to 0.31 from it
on Blender seeds 1201 and 1301, cream ones 0.29 to 0.51, light wood 0.8 and more; dark
glossy sets whose every start top mirrored a lamp, 0.08 and 0.10."""
MIRRORED_RIM = -0.35
"""Rim all round (log, relative to the paper; the start position's median) below which a
set of the paper's colour is a dark glossy set mirroring a lamp. Blender seeds 1201 and
1501: black tops under a ceiling lamp, -0.62; red ones under a wide lens's light, -0.41.
The white and shell sets as near the paper's colour on seeds 1201 and 1301 lay at -0.09 to
-0.25; a pale wooden set under a low lamp, farther from it, at -0.44."""


def mirrored_pale_set(means: np.ndarray, round_rims: np.ndarray, expected: np.ndarray
                      ) -> tuple[PointLabel, PointLabel] | None:
    """The pale set and the other, when the start position's pale set is a dark glossy set
    whose tops mirror a lamp whole: of the paper's colour (the lamp's), within dark rims
    (``round_rims`` as ``BoardSamples.round_relative``). A glossy top of the other set
    under the lamp looks the same. None otherwise (``means`` and ``expected`` as for
    :func:`learn_rim_check`)."""
    pale, dark, from_paper = _pale_and_dark(means)
    if (from_paper > MIRRORED_COLOUR
            or float(np.median(round_rims[expected == pale])) >= MIRRORED_RIM):
        return None
    return LABELS[pale], LABELS[dark]


def dark_rimmed(check: RimCheck, rims: np.ndarray, labels: np.ndarray) -> np.ndarray:
    """(points,) pieces read as the pale set whose rims lie below its floor."""
    result: np.ndarray = (labels == LABELS.index(check.pale)) & (rims < check.floor)
    return result


def dark_all_round(check: RimCheck, round_rims: np.ndarray, labels: np.ndarray) -> np.ndarray:
    """(points,) pieces read as the pale set whose rims, as dark as they are all round
    (``BoardSamples.round_relative``), lie below the check's floor for them."""
    if check.round_floor is None:
        return np.zeros(len(labels), bool)
    result: np.ndarray = (labels == LABELS.index(check.pale)) & (round_rims < check.round_floor)
    return result


def surely_dark(check: RimCheck, round_rims: np.ndarray, labels: np.ndarray) -> np.ndarray:
    """(points,) pieces of either set whose rims all round lie ``ROUND_SURE`` or more below
    the check's floor for them: dark tops, however light their faces look."""
    if check.round_floor is None:
        return np.zeros(len(labels), bool)
    result: np.ndarray = (labels != _EMPTY) & (round_rims < check.round_floor - ROUND_SURE)
    return result
