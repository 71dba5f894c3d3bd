"""Shared fixtures of the vision tests: calibrations learned from clean renders."""

from __future__ import annotations

import pytest

from controller.position import start_position
from vision.calibrate import Calibration, calibrate
from vision.config import VisionConfig
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
