"""The lamp map: every lamp drawn full size where it goes under the board."""

from __future__ import annotations

import math
import xml.etree.ElementTree as ElementTree

import pytest

from hardware.chain import Chain
from hardware.lamp_map import lamp_map_svg
from hardware.lamps import LampLayout

SVG = "{http://www.w3.org/2000/svg}"


def lamp_centres(svg: str) -> dict[str, tuple[float, float]]:
    """Each lamp's circle centre in the drawing, mm (SVG axes: y down)."""
    centres = {}
    for group in ElementTree.fromstring(svg).iter(f"{SVG}g"):
        name = (group.get("id") or "").removeprefix("lamp-")
        circle = group.find(f"{SVG}circle")
        if name and circle is not None:
            centres[name] = (float(circle.get("cx", "nan")), float(circle.get("cy", "nan")))
    return centres


@pytest.mark.parametrize("pitch", [19.0, 40.0])
def test_lamps_are_drawn_a_pitch_apart_with_a1_bottom_left(pitch: float) -> None:
    centres = lamp_centres(lamp_map_svg(LampLayout(6), pitch_mm=pitch))
    a1, b1, a2, f6 = (centres[name] for name in ("a1", "b1", "a2", "f6"))
    assert b1[0] - a1[0] == pytest.approx(pitch, abs=0.01)
    assert a1[1] - a2[1] == pytest.approx(pitch, abs=0.01)  # rank 2 above rank 1
    assert math.dist(a1, f6) == pytest.approx(5 * pitch * math.sqrt(2), abs=0.02)


def test_loop_lamps_are_drawn_on_their_loop() -> None:
    pitch = 19.0
    centres = lamp_centres(lamp_map_svg(LampLayout(6), pitch_mm=pitch))
    for index in range(3):
        assert math.dist(centres[f"inner-sw-{index}"], centres["a1"]) == pytest.approx(pitch, 0.01)
    for index in range(5):
        distance = math.dist(centres[f"outer-ne-{index}"], centres["f6"])
        assert distance == pytest.approx(2 * pitch, abs=0.01)
    # Index 0 sits next to the loop's row end.
    assert math.dist(centres["outer-ne-0"], centres["f4"]) < math.dist(
        centres["outer-ne-0"], centres["d6"]
    )


def test_the_whole_drawing_fits_its_stated_size() -> None:
    pitch = 19.0
    svg = lamp_map_svg(LampLayout(6), Chain.of(LampLayout(6)), pitch_mm=pitch)
    root = ElementTree.fromstring(svg)
    width = float(root.get("width", "0mm").removesuffix("mm"))
    assert all(0 < x < width and 0 < y < width for x, y in lamp_centres(svg).values())


@pytest.mark.parametrize("pitch", [0.0, -1.0, math.nan, math.inf])
def test_a_pitch_that_is_not_a_length_is_refused(pitch: float) -> None:
    with pytest.raises(ValueError, match="invalid pitch"):
        lamp_map_svg(LampLayout(6), pitch_mm=pitch)
