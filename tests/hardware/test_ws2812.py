"""WS2812 over SPI: the bit encoding, and the bytes that leave the SPI data line."""

from __future__ import annotations

import warnings
from typing import Any

import pytest
from gpiozero import Device
from gpiozero.exc import SPISoftwareFallback
from gpiozero.pins.mock import MockFactory, MockSPIDevice

from controller.decisions import Layer
from hardware.chain import Chain
from hardware.effects import Steady
from hardware.errors import HardwareError
from hardware.lamp_colours import LAYER_COLOURS
from hardware.lamps import LampLayout
from hardware.scene import LampRefresher, LedScene
from hardware.ws2812 import RESET_BYTES, Ws2812Strip, encode_ws2812, scaled


def test_each_led_bit_becomes_three_spi_bits_in_green_red_blue_order() -> None:
    # Green 0x00 -> 100 x 8, red 0xff -> 110 x 8, blue 0x00 -> 100 x 8.
    zero_byte = bytes.fromhex("924924")
    one_byte = bytes.fromhex("db6db6")
    assert encode_ws2812([(255, 0, 0)]) == zero_byte + one_byte + zero_byte
    assert encode_ws2812([(0, 0, 255), (0, 255, 0)]) == (
        zero_byte + zero_byte + one_byte + one_byte + zero_byte + zero_byte
    )
    # 0x80: only the most significant bit set -> 110 then 100 x 7.
    assert encode_ws2812([(0, 0x80, 0)])[:3] == bytes.fromhex("d24924")
    assert encode_ws2812([]) == b""


def test_bad_channel_is_refused() -> None:
    with pytest.raises(ValueError, match="256"):
        encode_ws2812([(256, 0, 0)])


def test_scaled_colour() -> None:
    assert scaled((200, 100, 50), 0.5) == (100, 50, 25)
    assert scaled((200, 100, 50), 2.0) == (200, 100, 50)


def test_strip_sends_the_encoded_frame_over_spi(mock_factory: MockFactory) -> None:
    layout = LampLayout(6, inner_loop_lamps=0, outer_loop_lamps=0)
    order = ["a1", "b1", "c1", *[n for n in layout.names if n not in ("a1", "b1", "c1")]]
    chain = Chain.of(layout, order)
    # gpiozero's mock SPI device records every bit clocked out while selected.
    listener = MockSPIDevice(clock_pin=11, mosi_pin=10, select_pin=8, pin_factory=mock_factory)
    strip = Ws2812Strip(chain, colour=(200, 100, 40), max_brightness=0.5, pin_factory=mock_factory)
    strip.write({"b1": 1.0, "c1": 0.5})
    received = bytes(
        int("".join(str(int(bit)) for bit in listener.rx_buf[i : i + 8]), 2)
        for i in range(0, len(listener.rx_buf), 8)
    )
    expected = encode_ws2812([(0, 0, 0), (100, 50, 20), (50, 25, 10)] + [(0, 0, 0)] * 37)
    assert received == expected + bytes(RESET_BYTES)
    strip.close()
    listener.close()


def test_through_the_refresher_each_layer_lights_in_its_own_colour(
        mock_factory: MockFactory) -> None:
    layout = LampLayout(6, inner_loop_lamps=0, outer_loop_lamps=0)
    order = ["a1", "b1", "c1", *[n for n in layout.names if n not in ("a1", "b1", "c1")]]
    chain = Chain.of(layout, order)
    listener = MockSPIDevice(clock_pin=11, mosi_pin=10, select_pin=8, pin_factory=mock_factory)
    strip = Ws2812Strip(chain, max_brightness=1.0, pin_factory=mock_factory)
    scene = LedScene(clock=lambda: 0.0)
    scene.show(Layer.HINT, Steady(("a1", "b1")), priority=Layer.HINT.priority)
    scene.show(Layer.FIX, Steady(("b1",)), priority=Layer.FIX.priority)
    scene.show(Layer.COMPUTER, Steady(("c1",)), priority=Layer.COMPUTER.priority)
    listener.rx_buf.clear()
    LampRefresher(scene, strip).refresh()
    received = bytes(
        int("".join(str(int(bit)) for bit in listener.rx_buf[i : i + 8]), 2)
        for i in range(0, len(listener.rx_buf), 8)
    )
    # a1 is a hint (green), b1 a point to fix (red, on top), c1 the computer's (blue).
    colours = [LAYER_COLOURS[Layer.HINT], LAYER_COLOURS[Layer.FIX], LAYER_COLOURS[Layer.COMPUTER]]
    assert received == encode_ws2812([*colours, *[(0, 0, 0)] * 37]) + bytes(RESET_BYTES)
    assert len(set(LAYER_COLOURS.values())) == len(LAYER_COLOURS)
    strip.close()
    listener.close()


class _NoHardwareSpi(MockFactory):  # type: ignore[misc]
    """Mock pins where hardware SPI cannot open: gpiozero falls back to bit-banging."""

    def spi(self, **spi_args: int) -> Any:
        warnings.warn(SPISoftwareFallback("failed to initialize hardware SPI"), stacklevel=2)
        return super().spi(**spi_args)


def test_a_strip_on_bit_banged_spi_is_refused_in_one_line(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    factory = _NoHardwareSpi()
    # gpiozero's software SPI opens its bus on the default factory.
    monkeypatch.setattr(Device, "pin_factory", factory)
    layout = LampLayout(6, inner_loop_lamps=0, outer_loop_lamps=0)
    try:
        with pytest.raises(HardwareError, match="ws2812 needs hardware SPI"):
            Ws2812Strip(Chain.of(layout), pin_factory=factory)
        # The pins were given back: the same SPI opens again.
        with pytest.warns(SPISoftwareFallback):
            factory.spi(port=0, device=0).close()
    finally:
        factory.reset()
