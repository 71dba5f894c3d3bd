"""Between the board's loop and the web server, which run on different threads.

The board's loop owns the referee: nothing else may touch it. So the server never
does; it queues an ``ActionRequest`` and waits for the loop to carry it out on its
next pass (``BoardLink.pump``), and it serves the snapshots the loop built. The
loop calls ``pump`` once per pass; that is the whole hook.
"""

from __future__ import annotations

import json
import logging
import queue
import re
import shutil
import time
from collections import deque
from collections.abc import Callable
from concurrent.futures import Future
from dataclasses import dataclass
from enum import Enum
from pathlib import Path
from typing import Any, Protocol

from controller.decisions import Button, Pressed, SetLevel, SetMatch, SetMode, SetVariant
from controller.errors import SurakartaError
from controller.match import MatchRules
from controller.variants import Variant
from firmware.board import BoardSession
from firmware.pipeline import Pipeline
from firmware.web.evaluation import Evaluator
from firmware.web.games import recorded_move
from firmware.web.snapshot import LAMP_TEST_LAYER, MODE_NAMES, REPLAY_LAYER, board_state
from hardware.build import Hardware
from hardware.effects import Chase, Steady
from hardware.lamps import lamps_for_move

log = logging.getLogger(__name__)

QUEUE_LIMIT = 16
"""Actions waiting for the loop; more are refused as busy (a page cannot flood the loop)."""
ACTIONS_PER_PASS = 4
"""Actions carried out in one pass of the loop, so a burst never delays a frame much."""
HEALTH_SECONDS = 2.0
"""How often the health figures are refreshed."""
FRAME_WINDOW_SECONDS = 5.0
"""The camera rate and the read rate are measured over this many seconds."""
LAMP_TEST_STEP_SECONDS = 0.4
"""How long each lamp stays lit in the lamp test (as ``surakarta selftest`` does it)."""
SHOW_MOVE_SECONDS = 8.0
"""How long a replayed move's path stays lit on the board."""
MATCH_VALUE = re.compile(r"([^,]{1,20}),([^,]{1,20}),([0-9]{1,2})")
"""A match's settings from the page: ``first,second,games``."""
SHOW_MOVE_VALUE = re.compile(r"(game-[0-9-]{15,20}\.txt):([0-9]{1,4})")
"""A recorded move from the page: ``record:ply``."""
BUTTON_TEST_SECONDS = 30.0
"""How long the button test waits for the buttons to be pressed."""
LOW_DISK_BYTES = 20 * 1024 * 1024
"""Free space under which the journal's disk counts as nearly full."""
THERMAL_ZONE = Path("/sys/class/thermal/thermal_zone0/temp")
"""The CPU temperature on a Raspberry Pi (millidegrees Celsius)."""


class ActionName(Enum):
    """What a page may ask the board to do."""

    HINT = "hint"
    UNDO = "undo"
    NEW = "new"
    MODE = "mode"
    LEVEL = "level"
    VARIANT = "variant"
    EVAL = "eval"
    LAMP_TEST = "lamp-test"
    MATCH = "match"
    SHOW_MOVE = "show-move"
    CALIBRATE = "calibrate"
    BUTTON_TEST = "button-test"


BUTTONS = {ActionName.HINT: Button.HINT, ActionName.UNDO: Button.UNDO,
           ActionName.NEW: Button.NEW, ActionName.MODE: Button.MODE}
"""Actions that are the board's buttons: pressed through the referee like the real ones."""
MODES = {name: color for color, name in MODE_NAMES.items()}


class BadAction(SurakartaError, ValueError):
    """An action a page may not ask for, or with a value that makes no sense."""


@dataclass(frozen=True, slots=True)
class ActionRequest:
    """One action from a page."""

    name: ActionName
    """What to do."""
    value: str | None = None
    """Its argument: the level, the variant or the mode (None for a plain press)."""


@dataclass(frozen=True, slots=True)
class ActionResult:
    """What came of an action."""

    ok: bool
    """Whether it was carried out."""
    message: str
    """What the board says about it."""


def parse_action(name: str, value: object) -> ActionRequest:
    """The request a page made; raises BadAction quoting what is wrong."""
    try:
        action = ActionName(name)
    except ValueError:
        raise BadAction(f"unknown action: {name[:40]!r}") from None
    if value is not None and not isinstance(value, str | int | float):
        raise BadAction(f"invalid value for {name}: expected text or a number")
    text = None if value is None else str(value)[:40]
    problem = _VALUE_PROBLEMS.get(action, _takes_no_value)(action, text)
    if problem is not None:
        raise BadAction(problem)
    return ActionRequest(action, text)


def _level_problem(action: ActionName, text: str | None) -> str | None:
    if text is None or not text.isdigit() or not 1 <= int(text) <= 10:
        return f"invalid level: {text!r} (expected 1 to 10)"
    return None


def _variant_problem(action: ActionName, text: str | None) -> str | None:
    return None if text in {v.value for v in Variant} else f"unknown variant: {text!r}"


def _mode_problem(action: ActionName, text: str | None) -> str | None:
    if text is not None and text not in MODES:
        return f"unknown mode: {text!r} (expected {', '.join(MODES)})"
    return None  # none: the next mode, as the button does


def _match_problem(action: ActionName, text: str | None) -> str | None:
    if text == "off":
        return None
    found = None if text is None else MATCH_VALUE.fullmatch(text)
    if found is None or not _two_names_and_games(found):
        return (f"invalid match: {text!r} (expected 'first,second,games' with two different "
                "names and 1 to 20 games, or 'off')")
    return None


def _two_names_and_games(found: re.Match[str]) -> bool:
    first, second = found[1].strip(), found[2].strip()
    return bool(first) and first != second and 1 <= int(found[3]) <= 20


def _show_move_problem(action: ActionName, text: str | None) -> str | None:
    if text is None or not SHOW_MOVE_VALUE.fullmatch(text):
        return f"invalid move to show: {text!r} (expected 'record:ply')"
    return None


def _piece_height_problem(action: ActionName, text: str | None) -> str | None:
    """What is wrong with a piece height (mm, as a maker measures it) for a calibration;
    none given is fine: the height given before is kept, or one is judged from the image."""
    if text is None:
        return None
    # Imported here: the page's other actions never load OpenCV.
    from vision.calibrate import MAX_PIECE_HEIGHT_MM, piece_height_allowed

    try:
        height = float(text)
    except ValueError:
        height = float("nan")  # refused below, with the text as sent
    if not piece_height_allowed(height):
        return f"invalid piece height: {text!r} (expected 0 to {MAX_PIECE_HEIGHT_MM:g} mm)"
    return None


def _takes_no_value(action: ActionName, text: str | None) -> str | None:
    return None if text is None else f"{action.value} takes no value, got {text!r}"


_VALUE_PROBLEMS: dict[ActionName, Callable[[ActionName, str | None], str | None]] = {
    ActionName.LEVEL: _level_problem,
    ActionName.VARIANT: _variant_problem,
    ActionName.MODE: _mode_problem,
    ActionName.MATCH: _match_problem,
    ActionName.SHOW_MOVE: _show_move_problem,
    ActionName.CALIBRATE: _piece_height_problem,
}
"""What is wrong with an action's value, by action (None: nothing); the others take none."""


class Board(Protocol):
    """What the link needs of a running board (a ``Pipeline``, a ``Simulation``)."""

    @property
    def session(self) -> BoardSession: ...

    @property
    def hardware(self) -> Hardware: ...


Listener = Callable[[str, str], None]
"""Called on the board's thread with an event name (``state``, ``health``) and its JSON."""


class BoardLink:
    """Carries actions to the board's loop and the board's state to the server."""

    def __init__(self, board: Board, *, clock: Callable[[], float] = time.monotonic) -> None:
        self.board = board
        self.clock = clock
        self.started = clock()
        self.evaluator = Evaluator()
        self.listeners: list[Listener] = []
        """Told of every new state and health (the server adds itself)."""
        self.state_json: str | None = None
        """The latest state as JSON, None until the loop's first pass."""
        self.health_json: str | None = None
        """The latest health figures as JSON."""
        self.camera: tuple[Any, Any] | None = None
        """The latest camera frame and its reading (the app's loop sets them)."""
        self.camera_view: Any = None
        """Or a picture of them already annotated, RGB (the simulator window's)."""
        self.pages = 0
        """Pages open now (the server keeps it)."""
        self.calibration_file: Path | None = None
        """Where a calibration made from the page is kept (None: used until a restart)."""
        journal = board.session.outputs.journal
        self.records = None if journal is None else journal.records
        self._requests: queue.Queue[tuple[ActionRequest, Future[ActionResult]]] = queue.Queue(
            QUEUE_LIMIT)
        self._frames: deque[tuple[float, bool]] = deque(maxlen=600)
        self._health_at = -1e9
        self._key: tuple[object, ...] | None = None
        self.lamp_test: str | None = None
        """The lamp test's progress (``lamp 3 of 68: c1``), None when none runs."""
        self._lamp_test: tuple[float, tuple[str, ...]] | None = None
        self.button_test: dict[str, Any] | None = None
        """The button test's buttons pressed and still awaited (kept once it is over)."""
        self._button_test_until = 0.0
        self._button_presses: queue.Queue[Button] = queue.Queue()
        self._timed_layers: dict[str, float] = {}
        """Lamp layers the page lit, and when they go dark."""

    # -- the server's side (any thread) ----------------------------------------------

    def submit(self, request: ActionRequest) -> Future[ActionResult]:
        """Queue an action for the loop; raises BadAction when too many are waiting."""
        future: Future[ActionResult] = Future()
        try:
            self._requests.put_nowait((request, future))
        except queue.Full:
            raise BadAction("the board is busy: try again") from None
        return future

    # -- the loop's side (the board's thread) ----------------------------------------

    def pump(self, now: float, reading: Any = None, frame: Any = None,
             view: Any = None) -> None:
        """One pass of the board's loop: carry out queued actions, publish what changed.

        ``reading`` is the camera frame's vision reading (a ``FrameReading``) when the
        pass read one, ``frame`` the picture itself (kept for the set-up view), or ``view``
        a picture of it already annotated (RGB).
        """
        if reading is not None:
            self._frames.append((now, bool(reading.is_ok)))
            if frame is not None:
                self.camera = (frame, reading)
            if view is not None:
                self.camera_view = view
        done: list[tuple[Future[ActionResult], ActionResult]] = []
        try:
            for _ in range(ACTIONS_PER_PASS):
                try:
                    request, future = self._requests.get_nowait()
                except queue.Empty:
                    break
                if future.set_running_or_notify_cancel():
                    done.append((future, self._carry_out(request, now)))
            if self._lamp_test is not None:
                self._step_lamp_test(now)
            if self.button_test is not None and self.button_test["running"]:
                self._step_button_test(now)
            for layer, until in list(self._timed_layers.items()):
                if now >= until:
                    del self._timed_layers[layer]
                    self.board.hardware.scene.clear(layer)
            self._publish_state()
        finally:
            # Answered only once the state shows them: a page that asks for the state right
            # after its action was answered sees the action's effect, however busy the loop.
            for future, result in done:
                future.set_result(result)
        if self.clock() - self._health_at >= HEALTH_SECONDS:
            self._publish_health(now)

    def _state_key(self) -> tuple[object, ...]:
        """Everything the state is made of that can change, cheap to compare: the state is
        rebuilt only when this differs (most passes of the loop change nothing)."""
        session = self.board.session
        referee = session.referee
        game = referee.current
        match = referee.match
        return (id(session), id(game), len(game.moves), game.agreed, referee.settled,
                referee.hint, referee.computer_move, referee.computer, referee.level,
                referee.variant, session.last_message, tuple(self.board.hardware.scene.effects()),
                None if match is None else (id(match), len(match.games)),
                self.evaluator.version, json.dumps(self.button_test))

    def _publish_state(self) -> None:
        key = self._state_key()
        if key == self._key:
            return
        self._key = key
        state = board_state(self.board.session, self.board.hardware.scene)
        state["evaluation"] = self.evaluator.latest
        state["lamp_test"] = self.lamp_test
        state["button_test"] = self.button_test
        text = json.dumps(state, separators=(",", ":"))
        if text != self.state_json:
            self.state_json = text
            self._tell("state", text)

    def _publish_health(self, now: float) -> None:
        self._health_at = self.clock()
        text = json.dumps(self.health(now), separators=(",", ":"))
        if text != self.health_json:
            self.health_json = text
            self._tell("health", text)

    def _tell(self, event: str, text: str) -> None:
        for listener in self.listeners:
            listener(event, text)

    def _carry_out(self, request: ActionRequest, now: float) -> ActionResult:
        session = self.board.session
        referee = session.referee
        name, value = request.name, request.value
        log.info("page action: %s%s", name.value, "" if value is None else f" {value}")
        if name is ActionName.MODE and value is not None:
            session.feed(SetMode(MODES[value]), now)
        elif name in BUTTONS:
            session.feed(Pressed(BUTTONS[name]), now)
        elif name is ActionName.LEVEL:
            assert value is not None
            session.feed(SetLevel(int(value)), now)
            return ActionResult(True, f"level {referee.level}")
        elif name is ActionName.VARIANT:
            return self._variant(session, Variant(value), now)
        elif name is ActionName.EVAL:
            return ActionResult(True, self.evaluator.start(referee.current))
        elif name is ActionName.LAMP_TEST:
            return self._start_lamp_test(now)
        elif name is ActionName.SHOW_MOVE:
            assert value is not None
            return self._show_move(value, now)
        elif name is ActionName.MATCH:
            assert value is not None
            return self._match(session, value, now)
        elif name is ActionName.CALIBRATE:
            return self._calibrate(None if value is None else float(value))
        elif name is ActionName.BUTTON_TEST:
            return self._start_button_test(now)
        return ActionResult(True, session.last_message)

    def _start_lamp_test(self, now: float) -> ActionResult:
        lamps = tuple(self.board.hardware.driver.lamps)
        if not lamps:
            return ActionResult(False, "no lamps fitted")
        self._lamp_test = (now, lamps)
        self._step_lamp_test(now)
        return ActionResult(True, f"lamp test: {len(lamps)} lamps one by one in chain order")

    def _show_move(self, value: str, now: float) -> ActionResult:
        """Light the path of a recorded game's move (``record:ply``) for a while."""
        record, ply = value.rsplit(":", 1)
        try:
            move, size = recorded_move(self.records, record, int(ply))
        except (SurakartaError, OSError, ValueError) as error:
            return ActionResult(False, str(error))
        if size != self.board.hardware.layout.size:
            return ActionResult(False, f"{record} was played on a {size}x{size} board")
        path = tuple(lamps_for_move(self.board.hardware.layout, move))
        self._light(REPLAY_LAYER, path, now, SHOW_MOVE_SECONDS)
        return ActionResult(True, f"move {ply} of the game, {move.name}, on the lamps")

    def _calibrate(self, piece_height: float | None) -> ActionResult:
        """Learn the camera again from its latest frame of the start position, and use it
        (and keep it in the calibration file, the previous one beside it) only when it
        reads that frame as the start.

        The pieces' tops are read at ``piece_height`` (mm) when the page gives one, else at
        the height the maker gave the calibration in use: a set whose height had to be
        measured is seldom judged better from the image the next time.
        """
        referee = self.board.session.referee
        if referee.current.moves or not referee.settled:
            return ActionResult(False, "set up the start position (new game) first")
        if self.camera is None or not isinstance(self.board, Pipeline):
            return ActionResult(False, "no camera frame to calibrate from")
        # Imported here: OpenCV loads only for a calibration.
        from vision.calibrate import calibrate, save_calibration
        from vision.config import VisionConfig
        from vision.errors import CalibrationFailed
        from vision.reader import BoardReader

        pipeline = self.board
        frame = self.camera[0]
        if piece_height is None and pipeline.calibration.piece_height_given:
            piece_height = pipeline.calibration.piece_height
        try:
            calibration = calibrate(VisionConfig(), frame, size=referee.position.size,
                                    piece_height=piece_height)
        except CalibrationFailed as error:
            tried = "" if piece_height is None else f" (at the given {piece_height:g} mm)"
            return ActionResult(False, f"calibration failed{tried}: {error}")
        reader = BoardReader(calibration)
        check = reader.read(frame)
        if check.reading is None or not check.reading.matches(referee.position):
            return ActionResult(False, "the new calibration does not read the start "
                                       f"position ({check.status.value}): kept the old one")
        pipeline.reader, pipeline.calibration = reader, calibration
        pipeline.stabiliser.reset()
        # Where the tops are read, as given or judged: a judged height far from the pieces'
        # tells the maker to give theirs.
        how = "as given" if calibration.piece_height_given else "judged from the image"
        tops = f"(pieces' tops read {calibration.piece_height:g} mm up, {how})"
        if self.calibration_file is None:
            return ActionResult(True, f"calibrated until the board restarts {tops}")
        try:
            if self.calibration_file.exists():
                self.calibration_file.replace(self.calibration_file.with_name(
                    self.calibration_file.name + ".previous"))
            save_calibration(calibration, self.calibration_file)
        except OSError as error:
            return ActionResult(True, f"calibrated {tops}, but not saved: {error}")
        return ActionResult(True, f"calibrated and saved to {self.calibration_file} {tops}")

    def _step_lamp_test(self, now: float) -> None:
        """Light the lamp of the test whose turn it is (a page names it: a builder sees at
        once a lamp that stays dark or lights in the wrong place)."""
        assert self._lamp_test is not None
        started, lamps = self._lamp_test
        index = int((now - started) / LAMP_TEST_STEP_SECONDS)
        scene = self.board.hardware.scene
        if index >= len(lamps):
            self._lamp_test = self.lamp_test = None
            scene.clear(LAMP_TEST_LAYER)
            return
        text = f"lamp {index + 1} of {len(lamps)}: {lamps[index]}"
        if text != self.lamp_test:
            self.lamp_test = text
            scene.show(LAMP_TEST_LAYER, Steady((lamps[index],)), priority=200)

    def _start_button_test(self, now: float) -> ActionResult:
        """Take the buttons away from the game for a while and report each press."""
        panel = self.board.hardware.buttons
        if panel is None or not panel.fitted:
            return ActionResult(False, "no buttons fitted")
        if not isinstance(self.board, Pipeline):
            return ActionResult(False, "this board's buttons cannot be tested from the page")
        # Presses go to the test, not the referee: pressing new must not end the game.
        panel.set_handler(self._button_presses.put)
        self._button_test_until = now + BUTTON_TEST_SECONDS
        waiting = [name.value for name in panel.fitted]
        self.button_test = {"running": True, "pressed": [], "waiting": waiting}
        return ActionResult(True, f"press each button within {BUTTON_TEST_SECONDS:g} s: "
                                  + ", ".join(waiting))

    def _step_button_test(self, now: float) -> None:
        test = self.button_test
        assert test is not None
        while not self._button_presses.empty():
            name = self._button_presses.get().value
            if name in test["waiting"]:
                test["waiting"].remove(name)
                test["pressed"].append(name)
        if test["waiting"] and now < self._button_test_until:
            return
        pipeline = self.board
        assert isinstance(pipeline, Pipeline) and pipeline.hardware.buttons is not None
        # Back to the game, as the pipeline delivers presses.
        pipeline.hardware.buttons.set_handler(lambda name: pipeline.submit(Pressed(name)))
        test["running"] = False

    def _light(self, layer: str, lamps: tuple[str, ...], now: float, seconds: float) -> None:
        """Run a chase along ``lamps`` above every game layer for ``seconds``."""
        self.board.hardware.scene.show(layer, Chase(lamps, tail=3), priority=200)
        self._timed_layers[layer] = now + seconds

    def _match(self, session: BoardSession, value: str, now: float) -> ActionResult:
        referee = session.referee
        refusal = referee.settings_refusal()
        if refusal is not None:
            return ActionResult(False, refusal)
        if value == "off":
            session.feed(SetMatch(None), now)
        else:
            first, second, games = (part.strip() for part in value.split(","))
            rules = MatchRules(games=int(games), pieces_per_side=2 * referee.position.size)
            session.feed(SetMatch((first, second), rules), now)
        return ActionResult(True, session.last_message)

    def _variant(self, session: BoardSession, variant: Variant, now: float) -> ActionResult:
        referee = session.referee
        refusal = referee.variant_refusal(variant)
        if refusal is not None:
            return ActionResult(False, refusal)
        if variant is referee.variant and not referee.current.moves:
            return ActionResult(True, f"already {variant.value}")
        session.feed(SetVariant(variant), now)
        return ActionResult(True, session.last_message)

    # -- health ---------------------------------------------------------------------

    def health(self, now: float) -> dict[str, Any]:
        """Camera and vision rates, journal, engine, uptime, CPU temperature, pages."""
        recent = [ok for t, ok in self._frames if now - t <= FRAME_WINDOW_SECONDS]
        span = min(FRAME_WINDOW_SECONDS, max(1e-9, now - self._frames[0][0])) if recent else 0
        return {
            "uptime": round(self.clock() - self.started),
            "camera_fps": round(len(recent) / span, 1) if recent else None,
            "read_rate": round(sum(recent) / len(recent), 2) if recent else None,
            "journal": self._journal_health(),
            "engine": self._engine_state(),
            "cpu_temperature": _cpu_temperature(),
            "pages": self.pages,
        }

    def _engine_state(self) -> str:
        referee = self.board.session.referee
        if (referee.settled and referee.is_computer_turn and referee.computer_move is None
                and not referee.current.is_over):
            return "thinking of the computer's move"
        return "evaluating for the page" if self.evaluator.is_thinking else "ready"

    def _journal_health(self) -> dict[str, Any] | None:
        """Whether the game is safely on the disk: the journal holds every move the referee
        accepted (the session saves before it confirms a move, so a journal behind means
        the saves fail), and its disk has room."""
        journal = self.board.session.outputs.journal
        if journal is None:
            return None
        path = journal.path
        moves = len(self.board.session.referee.current.moves)
        try:
            saved = len(json.loads(path.read_text(encoding="utf-8"))["moves"])
        except FileNotFoundError:
            saved = 0  # nothing to save yet
        except (OSError, ValueError, KeyError, TypeError):
            saved = -1
        try:
            free: int | None = shutil.disk_usage(path.parent).free
        except OSError:
            free = None
        problem = (f"saves failing: the journal holds {max(saved, 0)} of {moves} moves"
                   if saved != moves else
                   "disk nearly full" if free is not None and free < LOW_DISK_BYTES else None)
        return {"path": str(path), "ok": problem is None, "problem": problem,
                "free_mb": None if free is None else free // (1024 * 1024)}


def _cpu_temperature() -> float | None:
    try:
        return round(int(THERMAL_ZONE.read_text()) / 1000, 1)
    except (OSError, ValueError):
        return None
