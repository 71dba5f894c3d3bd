"""Scripted sessions end to end: rendered frames, real vision, the referee, mock pins."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from controller import BoardReading, Color, find_move, make_move, start_position
from firmware.cli import main
from firmware.journal import Journal
from firmware.scenario import BadScenario, parse_scenario
from firmware.simulation import Simulation, SimulationOptions
from tests.doubtful_frames import doubtful
from vision.colour import PointLabel

pytestmark = pytest.mark.usefixtures("calibrations_learnt_once")


def run(script: str, **options: Any) -> list[dict[str, Any]]:
    events: list[dict[str, Any]] = []
    simulation = Simulation(events.append, SimulationOptions(**options))
    try:
        simulation.run(parse_scenario(script))
    finally:
        simulation.close()
    return events


def of_type(events: list[dict[str, Any]], kind: str) -> list[dict[str, Any]]:
    return [event for event in events if event["type"] == kind]


@pytest.mark.slow
def test_steps_captures_and_an_illegal_move_through_the_camera() -> None:
    events = run(
        """
        move c2 c3
        move d5 d4
        move c3 c4
        move d4 d3      # black steps next to red
        move e2 f3
        move e5 e4
        move b1 b3      # illegal: two points away
        move b3 b1      # put back
        """
    )
    accepted = [event["move"] for event in of_type(events, "accepted")]
    assert accepted == ["c2-c3", "d5-d4", "c3-c4", "d4-d3", "e2-f3", "e5-e4"]
    illegal = of_type(events, "illegal")
    assert illegal and set(illegal[0]["fix"]) == {"b1", "b3"}
    assert of_type(events, "restored")
    blinking = [event for event in of_type(events, "leds") if event["blink"]]
    assert blinking and set(blinking[0]["blink"]) == {"b1", "b3"}


@pytest.mark.slow
def test_a_capture_with_the_captured_piece_taken_off_first() -> None:
    events = run(
        """
        move a2 a3
        move a5 a4
        move a3 b4
        capture d6 b4   # round the top-right large loop and along rank 4
        """
    )
    accepted = [event["move"] for event in of_type(events, "accepted")]
    assert accepted == ["a2-a3", "a5-a4", "a3-b4", "d6xb4"]
    assert not of_type(events, "illegal")
    # The accepted capture's path runs through the loop's lamps.
    lit = [event for event in of_type(events, "leds") if "outer-ne-2" in event["on"]]
    assert lit and {"d6", "f4", "b4"} <= set(lit[0]["on"])


@pytest.mark.slow
def test_computer_reply_hint_follow_and_undo() -> None:
    events = run(
        """
        mode computer black
        level 2
        move b2 c3
        follow
        press hint
        follow
        press undo
        """,
        hands=False,
    )
    computer = of_type(events, "computer")
    assert computer and computer[0]["lamps"]
    accepted = of_type(events, "accepted")
    assert [event["by"] for event in accepted] == ["red", "black", "red"]
    assert accepted[1]["move"] == computer[0]["move"]
    hint = of_type(events, "hint")
    assert hint and accepted[2]["move"] == hint[0]["move"]
    assert [event["move"] for event in of_type(events, "undone")] == [hint[0]["move"]]


@pytest.mark.slow
def test_lifted_piece_lights_its_targets() -> None:
    events = run("lift b2\n", hands=False)
    lifted = of_type(events, "lifted")
    assert lifted and lifted[0]["point"] == "b2"
    assert set(lifted[0]["targets"]) == {"a3", "b3", "c3"}
    lit = of_type(events, "leds")[-1]
    assert {"a3", "b3", "c3"} <= set(lit["on"])


def test_a_line_of_junk_makes_a_message_that_fits_on_a_line() -> None:
    junk = "0" * 17 + "\x1b\x1b" + "\U00018cd6" * 60  # a binary file read as a scenario
    with pytest.raises(BadScenario, match="line 1: unknown action") as raised:
        parse_scenario(junk)
    assert len(str(raised.value)) < 400 and "\n" not in str(raised.value)


@pytest.mark.slow
def test_bad_scenarios_name_the_line() -> None:
    with pytest.raises(BadScenario, match="line 2: unknown action 'jump'"):
        parse_scenario("move b2 c3\njump b2\n")
    with pytest.raises(BadScenario, match="line 1: move takes 2 argument"):
        parse_scenario("move b2\n")
    with pytest.raises(BadScenario, match="line 1: unknown button 'boom'"):
        parse_scenario("press boom\n")
    with pytest.raises(BadScenario, match="line 1: no piece on c3"):
        run("move c3 c4\n", hands=False)
    with pytest.raises(BadScenario, match="line 1: nothing is lit to follow"):
        run("follow\n", hands=False)


@pytest.mark.slow
def test_scenario_command_writes_json_lines(tmp_path: Path) -> None:
    scenario = tmp_path / "game.txt"
    scenario.write_text("# one move\nmove b2 c3\n")
    events = tmp_path / "events.jsonl"
    assert main(["scenario", str(scenario), "--events", str(events), "--quiet", "--no-hands"]) == 0
    records = [json.loads(line) for line in events.read_text().splitlines()]
    assert all("t" in record and "type" in record for record in records)
    assert [r["move"] for r in records if r["type"] == "accepted"] == ["b2-c3"]


@pytest.mark.parametrize("name", ["scenario", "simulate"])
def test_scenario_command_reports_a_bad_scenario(
    name: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # "simulate" is the command's first name, kept working for scripts that use it.
    scenario = tmp_path / "bad.txt"
    scenario.write_text("move b2 c3\nlevel 11\n")
    assert main([name, str(scenario)]) == 2
    assert "line 2: level must be 1 to 10" in capsys.readouterr().err


@pytest.mark.slow
def test_a_7x7_variant_rewires_the_lamps_for_its_board() -> None:
    events = run("variant sepur\nmove b2 c3\nmove d6 d5\nlift g2\n", hands=False)
    assert [event["move"] for event in of_type(events, "accepted")] == ["b2-c3", "d6-d5"]
    lifted = of_type(events, "lifted")
    assert lifted and set(lifted[-1]["targets"]) == {"f3", "g3"}
    assert {"f3", "g3"} <= set(of_type(events, "leds")[-1]["on"])  # g is the 7th file


@pytest.mark.slow
def test_an_agreement_taken_back_leaves_no_record(tmp_path: Path) -> None:
    events: list[dict[str, Any]] = []
    games = tmp_path / "games"
    journal = Journal(tmp_path / "journal.json", games)
    simulation = Simulation(events.append, SimulationOptions(), journal=journal)
    try:
        simulation.run(parse_scenario("move c2 c3\nmove d5 d4\npress new\nwait 1"))
        assert of_type(events, "game_over")[-1]["reason"] == "agreement"
        assert len(list(games.iterdir())) == 1, "the ended game is saved"
        simulation.run(parse_scenario("press undo\nwait 1\nmove c3 c4\nwait 1"))
        assert of_type(events, "resumed") and of_type(events, "accepted")[-1]["move"] == "c3-c4"
        assert list(games.iterdir()) == [], "no record says the game ended"
    finally:
        simulation.close()


@pytest.mark.slow
def test_a_level_and_mode_change_is_journaled_like_a_move(tmp_path: Path) -> None:
    events: list[dict[str, Any]] = []
    journal = Journal(tmp_path / "journal.json")
    options = SimulationOptions(hands=False)
    simulation = Simulation(events.append, options, journal=journal)
    try:
        simulation.run(parse_scenario("level 3\nmode computer black\n"))
    finally:
        simulation.close()
        journal.close()
    assert [event["level"] for event in of_type(events, "level")] == [3]
    saved = Journal(tmp_path / "journal.json").load()
    assert saved is not None and (saved.level, saved.computer) == (3, Color.BLACK)



@pytest.mark.slow
def test_a_move_the_camera_is_unsure_of_is_accepted_when_only_it_fits() -> None:
    # A glossy top on c3 mirrors the lamp in every frame: red or black, the colours cannot
    # say. The board's loop hands the referee's expected boards to the stabiliser, and only
    # c2-c3 fits; a frame that fits the start position too decides nothing.
    events: list[dict[str, Any]] = []
    simulation = Simulation(events.append, SimulationOptions())
    try:
        for _ in range(10):
            simulation.tick()
        assert simulation.referee.settled
        after = BoardReading.of(make_move(start_position(), find_move(start_position(), "c2-c3")))
        either = doubtful(after, {"c2": (PointLabel.EMPTY, PointLabel.RED),
                                  "c3": (PointLabel.EMPTY, PointLabel.RED)})
        glared = doubtful(after, {"c3": (PointLabel.BLACK, PointLabel.RED)})
        for frame in [either] * 10 + [glared] * 10:
            simulation.step(frame)
            simulation.t += 0.1
            if frame is either:
                assert not of_type(events, "accepted")
        assert [event["move"] for event in of_type(events, "accepted")] == ["c2-c3"]
    finally:
        simulation.close()
