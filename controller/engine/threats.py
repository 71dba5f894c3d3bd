"""The "danger" query: every capture the opponent could make next."""

from __future__ import annotations

from controller.movegen import legal_moves
from controller.moves import Move
from controller.position import Position
from controller.variants import Variant


def threats(position: Position, variant: Variant = Variant.STANDARD) -> list[Move]:
    """Captures the side not to move could make if it were its turn, with their paths."""
    opponent_view = position.with_turn(position.turn.other)
    return [move for move in legal_moves(opponent_view, variant) if move.is_capture]


def threatened_points(position: Position, variant: Variant = Variant.STANDARD) -> set[int]:
    """Points of the side to move's pieces that the opponent could capture next."""
    return {move.target for move in threats(position, variant)}
