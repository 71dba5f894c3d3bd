import re
import struct
import xml.etree.ElementTree as ElementTree

import cv2
import numpy as np

from vision import aruco
from vision.board_model import board_model, marker_ids
from vision.sheet import pdf_bytes, png_bytes, rasterise, svg_text


def test_png_is_a4_at_300_dpi_and_says_so() -> None:
    data = png_bytes(board_model(6))
    image = cv2.imdecode(np.frombuffer(data, np.uint8), cv2.IMREAD_GRAYSCALE)
    assert image.shape == (3508, 2480)
    chunk = data.index(b"pHYs")
    x_per_metre, y_per_metre, unit = struct.unpack(">IIB", data[chunk + 4:chunk + 13])
    assert (x_per_metre, y_per_metre, unit) == (11811, 11811, 1)


def test_printed_markers_are_found_with_the_board_ids() -> None:
    for size in (6, 7):
        sheet = rasterise(board_model(size), 2.0)
        _, ids = aruco.detector("DICT_4X4_50", lambda parameters: None).detect(sheet)
        assert ids is not None and sorted(ids.ravel()) == list(marker_ids(size))


def test_svg_has_the_grid_the_loops_and_the_markers() -> None:
    root = ElementTree.fromstring(svg_text(board_model(7)))
    tags = [element.tag.split("}")[1] for element in root.iter()]
    assert tags.count("line") == 14
    assert tags.count("path") == 8
    assert tags.count("rect") > 4 * 5  # background plus the markers' black runs
    assert root.get("width") == "210mm"


def test_pdf_cross_reference_table_points_at_its_objects() -> None:
    data = pdf_bytes(board_model(6))
    assert data.startswith(b"%PDF-1.4") and data.rstrip().endswith(b"%%EOF")
    start = int(re.search(rb"startxref\n(\d+)", data).group(1))  # type: ignore[union-attr]
    assert data[start:start + 4] == b"xref"
    offsets = [int(line[:10]) for line in data[start:].split(b"\n")[3:8]]
    for number, offset in enumerate(offsets, start=1):
        assert data[offset:].startswith(f"{number} 0 obj".encode())
    assert b"/MediaBox [0 0 595.276 841.890]" in data
