"""``surakarta run --check`` refuses every config value that ``run`` would refuse.

A config the check calls valid must start a board (its pipeline opened: pins, lamps,
buttons, buzzer, engine, calibration, referee, journal); one it refuses must be refused
by ``run`` with the check's first line. What only the machine decides (which camera is
plugged in, whether the pins exist) is left out: the board gets mock pins and a
rendered camera, as a Pi with its parts wired would give it.
"""

from __future__ import annotations

import tempfile
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from controller.errors import SurakartaError
from firmware.app import BoardApp
from firmware.cli import main
from firmware.config import check_config, load_config
from hardware.mock import mock_pins
from tests.conftest import FakeClock, real_calibration_text
from tests.fuzz import KEYS, both_tiers, toml_numbers, toml_value
from vision.render import Scene, render

CALIBRATION = "calibration.json"
"""A real calibration file beside the config (a 6x6 board's)."""

PLAUSIBLE: dict[str, list[Any]] = {
    "source": ["synthetic", "usb", "folder", "file", "picamera"], "device": [0, 1, 300],
    "path": ["frames", "", "~/x"], "width": [320, 640, 0], "height": [240, 480, 0],
    "fps": [2, 10.0, 0.5], "calibration": [CALIBRATION, "none.json"],
    "hold_seconds": [0.3, 1], "variant": ["standard", "sepur", "borobudur"],
    "mode": ["two-player", "computer-red", "computer-black"], "level": [1, 5, 10],
    "no_capture_limit": [50, 0], "repetition": [3, 0], "show_danger": [True],
    "seconds": [0.05, 1], "players": [["board", "engine:2"]], "games": [1, 3],
    "target": [2], "counting": ["games", "pieces"], "swap_colours": [True],
    "records": ["games", "."],
    "driver": ["shift-register", "spi-shift-register", "gpio", "ws2812", "none"],
    "board_size": [6, 7, 8], "chips": [9, 12, 1], "refresh_hz": [50, 200.0],
    "data_pin": [17, 2, 27], "clock_pin": [27, 3], "latch_pin": [22], "enable_pin": [4, 17],
    "spi_device": [0, 1], "inner_loop_lamps": [3, 0], "dimmable": [True],
    "ws2812_brightness": [0.25, 1.0], "ws2812_colour": [[255, 150, 60]],
    "chain": [["a1", "-", "b1"]], "buttons": [{"hint": 5, "undo": 6}, {"new": 17}],
    "buzzer": [{"kind": "tonal", "pin": 18}, {"kind": "plain", "pin": 17}],
    "lamp_pins": [{"a1": 5}, {"a1": 5, "b1": 5}],
}
"""Values of each key that a person might write: mostly valid, some a little off."""

other_values: st.SearchStrategy[Any] = st.one_of(
    toml_numbers, st.text(max_size=6), st.booleans(),
    st.lists(st.integers(-2, 30), max_size=3),
)


@st.composite
def configs(draw: st.DrawFn) -> str:
    lines = ['[camera]\nsource = "synthetic"', f'calibration = "{CALIBRATION}"'] if draw(
        st.booleans()) else []
    for section in draw(st.lists(st.sampled_from(sorted(KEYS)), unique=True, max_size=4)):
        if section == "camera" and lines:
            continue
        lines.append(f"[{section}]")
        for key in draw(st.lists(st.sampled_from(KEYS[section]), unique=True, max_size=4)):
            plausible = PLAUSIBLE.get(key, [])
            value = draw(st.sampled_from(plausible) if plausible and draw(
                st.integers(0, 4)) else other_values)
            lines.append(f"{key} = {toml_value(value)}")
    return "\n".join(lines) + "\n"


class RenderedCamera:
    """The start position, rendered small: a camera that always works."""

    def __init__(self, size: int) -> None:
        from controller import start_position

        self.frame = render(start_position(size), Scene(width=320, height=240))

    def read(self) -> Any:
        return self.frame

    def close(self) -> None:
        pass


def _run_and_check_agree(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                         calibrations_learnt_once: None, text: str) -> None:
    monkeypatch.setenv("HOME", str(tmp_path))  # "~" paths and the default journal
    folder = Path(tempfile.mkdtemp(dir=tmp_path))
    (folder / CALIBRATION).write_text(real_calibration_text())
    path = folder / "board.toml"
    # A relative journal (the default is in the home folder) keeps each example apart.
    if "[journal]" not in text:
        text += '[journal]\npath = "journal.json"\n'
    path.write_text(text, encoding="utf-8")
    problems = check_config(path)
    if problems:
        try:
            load_config(path)
        except SurakartaError as error:
            assert str(error).endswith(problems[0]), "run says what the check said first"
            return
        raise AssertionError(f"the check refused what run accepts: {problems}")
    config = load_config(path)
    size = config.game.variant.size
    with mock_pins() as pins:  # the default factory too: software SPI opens its bus there
        try:
            app = BoardApp(config, pins, FakeClock(step=0.1), lambda: RenderedCamera(size),
                           sleep=lambda seconds: None)  # a close waits for the sounds
        except (SurakartaError, OSError) as error:
            raise AssertionError(f"the check called valid a config run refuses: {error}") from None
        try:
            app.hardware.start()
            app.session.start(0.0)
            app.step()
        finally:
            app.close()


test_run_refuses_only_what_the_check_refuses, test_run_and_check_agree_long = both_tiers(
    given(text=configs()), fast=15, long=100)(_run_and_check_agree)


def test_the_check_names_each_problem_run_would_stop_at(
    tmp_path: Path, capsys: Any
) -> None:
    path = tmp_path / "board.toml"
    path.write_text('[camera]\nfps = inf\n[engine]\nseconds = 1e400\n[journal]\npath = ""\n')
    assert main(["run", "--check", "--config", str(path)]) == 2
    checked = capsys.readouterr().err.splitlines()
    assert len(checked) == 3, checked
    assert main(["run", "--config", str(path)]) == 2
    assert capsys.readouterr().err.strip() == f"surakarta run: {checked[0]}"
