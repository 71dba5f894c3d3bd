"""The learned point classifier experiment's data: what a network is shown of each point of
real-looking frames, and with which label."""

from __future__ import annotations

import sys
from pathlib import Path

import numpy as np
import pytest

from vision.colour import LABELS, PointLabel

PHOTOREAL = Path(__file__).resolve().parents[2] / "benchmarks" / "photoreal"
sys.path.insert(0, str(PHOTOREAL))

from point_patches import (  # noqa: E402
    PATCH_CHANNELS,
    REFERENCE_CHANNELS,
    BadModel,
    PointClassifier,
    TrainingData,
)
from train_classifier import extract, load  # noqa: E402

SAMPLE = Path(__file__).parent / "data" / "photoreal"
EMPTY, RED, BLACK = (LABELS.index(label) for label in
                     (PointLabel.EMPTY, PointLabel.RED, PointLabel.BLACK))


@pytest.fixture(scope="module")
def sample_points(tmp_path_factory: pytest.TempPathFactory) -> TrainingData:
    out = tmp_path_factory.mktemp("points") / "sample.npz"
    assert extract([SAMPLE], out) == 0
    return load([out])


def test_every_point_of_every_hand_free_frame_is_kept_with_its_true_label(
        sample_points: TrainingData) -> None:
    # Three setups, each a start image and one hand-free frame (the hand frames are left
    # out: the truth under a hand is no patch's label).
    assert len(sample_points.labels) == 3 * 2 * 36
    assert sample_points.patches.shape[1:] == (PATCH_CHANNELS, 24, 24)
    assert sample_points.references.shape[1] == REFERENCE_CHANNELS
    start = sample_points.labels[:36]
    assert np.bincount(start, minlength=3).tolist() == [12, 12, 12]
    assert sorted(set(sample_points.groups.tolist())) == [0, 1, 2]


def test_a_patch_shows_the_paper_on_a_bare_point_and_a_dark_top_on_a_black_piece(
        sample_points: TrainingData) -> None:
    # A fifth of a pitch diagonally off the point: clear of the printed lines on bare paper,
    # still on the top of a piece.
    corner = sample_points.patches[:, :, 7:10, 7:10].astype(np.float64)
    middle = np.median(corner.reshape(len(corner), -1), axis=1)
    bare, black = sample_points.labels == EMPTY, sample_points.labels == BLACK
    # Relative to the paper round the point: bare paper is the paper, a black top far darker.
    assert np.median(np.abs(middle[bare])) < 0.15
    assert np.median(middle[black]) < -0.7


def test_the_references_say_what_the_start_position_showed_of_each_set(
        sample_points: TrainingData) -> None:
    # Bare, red and black over the whole start position, then red and black nearby: in
    # every setup of the sample the black set is the darker, and bare points are paper.
    references = sample_points.references.astype(np.float64)
    brightness = references[:, :9].reshape(-1, 3, 3).mean(axis=2)
    assert (np.abs(brightness[:, EMPTY]) < 0.15).all()
    assert (brightness[:, BLACK] < brightness[:, RED]).all()
    assert (references[:, 12:15].mean(axis=1) < references[:, 9:12].mean(axis=1)).all()


def test_a_file_that_is_no_network_is_refused_in_words(tmp_path: Path) -> None:
    path = tmp_path / "broken.onnx"
    path.write_bytes(b"not a network")
    with pytest.raises(BadModel, match="cannot load the point classifier"):
        PointClassifier(path)
