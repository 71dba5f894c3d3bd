"""The board's brain at the edge: carries out the referee's decisions.

``BoardSession`` feeds inputs to the referee and turns its decisions into lamp
effects, sounds, engine requests, journal writes and an event stream. The camera
loop (``firmware.pipeline``) and the buttons feed it; it owns no clock of its own:
the caller passes the time, so the same code runs live and in simulated time.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from controller.decisions import (
    Accepted,
    AgreementTakenBack,
    Clear,
    ComputerChose,
    Decision,
    Effect,
    GameEnded,
    HintShown,
    Illegal,
    Input,
    Layer,
    LevelChanged,
    Lifted,
    Light,
    MatchChanged,
    ModeChanged,
    NewGame,
    PlaySound,
    Restored,
    Say,
    Sound,
    Think,
    Undone,
)
from controller.engine.service import EngineService
from controller.game import winner_name
from controller.geometry import Station, point_name
from controller.referee import Referee
from firmware.journal import Journal, SessionState
from hardware.effects import Blink, Chase, Pulse, Steady
from hardware.effects import Effect as LampEffect
from hardware.lamps import LampLayout, lamps_for_move, lamps_for_stations
from hardware.scene import LedScene

log = logging.getLogger(__name__)

EventSink = Callable[[dict[str, Any]], None]
"""Takes the event-stream records (JSON-ready dicts with the time ``t``)."""
DecisionObserver = Callable[[Decision], None]
"""Takes every decision of the referee, typed, once the session has carried it out."""

SUPERSEDING = (Accepted, Undone, NewGame, ModeChanged, GameEnded, AgreementTakenBack)
"""Decisions after which the referee no longer waits for what it asked the engine
before them: the engine stops that search at once."""

JOURNALED = (*SUPERSEDING, LevelChanged, MatchChanged)
"""Decisions after which the journal is written: everything a restart must know."""


def _names(stations: tuple[Station, ...] | list[int]) -> list[str]:
    return [point_name(s) for s in stations if isinstance(s, int)]


def lamp_effect(layout: LampLayout, light: Light) -> LampEffect:
    """The lamp effect that shows a referee ``Light`` on this layout."""
    lamps: list[str] = []
    for path in light.paths:
        for name in lamps_for_stations(layout, path):
            if light.effect is Effect.CHASE or name not in lamps:
                lamps.append(name)
    ordered = tuple(lamps)
    if light.effect is Effect.BLINK:
        return Blink(ordered)
    if light.effect is Effect.CHASE:
        # The last capture runs along its path once and then stays lit, so that the
        # computer's reply, which keeps running, is never mistaken for it.
        return Chase(ordered, runs=1) if light.layer is Layer.LAST else Chase(ordered)
    if light.effect is Effect.PULSE:
        return Pulse(ordered)
    return Steady(ordered)


def event_of(decision: Decision, layout: LampLayout) -> dict[str, Any] | None:
    """The event-stream record of a decision (None for commands to the edges)."""
    if isinstance(decision, Accepted):
        return {"type": "accepted", "move": decision.move.name, "by": decision.by.word}
    if isinstance(decision, Illegal):
        return {"type": "illegal", "fix": _names(list(decision.fix))}
    if isinstance(decision, Restored):
        return {"type": "restored"}
    if isinstance(decision, Lifted):
        return {
            "type": "lifted",
            "point": point_name(decision.point),
            "targets": _names(list(decision.targets)),
        }
    if isinstance(decision, HintShown | ComputerChose):
        kind = "hint" if isinstance(decision, HintShown) else "computer"
        lamps = lamps_for_move(layout, decision.move)
        record = {"type": kind, "move": decision.move.name, "lamps": lamps}
        if isinstance(decision, HintShown) and decision.outlook:
            record["outlook"] = decision.outlook  # ``wins in 7 plies``, from the tables
        return record
    if isinstance(decision, Undone):
        return {"type": "undone", "move": decision.move.name}
    if isinstance(decision, GameEnded):
        return {
            "type": "game_over",
            "result": winner_name(decision.outcome.winner),
            "reason": decision.outcome.reason.value,
        }
    if isinstance(decision, AgreementTakenBack):
        return {"type": "resumed"}
    if isinstance(decision, NewGame):
        return {"type": "new_game", "variant": decision.variant.value}
    if isinstance(decision, LevelChanged):
        return {"type": "level", "level": decision.level}
    if isinstance(decision, MatchChanged):
        players = None if decision.players is None else list(decision.players)
        return {"type": "match", "players": players, "games": decision.rules.games}
    if isinstance(decision, ModeChanged):
        computer = decision.computer
        return {"type": "mode", "computer": None if computer is None else computer.word}
    if isinstance(decision, Say):
        return {"type": "message", "text": decision.text}
    return None


@dataclass
class Outputs:
    """Where decisions go: lamps, sounds, the engine, the journal, the event stream."""

    layout: LampLayout
    """The lamp layout, to turn paths into lamps."""
    scene: LedScene
    """The lamp layers."""
    engine: EngineService
    """Answers Think requests."""
    play_sound: Callable[[Sound], None] | None = None
    """The buzzer; None when none is fitted."""
    journal: Journal | None = None
    """Where the game is saved after every change."""
    events: EventSink | None = None
    """Receives an event dict for each thing that happened (with ``t`` added)."""
    observers: tuple[DecisionObserver, ...] = ()
    """Receive every decision, typed, after it was carried out."""


class BoardSession:
    """A referee wired to its outputs."""

    def __init__(self, referee: Referee, outputs: Outputs) -> None:
        self.referee = referee
        self.outputs = outputs
        self.last_message = ""
        """The referee's latest message, for a display."""
        self.now = 0.0
        self._record: Path | None = None
        """The record file of the current game, once it has ended."""

    def start(self, now: float) -> None:
        """Announce the game and ask for the board to be set up."""
        self.now = now
        self.apply(self.referee.start())

    def feed(self, event: Input, now: float) -> None:
        """Hand one input to the referee and carry out its decisions."""
        self.now = now
        self.apply(self.referee.handle(event))

    def poll_engine(self, now: float) -> None:
        """Deliver finished engine answers."""
        while (answer := self.outputs.engine.poll()) is not None:
            self.feed(answer, now)

    def state(self) -> SessionState:
        """What the journal keeps."""
        referee = self.referee
        return SessionState(referee.current, referee.computer, referee.level, referee.match)

    def _emit(self, record: dict[str, Any]) -> None:
        if self.outputs.events is not None:
            self.outputs.events({"t": round(self.now, 3), **record})

    def apply(self, decisions: list[Decision]) -> None:
        """Carry out decisions (from ``handle`` or from a direct referee call).

        The journal is written first: once a lamp or a sound confirms a move, the
        move is on the disk, so a power cut right after loses nothing.
        """
        if any(isinstance(d, SUPERSEDING) for d in decisions):
            self.outputs.engine.cancel()
        if any(isinstance(d, JOURNALED) for d in decisions):
            self._save()
        for decision in decisions:
            record = event_of(decision, self.outputs.layout)
            if record is not None:
                self._emit(record)
            self._carry_out(decision)
            for observe in self.outputs.observers:
                observe(decision)

    def _carry_out(self, decision: Decision) -> None:
        """What a decision asks of the lamps, the buzzer, the engine and the records."""
        if isinstance(decision, Light):
            effect = lamp_effect(self.outputs.layout, decision)
            self.outputs.scene.show(decision.layer, effect, priority=decision.layer.priority)
        elif isinstance(decision, Clear):
            self.outputs.scene.clear(decision.layer)
        elif isinstance(decision, PlaySound) and self.outputs.play_sound is not None:
            self.outputs.play_sound(decision.sound)
        elif isinstance(decision, Think):
            self.outputs.engine.submit(decision)
        elif isinstance(decision, Say):
            self.last_message = decision.text
            log.info("%s", decision.text)
        elif isinstance(decision, GameEnded):
            self._archive()
        elif isinstance(decision, Undone | AgreementTakenBack):
            self._withdraw_record()
        elif isinstance(decision, NewGame):
            self._record = None

    def _save(self) -> None:
        if self.outputs.journal is None:
            return
        try:
            self.outputs.journal.save(self.state())
        except OSError as error:
            # A full or read-only disk must not stop the game being played: the next
            # change tries again, and the log says what is wrong.
            log.error("could not save the game to the journal: %s", error)

    def _archive(self) -> None:
        if self.outputs.journal is None:
            return
        try:
            self._record = self.outputs.journal.archive(self.state())
            log.info("game saved to %s", self._record)
        except OSError as error:
            log.error("could not save the finished game: %s", error)

    def _withdraw_record(self) -> None:
        """Remove the record of an ending that was taken back: the game goes on, and
        its record is written again when it ends, so none is left saying otherwise."""
        if self._record is None:
            return
        try:
            self._record.unlink(missing_ok=True)
            log.info("record %s removed: its ending was taken back", self._record)
        except OSError as error:
            log.error("could not remove the record of a taken-back ending: %s", error)
        self._record = None
