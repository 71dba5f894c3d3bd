"""Reading rendered camera images: every point right on clean views, hands never a board."""

from __future__ import annotations

import numpy as np
import pytest

from controller.position import Position, parse_position, start_position
from controller.reading import BoardReading
from tests.vision.still import read_when_still
from vision.board_model import board_model
from vision.calibrate import Calibration, calibrate
from vision.config import VisionConfig
from vision.reader import BoardReader, ReadStatus
from vision.render import Lighting, Pose, RenderOptions, Scene, Shadow, random_scene, render

POSITIONS_6 = [
    "bbbbbb/bbbbbb/6/6/rrrrrr/rrrrrr r",
    "b4b/1r4/2b1r1/3r2/r1b3/5r b",
    "6/6/2rb2/2br2/6/6 r",
    "rbrbrb/brbrbr/rbrbrb/brbrbr/rbrbrb/brbrbr r",
]
POSITIONS_7 = [
    "bbbbbbb/bbbbbbb/7/7/7/rrrrrrr/rrrrrrr r",
    "r5b/7/2b4/3r3/4b2/7/b5r r",
]
POSES = [
    Pose(),
    Pose(tilt_degrees=30, tilt_direction_degrees=60, rotation_degrees=15, fill=0.8),
    Pose(tilt_degrees=20, tilt_direction_degrees=200, rotation_degrees=180, fill=0.9),
    Pose(tilt_degrees=35, tilt_direction_degrees=300, rotation_degrees=-70, fill=0.85),
]


def read(calibration: Calibration, image: np.ndarray) -> BoardReading | None:
    return BoardReader(calibration).read(image).reading


@pytest.mark.slow
@pytest.mark.parametrize("text", POSITIONS_6)
@pytest.mark.parametrize("pose", POSES)
def test_every_point_right_on_clean_views_6x6(
    calibration6: Calibration, text: str, pose: Pose
) -> None:
    position = parse_position(text)
    image = render(position, Scene(pose=pose, seed=len(text)))
    assert read(calibration6, image) == BoardReading.of(position)


@pytest.mark.slow
@pytest.mark.parametrize("text", POSITIONS_7)
@pytest.mark.parametrize("pose", POSES[:3])
def test_every_point_right_on_clean_views_7x7(
    calibration7: Calibration, text: str, pose: Pose
) -> None:
    position = parse_position(text)
    image = render(position, Scene(pose=pose, seed=3))
    assert read(calibration7, image) == BoardReading.of(position)


def test_reads_through_coloured_uneven_light_and_a_shadow(calibration6: Calibration) -> None:
    shadow = Shadow(((0.4, -0.5), (0.7, 0.6), (1.5, 0.6), (1.5, -0.5)), 0.55, 0.04)
    light = Lighting(brightness=0.6, tint=(0.7, 0.85, 1.0), gradient=0.5, shadows=(shadow,))
    position = parse_position(POSITIONS_6[1])
    scene = Scene(pose=POSES[1], lighting=light, noise=5, blur=1.0, jpeg_quality=70)
    assert read(calibration6, render(position, scene)) == BoardReading.of(position)


@pytest.mark.slow
@pytest.mark.parametrize("size", [6, 7])
def test_a_hand_over_the_board_never_gives_a_board(config: VisionConfig, size: int,
                                                   request: pytest.FixtureRequest) -> None:
    calibration: Calibration = request.getfixturevalue(f"calibration{size}")
    rng = np.random.default_rng(size)
    for _ in range(12):
        scene = random_scene(rng, RenderOptions.preset("hand"), size=size)
        frame = BoardReader(calibration, config).read(render(start_position(size), scene))
        assert frame.reading is None
        assert frame.status in (ReadStatus.OCCLUDED, ReadStatus.NO_BOARD)


@pytest.mark.slow
def test_any_two_distinguishable_piece_colours(config: VisionConfig) -> None:
    blue, yellow = (170.0, 90.0, 30.0), (40.0, 200.0, 230.0)
    scene = Scene(piece_colours=(blue, yellow))
    calibration = calibrate(config, render(start_position(), scene))
    position = parse_position(POSITIONS_6[2])
    image = render(position, Scene(piece_colours=(blue, yellow), pose=POSES[1], seed=9))
    assert read(calibration, image) == BoardReading.of(position)


@pytest.mark.slow
def test_board_without_markers_is_read_from_its_corners(config: VisionConfig) -> None:
    from vision.render import point_pixels

    scene = Scene(pose=POSES[1])
    pixels = point_pixels(6, scene)
    corners = [pixels[p] for p in board_model(6).corner_points()]
    calibration = calibrate(config, render(start_position(), scene), corners=corners)
    assert not calibration.uses_markers
    position = parse_position(POSITIONS_6[1])
    # Markers play no part: hide them all behind table-coloured patches.
    image = render(position, scene).copy()
    marker_free = BoardReader(calibration, config)
    for corners_mm in board_model(6).markers().values():
        from vision.render import camera_homography, project_points

        box = project_points(camera_homography(board_model(6), scene), np.array(corners_mm))
        x0, y0 = np.floor(box.min(axis=0)).astype(int)
        x1, y1 = np.ceil(box.max(axis=0)).astype(int)
        image[max(y0, 0):y1, max(x0, 0):x1] = (90, 110, 130)
    assert marker_free.read(image).reading == BoardReading.of(position)


def test_labels_and_confidences_are_reported_per_point(calibration6: Calibration) -> None:
    position: Position = start_position()
    frame = BoardReader(calibration6).read(render(position, Scene()))
    assert frame.status is ReadStatus.OK
    assert len(frame.points) == len(frame.labels) == len(frame.confidences) == 36
    assert min(frame.confidences) >= 0.9
    from controller.geometry import parse_point
    from vision.colour import PointLabel

    assert frame.label_at(parse_point("a1")) is PointLabel.RED
    assert frame.label_at(parse_point("c3")) is PointLabel.EMPTY
    assert frame.label_at(parse_point("f6")) is PointLabel.BLACK


@pytest.mark.slow
def test_the_colour_model_follows_a_slow_change(calibration6: Calibration) -> None:
    from vision.colour import LABELS, PointLabel

    # Under a new lamp the red pieces look a little orange relative to the paper.
    orange_red = (50.0, 80.0, 200.0)
    reader = BoardReader(calibration6)
    red = LABELS.index(PointLabel.RED)
    before = reader.colours.means[red].copy()
    for seed in range(5):
        scene = Scene(piece_colours=(orange_red, (42.0, 40.0, 40.0)), seed=seed)
        assert reader.read(render(start_position(), scene)).is_ok
    target = BoardReader(calibrate(VisionConfig(), render(
        start_position(), Scene(piece_colours=(orange_red, (42.0, 40.0, 40.0)))))).colours
    moved_towards = np.linalg.norm(reader.colours.means[red] - target.means[red])
    assert moved_towards < np.linalg.norm(before - target.means[red])


def test_a_grey_array_is_refused(calibration6: Calibration) -> None:
    from vision.errors import BadImage

    with pytest.raises(BadImage, match="BGR"):
        BoardReader(calibration6).read(np.zeros((480, 640), np.uint8))


@pytest.mark.parametrize("frame", [
    np.zeros((480, 640, 3), np.uint16),
    np.zeros((480, 640, 3), np.float32),
    np.zeros((0, 0, 3), np.uint8),
], ids=["16-bit", "float", "empty"])
def test_frames_that_are_not_8_bit_images_are_refused(
        calibration6: Calibration, frame: np.ndarray) -> None:
    from vision.errors import BadImage

    with pytest.raises(BadImage, match="8-bit"):
        BoardReader(calibration6).read(frame)


def _tinted_left_third(image: np.ndarray, warmth: float) -> np.ndarray:
    """The image with its left third lit warmer (positive) or cooler (negative), log units."""
    tinted = image.astype(np.float64)
    third = image.shape[1] // 3
    tinted[:, :third, 0] *= np.exp(-warmth)  # blue
    tinted[:, :third, 2] *= np.exp(warmth)  # red
    return np.clip(tinted, 0, 255).astype(np.uint8)


def test_cooler_light_over_part_of_the_board_is_light_but_warmer_is_not(
    calibration6: Calibration,
) -> None:
    # Daylight round a warm spotlight's cone turns part of the paper cooler: still a board.
    # The same change towards warm is what skin does, and the paper there is not trusted.
    position = parse_position(POSITIONS_6[1])
    image = render(position, Scene(seed=2))
    cooler = BoardReader(calibration6).read(_tinted_left_third(image, -0.12))
    assert cooler.reading == BoardReading.of(position)
    warmer = BoardReader(calibration6).read(_tinted_left_third(image, 0.12))
    assert warmer.reading is None
    assert not warmer.paper_clear


def test_a_warm_spotlight_over_part_of_the_board_is_light(config: VisionConfig) -> None:
    # In a dim room, the cone of a warm lamp (about 2700 K) adds 40% more light to a third
    # of the board: that paper is brighter and warmer, as skin never is both.
    def dim(position: Position) -> np.ndarray:
        return 0.55 * render(position, Scene(seed=2)).astype(np.float64)

    calibration = calibrate(config, dim(start_position(6)).astype(np.uint8))
    position = parse_position(POSITIONS_6[1])
    image = dim(position)
    warm_light = np.array([0.35, 0.65, 1.0]) * 0.4 * float(np.median(image))
    image[:, :image.shape[1] // 3] += warm_light
    lit = np.clip(image, 0, 255).astype(np.uint8)
    # Switched on at once, it changes the sheet round the grid as an arm coming in would:
    # the board is read once that light has stayed.
    reader = BoardReader(calibration, config)
    assert reader.read(lit).status is ReadStatus.OCCLUDED
    assert read_when_still(reader, lit).reading == BoardReading.of(position)


def test_a_hand_over_most_of_the_board_is_not_taken_for_the_paper(
    calibration6: Calibration, config: VisionConfig
) -> None:
    # The hand covers so many paper samples that their median lies between skin and paper:
    # judged against it, both pass. Judged against the paper as last seen, the skin does not.
    from vision.render import Hand

    hand = Hand(edge=1, entry=0.6, reach=(1.0, 2.0), width_pitches=4.0,
                skin=(170.0, 190.0, 235.0), sleeve=(50.0, 40.0, 130.0))
    position = parse_position(POSITIONS_6[1])
    frame = BoardReader(calibration6, config).read(render(position, Scene(hand=hand, seed=5)))
    assert frame.reading is None
