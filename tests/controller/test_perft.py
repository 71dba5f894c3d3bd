"""Perft counts from the data file: the reference table and cross-checked variants."""

from __future__ import annotations

from pathlib import Path

import pytest

from controller import parse_position, parse_variant, perft

DATA = Path(__file__).parent / "data" / "rules.perft"


def _cases() -> list[tuple[str, str, str, int, int]]:
    cases, name, position, variant = [], "", "", ""
    for line in DATA.read_text().splitlines():
        key, _, value = line.partition(" ")
        if key == "id":
            name = value
        elif key == "position":
            position = value
        elif key == "variant":
            variant = value
        elif key == "perft":
            depth, count = value.split()
            cases.append((name, position, variant, int(depth), int(count)))
    return cases


SLOW_COUNT = 20_000
"""Counts above this take long enough to belong to the slow tier."""


@pytest.mark.parametrize(
    ("name", "position", "variant", "depth", "count"),
    [
        pytest.param(*case, marks=[pytest.mark.slow] if case[4] > SLOW_COUNT else [])
        for case in _cases()
    ],
    ids=[f"{case[0]}-{case[3]}" for case in _cases()],
)
def test_perft_matches_data_file(
    name: str, position: str, variant: str, depth: int, count: int
) -> None:
    assert perft(parse_position(position), depth, parse_variant(variant)) == count


def test_data_file_holds_the_reference_table_through_depth_5() -> None:
    standard = [case for case in _cases() if case[0] == "standard start"]
    assert [case[4] for case in standard] == [16, 256, 5382, 111122, 2572484]
