"""Where the pieces' shadows fall under a low lamp: beyond the paper right beside them.

Decisions:
- The paper check (``vision.paper``) allows a piece's shadow on the paper samples right
  beside it (diagonally next to its point): darker, of another colour, with an edge
  through it. Under a lamp low beside the board each piece casts a shadow a pitch or two
  long, over samples farther off, and those were taken for a hand: the start position was
  refused as covered, and every frame after.
- A low lamp casts every piece's shadow the same way and about as far, so the start
  position shows it: calibration tries each direction (every ``ANGLE_STEP`` degrees) and
  length (``LENGTHS``) and keeps the one whose shadows, cast from the start position's
  pieces, cover most of the samples that are in shadow and fewest of those that are lit
  (``learn_shadow_reach``): the samples beside the pieces show which way the shadows
  fall, those beyond how far. None is kept where the shadows explain fewer than
  ``LEAST_EXPLAINED`` samples, or than half as many as there are pieces (a lamp high
  above, a window's soft light), nor one that makes a clear start position look covered;
  unless they are as deep as only a low lamp casts (``DEEP``): then a fifth as many will
  do, for shadows falling along the ranks hide under the next pieces.
- The reach keeps how deep the start position's deepest shadow was: a bare point showing
  its lines in a frame may be that dark (``DEEPEST_MARGIN``), where usually a point that
  dark is a dark piece (``vision.colour.SHADOW_DEEPEST``).
- In a frame, the samples within the shadows the reach casts from the pieces read there
  are judged as the samples beside a piece are. A hand casts no such shape: what it
  covers beyond the pieces' shadows is still judged strictly.
- Positions are in grid units (pitches) on the paper: file index, rank index.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

import numpy as np

ANGLE_STEP = 15
"""Degrees between the shadow directions tried."""
LENGTHS = (1.0, 1.5, 2.0, 2.5)
"""Shadow lengths tried, pitches from the piece's point."""
HALF_WIDTH = 0.6
"""Distance (pitches) from a shadow's axis within which a paper sample's centre lies in it:
a piece's radius and half a sample's, so that the samples either side of a file or rank
along which a shadow falls (half a pitch off it) are in it."""
READ_HALF_WIDTH = 0.85
"""Half-width of the shadows the paper check allows in a frame: the soft edge of a tall
piece's shadow grazes the samples beyond the grid's sides (0.8 of a pitch off a rank or
file along which it falls), one of which was taken for a finger's edge. Learning keeps
``HALF_WIDTH``: judged so wide, the lit samples it counted against a lamp's way picked
another one."""
SHADOWED = 0.2
"""Least depth (log, below the lit paper) of a sample counted as in shadow when learning."""
LIT = 0.05
"""Most depth of a sample counted as lit when learning."""
LEAST_EXPLAINED = 2
"""Least score of a reach kept: one dark sample is no lamp's pattern."""
LEAST_SHADOWED_SHARE = 0.5
"""Least number of shadowed samples a reach kept explains, per piece of the start position:
a low lamp casts a shadow beside nearly every piece. Under a window's or a spotlight's
softer light a few pieces' shadows are dark enough to count, never half of them."""
DEEP = 0.8
"""Least depth (log, below the lit paper; the median of the shadowed samples a reach
explains) of shadows only a lamp low beside the board casts: on Blender renders of 328
start positions, a window's, a spotlight's or mixed light left them 0.2 to 0.51 deep, a
low lamp's up to 1.24."""
LEAST_DEEP_SHARE = 0.2
"""Least number of shadowed samples a reach kept explains, per piece of the start position,
when they are ``DEEP``. Where the start position's shadows fall along its ranks, they fall
on the next pieces and hide under them: a lamp 8 cm above the table 30 cm away left 12
shadowed samples in sight beside 24 pieces, from the a-file's and the sixth rank's
pieces, and its frames were all taken for a hand."""
DEEPEST_MARGIN = 0.1
"""How much deeper (log) than the start position's deepest shadow a bare point showing its
lines may look in a frame: under a lamp 8 cm above the table the start position's
deepest shadowed sample lay 1.38 below the lit paper, and bare points in frames 1.35 and
1.39 below the paper round them, showing their whole cross, were read surely as black."""
LIT_WEIGHT = 2.0
"""How much a lit sample a reach would call shadowed counts against it, against each
shadowed sample it explains."""


@dataclass(frozen=True, slots=True)
class ShadowReach:
    """The way and the length of the pieces' shadows on the paper."""

    direction: tuple[float, float]
    """Unit vector (files, ranks) from a piece's point along its shadow."""
    length: float
    """How far the shadow reaches from the point, pitches."""
    deepest: float = 0.0
    """How deep (log, below the lit paper) the deepest shadowed sample of the start position
    within these shadows was: a lamp low beside the board, the room's other light dim,
    casts shadows darker than any usual room's."""

    def to_json(self) -> dict[str, object]:
        """JSON-ready data."""
        return {"direction": [round(value, 6) for value in self.direction],
                "length": round(self.length, 6), "deepest": round(self.deepest, 6)}

    @staticmethod
    def from_json(data: object) -> ShadowReach:
        """Inverse of :meth:`to_json`; raises ValueError on malformed data."""
        if not isinstance(data, dict):
            raise ValueError("shadow reach is not an object")
        direction = np.asarray(data["direction"], np.float64).reshape(2)
        length = float(data["length"])
        # Written before the depth was kept: no deeper than any room's shadows.
        deepest = float(data.get("deepest", 0.0))
        if not (np.all(np.isfinite(direction)) and abs(np.hypot(*direction) - 1) < 1e-3
                and 0 < length <= max(LENGTHS) and 0.0 <= deepest < np.inf):
            raise ValueError("bad shadow reach")
        return ShadowReach((float(direction[0]), float(direction[1])), length, deepest)


def shadowed_cells(reach: ShadowReach, cells: np.ndarray, points: np.ndarray,
                   occupied: np.ndarray, half_width: float = HALF_WIDTH) -> np.ndarray:
    """(cells,) the paper samples (grid positions ``cells``) within the shadows cast from
    the ``occupied`` points (grid positions ``points``), each ``half_width`` pitches either
    side of its axis."""
    starts = points[np.asarray(occupied, bool)]
    if not len(starts):
        return np.zeros(len(cells), bool)
    direction = np.asarray(reach.direction)
    offsets = cells[:, None, :] - starts[None, :, :]
    along = np.clip(offsets @ direction, 0.0, reach.length)
    across = np.linalg.norm(offsets - along[..., None] * direction, axis=2)
    result: np.ndarray = (across <= half_width).any(axis=1)
    return result


def learn_shadow_reach(cells: np.ndarray, points: np.ndarray, occupied: np.ndarray,
                       depth: np.ndarray, judged: np.ndarray,
                       beside: np.ndarray | None = None) -> ShadowReach | None:
    """The reach whose shadows best match the paper samples' ``depth`` (log below the lit
    paper) among those ``judged``; None when none scores LEAST_EXPLAINED (a shadowed
    sample it covers counts one, a lit one against it LIT_WEIGHT) or explains fewer shadowed
    samples than LEAST_SHADOWED_SHARE of the pieces.

    ``beside`` (cells,) are the samples already judged as a piece's shadow may fall on
    them (right beside a piece): a lit one of those counts against no reach, for calling
    it shadowed changes nothing. Where the shadows fall along the ranks of the start
    position, over the next pieces, they darken only the side of the paper beside those
    pieces that they graze; counting the lit side against them left the lamp unlearned.
    Of lengths that fit equally, the longest is kept: a shadow falling on the next piece
    shows no end, and in play it reaches the paper past that piece's point.
    """
    beyond = np.ones(len(cells), bool) if beside is None else ~np.asarray(beside, bool)
    shadowed, lit = judged & (depth >= SHADOWED), judged & (depth <= LIT) & beyond
    if not shadowed.any():
        return None
    best, best_score, best_explained = None, LEAST_EXPLAINED - 0.5, 0
    for degrees in range(0, 360, ANGLE_STEP):
        angle = np.radians(degrees)
        for length in reversed(LENGTHS):
            reach = ShadowReach((float(np.cos(angle)), float(np.sin(angle))), length)
            inside = shadowed_cells(reach, cells, points, occupied)
            explained = int((inside & shadowed).sum())
            score = float(explained - LIT_WEIGHT * (inside & lit).sum())
            if score > best_score:
                best, best_score, best_explained = reach, score, explained
    if best is None:
        return None
    in_shadows = shadowed_cells(best, cells, points, occupied) & shadowed
    best = replace(best, deepest=float(depth[in_shadows].max()))
    pieces = np.count_nonzero(occupied)
    if best_explained > LEAST_SHADOWED_SHARE * pieces:
        return best
    deep = float(np.median(depth[in_shadows])) >= DEEP
    return best if deep and best_explained > LEAST_DEEP_SHARE * pieces else None
