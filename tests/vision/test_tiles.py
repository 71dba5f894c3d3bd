"""Boards of any pitch, tiled over sheets: the glued sheets make the whole board."""

import math

import numpy as np
import pytest

from controller.errors import BadOption
from vision import aruco
from vision.board_model import ARUCO_DICTIONARY, Paper, board_model, marker_ids
from vision.tiles import (
    OVERLAP_MM,
    alignment_marks,
    glued,
    large_board,
    pitch_for_piece,
    printed_tile,
    tiling,
)


def test_a_30_cm_board_for_25_mm_pieces_takes_four_a4_sheets() -> None:
    board = large_board(6, pitch_for_piece(25))
    low, high, most = board.piece_range()
    assert low <= 25 <= high <= most
    assert (board.size - 1 + 4) * board.pitch >= 300  # across the loops
    layout = tiling(board.side, Paper.A4)
    assert layout.rows * layout.columns == 4
    a3 = tiling(board.side, Paper.A3)
    assert a3.rows * a3.columns == 2


def test_the_sheets_windows_cover_the_drawing_and_overlap() -> None:
    board = large_board(7, 45.0)
    layout = tiling(board.side, Paper.A4)
    tiles = layout.tiles()
    right = max(tile.left + tile.printable[2] for tile in tiles)
    bottom = max(tile.top + tile.printable[3] for tile in tiles)
    assert right >= board.side and bottom >= board.side
    vertical, _ = layout.seams()
    for x in vertical:  # each seam lies where both neighbours print
        covering = {tile.column for tile in tiles
                    if tile.left + 1 <= x <= tile.left + tile.printable[2] - 1}
        assert len(covering) == 2
    assert OVERLAP_MM > 10


def test_glued_sheets_give_the_board_with_its_markers_where_they_belong() -> None:
    board = large_board(6, 33.5)
    layout = tiling(board.side, Paper.A4)
    per_mm = 2.0
    image = glued(board, layout, per_mm)
    corners, ids = aruco.detector(ARUCO_DICTIONARY, lambda parameters: None).detect(image)
    assert ids is not None and sorted(ids.ravel()) == list(marker_ids(6))
    expected = board_model(6).markers()
    for found, marker_id in zip(corners, ids.ravel(), strict=True):
        where = np.array([board.position(tuple(c)) for c in expected[int(marker_id)]]) * per_mm
        assert np.abs(found.reshape(4, 2) - where).max() < 2.0  # pixels, half a mm each
    # Every grid line is printed across the seams: the midpoint of each segment is ink.
    for x in range(6):
        for y in range(5):
            mid = np.array(board.point(x, y + 0.5)) * per_mm
            assert image[round(mid[1]), round(mid[0])] < 128


def test_each_sheet_leaves_its_margins_blank_and_prints_the_crosses_of_its_seams() -> None:
    board = large_board(6, 33.5)
    layout = tiling(board.side, Paper.A4)
    marks = alignment_marks(layout)
    for tile in layout.tiles():
        page = printed_tile(board, layout, tile, 2.0)
        margin = round(7 * 2.0)
        assert page[:margin].min() == 255 and page[:, -margin:].min() == 255
        crosses = [mark for mark in marks
                   if tile.left <= mark.start[0] <= tile.left + tile.printable[2]
                   and tile.top <= mark.start[1] <= tile.top + tile.printable[3]]
        assert crosses, tile.name
        for mark in crosses:
            x, y = tile.on_page(mark.start)
            assert page[round(y * 2.0), round(x * 2.0)] < 200


def test_a_pitch_below_the_sheet_s_is_refused_in_one_line() -> None:
    with pytest.raises(BadOption, match=r"invalid pitch: 12\.0 \(expected at least 19 mm"):
        large_board(6, 12.0)
    with pytest.raises(BadOption, match="invalid pitch: nan"):
        large_board(6, math.nan)
