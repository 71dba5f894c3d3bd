"""Shared fixtures of the vision tests: calibrations learned from clean renders."""

from __future__ import annotations

from collections.abc import Callable
from functools import cache
from pathlib import Path

import cv2
import pytest

from controller.position import start_position
from vision.calibrate import Calibration, calibrate
from vision.config import VisionConfig
from vision.reader import BoardReader, FrameReading
from vision.render import Scene, render


@pytest.fixture(scope="session")
def config() -> VisionConfig:
    return VisionConfig()


@pytest.fixture(scope="session")
def calibration6(config: VisionConfig) -> Calibration:
    return calibrate(config, render(start_position(6), Scene()))


@pytest.fixture(scope="session")
def calibration7(config: VisionConfig) -> Calibration:
    return calibrate(config, render(start_position(7), Scene()))


@pytest.fixture(scope="session")
def room_calibration(config: VisionConfig) -> Callable[[str], Calibration]:
    """The calibration from a room render's start image (a file in ``data/rooms``), learned
    once for every test that reads that room."""
    rooms = Path(__file__).parent / "data" / "rooms"

    @cache
    def calibrated(name: str) -> Calibration:
        return calibrate(config, cv2.imread(str(rooms / name)))

    return calibrated


@pytest.fixture(scope="session")
def room_reading(config: VisionConfig, room_calibration: Callable[[str], Calibration]
                 ) -> Callable[[str], FrameReading]:
    """What a fresh reader, calibrated on a room's start image, reads from one of its frames:
    ``room_reading("name")`` reads ``data/rooms/name-frame.jpg`` with the calibration of
    ``name-start.jpg`` (``tell_sets_by_pattern`` as ``BoardReader``'s)."""
    rooms = Path(__file__).parent / "data" / "rooms"

    def read(name: str, tell_sets_by_pattern: bool = True) -> FrameReading:
        reader = BoardReader(room_calibration(f"{name}-start.jpg"), config,
                             tell_sets_by_pattern)
        return reader.read(cv2.imread(str(rooms / f"{name}-frame.jpg")))

    return read
