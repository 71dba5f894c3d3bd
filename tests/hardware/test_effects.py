"""Effects over time, computed by the pure ``frame_at`` (no threads, no clock)."""

from __future__ import annotations

import pytest

from hardware.effects import Blink, Chase, Pulse, Steady, frame_at

PATH = ("c4", "d4", "e4", "f4", "outer-ne-0", "d6")


def lit(effects: list, t: float, dimmable: bool = True) -> set[str]:  # type: ignore[type-arg]
    return set(frame_at(effects, t, dimmable=dimmable))


def test_steady_lamps_stay_on() -> None:
    effect = Steady(("c4", "d6"), brightness=0.6)
    assert frame_at([effect], 0.0) == {"c4": 0.6, "d6": 0.6}
    assert frame_at([effect], 1234.5) == {"c4": 0.6, "d6": 0.6}


def test_blink_alternates_from_its_start() -> None:
    effect = Blink(("b2",), period=0.5, start=10.0)
    assert [bool(lit([effect], 10.0 + k * 0.25 + 0.01)) for k in range(6)] == [
        True, False, True, False, True, False,
    ]  # fmt: skip


def test_chase_runs_along_the_path_in_travel_order() -> None:
    effect = Chase(PATH, step=0.1, tail=0, pause=2, start=5.0)
    heads = []
    for k in range(len(PATH) + 2 + 2):
        frame = frame_at([effect], 5.0 + k * 0.1 + 0.05)
        heads.append(next(iter(frame)) if frame else None)
    # Each lamp in turn, a pause of two dark steps, then from the start again.
    assert heads == [*PATH, None, None, "c4", "d4"]


def test_a_chase_of_one_run_then_stays_lit() -> None:
    effect = Chase(PATH, step=0.1, tail=0, pause=2, runs=1)
    during = [lit([effect], k * 0.1 + 0.05) for k in range(len(PATH))]
    assert all(len(frame) == 1 for frame in during)  # a head running along the path
    assert lit([effect], len(PATH) * 0.1 + 0.05) == set(PATH)
    assert lit([effect], 60.0) == set(PATH)


def test_chase_tail_fades_behind_the_head_on_a_dimmable_driver() -> None:
    effect = Chase(PATH, step=0.1, tail=2)
    frame = frame_at([effect], 0.35)  # head on the fourth lamp
    assert frame == pytest.approx({"f4": 1.0, "e4": 2 / 3, "d4": 1 / 3})
    assert frame_at([effect], 0.35, dimmable=False) == {"f4": 1.0, "e4": 1.0, "d4": 1.0}


def test_chase_background_keeps_the_whole_path_dimly_lit() -> None:
    effect = Chase(PATH, step=0.1, tail=0, background=0.2)
    frame = frame_at([effect], 0.05)
    assert frame["c4"] == 1.0 and set(frame) == set(PATH)
    assert frame["d6"] == 0.2


def test_pulse_breathes_in_brightness_when_the_driver_can_dim() -> None:
    effect = Pulse(("e5",), period=1.0, floor=0.1)
    levels = [frame_at([effect], t)["e5"] for t in (0.0, 0.25, 0.5, 0.75)]
    assert levels == pytest.approx([0.1, 0.55, 1.0, 0.55])


def test_pulse_flashes_a_heartbeat_when_the_driver_cannot_dim() -> None:
    effect = Pulse(("e5",), period=1.0)
    pattern = [bool(lit([effect], k / 20 + 0.01, dimmable=False)) for k in range(20)]
    # Two long flashes early in each period, then darkness: unlike a blink.
    assert pattern[:14] == [True] * 5 + [False] * 3 + [True] * 5 + [False]
    assert not any(pattern[14:])
    assert sum(pattern) >= 10  # lit more than half the time: a glance catches it
    blink = [bool(lit([Blink(("e5",), period=1.0)], k / 20 + 0.01)) for k in range(20)]
    assert pattern != blink


def test_later_layers_decide_their_own_lamps() -> None:
    hint = Steady(("c4", "d4", "e4"))
    error = Blink(("d4",), period=1.0)
    on, off = 0.25, 0.75
    assert lit([hint, error], on) == {"c4", "d4", "e4"}
    # The blinking error lamp goes dark even though it is on the hint path.
    assert lit([hint, error], off) == {"c4", "e4"}
    # Order matters: the hint on top hides the blink.
    assert lit([error, hint], off) == {"c4", "d4", "e4"}


def test_no_effects_no_light() -> None:
    assert frame_at([], 3.0) == {}
