"""Photoreal renders of the printed board with Blender Cycles, for the vision benchmark.

Usage:
    .venv/bin/python benchmarks/photoreal/generate.py --out DIR [--conditions a,b]
        [--setups N] [--frames M] [--hands K] [--samples S] [--seed S]
        [--piece-set NAME] [--quality Q] [--size 6|7] [--no-markers] [--blender PATH]

For each condition it draws N setups (camera, lens, lights, table, piece set), renders
the start position, M hand-free frames of random boards and K frames with a hand
reaching over the board, all of one setup in one Blender process, then applies the
lens distortion, the camera's exposure, white balance, noise and JPEG. The result is
written in the shared folder format of renders:

    DIR/<condition>/<setup>/truth.json, start.jpg, f000.jpg ..., h000.jpg ...

It prints the seconds per frame: Blender's render time, and the whole time per frame
including Blender's start-up and the development of the images.
"""

from __future__ import annotations

import argparse
import json
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
import zlib
from pathlib import Path
from typing import Any

import numpy as np
from conditions import CONDITIONS, condition_named, piece_set_named
from darkroom import Darkroom, draw_camera_response
from setups import START_NAME, Setup, SetupDrawer

from controller.errors import SurakartaError
from vision.board_model import Paper, board_model
from vision.sheet import MM_PER_INCH, PNG_DPI, png_bytes

# The folder format is shared with the other renderers' benchmarks, in benchmarks/render_set.py.
sys.path.append(str(Path(__file__).resolve().parents[2]))
from benchmarks.render_set import TRUTH_FILE, RenderedFrame, truth_document

SCENE_SCRIPT = Path(__file__).resolve().with_name("scene_blender.py")
DEFAULT_SAMPLES = 12
"""Cycles samples per pixel: clean enough under our own sensor noise, a few seconds a frame."""


class BlenderMissing(SurakartaError, OSError):
    """Blender is not installed (or not where we were told)."""


class RenderFailed(SurakartaError, RuntimeError):
    """Blender exited with an error."""


def find_blender(given: str | None) -> str:
    """The Blender executable to run; raises BlenderMissing."""
    found = shutil.which(given or "blender")
    if found is None:
        raise BlenderMissing(f"blender not found: {given or 'blender'!r} "
                             "(install it with apt-get install blender)")
    return found


def run_blender(blender: str, scene_file: Path) -> list[float]:
    """Render a scene file; the seconds Blender spent on each frame."""
    command = [blender, "-b", "--factory-startup", "-P", str(SCENE_SCRIPT), "--", str(scene_file)]
    result = subprocess.run(command, capture_output=True, text=True, check=False)
    times = [float(line.split()[-1]) for line in result.stdout.splitlines()
             if line.startswith("RENDERED ")]
    if result.returncode != 0 or "Traceback" in result.stderr + result.stdout:
        output = (result.stderr + result.stdout).splitlines()
        # Blender's last words are "Blender quit"; the cause is the error line before them.
        lines = [line for line in output if line.strip() and "Blender quit" not in line]
        raise RenderFailed(f"blender failed on {str(scene_file)!r}: "
                           f"{lines[-1] if lines else 'exit code ' + str(result.returncode)}")
    return times


def read_raw_render(path: Path, size: tuple[int, int]) -> np.ndarray:
    """Linear RGB rows from the top, from Blender's raw float RGBA rows from the bottom."""
    width, height = size
    pixels = np.fromfile(path, np.float32)
    if pixels.size != width * height * 4:
        raise RenderFailed(f"render has the wrong size: {str(path)!r} "
                           f"({pixels.size} values for {width}x{height} RGBA)")
    return pixels.reshape(height, width, 4)[::-1, :, :3]


def truth_of(setup: Setup, size: int, look_alike: bool, response: dict[str, Any]) -> dict[str, Any]:
    """The setup's truth.json in the shared folder format."""
    scene = {key: value for key, value in setup.scene.items() if key != "sheet"}
    scene["camera_response"] = response
    scene["world_axes"] = ("metres; sheet centre at the origin, +x to the sheet's right, "
                           "+y to its top, +z up from the paper")
    frames = [RenderedFrame(f"{frame.name}.jpg", frame.board, frame.hand is not None)
              for frame in setup.frames if frame.name != START_NAME]
    return truth_document(setup.condition, size, look_alike, frames, scene,
                          start=f"{START_NAME}.jpg")


class Generator:
    """Renders setups into the folder format, timing every step."""

    def __init__(self, args: argparse.Namespace, blender: str) -> None:
        self.args = args
        self.blender = blender
        self.model = board_model(args.size, Paper.A4)
        self.render_seconds: list[float] = []
        self.frame_seconds: list[float] = []

    def write_sheet(self) -> Path:
        """The printed sheet PNG (300 dpi) and its model in the PNG's pixels, written once."""
        sheet: Path = self.args.out / "sheet.png"
        sheet.write_bytes(png_bytes(self.model, markers=not self.args.no_markers))
        model_json = self.model.to_json(pixels_per_mm=PNG_DPI / MM_PER_INCH)
        (self.args.out / "model.json").write_text(json.dumps(model_json, indent=1) + "\n",
                                                   encoding="utf-8")
        return sheet

    def run(self, conditions: list[str]) -> None:
        self.args.out.mkdir(parents=True, exist_ok=True)
        drawer = SetupDrawer(self.model, self.write_sheet(), self.args.samples)
        # Setup by setup across the conditions, so a set cut short still covers all of them.
        for setup_index in range(self.args.setups):
            for name in conditions:
                # Seeded by the condition's name: a setup is the same whichever others are made.
                rng = np.random.default_rng([self.args.seed, zlib.crc32(name.encode()),
                                             setup_index])
                setup = drawer.draw(rng, name, condition_named(name), self.args.piece_set)
                drawer.add_frames(rng, setup, self.args.frames, self.args.hands)
                folder = self.args.out / name / f"s{setup_index:02d}"
                self.render_setup(rng, setup, folder)

    def render_setup(self, rng: np.random.Generator, setup: Setup, folder: Path) -> None:
        started = time.perf_counter()
        folder.mkdir(parents=True, exist_ok=True)
        response = draw_camera_response(rng, self.args.quality)
        darkroom = Darkroom(setup.lens, setup.rendered, response, rng)
        with tempfile.TemporaryDirectory(prefix="photoreal-") as scratch:
            scene = dict(setup.scene)
            scene["frames"] = [{"output": str(Path(scratch) / f"{frame.name}.rgba"),
                                "pieces": frame.pieces, "hand": frame.hand}
                               for frame in setup.frames]
            scene_file = Path(scratch) / "scene.json"
            scene_file.write_text(json.dumps(scene), encoding="utf-8")
            times = run_blender(self.blender, scene_file)
            for frame in setup.frames:
                linear = read_raw_render(Path(scratch) / f"{frame.name}.rgba", setup.rendered)
                darkroom.save(linear, folder / f"{frame.name}.jpg")
        look_alike = setup.scene["piece_set_name"] == "white-cream"
        truth = truth_of(setup, self.model.size, look_alike, response.describe())
        (folder / TRUTH_FILE).write_text(json.dumps(truth, indent=1) + "\n", encoding="utf-8")
        elapsed = time.perf_counter() - started
        self.render_seconds += times
        self.frame_seconds.append(elapsed / len(setup.frames))
        print(f"{folder}: {len(setup.frames)} frames, {setup.scene['piece_set_name']}, "
              f"render {statistics.median(times):.1f} s/frame, all in {elapsed:.0f} s "
              f"({elapsed / len(setup.frames):.1f} s/frame)", flush=True)

    def report(self) -> None:
        if not self.render_seconds:
            return
        print(f"frames: {len(self.render_seconds)}; Blender render median "
              f"{statistics.median(self.render_seconds):.1f} s/frame; with start-up and "
              f"development median {statistics.median(self.frame_seconds):.1f} s/frame "
              f"({self.args.samples} samples)")


def parse_arguments(argv: list[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--out", type=Path, required=True, help="folder to write the set to")
    parser.add_argument("--conditions", default=",".join(CONDITIONS),
                        help=f"comma-separated conditions (default: all: {','.join(CONDITIONS)})")
    parser.add_argument("--setups", type=int, default=4, help="setups per condition (default: 4)")
    parser.add_argument("--frames", type=int, default=4,
                        help="hand-free frames per setup besides the start (default: 4)")
    parser.add_argument("--hands", type=int, default=2, help="hand frames per setup (default: 2)")
    parser.add_argument("--samples", type=int, default=DEFAULT_SAMPLES,
                        help=f"Cycles samples per pixel (default: {DEFAULT_SAMPLES})")
    parser.add_argument("--seed", type=int, default=1, help="random seed (default: 1)")
    parser.add_argument("--piece-set", help="use this piece set in every setup "
                        "(default: drawn per setup from the condition's sets)")
    parser.add_argument("--quality", type=int, default=90, help="JPEG quality (default: 90)")
    parser.add_argument("--size", type=int, default=6, choices=(6, 7),
                        help="lines per side (default: 6)")
    parser.add_argument("--no-markers", action="store_true",
                        help="a sheet without its markers: a board found by its lines alone")
    parser.add_argument("--blender", help="Blender executable (default: blender on the PATH)")
    args = parser.parse_args(argv)
    for name, value in (("--setups", args.setups), ("--frames", args.frames),
                        ("--hands", args.hands)):
        if value < 0:
            parser.error(f"{name} must not be negative: {value}")
    if args.samples < 1 or not 1 <= args.quality <= 100:
        parser.error("--samples must be at least 1 and --quality between 1 and 100")
    return args


def main(argv: list[str] | None = None) -> int:
    args = parse_arguments(argv)
    try:
        conditions = [name.strip() for name in args.conditions.split(",") if name.strip()]
        for name in conditions:
            condition_named(name)
        if args.piece_set is not None:
            piece_set_named(args.piece_set)
        generator = Generator(args, find_blender(args.blender))
        generator.run(conditions)
        generator.report()
    except (SurakartaError, OSError) as error:
        print(f"generate: {error}", file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main())
