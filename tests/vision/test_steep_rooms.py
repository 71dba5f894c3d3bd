"""Pieces off their points, their side or shadow in their sample: doubtful, never wrong.

Frames from the room renderer (``benchmarks/vision_rooms.py``): mostly condition steep-tilt
(a camera 32-35 degrees off vertical, pieces 5-7 mm tall up to 0.2 pitch off their points),
and a spotlight low to one side, whose pieces cast long, deep shadows.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import cv2
import pytest

from controller.geometry import parse_point
from controller.movegen import legal_moves, make_move
from controller.position import Color, Position
from controller.reading import BoardReading
from vision import reader
from vision.calibrate import Calibration, calibrate
from vision.colour import PointLabel
from vision.config import VisionConfig
from vision.reader import BoardReader, FrameReading, ReadStatus

ROOMS = Path(__file__).parent / "data" / "rooms"


@pytest.mark.parametrize(("name", "board", "doubtful"), [
    # A light wood piece on d6 shows its dark side in the darker part of its top.
    ("steep-wood", "1b1r2/6/2r3/4r1/6/3b2", "d6"),
    # A black piece on f3 stands off its sample, its body filling the point: not white.
    ("steep-white", "4r1/2b1b1/2b1bb/2b1bb/3r2/3b2", "f3"),
    # A small cream piece on b6, a fifth of a pitch off, half its sample its shadow's:
    # the darker part looks brown, the median cream.
    ("spotlight-cream", "1r3r/6/r3rr/6/5b/r2b2", "b6"),
])
def test_a_piece_seen_steeply_off_its_point_is_never_read_as_another(
        config: VisionConfig, name: str, board: str, doubtful: str) -> None:
    calibration = calibrate(config, cv2.imread(str(ROOMS / f"{name}-start.jpg")))
    frame = BoardReader(calibration, config).read(cv2.imread(str(ROOMS / f"{name}-frame.jpg")))
    assert frame.reading is None or frame.reading == BoardReading.parse(board)
    # Unless it is read rightly, the referee is told which point to have centred, and the
    # rest is read.
    if frame.reading is None:
        assert frame.status is ReadStatus.DOUBTFUL
        assert frame.doubtful == (parse_point(doubtful, 6),)


def test_a_bare_point_walled_in_by_pieces_is_judged_against_paper(
        config: VisionConfig, room_calibration: Callable[[str], Calibration]) -> None:
    # Blue and yellow pieces round c1 hide most of the paper samples next to it from this
    # camera; the yellow one would tint "the paper round c1", and the bare point, bluer than
    # that, was read as a blue piece.
    calibration = room_calibration("steep-yellow-start.jpg")
    frame = BoardReader(calibration, config).read(cv2.imread(str(ROOMS / "steep-yellow-frame.jpg")))
    assert frame.reading == BoardReading.parse("r3b1/4bb/1r3r/2bbb1/1brr2/rr1bbb")


def test_one_reader_follows_the_board_from_the_start_through_a_move(
        config: VisionConfig, room_calibration: Callable[[str], Calibration]) -> None:
    # A reader guesses where the pieces stand from its last frame, to judge the paper round
    # each point once while the board is still. After the start position, that guess hides
    # the wrong paper round c1 (above): the frame must be judged again, and read as a
    # fresh reader reads it, still frames and going back included.
    start = cv2.imread(str(ROOMS / "steep-yellow-start.jpg"))
    moved = cv2.imread(str(ROOMS / "steep-yellow-frame.jpg"))
    calibration = room_calibration("steep-yellow-start.jpg")
    fresh = {name: BoardReader(calibration, config).read(image)
             for name, image in (("start", start), ("moved", moved))}
    reader = BoardReader(calibration, config)
    for name, image in (("start", start), ("moved", moved), ("moved", moved),
                        ("start", start), ("moved", moved)):
        frame = reader.read(image)
        assert (frame.status, frame.reading, frame.labels) == (
            fresh[name].status, fresh[name].reading, fresh[name].labels)
    assert frame.reading == BoardReading.parse("r3b1/4bb/1r3r/2bbb1/1brr2/rr1bbb")


@pytest.fixture
def without_presence_net(monkeypatch: pytest.MonkeyPatch) -> None:
    """The reader without the presence network (vision.presence_net), for the rules that
    keep a piece off its point from being read as bare; the network then tells most such
    points (test_the_presence_network_reads_pieces_off_their_points)."""
    monkeypatch.setattr(reader, "shipped_presence_net", lambda: None)


@pytest.mark.parametrize(("room", "board"), [
    ("half-covered-steep", "rb1b2/2rr2/1r4/r2b1r/1br3/1rb2r"),
    ("shell-hiding-arms-steep", "1r1b2/1r1b1r/rrbb1r/1brr1r/brbrb1/2brb1"),
    ("shell-off-corner-mixed", "r4r/4b1/bb1b2/1b1rbr/1b4/1bbr2"),
    ("white-off-corner-steep", "1r2br/b3br/br4/b3br/6/b1rrbb"),
])
def test_the_presence_network_reads_pieces_off_their_points(
        room_reading: Callable[[str], FrameReading], room: str, board: str) -> None:
    # The frames of the tests below, each with a piece off its point that the colours
    # leave open between the piece and bare paper: the network sees the piece.
    assert room_reading(room).reading == BoardReading.parse(board)


def test_a_piece_read_off_a_point_it_half_covers_is_read_from_the_game(
        config: VisionConfig, room_calibration: Callable[[str], Calibration],
        without_presence_net: None) -> None:
    # Red and black pieces seen steeply (a Blender render): the red piece on a6 stands off
    # its sample, which shows paper beside a third of the piece. Read as bare, surely, it
    # would be a capture nobody made; with nothing known of it the game waited. It may hold
    # that red piece or be bare beside it, and the game's boards tell which.
    reader = BoardReader(room_calibration("half-covered-steep-start.jpg"), config)
    frame = reader.read(cv2.imread(str(ROOMS / "half-covered-steep-frame.jpg")))
    a6 = parse_point("a6", 6)
    assert frame.status is ReadStatus.DOUBTFUL and frame.doubtful == (a6,)
    assert set(frame.choices[0]) == {PointLabel.EMPTY, PointLabel.RED}
    truth = BoardReading.parse("rb1b2/2rr2/1r4/r2b1r/1br3/1rb2r")
    waiting = Position(truth.red, truth.black, Color.RED, 6)
    expected = [truth, *(BoardReading.of(make_move(waiting, move))
                         for move in legal_moves(waiting))]
    assert frame.fitting(expected) == truth


def test_a_pale_piece_hiding_some_arms_of_its_point_is_never_read_as_bare(
        config: VisionConfig, room_calibration: Callable[[str], Calibration],
        without_presence_net: None) -> None:
    # A shell set down off b6 under a steeply tilted camera (a Blender render, seed 1501):
    # it hides the arms of b6's cross above and left of the point and leaves the other two
    # showing, so the point's median arm is bare paper's. Its pixels, the paper's colour a
    # little darker, lean only a little to the shells' palette. It was read as bare,
    # surely: a capture nobody made.
    reader = BoardReader(room_calibration("shell-hiding-arms-steep-start.jpg"), config)
    frame = reader.read(cv2.imread(str(ROOMS / "shell-hiding-arms-steep-frame.jpg")))
    truth = BoardReading.parse("1r1b2/1r1b1r/rrbb1r/1brr1r/brbrb1/2brb1")
    assert frame.reading is None or frame.reading == truth
    b6 = parse_point("b6", 6)
    assert frame.status is ReadStatus.DOUBTFUL and b6 in frame.doubtful
    assert set(frame.choices[frame.doubtful.index(b6)]) >= {PointLabel.EMPTY, PointLabel.RED}
    # The game's boards tell which: the true one fits.
    assert frame.fitting([truth]) == truth


def test_a_blurred_bare_point_in_dim_light_is_bare_whatever_its_pixels_lean_to(
        room_reading: Callable[[str], FrameReading]) -> None:
    # A room render under a spotlight, defocused: f5, bare, lies at the cone's dim edge.
    # Its arms all show faint lines (one at 0.045 of the paper), and its pixels lean
    # to the black set's palette. No piece hides any of its arms: it is bare paper.
    frame = room_reading("blurred-bare-spotlight")
    assert frame.reading == BoardReading.parse("6/3r2/6/6/6/6")


@pytest.mark.parametrize(("room", "board", "point"), [
    # Shells against pebbles under mixed light (Blender renders). Seed 1901: a shell set
    # down off a6 hides most of the corner's arm along the rank (a line of 0.04), and the
    # other arm shows; its pixels plainly hold the shells' colours.
    ("shell-off-corner-mixed", "r4r/4b1/bb1b2/1b1rbr/1b4/1bbr2", "a6"),
    # Seed 2101: a shell off d3 hides two of its arms, and the other two show plainly. Its
    # pixels lean to the shells' palette (by 0.84 per pixel), and the point did not show
    # its lines as bare paper does.
    ("shell-hiding-two-arms-mixed", "6/1rr3/6/2br1b/2b3/1rrb2", "d3"),
])
def test_a_shell_hiding_some_arms_of_a_point_is_never_read_as_bare(
        config: VisionConfig, room_calibration: Callable[[str], Calibration], room: str,
        board: str, point: str, without_presence_net: None) -> None:
    # Each was read as bare, surely: a capture nobody made.
    reader = BoardReader(room_calibration(f"{room}-start.jpg"), config)
    frame = reader.read(cv2.imread(str(ROOMS / f"{room}-frame.jpg")))
    truth = BoardReading.parse(board)
    hidden = parse_point(point, 6)
    assert frame.status is ReadStatus.DOUBTFUL and hidden in frame.doubtful
    assert set(frame.choices[frame.doubtful.index(hidden)]) == {PointLabel.EMPTY,
                                                                PointLabel.RED}
    assert frame.fitting([truth]) == truth


def test_a_light_wooden_top_whose_rim_its_shadows_darken_all_round_is_light_wood(
        room_reading: Callable[[str], FrameReading]) -> None:
    # Light and dark wooden pieces seen 37 degrees off the vertical (the room renderer, seed
    # 4949). The light top on d3 has its own shaded side and long shadow on one side and a
    # dark piece on another: its rim lay dark all round, far below any light top's at
    # calibration, which is how a dark glossy top mirroring a lamp is told. It was read as
    # dark wood, surely: a wrong board. Its face has light wood's colour, not the paper's
    # that a mirror of the lamp has, and its pixels plainly fit light wood's palette.
    frame = room_reading("light-wood-dark-round-steep")
    assert frame.reading == BoardReading.parse("1b1rb1/6/6/r1brr1/3r2/6")


def test_a_white_top_off_a_corner_outwards_is_never_read_as_bare(
        room_reading: Callable[[str], FrameReading], without_presence_net: None) -> None:
    # A white top set down off f6, outwards, under a steeply tilted camera (a Blender
    # render, seed 2901): both of the corner's lines show plainly, and two thirds of its
    # disc is the top's, whose pixels favour the white set's palette over the paper's a
    # little. It was read as bare, surely, and the frame's choices ruled the truth out.
    frame = room_reading("white-off-corner-steep")
    truth = BoardReading.parse("1r2br/b3br/br4/b3br/6/b1rrbb")
    f6 = parse_point("f6", 6)
    assert frame.status is ReadStatus.DOUBTFUL and f6 in frame.doubtful
    assert PointLabel.RED in frame.choices[frame.doubtful.index(f6)]
    assert frame.fitting([truth]) == truth
