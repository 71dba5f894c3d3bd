"""The camera of the simulator: frames rendered from the virtual board, read by the real vision.

Rendering a frame costs tens of milliseconds, too much for a window that must draw
a frame every 16-33 ms, so the feed can work on a thread of its own: the window
hands it a snapshot of the board and the hand, and later collects the reading and
the annotated view. OpenCV and numpy release the interpreter lock while they work,
so the window keeps its pace. Inline mode does the same work at once (tests).
"""

from __future__ import annotations

import dataclasses
import queue
import threading
import time
from dataclasses import dataclass

import cv2
import numpy as np

from controller.reading import BoardReading
from firmware.simulation import Simulation
from vision.debug import debug_image
from vision.reader import FrameReading


@dataclass(frozen=True, slots=True)
class Snapshot:
    """What the camera is asked to look at."""

    board: BoardReading
    """The pieces on the board."""
    hand: tuple[float, float] | None
    """Grid position of the fingertips, or None when no hand is over the board."""
    index: int
    """Frame number (seeds the frame's noise)."""


@dataclass(frozen=True, slots=True)
class Shot:
    """One frame through the vision."""

    snapshot: Snapshot
    """What was shown to the camera."""
    reading: FrameReading
    """What the vision made of it."""
    view: np.ndarray
    """RGB picture for the panel: the frame scaled up with the vision's findings drawn on."""
    render_seconds: float
    """Time taken to render the frame."""
    read_seconds: float
    """Time taken by the vision."""


class CameraFeed:
    """Renders and reads frames, on a worker thread (``threaded``) or at once."""

    def __init__(self, simulation: Simulation, view_size: tuple[int, int], threaded: bool) -> None:
        self.simulation = simulation
        self.view_size = view_size
        self._requests: queue.Queue[Snapshot | None] = queue.Queue(maxsize=1)
        self._shots: queue.Queue[Shot] = queue.Queue()
        self._busy = False
        self._thread: threading.Thread | None = None
        if threaded:
            self._thread = threading.Thread(target=self._work, name="camera", daemon=True)
            self._thread.start()

    @property
    def is_busy(self) -> bool:
        """Whether a frame is being worked on."""
        return self._busy

    def request(self, snapshot: Snapshot) -> None:
        """Take a frame of ``snapshot`` (call only when not busy)."""
        self._busy = True
        if self._thread is None:
            self._shots.put(self._shoot(snapshot))
        else:
            self._requests.put(snapshot)

    def collect(self) -> Shot | None:
        """The finished frame, if there is one."""
        try:
            shot = self._shots.get_nowait()
        except queue.Empty:
            return None
        self._busy = False
        return shot

    def close(self) -> None:
        """Stop the worker."""
        if self._thread is not None:
            self._requests.put(None)
            self._thread.join(timeout=2.0)
            self._thread = None

    def _work(self) -> None:
        while (snapshot := self._requests.get()) is not None:
            self._shots.put(self._shoot(snapshot))

    def _shoot(self, snapshot: Snapshot) -> Shot:
        simulation = self.simulation
        started = time.perf_counter()
        image = simulation.camera_image(snapshot.board, snapshot.hand, snapshot.index)
        rendered = time.perf_counter()
        reading = simulation.reader.read(image)
        read = time.perf_counter()
        return Shot(snapshot, reading, self._annotate(image, reading), rendered - started,
                    read - rendered)

    def _annotate(self, image: np.ndarray, reading: FrameReading) -> np.ndarray:
        # Scale first and draw after, so that the labels and text stay sharp.
        width, height = self.view_size
        scale = np.diag([width / image.shape[1], height / image.shape[0], 1.0])
        big = cv2.resize(image, (width, height), interpolation=cv2.INTER_LINEAR)
        if reading.homography is not None:
            reading = dataclasses.replace(reading, homography=scale @ reading.homography)
        if reading.image_points is not None:
            reading = dataclasses.replace(
                reading, image_points=reading.image_points * np.diag(scale)[:2])
        reader = self.simulation.reader
        annotated = debug_image(big, reading, reader.calibration.model, reader.config.confident)
        rgb: np.ndarray = cv2.cvtColor(annotated, cv2.COLOR_BGR2RGB)
        return rgb
