"""The engine protocol: every command, its answers and its errors."""

from __future__ import annotations

import pytest

from controller.baselines import GreedyPlayer, RandomPlayer
from controller.engine.player import EnginePlayer
from controller.gtp import GtpEngine, GtpError, GtpRefused, answer_text
from controller.movegen import legal_moves
from controller.position import parse_position
from tests.conftest import FakeClock

REQUIRED = [
    "protocol_version",
    "name",
    "version",
    "known_command",
    "list_commands",
    "quit",
    "boardsize",
    "clear_board",
    "variant",
    "set_position",
    "play",
    "genmove",
    "undo",
    "showboard",
    "set_movetime",
    "final_score",
]


@pytest.fixture
def gtp() -> GtpEngine:
    return GtpEngine(RandomPlayer(seed=1), movetime=0.05)


def ok(engine: GtpEngine, line: str) -> str:
    answer = engine.handle(line)
    assert answer is not None
    assert answer.startswith("= ") and answer.endswith("\n\n"), answer
    return answer[2:-2]


def error(engine: GtpEngine, line: str) -> str:
    answer = engine.handle(line)
    assert answer is not None
    assert answer.startswith("? ") and answer.endswith("\n\n"), answer
    return answer[2:-2]


def test_identity_commands(gtp: GtpEngine) -> None:
    assert ok(gtp, "protocol_version") == "2"
    assert ok(gtp, "name") == "surakarta-board"
    assert ok(gtp, "version")


def test_list_and_known_commands(gtp: GtpEngine) -> None:
    listed = ok(gtp, "list_commands").split("\n")
    assert set(REQUIRED) <= set(listed)
    assert ok(gtp, "known_command genmove") == "true"
    assert ok(gtp, "known_command fly") == "false"


def test_ids_are_echoed(gtp: GtpEngine) -> None:
    assert gtp.handle("12 protocol_version") == "=12 2\n\n"
    assert gtp.handle("7 fly") == "?7 unknown command: 'fly'\n\n"


def test_a_controller_reads_the_answers_as_the_engine_frames_them(gtp: GtpEngine) -> None:
    def read(line: str) -> str:
        answer = gtp.handle(line)
        assert answer is not None
        return answer_text(answer.removesuffix("\n\n").split("\n"))

    assert read("12 protocol_version") == "2"
    board = read("showboard")
    assert board == ok(gtp, "showboard").strip() and board.count("\n") >= 6
    with pytest.raises(GtpRefused, match=r"^unknown command: 'fly'$"):
        read("7 fly")
    with pytest.raises(GtpError, match="not an answer: 'hello'"):
        answer_text(["hello"])


def test_blank_and_comment_lines_get_no_answer(gtp: GtpEngine) -> None:
    assert gtp.handle("") is None
    assert gtp.handle("   \n") is None
    assert gtp.handle("# a comment") is None
    assert ok(gtp, "name # trailing comment") == "surakarta-board"


def test_malformed_commands_are_errors(gtp: GtpEngine) -> None:
    assert "unknown command" in error(gtp, "fly away")
    assert "syntax error" in error(gtp, "play red")
    assert "syntax error" in error(gtp, "name now")
    assert ok(gtp, "name") == "surakarta-board"  # still running


def test_quit(gtp: GtpEngine) -> None:
    assert gtp.handle("quit") == "= \n\n"
    assert gtp.quit_requested


def test_boardsize_and_clear_board(gtp: GtpEngine) -> None:
    assert ok(gtp, "boardsize 7") == ""
    assert ok(gtp, "position") == "bbbbbbb/bbbbbbb/7/7/7/rrrrrrr/rrrrrrr r"
    assert "unacceptable size" in error(gtp, "boardsize 8")
    assert "unacceptable size" in error(gtp, "boardsize six")
    assert ok(gtp, "boardsize 6") == ""
    ok(gtp, "play red c2-c3")
    assert ok(gtp, "clear_board") == ""
    assert ok(gtp, "position") == "bbbbbb/bbbbbb/6/6/rrrrrr/rrrrrr r"


def test_variant(gtp: GtpEngine) -> None:
    assert ok(gtp, "variant sepur") == ""
    assert ok(gtp, "position").count("/") == 6
    assert "unknown variant" in error(gtp, "variant chess")
    ok(gtp, "variant gonu")
    assert "illegal move" in error(gtp, "play red b2-c3")  # no diagonal steps in gonu
    assert ok(gtp, "play red b2-b3") == ""


def test_set_position(gtp: GtpEngine) -> None:
    assert ok(gtp, "set_position 3b2/6/2r3/6/6/6 b") == ""
    assert ok(gtp, "threats") == "c4xd6"
    assert "invalid position string" in error(gtp, "set_position 3b2/6/2r3 b")
    assert "invalid position string" in error(gtp, "set_position 3b2/6/2r3/6/6/6 x")


def test_play_moves_the_pieces(gtp: GtpEngine) -> None:
    assert ok(gtp, "play red c2-c3") == ""
    assert ok(gtp, "position") == "bbbbbb/bbbbbb/6/2r3/rr1rrr/rrrrrr b"
    assert "illegal move" in error(gtp, "play black a6-a4")
    assert "invalid move" in error(gtp, "play black a9-a8")
    assert "invalid colour" in error(gtp, "play green b5-b4")
    assert "it is black's turn" in error(gtp, "play red d2-d3")
    assert ok(gtp, "play black b5-b4") == ""


def test_first_mover_can_be_either_colour(gtp: GtpEngine) -> None:
    assert ok(gtp, "play black b5-b4") == ""
    assert ok(gtp, "position") == "bbbbbb/b1bbbb/1b4/6/rrrrrr/rrrrrr r"


def test_genmove_plays_a_legal_move(gtp: GtpEngine) -> None:
    before = parse_position(ok(gtp, "position"))
    name = ok(gtp, "genmove red")
    assert name in {move.name for move in legal_moves(before)}
    assert ok(gtp, "position") != str(before)
    assert "it is black's turn" in error(gtp, "genmove red")
    assert ok(gtp, "genmove black")


def test_reg_genmove_does_not_play(gtp: GtpEngine) -> None:
    before = ok(gtp, "position")
    assert ok(gtp, "reg_genmove red")
    assert ok(gtp, "position") == before


def test_engine_genmove_takes_the_winning_capture(searches_by_a_fake_clock: FakeClock) -> None:
    engine = GtpEngine(EnginePlayer(seed=0), movetime=0.3)
    ok(engine, "set_position 4b1/6/3r2/2r2b/3b2/5r r")
    assert ok(engine, "genmove red") == "c3xf3"


def test_undo(gtp: GtpEngine) -> None:
    assert "cannot undo" in error(gtp, "undo")
    ok(gtp, "play red c2-c3")
    assert ok(gtp, "undo") == ""
    assert ok(gtp, "position") == "bbbbbb/bbbbbb/6/6/rrrrrr/rrrrrr r"


def test_showboard(gtp: GtpEngine) -> None:
    board = ok(gtp, "showboard").split("\n")
    assert board[0] == ""
    assert board[1] == "6 B B B B B B"
    assert board[6] == "1 R R R R R R"
    assert board[7] == "  a b c d e f"
    assert board[8] == "red to move"


def test_set_movetime(gtp: GtpEngine) -> None:
    assert ok(gtp, "set_movetime 0.5") == ""
    assert gtp.movetime == 0.5
    assert "invalid move time" in error(gtp, "set_movetime -1")
    assert "invalid move time" in error(gtp, "set_movetime soon")


def test_level_applies_to_the_engine_only(gtp: GtpEngine) -> None:
    assert "engine" in error(gtp, "level 3")
    engine = GtpEngine(EnginePlayer(), movetime=0.05)
    assert ok(engine, "level 3") == ""
    assert "invalid level" in error(engine, "level 11")


def test_final_score_and_game_over() -> None:
    gtp = GtpEngine(GreedyPlayer(seed=0), movetime=0.05)
    assert ok(gtp, "final_score") == "0"
    ok(gtp, "set_position b5/6/6/rbr3/6/6 r")
    ok(gtp, "play red c3xb3")
    assert ok(gtp, "final_score") == "R+1"
    ok(gtp, "undo")
    assert ok(gtp, "result") == "none"
    ok(gtp, "play red c3xb3")
    ok(gtp, "play black a6-a5")
    ok(gtp, "play red b3xa5")
    assert ok(gtp, "result") == "red (wipe-out, 2-0)"
    assert ok(gtp, "final_score") == "R+2"
    assert "game over" in error(gtp, "genmove black")
    assert "game over" in error(gtp, "play black a5-a4")
    ok(gtp, "set_position b4b/6/6/rb4/6/6 b")
    assert ok(gtp, "final_score") == "B+2"


def test_legal_moves_and_threats(gtp: GtpEngine) -> None:
    assert len(ok(gtp, "legal_moves").split()) == 16
    assert ok(gtp, "threats") == ""


def test_a_fault_in_the_engine_is_not_answered_as_bad_input(gtp: GtpEngine) -> None:
    from controller.gtp import _Command

    def broken(arguments: list[str]) -> str:
        return str(int("not a number"))  # a programming error, not the controller's input

    gtp.commands["showboard"] = _Command("", (0,), broken)
    with pytest.raises(ValueError, match="invalid literal"):
        gtp.handle("showboard")
