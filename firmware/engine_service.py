"""The engine at the edge: answers the referee's ``Think`` requests.

Two services with one interface: ``ImmediateEngine`` thinks at once, on the
caller's thread, to a fixed depth (deterministic, for scripted sessions and
tests); ``BackgroundEngine`` thinks on a worker thread for a time budget (the
real board, so the camera keeps being read while the engine thinks).
"""

from __future__ import annotations

import logging
import queue
import random
import threading
from typing import Protocol

from controller.decisions import EngineAnswered, Think
from controller.engine.requests import choose_for
from controller.errors import SurakartaError

log = logging.getLogger(__name__)


class EngineService(Protocol):
    """Takes requests, hands back answers when they are ready."""

    def submit(self, request: Think) -> None:
        """Start thinking about ``request`` (an older request is abandoned)."""

    def poll(self) -> EngineAnswered | None:
        """The next finished answer, or None."""

    def close(self) -> None:
        """Stop thinking and release the worker."""


def _answer(request: Think, seconds: float | None, depth: int | None, seed: int) -> EngineAnswered:
    result = choose_for(request, movetime=seconds, depth=depth, rng=random.Random(seed))
    return EngineAnswered(request.request, result.move)


class ImmediateEngine:
    """Answers every request at once, to a fixed depth: reproducible in simulated time."""

    def __init__(self, depth: int = 2, seed: int = 0) -> None:
        self.depth = depth
        self.seed = seed
        self._answers: list[EngineAnswered] = []

    def submit(self, request: Think) -> None:
        try:
            self._answers = [_answer(request, None, self.depth, self.seed + request.request)]
        except SurakartaError as error:
            log.warning("engine could not answer: %s", error)

    def poll(self) -> EngineAnswered | None:
        return self._answers.pop(0) if self._answers else None

    def close(self) -> None:
        self._answers.clear()


class BackgroundEngine:
    """Thinks on a worker thread, ``seconds`` per request."""

    def __init__(self, seconds: float = 1.0, seed: int = 0) -> None:
        self.seconds = seconds
        self.seed = seed
        self._requests: queue.Queue[Think | None] = queue.Queue()
        self._answers: queue.Queue[EngineAnswered] = queue.Queue()
        self._latest = 0
        self._thread = threading.Thread(target=self._work, name="engine", daemon=True)
        self._thread.start()

    def submit(self, request: Think) -> None:
        self._latest = request.request
        self._requests.put(request)

    def poll(self) -> EngineAnswered | None:
        try:
            return self._answers.get_nowait()
        except queue.Empty:
            return None

    def close(self) -> None:
        self._requests.put(None)
        self._thread.join(timeout=self.seconds + 1.0)

    def _work(self) -> None:
        while (request := self._requests.get()) is not None:
            if request.request != self._latest:
                continue  # superseded before we started
            try:
                answer = _answer(request, self.seconds, None, self.seed + request.request)
            except SurakartaError as error:
                log.warning("engine could not answer: %s", error)
                continue
            self._answers.put(answer)
