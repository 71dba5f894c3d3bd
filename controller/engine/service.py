"""The engine as a service: answers the referee's ``Think`` requests.

Two services with one interface: ``ImmediateEngine`` thinks at once, on the
caller's thread, to a fixed depth (deterministic, for scripted sessions and
tests); ``BackgroundEngine`` thinks on a worker thread for a time budget (the
real board, so the camera keeps being read while the engine thinks).

A search that no longer matters is stopped at once, as a chess GUI stops its
engine: a newer request replaces the one being searched, and ``cancel`` (a new
position on the board) drops it. The search looks at its stop condition every
few hundred nodes, so the worker is free again within milliseconds instead of
at the end of the old search's time budget.

Each request gets a fresh transposition table. Keeping one per side between the
moves of a game was measured (``benchmarks/engine_tables.py``): it saved 1 to 5%
of the nodes to a given depth and no time, as the larger table costs time per node.
"""

from __future__ import annotations

import logging
import queue
import random
import threading
from collections.abc import Callable
from typing import Protocol

from controller.decisions import AnalysisReady, EngineAnswered, Purpose, Think
from controller.engine.analysis_replay import ANALYSIS_SECONDS, answer_analysis
from controller.engine.requests import choose_for, outlook
from controller.errors import SurakartaError

log = logging.getLogger(__name__)

CLOSE_SECONDS = 5.0
"""How long ``close`` waits for the worker (a stopped search ends within milliseconds)."""


Answer = EngineAnswered | AnalysisReady
"""A move for a hint or the computer, or a finished game's analysis."""


class EngineService(Protocol):
    """Takes requests, hands back answers when they are ready."""

    def submit(self, request: Think) -> None:
        """Start thinking about ``request``; an older request is abandoned."""

    def cancel(self) -> None:
        """Abandon the request being thought about: its answer would come too late."""

    def poll(self) -> Answer | None:
        """The next finished answer, or None."""

    def close(self) -> None:
        """Stop thinking and release the worker."""


def _answer(
    request: Think,
    seconds: float | None,
    depth: int | None,
    seed: int,
    stop: Callable[[], bool] | None = None,
) -> Answer:
    if request.purpose is Purpose.ANALYSIS:
        # A position at a time: the whole game must not take a move's time per ply.
        movetime = None if seconds is None else min(seconds, ANALYSIS_SECONDS)
        return answer_analysis(request, movetime=movetime, depth=depth, stop=stop)
    result = choose_for(request, movetime=seconds, depth=depth, rng=random.Random(seed), stop=stop)
    told = outlook(request, result) if request.purpose is Purpose.HINT else ""
    return EngineAnswered(request.request, result.move, told)


class ImmediateEngine:
    """Answers every request at once, to a fixed depth: reproducible in simulated time."""

    def __init__(self, depth: int = 2, seed: int = 0) -> None:
        self.depth = depth
        self.seed = seed
        self._answers: list[Answer] = []

    def submit(self, request: Think) -> None:
        try:
            self._answers = [_answer(request, None, self.depth, self.seed + request.request)]
        except SurakartaError as error:
            log.warning("engine could not answer: %s", error)

    def cancel(self) -> None:
        self._answers.clear()

    def poll(self) -> Answer | None:
        return self._answers.pop(0) if self._answers else None

    def close(self) -> None:
        self._answers.clear()


class BackgroundEngine:
    """Thinks on a worker thread, ``seconds`` per request; a newer request stops the old one."""

    def __init__(self, seconds: float = 1.0, seed: int = 0) -> None:
        self.seconds = seconds
        self.seed = seed
        self._changed = threading.Condition()
        self._pending: Think | None = None
        self._generation = 0
        """Counts submits and cancels: a search started under an older count is stale."""
        self._closed = False
        self._answers: queue.Queue[Answer] = queue.Queue()
        self._thread = threading.Thread(target=self._work, name="engine", daemon=True)
        self._thread.start()

    @property
    def is_running(self) -> bool:
        """Whether the worker thread is alive (until ``close``)."""
        return self._thread.is_alive()

    def submit(self, request: Think) -> None:
        with self._changed:
            self._pending = request
            self._generation += 1
            self._changed.notify()

    def cancel(self) -> None:
        with self._changed:
            self._pending = None
            self._generation += 1

    def poll(self) -> Answer | None:
        try:
            return self._answers.get_nowait()
        except queue.Empty:
            return None

    def close(self) -> None:
        with self._changed:
            self._closed = True
            self._pending = None
            self._generation += 1
            self._changed.notify()
        self._thread.join(timeout=CLOSE_SECONDS)

    def _next(self) -> tuple[Think, int] | None:
        """The request to think about next and its generation; None once closed."""
        with self._changed:
            while self._pending is None and not self._closed:
                self._changed.wait()
            if self._closed or self._pending is None:
                return None
            request, self._pending = self._pending, None
            return request, self._generation

    def _work(self) -> None:
        while (job := self._next()) is not None:
            request, generation = job

            def stale(generation: int = generation) -> bool:
                # Read without the lock: an int compared now or a few nodes later.
                return self._generation != generation

            try:
                answer = _answer(request, self.seconds, None, self.seed + request.request, stale)
            except SurakartaError as error:
                log.warning("engine could not answer: %s", error)
                continue
            if not stale():
                self._answers.put(answer)
