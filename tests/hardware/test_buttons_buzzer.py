"""Buttons reach their handlers; the buzzer's sounds are distinct and really played."""

from __future__ import annotations

import itertools

import pytest
from gpiozero.pins.mock import MockFactory

from hardware.buttons import ButtonName, ButtonPanel
from hardware.buzzer import SOUND_PATTERNS, Sound, SoundPlayer, envelope

PINS = {ButtonName.HINT: 5, ButtonName.UNDO: 6, ButtonName.NEW: 13, ButtonName.MODE: 19}


def press(factory: MockFactory, pin: int) -> None:
    factory.pin(pin).drive_low()
    factory.pin(pin).drive_high()


def test_each_button_press_reaches_the_handler_with_its_name(mock_factory: MockFactory) -> None:
    presses: list[ButtonName] = []
    panel = ButtonPanel(PINS, presses.append, pin_factory=mock_factory)
    for pin in (13, 5, 19, 6, 5):
        press(mock_factory, pin)
    assert presses == [
        ButtonName.NEW, ButtonName.HINT, ButtonName.MODE, ButtonName.UNDO, ButtonName.HINT
    ]  # fmt: skip
    panel.close()


def test_without_a_handler_presses_queue_up(mock_factory: MockFactory) -> None:
    panel = ButtonPanel(PINS, pin_factory=mock_factory)
    press(mock_factory, 6)
    press(mock_factory, 19)
    assert panel.presses.get_nowait() is ButtonName.UNDO
    assert panel.presses.get_nowait() is ButtonName.MODE
    assert panel.presses.empty()
    seen: list[ButtonName] = []
    panel.set_handler(seen.append)
    press(mock_factory, 5)
    assert seen == [ButtonName.HINT] and panel.presses.empty()
    panel.close()


def test_buttons_are_pulled_up_and_debounced(mock_factory: MockFactory) -> None:
    panel = ButtonPanel({ButtonName.HINT: 5}, bounce_time=0.03, pin_factory=mock_factory)
    pin = mock_factory.pin(5)
    assert pin.pull == "up" and pin.bounce == pytest.approx(0.03)
    assert panel.fitted == (ButtonName.HINT,)
    panel.close()
    presses: list[ButtonName] = []
    panel = ButtonPanel({ButtonName.HINT: 5}, presses.append, pin_factory=mock_factory)
    panel.close()
    press(mock_factory, 5)
    assert presses == []  # a closed panel delivers nothing


def test_every_event_has_a_sound_and_no_two_sound_alike() -> None:
    assert set(SOUND_PATTERNS) == set(Sound)
    for first, second in itertools.combinations(Sound, 2):
        assert SOUND_PATTERNS[first] != SOUND_PATTERNS[second]
        # Also distinct on a plain buzzer, which only hears the rhythm.
        assert envelope(SOUND_PATTERNS[first]) != envelope(SOUND_PATTERNS[second])


def test_envelope_merges_notes_into_on_off_spans() -> None:
    assert envelope((("C6", 0.2), ("G5", 0.1), (None, 0.05), ("C6", 0.1))) == (
        (True, 0.3), (False, 0.05), (True, 0.1)
    )  # fmt: skip


class PinWatch:
    """An injected sleep that records what the buzzer pin does during each note."""

    def __init__(self, factory: MockFactory, pin: int) -> None:
        self.pin = factory.pin(pin)
        self.heard: list[tuple[float | None, bool, float]] = []

    def __call__(self, seconds: float) -> None:
        self.heard.append((self.pin.frequency, bool(self.pin.state), seconds))


def test_tonal_buzzer_plays_the_notes_of_a_sound(pwm_factory: MockFactory) -> None:
    watch = PinWatch(pwm_factory, 18)
    player = SoundPlayer(18, pin_factory=pwm_factory, sleep=watch)
    player.play_now(Sound.COMPUTER_MOVE)
    frequencies = [None if f is None else round(f) for f, _, _ in watch.heard]
    assert frequencies == [784, None, 1047]  # G5, rest, C6
    assert [seconds for *_, seconds in watch.heard] == [0.1, 0.05, 0.25]
    assert [on for _, on, _ in watch.heard] == [True, False, True]
    assert not pwm_factory.pin(18).state  # silent afterwards
    player.close()


def test_plain_buzzer_plays_the_rhythm_in_the_background(mock_factory: MockFactory) -> None:
    watch = PinWatch(mock_factory, 18)
    player = SoundPlayer(18, tonal=False, pin_factory=mock_factory, sleep=watch)
    player.play(Sound.ILLEGAL_MOVE)
    player.play(Sound.MOVE_ACCEPTED)
    player.wait()
    assert [(on, seconds) for _, on, seconds in watch.heard] == [
        (True, 0.15), (False, 0.08), (True, 0.15), (False, 0.08), (True, 0.15),
        (True, 0.08),
    ]  # fmt: skip
    assert not mock_factory.pin(18).state
    player.close()
