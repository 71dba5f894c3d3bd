"""LED drivers on mock pins: the bits that reach a model of the 74HC595 chain, GPIO LEDs."""

from __future__ import annotations

from collections.abc import Callable

import pytest
from gpiozero.pins.mock import MockFactory

from hardware.chain import Chain, output_label
from hardware.chip_model import ShiftRegisterChainModel
from hardware.drivers import GpioLamps, LampDriver, ShiftRegisterChain, SpiShiftRegisterChain
from hardware.lamps import LampLayout

DATA, CLOCK, LATCH = 17, 27, 22
SPI_MOSI, SPI_CLOCK, SPI_CE0 = 10, 11, 8


def bitbanged(
    factory: MockFactory, chain: Chain
) -> tuple[ShiftRegisterChain, ShiftRegisterChainModel]:
    model = ShiftRegisterChainModel(factory, data=DATA, clock=CLOCK, latch=LATCH, chips=chain.chips)
    return ShiftRegisterChain(chain, DATA, CLOCK, LATCH, pin_factory=factory), model


def over_spi(
    factory: MockFactory, chain: Chain
) -> tuple[SpiShiftRegisterChain, ShiftRegisterChainModel]:
    model = ShiftRegisterChainModel(
        factory, data=SPI_MOSI, clock=SPI_CLOCK, latch=SPI_CE0, chips=chain.chips
    )
    return SpiShiftRegisterChain(chain, pin_factory=factory), model


Builder = Callable[[MockFactory, Chain], tuple[LampDriver, ShiftRegisterChainModel]]
BUILDERS: list[Builder] = [bitbanged, over_spi]


@pytest.mark.parametrize("build", BUILDERS)
def test_chain_starts_dark_and_a_frame_lights_exactly_its_outputs(
    mock_factory: MockFactory, build: Builder
) -> None:
    chain = Chain.of(LampLayout(6))
    driver, model = build(mock_factory, chain)
    assert model.lit_outputs() == []
    # Default order: a1 b1 c1 d1 e1 f1 f2 e2 | d2 c2 b2 a2 ...; loops from output 36.
    driver.write({"a1": 1.0, "e2": 1.0, "b2": 0.4, "outer-sw-4": 1.0, "c3": 0.0})
    assert model.lit_outputs() == [0, 7, 10, 67]
    assert model.clock_pulses == 2 * 72  # nine chips, every bit shifted each frame
    driver.close()
    assert model.lit_outputs() == []


@pytest.mark.parametrize("build", BUILDERS)
def test_every_lamp_reaches_its_own_output(mock_factory: MockFactory, build) -> None:  # type: ignore[no-untyped-def]
    layout = LampLayout(6)
    chain = Chain.of(layout)
    driver, model = build(mock_factory, chain)
    outputs = set()
    for name in layout.names:
        driver.write({name: 1.0})
        assert len(model.lit_outputs()) == 1, name
        (output,) = model.lit_outputs()
        assert output == chain.output_of(name)
        outputs.add(output)
    assert len(outputs) == 68
    driver.close()


def test_custom_chain_order_with_spares_and_extra_chips(mock_factory: MockFactory) -> None:
    layout = LampLayout(6, inner_loop_lamps=0, outer_loop_lamps=0)
    points = list(layout.names)
    # The builder wired f6 first, left two outputs free, then the rest in reverse.
    order = ["f6", None, None, *reversed(points[:-1])]
    chain = Chain.of(layout, order, chips=6)
    assert chain.chips == 6 and len(chain.outputs) == 48
    driver, model = bitbanged(mock_factory, chain)
    driver.write({"f6": 1.0, "e6": 1.0, "a1": 1.0})
    assert model.lit_outputs() == [0, 3, 37]
    assert output_label(37) == "chip 5 QF"


def test_unchanged_frames_are_not_shifted_again(mock_factory: MockFactory) -> None:
    driver, model = bitbanged(mock_factory, Chain.of(LampLayout(6)))
    driver.write({"c4": 1.0})
    driver.write({"c4": 0.7})  # same on/off pattern
    assert model.latches == 2
    driver.write({"c4": 1.0, "d4": 1.0})
    assert model.latches == 3


def test_output_enable_pin_stays_off_until_the_chain_is_cleared(mock_factory: MockFactory) -> None:
    chain = Chain.of(LampLayout(6))
    enable = mock_factory.pin(4)
    model = ShiftRegisterChainModel(
        mock_factory, data=DATA, clock=CLOCK, latch=LATCH, chips=chain.chips
    )
    driver = ShiftRegisterChain(chain, DATA, CLOCK, LATCH, enable_pin=4, pin_factory=mock_factory)
    # OE is active low: high while the chips hold power-up noise, low once cleared.
    assert [state.state for state in enable.states][-2:] == [True, False]
    assert model.latches == 1
    driver.close()
    assert enable.function == "input"


def test_chain_order_problems() -> None:
    layout = LampLayout(6)
    with pytest.raises(ValueError, match="chain shorter than the layout: 1 of 68"):
        Chain.of(layout, layout.names[1:])
    with pytest.raises(ValueError, match="not on this board: 'g7'"):
        Chain.of(layout, [*layout.names, "g7"])
    with pytest.raises(ValueError, match="more than once: 'a1'"):
        Chain.of(layout, [*layout.names, "a1"])
    with pytest.raises(ValueError, match="chip count: 8"):
        Chain.of(layout, chips=8)


def test_gpio_leds_follow_the_frame(mock_factory: MockFactory) -> None:
    driver = GpioLamps({"c4": 5, "d4": 6}, pin_factory=mock_factory)
    driver.write({"c4": 0.3})
    assert mock_factory.pin(5).state and not mock_factory.pin(6).state
    driver.write({"d4": 1.0})
    assert not mock_factory.pin(5).state and mock_factory.pin(6).state
    driver.close()
    assert not mock_factory.pin(6).state


def test_dimmable_gpio_leds_show_brightness(pwm_factory: MockFactory) -> None:
    driver = GpioLamps({"c4": 12}, dimmable=True, pin_factory=pwm_factory)
    assert driver.is_dimmable
    driver.write({"c4": 0.25})
    assert pwm_factory.pin(12).state == pytest.approx(0.25)
    driver.close()
