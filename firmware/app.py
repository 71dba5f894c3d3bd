"""``surakarta run``: the board's main loop on a Pi (or a PC with a camera or files).

Camera frames go through the vision reader and the stabiliser to the referee;
button presses and engine answers come in between frames. The loop owns the
clock. A camera that fails is reopened every few seconds while the lamps show an
error pattern; SIGTERM or Ctrl-C stop the loop and leave every lamp dark.
"""

from __future__ import annotations

import logging
import signal
import threading
import time
import warnings
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from types import FrameType
from typing import Any

from gpiozero.exc import GPIOZeroError, PinFactoryFallback

from controller.decisions import Layer, Sound
from controller.engine.service import BackgroundEngine
from controller.errors import SurakartaError
from controller.geometry import point_at, point_name
from controller.match import Match
from controller.referee import Referee
from controller.variants import Variant
from firmware.board import DecisionObserver
from firmware.config import Config
from firmware.journal import Journal, SessionState
from firmware.pipeline import PipelineParts, Service, open_pipeline
from hardware.build import Hardware, build_hardware
from hardware.buttons import ButtonName
from hardware.config import HardwareConfig
from hardware.effects import Blink
from hardware.gpio import PinFactory
from vision.calibrate import Calibration, calibrate, load_calibration
from vision.config import VisionConfig
from vision.doubt import describe_doubts
from vision.errors import BadImage, CameraUnavailable
from vision.reader import BoardReader, FrameReading, ReadStatus
from vision.sources import FrameSource, as_frame, open_camera

log = logging.getLogger(__name__)


class HardwareUnavailable(SurakartaError, OSError):
    """The wiring of the config cannot be opened on this machine."""


CAMERA_RETRY_SECONDS = 3.0
NO_BOARD_WARNING_SECONDS = 5.0
TROUBLE_LAYER = Layer.TROUBLE
DOUBT_SECONDS = 1.0
"""How long a point must stay doubtful (a piece between points) before its lamp asks for it
to be centred: a hand setting a piece down passes through doubt for a moment."""
DOUBT_LAYER = Layer.DOUBT
SAVE_TROUBLE_LAYER = "saves"
"""Lit while the journal cannot be written (a full or read-only disk)."""


def _first_line(error: BaseException) -> str:
    text = str(error).strip()
    return text.splitlines()[0] if text else type(error).__name__


def _open_hardware(
    config: HardwareConfig,
    pin_factory: PinFactory | None,
    on_press: Callable[[ButtonName], None],
    clock: Callable[[], float],
    sleep: Callable[[float], None],
) -> Hardware:
    """The hardware on its pins; raises HardwareUnavailable in one line when it cannot."""
    # gpiozero warns once per pin library it could not load; when none loads, those
    # warnings only repeat the error, so they are logged only when the pins open.
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always", PinFactoryFallback)
        try:
            hardware = build_hardware(
                config, pin_factory, on_press=on_press, clock=clock, sleep=sleep
            )
        except GPIOZeroError as error:
            raise HardwareUnavailable(
                f"cannot open the pins of the [hardware] section: {error} "
                "(on a PC without GPIO, leave [hardware] out to run on mock pins)"
            ) from None
    for warning in caught:
        log.warning("%s", warning.message)
    return hardware


def _fresh(match: Match | None) -> Match | None:
    """A new match of the config's players and rules: the referee scores games into it,
    and the config, a frozen record of the file, stays as it was read."""
    return None if match is None else Match(match.first, match.second, match.rules)


@dataclass
class StopFlag:
    """Set by SIGTERM / SIGINT; the loop checks it between frames."""

    event: threading.Event

    def __call__(self, signum: int, frame: FrameType | None) -> None:
        log.info("stopping (signal %d)", signum)
        # Setting the event takes its lock, which the interrupted main thread holds for
        # a moment in every stop.wait(): set from the handler itself, that would wait
        # for ever on the very thread it interrupted. Another thread waits its turn.
        threading.Thread(target=self.event.set, name="stop-signal", daemon=True).start()


class BoardApp:
    """Everything of a running board, wired together.

    The pipeline (pins, engine, calibration, referee) is built by
    ``firmware.pipeline.open_pipeline``: a failure part-way closes what was opened.
    ``observers`` and ``services`` are passed on to it (see that module). ``clock`` times
    the loop and the lamps' effects, ``sleep`` the buzzer's notes.
    """

    def __init__(
        self,
        config: Config,
        pin_factory: PinFactory | None = None,
        clock: Callable[[], float] = time.monotonic,
        camera: Callable[[], FrameSource] | None = None,
        *,
        observers: Sequence[DecisionObserver] = (),
        services: Sequence[Service] = (),
        on_step: Callable[[float, FrameReading | None, Any], None] | None = None,
        sleep: Callable[[float], None] = time.sleep,
    ) -> None:
        self.config = config
        self.on_step = on_step
        """Called at the end of every pass with the time, the frame's reading and the frame
        (the companion page carries out its actions there, on the loop's thread)."""
        self.clock = clock
        variant = config.game.variant
        self.open_camera = camera or (lambda: open_camera(config.camera, variant.size))
        self.stop = threading.Event()
        self.journal = Journal(config.journal, config.records)
        hardware_config = config.hardware or HardwareConfig(board_size=variant.size)
        try:
            self.pipeline = open_pipeline(
                PipelineParts(
                    open_hardware=lambda on_press: _open_hardware(
                        hardware_config, pin_factory, on_press, clock, sleep
                    ),
                    open_engine=lambda: BackgroundEngine(config.engine_seconds),
                    referee=lambda: self._referee(variant),
                    calibration=self._calibration,
                    hold_seconds=config.hold_seconds,
                    journal=self.journal,
                    observers=observers,
                    services=services,
                )
            )
        except BaseException:
            # The pipeline closed what it had opened; the journal (and its lock) is ours.
            self.journal.close()
            raise
        self.hardware: Hardware = self.pipeline.hardware
        self.session = self.pipeline.session
        self.reader = self.pipeline.reader
        self.stabiliser = self.pipeline.stabiliser
        self.calibration = self.pipeline.calibration
        self.source: FrameSource | None = None
        self._trouble: str | None = None
        self._no_board_since: float | None = None
        self._doubt_since: float | None = None
        self._doubt_told: str | None = None
        self._frame_size: tuple[int, int] | None = None
        self._saves_failing: str | None = None

    def _referee(self, variant: Variant) -> Referee:
        """A referee for the config's game, or for the journaled one it goes on with."""
        config = self.config
        saved = self._saved_session(variant)
        if saved is None:
            return Referee(
                variant,
                computer=config.game.computer,
                level=config.game.level,
                endings=config.game.endings,
                show_danger=config.game.show_danger,
                match=_fresh(config.match),
            )
        # What the players chose at the board (mode, level, variant, match) was
        # journaled, and outlives the config's starting values.
        log.info("resuming the saved %s game after %d moves",
                 saved.game.variant.value, len(saved.game.moves))
        return Referee(
            saved.game.variant,
            computer=saved.computer,
            level=saved.level,
            show_danger=config.game.show_danger,
            game=saved.game,
            match=saved.match,
        )

    def _calibration(self) -> Calibration:
        """The calibration file's, or one learnt from the first frame (synthetic cameras)."""
        path = self.config.camera.calibration
        return load_calibration(path) if path is not None else calibrate(
            VisionConfig(), self._first_frame()
        )

    def _saved_session(self, variant: Variant) -> SessionState | None:
        """The journaled game, if it can go on under this config's rules."""
        saved = self.journal.load()
        if saved is None or saved.game.variant.size == variant.size:
            # Another variant of the same board was chosen at the board (a SetVariant).
            return saved
        # The config changed its board size since the game was saved: the camera, the
        # lamps and the referee now expect another board, so the game cannot resume.
        # It is kept beside the journal rather than lost.
        aside = self.journal.set_aside(f"{saved.game.variant.value}")
        log.warning(
            "the saved game is %s but the config asks for %s: starting a new game "
            "(the saved one is kept in %s)", saved.game.variant.value, variant.value, aside,
        )
        return None

    def _first_frame(self) -> Any:
        """A frame to learn the board from (synthetic cameras need no calibration file)."""
        source = self.open_camera()
        try:
            frame = source.read()
        finally:
            source.close()
        if frame is None:
            raise CameraUnavailable("the camera gave no frame to calibrate from")
        return frame

    # -- trouble signalling ---------------------------------------------------------

    def _show_trouble(self, text: str) -> None:
        if self._trouble == text:
            return
        self._trouble = text
        log.error("%s", text)
        # A slow blink of the four corner points: unlike any game display.
        size = self.session.referee.position.size
        ends = (0, size - 1)
        corners = tuple(point_name(point_at(x, y)) for y in ends for x in ends)
        self.hardware.scene.show(
            TROUBLE_LAYER, Blink(corners, period=1.5), priority=TROUBLE_LAYER.priority
        )

    def _clear_trouble(self) -> None:
        if self._trouble is not None:
            log.info("camera and board found again")
            self._trouble = None
            self.hardware.scene.clear(TROUBLE_LAYER)

    def show_doubt(self, reading: FrameReading, now: float) -> None:
        """Light the points of a piece set down between two, once the doubt has lasted, and
        log what each leaves open (glare on a glossy top calls for other advice).

        A frame that fits one of the boards the game expects is read as it (see
        ``Pipeline.see``): nothing there for the player to put right.
        """
        if (reading.status is not ReadStatus.DOUBTFUL or not reading.doubtful
                or reading.fitting(self.session.referee.expected_boards()) is not None):
            if self._doubt_since is not None:
                self._doubt_since = self._doubt_told = None
                self.hardware.scene.clear(DOUBT_LAYER)
            return
        if self._doubt_since is None:
            self._doubt_since = now
        if now - self._doubt_since >= DOUBT_SECONDS:
            names = tuple(point_name(point) for point in reading.doubtful)
            # A quick blink, unlike an illegal move's: centre the piece on its point.
            self.hardware.scene.show(
                DOUBT_LAYER, Blink(names, period=0.3), priority=DOUBT_LAYER.priority
            )
            # The lamps cannot say what is unclear there; the log can, once per doubt.
            told = describe_doubts(names, reading.choices)
            if told != self._doubt_told:
                self._doubt_told = told
                log.warning("the board waits: %s", told)

    # -- the loop -------------------------------------------------------------------

    def _camera_frame(self, now: float) -> Any:
        if self.source is None:
            try:
                self.source = self.open_camera()
            except Exception as error:  # a driver's own error too: retried, never an exit
                self._show_trouble(f"camera unavailable: {_first_line(error)}; retrying")
                return None
        try:
            frame = self.source.read()
            if frame is not None:
                frame = as_frame(frame, "the camera")
        except BadImage as error:
            # One image of a folder that is cut short or vanished: the next one is read.
            self._show_trouble(f"{error}; going on with the next")
            return None
        except Exception as error:  # CameraLost, BadFrame, or whatever else a driver raises
            frame = None
            self._show_trouble(f"camera lost: {_first_line(error)}; retrying")
        if frame is None:
            if self._trouble is None:
                self._show_trouble("the camera delivers no frames; retrying")
            self.source.close()
            self.source = None
            self.stabiliser.reset()
        return frame

    def step(self) -> None:
        """One pass of the loop: a frame, button presses, engine answers."""
        now = self.clock()
        frame = self._camera_frame(now)
        reading = None if frame is None else self._read(frame)
        if reading is not None:
            if reading.status in (ReadStatus.NO_BOARD, ReadStatus.BOARD_MOVED):
                self._no_board_since = self._no_board_since or now
                if now - self._no_board_since > NO_BOARD_WARNING_SECONDS:
                    self._show_trouble(
                        "no board in view: check the camera"
                        if reading.status is ReadStatus.NO_BOARD else
                        "the camera or the board moved and the board is not found where it "
                        "was: put it back, or run surakarta calibrate again")
            else:
                self._no_board_since = None
                self._clear_trouble()
            self.show_doubt(reading, now)
            self.pipeline.see(now, reading)
        self.pipeline.deliver(now)
        self._show_saves()
        if self.on_step is not None:
            self.on_step(now, reading, frame)

    def _read(self, frame: Any) -> FrameReading | None:
        """The frame's reading (by the pipeline's reader: the companion page may calibrate
        anew). A frame of a new size gets a fresh reader (one that found the markers on
        the old size keeps looking for them there), and a reader that fails on a strange
        frame is replaced, with the trouble shown, rather than stop the board."""
        pipeline = self.pipeline
        size = (frame.shape[1], frame.shape[0])
        if size != self._frame_size:
            if self._frame_size is not None:
                log.warning("the camera's frames are now %dx%d (were %dx%d)", *size,
                            *self._frame_size)
                pipeline.reader = BoardReader(pipeline.calibration)
            self._frame_size = size
        try:
            return pipeline.reader.read(frame)
        except Exception as error:
            self._show_trouble(f"cannot read the camera's frame: {_first_line(error)}")
            pipeline.reader = BoardReader(pipeline.calibration)
            return None

    def _show_saves(self) -> None:
        """A slow blink of the middle points while the journal cannot be written, and two
        long buzzes when saves start failing."""
        failing, was = self.journal.failing, self._saves_failing
        if failing == was:
            return
        self._saves_failing = failing
        if failing is None:
            log.info("the game is saved again")
            self.session.last_message = "the game is saved again"
            self.hardware.scene.clear(SAVE_TROUBLE_LAYER)
            return
        message = f"the game cannot be saved ({failing}): free some space or check the disk"
        log.error("%s", message)
        # The status line too (the companion page shows it): the lamps alone do not say why.
        self.session.last_message = message
        # And the buzzer when they start failing: the players may not be looking at the lamps.
        play_sound = self.session.outputs.play_sound
        if was is None and play_sound is not None:
            play_sound(Sound.SAVE_FAILED)
        size = self.session.referee.position.size
        middle = range((size - 1) // 2, size // 2 + 1)
        points = tuple(point_name(point_at(x, y)) for x in middle for y in middle)
        self.hardware.scene.show(SAVE_TROUBLE_LAYER, Blink(points, period=3.0), priority=95)

    def run(self) -> int:
        """Run until stopped; every lamp is dark afterwards."""
        period = 1.0 / self.config.camera.fps
        self.hardware.start()
        self.session.start(self.clock())
        try:
            while not self.stop.is_set():
                started = self.clock()
                self.step()
                if self._trouble is not None and self.source is None:
                    self.stop.wait(CAMERA_RETRY_SECONDS)
                else:
                    self.stop.wait(max(0.0, period - (self.clock() - started)))
        finally:
            self.close()
        return 0

    def close(self) -> None:
        """Release the camera, stop the engine, darken the lamps, free the pins."""
        if self.source is not None:
            self.source.close()
            self.source = None
        self.pipeline.close()
        self.journal.close()  # another board may use the journal now


def install_signal_handlers(app: BoardApp) -> None:
    """SIGTERM (systemd stop), SIGINT (Ctrl-C) and SIGHUP (the terminal closed) end the
    loop cleanly, every lamp dark."""
    flag = StopFlag(app.stop)
    signal.signal(signal.SIGTERM, flag)
    signal.signal(signal.SIGINT, flag)
    signal.signal(signal.SIGHUP, flag)
