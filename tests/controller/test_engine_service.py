"""The engine service: a search that no longer matters is stopped, not waited for."""

from __future__ import annotations

import time

from controller import parse_position, start_position
from controller.decisions import EngineAnswered, Purpose, Think
from controller.engine.service import BackgroundEngine, ImmediateEngine
from controller.game import Endings
from controller.position import Position
from controller.variants import Variant

LONG = 600.0
"""A budget no test waits for: an answer that comes at all came from a stopped search."""
ONE_MOVE = parse_position("6/6/6/6/bb4/r5 r")
"""Red's only move is a1-b1: the engine answers it at once."""


def _request(number: int, position: Position) -> Think:
    return Think(number, Purpose.HINT, position, (), 0, Variant.STANDARD, Endings(), 10)


def _answers(engine: BackgroundEngine, wanted: int, seconds: float = 30.0) -> list[EngineAnswered]:
    """Every answer until the one to request ``wanted`` (bounded, so a stuck engine fails)."""
    answers: list[EngineAnswered] = []
    deadline = time.monotonic() + seconds
    while not answers or answers[-1].request != wanted:
        assert time.monotonic() < deadline, f"no answer to request {wanted}: {answers}"
        answer = engine.poll()
        if answer is None:
            time.sleep(0.01)
        else:
            answers.append(answer)
    return answers


def test_a_newer_request_stops_the_old_search() -> None:
    engine = BackgroundEngine(LONG)
    try:
        engine.submit(_request(1, start_position()))
        time.sleep(0.05)  # the first search is under way
        engine.submit(_request(2, ONE_MOVE))
        answers = _answers(engine, 2)
        assert [(a.request, a.move.name) for a in answers] == [(2, "a1-b1")]
    finally:
        engine.close()
    assert not engine.is_running


def test_a_cancelled_search_gives_no_answer_and_frees_the_worker() -> None:
    engine = BackgroundEngine(LONG)
    try:
        engine.submit(_request(1, start_position()))
        time.sleep(0.05)
        engine.cancel()
        engine.submit(_request(2, ONE_MOVE))
        assert [a.request for a in _answers(engine, 2)] == [2]
    finally:
        engine.close()


def test_closing_stops_a_search_under_way() -> None:
    engine = BackgroundEngine(LONG)
    engine.submit(_request(1, start_position()))
    time.sleep(0.05)
    engine.close()
    assert not engine.is_running, "the worker ended without waiting out the budget"
    assert engine.poll() is None


def test_the_immediate_engine_forgets_a_cancelled_answer() -> None:
    engine = ImmediateEngine(depth=1)
    engine.submit(_request(1, ONE_MOVE))
    engine.cancel()
    assert engine.poll() is None
    engine.submit(_request(2, ONE_MOVE))
    answer = engine.poll()
    assert answer is not None and (answer.request, answer.move.name) == (2, "a1-b1")
