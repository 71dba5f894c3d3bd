"""The search engine: hints and the computer opponent.

- ``choose_move(game, movetime=1.0, level_number=10, rng=None)``: the move a player of
  that level makes in a ``Game`` (level 10 is the hint: full strength);
- ``think(position, variant, movetime=..., deadline=..., depth=..., history=...,
  plies_without_capture=..., endings=...)``: one search from a bare position;
- ``Search(position, ...).iterate(stop)``: iterative deepening the caller stops;
- ``threats(position, variant)``: every capture the opponent could make next;
- ``BackgroundEngine`` and ``ImmediateEngine``: the engine as a service answering the
  referee's ``Think`` requests, stopping a search that a newer request supersedes;
- ``SearchSettings`` and ``tuned(["KEY=VALUE", ...])``: evaluation weights and
  prunings, for measuring a change against the defaults.
"""

from controller.engine.levels import LEVELS, BadLevel, Level, choose_move, level
from controller.engine.player import EnginePlayer
from controller.engine.search import Iteration, Search, SearchResult, describe_score, think
from controller.engine.service import BackgroundEngine, EngineService, ImmediateEngine
from controller.engine.settings import DEFAULT_SETTINGS, BadSetting, SearchSettings, tuned
from controller.engine.threats import threatened_points, threats

__all__ = [
    "DEFAULT_SETTINGS",
    "LEVELS",
    "BackgroundEngine",
    "BadLevel",
    "BadSetting",
    "EnginePlayer",
    "EngineService",
    "ImmediateEngine",
    "Iteration",
    "Level",
    "Search",
    "SearchResult",
    "SearchSettings",
    "choose_move",
    "describe_score",
    "level",
    "think",
    "threatened_points",
    "threats",
    "tuned",
]
