"""The engine plays for the scoring in force: it finishes won games, and plays on."""

from __future__ import annotations

from controller.decisions import BoardSeen, Think
from controller.engine.objective import PIECES_OBJECTIVE
from controller.engine.search import COUNT_WIN, MATE_BOUND, PIECE, Iteration, Search, think
from controller.engine.settings import tuned
from controller.match import Match
from controller.movegen import legal_moves, make_move
from controller.moves import Move
from controller.position import Color, parse_position
from controller.reading import BoardReading
from controller.referee import Referee


def _referee_think(referee: Referee) -> Think:
    decisions = referee.handle(BoardSeen(BoardReading.of(referee.position)))
    return next(d for d in decisions if isinstance(d, Think))


def test_the_referee_tells_the_engine_a_match_is_scored_by_pieces() -> None:
    single = Referee(computer=Color.RED)
    assert not _referee_think(single).scored_by_pieces
    match = Referee(computer=Color.RED, match=Match("board", "computer"))
    assert _referee_think(match).scored_by_pieces


def test_ahead_a_repetition_is_a_win_but_a_wipe_out_in_the_tables_comes_first() -> None:
    # Six against five, far from the tables: a step that repeats a position of the
    # game wins on count (the Olympiad rule), and nothing in reach is better.
    position = parse_position("bbbbb1/6/6/6/6/rrrrrr r")
    move = legal_moves(position)[0]
    history = [make_move(position, move), position]
    kept = think(position, depth=3, history=history)
    assert kept.move == move and kept.score >= COUNT_WIN
    assert kept.depth == 5  # the other moves were searched two plies deeper first
    # Three against two, one capture from a four-piece table win: it plays on.
    near_end = parse_position("b4r/3r2/6/6/2r3/5b r")
    for move in legal_moves(near_end):
        history = [make_move(near_end, move), near_end]
        chosen = think(near_end, depth=2, history=history)
        assert chosen.move != move and chosen.score > MATE_BOUND


def test_level_it_declines_a_draw_by_repetition_worth_less_than_its_contempt() -> None:
    # Having the move weighs half a piece here, so at one ply every move that does
    # not repeat leaves the opponent a little better (about -0.27): a draw is worth
    # more, unless the contempt for draws says otherwise. (The search alone: think
    # would look deeper before repeating, and see play on worth more.)
    position = parse_position("bbbbbb/6/6/6/6/rrrrrr r")
    move = legal_moves(position)[0]
    history = [make_move(position, move), position]

    def one_ply(contempt: int) -> tuple[Move | None, int]:
        settings = tuned(["tempo=50", f"contempt={contempt}"])
        search = Search(position, history=history, settings=settings)
        *_, last = search.iterate(lambda: False, max_depth=1)
        return search.best_move, last.score

    assert one_ply(0) == (move, 0)
    proud_move, proud_score = one_ply(40)
    assert proud_move != move and -40 < proud_score < 0
    # think's second look: two plies deeper, playing on is worth more than the draw.
    looked = think(position, depth=1, history=history, settings=tuned(["tempo=50", "contempt=0"]))
    assert looked.move != move and looked.score > 0


def test_scored_by_pieces_endings_count_the_margin() -> None:
    # Red wipes black out keeping its three pieces: a margin of three, not a "win".
    position = parse_position("6/rr1br1/6/6/6/5b r")
    by_pieces = think(position, depth=4, objective=PIECES_OBJECTIVE)
    assert by_pieces.score == 3 * PIECE
    assert think(position, depth=4).score > COUNT_WIN


def test_a_move_searched_alone_is_scored_as_in_play() -> None:
    # The repeating step alone scores the draw (contempt 0); searched alone, any
    # other move scores what it is worth, and the search plays only what it was given.
    position = parse_position("bbbbbb/6/6/6/6/rrrrrr r")
    settings = tuned(["tempo=50", "contempt=0"])
    repeating, other = legal_moves(position)[:2]
    history = [make_move(position, repeating), position]

    def alone(move: Move) -> Iteration:
        search = Search(position, history=history, settings=settings, only=[move])
        *_, last = search.iterate(lambda: False, max_depth=1)
        assert search.best_move == move
        return last

    assert alone(repeating).score == 0
    assert alone(other).score < 0


def test_before_repeating_ahead_it_looks_deeper_for_a_wipe_out() -> None:
    # Four against three (from a tournament game): three plies see nothing better
    # than winning on count by stepping back, b2-b1; b2xb5 wipes out in 7 plies,
    # which a search two plies deeper sees.
    position = parse_position("b5/bbr1r1/6/6/1r4/r5 r")
    back = next(move for move in legal_moves(position) if move.name == "b2-b1")
    history = [make_move(position, back), position]
    chosen = think(position, depth=3, history=history, plies_without_capture=3)
    assert chosen.move.name == "b2xb5"
    assert chosen.score > MATE_BOUND
    # Without the repetition to hand, three plies alone do not see the wipe-out.
    assert think(position, depth=3, plies_without_capture=3).score < MATE_BOUND
