"""What a doubtful point may hold, and how many doubtful points a frame may have.

A point the colours leave unsure is "doubtful" on otherwise clear paper. The game may
still read such a frame (``FrameReading.fitting``) when the doubtful points' choices allow
exactly one of the boards it expects; this module says what those choices are and how many
doubtful points a frame may have before it counts as occluded. Calibration keeps to the
same limits, so that a start position it accepts can be read.
"""

from __future__ import annotations

from collections.abc import Sequence
from enum import Enum

import numpy as np

from vision.colour import LABELS, Classification, PointLabel

MAX_DOUBTFUL = 2
"""Most doubtful points on otherwise clear paper that may be unsure whether they hold a
piece at all, for the frame to count as doubtful rather than occluded: a piece or two set
down between points, not a hand. (A pale hand over pale paper can leave the paper check
clear, its fingers read as bare paper or a pale piece, unsure.)"""
MAX_DOUBTFUL_BY_COLOUR = 8
"""Most doubtful points in all, when those beyond ``MAX_DOUBTFUL`` surely hold a piece and
are unsure only of its set: a light that moves a set's colour does so for several pieces at
once (the tops under a spotlight's cone, glossy tops under a pendant), and the game can
still tell which board they show. Eight, not six: under a wide lens (Blender seed 4301)
seven of black's start tops mirrored the lamp white, so calibration could not leave them
out of black's colour (the start position itself would have been too doubtful to read) and
learned black as near-white instead; a red top mirroring the lamp was then read surely as
black, and a doubtful frame ruled out the true board. On thirty-six render sets this
calibrates six start positions more (glossy tops under ceiling lamps and wide lenses), reads
five frames more, and reads no hand frame and no board wrongly that was not before."""
CHOICE_MARGIN = 1.5
"""How much farther (standard deviations) than its nearest label a label may lie and still
be one a doubtful point may hold. Measured on room renders (seeds 12, 14, 15, 31, 41 and
42: 757 points unsure by colour, none farther than CHOICE_OUTLIER from every label): the
true label was never more than 1.2 farther than the nearest. Each label more a point may
hold is a board more that may fit: at 2.0, a glared black top read red, unsure, could
also have been bare, and a frame fitted a capture one move away from the true board."""
CHOICE_OUTLIER = 5.0
"""Distance (standard deviations) to its nearest label beyond which a doubtful point may
hold nothing known: something else lies on it. A printed black top whose pattern shows
like the printed cross lies 4.2 to 4.9 from its set (a ceiling lamp's session, seed 4: 3 of
20 moves confirmed at 4.0, all 20 at 5.0); on room sets 21 to 26 no hand frame then fits
any board a game could expect."""


def few_enough(choices: list[tuple[PointLabel, ...]]) -> bool:
    """Whether a frame with these unsure points (each with its choices) is doubtful rather
    than occluded (see MAX_DOUBTFUL and MAX_DOUBTFUL_BY_COLOUR)."""
    maybe_bare = sum(not labels or PointLabel.EMPTY in labels for labels in choices)
    return maybe_bare <= MAX_DOUBTFUL and len(choices) <= MAX_DOUBTFUL_BY_COLOUR


def choices(result: Classification, point: int) -> tuple[PointLabel, ...]:
    """The labels a point unsure by colour may hold, nearest first (see CHOICE_MARGIN).

    None when the colour model set the point's confidence to naught by one of its rules
    (a bare-looking point without the cross the others show, a pale piece in a frame too
    blurred to show crosses): its colour is then no evidence of what it holds.
    """
    distances = result.distances[point]
    nearest = float(distances.min())
    if nearest > CHOICE_OUTLIER or result.confidences[point] <= 0.0:
        return ()
    return tuple(LABELS[i] for i in np.argsort(distances)
                 if distances[i] <= nearest + CHOICE_MARGIN)


def with_also(choices: tuple[PointLabel, ...], *labels: PointLabel) -> tuple[PointLabel, ...]:
    """``choices`` with ``labels`` added after them, each once; none (anything) stays none."""
    if not choices:
        return choices
    return choices + tuple(dict.fromkeys(label for label in labels if label not in choices))


class DoubtKind(Enum):
    """What a doubtful point leaves open, as its choices say: what a person can put right."""

    WHICH_SET = "which set"
    """A piece, of one set or the other: a lamp's glare on a glossy top, or uneven light."""
    PIECE_OR_BARE = "piece or bare paper"
    """A piece or bare paper: a piece set down off its point, or one the light makes look
    like the paper."""
    ANYTHING = "anything"
    """Nothing known: a piece between points, or something over the point."""


DOUBT_HINTS = {
    DoubtKind.WHICH_SET: "red or black? glare on glossy tops, or uneven light",
    DoubtKind.PIECE_OR_BARE: "a piece or bare paper? centre the piece, or check the light",
    DoubtKind.ANYTHING: "unclear: a piece between points, or something over them",
}
"""What each kind of doubt asks of the person at the board, in a few words."""


def doubt_kind(labels: tuple[PointLabel, ...]) -> DoubtKind:
    """What a doubtful point with these choices (``FrameReading.choices``) leaves open."""
    if not labels:
        return DoubtKind.ANYTHING
    return DoubtKind.PIECE_OR_BARE if PointLabel.EMPTY in labels else DoubtKind.WHICH_SET


def doubt_kinds(choices: Sequence[tuple[PointLabel, ...]]) -> list[DoubtKind]:
    """The kind of each doubtful point's doubt, in order."""
    return [doubt_kind(labels) for labels in choices]


def describe_doubts(names: Sequence[str], choices: Sequence[tuple[PointLabel, ...]]) -> str:
    """The doubtful points (``names``, each with its ``choices``; none known where they are
    missing) grouped by what they leave open, each group with what to do: "unsure of c3, d4
    (red or black? …); b1 (a piece or bare paper? …)". Glare calls for other advice than a
    piece set down between points."""
    if len(choices) != len(names):
        choices = [()] * len(names)
    by_kind: dict[DoubtKind, list[str]] = {}
    for name, kind in zip(names, doubt_kinds(choices), strict=True):
        by_kind.setdefault(kind, []).append(name)
    return "unsure of " + "; ".join(f"{', '.join(points)} ({DOUBT_HINTS[kind]})"
                                    for kind, points in by_kind.items())
