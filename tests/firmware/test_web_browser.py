"""The companion page in a real browser (headless Chromium), beside a running simulation.

The page is loaded from a simulated board (rendered camera, vision, referee, lamps on
mock pins): the drawn board must match the position, a hint pressed in the page must
show its path in the page and light its lamps on the mock pins, and a move made on
the board must reach the page without a reload.

Chromium and its driver come from Debian (``chromium``, ``chromium-driver``); ``.ci/run``
installs them. Without them these tests fail in CI (``CI`` set) and are skipped
elsewhere with the reason.
"""

from __future__ import annotations

import os
import shutil
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from gpiozero.pins.mock import MockFactory, MockPWMPin

from controller.geometry import point_name
from controller.variants import Variant
from firmware.journal import Journal
from firmware.simulation import simulated_hardware
from firmware.simulator.lamps import LampWatch
from hardware.lamps import lamps_for_move
from tests.firmware.web_helpers import TOKEN, ServedBoard, served_board, simulated_board

pytestmark = pytest.mark.slow

WAIT_SECONDS = 10.0


def chromium() -> tuple[str, str]:
    """The browser and its driver; fails in CI and skips elsewhere when they are missing."""
    browser = shutil.which("chromium") or shutil.which("chromium-browser")
    driver = shutil.which("chromedriver")
    if browser and driver:
        return browser, driver
    reason = "headless Chromium is needed: apt-get install chromium chromium-driver"
    if os.environ.get("CI"):
        pytest.fail(f"{reason} (.ci/run installs them)")
    pytest.skip(reason)


@pytest.fixture
def browser() -> Iterator[Any]:
    binary, driver_path = chromium()
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service

    options = webdriver.ChromeOptions()
    options.binary_location = binary
    for argument in ("--headless=new", "--no-sandbox", "--disable-gpu",
                     "--disable-dev-shm-usage", "--window-size=1200,820"):
        options.add_argument(argument)
    driver = webdriver.Chrome(options=options, service=Service(driver_path))
    driver.set_page_load_timeout(WAIT_SECONDS)
    try:
        yield driver
    finally:
        driver.quit()


@pytest.fixture
def watched(tmp_path: Path) -> Iterator[tuple[ServedBoard, LampWatch]]:
    factory = MockFactory(pin_class=MockPWMPin)
    # The chain model must watch the LED pins before the hardware opens them.
    lamps = LampWatch(factory, simulated_hardware(Variant.STANDARD))
    simulation = simulated_board(Journal(tmp_path / "journal.json"), factory)
    with served_board(tmp_path, simulation) as board:
        yield board, lamps


def wait_until(check: Any, what: str) -> Any:
    end = time.monotonic() + WAIT_SECONDS
    while time.monotonic() < end:
        value = check()
        if value:
            return value
        time.sleep(0.05)
    raise AssertionError(f"never saw {what}")


def drawn_pieces(driver: Any) -> dict[str, str]:
    return driver.execute_script(  # type: ignore[no-any-return]
        "const out = {};"
        "for (const p of document.querySelectorAll('#board .piece')) {"
        "  if (p.dataset.color) out[p.dataset.point] = p.dataset.color; }"
        "return out;")


def lit_lamps(driver: Any) -> set[str]:
    return set(driver.execute_script(
        "return [...document.querySelectorAll('#board .lamp.lit')].map(n => n.id.slice(5));"))


def test_the_page_draws_the_board_takes_a_hint_and_follows_a_move(
        browser: Any, watched: tuple[ServedBoard, LampWatch], tmp_path: Path) -> None:
    board, lamps = watched
    started = time.monotonic()
    browser.get(f"http://127.0.0.1:{board.port}/")
    wait_until(lambda: drawn_pieces(browser), "the pieces drawn")
    assert time.monotonic() - started < WAIT_SECONDS
    state = board.state()
    assert drawn_pieces(browser) == state["pieces"]
    assert browser.find_element("id", "turn").text == "red to move"

    # Pair the page as a player would: the token pasted into the form.
    browser.find_element("css selector", ".tab[data-tab=setup]").click()
    browser.find_element("id", "token").send_keys(TOKEN)
    browser.find_element("css selector", "#pair-form button").click()
    wait_until(lambda: "paired" in browser.find_element("id", "pair-state").text, "pairing")
    browser.find_element("css selector", ".tab[data-tab=play]").click()

    browser.find_element("id", "act-hint").click()
    path = wait_until(lambda: browser.find_element("id", "lit-path").get_attribute("d"),
                      "the hint's path in the page")
    hint = board.board.referee.hint
    assert hint is not None
    expected = set(lamps_for_move(board.board.hardware.layout, hint))
    assert path == board.state()["lit_move"]["path"]
    wait_until(lambda: lit_lamps(browser) == expected, "the hint's lamps in the page")
    # The board's own lamps: read back from the LED chain's mock pins (a pulse is on
    # part of each period on lamps that cannot dim, so watch for a while).
    seen: set[str] = set()
    wait_until(lambda: seen.update(lamps.lit()) or seen >= expected, "the lamps on the pins")
    assert seen <= expected
    browser.save_screenshot(str(tmp_path / "hint.png"))
    assert (tmp_path / "hint.png").stat().st_size > 20_000

    # A move made on the board reaches the open page without a reload.
    with board.lock:
        board.board.carry_out(hint)
    wait_until(lambda: hint.name in browser.find_element("id", "moves").text,
               "the move in the page's list")
    assert drawn_pieces(browser) == board.state()["pieces"]
    assert drawn_pieces(browser)[point_name(hint.destination)] == "red"
    assert browser.find_element("id", "turn").text == "black to move"


def test_actions_without_pairing_are_refused_in_the_page(
        browser: Any, watched: tuple[ServedBoard, LampWatch]) -> None:
    board, _ = watched
    browser.get(f"http://127.0.0.1:{board.port}/")
    wait_until(lambda: drawn_pieces(browser), "the pieces drawn")
    browser.find_element("id", "act-hint").click()
    wait_until(lambda: "pair" in browser.find_element("id", "reply").text, "the refusal")
    time.sleep(0.3)
    assert board.board.referee.hint is None


def test_the_page_sends_the_piece_height_typed_beside_calibrate(
        browser: Any, watched: tuple[ServedBoard, LampWatch]) -> None:
    board, _ = watched
    browser.get(f"http://127.0.0.1:{board.port}/#token={TOKEN}")  # the pairing link
    wait_until(lambda: drawn_pieces(browser), "the pieces drawn")
    browser.find_element("css selector", ".tab[data-tab=setup]").click()
    field = browser.find_element("id", "piece-height")
    assert "piece height, mm (optional)" in browser.find_element(
        "xpath", "//label[input[@id='piece-height']]").text
    # An impossible height shows that the field's value went with the action: the board
    # refuses it before looking for a camera frame.
    field.send_keys("60")
    browser.find_element("id", "act-calibrate").click()
    wait_until(lambda: "invalid piece height: '60'" in browser.find_element("id", "reply").text,
               "the refusal of the height")
    field.clear()
    browser.find_element("id", "act-calibrate").click()
    wait_until(lambda: browser.find_element("id", "reply").text
               == "no camera frame to calibrate from", "the calibration tried without a height")
