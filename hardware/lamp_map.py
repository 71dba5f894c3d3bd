"""A drawing of where each lamp goes under the board, as SVG text (print it 1:1 as a drill plan).

Each lamp is a circle with its name and, when a chain is given, its output on
the chain (``#12``, chip 2 QE), so the drawing doubles as a wiring sheet.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from xml.sax.saxutils import escape

from controller.errors import BadOption
from controller.geometry import geometry
from hardware.chain import Chain, output_label
from hardware.lamps import LampKind, LampLayout, loop_arc

MARGIN = 2.9
"""Space round the board in pitch units: the large loops reach 2 pitches out."""


def _arc_path(cx: float, cy: float, radius: float, start: float, sweep: float) -> str:
    """SVG path data of an arc in board units (y up), converted by the caller's transform."""
    steps = 36
    points = []
    for i in range(steps + 1):
        angle = math.radians(start + sweep * i / steps)
        points.append(f"{cx + radius * math.cos(angle):.3f},{cy + radius * math.sin(angle):.3f}")
    return "M" + " L".join(points)


def lamp_map_svg(
    layout: LampLayout,
    chain: Chain | None = None,
    *,
    pitch_mm: float,
    place: Callable[[int], str] = output_label,
) -> str:
    """The SVG drawing of ``layout``'s lamps (with chain outputs if ``chain`` is given).

    ``place`` names where an output is wired: a shift-register pin (the default)
    or ``strip_label`` for a WS2812 strip.

    ``pitch_mm`` is the distance between neighbouring points on the board the
    lamps go under; it has no default because a drill plan at any other pitch
    misses the points (``surakarta lamp-map`` takes it from the printed sheet).

    Raises BadOption for a pitch that is not a positive, finite number of mm.
    """
    # NaN and infinity slip past a "> 0" test and would write an SVG of "nanmm".
    if not (math.isfinite(pitch_mm) and pitch_mm > 0):
        raise BadOption(f"invalid pitch: {pitch_mm!r} (expected more than 0 mm)")
    size = layout.size
    span = size - 1 + 2 * MARGIN
    width = span * pitch_mm
    # Board units: a1 at (0, 0), y up. The group transform maps them to SVG millimetres.
    transform = f"translate({MARGIN * pitch_mm:.3f} {(size - 1 + MARGIN) * pitch_mm:.3f}) "
    transform += f"scale({pitch_mm:.3f} {-pitch_mm:.3f})"
    lines = [
        '<?xml version="1.0" encoding="UTF-8"?>',
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{width:.1f}mm" height="{width:.1f}mm" '
        f'viewBox="0 0 {width:.3f} {width:.3f}">',
        f"<title>Surakarta {size}x{size} lamp map: {len(layout)} lamps</title>",
        f'<g transform="{transform}" fill="none" stroke="#999" stroke-width="0.02">',
    ]
    for i in range(size):
        lines.append(f'<line x1="0" y1="{i}" x2="{size - 1}" y2="{i}"/>')
        lines.append(f'<line x1="{i}" y1="0" x2="{i}" y2="{size - 1}"/>')
    for loop in geometry(size).loops:
        lines.append(f'<path d="{_arc_path(*loop_arc(size, loop))}"/>')
    lines.append("</g>")

    def svg_xy(x: float, y: float) -> tuple[float, float]:
        return ((x + MARGIN) * pitch_mm, (size - 1 - y + MARGIN) * pitch_mm)

    font = pitch_mm * 0.16
    for lamp in layout:
        x, y = svg_xy(lamp.x, lamp.y)
        colour = "#d22" if lamp.kind is LampKind.POINT else "#e80"
        label = escape(lamp.name)
        lines.append(f'<g id="lamp-{label}">')
        lines.append(
            f'<circle cx="{x:.2f}" cy="{y:.2f}" r="{pitch_mm * 0.0625:.2f}" fill="{colour}"/>'
        )
        lines.append(
            f'<text x="{x:.2f}" y="{y - pitch_mm * 0.1:.2f}" font-size="{font:.2f}" '
            f'text-anchor="middle" font-family="sans-serif">{label}</text>'
        )
        if chain is not None and lamp.name in chain.lamps:
            output = chain.output_of(lamp.name)
            lines.append(
                f'<text x="{x:.2f}" y="{y + pitch_mm * 0.22:.2f}" font-size="{font * 0.8:.2f}" '
                f'text-anchor="middle" font-family="sans-serif" fill="#06c">'
                f"#{output} {place(output)}</text>"
            )
        lines.append("</g>")
    lines.append("</svg>")
    return "\n".join(lines) + "\n"
