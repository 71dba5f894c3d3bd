"""The LED scene's named layers and the refresh loop, on a hand-driven clock."""

from __future__ import annotations

import threading

from gpiozero.pins.mock import MockFactory

from hardware.chain import Chain, Frame
from hardware.chip_model import ShiftRegisterChainModel
from hardware.drivers import NullLamps, ShiftRegisterChain
from hardware.effects import Blink, Chase, Pulse, Steady
from hardware.lamps import LampLayout
from hardware.scene import LampRefresher, LedScene
from tests.conftest import FakeClock


def test_named_layers_coexist_and_clear_separately() -> None:
    clock = FakeClock(100.0)
    scene = LedScene(clock=clock)
    scene.show("hint", Steady(("c4", "d4")))
    scene.show("error", Blink(("b2",), period=1.0))
    assert set(scene.frame()) == {"c4", "d4", "b2"}
    scene.clear("hint")
    assert set(scene.frame()) == {"b2"}
    scene.clear("no-such-layer")
    scene.clear_all()
    assert scene.frame() == {}


def test_effects_start_when_shown() -> None:
    clock = FakeClock(50.0)
    scene = LedScene(clock=clock)
    clock.now = 50.3
    scene.show("path", Chase(("c4", "d4", "e4"), step=0.1, tail=0))
    assert set(scene.frame()) == {"c4"}
    clock.now = 50.45
    assert set(scene.frame()) == {"d4"}


def test_showing_a_layer_again_replaces_it() -> None:
    scene = LedScene(clock=FakeClock(100.0))
    scene.show("hint", Steady(("c4",)))
    scene.show("hint", Steady(("f6",)))
    assert set(scene.frame()) == {"f6"}
    assert scene.layer_names == ("hint",)


def test_priority_puts_a_layer_on_top_whenever_it_was_shown() -> None:
    clock = FakeClock(0.0)
    scene = LedScene(clock=clock)
    scene.show("error", Blink(("d4",), period=1.0), priority=10)
    scene.show("hint", Steady(("c4", "d4", "e4")))
    clock.now = 0.75  # blink off
    assert set(scene.frame()) == {"c4", "e4"}
    assert scene.layer_names == ("hint", "error")


class RecordingDriver(NullLamps):
    """Remembers every frame written and signals the first few."""

    def __init__(self, lamps: tuple[str, ...], dimmable: bool = True) -> None:
        super().__init__(lamps)
        self.frames: list[dict[str, float]] = []
        self.dimmable = dimmable
        self.written = threading.Event()

    @property
    def is_dimmable(self) -> bool:
        return self.dimmable

    def write(self, frame: Frame) -> None:
        super().write(frame)
        self.frames.append(dict(frame))
        if len(self.frames) >= 3:
            self.written.set()


def test_refresh_writes_the_frame_of_the_clock_time_for_the_driver_kind() -> None:
    clock = FakeClock(0.0)
    scene = LedScene(clock=clock)
    driver = RecordingDriver(("e5",), dimmable=False)
    refresher = LampRefresher(scene, driver)
    scene.show("hint", Pulse(("e5",), period=1.0))
    for t in (0.05, 0.3, 0.5, 0.8):
        clock.now = t
        refresher.refresh()
    # On a driver that cannot dim, a pulse is a heartbeat of full-on flashes.
    assert driver.frames == [{"e5": 1.0}, {}, {"e5": 1.0}, {}]


def test_refresher_thread_starts_and_stop_leaves_every_lamp_dark(mock_factory: MockFactory) -> None:
    chain = Chain.of(LampLayout(6))
    model = ShiftRegisterChainModel(mock_factory, data=17, clock=27, latch=22, chips=chain.chips)
    driver = ShiftRegisterChain(chain, 17, 27, 22, pin_factory=mock_factory)
    scene = LedScene()
    scene.show("path", Steady(("c4", "d6")))
    lit = threading.Event()
    original_write = driver.write

    def write(frame: Frame) -> None:
        original_write(frame)
        if frame:
            lit.set()

    driver.write = write  # type: ignore[method-assign]
    refresher = LampRefresher(scene, driver, rate_hz=200)
    with refresher:
        assert refresher.is_running
        refresher.start()  # a second start is harmless
        assert lit.wait(5.0)
        assert model.lit_outputs() == sorted([chain.output_of("c4"), chain.output_of("d6")])
    assert not refresher.is_running
    assert model.lit_outputs() == []
    # It can run again after a stop.
    refresher.start()
    refresher.stop()
    driver.close()


def test_refresh_rate_must_be_positive() -> None:
    import pytest

    with pytest.raises(ValueError, match="refresh rate: 0"):
        LampRefresher(LedScene(), NullLamps(()), rate_hz=0)
