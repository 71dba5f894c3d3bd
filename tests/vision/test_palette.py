"""Printed tops are told by the colours they are made of, wherever their print falls: a
start position of ringed pieces set down a little off their points calibrates, and frames
of it are read right."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import cv2
import numpy as np
import pytest

from controller.geometry import parse_point
from controller.position import start_position
from controller.reading import BoardReading
from tests.vision.calibration_files import assert_kept_in_file
from tests.vision.still import read_when_still
from vision import palette as palette_module
from vision import reader as reader_module
from vision import set_contrast as set_contrast_module
from vision.calibrate import Calibration, start_labels
from vision.colour import LABELS, Classification, PointLabel
from vision.config import VisionConfig
from vision.palette import (
    Palette,
    agreeing,
    bin_codes,
    confirmed,
    leaning_sets,
    learn_palette,
    overruled,
    own_set_fits,
    scores,
    settled,
    the_set_besides,
    verdicts,
)
from vision.reader import BoardReader, FrameReading

ROOMS = Path(__file__).parent / "data" / "rooms"
EMPTY, RED, BLACK = (LABELS.index(label) for label in
                     (PointLabel.EMPTY, PointLabel.RED, PointLabel.BLACK))
PIXELS = 100
# Log colour (blue, green, red) relative to the paper of what each top is made of.
PAPER, LINE = (0.0, 0.0, 0.0), (-0.9, -0.9, -0.9)
RED_BODY, WHITE_RING = (-1.6, -1.5, -0.2), (-0.3, -0.3, -0.3)
BLACK_BODY, YELLOW_RING = (-2.2, -2.2, -2.2), (-1.4, -0.2, -0.1)
MADE_OF = {EMPTY: (PAPER, LINE), RED: (RED_BODY, WHITE_RING), BLACK: (BLACK_BODY, YELLOW_RING)}


def pixels(label: int, second_share: float) -> np.ndarray:
    """(PIXELS, 3) log colours of a point holding ``label``, ``second_share`` of them its
    second colour (the lines of bare paper, a top's printed ring)."""
    first, second = MADE_OF[label]
    count = round(second_share * PIXELS)
    return np.array([second] * count + [first] * (PIXELS - count), np.float64)


def codes_of(points: list[np.ndarray]) -> np.ndarray:
    """Palette bins of points' pixels, the paper round each at log 5 in every channel."""
    paper = np.full((len(points), 3), 5.0)
    return bin_codes(np.stack(points) + paper[:, None, :], paper)


def start_codes(shares: dict[int, float] | None = None) -> np.ndarray:
    """Palette bins of a 6x6 start position whose prints show their ring on about a third of
    a top (bare points: a tenth of lines), point ``i`` showing ``shares[i]`` instead."""
    expected = start_labels(6)
    shares = shares or {}
    rng = np.random.default_rng(3)
    return codes_of([pixels(int(label), shares.get(i, float(rng.uniform(0.25, 0.4)))
                            if label != EMPTY else 0.1)
                     for i, label in enumerate(expected)])


def test_a_ringed_top_fits_its_own_set_however_much_of_its_ring_shows() -> None:
    palette = learn_palette(start_codes(), start_labels(6))
    # Off its point, the disc shows most of the ring, or hardly any of it.
    shifted = codes_of([pixels(BLACK, 0.7), pixels(BLACK, 0.1), pixels(RED, 0.6),
                        pixels(RED, 0.05), pixels(EMPTY, 0.1)])
    assert verdicts(scores(palette, shifted)).tolist() == [BLACK, BLACK, RED, RED, EMPTY]


def test_a_start_position_piece_fits_its_set_only_when_it_is_of_that_set() -> None:
    expected = start_labels(6)
    first_red = int(np.flatnonzero(expected == RED)[0])
    codes = start_codes({first_red: 0.7})
    assert own_set_fits(learn_palette(codes, expected), codes, expected)[expected != EMPTY].all()
    # A black piece on a red one's point, or none there: not the red set's colours.
    for wrong in (pixels(BLACK, 0.3), pixels(EMPTY, 0.1)):
        codes[first_red] = codes_of([wrong])[0]
        fits = own_set_fits(learn_palette(codes, expected), codes, expected)
        assert not fits[first_red]


def test_the_palette_confirms_an_unsure_piece_only_when_it_agrees() -> None:
    labels = np.array([RED, RED, BLACK, EMPTY])
    confidences = np.array([0.5, 0.5, 0.99, 0.5])
    palette_says = np.array([RED, BLACK, -1, EMPTY])
    raised = confirmed(palette_says, labels, confidences, sure=0.9)
    # The bare point is told by its cross, not by its palette.
    assert raised.tolist() == [0.9, 0.5, 0.99, 0.5]


def test_colours_and_palette_that_agree_without_being_sure_confirm_a_piece() -> None:
    labels = np.array([RED, RED, RED, RED, BLACK, RED, EMPTY])
    confidences = np.array([0.6, 0.6, 0.6, 0.6, 0.6, 0.95, 0.6])
    # Distances (standard deviations) to bare paper, red and black.
    distances = np.array([[5.0, 1.0, 2.0], [5.0, 1.0, 1.1], [5.0, 1.2, 2.0], [5.0, 1.0, 2.0],
                          [5.0, 2.5, 1.5], [5.0, 0.5, 3.0], [1.0, 3.0, 4.0]])
    # Mean log-likelihood per pixel under the paper's, red's and black's palettes.
    point_scores = np.array([[-4.0, -3.0, -4.2], [-4.0, -3.0, -4.2], [-4.0, -3.0, -3.5],
                             [-2.5, -3.0, -4.2], [-4.0, -5.0, -3.0], [-4.0, -3.0, -3.1],
                             [-2.0, -5.0, -5.0]])
    result = Classification(labels, confidences, distances)
    raised = agreeing(point_scores, result, sure=0.9)
    # The first piece's colours and pixels both name red, plainly if not surely: sure. The
    # colours barely tell the second's set, the third's pixels barely favour red over black,
    # the fourth's fit the paper's palette better: each stays unsure. A black one agreeing
    # alike is sure; a sure one and a bare point are left as they were.
    assert raised.tolist() == [0.9, 0.6, 0.6, 0.6, 0.9, 0.95, 0.6]


def test_pixels_leaning_to_a_set_confirm_a_piece_the_colours_name_very_plainly() -> None:
    labels = np.array([BLACK, BLACK, BLACK, RED])
    confidences = np.full(4, 0.86)
    # The first lies half a deviation from black and two from red; the second as far from
    # red, but 1.5 from black; the third 0.5 from black and only 1.2 from red. The fourth,
    # read as red, is the first's mirror image.
    distances = np.array([[5.0, 2.0, 0.5], [5.0, 3.0, 1.5], [5.0, 1.2, 0.5], [5.0, 0.5, 2.0]])
    # Each point's pixels favour its set over the other by half a unit per pixel: more than
    # LEANING, less than AGREEING.
    point_scores = np.array([[-4.0, -3.0, -2.5], [-4.0, -3.0, -2.5], [-4.0, -3.0, -2.5],
                             [-4.0, -2.5, -3.0]])
    raised = agreeing(point_scores, Classification(labels, confidences, distances), sure=0.9)
    # Near its own set and a full deviation nearer it than the other: the pixels' lean is
    # witness enough. Farther from its set, or nearer the other, it is not.
    assert raised.tolist() == [0.9, 0.86, 0.86, 0.9]


def test_brown_tops_a_ceiling_lamp_sheens_are_read_when_colours_and_palette_agree(
        room_reading: Callable[[str], FrameReading], monkeypatch: pytest.MonkeyPatch) -> None:
    # Cream against brown under a ceiling lamp (a Blender render): the lamp's sheen lightens
    # some brown tops toward the cream. The colours still name brown, though not surely, and
    # their pixels favour the brown palette over the cream by more than 1 per pixel.
    read_only_as_witnesses_agree(room_reading, monkeypatch, palette_module,
                                 "sheened-brown-ceiling",
                                 "br2r1/rrbrrb/r1b1rb/2r1r1/b1b1br/rbbbb1")


def test_brown_tops_near_brown_are_read_when_their_pixels_lean_to_brown(
        room_reading: Callable[[str], FrameReading], monkeypatch: pytest.MonkeyPatch) -> None:
    # Cream against brown under a ceiling lamp (a Blender render): the sets differ mostly in
    # brightness, which the colour model lets vary most, and brown tops half a deviation
    # from brown's colour and two from cream's were read at 0.86 to 0.89. Their pixels lean
    # to brown's palette by 0.5 to 0.8 per pixel: not plainly, but with colours so plain,
    # witness enough.
    read_only_as_witnesses_agree(room_reading, monkeypatch, palette_module,
                                 "brown-near-cream-ceiling", "1bb3/2b1br/2bbb1/b1b2r/rbr3/b1b3",
                                 margin="NEAR_OWN")


def test_an_unsure_piece_whose_pixels_plainly_fit_the_other_set_is_of_that_set() -> None:
    labels = np.array([RED, RED, BLACK, EMPTY, RED, RED])
    confidences = np.array([0.6, 0.99, 0.5, 0.5, 0.6, 0.6])
    palette_says = np.array([BLACK, BLACK, -1, RED, EMPTY, RED])
    told, sure = settled(palette_says, labels, confidences, sure=0.9)
    # A red piece read unsurely whose pixels are black's is black, surely. One read surely
    # keeps its colour's word (the reader calls it doubtful); nothing is told where the
    # palette says nothing plainly, of bare paper, or of paper the palette gives a piece.
    assert told.tolist() == [BLACK, RED, BLACK, EMPTY, RED, RED]
    assert sure.tolist() == [0.9, 0.99, 0.5, 0.5, 0.6, 0.6]


def test_a_sure_read_the_palette_plainly_gives_the_other_set_is_overruled() -> None:
    labels = np.array([RED, RED, BLACK, EMPTY, RED])
    scores = np.array([
        [-5.0, -6.0, -4.0],  # black's by 2 over red's, 1 over the paper's: black
        [-5.0, -5.0, -3.8],  # black's by 1.2 only: red stays
        [-3.0, -3.2, -5.0],  # red's by 1.8, but the paper's more: black stays
        [-2.0, -5.0, -3.0],  # bare paper stays
        [-4.4, -5.6, -4.0],  # black's by 1.6 and 0.4: black
    ])
    assert overruled(scores, labels).tolist() == [BLACK, RED, BLACK, EMPTY, BLACK]


def test_a_dark_wood_top_read_surely_as_light_whose_pixels_are_dark_wood_s_is_dark(
        room_reading: Callable[[str], FrameReading], monkeypatch: pytest.MonkeyPatch) -> None:
    # Light and dark wood under a spotlight (a Blender render, seed 401): the dark top on
    # b2, at the edge of the cone, was read as light wood, surely, and its pixels favour
    # dark wood's palette over light wood's by 2.5 per pixel and over the paper's by 1: the
    # frame was doubtful. The palette plainly overrules the colours, and it is read.
    read_only_as_witnesses_agree(room_reading, monkeypatch, palette_module,
                                 "dark-wood-spotlight", "1b1bbb/4b1/5b/3r2/1b4/4bb",
                                 margin="SURE")


def test_a_greyed_black_top_whose_pixels_are_black_s_is_read_though_near_paper(
        room_reading: Callable[[str], FrameReading], monkeypatch: pytest.MonkeyPatch) -> None:
    # Glossy red and black pieces under a wide lens (a room render): the lamp greys the
    # black top on b2 halfway to red, and 3.9 deviations from bare paper, just short of the
    # 4 the colours had to be off it to be confirmed. It hides its whole cross, and its
    # pixels favour black's palette over red's by 3.2 per pixel and over the paper's too:
    # a black piece, and the frame is read.
    read_only_as_witnesses_agree(room_reading, monkeypatch, set_contrast_module,
                                 "greyed-black-wide", "1b1b2/6/6/6/1b3b/6", margin="NOT_BARE")


def test_the_palette_weighs_in_between_the_two_sets_only() -> None:
    labels = np.array([RED, RED, BLACK, EMPTY, RED, RED, RED])
    # What a split top or a rim tells besides (the label itself where nothing does); the
    # fifth, brighter than the paper round it, may be bare paper.
    others = np.array([RED, RED, RED, EMPTY, EMPTY, BLACK, BLACK])
    palette_says = np.array([BLACK, -1, EMPTY, RED, RED, RED, -1])
    # A piece whose pixels fit the other set may be it; one given to paper, a bare point
    # given to a set, and a piece that may be bare paper keep what they had; a split top
    # whose pixels fit the set read is that set.
    assert the_set_besides(palette_says, labels, others).tolist() == [
        BLACK, RED, RED, EMPTY, EMPTY, RED, BLACK]


def test_a_palette_survives_its_file_and_a_bad_one_is_refused(tmp_path: Path,
                                                               calibration6: Calibration) -> None:
    palette = learn_palette(start_codes(), start_labels(6))
    assert Palette.from_json(palette.to_json()).counts.tolist() == palette.counts.tolist()
    with pytest.raises(ValueError, match="palette"):
        Palette.from_json({"empty": {}, "red": {"1": 2}, "black": {"1": 2}})
    with pytest.raises(ValueError, match="palette bin"):
        Palette.from_json({"empty": {"-4": 1}, "red": {"1": 2}, "black": {"1": 2}})
    first_bin = str(int(np.flatnonzero(palette.counts[EMPTY])[0]))
    assert_kept_in_file(calibration6, tmp_path, (f'"{first_bin}": ', '"99999": '),
                        palette=palette)


def test_the_printed_tops_told_by_their_palette_are_kept_in_the_file(
        room_calibration: Callable[[str], Calibration], tmp_path: Path) -> None:
    # Ringed pieces seen steeply (a Blender render): the top on c5, off its point, looks like
    # the other set by its colour, and its palette tells its own.
    calibration = room_calibration("printed-steep-start.jpg")
    assert calibration.printed_points == {parse_point("c5", 6)}
    listed = '"printed_points": [\n  "{}"'
    assert_kept_in_file(calibration, tmp_path, (listed.format("a1"), listed.format("z9")),
                        printed_points=frozenset({parse_point("a1", 6)}))


def test_ringed_pieces_off_their_points_calibrate_and_are_read(
        room_calibration: Callable[[str], Calibration], config: VisionConfig) -> None:
    # Red tops printed with a white ring and black ones with a yellow ring, under a ceiling
    # lamp (a Blender render), each up to 0.2 pitch off its point. The disc read at b1 falls
    # mostly on its ring: by colour it looked like the black set, and the start position
    # was refused (odd points: b1).
    calibration = room_calibration("printed-rings-ceiling-start.jpg")
    assert calibration.palette is not None
    reader = BoardReader(calibration, config)
    start = BoardReading.of(start_position(6))
    first = reader.read(cv2.imread(str(ROOMS / "printed-rings-ceiling-start.jpg")))
    assert first.reading == start or first.fitting([start]) == start
    for name, board in (("printed-rings-ceiling-frame.jpg", "b1r3/r3rr/r1r3/2r1r1/rb4/1r2rb"),
                        ("printed-rings-ceiling-frame-2.jpg", "3rb1/4b1/1b4/1r1r1b/r4b/2bb1b")):
        frame = reader.read(cv2.imread(str(ROOMS / name)))
        assert frame.reading == BoardReading.parse(board), name


def test_printed_tops_nearer_the_other_set_but_of_their_own_palette_are_not_glare(
        room_calibration: Callable[[str], Calibration], config: VisionConfig) -> None:
    # Printed pieces under a ceiling lamp (a Blender render, black ones glared grey on the
    # left): the red top on b2 looks more like the black set than its own by its colour,
    # and was taken for glare that reaches as far as black's own pieces (refused: "the two
    # piece sets look alike where the lamp's glare falls"). The colours it is made of are
    # red's: a printed top seen off its point.
    calibration = room_calibration("printed-ceiling-start.jpg")
    assert calibration.glare_reach == ()
    assert calibration.printed_points == {parse_point("b2", 6)}
    reader = BoardReader(calibration, config)
    frame = reader.read(cv2.imread(str(ROOMS / "printed-ceiling-frame.jpg")))
    assert frame.reading == BoardReading.parse("1rbb1b/4bb/r5/5b/1b1b2/3bb1")


def test_black_tops_a_spotlight_reddens_are_read_as_black(
        room_calibration: Callable[[str], Calibration], config: VisionConfig) -> None:
    # Glossy red and black pieces under a spotlight (a Blender render): the glare on the
    # black tops on b5 and d6 leaves them nearer red by colour, but not surely; the colours
    # they are made of are plainly black's. The frame waited for the game's boards.
    reader = BoardReader(room_calibration("reddened-black-spotlight-start.jpg"), config)
    frame = reader.read(cv2.imread(str(ROOMS / "reddened-black-spotlight-frame.jpg")))
    assert frame.reading == BoardReading.parse("3b1r/bb4/4b1/b2r2/3bb1/1bbr2")


def _in_shade(image: np.ndarray, angle_degrees: float, depth: float) -> np.ndarray:
    """``image`` with a person's soft shadow over half of it, ``depth`` darker (a share of the
    light), its edge through the middle at ``angle_degrees``."""
    height, width = image.shape[:2]
    ys, xs = np.mgrid[0:height, 0:width]
    angle = np.radians(angle_degrees)
    across = ((xs - width / 2) * np.cos(angle) + (ys - height / 2) * np.sin(angle)) / width
    light = 1 - depth / (1 + np.exp(-across / 0.03))
    return np.clip(image * light[..., None], 0, 255).astype(np.uint8)


@pytest.mark.parametrize("angle", [0, 150, 330])
def test_a_printed_top_read_as_bare_paper_in_a_shade_may_be_its_set(
        room_calibration: Callable[[str], Calibration], config: VisionConfig,
        angle: float) -> None:
    # Printed pieces under a spotlight (a Blender render), a person's soft shadow over half
    # the board: the small disc read on c6 falls on the red top's white ring and centre, and
    # looked like bare paper hiding little of its cross, surely enough to be read: a capture
    # nobody made. The colours the top is made of are red's, so it may be red.
    reader = BoardReader(room_calibration("printed-spotlight-start.jpg"), config)
    frame = read_when_still(reader, _in_shade(
        cv2.imread(str(ROOMS / "printed-spotlight-frame.jpg")), angle, 0.5))
    truth = BoardReading.parse("2r1rr/1br3/1bb3/rb1b1b/bb1rr1/3r2")
    c6 = parse_point("c6", 6)
    assert frame.reading is None or frame.reading == truth
    if frame.reading is None:
        assert c6 in frame.doubtful
        assert PointLabel.RED in frame.choices[frame.doubtful.index(c6)]
        assert frame.fitting([truth]) == truth


def test_a_piece_whose_pixels_lean_to_the_other_sets_palette_is_named_by_it() -> None:
    palette = learn_palette(start_codes(), start_labels(6))
    black_top = pixels(BLACK, 0.3)
    # A black top whose disc shows mostly its yellow ring: its pixels still lean to black,
    # however the colours read it; bare paper leans to neither set.
    leaning = leaning_sets(scores(palette, codes_of([black_top, pixels(RED, 0.3),
                                                     pixels(BLACK, 0.9), pixels(EMPTY, 0.1)])))
    assert leaning.tolist()[:3] == [BLACK, RED, BLACK]


def test_a_ringed_black_top_under_a_spotlight_is_never_read_as_red(
        room_calibration: Callable[[str], Calibration], config: VisionConfig,
        monkeypatch: pytest.MonkeyPatch) -> None:
    # Printed pieces under a spotlight (a Blender render): the black top on c1, printed
    # with a yellow ring round a grey centre, stands a little off its point, and its disc
    # shows the ring and the centre, lighter than the black tops of the start position.
    # The colours read it as red, surely (0.97): a wrong board. Its pixels lean to black's
    # palette by 0.76 per pixel, not plainly enough to name it, enough to doubt it.
    calibration = room_calibration("ringed-black-spotlight-start.jpg")
    image = cv2.imread(str(ROOMS / "ringed-black-spotlight-frame.jpg"))
    truth = BoardReading.parse("1b4/6/r5/5r/6/2br1b")
    frame = BoardReader(calibration, config).read(image)
    assert frame.reading is None
    assert parse_point("c1", 6) in frame.doubtful
    assert frame.fitting([truth]) == truth
    monkeypatch.setattr(palette_module, "LEANING", 10.0)
    without = BoardReader(calibration, config).read(image)
    assert without.reading not in (None, truth)


def test_a_split_top_whose_pixels_plainly_favour_its_set_is_read(
        room_reading: Callable[[str], FrameReading]) -> None:
    # Shells against pebbles under window light (a Blender render): the pebble on e1 lies
    # off its point, so half its sample disc is paper and the top's median looks like a
    # shell. Its pixels favour the pebbles' palette over the shells' by about 2 per pixel
    # (they fit the paper's too, being half paper): which set it is of is settled, and the
    # frame is read.
    frame = room_reading("pebble-off-point-window")
    assert frame.reading == BoardReading.parse("bb1rbr/rrb1r1/bbr2b/1r1br1/b2r1r/b2rb1")


def test_a_split_top_read_surely_whose_pixels_favour_its_set_is_read(
        room_reading: Callable[[str], FrameReading], monkeypatch: pytest.MonkeyPatch) -> None:
    # Printed pieces under a cheap fisheye webcam (a Blender render): a black top's yellow
    # ring and grey middle on d6 disagree, so its median tells red. The colours read it as
    # black, surely, and its pixels favour black's palette over red's by 1.48 per pixel:
    # just short of plainly, enough with the colours to settle which set it is.
    read_only_as_witnesses_agree(room_reading, monkeypatch, reader_module,
                                 "printed-split-fisheye", "3b2/2b1b1/6/1b4/4b1/b1b3")


def test_a_white_top_whose_long_shadow_fills_its_darker_part_is_read_as_white(
        room_reading: Callable[[str], FrameReading], monkeypatch: pytest.MonkeyPatch) -> None:
    # Glossy white and black pieces in window light (a Blender render), each up to 0.2 pitch
    # off its point. The white tops on f3 and c5 lie off their points away from the window,
    # and their long shadows fill the darker part of the sample: that part tells black,
    # surely, the top's median white. The pixels favour white's palette over black's by 1.8
    # and 2.2 per pixel, and over the paper's by 0.7: white, and the frame is read. (The
    # palette would overrule a sure black too, as far apart as that: that is left aside.)
    monkeypatch.setattr(reader_module, "overruled", lambda scores, labels: labels)
    read_only_as_witnesses_agree(room_reading, monkeypatch, reader_module,
                                 "shadowed-white-window", "5r/2r3/rrr3/r4r/4r1/r1rr2")


def read_only_as_witnesses_agree(room_reading: Callable[[str], FrameReading],
                                 monkeypatch: pytest.MonkeyPatch, module: object, name: str,
                                 board: str, margin: str = "AGREEING") -> None:
    """Assert that the room render ``name`` is read as ``board``, and that with ``module``'s
    ``margin`` out of reach it is only doubtful (the game would read it). (Without the set
    forest too, which reads some of these tops by their pattern: ``vision.set_forest``.)"""
    truth = BoardReading.parse(board)
    assert room_reading(name).reading == truth
    monkeypatch.setattr(module, margin, 10.0)
    without = room_reading(name, tell_sets_by_pattern=False)
    assert without.reading is None
    assert without.fitting([truth]) == truth


def test_a_top_whose_pixels_plainly_fit_its_set_is_no_bare_paper_though_lines_show(
        room_reading: Callable[[str], FrameReading]) -> None:
    # Glossy red and black under a pendant lamp (a Blender render): the printed cross shows
    # round the black top on e1 as plainly as on bare paper, so it might have been bare
    # paper the game had to rule out. Its pixels fit black's palette better than the
    # paper's and red's by 2 per pixel and more: it is a piece, and the frame is read.
    frame = room_reading("lines-round-black-pendant")
    assert frame.reading == BoardReading.parse("5b/3b2/b2b1b/br4/b2bbb/1r2b1")
