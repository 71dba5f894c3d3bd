"""Faults a running board meets: power cuts, bad cameras, full disks, signals, long runs."""

from __future__ import annotations

import os
import random
import tempfile
from pathlib import Path
from typing import Any

import pytest

from controller import Game
from controller.record import read_record
from firmware.journal import Journal, SessionState
from hardware.mock import RECENT_STATES, mock_factory


def test_mock_pins_forget_old_changes_so_a_pc_run_does_not_grow() -> None:
    factory = mock_factory()
    try:
        pin = factory.pin(17)
        pin.function = "output"
        for change in range(10 * RECENT_STATES):
            pin.state = change % 2
        assert len(pin.states) <= RECENT_STATES
        assert [state.state for state in pin.states[-2:]] == [0.0, 1.0], "the latest are kept"
    finally:
        factory.close()


class PowerCut(BaseException):
    """The power went: nothing after this runs (not even cleanup code)."""


class Disk:
    """Counts the journal's steps that touch the disk; cuts the power before step ``cut_at``."""

    def __init__(self, monkeypatch: pytest.MonkeyPatch) -> None:
        self.steps = 0
        self.cut_at: int | None = None
        self.off = False
        for owner, name in ((os, "replace"), (tempfile, "mkstemp"), (Path, "unlink"),
                            (Path, "write_text")):
            monkeypatch.setattr(owner, name, self._wrap(getattr(owner, name)))
        # A step like the others, but not a real flush: what is tested is the order of
        # the steps, and a thousand real flushes would make the test slow.
        monkeypatch.setattr(os, "fsync", self._wrap(lambda handle: None))

    def _wrap(self, function: Any) -> Any:
        def step(*args: Any, **kwargs: Any) -> Any:
            if self.off:
                raise PowerCut
            self.steps += 1
            if self.cut_at is not None and self.steps >= self.cut_at:
                self.off = True
                raise PowerCut
            return function(*args, **kwargs)

        return step

    def restore(self) -> None:
        self.off, self.cut_at, self.steps = False, None, 0


def _session_actions(seed: int) -> list[str]:
    """What a board saves after, in order: moves to a finished game, an ending taken back
    and made again, then the first move of the next game."""
    rng = random.Random(seed)
    game = Game()
    actions: list[str] = []
    for _ in range(rng.randrange(12, 30)):
        if game.is_over:
            break
        actions.append(game.play(rng.choice(game.legal_moves())).name)
    if not game.is_over:
        actions.append("agree")
        actions += ["resume", "agree"]
    after = Game()
    return [*actions, "new", rng.choice(after.legal_moves()).name]


def _replay(actions: list[str]) -> Game:
    """The game after ``actions``, as the referee keeps it: one Game object per game."""
    game = Game()
    for action in actions:
        game = _act(game, action)
    return game


def _act(game: Game, action: str) -> Game:
    if action == "agree":
        game.end_by_agreement()
    elif action == "resume":
        game.resume()
    elif action == "new":
        return Game()
    else:
        game.play(action)
    return game


def _snapshot(game: Game) -> tuple[list[str], bool]:
    return [move.name for move in game.moves], game.is_over


@pytest.mark.parametrize(
    "seed", [0, 1, *(pytest.param(seed, marks=pytest.mark.slow) for seed in range(2, 8))]
)
def test_a_power_cut_at_every_write_step_loses_no_game_and_no_record(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, seed: int
) -> None:
    disk = Disk(monkeypatch)
    actions = _session_actions(seed)
    new_game = actions.index("new")
    finished = _replay(actions[:new_game]).moves
    cuts = 0
    for index in range(len(actions)):
        cut_at = 1
        while True:  # a cut before each disk step of this save, until the save completes
            folder = tmp_path / f"s{index}-c{cut_at}"
            journal = Journal(folder / "journal.json")
            game = Game()
            for action in actions[:index]:
                game = _act(game, action)
                journal.save(SessionState(game, None, 5))
            before = _snapshot(game) if index else None
            game = _act(game, actions[index])
            disk.cut_at = disk.steps + cut_at
            try:
                journal.save(SessionState(game, None, 5))
                done = True
            except PowerCut:
                done = False
                cuts += 1
            disk.restore()
            journal.close()
            earlier = finished if index > new_game else None
            _check_restart(folder, before, _snapshot(game), done, earlier)
            if done:
                break
            cut_at += 1
    print(f"seed {seed}: {cuts} power cuts")
    assert cuts >= 60  # the eight seeds: over 500 cuts in all (the slow tier runs six)


Snapshot = tuple[list[str], bool]


def _check_restart(folder: Path, before: Snapshot | None, after: Snapshot, done: bool,
                   finished_before: list[Any] | None) -> None:
    restarted = Journal(folder / "journal.json")
    state = restarted.load()
    restarted.close()
    seen = None if state is None else _snapshot(state.game)
    allowed = [after] if done else [after, before]
    assert seen in allowed, "the journal holds the game before or after the cut"
    records = [read_record(path.read_text()).game.moves for path in folder.glob("games/*.txt")]
    if state is not None and state.game.is_over:
        assert records.count(state.game.moves) == 1, "a finished game has its record, once"
    elif state is not None:
        assert state.game.moves not in records, "no record says the game going on has ended"
    if finished_before is not None:
        assert records.count(finished_before) == 1, "an earlier game's record stays"
    assert not list(folder.glob(".*.tmp")) and not list(folder.glob("games/.*.tmp")), \
        "the next start removes what the cut left"

