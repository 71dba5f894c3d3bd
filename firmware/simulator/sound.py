"""The buzzer's sounds through the computer's speaker, or as text where there is no audio.

The tones are the buzzer's own patterns (notes and lengths) played as soft square
waves, like a piezo. The audio device is opened defensively: no device, a dummy
driver or an unusual sample format all leave the simulator silent but working,
with the sound named in the panel.
"""

from __future__ import annotations

import logging
import sys
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

import numpy as np
from gpiozero.tones import Tone

from controller.decisions import Sound
from hardware.buzzer import Note

log = logging.getLogger(__name__)

SAMPLE_RATE = 22050
"""Samples per second asked of the audio device."""
VOLUME = 0.25
"""Share of full scale: a buzzer is not meant to startle."""


def tone_samples(pattern: Sequence[Note], rate: int = SAMPLE_RATE) -> np.ndarray:
    """A pattern as 16-bit mono samples: square waves with short fades against clicks."""
    parts = []
    for name, seconds in pattern:
        count = max(1, round(seconds * rate))
        if name is None:
            parts.append(np.zeros(count, np.float32))
            continue
        frequency = Tone(name).frequency
        t = np.arange(count, dtype=np.float32) / rate
        wave = np.sign(np.sin(2 * np.pi * frequency * t)).astype(np.float32)
        fade = min(count // 2, round(0.005 * rate))
        if fade:
            ramp = np.linspace(0.0, 1.0, fade, dtype=np.float32)
            wave[:fade] *= ramp
            wave[-fade:] *= ramp[::-1]
        parts.append(wave)
    samples = np.concatenate(parts) if parts else np.zeros(1, np.float32)
    result: np.ndarray = (samples * VOLUME * 32767).astype(np.int16)
    return result


class Speaker:
    """Plays buzzer sounds where audio works; always remembers the last one for the panel."""

    def __init__(self, patterns: Mapping[Sound, Sequence[Note]], *, audio: bool = True) -> None:
        self.patterns = dict(patterns)
        self.last: Sound | None = None
        """The last sound played (shown as text)."""
        self.last_at = 0.0
        """When it played, window time."""
        self._mixer: Any = None
        self._channels = 1
        self._cache: dict[Sound, Any] = {}
        if audio:
            self._open()

    @property
    def has_audio(self) -> bool:
        """Whether sounds reach a speaker."""
        return self._mixer is not None

    def _open(self) -> None:
        if sys.platform.startswith("linux") and not Path("/proc/asound").exists():
            # No sound card at all: opening the mixer would only fill the terminal
            # with ALSA's complaints.
            log.info("no sound card, sounds are shown as text")
            return
        try:
            import pygame

            pygame.mixer.init(frequency=SAMPLE_RATE, size=-16, channels=1)
            opened = pygame.mixer.get_init()
        except Exception as error:  # any failure of the audio device means: no sound
            log.info("no audio, sounds are shown as text: %s", error)
            return
        if not opened or opened[1] != -16:
            log.info("no usable audio format (%r), sounds are shown as text", opened)
            return
        self._mixer = pygame.mixer
        self._channels = opened[2]
        self._rate = opened[0]

    def play(self, sound: Sound, now: float) -> None:
        """Sound ``sound`` (and note it for the panel)."""
        self.last, self.last_at = sound, now
        if self._mixer is None:
            return
        try:
            if sound not in self._cache:
                samples = tone_samples(self.patterns[sound], self._rate)
                if self._channels > 1:
                    samples = np.repeat(samples[:, None], self._channels, axis=1)
                self._cache[sound] = self._mixer.Sound(buffer=np.ascontiguousarray(samples))
            self._cache[sound].play()
        except Exception as error:  # a sound that cannot play is not worth stopping for
            log.info("could not play %s: %s", sound.value, error)

    def close(self) -> None:
        """Release the audio device."""
        if self._mixer is not None:
            self._mixer.quit()
            self._mixer = None
