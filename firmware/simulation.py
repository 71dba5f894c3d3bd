"""A whole board in simulated time: a virtual board and hand, rendered camera frames,
the real vision, the referee, and the hardware layer on gpiozero's mock pins.

``surakarta scenario`` runs scenarios through it; the soak benchmark plays random
games through it; the simulator window drives the same pieces in real time.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np
from gpiozero.pins.mock import MockFactory, MockPWMPin

from controller import Color, Move, Position, Variant, start_position
from controller.decisions import (
    Button,
    ComputerChose,
    Decision,
    HintShown,
    SetLevel,
    SetMode,
    SetVariant,
)
from controller.engine.service import EngineService, ImmediateEngine
from controller.geometry import Point, bit, geometry, point_name, point_xy
from controller.reading import BoardReading
from controller.referee import Referee
from firmware.board import BoardSession, DecisionObserver, EventSink
from firmware.journal import Journal
from firmware.pipeline import Pipeline, PipelineParts, Service, open_pipeline
from firmware.scenario import Action, BadScenario, Step
from hardware.build import Hardware, build_hardware
from hardware.config import ButtonConfig, HardwareConfig
from hardware.effects import Blink
from vision.calibrate import calibrate
from vision.config import VisionConfig
from vision.reader import BoardReader, FrameReading
from vision.render import SKIN_TONES, Hand, Scene, render

_HAND_ACTIONS = frozenset(
    {Action.MOVE, Action.CAPTURE, Action.LIFT, Action.PLACE, Action.REMOVE, Action.PUT}
)
"""Scenario actions that the hand carries out on the board."""


@dataclass(frozen=True, slots=True)
class Timing:
    """How long a hand takes for each part of an action, in seconds."""

    reach: float = 0.4
    """From off the board to a point, and grasping."""
    carry: float = 0.4
    """From one point to another with a piece."""
    leave: float = 0.3
    """From the last point to off the board."""
    settle: float = 0.8
    """Pause after an action before the next, so that the camera sees the board."""


@dataclass(frozen=True, slots=True)
class SimulationOptions:
    """The simulated camera and hand."""

    fps: float = 10.0
    """Camera frames per second."""
    hold_seconds: float = 0.3
    """The vision stabiliser's hold time."""
    scene: Scene = field(default_factory=lambda: Scene(noise=2.0))
    """Camera pose and light (its seed is advanced every frame)."""
    hands: bool = True
    """Render the hand over the board while it acts (off: actions are instant)."""
    timing: Timing = field(default_factory=Timing)
    """How quick the hand is."""
    engine_depth: int = 2
    """Search depth of the simulated computer opponent and hints."""
    seed: int = 0
    """Seed of everything random."""


@dataclass
class VirtualBoard:
    """The physical pieces and the hand above them."""

    pieces: dict[Point, Color]
    """What stands where."""
    size: int
    """Lines per side."""
    hand: tuple[float, float] | None = None
    """Grid position (file, rank) of the fingertips, or None when the hand is away."""
    held: list[Color] = field(default_factory=list)
    """Pieces in the hand (or put aside), last taken last."""

    @classmethod
    def of(cls, position: Position) -> VirtualBoard:
        pieces = {}
        for point in geometry(position.size).points:
            color = position.piece_at(point)
            if color is not None:
                pieces[point] = color
        return cls(pieces, position.size)

    def reading(self) -> BoardReading:
        """What a perfect camera would read."""
        red = sum(bit(p) for p, c in self.pieces.items() if c is Color.RED)
        black = sum(bit(p) for p, c in self.pieces.items() if c is Color.BLACK)
        return BoardReading(red, black, self.size)


def simulated_hardware(variant: Variant) -> HardwareConfig:
    """The build a simulation wires on mock pins: the default wiring, no switch bounce."""
    return HardwareConfig(board_size=variant.size, buttons=ButtonConfig(bounce_time=0.0))


class Simulation:
    """One board session in simulated time.

    ``pin_factory`` lets a caller watch the mock pins (e.g. with a model of the LED
    chain) before the hardware opens them; ``engine`` starts another engine than the
    fixed-depth one (e.g. one that thinks in the background, for real time);
    ``observers`` and ``services`` go to the pipeline (``firmware.pipeline``).
    """

    def __init__(
        self,
        events: EventSink,
        options: SimulationOptions | None = None,
        variant: Variant = Variant.STANDARD,
        journal: Journal | None = None,
        *,
        pin_factory: MockFactory | None = None,
        engine: Callable[[], EngineService] | None = None,
        observers: Sequence[DecisionObserver] = (),
        services: Sequence[Service] = (),
    ) -> None:
        self.options = options or SimulationOptions()
        self.journal = journal
        self.emit_raw = events
        self.t = 0.0
        self.frame_index = 0
        self.last_lit: Move | None = None
        self.hand_left_at: float | None = None
        self._leds: tuple[tuple[str, ...], tuple[str, ...]] = ((), ())
        self._rng = np.random.default_rng(self.options.seed)
        self._own_pins = pin_factory is None
        self.pin_factory = pin_factory or MockFactory(pin_class=MockPWMPin)
        self._open_engine = engine or (
            lambda: ImmediateEngine(self.options.engine_depth, self.options.seed)
        )
        self._observers = (self._remember_lit, *observers)
        self._services = tuple(services)
        self.pipeline = self._open(variant)

    # -- set-up ---------------------------------------------------------------------

    def _open(self, variant: Variant) -> Pipeline:
        """The pipeline of a new session of ``variant``, its board set up at the start."""
        start = start_position(variant.size)
        self.board = VirtualBoard.of(start)
        pipeline = open_pipeline(
            PipelineParts(
                open_hardware=lambda on_press: build_hardware(
                    simulated_hardware(variant),
                    self.pin_factory,
                    on_press=on_press,
                    clock=lambda: self.t,
                    sleep=lambda seconds: None,
                ),
                open_engine=self._open_engine,
                referee=lambda: Referee(variant),
                calibration=lambda: calibrate(VisionConfig(), self._render(start, None)),
                hold_seconds=self.options.hold_seconds,
                journal=self.journal,
                immediate_sound=True,
                events=self.emit_raw,
                observers=self._observers,
                services=self._services,
            )
        )
        pipeline.session.start(self.t)
        return pipeline

    def _change_variant(self, variant: Variant, line: int) -> None:
        """Another variant: on the same board, as the players choose it (a referee input,
        journaled); on a board of another size, a new session with its lamps rewired."""
        if variant.size == self.board.size:
            self.session.feed(SetVariant(variant), self.t)
            return
        if not self._own_pins:
            # The caller watches these pins for a board of the first size.
            raise BadScenario(f"line {line}: this session's board size is fixed")
        self.pipeline.close()
        self.pin_factory = MockFactory(pin_class=MockPWMPin)
        self._leds = ((), ())
        self.pipeline = self._open(variant)

    @property
    def hardware(self) -> Hardware:
        """The lamps, buttons and buzzer on the mock pins."""
        return self.pipeline.hardware

    @property
    def session(self) -> BoardSession:
        """The referee wired to its outputs."""
        return self.pipeline.session

    @property
    def referee(self) -> Referee:
        """The referee of the session."""
        return self.pipeline.session.referee

    @property
    def reader(self) -> BoardReader:
        """The vision reading the rendered frames."""
        return self.pipeline.reader

    def close(self) -> None:
        """Stop the engine, darken the lamps and release the mock pins."""
        self.pipeline.close()

    # -- the camera and the loop ----------------------------------------------------

    def _render(self, board: BoardReading | Position, hand: tuple[float, float] | None) -> Any:
        return self.camera_image(board, hand, self.frame_index)

    def camera_image(
        self, board: BoardReading | Position, hand: tuple[float, float] | None, index: int
    ) -> Any:
        """Frame number ``index`` of the camera, showing ``board`` and the hand at ``hand``.

        A pure function of its arguments and the options, so a worker thread may call it.
        """
        scene = dataclasses.replace(self.options.scene, seed=self.options.seed + index)
        if hand is not None:
            skin = SKIN_TONES[self.options.seed % len(SKIN_TONES)]
            scene = dataclasses.replace(
                scene, hand=Hand(edge=2, entry=0.5, reach=hand, width_pitches=1.1, skin=skin)
            )
        return render(board, scene)

    def frame(self) -> FrameReading:
        """Render the board as it is now and read it with the real vision."""
        image = self._render(self.board.reading(), self.board.hand)
        self.frame_index += 1
        return self.reader.read(image)

    def tick(self) -> None:
        """One camera frame: see, stabilise, referee, engine, buttons, lamps."""
        self.step(self.frame())
        self.t += 1.0 / self.options.fps

    def step(self, frame: FrameReading) -> None:
        """Everything after the camera, at time ``t``: stabilise, referee, engine, buttons,
        lamps (``t`` is left as it is: a caller in real time sets it)."""
        self.pipeline.see(self.t, frame)
        self.pipeline.deliver(self.t)
        self.refresh_lamps()
        self._report_leds()
        if self.frame_index % 50 == 0:
            self._forget_pin_history()

    def refresh_lamps(self) -> None:
        """Write the lamps of time ``t`` to the driver (what the refresh loop does live)."""
        driver = self.hardware.driver
        driver.write(self.hardware.scene.frame(dimmable=driver.is_dimmable))

    def advance(self, seconds: float) -> None:
        """Let ``seconds`` of simulated time pass, frame by frame."""
        end = self.t + seconds - 1e-9
        while self.t < end:
            self.tick()

    def _forget_pin_history(self) -> None:
        # Mock pins keep every change they ever saw; a long session needs only the last.
        for pin in self.pin_factory.pins.values():
            del pin.states[:-1]

    # -- events ---------------------------------------------------------------------

    def _remember_lit(self, decision: Decision) -> None:
        if isinstance(decision, HintShown | ComputerChose):
            # What ``follow`` carries out: the move the board lit last.
            self.last_lit = decision.move

    def _report_leds(self) -> None:
        on: set[str] = set()
        blink: set[str] = set()
        for _, effect in self.hardware.scene.effects():
            (blink if isinstance(effect, Blink) else on).update(effect.lamps)
        leds = (tuple(sorted(on - blink)), tuple(sorted(blink)))
        if leds != self._leds:
            self._leds = leds
            self.emit_raw({"t": round(self.t, 3), "type": "leds", "on": list(leds[0]),
                           "blink": list(leds[1])})

    # -- the hand -------------------------------------------------------------------

    def _hand_over(self, point: Point, seconds: float) -> None:
        self.board.hand = tuple(float(v) for v in point_xy(point))  # type: ignore[assignment]
        if self.options.hands:
            self.advance(seconds)

    def _hand_away(self) -> None:
        if self.board.hand is not None and self.options.hands:
            self.advance(self.options.timing.leave)
        self.board.hand = None
        self.hand_left_at = self.t

    def _take(self, point: Point, line: int) -> None:
        if point not in self.board.pieces:
            raise BadScenario(f"line {line}: no piece on {point_name(point)}")
        self.board.held.append(self.board.pieces.pop(point))

    def _drop(self, point: Point, line: int, color: Color | None = None) -> None:
        if point in self.board.pieces:
            raise BadScenario(f"line {line}: {point_name(point)} is already occupied")
        if color is None:
            if not self.board.held:
                raise BadScenario(f"line {line}: the hand holds no piece")
            color = self.board.held.pop()
        self.board.pieces[point] = color

    def lift(self, point: Point, line: int = 0) -> None:
        timing = self.options.timing
        self._hand_over(point, timing.reach)
        self._take(point, line)
        self._hand_away()

    def place(self, point: Point, line: int = 0, color: Color | None = None) -> None:
        self._hand_over(point, self.options.timing.reach)
        self._drop(point, line, color)
        self._hand_away()

    def move(self, origin: Point, target: Point, line: int = 0) -> None:
        timing = self.options.timing
        self._hand_over(origin, timing.reach)
        self._take(origin, line)
        self._hand_over(target, timing.carry)
        self._drop(target, line)
        self._hand_away()

    def capture(self, origin: Point, target: Point, line: int = 0,
                landing: Point | None = None) -> None:
        timing = self.options.timing
        self._hand_over(target, timing.reach)
        self._take(target, line)
        self.board.held.pop()  # the captured piece goes to the tray
        self._hand_over(origin, timing.carry)
        self._take(origin, line)
        self._hand_over(landing if landing is not None else target, timing.carry)
        self._drop(landing if landing is not None else target, line)
        self._hand_away()

    def carry_out(self, move: Move, line: int = 0) -> None:
        """Make ``move`` on the board as a person would."""
        if move.is_capture:
            self.capture(move.origin, move.target, line, move.landing)
        else:
            self.move(move.origin, move.target, line)

    def press(self, button: Button) -> None:
        """Press and release a button through its mock pin, and let a frame pass."""
        self.push(button)
        self.tick()

    def push(self, button: Button) -> None:
        """Press and release a button through its mock pin; the next step handles it."""
        assert self.hardware.buttons is not None
        pin = self.hardware.buttons.button(button).pin
        pin.drive_low()
        pin.drive_high()

    # -- scenarios ------------------------------------------------------------------

    def run(self, steps: list[Step]) -> None:
        """Carry out a scenario, then let the board settle."""
        self.advance(self.options.timing.settle)
        for step in steps:
            self.run_step(step)
            self.advance(self.options.timing.settle)

    def run_step(self, step: Step) -> None:
        action, points, line = step.action, step.points, step.line
        for point in points:
            if not geometry(self.board.size).is_on_board(point):
                raise BadScenario(f"line {line}: {point_name(point)} is not on the board")
        if action in _HAND_ACTIONS:
            self._hand_step(step)
        elif action is Action.VARIANT:
            assert step.variant is not None
            if self.referee.current.moves:
                raise BadScenario(f"line {line}: the variant must come before the first move")
            self._change_variant(step.variant, line)
        elif action is Action.MODE:
            self.session.feed(SetMode(step.color), self.t)
            self.session.poll_engine(self.t)
        elif action is Action.LEVEL:
            self.session.feed(SetLevel(int(step.number)), self.t)
        elif action is Action.PRESS:
            assert step.button is not None
            self.press(step.button)
        elif action is Action.WAIT:
            self.advance(step.number)
        elif action is Action.FOLLOW:
            if self.last_lit is None:
                raise BadScenario(f"line {line}: nothing is lit to follow")
            self.carry_out(self.last_lit, line)

    def _hand_step(self, step: Step) -> None:
        """A scenario step the hand carries out on the board."""
        action, points, line = step.action, step.points, step.line
        if action is Action.MOVE:
            self.move(points[0], points[1], line)
        elif action is Action.CAPTURE:
            self.capture(points[0], points[1], line)
        elif action is Action.LIFT:
            self.lift(points[0], line)
        elif action is Action.PLACE:
            self.place(points[0], line)
        elif action is Action.REMOVE:
            self.lift(points[0], line)
            self.board.held.pop()
        elif action is Action.PUT:
            self.place(points[0], line, step.color)

