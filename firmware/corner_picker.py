"""Click the four grid corners of a board without markers, in a pygame window.

A commercial board carries no markers, so calibration needs the image positions of
its four corner points (a1, bottom-right, top-right, top-left). This window shows the
start image, asks for each corner in turn in a status line, draws the clicks, and
once all four are in, the whole grid they imply, so a bad click shows as lines that
miss the board's lines before anything is stored.

Decisions:
- The logic (clicks to corners, window-to-image scale, undo, prompts, the grid
  preview) lives in :class:`CornerClicks`, which knows nothing of pygame; the window
  only turns events into its calls and paints it. Tests drive the real loop by
  posting pygame events under SDL's dummy video driver.
- The image is scaled to fit the window both ways: enlarging a small camera frame
  makes one screen pixel finer than one image pixel, so clicks land more precisely.
  A pixel centre maps to a pixel centre (OpenCV puts pixel ``i``'s centre at ``i``).
- The four clicks are checked as ``surakarta calibrate`` checks corners
  (:func:`vision.calibrate.homography_from_corners`): a convex outline with some area,
  going round the board's way. Corners clicked out of order (an outline that crosses
  itself, or runs the other way round) are refused in the window, where a click can
  be undone, and not after it has closed.
- A loupe near the pointer shows the original pixels enlarged, because the centre of
  a corner point is hard to hit on a scaled-down frame.
- OpenCV's windows are missing from the headless build, and pygame is a dependency
  anyway; pygame is imported only when the window opens.
"""

from __future__ import annotations

import os
import sys
from dataclasses import dataclass, field
from enum import Enum
from typing import TYPE_CHECKING

import cv2
import numpy as np

from controller.errors import SurakartaError
from controller.geometry import point_at, point_name
from vision.calibrate import homography_from_corners
from vision.errors import CalibrationFailed

if TYPE_CHECKING:
    import pygame

WindowPoint = tuple[float, float]
"""A position in the window, pixels."""
ImagePoint = tuple[float, float]
"""A position in the original image, pixels."""

MAX_WINDOW = (1200, 800)
"""Largest window, pixels (the status line included)."""
STATUS_HEIGHT = 30
"""Height of the status line under the image, pixels."""
DESKTOP_SHARE = 0.9
"""Share of the desktop the window may take, so it fits small screens (a Pi display)."""
LOUPE_PIXELS = 25
"""Width of the original-image region the loupe shows, pixels."""
LOUPE_ZOOM = 6
"""Enlargement of the loupe."""

CORNER_PLACES = ("bottom-left", "bottom-right", "top-right", "top-left")
"""Where each corner is on the board, in the order they are clicked."""


class NoDisplay(SurakartaError, OSError):
    """There is no screen to open the corner window on."""


class CalibrationCancelled(SurakartaError, RuntimeError):
    """The corner window was closed (or Escape pressed) before the corners were accepted."""


class PickState(Enum):
    """Where the picking stands."""

    PICKING = "picking"
    ACCEPTED = "accepted"
    CANCELLED = "cancelled"


def corner_names(size: int) -> tuple[str, str, str, str]:
    """Names of the grid's corner points in click order: a1, then anticlockwise."""
    last = size - 1
    return (point_name(point_at(0, 0)), point_name(point_at(last, 0)),
            point_name(point_at(last, last)), point_name(point_at(0, last)))


def fit_scale(image_size: tuple[int, int], max_window: tuple[int, int]) -> float:
    """The scale that fits an image (width, height) above the status line in ``max_window``."""
    width, height = image_size
    room_width, room_height = max_window[0], max_window[1] - STATUS_HEIGHT
    if width <= 0 or height <= 0 or room_width <= 0 or room_height <= 0:
        raise ValueError(f"cannot fit an image of {image_size!r} in a window of {max_window!r}")
    return min(room_width / width, room_height / height)


def window_size(image_size: tuple[int, int], scale: float) -> tuple[int, int]:
    """Window (width, height) for an image shown at ``scale``, status line included."""
    return (max(1, round(image_size[0] * scale)),
            max(1, round(image_size[1] * scale)) + STATUS_HEIGHT)


def to_image(position: WindowPoint, scale: float) -> ImagePoint:
    """A window position as original image pixels (pixel centres map to pixel centres)."""
    return ((position[0] + 0.5) / scale - 0.5, (position[1] + 0.5) / scale - 0.5)


def to_window(position: ImagePoint, scale: float) -> WindowPoint:
    """An original image position as window pixels; the inverse of :func:`to_image`."""
    return ((position[0] + 0.5) * scale - 0.5, (position[1] + 0.5) * scale - 0.5)


@dataclass
class CornerClicks:
    """The clicks made so far and what they mean; no pygame in here."""

    size: int
    """Lines per side of the board (6 or 7), for the point names in the prompts."""
    scale: float
    """Window pixels per image pixel."""
    clicks: list[WindowPoint] = field(default_factory=list)
    """Clicked window positions, in corner order."""
    state: PickState = PickState.PICKING
    """Whether the user is still clicking, has accepted, or has cancelled."""

    @property
    def is_complete(self) -> bool:
        """Whether all four corners are clicked."""
        return len(self.clicks) == 4

    @property
    def is_usable(self) -> bool:
        """Whether the four clicks outline a board as calibration takes it."""
        return self.is_complete and _outline_a_board(self.size, self.corners())

    @property
    def is_mirrored(self) -> bool:
        """Whether the four clicks outline a board seen in a mirror: in the order asked
        for, but going round the other way, as a camera that mirrors its picture shows it."""
        corners = self.corners()
        return (self.is_complete and not self.is_usable
                and _outline_a_board(self.size, [corners[i] for i in (1, 0, 3, 2)]))

    @property
    def prompt(self) -> str:
        """The status line: what to do next."""
        if self.is_mirrored:
            return ("the corners go round the wrong way: does the camera mirror its picture? "
                    "Backspace to undo")
        if self.is_complete and not self.is_usable:
            return ("the corners are out of order (a1, bottom-right, top-right, top-left): "
                    "Backspace to undo")
        if self.is_complete:
            return "Enter or click to accept the grid; Backspace: undo, Esc: cancel"
        index = len(self.clicks)
        name = corner_names(self.size)[index]
        return (f"{index + 1}/4: click the centre of point {name} ({CORNER_PLACES[index]}); "
                "Backspace: undo, Esc: cancel")

    def click(self, position: WindowPoint) -> None:
        """A click in the image: the next corner, or, once all four are in, acceptance."""
        if self.state is not PickState.PICKING:
            return
        if self.is_complete:
            self.accept()
        else:
            self.clicks.append((float(position[0]), float(position[1])))

    def undo(self) -> None:
        """Forget the last click."""
        if self.state is PickState.PICKING and self.clicks:
            self.clicks.pop()

    def accept(self) -> bool:
        """Accept the corners if they outline a board; whether they did."""
        if self.state is PickState.PICKING and self.is_usable:
            self.state = PickState.ACCEPTED
        return self.state is PickState.ACCEPTED

    def cancel(self) -> None:
        """Give up without corners."""
        if self.state is PickState.PICKING:
            self.state = PickState.CANCELLED

    def corners(self) -> list[ImagePoint]:
        """The clicked corners in original image pixels, in order a1, bottom-right, ..."""
        return [to_image(click, self.scale) for click in self.clicks]

    def labels(self) -> list[tuple[str, WindowPoint]]:
        """Each click with the name of its point, for drawing."""
        return list(zip(corner_names(self.size), self.clicks, strict=False))

    def grid_lines(self) -> list[tuple[WindowPoint, WindowPoint]]:
        """The board's grid lines as the four clicks place them (window pixels); the outline
        of the clicks so far while incomplete, nothing when they outline no board."""
        if not self.is_complete:
            return list(zip(self.clicks, self.clicks[1:], strict=False))
        if not self.is_usable:
            return [(self.clicks[i], self.clicks[(i + 1) % 4]) for i in range(4)]
        unit = np.array([(0, 0), (1, 0), (1, 1), (0, 1)], np.float32)
        matrix = cv2.getPerspectiveTransform(unit, np.array(self.clicks, np.float32))
        steps = [i / (self.size - 1) for i in range(self.size)]
        ends = [((t, 0.0), (t, 1.0)) for t in steps] + [((0.0, t), (1.0, t)) for t in steps]
        projected = cv2.perspectiveTransform(
            np.array(ends, np.float64).reshape(-1, 1, 2), matrix.astype(np.float64)
        ).reshape(-1, 2, 2)
        return [((float(a[0]), float(a[1])), (float(b[0]), float(b[1]))) for a, b in projected]


def _outline_a_board(size: int, corners: list[ImagePoint]) -> bool:
    try:
        homography_from_corners(size, corners)
    except CalibrationFailed:
        return False
    return True


# ------------------------------------------------------------------ the window


def require_display() -> None:
    """Raise NoDisplay when there is plainly no screen (Linux without X or Wayland).

    An explicit ``SDL_VIDEODRIVER`` is trusted: a Pi console uses ``kmsdrm``, and tests
    use ``dummy`` with events they post themselves.
    """
    if os.environ.get("SDL_VIDEODRIVER"):
        return
    if sys.platform.startswith("linux") and not (
        os.environ.get("DISPLAY") or os.environ.get("WAYLAND_DISPLAY")
    ):
        raise NoDisplay(
            "no display to click the corners on (DISPLAY is not set); "
            "give them with --corners x1,y1,x2,y2,x3,y3,x4,y4 instead"
        )


def pick_corners(
    image: np.ndarray, size: int = 6, max_window: tuple[int, int] | None = None
) -> list[ImagePoint]:
    """Show a BGR image and return the four clicked corners in its pixels.

    The order is a1, bottom-right, top-right, top-left. ``max_window`` bounds the window
    (default: :data:`MAX_WINDOW`, and at most most of the desktop). Raises NoDisplay when
    there is no screen and CalibrationCancelled on Escape or a closed window.
    """
    if not isinstance(image, np.ndarray) or image.ndim != 3 or image.shape[2] != 3:
        shape = getattr(image, "shape", None)
        raise ValueError(f"expected a BGR colour image, got an array of shape {shape!r}")
    require_display()
    os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")
    import pygame

    try:
        pygame.display.init()
        pygame.font.init()
        image_size = (image.shape[1], image.shape[0])
        bounds = max_window or window_bounds()
        clicks = CornerClicks(size, fit_scale(image_size, bounds))
        pygame.display.set_caption("Surakarta calibration: click the four corners")
        screen = pygame.display.set_mode(window_size(image_size, clicks.scale))
        run_picker(screen, image, clicks)
    except pygame.error as error:
        raise NoDisplay(f"cannot open the corner window ({error}); "
                        "give the corners with --corners instead") from None
    finally:
        pygame.quit()
    if clicks.state is not PickState.ACCEPTED:
        raise CalibrationCancelled("calibration cancelled")
    return clicks.corners()


def window_bounds() -> tuple[int, int]:
    """The largest corner window for this screen; needs pygame's display initialised."""
    import pygame

    desktops = pygame.display.get_desktop_sizes()
    if not desktops:
        return MAX_WINDOW
    width, height = desktops[0]
    return (min(MAX_WINDOW[0], int(width * DESKTOP_SHARE)),
            min(MAX_WINDOW[1], int(height * DESKTOP_SHARE)))


def run_picker(screen: pygame.Surface, image: np.ndarray, clicks: CornerClicks) -> None:
    """Paint and take events until the corners are accepted or the picking cancelled."""
    import pygame

    original = _surface_of(image)
    shown = pygame.transform.smoothscale(original, (screen.get_width(),
                                                    screen.get_height() - STATUS_HEIGHT))
    font = pygame.font.Font(None, 22)
    pointer: tuple[int, int] | None = None
    while clicks.state is PickState.PICKING:
        _draw(screen, shown, original, clicks, font, pointer)
        pygame.display.flip()
        for event in [pygame.event.wait(), *pygame.event.get()]:
            if event.type == pygame.MOUSEMOTION:
                pointer = event.pos
            handle_event(clicks, event, shown.get_size())


def handle_event(clicks: CornerClicks, event: pygame.event.Event,
                 image_area: tuple[int, int]) -> None:
    """Apply one pygame event: left click picks, right click or Backspace undoes, Enter
    accepts, Escape or closing the window cancels. Clicks on the status line are ignored."""
    import pygame

    if event.type == pygame.QUIT:
        clicks.cancel()
    elif event.type == pygame.KEYDOWN:
        if event.key == pygame.K_ESCAPE:
            clicks.cancel()
        elif event.key == pygame.K_BACKSPACE:
            clicks.undo()
        elif event.key in (pygame.K_RETURN, pygame.K_KP_ENTER):
            clicks.accept()
    elif event.type == pygame.MOUSEBUTTONDOWN:
        x, y = event.pos
        if not (0 <= x < image_area[0] and 0 <= y < image_area[1]):
            return
        if event.button == 1:
            clicks.click((x, y))
        elif event.button == 3:
            clicks.undo()


def _surface_of(image: np.ndarray) -> pygame.Surface:
    import pygame

    rgb = np.ascontiguousarray(image[:, :, ::-1])
    return pygame.image.frombuffer(rgb.tobytes(), (image.shape[1], image.shape[0]), "RGB")


CLICK_COLOUR = (255, 40, 200)
GRID_COLOUR = (0, 230, 255)
STATUS_BACKGROUND = (25, 25, 25)
STATUS_TEXT = (240, 240, 240)


def _draw(screen: pygame.Surface, shown: pygame.Surface, original: pygame.Surface,
          clicks: CornerClicks, font: pygame.font.Font, pointer: tuple[int, int] | None) -> None:
    import pygame

    screen.blit(shown, (0, 0))
    for start, end in clicks.grid_lines():
        pygame.draw.line(screen, GRID_COLOUR, start, end, 1)
    for name, (x, y) in clicks.labels():
        centre = (round(x), round(y))
        pygame.draw.circle(screen, CLICK_COLOUR, centre, 6, 2)
        _draw_cross(screen, centre, 3)
        screen.blit(font.render(name, True, CLICK_COLOUR), (centre[0] + 8, centre[1] - 18))
    if pointer is not None and pointer[1] < shown.get_height():
        _draw_loupe(screen, original, clicks.scale, pointer, shown.get_size())
    status = pygame.Rect(0, shown.get_height(), screen.get_width(), STATUS_HEIGHT)
    screen.fill(STATUS_BACKGROUND, status)
    text = font.render(clicks.prompt, True, STATUS_TEXT)
    screen.blit(text, (8, status.centery - text.get_height() // 2))


def _draw_loupe(screen: pygame.Surface, original: pygame.Surface, scale: float,
                pointer: tuple[int, int], area: tuple[int, int]) -> None:
    import pygame

    # The loupe sits in the image corner away from the pointer so it never hides the target.
    side = LOUPE_PIXELS * LOUPE_ZOOM
    x, y = to_image(pointer, scale)
    region = pygame.Surface((LOUPE_PIXELS, LOUPE_PIXELS))
    region.fill((0, 0, 0))
    half = LOUPE_PIXELS // 2
    left_edge, top_edge = round(x) - half, round(y) - half
    wanted = pygame.Rect(left_edge, top_edge, LOUPE_PIXELS, LOUPE_PIXELS)
    # Near the image border part of the region is outside: keep the rest where it belongs.
    region.blit(original, (max(0, -left_edge), max(0, -top_edge)),
                wanted.clip(original.get_rect()))
    left = 8 if pointer[0] > area[0] // 2 else area[0] - side - 8
    top = 8 if pointer[1] > area[1] // 2 else area[1] - side - 8
    screen.blit(pygame.transform.scale(region, (side, side)), (left, top))
    centre = (left + half * LOUPE_ZOOM + LOUPE_ZOOM // 2, top + half * LOUPE_ZOOM + LOUPE_ZOOM // 2)
    pygame.draw.rect(screen, STATUS_TEXT, (left - 1, top - 1, side + 2, side + 2), 1)
    _draw_cross(screen, centre, 8)


def _draw_cross(screen: pygame.Surface, centre: tuple[int, int], arm: int) -> None:
    import pygame

    x, y = centre
    pygame.draw.line(screen, CLICK_COLOUR, (x - arm, y), (x + arm, y))
    pygame.draw.line(screen, CLICK_COLOUR, (x, y - arm), (x, y + arm))
