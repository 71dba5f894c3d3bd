"""The simulator: the whole board in a window on a PC, through the real pipeline.

A virtual board you move pieces on with the mouse, a camera rendered from it (the
hand included) and read by the real vision, the real referee, and the hardware
layer on gpiozero's mock pins, whose LED chain is read back to light the lamps
drawn on the board. ``run_window`` opens it; pygame is imported only then.
"""

from __future__ import annotations

import os
import sys
from typing import TYPE_CHECKING

from firmware.simulator.options import CameraPreset, SimulatorError, WindowOptions

if TYPE_CHECKING:
    import pygame

    from firmware.web.service import WebService

__all__ = ["CameraPreset", "SimulatorError", "WindowOptions", "is_headless", "run_window"]


def is_headless(exit_after: float | None) -> bool:
    """Whether the window must be drawn off-screen; sets SDL's dummy video driver if so.

    On Linux without ``DISPLAY`` or ``WAYLAND_DISPLAY`` there is nowhere to show a
    window: that is fine for a run that ends by itself (``exit_after``), and an
    error otherwise.
    """
    if os.environ.get("SDL_VIDEODRIVER") in ("dummy", "offscreen"):
        return True
    no_display = sys.platform.startswith("linux") and not (
        os.environ.get("DISPLAY") or os.environ.get("WAYLAND_DISPLAY")
    )
    if not no_display:
        return False
    if exit_after is None:
        raise SimulatorError(
            "no display to open the simulator window on (DISPLAY is not set); "
            "add --exit-after SECONDS (and --screenshot FILE) to run it off-screen"
        )
    os.environ["SDL_VIDEODRIVER"] = "dummy"
    return True


def run_window(options: WindowOptions) -> int:
    """Open the simulator window and run it until closed (or ``options.exit_after``).

    Saves the window to ``options.screenshot`` at the end when given. Returns the
    exit status (0).
    """
    headless = is_headless(options.exit_after)
    os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")
    import pygame

    from firmware.simulator.layout import WINDOW_SIZE
    from firmware.simulator.window import SimulatorWindow, run_loop

    pygame.display.init()
    pygame.font.init()
    try:
        pygame.display.set_caption("Surakarta board simulator")
        screen = pygame.display.set_mode(WINDOW_SIZE)
        window = SimulatorWindow(options, threaded=True, audio=not headless,
                                 web=companion_page(options.web_port))
        try:
            run_loop(window, screen, options.exit_after)
            if options.screenshot is not None:
                save_screenshot(screen, options.screenshot)
        finally:
            window.close()
    finally:
        pygame.quit()
    return 0


def companion_page(port: int | None) -> WebService | None:
    """The companion page on ``port`` of 127.0.0.1 (its token beside the default journal)."""
    if port is None:
        return None
    from firmware.config import load_config
    from firmware.web.service import WebService
    from firmware.web.token import token_path

    return WebService("127.0.0.1", port, token_path(load_config(None).journal))


def save_screenshot(surface: pygame.Surface, path: os.PathLike[str] | str) -> None:
    """Save a pygame surface as PNG; raises SimulatorError naming the file on failure."""
    import pygame

    try:
        pygame.image.save(surface, os.fspath(path))
    except (pygame.error, OSError) as error:
        raise SimulatorError(f"cannot save the screenshot: {os.fspath(path)!r} ({error})") from None
