"""The companion page's server without a browser: the API, the actions, the security rules."""

from __future__ import annotations

import contextlib
import json
import logging
import os
import random
import socket
import stat
import time
from pathlib import Path
from typing import Any

import pytest

from controller.decisions import Button, SetMode
from controller.game import Game
from controller.position import Color
from controller.variants import Variant
from firmware.journal import Journal, SessionState
from firmware.web.link import HEALTH_SECONDS, ActionName, ActionRequest
from firmware.web.server import MAX_CONNECTIONS, MAX_PAGES
from firmware.web.token import BadTokenFile, load_token, token_path
from hardware.lamps import lamps_for_move
from tests.conftest import FakeClock
from tests.firmware.web_helpers import (
    TOKEN,
    WAIT_SECONDS,
    ServedBoard,
    served_board,
    simulated_board,
)


@pytest.fixture
def board(tmp_path: Path) -> ServedBoard:
    with served_board(tmp_path) as served:
        yield served  # type: ignore[misc]


def archive_a_game(board: ServedBoard) -> Path:
    """A finished game of three moves, saved in the board's records as a game ends."""
    game = Game(Variant.STANDARD)
    for move in ("b2-c3", "e5-d4", "c3-b2"):
        game.play(move)
    game.end_by_agreement()
    return board.board.journal.archive(SessionState(game, None, 5))  # type: ignore[no-any-return]


def game_of(board: ServedBoard) -> tuple[str, list[str]]:
    state = board.state()
    return state["position"] + " " + state["turn"], state["moves"]


# -- what the page sees ---------------------------------------------------------------


def test_state_shows_the_position_lamps_moves_and_status(board: ServedBoard) -> None:
    state = board.state()
    referee = board.board.referee
    assert state["position"] == referee.position.board_string()
    assert state["turn"] == "red"
    assert len(state["pieces"]) == 24 and state["pieces"]["a1"] == "red"
    assert state["pieces"]["f6"] == "black" and "c3" not in state["pieces"]
    assert state["moves"] == [] and state["lamps"] == []
    assert state["status"] == {"ready": True, "over": False, "result": None,
                               "message": "board ready"}
    assert state["variants"] == ["standard", "gonu", "borobudur"]
    assert state["health"]["camera_fps"] is None  # this board's loop reports no frames


def test_a_move_on_the_board_reaches_the_state_with_its_path(board: ServedBoard) -> None:
    with board.lock:
        board.board.move("b2-c3")
    state = board.wait_for(lambda s: s["moves"] == ["b2-c3"], "the move b2-c3")
    assert state["turn"] == "black"
    assert state["last_move"]["name"] == "b2-c3"
    assert state["last_move"]["path"].startswith("M ")
    assert state["pieces"]["c3"] == "red" and "b2" not in state["pieces"]


def test_the_page_and_its_files_are_served(board: ServedBoard) -> None:
    status, page = board.request("GET", "/")
    assert status == 200 and b"/static/app.js" in page
    for name in ("app.js", "app.css"):
        assert board.request("GET", f"/static/{name}")[0] == 200
    status, svg = board.request("GET", "/board.svg")
    assert status == 200 and svg.count(b'class="piece"') == 36
    assert svg.count(b'class="lamp point"') == 36 and b'id="lamp-outer-ne-4"' in svg
    assert board.request("GET", "/static/../token")[0] == 404
    assert board.request("GET", "/nothing")[0] == 404


def test_events_stream_sends_the_state_and_every_change(board: ServedBoard) -> None:
    events = socket.create_connection(("127.0.0.1", board.port), timeout=WAIT_SECONDS)
    try:
        events.sendall(b"GET /api/events HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
        received = b""
        end = time.monotonic() + WAIT_SECONDS
        while b"event: state" not in received and time.monotonic() < end:
            received += events.recv(65536)
        assert b"text/event-stream" in received and b"event: state" in received
        with board.lock:
            board.board.move("b2-c3")
        while b'"b2-c3"' not in received and time.monotonic() < end:
            received += events.recv(65536)
        assert b'"moves":["b2-c3"]' in received
    finally:
        events.close()


# -- actions ----------------------------------------------------------------------------


def test_hint_lights_the_path_through_the_referee(board: ServedBoard) -> None:
    status, answer = board.act("hint")
    assert status == 200 and answer["ok"]
    state = board.wait_for(lambda s: s["lit_move"] is not None, "a hint")
    assert state["lit_move"]["kind"] == "hint"
    hint = board.board.referee.hint
    assert hint is not None and state["lit_move"]["name"] == hint.name
    layers = {layer["layer"]: layer for layer in state["lamps"]}
    assert layers["hint"]["meaning"] == "the engine's hint"
    assert layers["hint"]["lamps"] == lamps_for_move(board.board.hardware.layout, hint)
    assert layers["hint"]["effect"] == "pulse"


def test_mode_level_undo_and_new_are_journaled(board: ServedBoard, tmp_path: Path) -> None:
    journal = tmp_path / "journal.json"
    assert board.act("level", 3)[0] == 200
    assert json.loads(journal.read_text())["level"] == 3
    assert board.act("mode", "computer-black")[0] == 200
    assert json.loads(journal.read_text())["computer"] == "black"
    assert board.state()["mode"] == "computer-black"
    assert board.act("mode", "two-player")[0] == 200
    with board.lock:
        board.board.move("b2-c3")
    board.wait_for(lambda s: s["moves"] == ["b2-c3"], "the move")
    assert json.loads(journal.read_text())["moves"] == ["b2-c3"]
    assert board.act("undo")[0] == 200
    state = board.wait_for(lambda s: s["moves"] == [], "the move taken back")
    assert json.loads(journal.read_text())["moves"] == []
    assert not state["status"]["ready"]  # the board must be put back first
    lit = {lamp for layer in state["lamps"] if layer["layer"] == "fix" for lamp in layer["lamps"]}
    assert lit == {"b2", "c3"}


def test_variant_changes_only_between_games_and_only_to_this_board_size(
        board: ServedBoard) -> None:
    status, answer = board.act("variant", "sepur")
    assert status == 409 and "7" in answer["message"]
    assert board.act("variant", "gonu")[0] == 200
    assert board.state()["variant"] == "gonu"
    with board.lock:
        board.board.move("b2-b3")  # orthogonal, legal in gonu
    board.wait_for(lambda s: s["moves"] == ["b2-b3"], "the move")
    status, answer = board.act("variant", "standard")
    assert status == 409 and board.state()["variant"] == "gonu"


def test_bad_action_values_are_refused_with_a_clear_error(board: ServedBoard) -> None:
    before = game_of(board)
    for name, value in (("level", 11), ("level", "x"), ("mode", "chess"), ("variant", "go"),
                        ("hint", "now"), ("castle", None)):
        status, answer = board.act(name, value)
        assert status in (400, 404), (name, value, status)
        if status == 400:
            assert answer["ok"] is False and answer["error"]
    assert game_of(board) == before and board.board.referee.level == 5


# -- security ---------------------------------------------------------------------------


def test_every_action_without_the_token_is_refused(board: ServedBoard) -> None:
    before = game_of(board)
    for name in ("hint", "undo", "new", "mode", "eval", "lamp-test"):
        for token in (None, "", "wrong", TOKEN[:-1], TOKEN + "x", TOKEN.upper()):
            status, answer = board.act(name, token=token)
            assert status == 401, (name, token)
            assert "token" in answer["error"]
    # Nor in the address: only the header counts (addresses end up in logs).
    status, _ = board.request("POST", f"/api/action/hint?token={TOKEN}", "")
    assert status == 401
    assert board.act("level", 2, token="wrong")[0] == 401
    time.sleep(0.1)
    assert game_of(board) == before
    assert board.board.referee.hint is None and board.board.referee.level == 5


def test_requests_from_another_site_are_refused(board: ServedBoard) -> None:
    status, answer = board.act("hint", headers={"Origin": "http://evil.example"})
    assert status == 403 and "own page" in answer["error"]
    status, _ = board.act("hint", headers={"Origin": "null"})
    assert status == 403
    assert board.board.referee.hint is None
    status, _ = board.act("hint", headers={"Origin": f"http://127.0.0.1:{board.port}"})
    assert status == 200


def test_pairing_checks_the_token(board: ServedBoard) -> None:
    assert board.request("POST", "/api/pair", "", {"X-Board-Token": TOKEN})[0] == 200
    assert board.request("POST", "/api/pair", "", {"X-Board-Token": "nope"})[0] == 401


def test_oversized_requests_are_refused_and_the_server_goes_on(board: ServedBoard) -> None:
    def status_of(*request: object) -> int:
        try:
            return board.request(*request)[0]  # type: ignore[arg-type]
        except OSError:
            return 0  # the server answered and closed while the rest was still being sent

    big_body = status_of("POST", "/api/action/hint", b"x" * 100_000, {"X-Board-Token": TOKEN})
    assert big_body in (400, 413, 0)
    big_head = status_of("GET", "/api/state", None,
                         {f"X-Filler-{n}": "y" * 200 for n in range(100)})
    assert big_head in (400, 431, 0)
    assert board.state()["moves"] == [] and board.board.referee.hint is None


@pytest.mark.slow
def test_connections_and_pages_are_bounded(board: ServedBoard) -> None:
    sockets = []
    try:
        for _ in range(MAX_CONNECTIONS + 8):
            sockets.append(socket.create_connection(("127.0.0.1", board.port), timeout=2))
        assert _closed_by_the_server(sockets, at_least=8) >= 8
    finally:
        for s in sockets:
            s.close()
    pages = []
    try:
        for _ in range(MAX_PAGES):
            pages.append(_open_page(board.port))
        status, body = board.request("GET", "/api/events")
        assert status == 503 and b"too many pages" in body
        assert board.link.pages == MAX_PAGES
    finally:
        for page in pages:
            page.close()
    assert board.state()["status"]["ready"]


def _closed_by_the_server(sockets: list[socket.socket], at_least: int) -> int:
    """How many of the sockets the server closed, waiting (up to WAIT_SECONDS) for ``at_least``."""
    closed: set[int] = set()
    end = time.monotonic() + WAIT_SECONDS
    while len(closed) < at_least and time.monotonic() < end:
        for index, s in enumerate(sockets):
            if index in closed:
                continue
            s.settimeout(0.01)
            try:
                if s.recv(1) == b"":
                    closed.add(index)
            except TimeoutError:
                pass
            except ConnectionResetError:
                closed.add(index)
    return len(closed)


def _open_page(port: int) -> socket.socket:
    """A page listening to the board's events; retried while the server is still
    freeing the connections just closed (a busy machine takes its time)."""
    end = time.monotonic() + WAIT_SECONDS
    while True:
        page = socket.create_connection(("127.0.0.1", port), timeout=WAIT_SECONDS)
        with contextlib.suppress(OSError):
            page.sendall(b"GET /api/events HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
            if b"200 OK" in page.recv(4096):
                return page
        page.close()
        assert time.monotonic() < end, "the server never took a page again"
        time.sleep(0.05)


def test_fuzzed_requests_never_crash_the_server_or_change_the_game(board: ServedBoard) -> None:
    rng = random.Random(17)
    before = game_of(board)
    paths = ["/", "/api/state", "/api/action/hint", "/api/action/", "/api/action/level",
             "/api/games/..%2Fjournal.json", "/api/games/game-1.txt/replay", "/board.svg",
             "/api/events?x=" + "%" * 50, "/%00", "/api/action/" + "a" * 300, "/static/app.js"]
    methods = ["GET", "POST", "PUT", "DELETE", "PATCH", "OPTIONS", "HEAD"]
    bodies = [b"", b"{", b"[]", b'{"value": {"a": 1}}', b'{"value": 99999999999999999999}',
              b'{"other": 1}', b"\xff\xfe\x00", b"[" * 5000, json.dumps({"value": "x" * 3000})]
    for _ in range(150):
        method, path = rng.choice(methods), rng.choice(paths)
        headers = {"Content-Type": rng.choice(["application/json", "text/plain", "%%%"])}
        if rng.random() < 0.5:
            headers["X-Board-Token"] = rng.choice(["", "x", TOKEN[:5], "é" * 10])
        body = rng.choice(bodies) if method not in ("GET", "HEAD") else None
        try:
            status, _ = board.request(method, path, body, headers, read=False)
        except (ConnectionError, OSError):
            continue
        assert status < 500, (method, path, body, status)
    # Raw garbage on the socket too.
    for junk in (b"\x00" * 100 + b"\r\n\r\n", b"GET / HTTP/9.9\r\n\r\n", b"GET\r\n\r\n",
                 b"POST /api/action/hint HTTP/1.1\r\nContent-Length: -5\r\n\r\n"):
        with socket.create_connection(("127.0.0.1", board.port), timeout=2) as raw:
            raw.sendall(junk)
            with contextlib.suppress(OSError):
                raw.recv(4096)
    assert game_of(board) == before
    assert board.board.referee.level == 5 and board.board.referee.hint is None
    assert board.request("GET", "/api/state")[0] == 200


def test_the_token_never_reaches_the_logs(board: ServedBoard,
                                          caplog: pytest.LogCaptureFixture) -> None:
    with caplog.at_level(logging.DEBUG):
        board.act("level", 4)
        board.act("hint", token="wrong-token-guess")
        board.request("POST", "/api/pair", "", {"X-Board-Token": TOKEN})
    assert "page action: level 4" in caplog.text
    assert TOKEN not in caplog.text and "wrong-token-guess" not in caplog.text


def test_token_file_is_made_private_and_kept(tmp_path: Path) -> None:
    path = token_path(tmp_path / "state" / "journal.json")
    token = load_token(path)
    assert path.parent == tmp_path / "state" and len(token) >= 24
    assert stat.S_IMODE(path.stat().st_mode) == 0o600
    assert load_token(path) == token
    os.chmod(path, 0o644)
    with pytest.raises(BadTokenFile, match="chmod 600"):
        load_token(path)


# -- finished games -----------------------------------------------------------------


def test_finished_games_are_listed_downloaded_and_replayed(board: ServedBoard) -> None:
    path = archive_a_game(board)
    status, body = board.request("GET", "/api/games")
    games = json.loads(body)
    assert status == 200 and [g["name"] for g in games] == [path.name]
    assert games[0]["moves"] == 3
    status, record = board.request("GET", f"/api/games/{path.name}")
    assert status == 200 and record == path.read_bytes()
    status, body = board.request("GET", f"/api/games/{path.name}/replay")
    plies = json.loads(body)["plies"]
    assert [p["move"] for p in plies] == [None, "b2-c3", "e5-d4", "c3-b2"]
    assert plies[1]["pieces"]["c3"] == "red" and "b2" not in plies[1]["pieces"]
    for name in ("journal.json", "..%2Fjournal.json", "game-x.txt", path.name + ".bak"):
        assert board.request("GET", f"/api/games/{name}")[0] == 404, name


def test_a_recorded_move_is_shown_on_the_lamps_for_a_while(board: ServedBoard) -> None:
    path = archive_a_game(board)
    status, answer = board.act("show-move", f"{path.name}:2")
    assert status == 200 and "e5-d4" in answer["message"]
    state = board.wait_for(lambda s: any(x["layer"] == "replay" for x in s["lamps"]), "lamps")
    lit = next(layer for layer in state["lamps"] if layer["layer"] == "replay")
    assert lit["lamps"] == ["e5", "d4"] and lit["effect"] == "chase"
    assert board.act("show-move", f"{path.name}:9")[0] == 409
    assert board.act("show-move", "journal.json:1")[0] == 400
    with board.lock:
        board.board.t += 10.0  # the chase ends by itself
    board.wait_for(lambda s: not s["lamps"], "the lamps dark again")


def test_lamp_test_lights_every_lamp_in_chain_order_and_names_it(board: ServedBoard) -> None:
    chain = list(board.board.hardware.driver.lamps)
    assert board.act("lamp-test")[0] == 200
    state = board.wait_for(lambda s: s["lamp_test"], "the lamp test")
    assert state["lamp_test"].startswith("lamp ") and state["lamps"][0]["layer"] == "lamp-test"
    link, scene = board.link, board.board.hardware.scene
    with board.lock:  # the loop waits: the test turns the clock
        assert link._lamp_test is not None
        started = link._lamp_test[0]
        for index, name in enumerate(chain):
            link.pump(started + 0.4 * index + 0.01)
            assert link.lamp_test == f"lamp {index + 1} of {len(chain)}: {name}"
            assert [effect.lamps for _, effect in scene.effects()] == [(name,)]
        link.pump(started + 0.4 * len(chain) + 0.01)
        assert link.lamp_test is None and scene.effects() == []
    board.wait_for(lambda s: s["lamp_test"] is None and not s["lamps"], "the lamps dark again")


def test_an_action_is_answered_only_once_the_state_shows_it(board: ServedBoard) -> None:
    # A page asks for the state as soon as its action is answered: on a busy machine the
    # loop must not answer first and publish the state a moment later.
    link = board.link
    seen: list[dict[str, Any]] = []
    with board.lock:  # the loop waits: the test runs its pass
        future = link.submit(ActionRequest(ActionName.MATCH, "Ana,Budi,4"))
        future.add_done_callback(lambda _: seen.append(json.loads(link.state_json)))
        link.pump(board.board.t)
    assert future.result(timeout=0).ok
    assert seen[0]["match"] is not None and seen[0]["match"]["players"] == ["Ana", "Budi"]


def test_match_settings_between_games(board: ServedBoard, tmp_path: Path) -> None:
    status, answer = board.act("match", "Ana,Budi,4")
    assert status == 200 and "Ana plays red first" in answer["message"]
    match = board.state()["match"]
    assert match["players"] == ["Ana", "Budi"] and match["totals"] == {"Ana": 0, "Budi": 0}
    assert json.loads((tmp_path / "journal.json").read_text())["match"]["games"] == 4
    for value in ("Ana,Ana,2", "Ana,Budi,0", "Ana,Budi", ",Budi,2", "x" * 50):
        assert board.act("match", value)[0] == 400, value
    with board.lock:
        board.board.move("b2-c3")
    board.wait_for(lambda s: s["moves"], "the move")
    assert board.act("match", "off")[0] == 409
    assert board.state()["match"]["players"] == ["Ana", "Budi"]


def test_the_engines_view_is_shown_when_asked(board: ServedBoard) -> None:
    board.link.evaluator.seconds = 0.1  # a second's search on the page shows no more here
    assert board.state()["evaluation"] is None
    status, answer = board.act("eval")
    assert status == 200 and answer["message"] == "thinking"
    state = board.wait_for(lambda s: s["evaluation"] and "best" in s["evaluation"],
                           "the evaluation")
    view = state["evaluation"]
    assert view["position"] == state["position"] and view["text"].startswith("red to move: ")
    assert view["line"][0] == view["best"] and view["depth"] >= 1


def test_health_tells_when_the_journal_cannot_be_saved(tmp_path: Path) -> None:
    # The link's clock runs fast: half the health figures' period each time it is read,
    # so they are worked out again every pass or two of the loop, not every 2 s.
    with served_board(tmp_path, clock=FakeClock(step=HEALTH_SECONDS / 2)) as board:
        assert board.state()["health"]["journal"]["ok"]
        (tmp_path / "not-a-folder").write_text("")
        with board.lock:
            board.board.journal.path = tmp_path / "not-a-folder" / "journal.json"
            board.board.move("b2-c3")
        health = board.wait_for(lambda s: not s["health"]["journal"]["ok"], "the failing save")
    assert health["health"]["journal"]["problem"] == "saves failing: the journal holds 0 of 1 moves"
    assert health["moves"] == ["b2-c3"]  # the game goes on


def test_calibration_needs_the_start_position_and_a_camera_frame(board: ServedBoard) -> None:
    status, answer = board.act("calibrate")
    assert status == 409 and answer["message"] == "no camera frame to calibrate from"
    with board.lock:
        board.board.move("b2-c3")
    board.wait_for(lambda s: s["moves"], "the move")
    status, answer = board.act("calibrate")
    assert status == 409 and "start position" in answer["message"]


def test_a_piece_height_from_the_page_is_checked_before_the_board_is_asked(
        board: ServedBoard) -> None:
    for value in ("60", -1, "nan", "7 mm", "", True):
        status, answer = board.act("calibrate", value)
        assert status == 400, value
        assert answer["error"] == f"invalid piece height: {str(value)!r} (expected 0 to 50 mm)"
    # A possible height, as text (the page's field) or a number (a program), reaches the
    # board, which has no camera frame here.
    for height in ("7.5", 9, 4.25):
        status, answer = board.act("calibrate", height)
        assert status == 409 and answer["message"] == "no camera frame to calibrate from", height


@pytest.mark.slow
def test_button_test_takes_the_presses_from_the_game_and_gives_them_back(
        tmp_path: Path) -> None:
    simulation = simulated_board(Journal(tmp_path / "journal.json"))
    with served_board(tmp_path, simulation) as board:
        status, answer = board.act("button-test")
        assert status == 200 and answer["message"].endswith("hint, undo, new, mode")
        with board.lock:
            simulation.push(Button.HINT)
            simulation.push(Button.NEW)
        state = board.wait_for(lambda s: len(s["button_test"]["pressed"]) == 2, "two presses")
        assert state["button_test"] == {"running": True, "pressed": ["hint", "new"],
                                        "waiting": ["undo", "mode"]}
        assert simulation.referee.hint is None and state["status"]["message"] == "board ready"
        with board.lock:
            simulation.push(Button.UNDO)
            simulation.push(Button.MODE)
        state = board.wait_for(lambda s: not s["button_test"]["running"], "the test over")
        assert state["button_test"]["waiting"] == [] and state["mode"] == "two-player"
        with board.lock:
            simulation.push(Button.MODE)  # the buttons play the game again
        board.wait_for(lambda s: s["mode"] == "computer-black", "the mode button's effect")


def test_health_says_what_the_engine_is_doing(board: ServedBoard) -> None:
    assert board.state()["health"]["engine"] == "ready"
    with board.lock:  # the loop waits: the engine's answer is not yet delivered
        board.board.session.feed(SetMode(Color.RED), board.board.t)
        assert board.link.health(board.board.t)["engine"] == "thinking of the computer's move"
    board.wait_for(lambda s: s["lit_move"] and s["lit_move"]["kind"] == "computer",
                   "the computer's move")
    assert board.link.health(board.board.t)["engine"] == "ready"
