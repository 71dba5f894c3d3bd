"""The colour model: glare on glossy tops and cooler light in shadows are light, not labels."""

from __future__ import annotations

import numpy as np

from vision.colour import LABELS, ColourModel, PointLabel, classify, learn_colours
from vision.config import VisionConfig

EMPTY, RED, BLACK = (LABELS.index(label) for label in
                     (PointLabel.EMPTY, PointLabel.RED, PointLabel.BLACK))
# Paper-relative log colours (blue, green, red) and cross of a start position: glossy
# dark-red and black plastic under a pendant lamp, as calibrated.
PAPER = (0.0, 0.0, 0.0, 0.9)
DARK_RED = (-1.3, -1.25, -0.28, 0.0)
BLACK_TOP = (-0.71, -0.6, -0.59, 0.0)


def model(config: VisionConfig) -> ColourModel:
    rng = np.random.default_rng(1)
    means = {EMPTY: PAPER, RED: DARK_RED, BLACK: BLACK_TOP}
    labels = np.array([RED] * 12 + [EMPTY] * 12 + [BLACK] * 12)
    features = np.stack([np.tile(means[label], (3, 1)) for label in labels])
    features = features + rng.normal(0, 0.03, features.shape)
    return learn_colours(config, features, labels)


def features_of(colour: tuple[float, float, float], cross: float) -> np.ndarray:
    return np.tile([*colour, cross], (1, 3, 1)).astype(np.float64)


def with_glare(colour: tuple[float, ...], glare: float) -> tuple[float, float, float]:
    linear = np.exp(np.array(colour[:3])) + glare
    blue, green, red = np.log(linear)
    return float(blue), float(green), float(red)


def test_a_glossy_top_mirroring_the_lamp_keeps_its_label() -> None:
    config = VisionConfig()
    colours = model(config)
    # Right under the lamp a dark-red top turns pink, as bright as the black ones (which
    # mirror the lamp too): still red.
    result = classify(config, colours, features_of(with_glare(DARK_RED, 0.25), 0.0))
    assert result.labels[0] == RED
    assert result.confidences[0] >= config.confident


def test_a_glossy_top_out_of_the_glare_it_had_at_calibration_keeps_its_label() -> None:
    config = VisionConfig()
    colours = model(config)
    # Every black top of the start position caught the lamp (BLACK_TOP is black with 0.35
    # of glare): one set down away from the lamp shows its own, far darker black.
    plain_black = with_glare(BLACK_TOP, -0.35)
    result = classify(config, colours, features_of(plain_black, 0.0))
    assert result.labels[0] == BLACK
    assert result.confidences[0] >= config.confident
    # Dark red out of the glare is darker red, never black.
    result = classify(config, colours, features_of(with_glare(DARK_RED, -0.15), 0.0))
    assert result.labels[0] == RED


def test_a_bare_point_in_a_shadow_lit_by_the_sky_is_bare() -> None:
    config = VisionConfig()
    colours = model(config)
    # Darker by half, and bluer: the warm lamp is blocked, only daylight reaches it.
    shadow = (-0.24, -0.51, -0.71)
    result = classify(config, colours, features_of(shadow, 1.0))
    assert result.labels[0] == EMPTY
    assert result.confidences[0] >= config.confident
    # The same change towards warm is not light but something else (skin): not trusted.
    warm = (-0.71, -0.51, -0.24)
    assert classify(config, colours, features_of(warm, 1.0)).confidences[0] < config.confident


def pale_model(config: VisionConfig, bare_cross: float) -> ColourModel:
    """White pieces on white paper, black ones: the bare points showed ``bare_cross``."""
    rng = np.random.default_rng(2)
    means = {EMPTY: (0.0, 0.0, 0.0, bare_cross), RED: (-0.03, -0.03, -0.03, 0.0),
             BLACK: (-1.9, -1.9, -1.9, 0.0)}
    labels = np.array([RED] * 12 + [EMPTY] * 12 + [BLACK] * 12)
    features = np.stack([np.tile(means[label], (3, 1)) for label in labels])
    features = features + rng.normal(0, 0.01, features.shape)
    return learn_colours(config, features, labels)


def frame_of(colour: tuple[float, float, float], crosses: list[float]) -> np.ndarray:
    return np.concatenate([features_of(colour, cross) for cross in crosses])


def test_white_tops_on_faint_lines_are_told_from_bare_paper_with_confidence() -> None:
    # A board a third of the image: its lines show at half contrast (0.5).
    config = VisionConfig()
    colours = pale_model(config, 0.5)
    result = classify(config, colours, frame_of((-0.03, -0.03, -0.03), [0.5, 0.5, 0.5, 0.0]))
    assert result.labels.tolist() == [EMPTY, EMPTY, EMPTY, RED]
    assert (result.confidences >= config.confident).all()


def test_lines_seen_more_plainly_than_at_calibration_are_bare_paper() -> None:
    # The start image's spotlight burnt the lines white (0.05); out of its glare they show
    # plainly: no less bare paper for that.
    config = VisionConfig()
    rng = np.random.default_rng(3)
    means = {EMPTY: (0.0, 0.0, 0.0, 0.05), RED: DARK_RED, BLACK: BLACK_TOP}
    labels = np.array([RED] * 12 + [EMPTY] * 12 + [BLACK] * 12)
    features = np.stack([np.tile(means[label], (3, 1)) for label in labels])
    colours = learn_colours(config, features + rng.normal(0, 0.01, features.shape), labels)
    result = classify(config, colours, frame_of((0.0, 0.0, 0.0), [1.0, 1.0, 1.0]))
    assert result.labels.tolist() == [EMPTY] * 3
    assert (result.confidences >= config.confident).all()
