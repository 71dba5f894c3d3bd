"""Where a lamp's reflection makes glossy tops look like bare paper that hides its cross.

Decisions:
- A glossy dark or coloured top right under the reflection of a lamp or a window mirrors
  it over its whole face: it looks as light as the paper, and only the printed cross it
  hides says it is no bare point. Nothing says which set it is of, and a fingertip in a
  warm light can look the same, so elsewhere the reader names no choices for such a point
  (``BoardReader._paper_coloured``) and the frame waits.
- The reflection falls on the same place of the tops' plane as long as the camera and the
  lamp stay where they are, and the start position shows where it falls: its pieces whose
  colour is nearest the paper's with their cross hidden (``mirrored_whole``), and a dark
  set's pieces that look like a pale set but keep their dark rims (``vision.rims``;
  ``vision.calibrate`` finds those). The calibration keeps those points
  (``Calibration.mirror_points``).
- A glossy red or black set may show both in the start position: tops under the
  reflection, of the paper's colour and brighter, and tops beside them of the set's own
  colour (``lamp_split``). Where most of its tops mirror the lamp, the set's median would
  be the lamp's colour, and a top of the other set mirroring it would be read as this set,
  surely (a Blender render under a wide lens, seed 2101: three black tops read as red).
  The set's colour is learned from its own-coloured tops, and the mirrored ones are kept
  as mirror points. Where that leaves more doubtful points than a frame may have, the set
  is learned with them but kept as a lamp set (``Calibration.lamp_sets``): a top read as
  it that mirrors the lamp may be of either set. A start position that is then too
  doubtful to read is refused, and calibration says the lamp is mirrored in the tops.
- In a frame, a point within ``SPOT_REACH`` steps of one of them that hides its cross, and
  has no choices or bare paper among them, may hold a piece of either set, never nothing
  (bare paper shows its cross): the reader makes it doubtful with both sets as its
  choices, and the game tells which from the boards it expects. The point is never read,
  so a board with a piece there is confirmed only when the game expects exactly one such
  board; a hand there is caught by the paper round it.
- A glossy pale top may mirror the lamp too: the start position shows where
  (``Calibration.pale_mirrors``), and how bright. A dark glossy top there mirrors it over a
  dark body, dimmer: a top read as the pale set there but plainly dimmer than the pale one
  was (``DIMMER_THAN_PALE_MIRROR``) may be of either set.
- Anywhere, a top read as a set darker than the paper but brighter than the paper round it,
  and of its colour, mirrors the lamp: the reader gives it both sets as its choices
  (``BoardReader._mirroring``). The start position may show one set's tops
  mirroring there, and the colours learned from it then reach that far for that set; a top
  of the other set mirrors the lamp alike. In the spot, a dark set's top as bright as the
  paper already mirrors it (``SPOT_BRIGHTER``): the start position showed the reflection
  falling there.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from vision.colour import LABELS, PIECE_LABELS, Classification, PointLabel
from vision.reductions import channel_mean, channel_norm

MIRROR_CROSS = 0.5
"""Most cross, as a share of the bare points' median, of a top read as mirroring the lamp
whole. Measured on physically based renders of glossy red and black sets under pendant,
ceiling and window light and wide lenses: such tops show 0.00 to 0.42 of it."""
SPOT_REACH = 2
"""How far (steps along files and ranks, diagonals too) from a point where the start
position showed a mirrored top the reflection may fall on another piece's top. A lamp's
reflection on the tops' plane is as wide as the lamp seen in a mirror, and the start position
shows only its part over the outer ranks: physically based renders of glossy sets under a
pendant lamp and wide lenses showed tops mirroring it whole two steps from the nearest such
point of the start position, on ranks where it had no piece."""

MIRROR_BRIGHTER = 0.05
"""How much brighter than the paper round it (log) a top must be to mirror the lamp: paper is
the brightest thing on the board that does not. Physically based renders of glossy red and
black sets under wide lenses showed black tops 0.13 brighter than the paper where the start
position's black pieces mirrored the lamp, and a red top there read as black, surely."""
SPOT_BRIGHTER = -0.05
"""How much brighter than the paper round it (log) a top of a dark set must be to mirror the
lamp in the spot, where the start position showed tops mirroring it whole (``spot``): as
bright as the paper, a little less. There the same reflection falls on every top, and a top
a little off the point, or in a frame a little darker, mirrors it a little dimmer. A Blender
render under a ceiling lamp (seed 2601) read a red top there as black, surely: its face
mirrored the lamp 0.04 brighter than the paper, where the black top of the start position
had mirrored it 0.05 brighter, and the black set, learned from tops half mirroring it, had
the colour of none. On sixteen Blender seeds and the room renderer's full set, this leaves
two hand-free frames doubtful that were read (their tops might as well have been of the
other set), and changes no other frame."""
MIRROR_CHROMA = 0.1
"""Most chroma (log, relative to the paper round it) of a top mirroring the lamp: it has the
colour of the paper the lamp lights (those renders: 0.03 to 0.04). A wooden top a low lamp
lights between shadows on the paper round it is brighter too, and keeps its own colour."""
FRAME_MIRROR_CHROMA = 0.15
"""The same, for a top in a frame read as a set darker than the paper: there a top taken for
a mirror of the lamp is only left doubtful between the sets, so the reader may be warier than
calibration, where it changes what a set's colour is learned from. A Blender render under a
wide lens (seed 4101) showed glossy black tops mirroring a lamp whiter than the cream sheet
at 0.10 from the paper's colour, read surely as the red set, whose start tops had mirrored
the lamp alike (0.11 to 0.12) and so taught red that colour: one step from a wrong board."""

DIMMER_THAN_PALE_MIRROR = 0.18
"""How much dimmer (log) than the pale top that mirrored the lamp on a point at calibration a
top read as pale there may be before it may be a dark glossy top mirroring it instead: a dark
body under the same reflection. Physically based renders of glossy white and black sets
under a fisheye webcam showed a black top 0.21 dimmer than the white one had been, read as
white, surely; white tops set down again on such points were at most 0.17 dimmer (our own
room renders of window light)."""

_EMPTY = LABELS.index(PointLabel.EMPTY)


def mirrored_whole(features: np.ndarray, expected: np.ndarray, nearest: np.ndarray
                   ) -> np.ndarray:
    """(points,) the start position's pieces that look like bare paper hiding its cross
    (``features`` as ``BoardSamples.features``, ``expected`` the start position's label
    indices, ``nearest`` the label each point looks most like)."""
    bare = float(np.median(features[expected == _EMPTY, _EMPTY, 3]))
    result: np.ndarray = ((expected != _EMPTY) & (nearest == _EMPTY)
                          & hides_cross(features, bare))
    return result


def spot(grid: np.ndarray, mirrored: Sequence[bool] | np.ndarray) -> np.ndarray:
    """(points,) the points within SPOT_REACH of the ``mirrored`` ones (both in the board's
    point order, ``grid`` (points, 2) giving each point's file and rank index, as
    ``SamplingLayout.point_grid``)."""
    positions = np.asarray(grid, np.float64).reshape(-1, 2)
    chosen = positions[np.asarray(mirrored, bool)]
    steps = np.abs(positions[:, None, :] - chosen[None, :, :]).max(axis=2)
    result: np.ndarray = (steps <= SPOT_REACH).any(axis=1)
    return result


def mirror_choices(result: Classification, point: int) -> tuple[PointLabel, ...]:
    """The piece sets a point in the spot may hold, nearest first."""
    return tuple(sorted(PIECE_LABELS, key=lambda label: float(
        result.distances[point, LABELS.index(label)])))


def hides_cross(features: np.ndarray, bare: float) -> np.ndarray:
    """(points,) points whose printed cross is hidden as a mirrored top hides it, where a
    bare point shows ``bare``."""
    result: np.ndarray = features[:, _EMPTY, 3] < MIRROR_CROSS * bare
    return result


def of_paper_chroma(relative: np.ndarray, chroma: float = MIRROR_CHROMA) -> np.ndarray:
    """(points,) colours (log, relative to the paper round each point) within ``chroma``
    (MIRROR_CHROMA unless given) of the paper's, whatever their brightness: the colour a top
    mirroring the lamp has."""
    brightness = channel_mean(relative)
    result: np.ndarray = channel_norm(relative - brightness[:, None]) < chroma
    return result


def mirrors_lamp(middle_relative: np.ndarray, brighter: float | np.ndarray = MIRROR_BRIGHTER,
                 chroma: float = MIRROR_CHROMA) -> np.ndarray:
    """(points,) tops brighter than the paper round them by more than ``brighter``
    (MIRROR_BRIGHTER unless given, per point or for all), of its colour
    (``of_paper_chroma`` within ``chroma``); ``middle_relative`` as
    ``BoardSamples.middle_relative``."""
    result: np.ndarray = ((channel_mean(middle_relative) > brighter)
                          & of_paper_chroma(middle_relative, chroma))
    return result


OWN_COLOUR_GAP = 1.0
"""Least distance (log colour) from the paper's of a top showing its own set's colour beside
tops of the set that mirror the lamp (``lamp_split``). On eleven Blender seeds, white,
cream and shell sets beside their tops mirroring a lamp had at most one top that far from
the paper (a shadowed one); red and black glossy sets under ceiling and pendant lamps and
wide lenses had two to eleven, at 1.2 to 3.8."""
OWN_COLOUR_TOPS = 2
"""Least number of a set's start tops at ``OWN_COLOUR_GAP`` that say its colour is not the
lamp's."""


def lamp_split(features: np.ndarray, middle_relative: np.ndarray, expected: np.ndarray
               ) -> np.ndarray:
    """(points,) the start position's tops that mirror the lamp (``mirrors_lamp``) of a set
    whose other tops plainly show a colour of their own (``OWN_COLOUR_TOPS`` of them at
    ``OWN_COLOUR_GAP`` from the paper's): a glossy set, red or black, whose tops under the
    lamp's reflection look like paper. Where more than half of its tops do, the median of
    the set is the lamp's colour, and a top of the other set mirroring the lamp would be
    read as this set, surely. ``features`` as ``BoardSamples.features``; ``expected`` the
    start position's label indices."""
    lamp = mirrors_lamp(middle_relative)
    result = np.zeros(len(expected), bool)
    for index in range(len(LABELS)):
        if index == _EMPTY:
            continue
        own = expected == index
        gaps = np.linalg.norm(features[own, index, :3], axis=1)
        if (gaps > OWN_COLOUR_GAP).sum() >= OWN_COLOUR_TOPS:
            result |= own & lamp
    return result


def pale_mirrors(middle_relative: np.ndarray, pale: np.ndarray) -> dict[int, float]:
    """The ``pale`` pieces (points) of the start position whose tops mirror the lamp, each
    with its top's brightness (``middle_relative`` as ``BoardSamples.middle_relative``)."""
    levels = middle_relative.mean(axis=1)
    return {int(i): float(levels[i]) for i in np.flatnonzero(pale & mirrors_lamp(middle_relative))}


def dimmer_than_pale_mirror(levels: np.ndarray, middle_relative: np.ndarray) -> np.ndarray:
    """(points,) tops dimmer by more than DIMMER_THAN_PALE_MIRROR than the pale top that
    mirrored the lamp there at calibration (``levels`` (points,) its brightness, minus
    infinity where none did)."""
    result: np.ndarray = channel_mean(middle_relative) < levels - DIMMER_THAN_PALE_MIRROR
    return result
