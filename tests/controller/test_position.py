"""Position strings: parsing, printing and every kind of malformed string."""

from __future__ import annotations

import pytest

from controller import (
    BadPoint,
    BadPosition,
    Color,
    parse_point,
    parse_position,
    point_name,
    start_position,
)
from controller.geometry import point_at


def test_start_position_string() -> None:
    assert str(start_position()) == "bbbbbb/bbbbbb/6/6/rrrrrr/rrrrrr r"
    assert str(start_position(7)) == "bbbbbbb/bbbbbbb/7/7/7/rrrrrrr/rrrrrrr r"
    assert start_position(first=Color.BLACK).turn is Color.BLACK


@pytest.mark.parametrize(
    "text",
    [
        "bbbbbb/bbbbbb/6/6/rrrrrr/rrrrrr r",
        "3b2/6/6/2r3/6/6 b",
        "b5/6/1r4/6/6/5r r",
        "7/7/3r3/7/7/7/b6 b",
    ],
)
def test_round_trip(text: str) -> None:
    assert str(parse_position(text)) == text


def test_points_are_read_from_the_top_rank_down() -> None:
    position = parse_position("b5/6/6/6/6/5r r")
    assert position.piece_at(point_at(0, 5)) is Color.BLACK  # a6
    assert position.piece_at(point_at(5, 0)) is Color.RED  # f1
    assert position.piece_at(point_at(2, 2)) is None


@pytest.mark.parametrize(
    ("text", "fragment"),
    [
        ("bbbbbb/bbbbbb/6/6/rrrrrr r", "has 5 ranks"),
        ("bbbbbb/bbbbbb/6/6/rrrrrr/rrrrrr/6/6 r", "has 8 ranks"),
        ("bbbbbb/bbbbb/6/6/rrrrrr/rrrrrr r", "rank 5 has 5 points"),
        ("bbbbbb/bbbbbbb/6/6/rrrrrr/rrrrrr r", "rank 5 has 7 points"),
        ("bbbbbb/bbbbbb/6/3k2/rrrrrr/rrrrrr r", "unknown piece 'k'"),
        ("bbbbbb/bbbbbb/6/6/rrrrrr/rrrrrr x", "bad side 'x'"),
        ("bbbbbb/bbbbbb/6/6/rrrrrr/rrrrrr", "expected the board"),
        ("", "expected the board"),
    ],
)
def test_malformed_strings_name_the_problem_and_quote_the_input(text: str, fragment: str) -> None:
    with pytest.raises(BadPosition) as error:
        parse_position(text)
    message = str(error.value)
    assert fragment in message
    assert message.startswith("invalid position string: ")
    assert repr(text.split(" ")[0])[1:-1][:10] in message


def test_bad_position_is_a_value_error() -> None:
    with pytest.raises(ValueError):
        parse_position("nonsense r")


def test_point_names() -> None:
    assert point_name(point_at(0, 0)) == "a1"
    assert point_name(point_at(5, 5)) == "f6"
    assert parse_point("c4", 6) == point_at(2, 3)
    with pytest.raises(BadPoint):
        parse_point("g1", 6)
    with pytest.raises(BadPoint):
        parse_point("a7", 6)
    assert parse_point("g7", 7) == point_at(6, 6)
