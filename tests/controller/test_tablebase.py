"""Endgame tablebases: exact verdicts, checked by brute force; the engine plays them."""

from __future__ import annotations

import random
import zlib
from pathlib import Path

import pytest

from controller.engine.endgame import best_move, verdict
from controller.engine.search import MATE, describe_score, think
from controller.engine.tablebase import (
    BadTablebase,
    Probe,
    Result,
    Tablebase,
    decode,
    encode,
    indexer,
    material_classes,
    shipped,
)
from controller.engine.tablebase_build import build, positions_of
from controller.engine.tablebase_verify import (
    BruteForce,
    held_positions,
    random_positions,
    verify,
)
from controller.errors import BadVariant
from controller.game import Game
from controller.movegen import make_move
from controller.position import Position, parse_position
from controller.variants import Variant


@pytest.fixture(scope="module")
def table() -> Tablebase:
    found = shipped(Variant.STANDARD)
    assert found is not None, "the standard tables ship with the package"
    return found


def test_shipped_tables_hold_every_position_of_up_to_four_pieces(table: Tablebase) -> None:
    assert table.max_pieces >= 4
    for material in material_classes(4):
        assert len(table.tables[material]) == indexer(6).class_size(*material)


def test_position_numbers_are_a_bijection_within_a_class() -> None:
    numbering = indexer(6)
    numbers = sorted(numbering.index(own, opp) for own, opp in positions_of(6, (2, 1)))
    assert numbers == list(range(numbering.class_size(2, 1)))


def test_codes_round_trip() -> None:
    for probe in (Probe(Result.WIN, 7), Probe(Result.LOSS, 0), Probe(Result.DRAW, 0)):
        assert decode(encode(probe.result, probe.plies)) == probe


@pytest.mark.slow
def test_random_positions_agree_with_brute_force(table: Tablebase) -> None:
    rng = random.Random(18)
    sizes = range(2, table.max_pieces + 1)
    positions = [p for pieces in sizes for p in random_positions(60, pieces, rng)]
    assert verify(table, positions, horizon=4, variant=Variant.STANDARD) == []


def test_verifier_catches_a_wrong_entry(table: Tablebase) -> None:
    # Two red pieces against one: red captures at once (c3 and the loops reach b3).
    position = parse_position("6/6/6/rbr3/6/6 r")
    own, opp = position.red, position.black
    assert table.probe(own, opp) == Probe(Result.WIN, 1)
    broken = dict(table.tables)
    numbering = indexer(6)
    data = bytearray(broken[(2, 1)])
    data[numbering.index(own, opp)] = encode(Result.WIN, 3)
    broken[(2, 1)] = bytes(data)
    damaged = Tablebase(Variant.STANDARD, 6, table.max_pieces, broken)
    wrong = verify(damaged, [position], horizon=5, variant=Variant.STANDARD)
    assert len(wrong) == 1 and "wins in 1 ply" in str(wrong[0])


@pytest.mark.slow
def test_generation_reproduces_the_shipped_small_classes(table: Tablebase) -> None:
    rebuilt = build(Variant.STANDARD, max_pieces=3)
    for material in material_classes(3):
        assert rebuilt.tables[material] == table.tables[material], material


def test_gonu_has_no_tablebase() -> None:
    with pytest.raises(BadVariant, match="gonu"):
        build(Variant.GONU, max_pieces=2)


def test_file_round_trip_and_damaged_files(tmp_path: Path, table: Tablebase) -> None:
    small = Tablebase(
        Variant.STANDARD, 6, 3, {m: table.tables[m] for m in material_classes(3)}
    )
    path = tmp_path / "small.tb"
    small.save(path)
    assert Tablebase.load(path).tables == small.tables
    path.write_bytes(b"hello\n")
    with pytest.raises(BadTablebase, match="not a tablebase file"):
        Tablebase.load(path)
    path.write_bytes(small.to_bytes()[:-10])
    with pytest.raises(BadTablebase, match="damaged"):
        Tablebase.load(path)


def test_a_class_is_unpacked_only_when_a_position_of_it_is_probed(
    tmp_path: Path, table: Tablebase
) -> None:
    path = tmp_path / "small.tb"
    Tablebase(Variant.STANDARD, 6, 4, {m: table.tables[m] for m in material_classes(4)}).save(
        path
    )
    loaded = Tablebase.load(path)
    assert loaded.unpacked == []
    position = parse_position("6/6/6/rbr3/6/6 b")
    assert verdict(loaded, position) == Probe(Result.LOSS, 6)
    assert loaded.unpacked == [(1, 2)]


def test_files_of_the_first_format_still_load(tmp_path: Path, table: Tablebase) -> None:
    body = b"".join(table.tables[m] for m in material_classes(3))
    path = tmp_path / "old.tb"
    path.write_bytes(b"surakarta-tablebase 1 standard 6 3\n" + zlib.compress(body))
    old = Tablebase.load(path)
    assert old.tables == {m: table.tables[m] for m in material_classes(3)}


def _won_positions(table: Tablebase, count: int, seed: int) -> list[tuple[Position, Probe]]:
    rng = random.Random(seed)
    found: list[tuple[Position, Probe]] = []
    while len(found) < count:
        position = random_positions(1, 4, rng)[0]
        probe = verdict(table, position)
        if probe is not None and probe.result is Result.WIN and probe.plies >= 5:
            found.append((position, probe))
    return found


def test_engine_plays_a_won_ending_from_the_table_at_once(table: Tablebase) -> None:
    position, probe = _won_positions(table, 1, seed=3)[0]
    result = think(position, movetime=5.0)
    assert result.score == MATE - probe.plies
    assert describe_score(result.score) == f"wins by wipe-out in {probe.plies} plies"
    assert result.nodes == 0  # no search needed
    after = verdict(table, make_move(position, result.move))
    assert after == Probe(Result.LOSS, probe.plies - 1)
    assert len(result.pv) == probe.plies


def test_engine_wins_won_endings_against_the_best_defence(table: Tablebase) -> None:
    for position, probe in _won_positions(table, 3, seed=7):
        game = Game(start=position)
        winner = position.turn
        while not game.is_over:
            if game.turn is winner:
                game.play(think(game.position, depth=2, history=game.positions).move)
            else:
                defence = best_move(table, game.position, Variant.STANDARD)
                assert defence is not None
                game.play(defence[0])
        outcome = game.outcome
        assert outcome is not None and outcome.winner is winner
        assert len(game.moves) == probe.plies


def test_search_sees_a_won_ending_behind_a_capture() -> None:
    # Three red pieces against two: a capture leads into a four-piece table win,
    # which the search scores as a wipe-out although it is many plies deep.
    position = parse_position("b4r/3r2/6/6/2r3/5b r")
    result = think(position, depth=2, tablebase=True)
    assert result.score > MATE - 64
    without = think(position, depth=2, tablebase=False)
    assert without.score < MATE - 64


def test_the_7x7_tables_ship_and_the_engine_plays_their_wins() -> None:
    sepur = shipped(Variant.SEPUR)
    assert sepur is not None and sepur.size == 7 and sepur.max_pieces >= 4
    rng = random.Random(4)
    while True:
        position = random_positions(1, 4, rng, size=7)[0]
        probe = verdict(sepur, position)
        if probe is not None and probe.result is Result.WIN and probe.plies >= 5:
            break
    result = think(position, Variant.SEPUR, movetime=5.0)
    assert result.score == MATE - probe.plies and result.nodes == 0


@pytest.mark.slow
def test_the_7x7_tables_agree_with_brute_force() -> None:
    sepur = shipped(Variant.SEPUR)
    assert sepur is not None
    positions = held_positions(sepur, 120, random.Random(7))
    assert verify(sepur, positions, horizon=4, variant=Variant.SEPUR) == []


def test_brute_force_sees_an_immediate_wipe_out() -> None:
    brute = BruteForce()
    position = parse_position("6/6/6/rbr3/6/6 r")
    assert brute.verdict(position, horizon=3) == Probe(Result.WIN, 1)
