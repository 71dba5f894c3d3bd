"""The simulator window, headless: a mouse game through its event handling, lamps from the pins."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pygame
import pytest

from controller.geometry import parse_point
from controller.position import Color
from firmware.cli import main
from firmware.simulator import WindowOptions
from firmware.simulator.drawing import LAMP_OFF, LAMP_ON, SHEET, lamp_probe
from firmware.simulator.layout import WINDOW_SIZE
from firmware.simulator.window import BUTTONS, SimulatorWindow
from hardware.buzzer import Sound
from vision.reader import ReadStatus

pytestmark = pytest.mark.usefixtures("calibrations_learnt_once")


@pytest.fixture
def window() -> Iterator[SimulatorWindow]:
    pygame.font.init()
    simulator = SimulatorWindow(WindowOptions(seed=0), threaded=False, audio=False)
    try:
        simulator.advance(0.6)  # the camera sees the start position: board ready
        yield simulator
    finally:
        simulator.close()


def pixel(window: SimulatorWindow, name: str) -> tuple[int, int]:
    return tuple(round(v) for v in window.layout.board.point_pixel(parse_point(name, 6)))  # type: ignore[return-value]


def mouse(window: SimulatorWindow, kind: int, pos: tuple[float, float]) -> None:
    attributes: dict[str, Any] = {"pos": (round(pos[0]), round(pos[1]))}
    if kind == pygame.MOUSEMOTION:
        attributes.update(rel=(0, 0), buttons=(1, 0, 0))
    else:
        attributes["button"] = 1
    window.handle(pygame.event.Event(kind, attributes))


def drag(
    window: SimulatorWindow, start: tuple[float, float], end: tuple[float, float]
) -> list[ReadStatus]:
    """Press, carry in a few camera frames, release, let it settle; what vision saw meanwhile."""
    seen = []
    mouse(window, pygame.MOUSEBUTTONDOWN, start)
    for share in (0.33, 0.66, 1.0):
        x = start[0] + (end[0] - start[0]) * share
        y = start[1] + (end[1] - start[1]) * share
        mouse(window, pygame.MOUSEMOTION, (x, y))
        window.advance(0.1)
        assert window.last_shot is not None
        seen.append(window.last_shot.reading.status)
    mouse(window, pygame.MOUSEBUTTONUP, end)
    window.advance(0.7)
    return seen


def move(window: SimulatorWindow, origin: str, target: str) -> None:
    # A hand carrying a piece holds it up, out of the camera's view of the board.
    seen = drag(window, pixel(window, origin), pixel(window, target))
    assert ReadStatus.OCCLUDED not in seen


def events(window: SimulatorWindow, kind: str) -> list[dict[str, Any]]:
    return [event for event in window.events if event["type"] == kind]


def key(window: SimulatorWindow, code: int) -> None:
    window.handle(pygame.event.Event(pygame.KEYDOWN, key=code, mod=0, unicode=""))


def click(window: SimulatorWindow, action: str) -> None:
    x, y, width, height = window.button_rects[action]
    mouse(window, pygame.MOUSEBUTTONDOWN, (x + width / 2, y + height / 2))
    mouse(window, pygame.MOUSEBUTTONUP, (x + width / 2, y + height / 2))


def lamps_drawn(window: SimulatorWindow) -> set[str]:
    """Draw the window and read back which lamps show lit (and check the rest show dark)."""
    surface = pygame.Surface(WINDOW_SIZE)
    window.draw(surface)
    lit = set()
    for lamp in window.simulation.hardware.layout:
        colour = tuple(surface.get_at(lamp_probe(window.layout.board, lamp)))[:3]
        if colour == LAMP_ON:
            lit.add(lamp.name)
        else:
            assert colour in (SHEET, LAMP_OFF), (lamp.name, colour)
    return lit


def check_lamps_follow_the_pins(window: SimulatorWindow) -> set[str]:
    """The lamps drawn are those the chain's latched outputs light, which are the scene's."""
    drawn = lamps_drawn(window)
    from_pins = set(window.lamps.lit())
    assert drawn == from_pins
    scene = window.simulation.hardware.scene
    assert from_pins == set(scene.frame_at(window.now, dimmable=False))
    return drawn


@pytest.mark.slow
def test_a_mouse_game_move_capture_illegal_move_and_hint(window: SimulatorWindow) -> None:
    assert any(e["text"] == "board ready" for e in events(window, "message"))
    move(window, "a2", "a3")
    move(window, "a5", "a4")
    move(window, "a3", "b4")
    # Black captures: the red piece goes off to its tray first, then d6 moves onto b4.
    drag(window, pixel(window, "b4"), window.layout.tray_slot(Color.RED, 0))
    assert window.hands.tray_count(Color.RED) == 1
    move(window, "d6", "b4")
    accepted = [(e["move"], e["by"]) for e in events(window, "accepted")]
    assert accepted == [("a2-a3", "red"), ("a5-a4", "black"), ("a3-b4", "red"),
                        ("d6xb4", "black")]
    assert window.speaker.last is Sound.MOVE_ACCEPTED
    # The capture's path is chased along the lamps, as the pins drive them.
    chased: set[str] = set()
    for _ in range(8):
        window.advance(0.1)
        chased |= check_lamps_follow_the_pins(window)
    assert {"outer-ne-2", "f4", "d4"} <= chased

    move(window, "b1", "b3")  # two points away: illegal
    illegal = events(window, "illegal")
    assert illegal and set(illegal[-1]["fix"]) == {"b1", "b3"}
    assert window.speaker.last in (Sound.ILLEGAL_MOVE,)
    blinking: set[str] = set()
    for _ in range(6):
        window.advance(0.1)
        blinking |= check_lamps_follow_the_pins(window)
    assert {"b1", "b3"} <= blinking
    move(window, "b3", "b1")
    assert events(window, "restored")
    assert len(events(window, "accepted")) == 4

    key(window, pygame.K_h)
    window.advance(0.3)
    hints = events(window, "hint")
    assert hints and hints[-1]["move"]
    pulsed: set[str] = set()
    for _ in range(12):
        window.advance(0.1)
        pulsed |= check_lamps_follow_the_pins(window)
    assert set(hints[-1]["lamps"]) <= pulsed  # the hint flashes (on top of the last capture)


@pytest.mark.slow
def test_buttons_press_the_mock_pins_and_the_computer_replies(window: SimulatorWindow) -> None:
    move(window, "b2", "c3")
    click(window, "mode")  # two players -> the computer plays black
    window.advance(0.3)
    assert [e["computer"] for e in events(window, "mode")] == ["black"]
    computer = events(window, "computer")
    assert computer and computer[0]["lamps"]
    key(window, pygame.K_f)  # the hand carries out the lit move
    window.advance(0.8)
    accepted = events(window, "accepted")
    assert [(e["move"], e["by"]) for e in accepted] == [("b2-c3", "red"),
                                                        (computer[0]["move"], "black")]
    click(window, "undo")  # takes back the computer's reply and the player's move
    window.advance(0.3)
    assert len(events(window, "undone")) == 2
    click(window, "setup")  # both hands put the pieces back as the referee expects
    window.advance(0.8)
    assert window.simulation.referee.settled
    assert window.simulation.board.reading().matches(window.simulation.referee.position)
    before = window.simulation.referee.level
    key(window, pygame.K_PLUS)
    assert window.simulation.referee.level == before + 1


@pytest.mark.slow
def test_pieces_dropped_on_their_own_colour_go_back_and_trays_give_pieces(
    window: SimulatorWindow,
) -> None:
    board = window.simulation.board
    drag(window, pixel(window, "b2"), pixel(window, "c2"))  # c2 holds a red piece
    assert board.pieces[parse_point("b2", 6)] is Color.RED
    drag(window, pixel(window, "f6"), (5, 5))  # off the board: into the black tray
    assert parse_point("f6", 6) not in board.pieces
    assert window.hands.tray_count(Color.BLACK) == 1
    drag(window, window.layout.tray_slot(Color.BLACK, 0), pixel(window, "f6"))
    assert board.pieces[parse_point("f6", 6)] is Color.BLACK
    assert window.hands.tray_count(Color.BLACK) == 0
    assert not events(window, "accepted")


@pytest.mark.slow
def test_a_piece_lifted_by_dragging_lights_its_moves_as_on_the_board(
    window: SimulatorWindow,
) -> None:
    mouse(window, pygame.MOUSEBUTTONDOWN, pixel(window, "b2"))
    mouse(window, pygame.MOUSEMOTION, pixel(window, "b3"))
    window.advance(0.8)
    assert window.last_shot is not None
    assert window.last_shot.reading.status is not ReadStatus.OCCLUDED
    assert [e["point"] for e in events(window, "lifted")] == ["b2"]
    lit: set[str] = set()
    for _ in range(10):
        window.advance(0.1)
        lit |= check_lamps_follow_the_pins(window)
    assert {"a3", "b3", "c3"} <= lit
    mouse(window, pygame.MOUSEBUTTONUP, pixel(window, "b3"))
    window.advance(0.7)
    assert [e["move"] for e in events(window, "accepted")] == ["b2-b3"]


def test_a_hand_with_nothing_in_it_is_seen_over_the_board(window: SimulatorWindow) -> None:
    mouse(window, pygame.MOUSEBUTTONDOWN, pixel(window, "c3"))  # an empty point
    assert window.simulation.board.hand is not None
    mouse(window, pygame.MOUSEBUTTONUP, pixel(window, "c3"))
    assert window.simulation.board.hand is None


def test_status_lines_go_when_they_stop_being_true(window: SimulatorWindow) -> None:
    from firmware.simulator.status import NOTICE_SECONDS, StatusLine

    game = window.simulation.referee.game
    line = StatusLine(NOTICE_SECONDS)
    line.say("pressed hint", 10.0, game)
    assert line.shown(10.0 + NOTICE_SECONDS - 1, game) == "pressed hint"
    assert line.shown(10.0 + NOTICE_SECONDS + 1, game) == ""
    said = StatusLine()
    said.say("game over: red wins", 10.0, game)
    assert said.shown(1000.0, game) == "game over: red wins"
    assert said.shown(11.0, object()) == ""  # a new game


def test_every_button_has_a_key_and_a_place() -> None:
    from firmware.simulator.window import KEYS

    actions = {name for name, _ in BUTTONS}
    assert set(KEYS.values()) == actions
    assert {"hint", "undo", "new", "mode"} <= actions


@pytest.mark.slow
def test_the_command_saves_a_screenshot_off_screen(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("SDL_VIDEODRIVER", "dummy")
    monkeypatch.setenv("SDL_AUDIODRIVER", "dummy")
    shot = tmp_path / "window.png"
    assert main(["simulator", "--exit-after", "0.5", "--screenshot", str(shot)]) == 0
    image = pygame.image.load(str(shot))
    assert image.get_size() == WINDOW_SIZE


def test_without_a_display_the_window_needs_an_end(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.delenv("SDL_VIDEODRIVER", raising=False)
    monkeypatch.delenv("DISPLAY", raising=False)
    monkeypatch.delenv("WAYLAND_DISPLAY", raising=False)
    monkeypatch.setattr("sys.platform", "linux")
    assert main(["simulator"]) == 2
    assert "no display" in capsys.readouterr().err


def test_bad_options_are_one_line_errors(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["simulator", "--level", "11", "--exit-after", "0"]) == 2
    assert "invalid level: 11" in capsys.readouterr().err
    assert main(["simulator", "--variant", "chess", "--exit-after", "0"]) == 2
    assert "chess" in capsys.readouterr().err


def test_buzzer_sounds_become_tones_even_on_a_dummy_audio_driver(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from firmware.simulator.sound import SAMPLE_RATE, Speaker, tone_samples
    from hardware.buzzer import SOUND_PATTERNS

    pattern = SOUND_PATTERNS[Sound.ILLEGAL_MOVE]
    samples = tone_samples(pattern)
    assert len(samples) == pytest.approx(sum(s for _, s in pattern) * SAMPLE_RATE, abs=5)
    assert samples.any() and not samples[round(0.16 * SAMPLE_RATE):][:100].any()  # a rest
    monkeypatch.setenv("SDL_AUDIODRIVER", "dummy")
    speaker = Speaker(SOUND_PATTERNS)
    try:
        speaker.play(Sound.GAME_OVER, 1.0)
        assert speaker.last is Sound.GAME_OVER
    finally:
        speaker.close()


@pytest.mark.slow
def test_colour_lamps_show_each_meaning_in_its_colour() -> None:
    from controller.decisions import Layer
    from firmware.simulator import drawing
    from hardware.lamp_colours import LAYER_COLOURS

    # Fonts cached before an earlier test's pygame.quit() are dead: make them again.
    drawing.font.cache_clear()
    drawing._text_image.cache_clear()
    pygame.font.init()
    window = SimulatorWindow(WindowOptions(seed=0, colour_lamps=True), threaded=False,
                             audio=False)
    try:
        window.advance(0.6)
        mouse(window, pygame.MOUSEBUTTONDOWN, pixel(window, "b2"))
        mouse(window, pygame.MOUSEMOTION, pixel(window, "b3"))
        surface = pygame.Surface(WINDOW_SIZE)
        seen = set()
        for _ in range(10):
            window.advance(0.1)
            window.draw(surface)
            lamp = window.simulation.hardware.layout.lamp("b3")
            seen.add(tuple(surface.get_at(lamp_probe(window.layout.board, lamp)))[:3])
        assert LAYER_COLOURS[Layer.LIFT] in seen and LAMP_ON not in seen
    finally:
        window.close()
