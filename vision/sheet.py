"""The printed sheet as a list of shapes in mm, and its raster, SVG and PDF renderings.

The board model says where things are; this module says what gets drawn there. The
shapes are few and simple (lines, 3/4-circle arcs, filled rectangles, text), so the
SVG and the PDF are written by hand as text: vector output at any scale without
a drawing library. The PDF uses the built-in Helvetica font and approximates arcs
by cubic Bézier curves (four segments per 3/4 circle, error far below a printer dot).
"""

from __future__ import annotations

import math
import struct
import zlib
from dataclasses import dataclass
from functools import cache
from pathlib import Path

import cv2
import numpy as np

from vision import aruco
from vision.board_model import ARUCO_DICTIONARY, BoardModel, LoopArc

MM_PER_INCH = 25.4
PNG_DPI = 300
LABEL_HEIGHT_PITCHES = 0.35
"""Height of the coordinate letters, in pitches."""


@dataclass(frozen=True, slots=True)
class Line:
    """A straight printed line."""

    start: tuple[float, float]
    """One end, mm."""
    end: tuple[float, float]
    """The other end, mm."""
    width: float
    """Stroke width, mm."""


@dataclass(frozen=True, slots=True)
class Arc:
    """A printed circular arc (a loop)."""

    loop: LoopArc
    """Centre, radius and angles."""
    width: float
    """Stroke width, mm."""


@dataclass(frozen=True, slots=True)
class Box:
    """A filled black rectangle (a marker cell)."""

    left: float
    """x of the left edge, mm."""
    top: float
    """y of the top edge, mm."""
    width: float
    """Width, mm."""
    height: float
    """Height, mm."""


@dataclass(frozen=True, slots=True)
class Label:
    """A short text, centred on a position."""

    text: str
    """What it says (ASCII)."""
    centre: tuple[float, float]
    """Where its centre is, mm."""
    height: float
    """Cap height, mm."""


Shape = Line | Arc | Box | Label


@cache
def _marker_bits(marker_id: int) -> np.ndarray:
    """The marker's cells (border included) as a boolean array, True for black."""
    cells = 6  # 4x4 data bits plus one border cell on each side
    image = aruco.marker_image(ARUCO_DICTIONARY, marker_id, cells)
    return np.asarray(image < 128)


def sheet_shapes(model: BoardModel, markers: bool = True) -> list[Shape]:
    """Everything printed on the sheet (``markers`` False: a board drawn without them)."""
    shapes = board_shapes(model, markers)
    title = f"Surakarta {model.size}x{model.size} - pitch {model.pitch:g} mm - print at 100%"
    shapes.append(Label(title, (model.paper.width / 2, 12.0), 3.0))
    return shapes


def board_shapes(model: BoardModel, markers: bool = True) -> list[Shape]:
    """The board's drawing: lines, loops, markers (unless ``markers`` is False) and
    coordinates (no title)."""
    shapes: list[Shape] = []
    width = model.line_width
    last = model.size - 1
    for i in range(model.size):
        shapes.append(Line(model.grid_position(i, 0), model.grid_position(i, last), width))
        shapes.append(Line(model.grid_position(0, i), model.grid_position(last, i), width))
    shapes.extend(Arc(loop, width) for loop in model.loop_arcs())
    for marker_id, corners in (model.markers() if markers else {}).items():
        bits = _marker_bits(marker_id)
        cell = model.marker_side / bits.shape[0]
        left, top = corners[0]
        for row in range(bits.shape[0]):
            # One box per horizontal run of black cells keeps the vector files small.
            column = 0
            while column < bits.shape[1]:
                if not bits[row, column]:
                    column += 1
                    continue
                run = column
                while run < bits.shape[1] and bits[row, run]:
                    run += 1
                shapes.append(
                    Box(left + column * cell, top + row * cell, (run - column) * cell, cell)
                )
                column = run
    height = LABEL_HEIGHT_PITCHES * model.pitch
    shapes.extend(Label(text, centre, height) for text, centre in model.label_positions())
    return shapes


# ----------------------------------------------------------------- raster


def rasterise(model: BoardModel, pixels_per_mm: float, markers: bool = True) -> np.ndarray:
    """The sheet as a greyscale image (white paper, black print) at ``pixels_per_mm``."""
    shape = (round(model.paper.height * pixels_per_mm), round(model.paper.width * pixels_per_mm))
    image = np.full(shape, 255, np.uint8)
    draw_shapes(image, sheet_shapes(model, markers), pixels_per_mm)
    return image


_SHIFT = 4  # cv2 drawing with 4 fractional bits: positions to 1/16 pixel
_ONE = 1 << _SHIFT


def _fixed(xy: tuple[float, float], scale: float) -> tuple[int, int]:
    return round(xy[0] * scale * _ONE), round(xy[1] * scale * _ONE)


def _edge(mm: float, scale: float) -> int:
    return math.floor(mm * scale + 0.5 + 1e-6)


def draw_shapes(image: np.ndarray, shapes: list[Shape], pixels_per_mm: float) -> None:
    """Draw the shapes in black onto ``image`` (in place)."""
    ink = 0 if image.ndim == 2 else (0, 0, 0)
    scale = pixels_per_mm
    for shape in shapes:
        if isinstance(shape, Line):
            thickness = max(1, round(shape.width * scale))
            cv2.line(image, _fixed(shape.start, scale), _fixed(shape.end, scale), ink, thickness,
                     cv2.LINE_AA, _SHIFT)
        elif isinstance(shape, Arc):
            loop = shape.loop
            radius = round(loop.radius * scale * _ONE)
            cv2.ellipse(image, _fixed(loop.centre, scale), (radius, radius), 0.0,
                        loop.start_degrees, loop.start_degrees + loop.sweep_degrees, ink,
                        max(1, round(shape.width * scale)), cv2.LINE_AA, _SHIFT)
        elif isinstance(shape, Box):
            # Edges rounded half up with a little slack, so that two cells meeting at a
            # pixel's half agree on it despite float noise (no white seam between them),
            # and clamped: a box partly off the image (a tile's neighbour) must not wrap.
            x0, y0 = max(0, _edge(shape.left, scale)), max(0, _edge(shape.top, scale))
            x1 = _edge(shape.left + shape.width, scale)
            y1 = _edge(shape.top + shape.height, scale)
            if x1 > x0 and y1 > y0:
                image[y0:y1, x0:x1] = ink
        else:
            _draw_label(image, shape, scale, ink)


def _draw_label(image: np.ndarray, label: Label, scale: float, ink: int | tuple[int, ...]) -> None:
    font = cv2.FONT_HERSHEY_SIMPLEX
    font_scale = label.height * scale / 22.0  # Hershey simplex capitals are ~22 units high
    thickness = max(1, round(font_scale * 2))
    (width, height), _ = cv2.getTextSize(label.text, font, font_scale, thickness)
    x = round(label.centre[0] * scale - width / 2)
    y = round(label.centre[1] * scale + height / 2)
    cv2.putText(image, label.text, (x, y), font, font_scale, ink, thickness, cv2.LINE_AA)


def png_bytes(model: BoardModel, dpi: int = PNG_DPI, markers: bool = True) -> bytes:
    """The sheet as a greyscale PNG at ``dpi``, with the resolution recorded in the file."""
    image = rasterise(model, dpi / MM_PER_INCH, markers)
    ok, encoded = cv2.imencode(".png", image)
    if not ok:
        raise OSError("could not encode the board as PNG")
    return _with_resolution(encoded.tobytes(), dpi)


def _with_resolution(png: bytes, dpi: int) -> bytes:
    """Insert a pHYs chunk after IHDR so printers print the sheet at its true size."""
    per_metre = round(dpi / 0.0254)
    body = b"pHYs" + struct.pack(">IIB", per_metre, per_metre, 1)
    chunk = struct.pack(">I", 9) + body + struct.pack(">I", zlib.crc32(body))
    ihdr_end = 8 + 4 + 4 + 13 + 4  # signature, IHDR length, type, data, crc
    return png[:ihdr_end] + chunk + png[ihdr_end:]


# -------------------------------------------------------------------- SVG


def _arc_endpoints(loop: LoopArc) -> tuple[tuple[float, float], tuple[float, float]]:
    def at(degrees: float) -> tuple[float, float]:
        radians = math.radians(degrees)
        return (loop.centre[0] + loop.radius * math.cos(radians),
                loop.centre[1] + loop.radius * math.sin(radians))

    return at(loop.start_degrees), at(loop.start_degrees + loop.sweep_degrees)


def svg_text(model: BoardModel) -> str:
    """The sheet as an SVG document sized in mm."""
    return svg_document(sheet_shapes(model), model.paper.width, model.paper.height)


def svg_document(shapes: list[Shape], width: float, height: float,
                 holes: list[tuple[float, float]] | None = None, hole_diameter: float = 0.0,
                 outline: bool = False) -> str:
    """``shapes`` as an SVG document ``width`` by ``height`` mm.

    ``holes`` (centres, mm) are drawn as red hairline circles and ``outline`` as a red
    hairline rectangle round the page: the cut layer of a laser cutter or a CNC router,
    whose software tells it from the black drawing (engraved) by the colour.
    """
    out = [
        '<?xml version="1.0" encoding="UTF-8"?>',
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{width:g}mm" height="{height:g}mm" '
        f'viewBox="0 0 {width:g} {height:g}">',
        f'<rect x="0" y="0" width="{width:g}" height="{height:g}" fill="white"/>',
        '<g id="engrave" stroke="black" fill="none" stroke-linecap="round">',
    ]
    for shape in shapes:
        if isinstance(shape, Line):
            out.append(f'<line x1="{shape.start[0]:.3f}" y1="{shape.start[1]:.3f}" '
                       f'x2="{shape.end[0]:.3f}" y2="{shape.end[1]:.3f}" '
                       f'stroke-width="{shape.width:.3f}"/>')
        elif isinstance(shape, Arc):
            (x0, y0), (x1, y1) = _arc_endpoints(shape.loop)
            r = shape.loop.radius
            out.append(f'<path d="M {x0:.3f} {y0:.3f} A {r:.3f} {r:.3f} 0 1 1 {x1:.3f} {y1:.3f}" '
                       f'stroke-width="{shape.width:.3f}"/>')
    out.append('</g>\n<g fill="black" stroke="none">')
    for shape in shapes:
        if isinstance(shape, Box):
            out.append(f'<rect x="{shape.left:.3f}" y="{shape.top:.3f}" '
                       f'width="{shape.width:.3f}" height="{shape.height:.3f}"/>')
    out.append('</g>\n<g fill="black" font-family="Helvetica, Arial, sans-serif" '
               'text-anchor="middle">')
    for shape in shapes:
        if isinstance(shape, Label):
            # Cap height is about 0.72 of the font size in Helvetica.
            size = shape.height / 0.72
            baseline = shape.centre[1] + shape.height / 2
            out.append(f'<text x="{shape.centre[0]:.3f}" y="{baseline:.3f}" '
                       f'font-size="{size:.3f}">{shape.text}</text>')
    out.append("</g>")
    if holes or outline:
        out.append('<g id="cut" stroke="red" fill="none" stroke-width="0.1">')
        out.extend(f'<circle cx="{x:.3f}" cy="{y:.3f}" r="{hole_diameter / 2:.3f}"/>'
                   for x, y in holes or [])
        if outline:
            out.append(f'<rect x="0" y="0" width="{width:g}" height="{height:g}"/>')
        out.append("</g>")
    out.append("</svg>\n")
    return "\n".join(out)


# -------------------------------------------------------------------- PDF

_PT_PER_MM = 72 / MM_PER_INCH
_HELVETICA_AVERAGE_WIDTH = 0.56  # average advance of digits and lower-case letters, in ems


def _bezier_arc(loop: LoopArc) -> list[tuple[float, float]]:
    """Control points (after the start point) of the arc as cubic Bézier segments."""
    segments = 4
    step = math.radians(loop.sweep_degrees / segments)
    k = 4 / 3 * math.tan(step / 4)
    cx, cy = loop.centre
    r = loop.radius
    points: list[tuple[float, float]] = []
    angle = math.radians(loop.start_degrees)
    for _ in range(segments):
        a0, a1 = angle, angle + step
        p0 = (cx + r * math.cos(a0), cy + r * math.sin(a0))
        p3 = (cx + r * math.cos(a1), cy + r * math.sin(a1))
        points.append((p0[0] - k * r * math.sin(a0), p0[1] + k * r * math.cos(a0)))
        points.append((p3[0] + k * r * math.sin(a1), p3[1] - k * r * math.cos(a1)))
        points.append(p3)
        angle = a1
    return points


def pdf_ops(shapes: list[Shape], page_height: float,
            clip: tuple[float, float, float, float] | None = None) -> str:
    """PDF drawing operators of ``shapes`` on a page ``page_height`` mm high, drawn only
    inside ``clip`` (left, top, width, height in mm) when it is given."""
    def pt(xy: tuple[float, float]) -> str:
        # PDF's y axis points up; the shapes' points down.
        return f"{xy[0] * _PT_PER_MM:.3f} {(page_height - xy[1]) * _PT_PER_MM:.3f}"

    ops = ["q"]
    if clip is not None:
        left, top, width, height = clip
        ops.append(f"{pt((left, top + height))} {width * _PT_PER_MM:.3f} "
                   f"{height * _PT_PER_MM:.3f} re W n")
    ops.append("1 J 1 j 0 G 0 g")
    for shape in shapes:
        if isinstance(shape, Line):
            ops.append(f"{shape.width * _PT_PER_MM:.3f} w {pt(shape.start)} m {pt(shape.end)} l S")
        elif isinstance(shape, Arc):
            (start, _) = _arc_endpoints(shape.loop)
            controls = _bezier_arc(shape.loop)
            path = [f"{shape.width * _PT_PER_MM:.3f} w {pt(start)} m"]
            for i in range(0, len(controls), 3):
                path.append(" ".join(pt(p) for p in controls[i:i + 3]) + " c")
            ops.append(" ".join(path) + " S")
        elif isinstance(shape, Box):
            ops.append(f"{pt((shape.left, shape.top + shape.height))} "
                       f"{shape.width * _PT_PER_MM:.3f} {shape.height * _PT_PER_MM:.3f} re f")
        else:
            size = shape.height / 0.72 * _PT_PER_MM
            text_width = len(shape.text) * _HELVETICA_AVERAGE_WIDTH * size
            x = shape.centre[0] * _PT_PER_MM - text_width / 2
            y = (page_height - shape.centre[1] - shape.height / 2) * _PT_PER_MM
            escaped = shape.text.replace("\\", "\\\\").replace("(", "\\(").replace(")", "\\)")
            ops.append(f"BT /F1 {size:.3f} Tf {x:.3f} {y:.3f} Td ({escaped}) Tj ET")
    ops.append("Q")
    return "\n".join(ops) + "\n"


@dataclass(frozen=True, slots=True)
class Page:
    """One page of a PDF document."""

    width: float
    """mm."""
    height: float
    """mm."""
    ops: str
    """Its drawing, PDF operators (see :func:`pdf_ops`)."""


def pdf_bytes(model: BoardModel) -> bytes:
    """The sheet as a one-page vector PDF."""
    height = model.paper.height
    return pdf_document([Page(model.paper.width, height, pdf_ops(sheet_shapes(model), height))])


def pdf_document(pages: list[Page]) -> bytes:
    """A vector PDF of ``pages``, in order."""
    count = len(pages)
    # Objects: 1 catalog, 2 page tree, 3 font, then a page and its contents per page.
    kids = " ".join(f"{4 + 2 * i} 0 R" for i in range(count))
    objects = [
        b"<< /Type /Catalog /Pages 2 0 R >>",
        f"<< /Type /Pages /Kids [{kids}] /Count {count} >>".encode("ascii"),
        b"<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>",
    ]
    for i, page in enumerate(pages):
        content = zlib.compress(page.ops.encode("ascii"))
        objects.append(
            (f"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 {page.width * _PT_PER_MM:.3f} "
             f"{page.height * _PT_PER_MM:.3f}] /Resources << /Font << /F1 3 0 R >> >> "
             f"/Contents {5 + 2 * i} 0 R >>").encode("ascii"))
        objects.append(f"<< /Length {len(content)} /Filter /FlateDecode >>\nstream\n"
                       .encode("ascii") + content + b"\nendstream")
    out = bytearray(b"%PDF-1.4\n%\xe2\xe3\xcf\xd3\n")
    offsets = []
    for number, body in enumerate(objects, start=1):
        offsets.append(len(out))
        out += f"{number} 0 obj\n".encode("ascii") + body + b"\nendobj\n"
    xref = len(out)
    out += f"xref\n0 {len(objects) + 1}\n0000000000 65535 f \n".encode("ascii")
    for offset in offsets:
        out += f"{offset:010d} 00000 n \n".encode("ascii")
    out += (f"trailer\n<< /Size {len(objects) + 1} /Root 1 0 R >>\n"
            f"startxref\n{xref}\n%%EOF\n").encode("ascii")
    return bytes(out)


def write_sheet(model: BoardModel, path: Path) -> None:
    """Write the sheet to ``path``; the format follows the suffix (.png, .svg or .pdf)."""
    suffix = path.suffix.lower()
    if suffix == ".png":
        path.write_bytes(png_bytes(model))
    elif suffix == ".svg":
        path.write_text(svg_text(model), encoding="utf-8")
    elif suffix == ".pdf":
        path.write_bytes(pdf_bytes(model))
    else:
        raise ValueError(f"unsupported output format: {str(path)!r} (expected .png, .svg or .pdf)")
