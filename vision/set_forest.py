"""Which set a piece is of, told by the pattern of its top, its side and its shadow.

A glossy top mirroring a lamp looks like the other set's: a black top can turn grey or
white, a white one greyer than the paper. Its colour alone then leaves the set open, and
the reader reports the point as doubtful. What still tells the sets apart lies round the
colour: how the brightness spreads over the top (a mirror of the lamp fills part of it,
with an edge), how dark its side is against the paper (a dark body's side mirrors the
room, a pale body's is lit), and how the colours compare with the two sets' as the
calibration learned them.

These patterns are summed up per point (``SetPatterns.features``) and judged by a random
forest trained on rendered rooms (``benchmarks/train_set_forest.py``). The reader asks it
about pieces whose set the colours leave open, and takes its answer only when nearly all of
its trees agree (``SURE_SHARE``); and, once for each board about to be read, about the
pieces read surely, one of which is doubtful where most of its trees give it the other set
(``CONTRADICTING``): two witnesses that disagree.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache
from importlib import resources
from pathlib import Path

import numpy as np

from vision.sampling import SamplingLayout, pixel_logs
from vision.set_net import (
    FOREST_AGREES,
    NET_CONTRADICTING,
    NET_SURE,
    point_inputs,
    shipped_net,
)

RINGS = ((0.0, 0.15), (0.15, 0.3), (0.3, 0.42), (0.42, 0.55), (0.55, 0.7))
"""Rings round a point on the tops' plane (inner and outer radius, in pitches): the middle
of a top, its edge, its side and the paper or shadow beyond (tops are 0.7 to 0.9 of a
pitch across)."""
QUANTILES = (0.1, 0.5, 0.9)
"""Quantiles of each ring's pixels, per channel: a mirror of the lamp fills part of a top."""
SECTORS = 8
"""Sectors of each ring, to see a lit side against a dark one."""
NEAREST_ABSENT = 9.0
"""The distance (pitches) given when no piece of a set is there to compare with."""
_RING_STATS = len(QUANTILES) * 3 + 1 + 6
"""Features of each ring (see ``ring_features``)."""
OWN_FEATURES = len(RINGS) * _RING_STATS + 7
"""Features of a point's own rings, with both sets' means and the paper's brightness."""
COMPARED_FEATURES = 2 * (2 * 3 + 1)
"""Features comparing a point with the nearest piece of each set (see ``compared``)."""
FEATURES = OWN_FEATURES + 2 * COMPARED_FEATURES
"""Length of one point's feature vector (see ``SetPatterns.features``)."""
_MEDIAN = slice(3, 6)
"""Where a ring's median (per channel) lies among its statistics."""


@dataclass(frozen=True)
class RingPixels:
    """Where each ring round every point lies in the view of the tops."""

    pixels: tuple[np.ndarray, ...]
    """Per ring: (points, k) flat indices into the view."""
    sectors: tuple[np.ndarray, ...]
    """Per ring: (k,) the sector of each of its pixels (0 to ``SECTORS`` - 1)."""
    grid: np.ndarray
    """(points, 2) each point's place on the board, in pitches."""


def ring_pixels(layout: SamplingLayout) -> RingPixels:
    """The rings of ``layout``'s points (every point's are the same, moved to its centre)."""
    pitch, view = layout.pitch_px, layout.view_size
    reach = int(np.ceil(RINGS[-1][1] * pitch))
    dy, dx = np.mgrid[-reach:reach + 1, -reach:reach + 1]
    radius = np.hypot(dx, dy) / pitch
    angle = np.arctan2(dy, dx)
    centres = [layout.view_position(x, y) for x, y in layout.point_grid]
    pixels, sectors = [], []
    for inner, outer in RINGS:
        inside = (radius >= inner) & (radius < outer)
        ox, oy = dx[inside], dy[inside]
        rows = [np.clip(np.round(cy + oy), 0, view - 1).astype(np.intp) * view
                + np.clip(np.round(cx + ox), 0, view - 1).astype(np.intp)
                for cx, cy in centres]
        pixels.append(np.array(rows, np.intp))
        sectors.append(np.floor((angle[inside] + np.pi) / (2 * np.pi) * SECTORS)
                        .astype(np.intp) % SECTORS)
    return RingPixels(tuple(pixels), tuple(sectors), layout.point_grid.copy())


def ring_features(rings: RingPixels, top_view: np.ndarray, points: np.ndarray,
                  paper: np.ndarray, pale_mean: np.ndarray, dark_mean: np.ndarray
                  ) -> np.ndarray:
    """(len(points), OWN_FEATURES) what the rings of ``points`` (indices) show in ``top_view``.

    ``paper`` (len(points), 3) is the BGR of the paper each is judged against; the sets'
    means are their log colours relative to the paper, as ``ColourModel`` keeps them.
    Per ring: quantiles of each channel's log colour relative to the paper, how much
    brighter its brightest sector is than its darkest, and its median's difference from
    each set's mean colour; then both means and the paper's brightness.
    """
    if not len(points):
        return np.zeros((0, OWN_FEATURES), np.float32)
    parts = []
    for logs, sector in zip(_ring_logs(rings, top_view, points, paper), rings.sectors,
                            strict=True):
        parts.append(np.quantile(logs, QUANTILES, axis=1).transpose(1, 0, 2).reshape(
            len(points), -1))
        grey = logs.mean(axis=2)
        by_sector = np.stack([grey[:, sector == index].mean(axis=1)
                              for index in range(SECTORS)], axis=1)
        parts.append((by_sector.max(axis=1) - by_sector.min(axis=1))[:, None])
        median = np.median(logs, axis=1)
        parts.append(median - pale_mean[:3])
        parts.append(median - dark_mean[:3])
    rows = len(points)
    parts.append(np.broadcast_to(pale_mean[:3], (rows, 3)))
    parts.append(np.broadcast_to(dark_mean[:3], (rows, 3)))
    parts.append(_logs(paper).mean(axis=1, keepdims=True))
    result: np.ndarray = np.concatenate(parts, axis=1).astype(np.float32)
    return result


def ring_middles(rings: RingPixels, top_view: np.ndarray, points: np.ndarray,
                 paper: np.ndarray) -> np.ndarray:
    """(len(points), 6) the medians of the two inner rings (the top) of ``points``, log
    relative to ``paper``: as ``middles`` of their ``ring_features``."""
    if not len(points):
        return np.zeros((0, 6), np.float32)
    result: np.ndarray = np.concatenate(
        [np.median(logs, axis=1) for logs in _ring_logs(rings, top_view, points, paper, 2)],
        axis=1).astype(np.float32)
    return result


def _ring_logs(rings: RingPixels, top_view: np.ndarray, points: np.ndarray,
               paper: np.ndarray, count: int | None = None) -> list[np.ndarray]:
    """Per ring (the first ``count``), the log colour of each of its pixels round each of
    ``points``, relative to that point's ``paper`` (len(points), 3): (len(points), k, 3)."""
    pixels = top_view.reshape(-1, 3)
    paper_logs = _logs(paper)[:, None, :]
    return [pixel_logs(pixels[ring[points]]) - paper_logs for ring in rings.pixels[:count]]


def _logs(colours: np.ndarray) -> np.ndarray:
    """Log of BGR ``colours`` (at least 1), in single precision, as ``pixel_logs`` takes."""
    result: np.ndarray = np.log(np.maximum(colours.astype(np.float32), 1.0))
    return result


def middles(features: np.ndarray) -> np.ndarray:
    """(n, 6) the medians of the two inner rings (the top) of ``ring_features`` rows."""
    return np.concatenate([features[:, ring * _RING_STATS:][:, _MEDIAN] for ring in (0, 1)],
                          axis=1)


def compared(grid: np.ndarray, points: np.ndarray, own: np.ndarray,
             others: np.ndarray, other_middles: np.ndarray, other_sets: np.ndarray,
             sets: tuple[int, int], itself: bool) -> np.ndarray:
    """(len(points), COMPARED_FEATURES): for each of ``sets`` (pale, dark), how the top of
    the nearest of ``others`` (point indices; the point itself too when ``itself``)
    holding that set (``other_sets``) differs from the point's own (``own``: its
    ``middles``), and how far it stands (pitches): a glossy top mirrors a lamp alike on its
    neighbours.
    """
    result = np.zeros((len(points), COMPARED_FEATURES), np.float32)
    span = 2 * 3 + 1
    for column, label in enumerate(sets):
        result[:, column * span + span - 1] = NEAREST_ABSENT
        candidates = others[other_sets == label]
        candidate_middles = other_middles[other_sets == label]
        for row, point in enumerate(points):
            away = (candidates == candidates) if itself else candidates != point
            if not away.any():
                continue
            distance = np.hypot(*(grid[candidates[away]] - grid[point]).T)
            nearest = int(np.argmin(distance))
            result[row, column * span:column * span + 6] = (
                candidate_middles[away][nearest] - own[row])
            result[row, column * span + 6] = distance[nearest]
    return result


@dataclass(frozen=True)
class FrameTops:
    """What one frame showed of the tops, as the reader judged it."""

    view: np.ndarray
    """The frame's view of the tops' plane."""
    paper: np.ndarray
    """(points, 3) BGR of the paper each point is judged against."""
    labels: np.ndarray
    """(points,) the label index each point was read as."""
    sure: np.ndarray
    """(points,) whether each was read surely."""


class SetPatterns:
    """The features of pieces whose set the colours leave open, and the forest's verdict."""

    def __init__(self, layout: SamplingLayout, start_tops: np.ndarray,
                 start_sets: np.ndarray) -> None:
        """``start_tops`` as ``Calibration.start_tops``; ``start_sets`` (points,) the label
        index of each point in the start position (0: bare)."""
        self._layout = layout
        self._rings = ring_pixels(layout)
        self._start_pieces = np.flatnonzero(start_sets != 0)
        self._start_middles = start_tops[self._start_pieces]
        self._start_sets = start_sets[self._start_pieces]

    def features(self, tops: FrameTops, points: np.ndarray, means: np.ndarray
                 ) -> np.ndarray:
        """(len(points), FEATURES) of ``points`` (indices) in the frame; ``means`` are the
        colour model's (``ColourModel.means``)."""
        pale, dark = pale_and_dark(means)
        own = ring_features(self._rings, tops.view, points, tops.paper[points], means[pale],
                            means[dark])
        own_middles = middles(own)
        sure = np.flatnonzero(tops.sure & (tops.labels != 0))
        # The sure pieces among ``points`` (all of them, when a board about to be read is
        # judged) have their middles in ``own`` already.
        sure_middles = np.empty((len(sure), 6), np.float32)
        row_of = {int(point): row for row, point in enumerate(points)}
        featured = np.array([int(point) in row_of for point in sure], bool)
        sure_middles[featured] = own_middles[[row_of[int(point)] for point in sure[featured]]]
        rest = sure[~featured]
        sure_middles[~featured] = ring_middles(self._rings, tops.view, rest, tops.paper[rest])
        in_frame = compared(self._rings.grid, points, own_middles, sure, sure_middles,
                            tops.labels[sure], (pale, dark), itself=False)
        at_start = compared(self._rings.grid, points, own_middles, self._start_pieces,
                            self._start_middles, self._start_sets, (pale, dark), itself=True)
        result: np.ndarray = np.concatenate([own, in_frame, at_start], axis=1)
        return result

    def told(self, tops: FrameTops, points: np.ndarray, means: np.ndarray) -> np.ndarray:
        """(len(points),) the set (label index) each of ``points`` is of, where nearly all the
        forest's trees agree (``SURE_SHARE``), or where the set network is sure and most of
        the trees agree with it (``vision.set_net.NET_SURE``, ``FOREST_AGREES``), else -1."""
        result = np.full(len(points), -1)
        share = self._pale_shares(tops, points, means)
        if share is None:
            return result
        pale, dark = pale_and_dark(means)
        # The networks are asked where the forest does not tell the set itself (0.5, no
        # word, elsewhere or without a network).
        net_share = np.full(len(points), 0.5)
        asked = np.maximum(share, 1 - share) < SURE_SHARE
        if asked.any():
            asked_share = self._network_shares(tops, points[asked], means)
            if asked_share is not None:
                net_share[asked] = asked_share
        result[(share >= SURE_SHARE) | ((net_share >= NET_SURE) & (share >= FOREST_AGREES))] = pale
        result[(share <= 1 - SURE_SHARE)
               | ((net_share <= 1 - NET_SURE) & (share <= 1 - FOREST_AGREES))] = dark
        return result

    def networks_sure(self, tops: FrameTops, points: np.ndarray, sets: np.ndarray,
                      means: np.ndarray) -> np.ndarray:
        """(len(points),) whether the set networks are sure (``vision.set_net.NET_SURE``)
        that each of ``points`` is of its set in ``sets`` (label indices); none without a
        network."""
        share = self._network_shares(tops, points, means) if len(points) else None
        if share is None:
            return np.zeros(len(points), bool)
        pale = pale_and_dark(means)[0]
        result: np.ndarray = np.where(sets == pale, share >= NET_SURE, share <= 1 - NET_SURE)
        return result

    def _network_shares(self, tops: FrameTops, points: np.ndarray, means: np.ndarray
                        ) -> np.ndarray | None:
        """(len(points),) the set networks' share for the paler set (by ``means``) at
        ``points``, or None without a network."""
        net = shipped_net()
        if net is None:
            return None
        pale, dark = pale_and_dark(means)
        result: np.ndarray = net.share(point_inputs(self._layout, tops.view, tops.paper, points,
                                                    means[pale], means[dark]))
        return result

    def contradicted(self, tops: FrameTops, points: np.ndarray, read: np.ndarray,
                     means: np.ndarray, in_reflection: np.ndarray) -> np.ndarray:
        """(len(points),) for pieces ``points`` read surely as ``read`` (label indices), the
        other set where the forest plainly tells it (``CONTRADICTING``), else -1. A piece
        read as the paler set ``in_reflection`` (len(points),), near where the start
        position showed a lamp's reflection on glossy tops, needs the forest's word for
        that set (``SPOT_PALE_SHARE``): a dark top there may look pale all over."""
        result = np.full(len(points), -1)
        share = self._pale_shares(tops, points, means)
        if share is None:
            return result
        pale, dark = pale_and_dark(means)
        read_pale = read == pale
        against = np.where(read_pale, (share <= 1 - CONTRADICTING)
                           | (in_reflection & (share < SPOT_PALE_SHARE)),
                           share >= CONTRADICTING)
        # Where the forest doubts the set read, the network may tell the other plainly.
        doubted = ~against & (np.where(read_pale, share, 1 - share) < CONTRADICTION_ASKED)
        net_share = self._network_shares(tops, points[doubted], means) if doubted.any() else None
        if net_share is not None:
            against[doubted] = np.where(read_pale[doubted], net_share <= 1 - NET_CONTRADICTING,
                                        net_share >= NET_CONTRADICTING)
        result[against] = np.where(read_pale, dark, pale)[against]
        return result

    def _pale_shares(self, tops: FrameTops, points: np.ndarray, means: np.ndarray
                     ) -> np.ndarray | None:
        """(len(points),) the share of the forest's votes for the paler set, or None when
        there is nothing to ask or no forest."""
        forest = shipped_forest()
        if not len(points) or forest is None:
            return None
        return forest.pale_share(self.features(tops, points, means))


def pale_and_dark(means: np.ndarray) -> tuple[int, int]:
    """The label indices of the paler and the darker piece set (``ColourModel.means``)."""
    grey = means[1:3, :3].mean(axis=1)
    return (1, 2) if grey[0] >= grey[1] else (2, 1)


SURE_SHARE = 0.98
"""Share of the trees' votes that tells a piece's set. Measured on twenty-two render sets
(twenty Blender seeds and two of the room renderer's), each third of them judged by a
forest trained on the other two (``benchmarks/train_set_forest.py --folds 3``): of 704
pieces whose set the colours left open, 242 were told at 0.98, none wrongly, and 136 of the
415 frames whose only doubt was such pieces would be read; at 0.95, 287 were told, one
wrongly."""
CONTRADICTING = 0.9
"""Share of the trees' votes for the other set that makes a piece read surely doubtful.
Judged as for ``SURE_SHARE``: of 70,494 pieces read surely (22 of them wrongly, most in
frames the reader did not read), it went against 9 at 0.9, one of them read wrongly; 5
frames read rightly would be left to the game. (A first forest, its leaves of three
training rows, went against 3 at 0.95.) A cream top on the edge of a brown top's shadow,
read surely as brown (Blender seed 3201, rendered after the forest was trained), had 0.96
of the votes for cream."""
CONTRADICTION_ASKED = 0.9
"""Share of the trees' votes for the set a piece was read as, surely, below which the set
network is asked whether it is of the other set (``vision.set_net.NET_CONTRADICTING``).
On thirty-one render sets, every one of the 26 pieces of 81,723 read surely as the wrong
set had less, held out; 1,992 pieces in all had less (about two, in one frame of
eight)."""
SPOT_PALE_SHARE = 0.8
"""Least share of the trees' votes for the paler set that a piece read surely as it needs
near where the start position showed a lamp's reflection on glossy tops (the darker set's
mirroring it whole, or the paler set's mirroring it; ``vision.mirror_spot.spot``): there a
dark top may mirror the lamp over its whole face and look pale all over, its rim too.
Blender seeds 3301 and 3401, rendered after the forest was trained, each read a black top
under a pendant lamp surely as white there, with 0.53 and 0.49 of the votes for white: two
wrong boards. Judged on twenty-six render sets (twenty-two as for ``SURE_SHARE``, held out,
and those two and seeds 3101 and 3201): of the 24 pieces read surely as the paler set that
were of the darker one, 12 lay in such a spot, all with less than 0.8 of the votes (0.05
to 0.75); of the 1,238 read rightly there, 19 had less, which leaves 5 frames read rightly
to the game. (Near the paler set's tops mirroring a lamp whole, printed red tops under a
low lamp had 0.72 to 0.76: the start position itself would not be read.)"""
MODEL_FILE = "set_forest.npz"
"""The trained forest, in the package's ``models`` folder."""


class SetForest:
    """A trained forest of decision trees: how sure it is that a piece is of the paler set.

    The trees are stored as flat arrays (``benchmarks/train_set_forest.py`` writes them):
    per node the feature it splits on and the threshold (a leaf has feature -1), the
    nodes a row goes to when its feature is at most the threshold or above it, and the
    share of the paler set among the training rows that reached it. Each tree starts at
    its entry of ``roots``.
    """

    def __init__(self, path: Path | None = None) -> None:
        if path is None:
            path = Path(str(resources.files("vision") / "models" / MODEL_FILE))
        try:
            with np.load(path) as data:
                self._feature = data["feature"].astype(np.intp)
                self._threshold = data["threshold"].astype(np.float32)
                self._low = data["low"].astype(np.intp)
                self._high = data["high"].astype(np.intp)
                self._pale = data["pale"].astype(np.float64)
                self._roots = data["roots"].astype(np.intp)
                features = int(data["features"])
        except (OSError, KeyError, ValueError) as error:
            raise ValueError(f"{path}: not a set forest ({error})") from error
        if features != FEATURES:
            raise ValueError(f"{path}: a forest of {features} features, not {FEATURES}")

    def pale_share(self, features: np.ndarray) -> np.ndarray:
        """(n,) how sure the trees are, on average, that each row is of the paler set."""
        rows = np.arange(len(features))[:, None]
        nodes = np.broadcast_to(self._roots, (len(features), len(self._roots))).copy()
        while True:
            split = self._feature[nodes]
            inner = split >= 0
            if not inner.any():
                break
            values = features[np.broadcast_to(rows, nodes.shape), np.maximum(split, 0)]
            below = values <= self._threshold[nodes]
            nodes = np.where(inner, np.where(below, self._low[nodes], self._high[nodes]), nodes)
        result: np.ndarray = self._pale[nodes].mean(axis=1)
        return result


@cache
def shipped_forest() -> SetForest | None:
    """The forest shipped with the package, loaded once; None when the package has none
    (before the first training): the reader then leaves such pieces doubtful, as it did
    before the forest."""
    path = Path(str(resources.files("vision") / "models" / MODEL_FILE))
    return SetForest(path) if path.exists() else None
