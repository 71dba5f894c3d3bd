"""The room renderer: what someone using its pictures would notice."""

from __future__ import annotations

from dataclasses import replace

import numpy as np
import pytest

from controller.geometry import parse_point
from controller.position import start_position
from controller.reading import BoardReading
from vision.board_model import board_model
from vision.room import CONDITIONS, piece_positions, random_room_scene, render_room, sheet_pixels
from vision.room_conditions import PIECE_SETS, UnknownCondition, next_frame
from vision.room_scene import Light, LightKind, RoomCamera, RoomScene, Sensor

MODEL = board_model(6)
MIDDLE = (MODEL.paper.width / 2, MODEL.paper.height / 2)
RED_PLASTIC = next(s for s in PIECE_SETS if s.name == "red-black-plastic")
OVERHEAD = Light(LightKind.LAMP, (MIDDLE[0], MIDDLE[1], 1800.0), 4000.0, 1.0, 50.0)


def one_piece(name: str = "c3") -> BoardReading:
    return BoardReading(1 << parse_point(name, 6), 0, 6)


def empty_board() -> BoardReading:
    return BoardReading(0, 0, 6)


def scene_with(camera: RoomCamera | None = None, lights: tuple[Light, ...] = (OVERHEAD,),
               **changes: object) -> RoomScene:
    """A quiet room: small image, no JPEG, little noise, pieces exactly on their points."""
    scene = RoomScene(
        condition="ceiling",
        camera=camera or RoomCamera(width=320, height=240, fill=0.9),
        lights=lights,
        pieces=RED_PLASTIC,
        sensor=Sensor(jpeg_quality=None, read_noise=0.001, full_well=50000.0, vignetting=0.0),
        ambient=0.1,
        piece_offset=0.0,
    )
    return replace(scene, **changes)  # type: ignore[arg-type]


def patch_level(image: np.ndarray, scene: RoomScene, sheet_mm: tuple[float, float]) -> float:
    """Median grey level round the pixel showing a sheet point (thin ink lines ignored)."""
    x, y = np.round(sheet_pixels(scene, 6, np.array([sheet_mm]))[0]).astype(int)
    patch = image[y - 3:y + 4, x - 3:x + 4].astype(np.float64).mean(axis=2)
    return float(np.median(patch))


def red_centroid(image: np.ndarray) -> np.ndarray:
    blue, green, red = (image[..., k].astype(np.int32) for k in range(3))
    ys, xs = np.nonzero((red > 1.6 * green) & (red > 1.6 * blue) & (red > 50))
    assert len(xs) > 10, "no red piece in the picture"
    return np.array([xs.mean(), ys.mean()])


def test_the_same_scene_renders_the_same_image_and_another_seed_does_not() -> None:
    scene = random_room_scene(np.random.default_rng(7), "window", width=240, height=180)
    first = render_room(start_position(6), scene)
    assert first.shape == (180, 240, 3) and first.dtype == np.uint8
    assert np.array_equal(first, render_room(start_position(6), scene))
    assert not np.array_equal(first, render_room(start_position(6), replace(scene, seed=1)))


def test_a_tilted_camera_sees_a_tall_piece_displaced_towards_the_far_side() -> None:
    # The camera leans in from +x, so the far side of the sheet is towards -x.
    camera = RoomCamera(width=480, height=360, tilt_degrees=35.0, fill=0.9)
    tall = scene_with(camera, piece_height_mm=7.0)
    flat = scene_with(camera, piece_height_mm=0.05, bevel_mm=0.01)
    tall_centre = red_centroid(render_room(one_piece(), tall))
    flat_centre = red_centroid(render_room(one_piece(), flat))
    point = MODEL.point_mm(parse_point("c3", 6))
    near, far = sheet_pixels(tall, 6, np.array([point, (point[0] - 10, point[1])]))
    towards_far = (far - near) / np.linalg.norm(far - near)
    assert float((tall_centre - flat_centre) @ towards_far) > 2.0
    top = sheet_pixels(tall, 6, np.array([point]), height_mm=7.0)[0]
    assert np.linalg.norm(top - tall_centre) < np.linalg.norm(near - tall_centre)


@pytest.mark.parametrize("piece_set", PIECE_SETS, ids=lambda piece_set: piece_set.name)
def test_every_piece_set_hides_the_printed_cross_under_its_tops(piece_set: object) -> None:
    # Seen from straight above, a piece's top covers its point and the cross printed there.
    scene = scene_with(pieces=piece_set, camera=RoomCamera(width=480, height=360, fill=0.9))
    point = MODEL.point_mm(parse_point("c3", 6))
    radius = scene.piece_scale * MODEL.disc_diameter / 2
    x, y = np.round(sheet_pixels(scene, 6, np.array([point]))[0]).astype(int)
    edge = np.round(sheet_pixels(scene, 6, np.array([(point[0] + 0.6 * radius, point[1])]))[0])
    reach = int(np.linalg.norm(edge - (x, y)))
    image = render_room(one_piece(), scene).astype(np.float64)
    bare = render_room(empty_board(), scene).astype(np.float64)
    top = image[y - reach:y + reach + 1, x - reach:x + reach + 1]
    paper = bare[y - reach:y + reach + 1, x - reach:x + reach + 1]
    # The lines show on the bare point; none shows through a top (it is about as even as
    # a top's pattern and shading make it).
    assert float(np.quantile(paper.mean(axis=2), 0.05)) < 0.6 * float(np.median(paper))
    assert float(np.quantile(top.mean(axis=2), 0.05)) > 0.6 * float(np.median(top.mean(axis=2)))


def test_a_low_lamp_on_one_side_leaves_the_far_side_darker() -> None:
    lamp = Light(LightKind.LAMP, (-250.0, MIDDLE[1], 200.0), 2700.0, 1.0, 20.0)
    scene = scene_with(lights=(lamp,))
    image = render_room(empty_board(), scene)
    near = patch_level(image, scene, (MODEL.grid_left - 0.5 * MODEL.pitch, MIDDLE[1]))
    far = patch_level(image, scene, (MODEL.grid_left + MODEL.span + 0.5 * MODEL.pitch,
                                     MIDDLE[1]))
    assert far < 0.8 * near


def test_a_piece_casts_its_shadow_away_from_the_light() -> None:
    lamp = Light(LightKind.LAMP, (-150.0, MIDDLE[1], 150.0), 3000.0, 1.0, 10.0)
    scene = scene_with(lights=(lamp,), piece_height_mm=7.0)
    board = one_piece("c4")
    x, y = piece_positions(board, scene)[parse_point("c4", 6)]
    radius = scene.piece_scale * MODEL.disc_diameter / 2
    away, towards = (x + radius + 3.0, y), (x - radius - 3.0, y)
    with_piece = render_room(board, scene)
    without = render_room(empty_board(), scene)
    assert patch_level(with_piece, scene, away) < 0.75 * patch_level(without, scene, away)
    assert patch_level(with_piece, scene, towards) > 0.9 * patch_level(without, scene, towards)


def test_barrel_distortion_pulls_the_sheet_corners_towards_the_middle() -> None:
    camera = RoomCamera(width=320, height=240, field_of_view_degrees=105.0, k1=-0.3, k2=0.06)
    scene = scene_with(camera)
    corners = np.array([(0.0, 0.0), (MODEL.paper.width, 0.0),
                        (MODEL.paper.width, MODEL.paper.height), (0.0, MODEL.paper.height)])
    centre = np.array([160.0, 120.0])
    bent = np.linalg.norm(sheet_pixels(scene, 6, corners) - centre, axis=1)
    straight = np.linalg.norm(sheet_pixels(scene, 6, corners, lens=False) - centre, axis=1)
    assert np.all(bent < straight - 5)


def test_pieces_stand_within_their_offset_and_move_only_when_set_down_anew() -> None:
    scene = random_room_scene(np.random.default_rng(3), "ceiling", piece_offset=0.5)
    board = start_position(6)
    positions = piece_positions(board, scene)
    assert len(positions) == 24
    for point, (x, y) in positions.items():
        px, py = MODEL.point_mm(point)
        assert np.hypot(x - px, y - py) <= 0.5 * MODEL.pitch + 1e-9
    rng = np.random.default_rng(4)
    assert piece_positions(board, next_frame(scene, rng)) != positions
    assert piece_positions(board, next_frame(scene, rng, pieces_stay=True)) == positions


def test_only_the_look_alike_condition_uses_the_look_alike_set() -> None:
    rng = np.random.default_rng(11)
    look_alike = random_room_scene(rng, "look-alike")
    assert look_alike.pieces.look_alike
    for name in CONDITIONS:
        if name != "look-alike":
            assert not any(random_room_scene(rng, name).pieces.look_alike for _ in range(5))


def test_an_unknown_condition_is_a_clear_error() -> None:
    with pytest.raises(UnknownCondition, match="unknown room condition: 'attic'"):
        random_room_scene(np.random.default_rng(0), "attic")
