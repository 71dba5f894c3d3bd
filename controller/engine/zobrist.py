"""Zobrist keys: a 64-bit hash of a position, updated cheaply move by move.

Keys come from a fixed-seed ``random.Random`` so that hashes (and with them the
order of the transposition table and every search) are the same in every run.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache

from controller.geometry import STRIDE
from controller.position import Color, Position

_SEED = 0x5A4B_A7A1
_POINTS = STRIDE * STRIDE

RED, BLACK = 0, 1
"""Colour indexes of the key tables."""


def color_index(color: Color) -> int:
    """0 for red, 1 for black: the index of ``color`` in the key tables."""
    return RED if color is Color.RED else BLACK


@dataclass(frozen=True, slots=True)
class ZobristKeys:
    """The random keys and the derived tables that make move updates two lookups."""

    pieces: tuple[tuple[int, ...], tuple[int, ...]]
    """``pieces[colour][point]``: the key of a piece of that colour on that point."""
    black_to_move: int
    """Mixed in when black is to move."""
    moves: tuple[dict[int, int], dict[int, int]]
    """``moves[colour][flip]``: key change of a piece of that colour moving, by the
    bitboard ``flip`` with its origin and destination bits set; the side key is
    folded in, since every move also changes the side to move."""
    captures: tuple[dict[int, int], dict[int, int]]
    """``captures[colour][bit]``: key change when the piece of that colour on the
    point ``bit`` is removed."""

    def position_key(self, red: int, black: int, turn: Color) -> int:
        """The key of a whole position, computed from scratch."""
        key = self.black_to_move if turn is Color.BLACK else 0
        for color, board in ((RED, red), (BLACK, black)):
            table = self.pieces[color]
            while board:
                low = board & -board
                board ^= low
                key ^= table[low.bit_length() - 1]
        return key

    def key(self, position: Position) -> int:
        """The key of ``position``."""
        return self.position_key(position.red, position.black, position.turn)

    def keys(self, positions: Sequence[Position]) -> set[int]:
        """The keys of several positions (a game's history)."""
        return {self.key(position) for position in positions}


@cache
def zobrist() -> ZobristKeys:
    """The project's keys, built on first use (a few thousand table entries)."""
    rng = random.Random(_SEED)
    pieces = (
        tuple(rng.getrandbits(64) for _ in range(_POINTS)),
        tuple(rng.getrandbits(64) for _ in range(_POINTS)),
    )
    side = rng.getrandbits(64)
    moves: tuple[dict[int, int], dict[int, int]] = ({}, {})
    captures: tuple[dict[int, int], dict[int, int]] = ({}, {})
    for color in (RED, BLACK):
        table = pieces[color]
        # A Borobudur capture may land back on its own starting point: no flip at all.
        moves[color][0] = side
        for origin in range(_POINTS):
            captures[color][1 << origin] = table[origin]
            for destination in range(_POINTS):
                if destination != origin:
                    flip = (1 << origin) | (1 << destination)
                    moves[color][flip] = table[origin] ^ table[destination] ^ side
    return ZobristKeys(pieces, side, moves, captures)
