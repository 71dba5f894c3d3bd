"""An experiment: does a small network read the points the colour model leaves unsure?

Usage:
    .venv/bin/python benchmarks/photoreal/train_classifier.py extract DIR... --out DATA.npz
    PYTHON_WITH_TORCH benchmarks/photoreal/train_classifier.py train DATA.npz... \
        --out MODEL.onnx [--epochs N] [--seed S] [--hold-out SHARE]
    .venv/bin/python benchmarks/photoreal/train_classifier.py evaluate DATA.npz... \
        --model MODEL.onnx [--sure P]

``extract`` reads folders in the renders' format (``benchmarks/render_set.py``: Blender
renders from ``generate.py``, or the room renderer's from ``vision_rooms.py --write``).
Each setup is calibrated on its start image (setups that are refused are left out: the
board would not read them either), and for the start image and each hand-free frame it
keeps every point's patch and reference colours (``point_patches.py``), the label the
truth gives, and whether the calibrated colour reader left the point doubtful. ``train``
fits a small convolutional network to them with PyTorch (``pip install torch onnx`` in
any environment that has this project's packages; the board never needs it) and writes
it as ONNX, which OpenCV's ``dnn`` module runs. Each example is shown with its two sets
swapped as often as not, so that the network tells them by the references, and turned
and mirrored. ``evaluate`` prints the share of points read right and of those read
surely (at least ``--sure``), and the same for the points the colour reader left
doubtful: the ones a network would be asked about, where a sure and wrong answer is a
wrong board.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

import cv2
import numpy as np

_ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(_ROOT))

from point_patches import (  # noqa: E402
    BadModel,
    PointClassifier,
    StartReferences,
    TrainingData,
    centre_colours,
    relative_patches,
    report,
)

from benchmarks.render_set import BadRenderSet, RenderedSetup, read_render_set  # noqa: E402
from controller.errors import SurakartaError  # noqa: E402
from controller.position import start_position  # noqa: E402
from controller.reading import BoardReading  # noqa: E402
from vision.calibrate import Calibration, calibrate, start_labels  # noqa: E402
from vision.colour import LABELS  # noqa: E402
from vision.config import VisionConfig  # noqa: E402
from vision.reader import LABEL_OF_COLOUR, BoardReader  # noqa: E402
from vision.sampling import remap, sample_board, sampling_layout, view_maps  # noqa: E402

Frame = tuple[np.ndarray, np.ndarray, np.ndarray]
"""A frame's patches, true labels and doubtful points."""


def extract(folders: list[Path], out: Path) -> int:
    """Write every point of every hand-free frame under ``folders`` to ``out``."""
    config = VisionConfig()
    parts: list[list[np.ndarray]] = [[] for _ in TrainingData._fields]
    refused = 0
    for group, setup in enumerate(setup for folder in folders
                                  for setup in read_render_set(folder)):
        if setup.look_alike:
            continue
        try:
            calibration = calibrate(config, setup.image(setup.start))
        except SurakartaError:
            refused += 1
            continue
        frames, channels = _frames(config, calibration, setup)
        for patches, truth, unsure in frames:
            for part, values in zip(parts, (patches.astype(np.float16),
                                            channels.astype(np.float16), truth.astype(np.int8),
                                            np.full(len(truth), group, np.int32), unsure),
                                    strict=True):
                part.append(values)
        print(f"{setup.folder}: {len(frames)} frames", flush=True)
    if not parts[0]:
        print("extract: no frames found", file=sys.stderr)
        return 2
    data = TrainingData(*(np.concatenate(part) for part in parts))
    np.savez_compressed(out, **data._asdict())
    print(f"{len(data.labels)} points written to {out}, {int(data.doubtful.sum())} of them "
          f"doubtful; {refused} setups refused at calibration")
    return 0


def _frames(config: VisionConfig, calibration: Calibration, setup: RenderedSetup
            ) -> tuple[list[Frame], np.ndarray]:
    """The start image's points, then each hand-free frame's, of a calibrated setup, and the
    reference colours the start image gives every point (``StartReferences.channels``)."""
    model = calibration.model
    layout = sampling_layout(config, calibration.size)
    maps = view_maps(layout, model, calibration.camera, calibration.piece_height)
    reader = BoardReader(calibration, config)
    boards = [(setup.start, BoardReading.of(start_position(calibration.size)))]
    boards += [(frame.file, frame.board) for frame in setup.frames
               if not frame.hand and frame.board is not None]
    frames = []
    for file, board in boards:
        image = setup.image(file)
        patches = relative_patches(layout, remap(image, maps.tops),
                                   sample_board(layout, image, maps).paper_round)
        truth = np.array([LABELS.index(LABEL_OF_COLOUR[board.piece_at(point)])
                          for point in model.points])
        doubtful = reader.read(image).doubtful
        frames.append((patches, truth, np.array([point in doubtful for point in model.points])))
    channels = StartReferences(layout.point_grid, centre_colours(layout, frames[0][0]),
                               start_labels(calibration.size)).channels()
    return frames, channels


def load(paths: list[Path]) -> TrainingData:
    """Every file's points, concatenated (setup numbers kept apart between files)."""
    parts: list[list[np.ndarray]] = [[] for _ in TrainingData._fields]
    offset = 0
    for path in paths:
        with np.load(path) as data:
            for part, name in zip(parts, TrainingData._fields, strict=True):
                part.append(data[name] + offset if name == "groups" else data[name])
            offset += int(data["groups"].max()) + 1
    return TrainingData(*(np.concatenate(part) for part in parts))


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    commands = parser.add_subparsers(dest="command", required=True)
    extracting = commands.add_parser("extract", help="renders to training data")
    extracting.add_argument("folders", type=Path, nargs="+")
    extracting.add_argument("--out", type=Path, required=True)
    training = commands.add_parser("train", help="training data to an ONNX model")
    training.add_argument("data", type=Path, nargs="+")
    training.add_argument("--out", type=Path, required=True)
    training.add_argument("--epochs", type=int, default=30)
    training.add_argument("--seed", type=int, default=1)
    training.add_argument("--hold-out", type=float, default=0.15,
                          help="share of setups kept out of training to report on")
    evaluating = commands.add_parser("evaluate", help="a model's accuracy on training data")
    evaluating.add_argument("data", type=Path, nargs="+")
    evaluating.add_argument("--model", type=Path, required=True)
    evaluating.add_argument("--sure", type=float, default=0.97,
                            help="least probability of a sure answer (default 0.97)")
    args = parser.parse_args(argv)
    cv2.setNumThreads(1)
    try:
        if args.command == "extract":
            return extract(args.folders, args.out)
        if args.command == "evaluate":
            report(PointClassifier(args.model), load(args.data), args.sure)
            return 0
        # Only training needs PyTorch: imported here, on that path.
        from network_training import train
        return train(load(args.data), args.out, args.epochs, args.seed, args.hold_out)
    except (BadRenderSet, BadModel, OSError, KeyError) as error:
        print(f"train_classifier: {error}", file=sys.stderr)
        return 2


if __name__ == "__main__":
    sys.exit(main())
