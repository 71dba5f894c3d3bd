"""The board's configuration file (TOML): camera, game, engine, journal and hardware.

Every key is optional; with no file at all a PC runs fully simulated. Example::

    [camera]
    source = "picamera"        # synthetic, usb, picamera, file (a video), folder (images)
    device = 0                 # usb: camera index
    path = "board.mp4"         # file or folder
    width = 1280
    height = 720
    fps = 10
    calibration = "~/.config/surakarta/calibration.json"   # "~": whoever runs the board

    [vision]
    hold_seconds = 0.3         # how long a reading must hold before the referee sees it

    [game]
    variant = "standard"       # standard, sepur, gonu, borobudur
    mode = "two-player"        # two-player, computer-red, computer-black
    level = 5                  # computer strength 1-10
    no_capture_limit = 50      # plies; 0 turns the limit off
    repetition = true
    show_danger = false

    [engine]
    seconds = 1.0              # thinking time for hints and computer moves

    [match]                    # optional: several games, scored, colours swapped
    players = ["Ana", "Budi"]  # the first plays red in game 1
    games = 2                  # a fixed number of games ...
    # target = 30              # ... or play until a total reaches this
    counting = "pieces-left"   # or "captured"
    swap_colours = true

    [journal]
    path = "~/.local/state/surakarta/journal.json"
    records = "~/.local/state/surakarta/games"   # default: "games" beside the journal

    [hardware]                 # see hardware/config.py
    driver = "shift-register"

    [web]                      # optional: the companion page (off without this section)
    address = "0.0.0.0"        # phones on the local network may view; 127.0.0.1: this machine
    port = 8080

``check_config`` lists every problem, one line each naming its key; ``load_config``
raises the first.
"""

from __future__ import annotations

import ipaddress
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from controller import Color, Endings, SurakartaError, Variant, parse_variant
from controller.match import Counting, Match, MatchRules, Scoring
from controller.numbers import LEVEL, Bounds, seconds, whole
from hardware.config import (
    HardwareConfig,
    check_hardware_config,
    load_hardware_config,
    read_toml,
)

CAMERA_SOURCES = ("synthetic", "usb", "picamera", "file", "folder")
MODES: dict[str, Color | None] = {
    "two-player": None,
    "computer-red": Color.RED,
    "computer-black": Color.BLACK,
}
DEFAULT_STATE = Path("~/.local/state/surakarta")

# What a board can really use: beyond these a value is a typo, and some (a giant
# frame, an endless think) would only fail later, in the middle of a game.
CAMERA_DEVICE = whole(0, 255)
FRAME_SIDE = whole(64, 8192)
FPS = Bounds(0.0, 120.0, above=True)
HOLD_SECONDS = seconds(60.0)
NO_CAPTURE_LIMIT = whole(0, 10_000)
ENGINE_SECONDS = seconds(600.0)
MATCH_GAMES = whole(1, 1000)
MATCH_TARGET = whole(1, 100_000)


class ConfigError(SurakartaError, ValueError):
    """A configuration file with a problem; the message names the key."""


@dataclass(frozen=True, slots=True)
class CameraConfig:
    """Where frames come from."""

    source: str = "synthetic"
    """One of CAMERA_SOURCES."""
    device: int = 0
    """USB camera index."""
    path: Path | None = None
    """Video file or image folder."""
    width: int = 640
    """Frame width asked of the camera."""
    height: int = 480
    """Frame height asked of the camera."""
    fps: float = 10.0
    """Frames per second to process."""
    calibration: Path | None = None
    """Calibration file from ``surakarta calibrate``; needed for real cameras."""


@dataclass(frozen=True, slots=True)
class GameConfig:
    """How games are played."""

    variant: Variant = Variant.STANDARD
    """The rules."""
    computer: Color | None = None
    """The computer's side, None for two players."""
    level: int = 5
    """Computer strength 1-10."""
    endings: Endings = field(default_factory=Endings)
    """Which endings apply."""
    show_danger: bool = False
    """Blink pieces that can be captured next."""


@dataclass(frozen=True, slots=True)
class WebConfig:
    """Where the companion page is served."""

    address: str = "0.0.0.0"
    """The IP address to listen on."""
    port: int = 8080
    """The TCP port."""


@dataclass(frozen=True, slots=True)
class Config:
    """The whole configuration."""

    camera: CameraConfig = field(default_factory=CameraConfig)
    """Camera section."""
    hold_seconds: float = 0.3
    """Vision stabiliser hold time."""
    game: GameConfig = field(default_factory=GameConfig)
    """Game section."""
    engine_seconds: float = 1.0
    """Thinking time per engine request."""
    journal: Path = DEFAULT_STATE / "journal.json"
    """The game journal."""
    records: Path = DEFAULT_STATE / "games"
    """Folder of finished game records."""
    hardware: HardwareConfig | None = None
    """The wiring; None means no hardware section (mock pins on a PC)."""
    match: Match | None = None
    """A match to play, when the config has a match section."""
    web: WebConfig | None = None
    """The companion page's address; None (no web section): nothing listens."""
    source: Path | None = None
    """The file this came from."""


class _Checker:
    """Reads typed values out of TOML tables, collecting every problem."""

    def __init__(self) -> None:
        self.problems: list[str] = []

    def table(self, document: Mapping[str, Any], key: str) -> Mapping[str, Any]:
        value = document.get(key, {})
        if not isinstance(value, dict):
            self.problems.append(f"{key}: expected a table, got {type(value).__name__}")
            return {}
        return value

    def known(self, table: Mapping[str, Any], section: str, keys: set[str]) -> None:
        for key in table:
            if key not in keys:
                name = f"{section}.{key}" if section else key
                self.problems.append(f"{name}: unknown key")

    def get(
        self,
        table: Mapping[str, Any],
        section: str,
        key: str,
        kind: type | tuple[type, ...],
        default: Any,
        check: Callable[[Any], str | None] | None = None,
    ) -> Any:
        if key not in table:
            return default
        value = table[key]
        kinds = kind if isinstance(kind, tuple) else (kind,)
        if (isinstance(value, bool) and bool not in kinds) or not isinstance(value, kinds):
            expected = " or ".join(k.__name__ for k in kinds)
            self.problems.append(
                f"{section}.{key}: expected {expected}, got {type(value).__name__} {value!r}"
            )
            return default
        problem = check(value) if check else None
        if problem:
            self.problems.append(f"{section}.{key}: {problem}")
            return default
        return value

    def number(
        self, table: Mapping[str, Any], section: str, key: str, bounds: Bounds, default: Any
    ) -> Any:
        """A number within ``bounds`` (the one rule for numbers from outside)."""
        if key not in table:
            return default
        problem = bounds.problem(table[key])
        if problem:
            self.problems.append(f"{section}.{key}: {problem}")
            return default
        return table[key]

    def path(self, table: Mapping[str, Any], section: str, key: str, base: Path,
             default: str | None = None) -> Path | None:
        """A file or folder name, relative to the config's folder, ``~`` expanded."""
        text = self.get(table, section, key, str, default)
        if text is None:
            return None
        if not text.strip() or "\0" in text:
            self.problems.append(f"{section}.{key}: expected a file name, got {text!r}")
            return None
        try:
            return base / Path(text).expanduser()
        except RuntimeError:  # ~someone for a user this machine does not know
            self.problems.append(f"{section}.{key}: cannot expand the home folder in {text!r}")
            return None


def _parse(document: Mapping[str, Any], base: Path) -> tuple[Config, list[str]]:
    c = _Checker()
    c.known(document, "", {"camera", "vision", "game", "engine", "journal", "hardware", "match",
                           "web"})

    camera = c.table(document, "camera")
    c.known(camera, "camera", {"source", "device", "path", "width", "height", "fps", "calibration"})
    source = c.get(
        camera, "camera", "source", str, "synthetic",
        lambda v: None if v in CAMERA_SOURCES else f"unknown source {v!r} "
        f"(expected one of {', '.join(CAMERA_SOURCES)})",
    )
    path = c.path(camera, "camera", "path", base)
    calibration_path = c.path(camera, "camera", "calibration", base)
    if calibration_path is not None and not calibration_path.is_file():
        c.problems.append(f"camera.calibration: file not found: {str(calibration_path)!r}")
    if source in ("file", "folder") and "path" not in camera:
        c.problems.append(f"camera.path: needed for source {source!r}")
    elif source in ("file", "folder") and path is not None and not path.exists():
        c.problems.append(f"camera.path: not found: {str(path)!r}")
    if source in ("usb", "picamera", "file", "folder") and "calibration" not in camera:
        c.problems.append(f"camera.calibration: needed for source {source!r}")
    camera_config = CameraConfig(
        source=source,
        device=c.number(camera, "camera", "device", CAMERA_DEVICE, 0),
        path=path,
        width=c.number(camera, "camera", "width", FRAME_SIDE, 640),
        height=c.number(camera, "camera", "height", FRAME_SIDE, 480),
        fps=float(c.number(camera, "camera", "fps", FPS, 10.0)),
        calibration=calibration_path,
    )

    vision = c.table(document, "vision")
    c.known(vision, "vision", {"hold_seconds"})
    hold = float(c.number(vision, "vision", "hold_seconds", HOLD_SECONDS, 0.3))

    game = c.table(document, "game")
    c.known(game, "game", {"variant", "mode", "level", "no_capture_limit", "repetition",
                           "show_danger"})

    def variant_problem(value: str) -> str | None:
        try:
            parse_variant(value)
        except SurakartaError as error:
            return str(error)
        return None

    variant = c.get(game, "game", "variant", str, "standard", variant_problem)
    mode = c.get(
        game, "game", "mode", str, "two-player",
        lambda v: None if v in MODES else f"unknown mode {v!r} (expected {', '.join(MODES)})",
    )
    limit = c.number(game, "game", "no_capture_limit", NO_CAPTURE_LIMIT, 50)
    game_config = GameConfig(
        variant=parse_variant(variant),
        computer=MODES[mode],
        level=c.number(game, "game", "level", LEVEL, 5),
        endings=Endings(limit or None, c.get(game, "game", "repetition", bool, True)),
        show_danger=c.get(game, "game", "show_danger", bool, False),
    )

    engine = c.table(document, "engine")
    c.known(engine, "engine", {"seconds"})
    engine_seconds = float(c.number(engine, "engine", "seconds", ENGINE_SECONDS, 1.0))

    journal = c.table(document, "journal")
    c.known(journal, "journal", {"path", "records"})
    journal_path = c.path(journal, "journal", "path", base, str(DEFAULT_STATE / "journal.json"))
    journal_path = journal_path or base / DEFAULT_STATE.expanduser() / "journal.json"
    # Records go beside the journal unless told otherwise: a config that moves the
    # journal (a test, a second board) keeps its finished games with it.
    records = c.path(journal, "journal", "records", base, str(journal_path.parent / "games"))

    hardware_table = c.table(document, "hardware")
    hardware: HardwareConfig | None = None
    if "hardware" in document:
        hardware_problems = check_hardware_config(hardware_table)
        c.problems.extend(hardware_problems)
        if not hardware_problems:
            hardware = load_hardware_config(hardware_table)
            if hardware.board_size != game_config.variant.size:
                # The lamps would be laid out for another board than the one played.
                size = game_config.variant.size
                c.problems.append(
                    f"hardware.board_size: {hardware.board_size} does not match "
                    f"game.variant {game_config.variant.value!r} ({size}x{size}; "
                    f"set board_size = {size})"
                )

    match = _parse_match(c, document, game_config.variant) if "match" in document else None

    config = Config(
        camera=camera_config,
        hold_seconds=hold,
        game=game_config,
        engine_seconds=engine_seconds,
        journal=journal_path,
        records=records or journal_path.parent / "games",
        hardware=hardware,
        match=match,
        web=_parse_web(c, document) if "web" in document else None,
    )
    return config, c.problems


def _parse_web(c: _Checker, document: Mapping[str, Any]) -> WebConfig:
    table = c.table(document, "web")
    c.known(table, "web", {"address", "port"})

    def address_problem(value: str) -> str | None:
        try:
            ipaddress.ip_address(value)
        except ValueError:
            return f"expected an IP address such as 0.0.0.0 or 127.0.0.1, got {value!r}"
        return None

    return WebConfig(
        address=c.get(table, "web", "address", str, "0.0.0.0", address_problem),
        port=c.get(table, "web", "port", int, 8080,
                   lambda v: None if 1 <= v <= 65535 else f"must be 1 to 65535, got {v!r}"),
    )


def _parse_match(c: _Checker, document: Mapping[str, Any], variant: Variant) -> Match | None:
    table = c.table(document, "match")
    c.known(table, "match", {"players", "games", "target", "counting", "swap_colours"})
    players = c.get(
        table, "match", "players", list, ["player 1", "player 2"],
        lambda v: None
        if len(v) == 2 and all(isinstance(p, str) and p for p in v) and v[0] != v[1]
        else "expected two different names",
    )
    if "games" in table and "target" in table:
        c.problems.append("match: give games or target, not both")
    counting_names = [counting.value for counting in Counting]
    counting = c.get(
        table, "match", "counting", str, Counting.PIECES_LEFT.value,
        lambda v: None if v in counting_names else f"expected one of {', '.join(counting_names)}",
    )
    rules = MatchRules(
        scoring=Scoring.TARGET if "target" in table else Scoring.FIXED_GAMES,
        games=c.number(table, "match", "games", MATCH_GAMES, 2),
        target=c.number(table, "match", "target", MATCH_TARGET, 30),
        counting=Counting(counting),
        swap_colours=c.get(table, "match", "swap_colours", bool, True),
        pieces_per_side=2 * variant.size,
    )
    return Match(players[0], players[1], rules)


def _read(path: Path) -> Mapping[str, Any]:
    try:
        return read_toml(path, ConfigError)
    except FileNotFoundError:
        raise ConfigError(f"config file not found: {str(path)!r}") from None
    except OSError as error:
        raise ConfigError(
            f"cannot read config file {str(path)!r}: {error.strerror or error}"
        ) from None


def check_config(path: Path) -> list[str]:
    """Every problem of a config file, one line each naming the key; empty when valid."""
    try:
        document = _read(path)
    except ConfigError as error:
        return [str(error)]
    config, problems = _parse(document, path.parent)
    if not problems and config.camera.calibration is not None:
        # ``run`` refuses a calibration it cannot load; so must the check.
        from vision.calibrate import load_calibration

        try:
            load_calibration(config.camera.calibration)
        except SurakartaError as error:
            problems.append(f"camera.calibration: {error}")
    return problems


def load_config(path: Path | None) -> Config:
    """The configuration in ``path`` (None: the defaults); raises ConfigError."""
    if path is None:
        return Config(journal=DEFAULT_STATE.expanduser() / "journal.json",
                      records=DEFAULT_STATE.expanduser() / "games")
    config, problems = _parse(_read(path), path.parent)
    if problems:
        raise ConfigError(f"{path}: {problems[0]}")
    return replace(config, source=path)
