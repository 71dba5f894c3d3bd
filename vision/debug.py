"""The debug picture: a frame with the located grid, each point's label and the status drawn on."""

from __future__ import annotations

import cv2
import numpy as np

from vision.board_model import BoardModel
from vision.colour import PointLabel
from vision.reader import FrameReading

_LABEL_COLOURS = {
    PointLabel.EMPTY: (255, 255, 255),
    PointLabel.RED: (0, 0, 255),
    PointLabel.BLACK: (0, 0, 0),
}
_DOUBT = (0, 215, 255)


def debug_image(frame: np.ndarray, reading: FrameReading, model: BoardModel,
                confident: float) -> np.ndarray:
    """A copy of ``frame`` annotated with what the vision made of it."""
    image = frame.copy()
    if reading.homography is not None:
        last = model.size - 1
        outline = np.array([model.grid_position(x, y) for x, y in
                            ((0, 0), (last, 0), (last, last), (0, last))], np.float64)
        projected = cv2.perspectiveTransform(outline.reshape(-1, 1, 2), reading.homography)
        cv2.polylines(image, [np.round(projected).astype(np.int32)], True, (0, 200, 0), 1,
                      cv2.LINE_AA)
        centres = np.array([model.point_mm(p) for p in reading.points], np.float64)
        if len(centres):
            # Where the pieces' tops are, lens included; the homography only for old readings.
            where = (reading.image_points if reading.image_points is not None else
                     cv2.perspectiveTransform(centres.reshape(-1, 1, 2), reading.homography))
            radius = max(3, round(_pitch_px(where.reshape(-1, 2), model.size) * 0.25))
            for (x, y), point, label, confidence in zip(
                    where.reshape(-1, 2), reading.points, reading.labels, reading.confidences,
                    strict=True):
                centre = (round(float(x)), round(float(y)))
                cv2.circle(image, centre, radius, _LABEL_COLOURS[label], 2, cv2.LINE_AA)
                if confidence < confident or point in reading.doubtful:
                    cv2.drawMarker(image, centre, _DOUBT, cv2.MARKER_TILTED_CROSS, radius * 2, 2)
    text = reading.status.value if reading.reading is None else str(reading.reading)
    # A dark band behind the text keeps it readable on paper, table or hand alike.
    (width, height), baseline = cv2.getTextSize(text, cv2.FONT_HERSHEY_SIMPLEX, 0.6, 1)
    cv2.rectangle(image, (0, 0), (width + 16, height + baseline + 14), (30, 30, 30), cv2.FILLED)
    colour = (80, 230, 80) if reading.reading is not None else (80, 160, 255)
    cv2.putText(image, text, (8, height + 8), cv2.FONT_HERSHEY_SIMPLEX, 0.6, colour, 1, cv2.LINE_AA)
    return image


def _pitch_px(centres: np.ndarray, size: int) -> float:
    # Neighbouring points along the first rank.
    steps = np.linalg.norm(np.diff(centres[:size], axis=0), axis=1)
    return float(steps.mean()) if len(steps) else 10.0
