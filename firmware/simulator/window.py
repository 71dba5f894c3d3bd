"""The simulator window: the virtual board under the mouse, the camera panel, the buttons.

One object, ``SimulatorWindow``, owns the simulation and everything drawn; it has
no loop of its own. ``handle`` takes pygame events, ``update`` moves it to a given
time (camera frames at the camera rate, lamps refreshed every call) and ``draw``
paints a surface, so tests drive it with synthetic events on a hand-turned clock
and ``run_loop`` drives it with the real one.
"""

from __future__ import annotations

import dataclasses
import logging
import time
from collections import deque
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

import pygame
from gpiozero.pins.mock import MockFactory, MockPWMPin

from controller.decisions import (
    Accepted,
    AgreementTakenBack,
    Button,
    ComputerChose,
    Decision,
    GameEnded,
    HintShown,
    Illegal,
    Lifted,
    Restored,
    SetLevel,
    SetMode,
    Sound,
    Undone,
)
from controller.engine.service import BackgroundEngine, EngineService, ImmediateEngine
from controller.game import winner_name
from controller.geometry import geometry, point_name
from controller.movegen import legal_moves, make_move
from controller.position import Color, Position, start_position
from firmware.scenario import parse_scenario
from firmware.simulation import Simulation, SimulationOptions, simulated_hardware
from firmware.simulator import drawing
from firmware.simulator.camera import CameraFeed, Shot, Snapshot
from firmware.simulator.evaluation import Evaluation
from firmware.simulator.hands import Hands
from firmware.simulator.lamps import LampWatch
from firmware.simulator.layout import CAMERA_VIEW, WINDOW_SIZE, Layout, inside
from firmware.simulator.options import SimulatorError, WindowOptions, camera_scene
from firmware.simulator.sound import Speaker
from firmware.simulator.status import NOTICE_SECONDS, StatusLine
from hardware.buzzer import SOUND_PATTERNS
from hardware.lamp_colours import layer_colour
from vision.calibrate import calibrate
from vision.config import VisionConfig
from vision.errors import CalibrationFailed
from vision.reader import BoardReader
from vision.render import Scene, render

if TYPE_CHECKING:
    from firmware.web.service import WebService

log = logging.getLogger(__name__)

BUTTONS: tuple[tuple[str, str], ...] = (
    ("hint", "Hint (H)"),
    ("undo", "Undo (U)"),
    ("new", "New (N)"),
    ("mode", "Mode (M)"),
    ("level-", "Level - (-)"),
    ("level+", "Level + (+)"),
    ("eval", "Eval (E)"),
    ("follow", "Play lit (F)"),
    ("setup", "Set up (R)"),
)
"""On-screen buttons: action and label (with its key)."""

KEYS = {
    pygame.K_h: "hint",
    pygame.K_u: "undo",
    pygame.K_n: "new",
    pygame.K_m: "mode",
    pygame.K_MINUS: "level-",
    pygame.K_KP_MINUS: "level-",
    pygame.K_PLUS: "level+",
    pygame.K_EQUALS: "level+",
    pygame.K_KP_PLUS: "level+",
    pygame.K_e: "eval",
    pygame.K_f: "follow",
    pygame.K_r: "setup",
}
"""Keys for the on-screen buttons."""

PIN_BUTTONS = {button.value: button for button in Button}
"""Actions that press a button of the board, through its mock pin."""

SOUND_WORDS = {
    Sound.MOVE_ACCEPTED: "chirp (move accepted)",
    Sound.ILLEGAL_MOVE: "three buzzes (illegal move)",
    Sound.COMPUTER_MOVE: "rising pair (computer's move)",
    Sound.GAME_OVER: "falling phrase (game over)",
    Sound.SAVE_FAILED: "two long buzzes (the game cannot be saved)",
}
"""How the panel names the buzzer's sounds."""

SCENE_ATTEMPTS = 20
"""Camera scenes tried, seed after seed, before giving up on a preset."""
PRESS_FLASH_SECONDS = 0.25
"""How long an on-screen button shows as pressed."""


def describe(decision: Decision) -> str | None:
    """What a decision tells the player, in words (None: nothing the panel shows)."""
    if isinstance(decision, Accepted):
        return f"{decision.by.word} played {decision.move.name}"
    if isinstance(decision, Illegal):
        return "not a legal move: put back " + " ".join(point_name(p) for p in decision.fix)
    if isinstance(decision, Restored):
        return "put back as it was"
    if isinstance(decision, Lifted):
        targets = " ".join(point_name(p) for p in decision.targets) or "nowhere"
        return f"{point_name(decision.point)} lifted, it can go to {targets}"
    if isinstance(decision, HintShown):
        told = f" ({decision.outlook})" if decision.outlook else ""
        return f"hint {decision.move.name}{told}"
    if isinstance(decision, ComputerChose):
        return f"the computer plays {decision.move.name}"
    if isinstance(decision, Undone):
        return f"took back {decision.move.name}"
    if isinstance(decision, GameEnded):
        outcome = decision.outcome
        return f"game over: {winner_name(outcome.winner)} ({outcome.reason.value})"
    if isinstance(decision, AgreementTakenBack):
        return "the agreement was taken back: the game goes on"
    return None


def choose_scene(options: WindowOptions) -> Scene:
    """The first scene of the preset, from ``options.seed`` on, that vision reads reliably."""
    size = options.variant.size
    start = start_position(size)
    for attempt in range(SCENE_ATTEMPTS):
        scene = camera_scene(options.preset, options.noise, options.seed + attempt, size)
        try:
            reader = BoardReader(calibrate(VisionConfig(), render(start, scene)))
        except CalibrationFailed:
            continue
        frames = (dataclasses.replace(scene, seed=scene.seed + k) for k in range(3))
        if all(reader.read(render(start, frame)).is_ok for frame in frames):
            return scene
    raise SimulatorError(
        f"no camera scene of preset {options.preset.value!r} could be read "
        f"(seeds {options.seed} to {options.seed + SCENE_ATTEMPTS - 1})"
    )


class SimulatorWindow:
    """The whole simulator, drawn on any pygame surface."""

    def __init__(
        self,
        options: WindowOptions,
        *,
        threaded: bool = True,
        audio: bool = True,
        engine: Callable[[], EngineService] | None = None,
        web: WebService | None = None,
    ) -> None:
        self.options = options
        self.web = web
        """The companion page served beside the window (``--web``), pumped every update."""
        self.layout = Layout.for_size(options.variant.size)
        self.events: list[dict[str, Any]] = []
        """Every event of the session (accepted, illegal, hint, leds ...), oldest first."""
        self.latest = ""
        """The latest thing that happened on the board, in words."""
        self.running = True
        """False once the window was asked to close."""
        self.frame_seconds: deque[float] = deque(maxlen=600)
        """Time spent on each of the last window frames (update, draw and display)."""
        factory = MockFactory(pin_class=MockPWMPin)
        # The chain model must watch the LED pins before the hardware opens them.
        self.lamps = LampWatch(factory, simulated_hardware(options.variant))
        if engine is None:
            engine = (
                (lambda: BackgroundEngine(options.think_seconds, options.seed))
                if threaded
                else (lambda: ImmediateEngine(2, options.seed))
            )
        simulation_options = SimulationOptions(
            fps=options.camera_fps, scene=choose_scene(options), seed=options.seed
        )
        self.simulation = Simulation(
            self.events.append, simulation_options, options.variant,
            pin_factory=factory, engine=engine, observers=(self._observe,),
            services=() if web is None else (web,),
        )
        simulation = self.simulation
        try:
            simulation.session.feed(SetLevel(options.level), simulation.t)
            if options.computer is not None:
                simulation.session.feed(SetMode(options.computer), simulation.t)
            if options.scenario is not None:
                simulation.run(parse_scenario(options.scenario.read_text(encoding="utf-8")))
        except BaseException:
            simulation.close()
            raise
        self.hands = Hands(simulation.board, self.layout)
        self.camera = CameraFeed(simulation, CAMERA_VIEW, threaded)
        buzzer = simulation.hardware.buzzer
        self.speaker = Speaker(SOUND_PATTERNS if buzzer is None else buzzer.patterns, audio=audio)
        self._hook_buzzer()
        self.evaluation = Evaluation()
        self.now = simulation.t
        """Window time, seconds (continues the scenario's simulated time)."""
        self.last_shot: Shot | None = None
        """The last camera frame through the vision."""
        self.notice = ""
        """A short note about the last on-screen action."""
        # What the panel shows of the three, each while still true (see status.py).
        self._referee_line = StatusLine()
        self._board_line = StatusLine()
        self._notice_line = StatusLine(NOTICE_SECONDS)
        self._next_frame = self.now
        self._pressed: dict[str, float] = {}
        self._background: pygame.Surface | None = None
        self._camera_view: pygame.Surface | None = None
        self.button_rects = self.layout.buttons(tuple(name for name, _ in BUTTONS))
        """Where each on-screen button is."""

    def _observe(self, decision: Decision) -> None:
        text = describe(decision)
        if text is not None:
            self.latest = text
            self._board_line.say(text, self.now, self.simulation.referee.game)

    def _hook_buzzer(self) -> None:
        # The buzzer still sounds on its mock pin; the speaker plays the same pattern.
        outputs = self.simulation.session.outputs
        buzzer = outputs.play_sound

        def play(sound: Sound) -> None:
            if buzzer is not None:
                buzzer(sound)
            self.speaker.play(sound, self.now)

        outputs.play_sound = play

    # -- input ----------------------------------------------------------------------

    def handle(self, event: pygame.event.Event) -> None:
        """Take one pygame event."""
        if event.type == pygame.QUIT:
            self.running = False
        elif event.type == pygame.KEYDOWN:
            if event.key in (pygame.K_ESCAPE, pygame.K_q):
                self.running = False
            elif event.key in KEYS:
                self.act(KEYS[event.key])
        elif event.type == pygame.MOUSEBUTTONDOWN and event.button == 1:
            for name, rect in self.button_rects.items():
                if inside(rect, event.pos):
                    self.act(name)
                    return
            self.hands.press(event.pos)
        elif event.type == pygame.MOUSEMOTION:
            self.hands.move(event.pos)
        elif event.type == pygame.MOUSEBUTTONUP and event.button == 1 and self.hands.down:
            self.hands.release(event.pos)

    def act(self, name: str) -> None:
        """Carry out an on-screen button or its key."""
        self._pressed[name] = self.now
        simulation = self.simulation
        referee = simulation.referee
        if name in PIN_BUTTONS:
            simulation.push(PIN_BUTTONS[name])
            self._note(f"pressed {name}")
        elif name in ("level-", "level+"):
            step = 1 if name == "level+" else -1
            simulation.session.feed(SetLevel(min(10, max(1, referee.level + step))), self.now)
            self._note(f"level {referee.level}")
        elif name == "eval":
            self.evaluation.start(referee.current)
        elif name == "follow":
            move = simulation.last_lit
            if move is None or move not in legal_moves(referee.position, referee.variant):
                self._note("nothing lit to play")
                return
            self._arrange(make_move(referee.position, move))
            self._note(f"played {move.name}")
        elif name == "setup":
            self._arrange(referee.position)
            self._note("pieces set out as the referee expects")

    def _note(self, text: str) -> None:
        self.notice = text
        self._notice_line.say(text, self.now, self.simulation.referee.game)

    def _arrange(self, position: Position) -> None:
        points = geometry(position.size).points
        self.hands.arrange({p: c for p in points if (c := position.piece_at(p)) is not None})

    # -- time -----------------------------------------------------------------------

    def update(self, now: float) -> None:
        """Move on to window time ``now``: take camera frames when due, refresh the lamps."""
        self.now = now
        simulation = self.simulation
        simulation.t = now
        if not self.camera.is_busy and now >= self._next_frame - 1e-9:
            board = simulation.board
            self.camera.request(Snapshot(board.reading(), board.hand, simulation.frame_index))
            self._next_frame += 1.0 / self.options.camera_fps
            if self._next_frame < now:
                self._next_frame = now  # fell behind: do not try to catch up in a burst
        shot = self.camera.collect()
        if shot is not None:
            simulation.frame_index += 1
            simulation.step(shot.reading)
            self.last_shot = shot
            self._camera_view = None
        simulation.t = now
        simulation.refresh_lamps()
        if self.web is not None:
            self.web.pump(now, None if shot is None else shot.reading,
                          view=None if shot is None else shot.view)

    def advance(self, seconds: float, step: float = 0.1) -> None:
        """Let ``seconds`` pass in steps of ``step`` (for scripted use and tests)."""
        end = self.now + seconds - 1e-9
        while self.now < end:
            self.update(self.now + step)

    # -- drawing --------------------------------------------------------------------

    def draw(self, surface: pygame.Surface) -> None:
        """Paint the whole window."""
        layout = self.layout
        view = layout.board
        surface.fill(drawing.BACKGROUND)
        if self._background is None:
            self._background = drawing.board_background(layout)
        surface.blit(self._background, (view.left, view.top))
        colours = None
        if self.options.colour_lamps:
            owners = self.simulation.hardware.scene.owners()
            colours = {lamp: layer_colour(layer, drawing.LAMP_ON)
                       for lamp, layer in owners.items()}
        drawing.draw_lamps(surface, view, self.simulation.hardware.layout, self.lamps.lit(),
                           colours)
        drawing.draw_pieces(surface, view, sorted(self.simulation.board.pieces.items()))
        drawing.draw_trays(surface, layout, {c: self.hands.tray_count(c) for c in Color})
        carried = self.hands.carried
        if carried is not None:
            drawing.draw_piece(surface, self.hands.mouse, view.pitch, carried.color, 1.12)
        self._draw_camera(surface)
        self._draw_status(surface)
        for name, label in BUTTONS:
            active = self.now - self._pressed.get(name, -1e9) < PRESS_FLASH_SECONDS
            drawing.draw_button(surface, self.button_rects[name], label, active)

    def _draw_camera(self, surface: pygame.Surface) -> None:
        rect = self.layout.camera
        if self.last_shot is None:
            pygame.draw.rect(surface, (20, 22, 26), rect)
            drawing.text(surface, "camera starting...", (rect[0] + rect[2] / 2,
                         rect[1] + rect[3] / 2), 22, drawing.DIM_TEXT, centre=True)
            return
        if self._camera_view is None:
            view = self.last_shot.view
            self._camera_view = pygame.image.frombuffer(
                view.tobytes(), (view.shape[1], view.shape[0]), "RGB"
            )
        surface.blit(self._camera_view, rect[:2])

    def _draw_status(self, surface: pygame.Surface) -> None:
        simulation = self.simulation
        referee = simulation.referee
        game = referee.current
        x, y = self.layout.camera[0], self.layout.text_top
        width = WINDOW_SIZE[0] - x - 10
        mode = "two players" if referee.computer is None else (
            f"computer plays {referee.computer.word}")
        drawing.text(surface, f"{referee.variant.value} · {mode} · level {referee.level}",
                     (x, y), 24, drawing.ACCENT)
        y += 24
        position = referee.position
        outcome = game.outcome
        turn = (f"game over: {outcome}" if outcome is not None
                else f"{position.turn.word} to move")
        if outcome is None:
            drawing.draw_piece(surface, (x + 8, y + 8), 40, position.turn, 0.6)
        drawing.text(surface, turn, (x + (0 if outcome else 22), y), 24)
        drawing.text(surface, f"red {position.count(Color.RED)} · black "
                     f"{position.count(Color.BLACK)}", (x + width - 130, y), 22,
                     drawing.DIM_TEXT)
        y += 24
        now = self.now
        self._referee_line.follow(simulation.session.last_message, now, game)
        lines = []
        if said := self._referee_line.shown(now, game):
            lines.append(f"referee: {said}")
        if happened := self._board_line.shown(now, game):
            lines.append(f"board: {happened}")
        lines.append(f"vision: {self._vision_text()}")
        if self.speaker.last is not None and self.now - self.speaker.last_at < 4.0:
            audio = "" if self.speaker.has_audio else " (no audio)"
            lines.append(f"buzzer{audio}: {SOUND_WORDS[self.speaker.last]}")
        lines.append(f"engine: {self.evaluation.text}")
        if noted := self._notice_line.shown(now, game):
            lines.append(noted)
        for line in lines:
            for part in drawing.wrap(line, width, 21)[:2]:
                drawing.text(surface, part, (x, y), 21, drawing.TEXT)
                y += 19
        y += 4
        drawing.text(surface, f"moves ({len(game.moves)})", (x, y), 21, drawing.DIM_TEXT)
        y += 19
        bottom = min(rect[1] for rect in self.button_rects.values()) - 6
        rows = max(1, (bottom - y) // 18)
        entries = drawing.move_list_lines([move.name for move in game.moves])
        columns = 3
        shown = entries[-rows * columns:]
        for index, entry in enumerate(shown):
            column, row = divmod(index, rows)
            drawing.text(surface, entry, (x + column * (width // columns), y + row * 18), 20)

    def _vision_text(self) -> str:
        shot = self.last_shot
        if shot is None:
            return "waiting for the first frame"
        milliseconds = (shot.render_seconds + shot.read_seconds) * 1000
        return (f"{shot.reading.status.value} · camera {self.options.camera_fps:g} fps, "
                f"frame {milliseconds:.0f} ms")

    # -- the end --------------------------------------------------------------------

    def close(self) -> None:
        """Stop the camera and the engine, darken the lamps, release the pins and audio."""
        self.camera.close()
        self.speaker.close()
        self.simulation.close()


def run_loop(window: SimulatorWindow, screen: pygame.Surface, exit_after: float | None) -> None:
    """Run ``window`` on the real clock until it is closed or ``exit_after`` seconds pass."""
    clock = pygame.time.Clock()
    started = time.monotonic()
    base = window.now
    while window.running:
        for event in pygame.event.get():
            window.handle(event)
        elapsed = time.monotonic() - started
        if exit_after is not None and elapsed >= exit_after:
            break
        begun = time.perf_counter()
        window.update(base + elapsed)
        window.draw(screen)
        pygame.display.flip()
        window.frame_seconds.append(time.perf_counter() - begun)
        clock.tick(window.options.window_fps)
