"""The buzzer: a distinct sound for each thing the board wants to tell the players.

Sounds are data (a list of notes and rests with durations) so they can be
checked and replaced. A passive piezo on a PWM-capable pin plays the notes
(gpiozero ``TonalBuzzer``); an active buzzer (gpiozero ``Buzzer``) can only
switch on and off, so the sounds also differ in rhythm alone.
"""

from __future__ import annotations

import queue
import threading
import time
from collections.abc import Callable, Mapping, Sequence

from controller.decisions import Sound as Sound  # the board's sounds, which the buzzer plays
from hardware.gpio import PinFactory, Sounder, buzzer

Note = tuple[str | None, float]
"""A note name such as ``"C6"`` (``None`` for a rest) and its length in seconds."""

MID_TONE = "A5"
"""Centre of the tonal buzzer's range; with one octave each way it spans A4 to A6."""


SOUND_PATTERNS: Mapping[Sound, tuple[Note, ...]] = {
    # One short high chirp: quiet approval.
    Sound.MOVE_ACCEPTED: (("C6", 0.08),),
    # Three low buzzes: hard to miss, unlike any other sound.
    Sound.ILLEGAL_MOVE: (("A4", 0.15), (None, 0.08), ("A4", 0.15), (None, 0.08), ("A4", 0.15)),
    # A rising pair: "your turn to move my piece".
    Sound.COMPUTER_MOVE: (("G5", 0.1), (None, 0.05), ("C6", 0.25)),
    # A falling phrase ending on a long note.
    Sound.GAME_OVER: (("C6", 0.2), ("G5", 0.2), ("E5", 0.2), ("C5", 0.6)),
    # Two long low buzzes: an alarm, not a game event (the lamps then say which).
    Sound.SAVE_FAILED: (("A4", 0.5), (None, 0.2), ("A4", 0.5)),
}
"""The sound of each event."""


def envelope(pattern: Sequence[Note]) -> tuple[tuple[bool, float], ...]:
    """The on/off rhythm of a pattern, adjacent equal states merged (what a plain buzzer plays)."""
    merged: list[tuple[bool, float]] = []
    for tone, seconds in pattern:
        on = tone is not None
        if merged and merged[-1][0] == on:
            merged[-1] = (on, round(merged[-1][1] + seconds, 6))
        else:
            merged.append((on, seconds))
    return tuple(merged)


class SoundPlayer:
    """Plays sounds on a buzzer, in the background with ``play`` or at once with ``play_now``."""

    def __init__(
        self,
        pin: int,
        *,
        tonal: bool = True,
        patterns: Mapping[Sound, Sequence[Note]] = SOUND_PATTERNS,
        pin_factory: PinFactory | None = None,
        sleep: Callable[[float], None] = time.sleep,
    ) -> None:
        self.patterns = dict(patterns)
        self._sleep = sleep
        self._device = buzzer(pin, tonal=tonal, mid_tone=MID_TONE, pin_factory=pin_factory)
        self._playing = threading.Lock()
        self._queue: queue.Queue[Sound | None] = queue.Queue()
        self._worker: threading.Thread | None = None

    @property
    def device(self) -> Sounder:
        """The buzzer device."""
        return self._device

    def _sound(self, tone: str | None) -> None:
        self._device.sound(tone)

    def play_now(self, sound: Sound) -> None:
        """Play ``sound`` on this thread, returning when it has finished."""
        with self._playing:
            try:
                for tone, seconds in self.patterns[sound]:
                    self._sound(tone)
                    self._sleep(seconds)
            finally:
                self._sound(None)

    def play(self, sound: Sound) -> None:
        """Queue ``sound`` and return at once; sounds play one after another."""
        if self._worker is None:
            self._worker = threading.Thread(target=self._run, name="buzzer", daemon=True)
            self._worker.start()
        self._queue.put(sound)

    def _run(self) -> None:
        while True:
            sound = self._queue.get()
            try:
                if sound is None:
                    return
                self.play_now(sound)
            finally:
                self._queue.task_done()

    def wait(self) -> None:
        """Block until every queued sound has played."""
        self._queue.join()

    def close(self) -> None:
        """Finish the queued sounds, silence the buzzer and release the pin."""
        if self._worker is not None:
            self._queue.put(None)
            self._worker.join()
            self._worker = None
        self._device.close()
