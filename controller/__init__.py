"""The game and the referee: rules, positions, games, records, engine and session logic.

This package uses the standard library only.
"""

from controller.errors import (
    AmbiguousMove,
    BadColor,
    BadMove,
    BadOption,
    BadPoint,
    BadPosition,
    BadRecord,
    BadVariant,
    GameOver,
    IllegalMove,
    SurakartaError,
)
from controller.game import Endings, EndReason, Game, Outcome, parse_winner, winner_name
from controller.geometry import (
    Circuit,
    CircuitKind,
    Corner,
    Geometry,
    Loop,
    Point,
    Station,
    geometry,
    parse_point,
    point_name,
)
from controller.movegen import count_moves, find_move, legal_moves, make_move, perft
from controller.moves import Move, MoveKind
from controller.position import Color, Position, parse_color, parse_position, start_position
from controller.reading import BoardReading
from controller.variants import Variant, parse_variant

__all__ = [
    "AmbiguousMove",
    "BadColor",
    "BadMove",
    "BadOption",
    "BadPoint",
    "BadPosition",
    "BadRecord",
    "BadVariant",
    "BoardReading",
    "Circuit",
    "CircuitKind",
    "Color",
    "Corner",
    "EndReason",
    "Endings",
    "Game",
    "GameOver",
    "Geometry",
    "IllegalMove",
    "Loop",
    "Move",
    "MoveKind",
    "Outcome",
    "Point",
    "Position",
    "Station",
    "SurakartaError",
    "Variant",
    "count_moves",
    "find_move",
    "geometry",
    "legal_moves",
    "make_move",
    "parse_color",
    "parse_point",
    "parse_position",
    "parse_variant",
    "parse_winner",
    "perft",
    "point_name",
    "start_position",
    "winner_name",
]
