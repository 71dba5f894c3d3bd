"""The sheet round the grid: a hand reaching over the board crosses it.

Decisions:
- A hand over the grid comes from outside the sheet: its arm, or its fingers, cross the
  band of sheet round the grid, beyond the loops' inner half (``BAND``), where no piece
  stands and the pieces' shadows hardly reach. The paper samples between the points
  cannot always tell a hand: a light-skinned hand under a warm lamp, white-balanced by the
  camera, has the paper's colour and brightness, and its fingers' shadows on bare points
  look like dark pieces. Its arm still changes the band.
- The band is compared with the way the start position showed it (kept in the
  calibration): each pixel's log colour change, less the band's median change per
  channel (the light and the camera's white balance change it all alike). A share of the
  band changed by more than ``CHANGED`` in some channel (``ARM_SHARE``) is a hand. On
  twenty-one render sets (nineteen Blender seeds and two of the room renderer's: 5,844
  hand-free frames, with a low lamp's long shadows, a window's light, knocked cameras) no
  hand-free frame changed more than 0.014 of the band; 2,401 of 2,426 hand frames changed
  0.04 or more.
- The view of the band is a small top-down image of the sheet (``PIXELS_PER_PITCH``),
  each pixel the mean of ``SUBSAMPLES`` squared samples: thin printed lines blur, so a
  pose a fraction of a pixel off does not change them.
- Light changes over a session (the sun moving over a window's patch of light, a cloud):
  the reader follows it, blending each frame it does not take for occluded into the
  reference where it changed less than ``CHANGED`` (``FOLLOW_RATE``). A hand changes the
  pixels it comes over at once, and by more: it is never blended in, however slowly it
  comes.
- Light can change at once too (a lamp switched on, a person's shadow): a changed band that
  stays still for ``STILL_FRAMES`` frames (a second at the camera's usual rate) is taken
  as it is. A hand held that still over the sheet is taken in too; the paper samples
  between the points still judge it, as they did before this check.
- The band's markers are left out: their sharp squares change with the slightest error of
  the pose.
- Only the sheet is compared, not the table beyond its edges, where players rest their
  arms and cups come and go; nor what the camera did not see in both images.
"""

from __future__ import annotations

import base64
from dataclasses import dataclass, field

import cv2
import numpy as np

from vision.board_model import BoardModel
from vision.camera import CameraModel

PIXELS_PER_PITCH = 6
"""Pixels per pitch of the band's top-down view."""
SUBSAMPLES = 3
"""Samples per view pixel and side, averaged: a low-pass, whatever the camera's resolution."""
BAND = (1.7, 2.5)
"""Distances beyond the grid's outer lines (pitches, the larger of across and along) of
the band compared. The outer loops reach 2 pitches out; the start position's pieces on the
edge lines cast a low lamp's shadows 1 to 1.5 pitches out."""
SHEET_EDGE_MM = 2.0
"""How far inside the sheet's edges the band stops: the table is not compared."""
MARKER_MARGIN = 0.3
"""Pitches round each marker left out of the band: its sharp black and white squares
change with the slightest error of the pose, and a marker the detector missed was drawn
over in tests of the locator."""
CHANGED = 0.3
"""Least change of a pixel's log colour in a channel, against the band's median change,
counted as changed: a hand's shading and its shadows change more, noise and a shadow's soft
edge less."""
ARM_SHARE = 0.04
"""Least share of the band changed that is a hand."""
QUIET_SHARE = 0.02
"""Most share of the band changed for the sheet round the grid to count as quiet: nothing
coming in. Where it changed more, though less than ``ARM_SHARE``, the reader reads only what
the colours tell (``BoardReader``): fingertips over the sheet's edge, short of the grid
(Blender seed 1601), changed 0.03 of it, and the board was read once the set network told
its one doubtful piece. On thirty-three render sets no hand-free frame changed more than
0.015 but two under a low lamp (0.022 and 0.028)."""
LEAST_SEEN = 0.25
"""Least share of the band seen both at calibration and in the frame for a verdict."""
STILL_SHARE = 0.01
"""Most share of the band changed since the frame before for the view to be still."""
STILL_FRAMES = 10
"""Frames the band must stay still, changed, before the change is taken as the light's:
a lamp switched on, a shadow that fell at once, something set down on the sheet for good."""
FOLLOW_RATE = 0.5
"""Weight of a frame not occluded in the reference, where it did not change: light
darkening by a tenth from one frame to the next lags a tenth behind."""
DARK_FLOOR = 4.0
"""Added to pixel values before their logarithm: dark noise is no change."""


@dataclass(frozen=True, slots=True)
class SurroundMap:
    """Where the band's pixels are in one camera's image."""

    map_x: np.ndarray
    """(k, SUBSAMPLES**2) image x of each subsample of the band's k pixels (float32)."""
    map_y: np.ndarray
    """The same, image y."""
    seen: np.ndarray
    """(k,) the band's pixels inside the image."""


@dataclass(frozen=True, slots=True, eq=False)
class SheetSurround:
    """The band round the grid as the start position showed it."""

    view: np.ndarray
    """(n, n, 3) BGR view of the sheet round the grid (uint8)."""
    seen: np.ndarray
    """(n, n) the view pixels of the band seen then."""

    def __eq__(self, other: object) -> bool:
        return (isinstance(other, SheetSurround) and np.array_equal(self.view, other.view)
                and np.array_equal(self.seen, other.seen))

    def to_json(self) -> str:
        """The view as a PNG (alpha: seen), in base64."""
        alpha = np.where(self.seen, 255, 0).astype(np.uint8)
        ok, png = cv2.imencode(".png", np.dstack([self.view, alpha]))
        assert ok, "PNG encoding of a small uint8 image cannot fail"
        return base64.b64encode(png.tobytes()).decode("ascii")

    @staticmethod
    def from_json(data: object, model: BoardModel) -> SheetSurround:
        """Inverse of :meth:`to_json` for a board of ``model``; raises ValueError on
        malformed data."""
        if not isinstance(data, str):
            raise ValueError("sheet surround is not a string")
        try:
            png = np.frombuffer(base64.b64decode(data, validate=True), np.uint8)
        except ValueError:
            raise ValueError("sheet surround is not base64") from None
        image = cv2.imdecode(png, cv2.IMREAD_UNCHANGED) if png.size else None
        side = view_side(model)
        if image is None or image.shape != (side, side, 4) or image.dtype != np.uint8:
            raise ValueError("sheet surround is not a view of this board's sheet")
        return SheetSurround(np.ascontiguousarray(image[..., :3]), image[..., 3] > 0)


def view_side(model: BoardModel) -> int:
    """Pixels per side of the view: the grid and the band beyond each side."""
    return round((model.size - 1 + 2 * BAND[1]) * PIXELS_PER_PITCH)


def _positions(model: BoardModel, per_pixel: int) -> tuple[np.ndarray, np.ndarray]:
    """Grid coordinates (file, rank index; pitches) of each (sub)pixel's centre, x and y."""
    count = view_side(model) * per_pixel
    along = -BAND[1] + (np.arange(count) + 0.5) / (PIXELS_PER_PITCH * per_pixel)
    files, down = np.meshgrid(along, along)
    return files, (model.size - 1) - down


def surround_map(model: BoardModel, camera: CameraModel) -> SurroundMap:
    """The band's pixels in ``camera``'s image (worked out once per pose)."""
    side, per = view_side(model), SUBSAMPLES
    files, ranks = (grid.reshape(side, per, side, per).transpose(0, 2, 1, 3)[_band(model)]
                    for grid in _positions(model, per))
    sheet = np.column_stack([model.grid_left + files.ravel() * model.pitch,
                             model.grid_top + (model.size - 1 - ranks.ravel()) * model.pitch])
    pixels = camera.project_sheet(sheet).astype(np.float32)
    width, height = camera.image_size
    inside = ((pixels[:, 0] >= 0) & (pixels[:, 0] <= width - 1)
              & (pixels[:, 1] >= 0) & (pixels[:, 1] <= height - 1))
    count = len(files)
    seen = np.asarray(inside.reshape(count, -1).all(axis=1))
    return SurroundMap(pixels[:, 0].reshape(count, -1), pixels[:, 1].reshape(count, -1), seen)


def _band(model: BoardModel) -> np.ndarray:
    """(n, n) the view pixels in the band and on the sheet."""
    files, ranks = _positions(model, 1)
    last = model.size - 1
    beyond = np.maximum(np.maximum(-files, files - last), np.maximum(-ranks, ranks - last))
    x = model.grid_left + files * model.pitch
    y = model.grid_top + (last - ranks) * model.pitch
    edge = SHEET_EDGE_MM
    on_sheet = ((x >= edge) & (x <= model.paper.width - edge)
                & (y >= edge) & (y <= model.paper.height - edge))
    on_marker = np.zeros_like(on_sheet)
    quiet = MARKER_MARGIN * model.pitch
    for corners in model.markers().values():
        (left, top), (right, bottom) = np.min(corners, axis=0), np.max(corners, axis=0)
        on_marker |= ((x >= left - quiet) & (x <= right + quiet)
                      & (y >= top - quiet) & (y <= bottom + quiet))
    result: np.ndarray = (beyond >= BAND[0]) & (beyond <= BAND[1]) & on_sheet & ~on_marker
    return result


def surround_colours(frame: np.ndarray, where: SurroundMap) -> np.ndarray:
    """(k, 3) BGR colours of the band's pixels in ``frame``, each its subsamples' mean."""
    samples = cv2.remap(frame, where.map_x, where.map_y, cv2.INTER_LINEAR,
                        borderMode=cv2.BORDER_REPLICATE)
    # (Each row is one pixel's subsamples: shrunk to one column, their mean.)
    colours: np.ndarray = cv2.resize(samples, (1, len(where.seen)),
                                     interpolation=cv2.INTER_AREA).reshape(-1, 3)
    return colours


def take_surround(frame: np.ndarray, model: BoardModel, camera: CameraModel) -> SheetSurround:
    """The band as ``frame`` (the start position) shows it."""
    where = surround_map(model, camera)
    band = _band(model)
    view = np.zeros((*band.shape, 3), np.uint8)
    view[band] = surround_colours(frame, where)
    seen = np.zeros(band.shape, bool)
    seen[band] = where.seen
    return SheetSurround(view, seen)


def _logs(colours: np.ndarray) -> np.ndarray:
    logs: np.ndarray = np.log(colours.astype(np.float32) + DARK_FLOOR)
    return logs


@dataclass(slots=True)
class SurroundWatch:
    """Compares each frame's band with the start position's, following the light."""

    reference: np.ndarray
    """(k, 3) log colours of the band's pixels as last seen plainly."""
    seen: np.ndarray
    """(k,) the pixels of the reference seen."""
    _last: _Comparison | None = field(default=None, repr=False)
    """The last frame's band, as compared with the reference."""
    _still: int = 0
    """How many frames in a row the band has been still, changed."""

    @staticmethod
    def of(surround: SheetSurround, model: BoardModel) -> SurroundWatch:
        """A watch starting from the start position's band."""
        band = _band(model)
        return SurroundWatch(_logs(surround.view[band]), surround.seen[band])

    def arm_over(self, frame: np.ndarray, where: SurroundMap) -> bool:
        """Whether something came over the band since it was last seen plainly: a hand
        reaching in. A change that stays still for ``STILL_FRAMES`` frames is the light's,
        and is taken into the reference."""
        logs = _logs(surround_colours(frame, where))
        previous = self._last
        self._last = _compared(logs, where.seen, self.reference, self.seen)
        if self._last is None or self._last.share < ARM_SHARE:
            self._still = 0
            return False
        since = None if previous is None else _compared(logs, where.seen, previous.logs,
                                                        previous.seen)
        self._still = self._still + 1 if since is not None and since.share <= STILL_SHARE else 0
        if self._still < STILL_FRAMES:
            return True
        self.reference[where.seen] = logs[where.seen]
        self.seen |= where.seen
        return False

    def quiet(self) -> bool:
        """Whether the last frame compared changed the band by no more than ``QUIET_SHARE``
        (or too little of it was seen to tell)."""
        return self._last is None or self._last.share <= QUIET_SHARE

    def follow(self) -> None:
        """Blend the last frame compared into the reference where it did not change: the
        frame was not occluded, and light changes a little from frame to frame, where a
        hand or a thing set down on the sheet changes it at once."""
        if self._last is None:
            return
        logs, seen = self._last.logs, self._last.seen
        steady = self.seen & seen & ~self._last.changed
        self.reference[steady] += FOLLOW_RATE * (logs[steady] - self.reference[steady])
        # What a moved camera sees now and did not before is the band as it is, in the
        # reference's light.
        new = seen & ~self.seen
        self.reference[new] = logs[new] - self._last.light
        self.seen |= seen


@dataclass(frozen=True, slots=True)
class _Comparison:
    """One frame's band against a reference."""

    logs: np.ndarray
    """(k, 3) the frame's log colours of the band's pixels."""
    seen: np.ndarray
    """(k,) the pixels the frame saw."""
    light: np.ndarray
    """(3,) the light's change: the band's median change of log colour."""
    changed: np.ndarray
    """(k,) the pixels seen in both whose colour changed by more than the light explains
    (``CHANGED``)."""
    share: float
    """The share of the pixels seen in both that changed."""


def _compared(logs: np.ndarray, seen: np.ndarray, reference: np.ndarray,
              reference_seen: np.ndarray) -> _Comparison | None:
    """The frame's band (``logs``, ``seen``) against ``reference``; None when too little of
    the band is seen in both for a verdict."""
    both = seen & reference_seen
    if both.sum() < LEAST_SEEN * max(int(reference_seen.sum()), 1):
        return None
    change = logs[both] - reference[both]
    light: np.ndarray = np.median(change, axis=0)
    changed = np.zeros(len(seen), bool)
    changed[both] = np.abs(change - light).max(axis=1) > CHANGED
    return _Comparison(logs, seen, light, changed, float(changed[both].mean()))
