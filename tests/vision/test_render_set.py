"""The shared folder format of rendered frames: what is written is read back."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

from benchmarks.render_set import BadRenderSet, SetupWriter, read_render_set, read_setup
from controller.position import start_position
from controller.reading import BoardReading


def grey(level: int) -> np.ndarray:
    return np.full((24, 32, 3), level, np.uint8)


def test_a_written_setup_reads_back_with_its_truth(tmp_path: Path) -> None:
    start = BoardReading.of(start_position(6))
    board = BoardReading.parse("6/6/2b3/3r2/6/6")
    writer = SetupWriter(tmp_path / "window" / "s00", "window", 6, False, {"lights": 1})
    writer.start(grey(200))
    writer.frame(grey(100), board, hand=False)
    writer.frame(grey(50), start, hand=True)
    writer.close()

    truth = json.loads((tmp_path / "window" / "s00" / "truth.json").read_text())
    assert truth["format"] == "surakarta-renders" and truth["version"] == 1
    assert truth["frames"][0] == {"file": "f000.jpg", "board": "6/6/2b3/3r2/6/6", "hand": False}
    assert truth["frames"][1] == {"file": "h000.jpg", "board": start.board_string(), "hand": True}

    (setup,) = list(read_render_set(tmp_path))
    assert (setup.condition, setup.size, setup.look_alike) == ("window", 6, False)
    assert [(f.board, f.hand) for f in setup.frames] == [(board, False), (start, True)]
    assert abs(float(setup.image(setup.start).mean()) - 200) < 3
    assert abs(float(setup.image("h000.jpg").mean()) - 50) < 3
    assert setup.scene == {"lights": 1}


def test_a_broken_truth_file_is_a_clear_error(tmp_path: Path) -> None:
    folder = tmp_path / "ceiling" / "s00"
    folder.mkdir(parents=True)
    (folder / "truth.json").write_text(json.dumps({"format": "surakarta-renders", "version": 2}))
    with pytest.raises(BadRenderSet, match="unsupported version 2"):
        read_setup(folder)
    (folder / "truth.json").write_text("{")
    with pytest.raises(BadRenderSet, match="is not JSON"):
        read_setup(folder)
    with pytest.raises(BadRenderSet, match="no folder of renders"):
        list(read_render_set(tmp_path / "missing"))
