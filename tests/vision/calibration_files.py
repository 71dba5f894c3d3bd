"""Checks that what a calibration learned survives its file, and that a corrupt file is
refused in words."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import pytest

from vision.calibrate import Calibration, load_calibration, save_calibration
from vision.errors import BadCalibration


def assert_kept_in_file(calibration: Calibration, tmp_path: Path, corruption: tuple[str, str],
                        **learned: object) -> None:
    """Saving ``calibration`` with the ``learned`` fields loads them back as they were, and
    the file with its first ``corruption[0]`` made ``corruption[1]`` is refused."""
    path = tmp_path / "calibration.json"
    save_calibration(replace(calibration, **learned), path)
    loaded = load_calibration(path)
    for name, value in learned.items():
        assert getattr(loaded, name) == value, name
    old, new = corruption
    text = path.read_text()
    assert old in text
    path.write_text(text.replace(old, new, 1))
    with pytest.raises(BadCalibration, match="corrupt calibration file"):
        load_calibration(path)
