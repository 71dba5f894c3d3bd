import math

import pytest

from controller.geometry import geometry, parse_point
from vision.board_model import Paper, board_model, marker_ids, parse_paper, size_of_marker


@pytest.mark.parametrize("size", [6, 7])
@pytest.mark.parametrize("paper", list(Paper))
def test_everything_printed_fits_on_the_sheet_inside_the_margins(size: int, paper: Paper) -> None:
    model = board_model(size, paper)
    corners = [c for marker in model.markers().values() for c in marker]
    assert all(5 <= x <= paper.width - 5 and 5 <= y <= paper.height - 5 for x, y in corners)


def test_points_are_a_pitch_apart_with_a1_bottom_left() -> None:
    model = board_model(6)
    a1, b1, a2 = (model.point_mm(parse_point(name)) for name in ("a1", "b1", "a2"))
    assert b1[0] - a1[0] == pytest.approx(model.pitch)
    assert a1[1] - a2[1] == pytest.approx(model.pitch)  # rank 2 is above rank 1 on paper
    assert a1[1] > model.point_mm(parse_point("a6"))[1]


@pytest.mark.parametrize("size", [6, 7])
def test_each_loop_joins_the_row_end_and_the_column_end_of_its_circuit(size: int) -> None:
    model = board_model(size)
    arcs = model.loop_arcs()
    for loop in geometry(size).loops:
        row_end, column_end = model.point_mm(loop.row_end), model.point_mm(loop.column_end)
        matching = [
            arc for arc in arcs
            if math.dist(arc.centre, row_end) == pytest.approx(arc.radius)
            and math.dist(arc.centre, column_end) == pytest.approx(arc.radius)
        ]
        assert len(matching) == 1, loop.name
        arc = matching[0]
        assert arc.radius == pytest.approx(loop.circuit.line * model.pitch)
        assert arc.sweep_degrees == 270


def test_markers_clear_the_outer_loops_and_ids_tell_the_board_size() -> None:
    model = board_model(6)
    outer = [arc for arc in model.loop_arcs() if arc.radius == 2 * model.pitch]
    for corners in model.markers().values():
        for corner in corners:
            assert min(math.dist(corner, arc.centre) for arc in outer) > 2.2 * model.pitch
    assert set(model.markers()) == set(marker_ids(6))
    assert {size_of_marker(i) for i in marker_ids(7)} == {7}
    assert size_of_marker(42) is None


def test_model_json_is_in_png_pixels() -> None:
    model = board_model(6)
    data = model.to_json(pixels_per_mm=300 / 25.4)
    assert data["pitch"] == pytest.approx(model.pitch * 300 / 25.4, abs=0.01)
    points = data["points"]
    assert isinstance(points, dict) and len(points) == 36
    assert data["disc_diameter"] == pytest.approx(0.8 * model.pitch * 300 / 25.4, abs=0.01)


def test_paper_names() -> None:
    assert parse_paper(" A3 ") is Paper.A3
    with pytest.raises(ValueError, match="'letter'"):
        parse_paper("letter")
