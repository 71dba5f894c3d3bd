"""Every threshold of the vision pipeline, in one frozen value.

Stages are functions ``stage(config, ...)``; none of them keeps its own constants,
so a test or a benchmark can vary one threshold and see what it does. Distances
on the board are in pitches (the grid spacing), so the same values fit every
print size and camera distance.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class VisionConfig:
    """Thresholds and sizes of the vision pipeline."""

    canonical_pitch_px: int = 20
    """Pixels per pitch in the top-down view the board is sampled in."""
    canonical_margin: float = 1.0
    """Pitches of sheet kept around the grid in the top-down view."""
    point_colour_quantile: float = 0.3
    """Which quantile of its sample's pixels gives a point's colour, per channel: below the
    median, so that a glossy piece mirroring a lamp over much of its top keeps its colour."""
    point_sample_radius: float = 0.2
    """Radius of the disc sampled round each point in the view of the pieces' tops, in
    pitches; tops are about 0.38 and may sit 0.2 or more off their point."""
    wide_point_sample_radius: float = 0.25
    """Radius of the wider disc a piece set is read over when its tops vary within the
    narrower one (a printed ring and dot): see ``vision.calibrate.wide_tops``."""
    line_clearance: float = 0.06
    """Half-width of the band round the printed lines left out of point samples, pitches."""
    paper_sample_radius: float = 0.14
    """Radius of each bare-paper sample between the points, pitches."""

    confident: float = 0.9
    """Least confidence for a point to count; one point below it and the frame is occluded."""
    tempered_distance: float = 2.0
    """Distance (in standard deviations) to the nearest label beyond which the gap to the next
    label counts for less (see ``vision.colour``)."""
    outlier_distance: float = 6.0
    """Distance (in standard deviations) at which a sample is as likely junk as any class."""
    colour_floor: float = 0.12
    """Least standard deviation of a class in each channel of the log paper-relative colour."""
    cross_floor: float = 0.15
    """Least standard deviation of the pieces in how clearly the printed cross shows."""
    distinct_piece: float = 1.0
    """Colour distance (log units) from the paper beyond which a piece set is told from it
    by colour alone, whatever the cross shows."""
    distinct_piece_cross_floor: float = 0.35
    """Least standard deviation in the cross of such a set: one set down off its point
    shows some of the arms it should hide."""
    bare_cross_floor: float = 0.6
    """Least standard deviation of bare points in how clearly the cross shows: blur, a
    distant camera or a deep shadow can hide the line, but never draw one on a piece."""
    largest_spread: float = 0.3
    """Largest standard deviation a label learns from the start position in any direction
    (log units), floors aside: pieces of one set, however glossy, do not vary more."""
    shadow_spread: float = 0.4
    """Extra spread of bare points along the darker-in-every-channel direction (log units):
    a piece's or a lamp's shadow on a bare point."""
    pale_bare_cross_floor: float = 0.25
    """The same when a piece set has the paper's colour (white on white): the cross is then
    what tells them apart, and frames too blurred to show it are not read."""
    shadow_needs_cross: float = 0.5
    """Darkening (log units) beyond which a point only counts as bare when its printed cross
    shows: a deep shadow on paper keeps its lines, a dark piece has none."""
    sharp_cross: float = 0.8
    """Cross feature of most bare points in a sharp frame; there, a bare-looking point whose
    cross is under a third of it is not trusted."""
    sharp_share: float = 0.85
    """Share of the bare points' cross at calibration that a frame's bare points must show
    to count as sharp (at most ``sharp_cross``)."""
    pale_piece: float = 0.3
    """Colour distance (log units) from the paper under which a piece set is told from bare
    points only by the printed cross it covers."""
    pixel_noise: float = 0.15
    """Extra spread of single pixels' colours over the points' medians (noise, JPEG)."""
    pixel_shadow_spread: float = 0.5
    """Extra spread of single bare pixels along the shadow direction (a shadow's core)."""
    bare_piece_share: float = 0.25
    """Most of a bare point's sample that may look like a piece; more is a piece set down
    partly over the point, and the point is doubtful: that piece, or bare paper."""
    top_light_spread: float = 0.3
    """Extra spread of pieces along the brighter-in-every-channel direction: how much more or
    less light a piece's top catches than the paper round it."""
    glare_limit: float = 0.3
    """Most light a glossy piece's top may mirror on top of its own colour, as a share of the
    paper's brightness (its quantile sample leaves the brightest highlights out)."""
    glare_clearance: float = 4.0
    """Least distance (standard deviations of colour) a piece label under glare keeps from
    every other label."""
    adaptation_rate: float = 0.02
    """Share of a confident frame's colours blended into the colour model (slow light change)."""
    frame_fit_pieces: int = 3
    """Least pieces of a set read with full confidence in a frame for its colour to be fitted
    to that frame."""
    frame_fit_limit: float = 0.6
    """Most a piece set's colour is moved to fit one frame (log units)."""

    paper_chroma_tolerance: float = 0.13
    """Most a paper sample's colour may differ from the board's paper colour (log units)."""
    paper_dark_tolerance: float = 0.95
    """Most a paper sample may be darker than the board's smooth light field (log units);
    a shadow is about 0.7, a sleeve or a dark hand darker."""
    paper_bright_tolerance: float = 0.45
    """Most a paper sample may be brighter than the smooth light field (log units)."""
    paper_texture_tolerance: float = 0.16
    """Largest relative spread of brightness inside one paper sample (an edge passing through)."""
    near_piece_dark_tolerance: float = 1.6
    """Most a paper sample next to a piece may be darker than the light field: a piece's own
    hard shadow under a low lamp."""
    coloured_piece: float = 0.1
    """Least colour (chroma, log units) of a piece set for bare paper leaning towards it to
    count as covered."""
    dark_piece: float = 0.7
    """Darkness (log units below the paper) of a dark piece set: paper must be dark too to
    count as leaning towards its colour (see ``vision.paper``), and a piece of it with the
    paper's colour is unsure (see ``BoardReader``)."""
    shadow_chroma_tolerance: float = 0.6
    """Most a paper sample next to a piece may differ in colour from the lit paper: its
    shadow, lit by the room's other lights."""
    warm_shadow_tolerance: float = 0.12
    """Most a darker paper sample next to a piece may be warmer than the paper beyond the
    usual tolerance (log units): a shadow lit only by a warm lamp; skin is warmer still."""
    warm_light_chroma: float = 0.6
    """How much warmer (along the warm-cool axis, log units) than daylight-balanced paper
    the warmest lamp's light is (about 2700 K): paper lit more by it is warmer by at most
    this times the share of the light it adds."""
    cool_light_tolerance: float = 0.12
    """How much cooler (along the warm-cool axis, log units) than the board's paper a sample
    may be beyond the usual tolerance: the edge of a warm spotlight's cone in daylight."""
    paper_chroma_drift: float = 0.08
    """Most the median chroma of a frame's paper samples may differ from the paper's when last
    seen clear for cooler light to be allowed (a hand over most of the board moves it more)."""
    paper_chroma_rate: float = 0.2
    """Share of a clear frame's paper chroma blended into the one remembered (white balance
    drifts)."""
    cool_shadow_tolerance: float = 0.35
    """Further cooling allowed next to a piece, up to the sample's darkness: a piece's shadow
    under a low warm lamp is lit by the daylight alone."""
    near_piece_texture_tolerance: float = 0.45
    """Largest brightness spread of a paper sample next to a piece: a shadow's edge."""
    shadow_edge_texture_tolerance: float = 0.7
    """Largest brightness spread of a paper sample next to a piece that keeps the paper's
    colour closely (half ``paper_chroma_tolerance``, more by as much as the sample is deep in
    shadow: see ``vision.paper``): the edge of a hard shadow as deep as a low lamp or a
    window casts, a fifth as bright as the lit paper beside it."""

    marker_match: float = 0.8
    """Least correlation between a marker patch now and when it was located, for 'unchanged'."""
    moved_tolerance: float = 0.06
    """Movement of the grid corners (pitches) above which the board has moved."""
    detection_max_width: int = 960
    """Frames wider than this are shrunk before marker detection, for speed."""
