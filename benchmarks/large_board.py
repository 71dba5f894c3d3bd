"""A board of real size: printed over A4 sheets, glued, and read by the camera.

Usage: .venv/bin/python benchmarks/large_board.py [--piece MM] [--boards N] [--seed S]

The board for pieces ``--piece`` mm across (default 25) is laid over A4 sheets as
``surakarta print-board --piece 25`` prints it; the sheets are rasterised as a
printer prints them (nothing in the margins), trimmed along their dashed lines and
glued as their notes say (``vision.tiles.glued``). The rendered camera then sees
that glued board: calibration on the start position, then random positions in
clean scenes and in hard ones (tilt, light, shadows, noise, blur, JPEG).

Floors: the board is at least 30 cm across its loops and prints on at most 4 A4
sheets; calibration succeeds; every clean board is read right; at least 99% of the
hard boards read are right.
"""

from __future__ import annotations

import argparse
import importlib.util
import sys
from functools import cache
from pathlib import Path
from types import ModuleType

import numpy as np

# benchmarks/vision.py would shadow the ``vision`` package: drop this folder from the path.
_HERE = Path(__file__).resolve().parent
sys.path[:] = [entry for entry in sys.path if Path(entry or ".").resolve() != _HERE]

from controller.position import start_position  # noqa: E402
from controller.reading import BoardReading  # noqa: E402
from vision.board_model import Paper  # noqa: E402
from vision.calibrate import calibrate  # noqa: E402
from vision.config import VisionConfig  # noqa: E402
from vision.reader import BoardReader  # noqa: E402
from vision.render import RenderOptions, Scene, random_scene, render  # noqa: E402
from vision.tiles import LargeBoard, glued, large_board, pitch_for_piece, tiling  # noqa: E402

GLUED_PIXELS_PER_MM = 3.0


@cache
def _vision_benchmark() -> ModuleType:
    spec = importlib.util.spec_from_file_location("vision_benchmark", _HERE / "vision.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # its dataclasses look their module up there
    spec.loader.exec_module(module)
    return module


def random_board(rng: np.random.Generator, size: int) -> BoardReading:
    """Random boards as benchmarks/vision.py draws them."""
    board: BoardReading = _vision_benchmark().random_board(rng, size)
    return board


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--piece", type=float, default=25.0, help="piece diameter, mm")
    parser.add_argument("--boards", type=int, default=40, help="random boards per set")
    parser.add_argument("--seed", type=int, default=19)
    args = parser.parse_args()
    board = large_board(6, pitch_for_piece(args.piece))
    layout = tiling(board.side, Paper.A4)
    sheets = layout.rows * layout.columns
    across = (board.size - 1 + 4) * board.pitch
    print(f"board: pitch {board.pitch:g} mm, {across:.0f} mm across its loops, "
          f"{board.side:.0f} mm square drawn, {sheets} A4 sheets "
          f"({layout.rows} x {layout.columns})")
    # The renderer draws in the A4 sheet's millimetres: the glued board, k times larger,
    # is the same image from k times further away (see vision.tiles).
    model = board.model
    k = board.scale
    per_mm = GLUED_PIXELS_PER_MM * k
    canvas = np.full((round(model.paper.height * per_mm), round(model.paper.width * per_mm)),
                     255, np.uint8)
    drawing = glued(board, layout, GLUED_PIXELS_PER_MM)
    left, top = (round(value * per_mm) for value in _origin(board))
    # The drawing's blank border may reach a hair past the A4 frame's edge: crop it there.
    drawing = drawing[max(0, -top):, max(0, -left):]
    left, top = max(0, left), max(0, top)
    height = min(drawing.shape[0], canvas.shape[0] - top)
    width = min(drawing.shape[1], canvas.shape[1] - left)
    canvas[top:top + height, left:left + width] = drawing[:height, :width]
    config = VisionConfig()
    calibration = calibrate(config, render(start_position(6), Scene(), canvas, per_mm))
    print(f"calibration: ok (pieces' tops {calibration.piece_height * k:.1f} mm up, "
          "in the glued board's mm)")
    rng = np.random.default_rng(args.seed)
    results = {}
    for preset in ("clean", "hard"):
        read = right = 0
        for _ in range(args.boards):
            truth = random_board(rng, 6)
            scene = random_scene(rng, RenderOptions.preset(preset), size=6)
            frame = BoardReader(calibration, config).read(render(truth, scene, canvas, per_mm))
            if frame.reading is not None:
                read += 1
                right += frame.reading == truth
        results[preset] = (read, right)
        print(f"{preset:<6}: {right}/{read} boards right of {args.boards} frames")
    checks = [
        ("at least 30 cm across its loops", across >= 300),
        ("at most 4 A4 sheets", sheets <= 4),
        ("every clean board right", results["clean"][1] == args.boards),
        ("99% of the hard boards read are right",
         results["hard"][1] >= 0.99 * max(1, results["hard"][0])),
    ]
    for name, ok in checks:
        print(f"floor: {name}: {'ok' if ok else 'FAIL'}")
    return 0 if all(ok for _, ok in checks) else 1


def _origin(board: LargeBoard) -> tuple[float, float]:
    """Where the glued drawing's top-left corner lies in the A4 sheet's millimetres."""
    model = board.model
    middle = (model.size - 1) * model.pitch / 2
    half = board.side / 2 / board.scale
    return model.grid_left + middle - half, model.grid_top + middle - half


if __name__ == "__main__":
    sys.exit(main())
