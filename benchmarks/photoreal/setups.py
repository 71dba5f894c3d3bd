"""Random setups of a condition: camera, lights, piece set, and the boards of its frames.

A setup is one camera and one lighting over the printed sheet; its frames are the
start position, hand-free frames of random boards and frames with a hand over the
board, all with new random offsets of the pieces. ``Setup.scene`` is the description
``scene_blender.py`` renders.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np
from conditions import (
    Condition,
    Lens,
    draw_lens,
    draw_lights,
    draw_skin,
    draw_table,
    draw_world,
    piece_set_named,
)
from optics import SENSOR_MM, Pose, place_camera, render_size

from controller.geometry import geometry
from controller.position import start_position
from controller.reading import BoardReading
from vision.board_model import BoardModel, extent_pitches

Spec = dict[str, Any]

MM = 0.001
"""Metres per millimetre: Blender works in metres."""
PIECE_OFFSET_PITCHES = 0.2
"""Largest distance of a piece from its point, in pitches."""
MAX_PIECES_A_SIDE = 12
START_NAME = "start"
"""Name of the start-position frame, the one vision calibrates on."""


@dataclass(frozen=True, slots=True)
class Frame:
    """One image of a setup and its truth."""

    name: str
    """File name without suffix (``start``, ``f000``, ``h000``)."""
    board: BoardReading
    """The pieces on the board (under the hand, for hand frames)."""
    pieces: list[Spec]
    """Where each piece lies and how it is turned, for Blender."""
    hand: Spec | None
    """The hand reaching over the board, or None."""


@dataclass
class Setup:
    """A camera and a lighting over the sheet, with its frames."""

    condition: str
    lens: Lens
    rendered: tuple[int, int]
    """Size of Blender's pinhole render (larger than the output when the lens distorts)."""
    scene: Spec
    """Everything but the frames, for Blender and for the truth's description."""
    frames: list[Frame] = field(default_factory=list)


def world_of(model: BoardModel, x_mm: float, y_mm: float) -> tuple[float, float]:
    """World position (metres) of a sheet position (mm from its top-left corner, y down)."""
    return (x_mm - model.paper.width / 2) * MM, (model.paper.height / 2 - y_mm) * MM


def printed_square(model: BoardModel) -> np.ndarray:
    """World corners of the printed square (markers included), for framing the camera."""
    centre_x, centre_y = model.grid_position((model.size - 1) / 2, (model.size - 1) / 2)
    half = extent_pitches(model.size) * model.pitch / 2
    corners = [(centre_x - half, centre_y - half), (centre_x + half, centre_y - half),
               (centre_x + half, centre_y + half), (centre_x - half, centre_y + half)]
    return np.array([(*world_of(model, x, y), 0.0) for x, y in corners])


def random_board(rng: np.random.Generator, size: int) -> BoardReading:
    """0-12 pieces a side on random points."""
    points = list(geometry(size).points)
    order = rng.permutation(len(points))
    reds, blacks = (int(n) for n in rng.integers(0, MAX_PIECES_A_SIDE + 1, 2))
    chosen = [points[i] for i in order[:reds + blacks]]
    red = sum(1 << p for p in chosen[:reds])
    black = sum(1 << p for p in chosen[reds:])
    return BoardReading(red, black, size)


class SetupDrawer:
    """Draws setups of conditions on one printed board."""

    def __init__(self, model: BoardModel, sheet_image: Path, samples: int) -> None:
        self.model = model
        self.sheet_image = sheet_image
        self.samples = samples

    def draw(self, rng: np.random.Generator, name: str, condition: Condition,
             piece_set: str | None) -> Setup:
        """A new camera, lighting, table and piece set for ``condition``."""
        set_name = piece_set or str(rng.choice(condition.piece_sets))
        lens = draw_lens(rng, condition.lens)
        tilt = math.radians(rng.uniform(*condition.tilt_degrees))
        azimuth, roll = (float(a) for a in rng.uniform(0, 2 * math.pi, 2))
        target = np.array([*rng.uniform(-0.01, 0.01, 2), 0.0])
        wanted_fill = float(rng.uniform(0.55, 0.95))
        pose, fill = place_camera(target, tilt, azimuth, roll, lens, printed_square(self.model),
                                  wanted_fill)
        rendered = render_size(lens)
        scene = {
            "samples": self.samples,
            "seed": int(rng.integers(1 << 30)),
            "sheet": {"image": str(self.sheet_image.resolve()),
                      "size": [self.model.paper.width * MM, self.model.paper.height * MM],
                      "roughness": float(rng.uniform(0.55, 0.8)),
                      "paper_colour": [float(v) for v in 1 - rng.uniform(0, 0.06, 3)]},
            "table": draw_table(rng),
            "lights": draw_lights(rng, condition.lights),
            "world": draw_world(rng),
            "piece_set_name": set_name,
            "piece_set": piece_set_named(set_name),
            "piece_scale": float(rng.uniform(0.85, 1.0)),
            "piece_height": float(rng.uniform(4, 7)) * MM,
            "skin": draw_skin(rng),
            "camera": self._camera(pose, lens, rendered, tilt, azimuth, roll, fill),
        }
        return Setup(name, lens, rendered, scene)

    def _camera(self, pose: Pose, lens: Lens, rendered: tuple[int, int], tilt: float,
                azimuth: float, roll: float, fill: float) -> Spec:
        return {
            "matrix_world": pose.blender_matrix(),
            "width": rendered[0], "height": rendered[1],
            "sensor_mm": SENSOR_MM,
            "lens_mm": lens.focal_pixels * SENSOR_MM / rendered[0],
            "focal_pixels": lens.focal_pixels, "k1": lens.k1, "k2": lens.k2,
            "vignetting": lens.vignetting,
            "tilt_degrees": math.degrees(tilt), "azimuth_degrees": math.degrees(azimuth),
            "roll_degrees": math.degrees(roll), "fill": fill,
            "distance_m": float(np.linalg.norm(pose.centre)),
            "rotation_world_to_camera": pose.rotation.tolist(),
            "centre_m": pose.centre.tolist(),
        }

    def add_frames(self, rng: np.random.Generator, setup: Setup, frames: int,
                   hands: int) -> None:
        """The start frame, ``frames`` random boards and ``hands`` boards with a hand over them."""
        size = self.model.size
        setup.frames.append(self._frame(rng, setup, START_NAME,
                                        BoardReading.of(start_position(size)), None))
        for index in range(frames):
            setup.frames.append(self._frame(rng, setup, f"f{index:03d}",
                                            random_board(rng, size), None))
        for index in range(hands):
            setup.frames.append(self._frame(rng, setup, f"h{index:03d}",
                                            random_board(rng, size), self._hand(rng)))

    def _frame(self, rng: np.random.Generator, setup: Setup, name: str, board: BoardReading,
               hand: Spec | None) -> Frame:
        diameter = setup.scene["piece_scale"] * self.model.disc_diameter * MM
        pieces = []
        for point in self.model.points:
            colour = board.piece_at(point)
            if colour is None:
                continue
            x_mm, y_mm = self.model.point_mm(point)
            reach = PIECE_OFFSET_PITCHES * self.model.pitch * math.sqrt(rng.random())
            angle = rng.uniform(0, 2 * math.pi)
            x, y = world_of(self.model, x_mm + reach * math.cos(angle),
                            y_mm + reach * math.sin(angle))
            pieces.append({"side": colour.name.lower(), "x": x, "y": y,
                           "diameter": diameter * float(rng.uniform(0.99, 1.01)),
                           "height": setup.scene["piece_height"],
                           "turn": float(rng.uniform(0, 2 * math.pi)),
                           "variant": int(rng.integers(1000))})
        return Frame(name, board, pieces, hand)

    def _hand(self, rng: np.random.Generator) -> Spec:
        """A hand reaching from a random side towards a point of the grid."""
        span = self.model.span * MM / 2
        return {"target": [float(v) for v in rng.uniform(-span, span, 2)],
                "from_angle": float(rng.integers(4) * math.pi / 2 + rng.uniform(-0.5, 0.5)),
                "palm_height": float(rng.uniform(0.03, 0.09)),
                "arm_rise": float(rng.uniform(0.04, 0.12)),
                "scale": float(rng.uniform(0.9, 1.1)),
                "curl": float(rng.uniform(0.0, 1.0)),
                "thumb_side": float(rng.choice([-1.0, 1.0]))}
