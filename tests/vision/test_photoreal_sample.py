"""The committed sample of photoreal renders is well formed.

The sample (``tests/vision/data/photoreal``) was made by
``benchmarks/photoreal/generate.py``; these tests check its folder format and that
its images are usable, not how well the vision reads them.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from controller.reading import BoardReading
from vision.board_model import marker_ids
from vision.config import VisionConfig
from vision.locate import detect_markers
from vision.sources import load_image

SAMPLE = Path(__file__).parent / "data" / "photoreal"
CONDITIONS = {"ceiling", "window", "low-lamp", "spotlight", "pendant-glossy", "mixed",
              "wide-lens", "fisheye-webcam", "steep-tilt", "look-alike"}
IMAGE_SHAPE = (480, 640, 3)
TRUTHS = sorted(SAMPLE.glob("*/*/truth.json"))


def load_truth(path: Path) -> dict[str, Any]:
    return json.loads(path.read_text(encoding="utf-8"))


def setup_id(path: Path) -> str:
    return f"{path.parent.parent.name}/{path.parent.name}"


def test_the_sample_has_three_setups_of_three_images_each() -> None:
    assert len(TRUTHS) == 3
    for truth_file in TRUTHS:
        assert len(list(truth_file.parent.glob("*.jpg"))) == 3


def test_the_sample_stays_small() -> None:
    total = sum(path.stat().st_size for path in SAMPLE.rglob("*") if path.is_file())
    assert total < 1_000_000


@pytest.mark.parametrize("truth_file", TRUTHS, ids=setup_id)
def test_truth_follows_the_folder_format(truth_file: Path) -> None:
    truth = load_truth(truth_file)
    assert truth["format"] == "surakarta-renders"
    assert truth["version"] == 1
    assert truth["condition"] == truth_file.parent.parent.name
    assert truth["condition"] in CONDITIONS
    assert truth["size"] in (6, 7)
    assert truth["look_alike"] is (truth["condition"] == "look-alike")
    assert isinstance(truth["scene"], dict)
    assert truth["frames"], "a setup without frames"
    for frame in truth["frames"]:
        assert set(frame) == {"file", "board", "hand"}
        assert isinstance(frame["hand"], bool)


@pytest.mark.parametrize("truth_file", TRUTHS, ids=setup_id)
def test_every_listed_image_loads_at_640x480(truth_file: Path) -> None:
    truth = load_truth(truth_file)
    files = [truth["start"]] + [frame["file"] for frame in truth["frames"]]
    for name in files:
        assert load_image(truth_file.parent / name).shape == IMAGE_SHAPE


@pytest.mark.parametrize("truth_file", TRUTHS, ids=setup_id)
def test_boards_parse_at_the_size_of_the_setup(truth_file: Path) -> None:
    truth = load_truth(truth_file)
    for frame in truth["frames"]:
        reading = BoardReading.parse(frame["board"])
        assert reading.size == truth["size"]
        assert reading.board_string() == frame["board"]


def test_the_sample_has_hand_free_and_hand_frames() -> None:
    kinds = {frame["hand"] for path in TRUTHS for frame in load_truth(path)["frames"]}
    assert kinds == {False, True}


UNDISTORTED = [path for path in TRUTHS if load_truth(path)["scene"]["camera"]["k1"] == 0]


def test_the_sample_has_undistorted_and_distorted_setups() -> None:
    assert 0 < len(UNDISTORTED) < len(TRUTHS)


@pytest.mark.parametrize("truth_file", UNDISTORTED, ids=setup_id)
def test_all_four_markers_are_found_in_undistorted_start_images(truth_file: Path) -> None:
    truth = load_truth(truth_file)
    image = load_image(truth_file.parent / truth["start"])
    found = detect_markers(VisionConfig(), image)
    assert set(marker_ids(truth["size"])) <= set(found)
