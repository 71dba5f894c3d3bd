"""Occlusion: does the bare paper between the points still look like paper?

A hand or arm over the board is the one thing that must never turn into a board
reading. Missing markers are only a weak hint (a hand over the middle leaves all
four visible), and a uniform occluder fools the per-point test because the point
and the "paper" round it are then the same skin. So every paper sample is checked
against the board as a whole:

- colour: its chromaticity (log colour minus log brightness) must match the median
  chromaticity of the grid's paper samples (not those beyond its sides); coloured light
  shifts every sample alike and cancels, skin and sleeves do not. Light of another
  colour temperature over part of the board (a spotlight's cone, a shadow lit by the
  sky) makes paper cooler, along the warm-cool axis alone: a little of that is allowed,
  more in a piece's shadow (as deep as the shadow is below the lit paper's level);
- brightness: it must lie near a smooth light field (a quadratic in log brightness
  over the board, fitted robustly so that a few bad samples do not drag it); a
  shadow darkens paper by up to ~0.7 in log units, a dark sleeve or dark skin by
  more. Where the pieces' shadows cover much of the paper (a low lamp) the robust
  field follows them, so a sample is too bright only above the lit paper's level too;
- texture: a sample with an edge through it (a finger's outline) is not bare paper;
  next to a piece a sharper edge is allowed when the sample keeps the paper's colour
  closely: the edge of the piece's own hard shadow (a low lamp), deep shadow beside lit
  paper, both the paper's colour.

One bad sample is enough: the frame is occluded. A sample diagonally next to a piece
is judged more leniently in darkness, texture and colour: pieces have height, so
their shadows fall on the paper round them, and a shadow is lit only by the room's
other lights (a blue sky beside a warm lamp), so it has another colour. A hand there
still fails the points under it, and the bare paper further out.
Where a piece hides part of a sample from a slanted camera, that part is left out.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

import numpy as np

from vision.colour import WARM, without_cool_light, without_warmth
from vision.config import VisionConfig
from vision.light_field import paper_light
from vision.paper_tint import PaperTint
from vision.reductions import channel_mean, channel_norm, median_along
from vision.sampling import BoardSamples, SamplingLayout
from vision.shadows import DEEPEST_MARGIN, READ_HALF_WIDTH, ShadowReach, shadowed_cells

MAX_EDGE_SAMPLES = 3
"""Most paper samples, each beside a piece and between two points or more, that a second look
may clear by leaving out the edge of a piece set down off its point (see ``check_paper``).
Wooden pieces a player set down pushed together reached three such samples (Blender renders
of mixed light), one at the grid's side. Fingertips in a hand's shadow, read as pieces,
failed samples by one point only (at the grid's corners) or beyond the grid: on eleven
render sets (about 480 hand frames) no hand frame was read that was not read before."""
LEAST_EDGE_NEIGHBOURS = 2
"""Least points next to a sample for the second look: a side's, or one between four."""


@dataclass(frozen=True, slots=True)
class PaperCheck:
    """What the paper samples of one frame say about occlusion."""

    covered: np.ndarray
    """(cells,) True for each paper sample that does not look like bare paper."""
    chroma_error: np.ndarray
    """(cells,) distance of each sample's chromaticity from the board's paper, log units."""
    brightness_error: np.ndarray
    """(cells,) log brightness minus the smooth light field."""
    chroma: np.ndarray
    """(3,) median log chroma of the samples judged: the paper's colour in this frame."""
    uniform: bool
    """Whether every sample away from the pieces has the median's colour closely: then the
    median is the paper's, even if the camera's white balance has moved it."""
    shadow_depth: np.ndarray
    """(cells,) how far each sample lies below the lit paper's level (log units, 0 when
    not below it)."""
    beside: np.ndarray
    """(cells,) the samples judged as a piece's shadow may fall on them."""
    judged: np.ndarray
    """(cells,) the samples judged at all (not hidden by the pieces round them)."""

    @property
    def is_clear(self) -> bool:
        """Whether every paper sample looks like bare paper."""
        return not bool(self.covered.any())


LIT_DEPTH = 0.05
"""Most depth (log, below the lit paper) of a sample counted as lit paper."""
SHADOW_DEPTH = 0.2
"""Least depth of a sample counted as in a shadow."""
SHADOWED_SHARE = 0.3
"""Least share of the grid's samples in shadow, and lit, for the paper's colour to be taken
from the lit ones alone."""


def check_paper(config: VisionConfig, layout: SamplingLayout, samples: BoardSamples,
                occupied: np.ndarray | None = None,
                cover: np.ndarray | None = None,
                piece_colours: np.ndarray | None = None,
                coloured: np.ndarray | None = None,
                paper_chroma: np.ndarray | None = None,
                shadow_reach: ShadowReach | None = None,
                edge_cover: np.ndarray | None = None,
                tint: PaperTint | None = None) -> PaperCheck:
    """Judge every paper sample against the board's paper as a whole (see
    :func:`_check_paper`); with ``tint``, the light's colour over the sheet as calibration
    saw it (:func:`learn_paper_tint`), a sample is covered only where it does not look like
    bare paper either as it is or with that colour taken away."""
    result = _check_paper(config, layout, samples, occupied, cover, piece_colours, coloured,
                          paper_chroma, shadow_reach, edge_cover, None)
    if tint is None or result.is_clear:
        return result
    # Either: the light may have changed since calibration (a lamp switched off), or not.
    tinted = _check_paper(config, layout, samples, occupied, cover, piece_colours, coloured,
                          paper_chroma, shadow_reach, edge_cover,
                          tint.at(layout.size, layout.paper_grid))
    return replace(result, covered=result.covered & tinted.covered)


def _check_paper(config: VisionConfig, layout: SamplingLayout, samples: BoardSamples,
                 occupied: np.ndarray | None, cover: np.ndarray | None,
                 piece_colours: np.ndarray | None, coloured: np.ndarray | None,
                 paper_chroma: np.ndarray | None, shadow_reach: ShadowReach | None,
                 edge_cover: np.ndarray | None, tint: np.ndarray | None) -> PaperCheck:
    """Judge every paper sample against the board's paper as a whole.

    ``occupied`` (points,) says which points hold a piece; samples next to one are
    allowed its shadow, and with ``cover`` (``ViewMaps.cover``) the
    part of a sample such a piece hides from the camera is left out. A sample hidden
    almost whole is not judged at all. ``piece_colours`` (labels, 3) are the pieces'
    log colours relative to the paper: what is left of a sample is paper or shadow, never
    a piece's top, so a sample whose colour leans towards a coloured piece set's is
    something else (a hand the colour of light wood over the pieces, say). Samples
    next to a piece may have a shadow's other colour only when ``coloured`` (points, the
    default ``occupied``) says the piece is not of a pale set: next to pale pieces the
    colour check stays strict, as a hand is the colour those pieces are told from.
    ``paper_chroma`` is the paper's chroma when last seen clear: cooler light over part of
    the board is allowed only while the samples' median still has it, for a hand over most
    of the board makes its own colour the median, and the paper beside it looks cooler.
    At calibration there is none, and none is needed: a hand over most of the grid covers
    pieces of the start position, which are then not read as the start position's.
    With ``shadow_reach`` (``vision.shadows``) the samples the pieces' long shadows reach
    are judged as those next to a piece.

    With ``edge_cover`` (``ViewMaps.edge_cover``), when no more than MAX_EDGE_SAMPLES
    samples fail and each lies between LEAST_EDGE_NEIGHBOURS points or more, beside a
    piece, they are looked at again without what a piece set down off its point may hide:
    a piece 0.2 of a pitch off towards a sample puts its blurred edge and the dark foot of
    its side into it. Only then: a hand reaching in covers paper at the grid's corners or
    beyond it too.

    With ``tint`` (cells, 3), each sample's colour is judged with that log chroma taken
    away: the colour the light over the sheet gave the paper there.
    """
    colours, spread, usable = samples.paper_colours, samples.paper_spread, None
    near = beside_pieces = np.zeros(len(colours), bool)
    if occupied is not None:
        beside_pieces = _beside(layout, occupied)
        near = beside_pieces | _long_shadows(layout, shadow_reach, occupied)
        if cover is not None:
            visible = samples.visible_paper(layout, cover, occupied)
            colours, spread, usable = visible.colours, visible.spread, visible.usable
    logs = np.log(np.maximum(colours, 1.0).astype(np.float64))
    brightness = channel_mean(logs)
    chroma = logs - brightness[:, None]
    if tint is not None:
        chroma = chroma - tint
    judged = np.ones(len(colours), bool) if usable is None else usable
    clean = judged & ~near
    # The light the points were judged against, when fitted to these same samples.
    light = samples.paper_light
    if light is None or not light.fits(brightness, clean, judged):
        light = paper_light(layout.size, layout.paper_grid, brightness, clean, judged)
    field = light.field
    brightness_error = brightness - field
    # The robust field follows the pieces' shadows where they cover much of the paper (a
    # low lamp). Against the lit paper's level, lit paper between them is not too bright,
    # and a shadow is as deep as it is: for how much cooler it may be (skin is never cool).
    above_lit = brightness - light.lit
    darkness = np.maximum(-brightness_error, 0.0)
    shadow_depth = np.maximum(-above_lit, darkness)
    # The paper's colour from every sample of the grid judged: a hand can be brighter than
    # dim paper, so the brightest samples alone may be skin; shadows' other colours are
    # allowed below. Not from the paper beyond the grid's sides: under a hand over most of
    # the grid, that would put the median halfway between skin and paper, near both.
    on_grid = judged & layout.on_grid
    reference = on_grid if on_grid.any() else judged
    lit = reference & (shadow_depth <= LIT_DEPTH)
    least = SHADOWED_SHARE * reference.sum()
    if (reference & (shadow_depth >= SHADOW_DEPTH)).sum() >= least and lit.sum() >= least:
        # But where a low lamp's long shadows, lit by the room's cooler light alone, cover
        # much of the grid, the median of lit and shadowed paper is the colour of neither,
        # and lit paper looked too warm. The paper's colour is then the lit paper's, as its
        # level is; the shadows are allowed below as cooler. (A hand that is most of the
        # lit samples makes their colour its own: in play that moves it from the paper's
        # as last seen, and every sample is judged strictly, below; at calibration such a
        # hand hides the start position's pieces.)
        reference = lit
    median = median_along(chroma[reference], axis=0)
    offset = chroma - median
    uniform = bool((channel_norm(offset[clean & layout.on_grid])
                    <= config.paper_chroma_tolerance / 2).all())
    # A hand over much of the board pulls the median towards its own colour. So when the
    # median has left the paper's colour as last seen and the samples do not all agree with
    # it (a new light's colour, or the camera's white balance, moves them all alike), every
    # sample is judged against the paper as last seen, strictly: a hand stays a hand.
    moved = paper_chroma is not None and not uniform and float(
        np.linalg.norm(median - paper_chroma)) > config.paper_chroma_drift
    offset = chroma - paper_chroma if moved else without_cool_light(
        config, offset, shadow_depth, near)
    if not moved:
        offset = _without_warm_light(config, offset, brightness_error)
    chroma_error = channel_norm(offset)
    tinted = near
    if coloured is not None:
        tinted = _beside(layout, coloured) | _long_shadows(layout, shadow_reach, coloured)
    # A shadow may take the colour of the room's other light, but hardly towards skin: a
    # hand there is caught by how much warmer than the paper it is. Under daylight and a
    # warm lamp, a piece's shadow against the daylight is lit by the lamp alone: warmer by
    # about as much as it is darker, and never by as much as skin.
    shadow_warmth = np.minimum(darkness, config.warm_shadow_tolerance)
    warm_allowance = config.paper_chroma_tolerance + shadow_warmth
    warmer = offset @ WARM > warm_allowance
    hue = np.where(tinted & (not moved), config.shadow_chroma_tolerance,
                   config.paper_chroma_tolerance)
    # Beside a pale piece the colour stays strict (a hand is told from such pieces by its
    # colour alone), but its shadow, lit by the room's other light, may be warmer by as
    # much as a coloured piece's may: as much as it is darker, a little at most. (That
    # warmth leans to a cream set's colour too; a lit hand is not darker.)
    beside_pale = near & ~tinted & (not moved)
    shadow_warmed = without_warmth(offset, cooler=0.0, warmer=np.where(
        tinted | beside_pale, shadow_warmth, 0.0))
    hue_error = np.where(beside_pale, channel_norm(shadow_warmed), chroma_error)
    dark = np.where(near, config.near_piece_dark_tolerance, config.paper_dark_tolerance)
    # A piece's hard shadow may split a sample next to it into lit paper and deep shadow,
    # both the paper's colour; a finger's edge there brings skin's. The deeper the shadow,
    # the more of its light is the room's other light (the sky, the table's bounce), whose
    # colour is the paper's only roughly: half the sample carries it.
    shadow_edge = near & (chroma_error <= config.paper_chroma_tolerance / 2
                          * (1.0 + shadow_depth))
    texture = np.where(near, np.where(shadow_edge, config.shadow_edge_texture_tolerance,
                                      config.near_piece_texture_tolerance),
                       config.paper_texture_tolerance)
    covered = (
        (hue_error > hue) | (tinted & warmer)
        | (brightness_error < -dark)
        | (above_lit > config.paper_bright_tolerance)
        | (spread > texture)
        | _leans_to_pieces(config, shadow_warmed, brightness_error, piece_colours,
                           _in_long_shadows(shadow_reach, near, shadow_depth))
    ) & judged
    result = PaperCheck(covered, chroma_error, brightness_error, median, uniform,
                        shadow_depth, near, judged)
    if edge_cover is None or occupied is None or not covered.any() \
            or covered.sum() > MAX_EDGE_SAMPLES:
        return result
    between_points = ((layout.cell_neighbours < len(occupied)).sum(axis=1)
                      >= LEAST_EDGE_NEIGHBOURS)
    if not (beside_pieces & between_points)[covered].all():
        return result
    again = _check_paper(config, layout, samples, occupied, edge_cover, piece_colours,
                         coloured, paper_chroma, shadow_reach, None, tint)
    return again if again.is_clear else result


def _beside(layout: SamplingLayout, pieces: np.ndarray) -> np.ndarray:
    """(cells,) the samples diagonally next to any of ``pieces`` (points)."""
    result: np.ndarray = np.append(np.asarray(pieces, bool), False)[
        layout.cell_neighbours].any(axis=1)
    return result


def _long_shadows(layout: SamplingLayout, reach: ShadowReach | None, pieces: np.ndarray
                  ) -> np.ndarray:
    """(cells,) the samples the shadows of ``pieces`` (points) reach, if ``reach``."""
    if reach is None:
        return np.zeros(len(layout.paper_grid), bool)
    return shadowed_cells(reach, layout.paper_grid, layout.point_grid, pieces, READ_HALF_WIDTH)


def _without_warm_light(config: VisionConfig, offset: np.ndarray,
                        brightness_error: np.ndarray) -> np.ndarray:
    """(n, 3) chroma offsets with the warmth a warm lamp's extra light explains taken away.

    A warm spotlight's cone or a low lamp's near side adds light of its colour: paper there
    is brighter and warmer, by at most the lamp's own warmth times the share of the light
    it adds. Skin is warmer without being brighter than the paper round it.
    """
    added_share = np.maximum(1.0 - np.exp(-brightness_error), 0.0)
    return without_warmth(offset, cooler=0.0, warmer=config.warm_light_chroma * added_share)


def _in_long_shadows(reach: ShadowReach | None, near: np.ndarray, shadow_depth: np.ndarray
                     ) -> np.ndarray:
    """(cells,) the samples beside a piece or in its long shadow's reach that are no deeper
    than the start position's deepest shadow (by ``DEEPEST_MARGIN``): where a low lamp's
    shadows may be, lit by the room's other light alone; none where the start position
    showed no long shadows."""
    if reach is None:
        return np.zeros(len(near), bool)
    result: np.ndarray = near & (shadow_depth <= reach.deepest + DEEPEST_MARGIN)
    return result


def _leans_to_pieces(config: VisionConfig, offset: np.ndarray, brightness_error: np.ndarray,
                     piece_colours: np.ndarray | None, in_long_shadows: np.ndarray
                     ) -> np.ndarray:
    """Samples whose colour (chroma off the paper's) is nearer a coloured piece set's.

    Something the colour of a dark set (a sleeve) is dark too: leaning towards a dark set's
    colour counts only in a sample darker than the light field by half as much as the set
    is. A black set's own colour is mostly the room's stray light (warm under a warm
    spotlight), and paper a little warmer in that light is no sleeve. Nor is a low lamp's
    shadow (``in_long_shadows``, see _in_long_shadows), lit by that stray light alone: it
    has the black set's colour (a Blender render, seed 1501: within 0.02 of it, 0.15 off
    the lit paper's, and two hand-free frames were taken for covered). Leaving those out
    changed no hand frame's covered samples on thirteen Blender seeds or the room
    renderer's full set.
    """
    leaning = np.zeros(len(offset), bool)
    if piece_colours is None:
        return leaning
    error = channel_norm(offset)
    for colour in piece_colours:
        hue = colour - colour.mean()
        if np.linalg.norm(hue) < config.coloured_piece:
            continue  # black, grey or white pieces: their colour is the paper's and shadow's
        if hue @ WARM < 0 and np.linalg.norm(hue - (hue @ WARM) * WARM) < config.coloured_piece:
            # Grey pieces under a warm lamp look cooler than the paper, along the warm-cool
            # axis alone, and so does paper in a shadow lit by the room's cooler light.
            continue
        leans = (error > config.paper_chroma_tolerance / 2) & (
            channel_norm(offset - hue) < error)
        darkness = -float(colour.mean())
        if darkness > config.dark_piece:
            leans &= (brightness_error < -darkness / 2) & ~in_long_shadows
        leaning |= leans
    return leaning
