"""``surakarta print-board`` for boards of real size: sheets to glue, one page, a laser's SVG."""

from __future__ import annotations

import math
import re
import xml.etree.ElementTree as ElementTree
from pathlib import Path

import pytest

from firmware.cli import main
from hardware.config import HardwareConfig

A4_POINTS = "595.276 841.890"


def media_boxes(pdf: bytes) -> list[str]:
    return re.findall(rb"/MediaBox \[0 0 ([\d.]+ [\d.]+)\]", pdf)  # type: ignore[return-value]


def test_25_mm_pieces_give_four_a4_sheets_and_a_parts_list(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "board.pdf"
    assert main(["print-board", "--out", str(out), "--piece", "25"]) == 0
    boxes = media_boxes(out.read_bytes())
    assert [box.decode() for box in boxes] == [A4_POINTS] * 4
    text = capsys.readouterr().out
    assert "pitch 33.5 mm, 4 A4 sheets, 2 rows of 2" in text
    assert "pieces: 12 red and 12 black, 20-25 mm across" in text
    assert "one A4 sheet: pitch 19 mm, pieces 11-14 mm" in text
    assert "30 mm pieces: pitch 40 mm" in text


def test_one_page_for_a_print_shop_is_the_board_s_own_size(tmp_path: Path) -> None:
    out = tmp_path / "shop.pdf"
    assert main(["print-board", "--out", str(out), "--pitch", "40", "--one-page"]) == 0
    (box,) = media_boxes(out.read_bytes())
    width, height = (float(value) * 25.4 / 72 for value in box.split())
    assert width == height and 400 < width < 460


def test_the_laser_svg_has_a_hole_at_every_lamp_one_pitch_apart(tmp_path: Path) -> None:
    out = tmp_path / "cut.svg"
    assert main(["print-board", "--out", str(out), "--pitch", "30", "--holes",
                 "--hole", "5"]) == 0
    root = ElementTree.fromstring(out.read_text())
    namespace = {"svg": "http://www.w3.org/2000/svg"}
    (cut,) = [group for group in root.findall("svg:g", namespace) if group.get("id") == "cut"]
    holes = [(float(c.get("cx", 0)), float(c.get("cy", 0)), float(c.get("r", 0)))
             for c in cut.findall("svg:circle", namespace)]
    assert len(holes) == len(HardwareConfig().layout)
    assert {radius for _, _, radius in holes} == {2.5}
    # The points' lamps lie on a 30 mm grid: the nearest neighbour of each is 30 mm away.
    centres = [(x, y) for x, y, _ in holes]
    nearest = min(math.dist(a, b) for a in centres for b in centres if a != b)
    assert nearest <= 30.001
    assert any(abs(math.dist(a, b) - 30) < 0.01 for a in centres for b in centres)


@pytest.mark.parametrize(("arguments", "message"), [
    (["--pitch", "40", "--out", "big.png"], "does not fit one sheet: write .pdf"),
    (["--pitch", "10", "--out", "small.pdf"], "invalid pitch: 10.0 (expected at least 19 mm"),
    (["--piece", "-3", "--out", "b.pdf"], "invalid piece diameter: -3.0"),
    (["--holes", "--out", "b.pdf"], "--holes needs an .svg output"),
])
def test_bad_sizes_are_refused_in_one_line(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], arguments: list[str],
        message: str) -> None:
    arguments = [str(tmp_path / a) if a.endswith((".png", ".pdf")) else a for a in arguments]
    assert main(["print-board", *arguments]) == 2
    error = capsys.readouterr().err
    assert message in error and error.count("\n") == 1
