"""The page's board drawing: the printed sheet's geometry, the lamps, the move paths."""

from __future__ import annotations

import math
import re
import xml.etree.ElementTree as ET

import pytest

from controller import Variant, parse_position, start_position
from controller.geometry import point_name
from controller.movegen import legal_moves
from firmware.web.drawing import board_svg, move_path
from hardware.lamps import LampLayout
from vision.board_model import board_model

SVG = "{http://www.w3.org/2000/svg}"


@pytest.mark.parametrize("size", [6, 7])
def test_pieces_and_lamps_sit_where_the_sheet_and_the_lamp_layout_put_them(size: int) -> None:
    layout = LampLayout(size)
    root = ET.fromstring(board_svg(layout))
    model = board_model(size)
    circles = {c.get("id"): c for c in root.iter(f"{SVG}circle")}
    for point in model.points:
        x, y = model.point_mm(point)
        piece = circles[f"piece-{point_name(point)}"]
        assert float(piece.get("cx", "nan")) == pytest.approx(x, abs=0.01)
        assert float(piece.get("cy", "nan")) == pytest.approx(y, abs=0.01)
    for lamp in layout.lamps:
        x, y = model.grid_position(lamp.x, lamp.y)
        drawn = circles[f"lamp-{lamp.name}"]
        assert float(drawn.get("cx", "nan")) == pytest.approx(x, abs=0.01)
        assert float(drawn.get("cy", "nan")) == pytest.approx(y, abs=0.01)
    loops = [p for p in root.iter(f"{SVG}path") if "loop" in (p.get("class") or "")]
    assert len(loops) == 8
    assert len([c for c in circles if c and c.startswith("lamp-")]) == len(layout.lamps)


def test_a_capture_path_runs_round_its_loops_from_the_piece_to_its_victim() -> None:
    position = parse_position("6/1b4/6/6/4r1/6 r")
    captures = [m for m in legal_moves(position, Variant.STANDARD) if m.is_capture]
    assert captures
    model = board_model(6)
    for move in captures:
        data = move_path(6, move)
        numbers = [float(n) for n in re.findall(r"-?[0-9.]+", data)]
        assert data.startswith("M ") and data.count("A ") == len(move.loops)
        assert numbers[:2] == pytest.approx(model.point_mm(move.origin), abs=0.01)
        assert numbers[-2:] == pytest.approx(model.point_mm(move.target), abs=0.01)
        corners = [model.point_mm(p) for p in model.corner_points()]
        for centre, radius in arc_centres(data):
            assert radius in (pytest.approx(model.pitch), pytest.approx(2 * model.pitch))
            # Round the corner outside the board, not the other way through it.
            assert any(centre == pytest.approx(corner, abs=0.01) for corner in corners), data


def arc_centres(data: str) -> list[tuple[tuple[float, float], float]]:
    """The centre and radius of each arc of SVG path data (SVG's endpoint-to-centre rule)."""
    arcs = []
    x = y = 0.0
    for command, args in re.findall(r"([MLA]) ([^MLA]+)", data):
        values = [float(v) for v in args.split()]
        if command == "A":
            r, large, sweep, x2, y2 = values[0], values[3], values[4], values[5], values[6]
            mx, my = (x - x2) / 2, (y - y2) / 2
            scale = math.sqrt(max(0.0, (r * r - mx * mx - my * my) / (mx * mx + my * my)))
            sign = -1.0 if large == sweep else 1.0
            centre = (sign * scale * my + (x + x2) / 2, -sign * scale * mx + (y + y2) / 2)
            arcs.append((centre, r))
        x, y = values[-2], values[-1]
    return arcs


def test_a_step_is_a_straight_line() -> None:
    move = legal_moves(start_position(6), Variant.STANDARD)[0]
    assert re.fullmatch(r"M [0-9.]+ [0-9.]+ L [0-9.]+ [0-9.]+", move_path(6, move))
