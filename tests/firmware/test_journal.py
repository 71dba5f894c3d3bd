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
from firmware.journal import Journal, SessionState, signed, state_from_json, state_to_json


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
    # No temporary left, only the journal and the lock file of the board using it.
    assert sorted(p.name for p in tmp_path.iterdir()) == ["journal.json", "journal.json.lock"]


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
        state_from_json(signed(document))


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


@pytest.mark.slow
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
    # On a busy machine the game may have gone on while we slept: what it printed
    # before the kill is still in the pipe, and every move in it was accepted too.
    announced = accepted + _accepted_moves(process.stdout.read())
    state = Journal(journal_path).load()
    assert state is not None, "the journal must survive the kill"
    saved = [move.name for move in state.game.moves]
    assert len(saved) >= len(accepted), "a move the board announced was lost"
    assert saved == announced[: len(saved)] or saved[:-1] == announced
    # The journal is written before a move is announced: at most one move ahead.
    assert len(saved) <= len(announced) + 1


def _accepted_moves(output: str) -> list[str]:
    """The accepted moves in a simulator's event lines; a line cut short by the kill is skipped."""
    moves = []
    for line in output.splitlines():
        try:
            record = json.loads(line)
        except json.JSONDecodeError:
            continue
        if record.get("type") == "accepted":
            moves.append(record["move"])
    return moves


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
    with pytest.raises(ValueError, match="level: expected an integer from 1 to 10, got 99"):
        state_from_json(signed({**document, "level": 99}))
    with pytest.raises(ValueError, match="invalid colour"):
        state_from_json(signed({**document, "computer": "green"}))


def test_a_game_ended_by_agreement_stays_ended(tmp_path: Path) -> None:
    game = _played(6)
    game.end_by_agreement()
    journal = Journal(tmp_path / "journal.json")
    journal.save(SessionState(game, None, 5))
    state = journal.load()
    assert state is not None and state.game.outcome == game.outcome


@pytest.mark.slow
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


def _finished(seed: int = 3) -> Game:
    game = _played(7, seed)
    game.end_by_agreement()
    return game


def test_a_second_board_on_the_same_journal_is_refused(tmp_path: Path) -> None:
    from firmware.journal import JournalInUse

    first = Journal(tmp_path / "journal.json")
    first.save(SessionState(_played(3), None, 5))
    second = Journal(tmp_path / "journal.json")
    with pytest.raises(JournalInUse, match=r"in use by another board .process [0-9]+.: give"):
        second.load()
    with pytest.raises(JournalInUse):
        second.save(SessionState(_played(4), None, 5))
    first.close()
    state = second.load()
    assert state is not None and len(state.game.moves) == 3, "the first board's game is kept"


def test_the_lock_is_free_once_the_process_holding_it_is_gone(tmp_path: Path) -> None:
    path = tmp_path / "journal.json"
    holder = subprocess.Popen(
        [sys.executable, "-c",
         "import sys, time; from pathlib import Path; from firmware.journal import Journal; "
         f"j = Journal(Path({str(path)!r})); j.load(); print('held', flush=True); time.sleep(60)"],
        stdout=subprocess.PIPE, text=True,
    )
    assert holder.stdout is not None and holder.stdout.readline() == "held\n"
    from firmware.journal import JournalInUse

    with pytest.raises(JournalInUse, match=f"process {holder.pid}"):
        Journal(path).load()
    holder.kill()
    holder.wait()
    assert Journal(path).load() is None  # a power cut frees the lock with the process


def test_a_flipped_bit_is_a_corrupt_journal_not_another_game(tmp_path: Path) -> None:
    text = state_to_json(SessionState(_played(20), Color.RED, 4)).encode()
    rng = random.Random(5)
    for _ in range(300):
        flipped = bytearray(text)
        place = rng.randrange(len(flipped))
        flipped[place] ^= 1 << rng.randrange(8)
        try:
            state = state_from_json(flipped.decode("utf-8"))
        except (ValueError, UnicodeDecodeError):
            continue
        # Only a flip JSON cannot see (the case of an escape, a space) may load, as the game.
        assert [m.name for m in state.game.moves] == [m.name for m in _played(20).moves]
        assert state.computer is Color.RED and state.level == 4


def test_a_journal_of_the_first_format_still_loads(tmp_path: Path) -> None:
    document = json.loads(state_to_json(SessionState(_played(5), None, 3)))
    del document["checksum"], document["record"]
    document["format"] = 1
    state = state_from_json(json.dumps(document))
    assert len(state.game.moves) == 5 and state.level == 3


@pytest.mark.parametrize(
    ("key", "value"),
    [("level", 1e400), ("level", float("nan")), ("level", 10**30), ("no_capture_limit", 1e400),
     ("level", True), ("record", "../../outside.txt"), ("record", 7)],
)
def test_numbers_and_names_out_of_bounds_are_a_corrupt_journal(
    tmp_path: Path, key: str, value: object, caplog: pytest.LogCaptureFixture
) -> None:
    document = json.loads(state_to_json(SessionState(_played(3), None, 5)))
    path = tmp_path / "journal.json"
    path.write_text(signed({**document, key: value}))
    assert Journal(path).load() is None, "set aside, a new game, no crash"
    assert f"unreadable journal: {key}" in caplog.text
    assert not (tmp_path.parent / "outside.txt").exists()


def test_a_corrupt_journal_on_a_read_only_disk_starts_a_new_game(
    tmp_path: Path, caplog: pytest.LogCaptureFixture, monkeypatch: pytest.MonkeyPatch
) -> None:
    import errno

    (tmp_path / "journal.json").write_text("{ torn")

    def read_only(*args: object) -> None:
        raise OSError(errno.EROFS, "Read-only file system")

    monkeypatch.setattr(os, "replace", read_only)
    monkeypatch.setattr(os, "open", read_only)  # not even a lock file can be made
    assert Journal(tmp_path / "journal.json").load() is None
    assert "nor moved aside (Read-only file system); starting a new game" in caplog.text
    assert "used without a lock" in caplog.text


def test_stale_temporary_files_are_removed_when_the_journal_opens(tmp_path: Path) -> None:
    games = tmp_path / "games"
    games.mkdir()
    stale = [tmp_path / ".journal.json.abc123.tmp", games / ".game-20260101-101010.txt.x1.tmp"]
    for path in stale:
        path.write_text("half a write")
    kept = tmp_path / ".other.json.abc.tmp"
    kept.write_text("not ours")
    Journal(tmp_path / "journal.json", games).load()
    assert not any(path.exists() for path in stale) and kept.exists()


def test_the_record_is_written_with_the_finished_game(tmp_path: Path) -> None:
    journal = Journal(tmp_path / "journal.json")
    game = _finished()
    journal.save(SessionState(game, None, 5))
    records = list((tmp_path / "games").iterdir())
    assert len(records) == 1 and read_record(records[0].read_text()).game.moves == game.moves
    assert journal.archive(SessionState(game, None, 5)) == records[0], "not written twice"
    journal.save(SessionState(game, None, 5))
    assert list((tmp_path / "games").iterdir()) == records


def test_a_record_lost_to_a_power_cut_is_written_at_the_next_start(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    journal = Journal(tmp_path / "journal.json")
    game = _finished()
    journal.save(SessionState(game, None, 5))
    (record,) = (tmp_path / "games").iterdir()
    record.unlink()  # the cut came between the journal and the record
    journal.close()
    state = Journal(tmp_path / "journal.json").load()
    assert state is not None and state.game.is_over
    assert read_record(record.read_text()).game.moves == game.moves
    assert "written again" in caplog.text


def test_an_ending_taken_back_removes_its_record_before_the_journal_goes_on(
    tmp_path: Path,
) -> None:
    journal = Journal(tmp_path / "journal.json")
    game = _finished()
    journal.save(SessionState(game, None, 5))
    game.resume()
    journal.save(SessionState(game, None, 5))
    assert list((tmp_path / "games").iterdir()) == []
    game.end_by_agreement()
    journal.save(SessionState(game, None, 5))
    new = Game()
    journal.save(SessionState(new, None, 5))  # a new game keeps the last one's record
    assert len(list((tmp_path / "games").iterdir())) == 1


def test_a_failing_save_is_remembered_until_one_works(tmp_path: Path) -> None:
    blocked = tmp_path / "a-file"
    blocked.write_text("not a folder")
    journal = Journal(blocked / "journal.json")
    with pytest.raises(OSError):
        journal.save(SessionState(_played(2), None, 5))
    assert journal.failing  # why, in words
    blocked.unlink()
    journal.save(SessionState(_played(3), None, 5))
    assert journal.failing is None
