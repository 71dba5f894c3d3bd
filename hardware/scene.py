"""The LED scene the referee drives, and the loop that refreshes the lamps from it.

The scene is a set of named layers (``"path"``, ``"hint"``, ``"error"`` ...),
each showing one effect; layers are drawn in order of priority, then of when
they were shown. The refresher asks the scene for the frame of the moment at a
fixed rate and writes it to the driver.
"""

from __future__ import annotations

import dataclasses
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass

from hardware.chain import Frame
from hardware.drivers import LampDriver
from hardware.effects import Effect, frame_at

Clock = Callable[[], float]
"""A monotonic clock in seconds (``time.monotonic`` unless a test injects one)."""

DEFAULT_REFRESH_HZ = 50.0
"""Frames per second: smooth chases and pulses, little CPU on a Pi."""


@dataclass(frozen=True)
class _Layer:
    effect: Effect
    """The effect shown, its start stamped with the clock when shown."""
    priority: int
    """Higher layers are drawn over lower ones."""
    order: int
    """When it was shown; breaks ties in priority, later on top."""


class LedScene:
    """Named effect layers over the lamps; safe to use from any thread."""

    def __init__(self, *, clock: Clock = time.monotonic) -> None:
        self._clock = clock
        self._layers: dict[str, _Layer] = {}
        self._shown = 0
        self._lock = threading.Lock()

    @property
    def clock(self) -> Clock:
        """The clock that stamps effect start times."""
        return self._clock

    def show(self, name: str, effect: Effect, *, priority: int = 0) -> None:
        """Show ``effect`` on layer ``name``, replacing what that layer showed.

        The effect starts now: its ``start`` is set to the scene's clock.
        """
        started = dataclasses.replace(effect, start=self._clock())  # type: ignore[type-var]
        with self._lock:
            self._shown += 1
            self._layers[name] = _Layer(started, priority, self._shown)

    def clear(self, name: str) -> None:
        """Remove layer ``name``; nothing happens if it is not shown."""
        with self._lock:
            self._layers.pop(name, None)

    def clear_all(self) -> None:
        """Remove every layer: all lamps dark."""
        with self._lock:
            self._layers.clear()

    @property
    def layer_names(self) -> tuple[str, ...]:
        """The layers shown, bottom first."""
        with self._lock:
            return tuple(name for name, _ in self._sorted())

    def effects(self) -> list[tuple[str, Effect]]:
        """Each layer's name and effect, bottom first."""
        with self._lock:
            return [(name, layer.effect) for name, layer in self._sorted()]

    def _sorted(self) -> list[tuple[str, _Layer]]:
        return sorted(self._layers.items(), key=lambda item: (item[1].priority, item[1].order))

    def owners(self) -> dict[str, str]:
        """The layer that decides each of its lamps (the top one that shows it), by lamp."""
        with self._lock:
            layers = self._sorted()
        return {lamp: name for name, layer in layers for lamp in layer.effect.lamps}

    def frame_at(self, t: float, *, dimmable: bool = True) -> Frame:
        """The lamps lit at clock time ``t``."""
        with self._lock:
            effects = [layer.effect for _, layer in self._sorted()]
        return frame_at(effects, t, dimmable=dimmable)

    def frame(self, *, dimmable: bool = True) -> Frame:
        """The lamps lit now."""
        return self.frame_at(self._clock(), dimmable=dimmable)


class LampRefresher:
    """Writes the scene to a driver at a fixed rate on a background thread.

    ``start`` and ``stop`` may be called from any thread; ``stop`` waits for the
    thread and leaves every lamp dark. It is also a context manager. Frames are
    computed at the times of ``clock`` (by default the scene's clock).
    """

    def __init__(
        self,
        scene: LedScene,
        driver: LampDriver,
        *,
        rate_hz: float = DEFAULT_REFRESH_HZ,
        clock: Clock | None = None,
    ) -> None:
        if rate_hz <= 0:
            raise ValueError(f"invalid refresh rate: {rate_hz!r} (expected more than 0 Hz)")
        self.scene = scene
        self.driver = driver
        self.interval = 1.0 / rate_hz
        self._clock = scene.clock if clock is None else clock
        self._stopping = threading.Event()
        self._thread: threading.Thread | None = None
        self._guard = threading.Lock()

    @property
    def is_running(self) -> bool:
        """Whether the refresh thread is alive."""
        return self._thread is not None and self._thread.is_alive()

    def refresh(self) -> None:
        """Write the frame of the clock's current time once."""
        frame = self.scene.frame_at(self._clock(), dimmable=self.driver.is_dimmable)
        # Colour lamps light each layer in its own colour (hardware.lamp_colours).
        coloured = getattr(self.driver, "write_coloured", None)
        if coloured is not None:
            coloured(frame, self.scene.owners())
        else:
            self.driver.write(frame)

    def _run(self) -> None:
        next_tick = time.monotonic()
        while not self._stopping.is_set():
            self.refresh()
            # Aim at fixed ticks so a slow frame does not slow the rate down for good.
            next_tick += self.interval
            delay = next_tick - time.monotonic()
            if delay < 0:
                next_tick = time.monotonic()
                delay = 0
            self._stopping.wait(delay)

    def start(self) -> None:
        """Start refreshing; does nothing if already running."""
        with self._guard:
            if self.is_running:
                return
            self._stopping.clear()
            self._thread = threading.Thread(target=self._run, name="lamp-refresher", daemon=True)
            self._thread.start()

    def stop(self) -> None:
        """Stop refreshing and turn every lamp off."""
        with self._guard:
            self._stopping.set()
            if self._thread is not None:
                self._thread.join()
                self._thread = None
            self.driver.write({})

    def __enter__(self) -> LampRefresher:
        self.start()
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.stop()
