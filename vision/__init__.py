"""Camera frames to board readings: the printed board, frame sources, calibration, reading.

Typical use::

    calibration = calibrate(VisionConfig(), start_image)
    reader, stabiliser = BoardReader(calibration), Stabiliser()
    while (frame := source.read()) is not None:
        stable = stabiliser.feed(now(), reader.read(frame))
        if stable is not None:
            ...  # hand the BoardReading to the controller

Only ``FrameReading.reading`` (present when the status is OK) and the stabiliser's
output are ``controller.reading.BoardReading`` values; everything else is vision's own.
"""

from vision.board_model import BoardModel, Paper, board_model, marker_ids, parse_paper
from vision.calibrate import Calibration, calibrate, load_calibration, save_calibration
from vision.colour import PointLabel
from vision.config import VisionConfig
from vision.errors import BadCalibration, BadImage, CalibrationFailed, CameraLost, CameraUnavailable
from vision.reader import BoardReader, FrameReading, ReadStatus
from vision.render import RenderOptions, Scene, random_scene, render
from vision.sources import (
    CameraSettings,
    CameraSpec,
    FrameSource,
    ImageFolder,
    OpenCVCapture,
    PiCamera,
    SyntheticCamera,
    load_image,
    open_camera,
    open_source,
    parse_camera,
)
from vision.stabiliser import Stabiliser

__all__ = [
    "BadCalibration",
    "BadImage",
    "BoardModel",
    "BoardReader",
    "Calibration",
    "CalibrationFailed",
    "CameraLost",
    "CameraSettings",
    "CameraSpec",
    "CameraUnavailable",
    "FrameReading",
    "FrameSource",
    "ImageFolder",
    "OpenCVCapture",
    "Paper",
    "PiCamera",
    "PointLabel",
    "ReadStatus",
    "RenderOptions",
    "Scene",
    "Stabiliser",
    "SyntheticCamera",
    "VisionConfig",
    "board_model",
    "calibrate",
    "load_calibration",
    "load_image",
    "marker_ids",
    "open_camera",
    "open_source",
    "parse_camera",
    "parse_paper",
    "random_scene",
    "render",
    "save_calibration",
]
