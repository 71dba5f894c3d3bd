"""Settings the players change at the board are referee inputs, journaled like moves."""

from __future__ import annotations

from pathlib import Path

from controller import BoardReading, Variant, start_position
from controller.decisions import BoardSeen, SetMatch, SetVariant
from controller.engine.service import ImmediateEngine
from controller.match import MatchRules
from controller.referee import Referee
from firmware.board import BoardSession, Outputs
from firmware.journal import Journal
from hardware.lamps import LampLayout
from hardware.scene import LedScene


def board(journal: Journal, events: list[dict[str, object]]) -> BoardSession:
    outputs = Outputs(
        LampLayout(6, 3, 5), LedScene(clock=lambda: 0.0), ImmediateEngine(),
        journal=journal, events=events.append,
    )
    session = BoardSession(Referee(), outputs)
    session.start(0.0)
    session.feed(BoardSeen(BoardReading.of(start_position())), 0.0)
    return session


def test_a_variant_and_a_match_chosen_at_the_board_outlive_a_power_cut(tmp_path: Path) -> None:
    path = tmp_path / "journal.json"
    journal = Journal(path)
    events: list[dict[str, object]] = []
    session = board(journal, events)
    session.feed(SetVariant(Variant.GONU), 1.0)
    session.feed(SetMatch(("Ana", "Budi"), MatchRules(games=4)), 2.0)
    journal.close()  # the power goes: nothing after the changes is written

    saved = Journal(path).load()
    assert saved is not None and saved.game.variant is Variant.GONU
    assert saved.match is not None
    assert (saved.match.first, saved.match.second, saved.match.rules.games) == ("Ana", "Budi", 4)
    assert {"t": 1.0, "type": "new_game", "variant": "gonu"} in events
    assert {"t": 2.0, "type": "match", "players": ["Ana", "Budi"], "games": 4} in events


def test_stopping_a_match_at_the_board_is_journaled(tmp_path: Path) -> None:
    path = tmp_path / "journal.json"
    journal = Journal(path)
    session = board(journal, [])
    session.feed(SetMatch(("Ana", "Budi"), MatchRules(games=4)), 1.0)
    session.feed(SetMatch(None), 2.0)
    journal.close()
    saved = Journal(path).load()
    assert saved is not None and saved.match is None
