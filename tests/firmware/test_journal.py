"""The journal: atomic saves, resuming, corrupt files, and power cuts (SIGKILL)."""

from __future__ import annotations

import json
import os
import random
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from controller import Color, Game, legal_moves, make_move, point_name, start_position
from controller.decisions import BoardSeen
from controller.reading import BoardReading
from controller.record import read_record
from controller.referee import Referee
from firmware.journal import Journal, SessionState, state_from_json, state_to_json


def _played(moves: int, seed: int = 1) -> Game:
    rng = random.Random(seed)
    game = Game()
    for _ in range(moves):
        game.play(rng.choice(game.legal_moves()))
    return game


def test_state_round_trips(tmp_path: Path) -> None:
    game = _played(12)
    journal = Journal(tmp_path / "journal.json")
    journal.save(SessionState(game, Color.BLACK, 4))
    state = journal.load()
    assert state is not None
    assert state.game.moves == game.moves and state.computer is Color.BLACK and state.level == 4
    assert [p.name for p in tmp_path.iterdir()] == ["journal.json"]  # no temporary left


def test_no_journal_means_a_new_game(tmp_path: Path) -> None:
    assert Journal(tmp_path / "journal.json").load() is None


@pytest.mark.parametrize(
    "text",
    [
        "", "{", '{"format": 9}', '{"format": 1, "variant": "standard"}', "\x00\xff",
        "[" * 100_000 + "]" * 100_000,  # too deep for the parser
        "null",
    ],
)
def test_a_corrupt_journal_is_set_aside_with_a_log_line(
    tmp_path: Path, text: str, caplog: pytest.LogCaptureFixture
) -> None:
    path = tmp_path / "journal.json"
    path.write_bytes(text.encode("latin-1"))
    journal = Journal(path)
    assert journal.load() is None
    assert not path.exists()
    aside = list(tmp_path.glob("journal.json.*.corrupt"))
    assert len(aside) == 1 and aside[0].read_bytes() == text.encode("latin-1")
    assert "could not be read" in caplog.text
    assert journal.load() is None  # and the next start is clean, not a crash loop


def test_journal_with_an_illegal_move_is_refused() -> None:
    document = json.loads(state_to_json(SessionState(_played(3), None, 5)))
    document["moves"].append("a1-a6")
    with pytest.raises(ValueError, match="unreadable journal"):
        state_from_json(json.dumps(document))


def test_finished_games_are_archived_as_records(tmp_path: Path) -> None:
    game = _played(5)
    game.end_by_agreement()
    journal = Journal(tmp_path / "journal.json")
    first = journal.archive(SessionState(game, None, 5), {"Red": "Ana"})
    second = journal.archive(SessionState(game, None, 5))
    assert first != second
    record = read_record(first.read_text())
    assert record.tags["Red"] == "Ana" and record.game.moves == game.moves


def test_resumed_game_continues_once_the_board_matches(tmp_path: Path) -> None:
    game = _played(6)
    journal = Journal(tmp_path / "journal.json")
    journal.save(SessionState(game, None, 5))
    state = journal.load()
    assert state is not None
    referee = Referee(game=state.game)
    referee.handle(BoardSeen(BoardReading.of(start_position())))
    assert not referee.settled
    referee.handle(BoardSeen(BoardReading.of(game.position)))
    assert referee.settled and referee.position == game.position


def _scenario(moves: int, seed: int) -> str:
    rng = random.Random(seed)
    position, lines = start_position(), []
    for _ in range(moves):
        options = legal_moves(position)
        if not options:
            break
        move = rng.choice(options)
        verb = "capture" if move.is_capture else "move"
        lines.append(f"{verb} {point_name(move.origin)} {point_name(move.target)}")
        position = make_move(position, move)
    return "\n".join(lines) + "\n"


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_power_cut_at_a_random_moment_loses_no_accepted_move(tmp_path: Path, seed: int) -> None:
    rng = random.Random(seed)
    scenario = tmp_path / "game.txt"
    scenario.write_text(_scenario(40, seed))
    journal_path = tmp_path / "journal.json"
    command = [
        sys.executable, "-m", "firmware.cli", "simulate", str(scenario),
        "--journal", str(journal_path), "--no-hands",
    ]
    process = subprocess.Popen(command, stdout=subprocess.PIPE, text=True)
    assert process.stdout is not None
    accepted: list[str] = []
    stop_after = rng.randrange(2, 12)
    deadline = time.monotonic() + 120
    for line in process.stdout:
        record = json.loads(line)
        if record["type"] == "accepted":
            accepted.append(record["move"])
            if len(accepted) >= stop_after:
                # Somewhere in the middle of what follows: another frame, a save...
                time.sleep(rng.random() * 0.3)
                break
        assert time.monotonic() < deadline
    os.kill(process.pid, signal.SIGKILL)
    process.wait()
    state = Journal(journal_path).load()
    assert state is not None, "the journal must survive the kill"
    saved = [move.name for move in state.game.moves]
    assert saved[: len(accepted)] == accepted
    assert len(saved) <= len(accepted) + 2


def test_the_match_survives_in_the_journal(tmp_path: Path) -> None:
    from controller.match import Counting, Match, MatchRules, Scoring

    match = Match("Ana", "Budi", MatchRules(Scoring.TARGET, target=20, counting=Counting.CAPTURED))
    finished = _played(4)
    outcome = finished.end_by_agreement()
    match.record(outcome)
    journal = Journal(tmp_path / "journal.json")
    journal.save(SessionState(_played(2), None, 5, match))
    state = journal.load()
    assert state is not None and state.match is not None
    assert state.match.totals == match.totals and state.match.rules == match.rules
    assert state.match.player_of(Color.RED) == "Budi"  # colours swapped for game 2


def test_an_out_of_range_level_or_colour_is_corrupt() -> None:
    document = json.loads(state_to_json(SessionState(_played(3), None, 5)))
    with pytest.raises(ValueError, match="level 99"):
        state_from_json(json.dumps({**document, "level": 99}))
    with pytest.raises(ValueError, match="invalid colour"):
        state_from_json(json.dumps({**document, "computer": "green"}))


def test_a_game_ended_by_agreement_stays_ended(tmp_path: Path) -> None:
    game = _played(6)
    game.end_by_agreement()
    journal = Journal(tmp_path / "journal.json")
    journal.save(SessionState(game, None, 5))
    state = journal.load()
    assert state is not None and state.game.outcome == game.outcome


def test_a_journal_that_cannot_be_written_does_not_stop_the_game(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    from firmware.scenario import parse_scenario
    from firmware.simulation import Simulation, SimulationOptions

    blocked = tmp_path / "a-file"
    blocked.write_text("not a folder")
    events: list[dict[str, object]] = []
    journal = Journal(blocked / "journal.json")
    simulation = Simulation(events.append, SimulationOptions(hands=False), journal=journal)
    try:
        simulation.run(parse_scenario("move b2 c3\nmove e5 e4\n"))
    finally:
        simulation.close()
    assert [e["move"] for e in events if e["type"] == "accepted"] == ["b2-c3", "e5-e4"]
    assert "could not save the game to the journal" in caplog.text
