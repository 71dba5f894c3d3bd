"""Reading a frame as a camera that keeps seeing it does."""

from __future__ import annotations

import numpy as np

from vision.reader import BoardReader, FrameReading
from vision.surround import STILL_FRAMES


def read_when_still(reader: BoardReader, image: np.ndarray) -> FrameReading:
    """What ``reader`` reads of ``image`` once it has seen it still for as long as a light
    that changed at once round the grid takes to be told from an arm (``vision.surround``)."""
    for _ in range(STILL_FRAMES):
        reader.read(image)
    return reader.read(image)
