"""Frame readings the colours left doubtful, made by hand for the stabiliser and the loop."""

from __future__ import annotations

from controller.geometry import geometry, parse_point
from controller.reading import BoardReading
from vision.colour import PointLabel
from vision.reader import LABEL_OF_COLOUR, FrameReading, ReadStatus


def doubtful(board: BoardReading, choices: dict[str, tuple[PointLabel, ...]]) -> FrameReading:
    """A frame of ``board`` on clear paper with the points named in ``choices`` unsure: read
    as their first choice (as on ``board`` when they have none), which may hold any of them."""
    points = geometry(board.size).points
    named = {parse_point(name, board.size): labels for name, labels in choices.items()}
    labels = tuple((*named.get(p, ()), LABEL_OF_COLOUR[board.piece_at(p)])[0] for p in points)
    return FrameReading(
        ReadStatus.DOUBTFUL, None, points=points, labels=labels,
        confidences=tuple(0.6 if p in named else 1.0 for p in points),
        doubtful=tuple(p for p in points if p in named),
        choices=tuple(named[p] for p in points if p in named), paper_clear=True)
