"""Vision in real rooms: calibration and reading per room condition, on physically modelled renders.

Usage: .venv/bin/python benchmarks/vision_rooms.py [--quick] [--conditions a,b] [--setups N]
           [--frames M] [--hands K] [--moves J] [--seed S] [--write DIR | --renders DIR...]
           [--session-condition C]

For each room condition (``vision.room_conditions.CONDITIONS``) and each of N setups
(camera, lens, lights, pieces drawn at random for the condition):
- the start position, pieces up to 0.2 pitch off their points, is calibrated on
  (the markers say the board size); a ``CalibrationFailed`` is a failed calibration,
  its message is counted. A sheet without markers (``photoreal/generate.py
  --no-markers``) is found by its lines, which cannot tell a1: the first frame read
  settles which side the calibration took for rank 1, and every frame is judged so;

- with that calibration one ``BoardReader`` reads M hand-free frames of random boards
  (0-12 pieces a side) of the same setup (new piece offsets, noise, exposure and white
  balance drift) and K frames with a hand over the board.
It prints per condition: calibrations that succeeded, hand-free frames read
(``frame.reading is not None``), wrong boards (a reading that differs from the truth),
hand frames read, the median read time per frame and the renderer's median time, and
the hand-free frames read in play: those a game waiting at the frame's board (red to move)
reads, a doubtful frame counting as the one board the game expects that it fits (as the
board's loop reads; information, but a wrong board read in play is a floor missed), and
what the doubtful points of the hand-free frames left doubtful leave open
(``vision.doubt.DoubtKind``: which set, a piece or bare paper, anything); then the same
for the ordinary conditions together (all but the look-alike ones) and per piece set
(information: the floors are judged per condition).

Then a session under ``window`` light (``--session-condition`` for another): J moves,
each a hand coming in, the board changing by one legal move under it and the hand
leaving, fed at 10 frames a second through a ``Stabiliser`` with its default hold and the
boards the game expects (the position and the position after each legal move, as the
referee gives them: a doubtful frame that fits one of them counts as it); it prints the
share of moves confirmed within 1 s of the hand leaving and the median latency, and the
same for a second stabiliser fed the same frames without the game's boards.

Floors (exit 1 when one is missed, saying which): no wrong board (alone or in play), no
doubtful frame that rules the true board out (a point read surely wrong, or a doubtful
point's choices without its label: one step from a wrong board) and no hand frame read in
any condition; in every ordinary condition calibration succeeds
>= 95% and hand-free frames are read (alone) >= 95%; look-alike pieces are refused at
calibration, with a message; the session confirms >= 99% of moves within 1 s; the
renderer takes <= 0.3 s a frame (median; a machine busy with other work may miss it).

``--write DIR`` also writes every setup (start image, frames, truth) in the folder format
of ``benchmarks/render_set.py``; ``--renders DIR...`` evaluates such folders (e.g. Blender
renders of several seeds) instead of rendering, together, with the same printout and floors
(no session).
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from collections import Counter
from collections.abc import Iterator
from dataclasses import asdict, dataclass, field
from enum import Enum
from pathlib import Path
from typing import Any

import numpy as np

# benchmarks/vision.py would shadow the ``vision`` package: drop this folder from the
# import path, and reach the shared folder format through the repository root.
_HERE = Path(__file__).resolve().parent
sys.path[:] = [entry for entry in sys.path if Path(entry or ".").resolve() != _HERE]
sys.path.insert(0, str(_HERE.parent))

from benchmarks.render_set import (  # noqa: E402
    BadRenderSet,
    RenderedSetup,
    SetupWriter,
    read_render_set,
)
from controller.geometry import geometry, point_at, point_xy  # noqa: E402
from controller.movegen import legal_moves, make_move  # noqa: E402
from controller.position import Color, Position, start_position  # noqa: E402
from controller.reading import BoardReading  # noqa: E402
from controller.referee import boards_after  # noqa: E402
from vision.calibrate import Calibration, calibrate  # noqa: E402
from vision.config import VisionConfig  # noqa: E402
from vision.doubt import doubt_kinds  # noqa: E402
from vision.errors import CalibrationFailed  # noqa: E402
from vision.reader import BoardReader, FrameReading, ReadStatus  # noqa: E402
from vision.room import CONDITIONS, next_frame, random_room_scene, render_room  # noqa: E402
from vision.room_scene import RoomScene  # noqa: E402
from vision.stabiliser import Stabiliser  # noqa: E402

SIZE = 6
START_OFFSET_PITCHES = 0.2
"""Largest distance of a piece from its point in every frame of the benchmark."""
CALIBRATION_FLOOR = 0.95
READ_RATE_FLOOR = 0.95
SESSION_FLOOR = 0.99
RENDER_FLOOR_SECONDS = 0.3
"""Most the room renderer may take per 640x480 frame (median over every frame rendered)."""
FRAME_SECONDS = 0.1
"""The session's camera runs at 10 frames a second."""
CONFIRM_WITHIN_SECONDS = 1.0
HAND_FRAMES_PER_MOVE = 8
"""Frames with the hand over the board per move: half before the move, half after."""
WAIT_FRAMES = 30
"""Hand-free frames the session waits for a confirmation before giving up on a move."""

Frame = tuple[np.ndarray, BoardReading | None, bool]
"""An image, the board in it (None when unknown) and whether a hand is over the board."""


@dataclass
class ConditionTally:
    """What one condition's setups gave."""

    setups: int = 0
    calibrated: int = 0
    failures: Counter[str] = field(default_factory=Counter)
    frames: int = 0
    read: int = 0
    wrong: int = 0
    hand_frames: int = 0
    hand_read: int = 0
    read_in_play: int = 0
    """Hand-free frames a game waiting at their board reads (see ``read_in_play``)."""
    wrong_in_play: int = 0
    truth_ruled_out: int = 0
    """Hand-free frames left doubtful that rule the true board out: one step from a wrong
    board, had the frame's doubtful points been sure too, and one a game may fit to a wrong
    board (see ``rules_out_truth``)."""
    doubts: Counter[str] = field(default_factory=Counter)
    """The doubtful points of hand-free frames left doubtful, by what they leave open
    (``vision.doubt.DoubtKind``): where the reading falls short, and why."""
    read_seconds: list[float] = field(default_factory=list)
    render_seconds: list[float] = field(default_factory=list)


@dataclass(frozen=True)
class Setup:
    """One setup to evaluate: its start image and a stream of frames."""

    condition: str
    look_alike: bool
    start: np.ndarray
    frames: Iterator[Frame]
    pieces: str = "?"
    """The piece set's name."""


def random_board(rng: np.random.Generator, size: int) -> BoardReading:
    """0 to 2*size pieces of each colour on random points."""
    points = geometry(size).points
    reds, blacks = (int(n) for n in rng.integers(0, 2 * size + 1, 2))
    chosen = [points[i] for i in rng.permutation(len(points))[:reds + blacks]]
    return BoardReading(sum(1 << p for p in chosen[:reds]), sum(1 << p for p in chosen[reds:]),
                        size)


def describe(scene: RoomScene) -> dict[str, Any]:
    """The scene as JSON-ready data, for truth files."""
    def plain(value: object) -> object:
        return value.value if isinstance(value, Enum) else str(value)

    data: dict[str, Any] = json.loads(json.dumps(asdict(scene), default=plain))
    return data


def timed_render(board: BoardReading, scene: RoomScene, tally: ConditionTally) -> np.ndarray:
    started = time.perf_counter()
    image = render_room(board, scene)
    tally.render_seconds.append(time.perf_counter() - started)
    return image


def rendered_setups(args: argparse.Namespace, conditions: list[str],
                    tallies: dict[str, ConditionTally]) -> Iterator[Setup]:
    """Setups drawn and rendered by the room renderer (written out with ``--write``)."""
    for name in conditions:
        # Seeded by the condition's place in the table, so a condition's setups are the
        # same whichever others are run with it.
        index = list(CONDITIONS).index(name)
        for number in range(args.setups):
            rng = np.random.default_rng([args.seed, index, number])
            scene = random_room_scene(rng, name, SIZE, piece_offset=START_OFFSET_PITCHES)
            tally = tallies[name]
            start = timed_render(BoardReading.of(start_position(SIZE)), scene, tally)
            writer = None
            if args.write is not None:
                writer = SetupWriter(args.write / name / f"s{number:02d}", name, SIZE,
                                     scene.pieces.look_alike, describe(scene))
                writer.start(start)

            def frames(rng: np.random.Generator = rng, scene: RoomScene = scene,
                       writer: SetupWriter | None = writer,
                       tally: ConditionTally = tally) -> Iterator[Frame]:
                for k in range(args.frames + args.hands):
                    hand = k >= args.frames
                    board = random_board(rng, SIZE)
                    image = timed_render(board, next_frame(scene, rng, hand, SIZE), tally)
                    if writer is not None:
                        writer.frame(image, board, hand)
                    yield image, board, hand
                if writer is not None:
                    writer.close()

            yield Setup(name, scene.pieces.look_alike, start, frames(), scene.pieces.name)


def folder_setups(setups: Iterator[RenderedSetup]) -> Iterator[Setup]:
    """Setups read from a folder of renders."""
    for setup in setups:
        def frames(setup: RenderedSetup = setup) -> Iterator[Frame]:
            for frame in setup.frames:
                yield setup.image(frame.file), frame.board, frame.hand

        yield Setup(setup.condition, setup.look_alike, setup.image(setup.start), frames(),
                    piece_set_name(setup.scene))


def piece_set_name(scene: dict[str, object]) -> str:
    """The piece set a folder's scene names: the room renderer's ``pieces.name`` or the
    Blender generator's ``piece_set_name``; "?" when it names none."""
    pieces = scene.get("pieces")
    name = pieces.get("name") if isinstance(pieces, dict) else scene.get("piece_set_name")
    return str(name) if name is not None else "?"


def add_tally(total: ConditionTally, part: ConditionTally) -> None:
    """Count ``part`` (one setup's) into ``total``."""
    for name in ("setups", "calibrated", "frames", "read", "wrong", "hand_frames", "hand_read",
                 "read_in_play", "wrong_in_play", "truth_ruled_out"):
        setattr(total, name, getattr(total, name) + getattr(part, name))
    total.failures.update(part.failures)
    total.doubts.update(part.doubts)
    total.read_seconds += part.read_seconds


def short_message(error: Exception) -> str:
    """The message without its particulars (which points, how many markers), for counting."""
    return str(error).split(" (")[0]


def evaluate(setup: Setup, tally: ConditionTally, config: VisionConfig,
             keep_rendering: bool) -> None:
    """Calibrate on the setup's start image and read its frames."""
    tally.setups += 1
    try:
        calibration: Calibration | None = calibrate(config, setup.start)
        tally.calibrated += 1
    except CalibrationFailed as error:
        tally.failures[short_message(error) or "(no message)"] += 1
        calibration = None
    if calibration is None:
        if keep_rendering:  # the frames are still wanted on disk
            for _ in setup.frames:
                pass
        return
    reader = BoardReader(calibration, config)
    # A board without markers cannot say which side is rank 1; the calibration takes the
    # side nearer the image's bottom. Which side that was is settled by the first frame
    # read, and holds for every later frame.
    half_turned: bool | None = False if calibration.uses_markers else None
    for image, board, hand in setup.frames:
        started = time.perf_counter()
        frame = reader.read(image)
        reading = frame.reading
        tally.read_seconds.append(time.perf_counter() - started)
        if board is not None and half_turned is None and reading is not None:
            half_turned = reading == turned_half_way(board)
        if board is not None and half_turned:
            board = turned_half_way(board)
        if hand:
            tally.hand_frames += 1
            tally.hand_read += reading is not None
            continue
        tally.frames += 1
        if frame.status is ReadStatus.DOUBTFUL:
            tally.doubts.update(kind.value for kind in doubt_kinds(frame.choices))
        if reading is not None:
            tally.read += 1
            tally.wrong += board is not None and reading != board
        if board is not None:
            in_play = read_in_play(frame, board)
            tally.read_in_play += in_play == board
            tally.wrong_in_play += in_play is not None and in_play != board
            # Before a frame has settled which side a board without markers took for
            # rank 1, a doubtful frame is one step from a wrong board only either way.
            tally.truth_ruled_out += rules_out_truth(frame, board) and (
                half_turned is not None or rules_out_truth(frame, turned_half_way(board)))


def turned_half_way(board: BoardReading) -> BoardReading:
    """``board`` seen from the other side, the sets named the other way round: what a board
    without markers reads when the calibration took the far side for rank 1."""
    last = board.size - 1
    red = black = 0
    for point in geometry(board.size).points:
        x, y = point_xy(point)
        turned = 1 << point_at(last - x, last - y)
        red |= turned if board.piece_at(point) is Color.BLACK else 0
        black |= turned if board.piece_at(point) is Color.RED else 0
    return BoardReading(red, black, board.size)


def rules_out_truth(frame: FrameReading, board: BoardReading) -> bool:
    """Whether a doubtful ``frame`` of ``board`` rules that board out: it read a point it is
    sure of wrongly, or a doubtful point's choices (when it has any) leave its label out."""
    return frame.status is ReadStatus.DOUBTFUL and not frame.allows(board)


def read_in_play(frame: FrameReading, board: BoardReading) -> BoardReading | None:
    """What a game waiting at ``board`` (red to move) reads from ``frame``: its reading, or
    the one board it expects (``board``, or ``board`` after a legal move) that a doubtful
    frame fits, as the board's loop does (``Pipeline.see``)."""
    if frame.is_ok:
        return frame.reading
    waiting = Position(board.red, board.black, Color.RED, board.size)
    return frame.fitting(expected_boards(waiting))


@dataclass
class SessionResult:
    """How one stabilised stream confirmed moves."""

    condition: str = "window"
    way: str = "with the game's boards"
    """What the stabiliser was given besides the frames."""
    moves: int = 0
    confirmed_in_time: int = 0
    wrong: int = 0
    during_hand: int = 0
    latencies: list[float] = field(default_factory=list)
    note: str = ""


def session(args: argparse.Namespace, config: VisionConfig) -> list[SessionResult]:
    """Moves under the session's light at 10 frames a second, each frame's reading fed to
    two stabilisers: one given the boards the game expects, as the board's loop does, and
    one the colours alone (what they add, on the very same frames)."""
    results = [SessionResult(args.session_condition),
               SessionResult(args.session_condition, "colours alone")]
    rng = np.random.default_rng([args.seed, 999])
    calibration = None
    for _ in range(10):  # a setup the vision can calibrate on, or the session cannot start
        scene = random_room_scene(rng, args.session_condition, SIZE,
                                  piece_offset=START_OFFSET_PITCHES)
        try:
            calibration = calibrate(config, render_room(start_position(SIZE), scene))
            break
        except CalibrationFailed:
            continue
    if calibration is None:
        for result in results:
            result.moves = args.moves
            result.note = f"no {args.session_condition} setup of 10 could be calibrated"
        return results
    reader = BoardReader(calibration, config)
    stabilisers = (Stabiliser(), Stabiliser())
    clock = 0.0
    position = start_position(SIZE)
    expected = expected_boards(position)

    def feed(board: BoardReading, hand: bool) -> tuple[BoardReading | None, ...]:
        nonlocal clock
        # Pieces nobody touches stay where they are from frame to frame.
        image = render_room(board, next_frame(scene, rng, hand, SIZE, pieces_stay=True))
        frame = reader.read(image)
        confirmed = (stabilisers[0].feed(clock, frame, expected),
                     stabilisers[1].feed(clock, frame))
        clock += FRAME_SECONDS
        return confirmed

    for _ in range(10):
        feed(BoardReading.of(position), False)
    for _ in range(args.moves):
        moves = legal_moves(position)
        if not moves:
            position = start_position(SIZE)
            moves = legal_moves(position)
        expected = expected_boards(position)
        after = make_move(position, moves[int(rng.integers(len(moves)))])
        for k in range(HAND_FRAMES_PER_MOVE):
            board = position if k < HAND_FRAMES_PER_MOVE // 2 else after
            for result, confirmed in zip(results, feed(BoardReading.of(board), True),
                                         strict=True):
                result.during_hand += confirmed is not None
        hand_left = clock
        truth = BoardReading.of(after)
        waiting = [True] * len(results)
        for _ in range(WAIT_FRAMES):
            seen_at = clock
            for index, confirmed in enumerate(feed(truth, False)):
                if not waiting[index] or confirmed is None:
                    continue
                result = results[index]
                if confirmed != truth:
                    result.wrong += 1
                    continue
                latency = seen_at - hand_left
                result.latencies.append(latency)
                result.confirmed_in_time += latency <= CONFIRM_WITHIN_SECONDS + 1e-9
                waiting[index] = False
            if not any(waiting):
                break
        for result in results:
            result.moves += 1
        position = after
    return results


def expected_boards(position: Position) -> tuple[BoardReading, ...]:
    """What a referee expects the board to show next (``Referee.expected_boards``)."""
    return boards_after(position, legal_moves(position))


def median_ms(values: list[float]) -> str:
    return f"{1000 * statistics.median(values):7.1f}" if values else "    n/a"


def share(part: int, whole: int) -> str:
    return f"{part}/{whole} ({100 * part / whole:5.1f}%)" if whole else f"{part}/{whole}"


def report(tallies: dict[str, ConditionTally], look_alike: dict[str, bool],
           heading: str = "condition") -> list[str]:
    """Print the table; the floors missed."""
    print(f"{heading:18s} {'calibrated':>18s} {'hand-free read':>20s} {'wrong':>6s} "
          f"{'hand read':>10s} {'read ms':>8s} {'render ms':>9s} {'read in play':>20s}")
    missed = []
    for name, tally in tallies.items():
        if tally.setups == 0:
            continue
        print(f"{name:18s} {share(tally.calibrated, tally.setups):>18s} "
              f"{share(tally.read, tally.frames):>20s} {tally.wrong:6d} "
              f"{tally.hand_read:>4d}/{tally.hand_frames:<5d} {median_ms(tally.read_seconds):>8s} "
              f"{median_ms(tally.render_seconds):>9s} "
              f"{share(tally.read_in_play, tally.frames):>20s}")
        for message, count in tally.failures.most_common():
            print(f"{'':18s}{count} x calibration failed: {message}")
        if tally.doubts:
            print(f"{'':18s}doubtful points: " + ", ".join(
                f"{count} {kind}" for kind, count in tally.doubts.most_common()))
        if tally.wrong:
            missed.append(f"{name}: {tally.wrong} wrong boards")
        if tally.hand_read:
            missed.append(f"{name}: {tally.hand_read} hand frames read as a board")
        if tally.wrong_in_play:
            missed.append(f"{name}: {tally.wrong_in_play} wrong boards read in play")
        if tally.truth_ruled_out:
            print(f"{'':18s}{tally.truth_ruled_out} x doubtful frame that rules the true board "
                  "out (a point read surely wrong, or choices without its label)")
            missed.append(f"{name}: {tally.truth_ruled_out} doubtful frames that rule the "
                          "true board out")
        if look_alike.get(name):
            if tally.calibrated:
                missed.append(f"{name}: look-alike pieces calibrated {tally.calibrated} times "
                              "instead of being refused")
            continue
        if tally.calibrated < CALIBRATION_FLOOR * tally.setups:
            missed.append(f"{name}: calibration {share(tally.calibrated, tally.setups)} "
                          f"< {CALIBRATION_FLOOR:.0%}")
        if tally.frames == 0 or tally.read < READ_RATE_FLOOR * tally.frames:
            missed.append(f"{name}: hand-free read rate {share(tally.read, tally.frames)} "
                          f"< {READ_RATE_FLOOR:.0%}")
    return missed


def ordinary_together(tallies: dict[str, ConditionTally], look_alike: dict[str, bool]
                      ) -> ConditionTally:
    """The tallies of every condition but the look-alike ones, counted together."""
    together = ConditionTally()
    for name, tally in tallies.items():
        if not look_alike.get(name):
            add_tally(together, tally)
    return together


def report_session(results: list[SessionResult]) -> list[str]:
    missed = []
    for result in results:
        print(f"session ({result.condition}, {result.way}, {result.moves} moves at "
              f"{1 / FRAME_SECONDS:g} fps, default hold): "
              f"confirmed within {CONFIRM_WITHIN_SECONDS:g} s of the hand leaving "
              f"{share(result.confirmed_in_time, result.moves)}; median latency "
              f"{statistics.median(result.latencies) if result.latencies else float('nan'):.2f}"
              f" s; wrong confirmations {result.wrong}; confirmations under the hand "
              f"{result.during_hand}" + (f"; {result.note}" if result.note else ""))
        if result.wrong or result.during_hand:
            missed.append(f"session ({result.way}): {result.wrong} wrong confirmations, "
                          f"{result.during_hand} under the hand")
    board = results[0]  # as the board's loop reads: its floor
    if board.confirmed_in_time < SESSION_FLOOR * board.moves:
        missed.append(f"session: {share(board.confirmed_in_time, board.moves)} moves "
                      f"confirmed within {CONFIRM_WITHIN_SECONDS:g} s < {SESSION_FLOOR:.0%}")
    return missed


def parse_arguments() -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="5 setups per condition")
    parser.add_argument("--conditions", help="comma-separated names (default: all)")
    parser.add_argument("--setups", type=int, help="setups per condition (default 20)")
    parser.add_argument("--frames", type=int, default=10, help="hand-free frames per setup")
    parser.add_argument("--hands", type=int, default=5, help="hand frames per setup")
    parser.add_argument("--moves", type=int, help="moves in the session (default 20)")
    parser.add_argument("--session-condition", default="window",
                        help="the room condition of the session (default window)")
    parser.add_argument("--seed", type=int, default=2024)
    source = parser.add_mutually_exclusive_group()
    source.add_argument("--write", type=Path, help="also write every setup to this folder")
    source.add_argument("--renders", type=Path, nargs="+",
                        help="evaluate these folders instead, together (several seeds of "
                             "Blender renders give each condition more setups)")
    args = parser.parse_args()
    if args.setups is None:
        args.setups = 5 if args.quick else 20
    if args.moves is None:
        args.moves = 10 if args.quick else 20
    names = args.conditions.split(",") if args.conditions else list(CONDITIONS)
    if args.session_condition not in CONDITIONS:
        parser.error(f"unknown room condition: {args.session_condition!r} (expected one of "
                     f"{', '.join(CONDITIONS)})")
    unknown = [n for n in names if n not in CONDITIONS and args.renders is None]
    if unknown:
        parser.error(f"unknown room condition: {unknown[0]!r} (expected one of "
                     f"{', '.join(CONDITIONS)})")
    for count in ("setups", "frames", "hands", "moves"):
        if getattr(args, count) < 0:
            parser.error(f"--{count} must not be negative: {getattr(args, count)!r}")
    args.condition_names = names
    return args


def main() -> int:
    args = parse_arguments()
    config = VisionConfig()
    began = time.perf_counter()
    tallies: dict[str, ConditionTally] = {}
    look_alike: dict[str, bool] = {}
    by_pieces: dict[str, ConditionTally] = {}
    try:
        if args.renders is not None:
            wanted = set(args.condition_names) if args.conditions else None
            setups = folder_setups(s for folder in args.renders
                                   for s in read_render_set(folder)
                                   if wanted is None or s.condition in wanted)
        else:
            tallies = {name: ConditionTally() for name in args.condition_names}
            setups = rendered_setups(args, args.condition_names, tallies)
        for setup in setups:
            tally = tallies.setdefault(setup.condition, ConditionTally())
            look_alike[setup.condition] = look_alike.get(setup.condition, False) or \
                setup.look_alike
            own = ConditionTally()
            evaluate(setup, own, config, keep_rendering=args.write is not None)
            add_tally(tally, own)
            add_tally(by_pieces.setdefault(setup.pieces, ConditionTally()), own)
    except BadRenderSet as error:
        print(f"error: {error}", file=sys.stderr)
        return 2
    missed = report(tallies, look_alike)
    report({"all ordinary": ordinary_together(tallies, look_alike)}, {}, "together")
    report(dict(sorted(by_pieces.items())), {}, "piece set")
    render_seconds = [t for tally in tallies.values() for t in tally.render_seconds]
    if render_seconds:
        median = statistics.median(render_seconds)
        print(f"room renderer: median {1000 * median:.0f} ms per 640x480 frame "
              f"({len(render_seconds)} frames)")
        if median > RENDER_FLOOR_SECONDS:
            missed.append(f"renderer: {1000 * median:.0f} ms per frame > "
                          f"{1000 * RENDER_FLOOR_SECONDS:.0f} ms")
    if args.renders is None and args.moves:
        missed += report_session(session(args, config))
    print(f"({time.perf_counter() - began:.0f} s)")
    for line in missed:
        print(f"floor missed: {line}")
    print("floors met" if not missed else "FLOORS NOT MET")
    return 1 if missed else 0


if __name__ == "__main__":
    sys.exit(main())
