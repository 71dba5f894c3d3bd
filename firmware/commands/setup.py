"""``surakarta setup``: a first build on the Pi, step by step, with no file to edit by hand.

1. cameras: every camera found (the Pi camera, USB cameras, or those given with
   ``--camera``) takes a picture, saved so the maker sees what it sees, and again with
   the markers it found outlined and the corners out of view written on it;
2. the sheet: the chosen camera must see all four markers, large and sharp enough (or,
   for a board without markers, its lines and loops);
3. calibration, from that picture of the start position;
4. the config, with this user's folders and the chosen camera;
5. the lamp and button self-test;
6. the service that starts the board at boot.

A step that fails says what to fix in words, and setup stops there: fix it and run
it again. On a PC, ``--camera`` with a photo or a folder of photos and
``--mock-pins`` run every step.
"""

from __future__ import annotations

import argparse
import getpass
import glob
import re
import shutil
import socket
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, TypeVar

from controller.errors import SurakartaError
from firmware.commands import writing
from firmware.commands.calibrate import add_piece_height, checked_piece_height

if TYPE_CHECKING:
    import numpy as np

T = TypeVar("T")

NAME = "setup"
HELP = "set a board up step by step: camera, sheet, calibration, config, self-test, service"

EXIT_STEP_FAILED = 1
STEPS = 6
EXAMPLE = Path(__file__).resolve().parents[1] / "examples" / "pi.toml"
IMAGE_SUFFIXES = (".jpg", ".jpeg", ".png", ".bmp", ".tif", ".tiff", ".webp")
WARM_UP_FRAMES = 5
"""Frames read before the picture: a webcam's first frames are dark while it sets its
exposure."""
LEAST_MARKER_PIXELS = 16.0
"""Smallest marker side in the picture that reads well, pixels (the hard rendered set of
benchmarks/vision.py, read right 99.5% of the time, has markers down to 19)."""
BLUR_LIMIT = 0.8
"""Largest edge width of a marker's border, as a share of one of its cells (that hard set
goes up to 0.77; a sharp 640x480 picture gives 0.3)."""


CORNERS = ("a1's corner (bottom left)", "the bottom right corner", "the top right corner",
           "the top left corner")
"""Where each of the board's four markers is, in marker order."""
FOUND = (60, 200, 60)
MISSING = (40, 40, 230)
"""Colours of the marked picture (BGR): a marker found, a note of what is not."""


class StepFailed(SurakartaError, RuntimeError):
    """A setup step that did not work; its message says what to fix."""


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--camera", action="append", metavar="CAMERA",
                        help="a camera to try instead of looking for them: a USB camera's "
                             "number, picamera, a photo or a folder of photos (repeatable)")
    parser.add_argument("--folder", type=Path, default=Path("~/.config/surakarta"),
                        help="where the config, calibration and pictures go "
                             "(default: ~/.config/surakarta)")
    parser.add_argument("--state", type=Path, default=Path("~/.local/state/surakarta"),
                        help="where the game in progress and the records go "
                             "(default: ~/.local/state/surakarta)")
    parser.add_argument("--mock-pins", action="store_true",
                        help="self-test on mock pins (a PC, or a board with nothing wired yet)")
    parser.add_argument("--no-service", action="store_true",
                        help="stop before installing the service")
    parser.add_argument("--unit-dir", type=Path, default=Path("~/.config/systemd/user"),
                        help="where user units live (default: ~/.config/systemd/user)")
    add_piece_height(parser)


@dataclass(frozen=True, slots=True)
class Sight:
    """What one camera saw."""

    spec: str
    """The camera, as --camera names it."""
    picture: Path
    """Where its picture was saved."""
    marked: Path
    """Where the same picture was saved with the markers found outlined and what is
    missing written on it."""
    frame: np.ndarray
    """The picture."""
    markers: dict[int, np.ndarray]
    """Markers found: id to corners in pixels."""
    mirrored: bool
    """Whether the markers read only in the picture flipped left to right."""


def run(args: argparse.Namespace) -> int:
    folder = args.folder.expanduser()
    state = args.state.expanduser()
    piece_height = checked_piece_height(args.piece_height)
    sights: list[Sight] = []
    try:
        _step(1, "cameras", lambda: sights.extend(_cameras(args.camera, folder / "setup")))
        sight = _step(2, "the sheet", lambda: _check_sheet(sights))
        calibration = folder / "calibration.json"
        _step(3, "calibration", lambda: _calibrate(sight, calibration, piece_height))
        config = folder / "board.toml"
        _step(4, "config", lambda: _write_config(sight.spec, calibration, state, config))
        _step(5, "self-test", lambda: _selftest(config, args.mock_pins))
        if args.no_service:
            print(f"{STEPS}/{STEPS} service: skipped (--no-service); later: "
                  f"surakarta install-service --config {config}")
        else:
            _step(6, "service", lambda: _service(config, args.unit_dir.expanduser()))
    except StepFailed as failure:
        print(f"  to fix: {failure}")
        print("then run surakarta setup again")
        return EXIT_STEP_FAILED
    print(f"setup: done. The board runs with: surakarta run --config {config}")
    return 0


def _step(number: int, name: str, action: Callable[[], T]) -> T:
    print(f"{number}/{STEPS} {name} ...", flush=True)
    try:
        result = action()
    except StepFailed:
        print(f"{number}/{STEPS} {name}: FAILED")
        raise
    except SurakartaError as error:
        print(f"{number}/{STEPS} {name}: FAILED: {error}")
        raise StepFailed(_advice(name)) from None
    print(f"{number}/{STEPS} {name}: ok")
    return result


def _advice(step: str) -> str:
    return {
        "cameras": "check the camera's cable (rpicam-hello --list-cameras for the Pi camera, "
                   "ls /dev/video* for a USB one)",
        "the sheet": "see docs/BUILDING.md, 'The camera'",
        "calibration": "set up the start position under the camera, every piece on its point, "
                       "with even light and no hand in view",
        "config": "check that the folder can be written",
        "self-test": "check the wiring against hardware/README.md",
        "service": "run surakarta install-service --config with the config above once logged "
                   "in on the Pi itself",
    }[step]


# ---------------------------------------------------------------- cameras


def candidates() -> list[str]:
    """The cameras on this machine: the Pi camera when picamera2 finds one, then every
    USB camera (``/dev/video*``, by number)."""
    from vision.errors import CameraUnavailable
    from vision.sources import PiCamera

    found = []
    try:
        print(f"  found: {PiCamera.describe()}")
        found.append("picamera")
    except CameraUnavailable:
        pass
    numbers = sorted({int(match.group(1)) for name in glob.glob("/dev/video*")
                      if (match := re.fullmatch(r"/dev/video(\d+)", name))})
    found.extend(str(number) for number in numbers)
    return found


def _cameras(specs: list[str] | None, pictures: Path) -> list[Sight]:
    from vision.errors import CameraUnavailable

    specs = specs or candidates()
    if not specs:
        raise StepFailed("no camera found: seat the Pi camera's ribbon cable firmly at both "
                         "ends (the Pi 5 needs its own, narrower cable) or plug in a USB "
                         "camera, then reboot; rpicam-hello --list-cameras lists Pi cameras")
    sights = []
    for number, spec in enumerate(specs, start=1):
        try:
            sight = _look(spec, pictures / f"camera-{number}.jpg")
        except (CameraUnavailable, OSError) as error:
            # USB cameras offer several /dev/video nodes; only some give pictures.
            print(f"  camera {spec}: no picture ({error})")
            continue
        seen = f"{len(sight.markers)} of the board's markers"
        mirrored = " (only in the picture flipped: the camera mirrors it)" if sight.mirrored else ""
        print(f"  camera {spec}: sees {seen}{mirrored}; its picture: {sight.picture}, "
              f"with the markers marked: {sight.marked}")
        sights.append(sight)
    if sights:
        # Over SSH, the pictures are looked at on the maker's own computer.
        print(f"  to look at them from another computer: scp "
              f"'{getpass.getuser()}@{socket.gethostname()}.local:{pictures}/*.jpg' .")
    if not sights:
        raise StepFailed(f"none of the cameras ({', '.join(specs)}) gave a picture: check the "
                         "cable, and that no other program (a running board) uses the camera")
    return sights


def _look(spec: str, picture: Path) -> Sight:
    import cv2

    from vision.config import VisionConfig
    from vision.locate import detect_markers
    from vision.sources import load_image, open_camera, parse_camera

    path = Path(spec)
    if path.suffix.lower() in IMAGE_SUFFIXES and path.is_file():
        still: np.ndarray | None = load_image(path)
    else:
        camera = parse_camera(spec)
        source = open_camera(camera)
        live = camera.source in ("usb", "picamera")
        try:
            frame: np.ndarray | None = source.read()
            for _ in range(WARM_UP_FRAMES if live else 0):
                later = source.read()
                frame = frame if later is None else later
        finally:
            source.close()
        still = frame
    if still is None:
        raise OSError("the camera gave no frame")
    frame = still
    with writing(picture):
        if not cv2.imwrite(str(picture), frame):
            raise OSError(f"cannot write {str(picture)!r}")
    config = VisionConfig()
    markers = detect_markers(config, frame)
    mirrored = False
    if not markers:
        flipped = detect_markers(config, cv2.flip(frame, 1))
        mirrored = bool(flipped)
    marked = picture.with_name(f"{picture.stem}-markers{picture.suffix}")
    if not cv2.imwrite(str(marked), _marked(frame, markers, mirrored)):
        raise OSError(f"cannot write {str(marked)!r}")
    return Sight(spec, picture, marked, frame, markers, mirrored)


def _board_size(markers: dict[int, np.ndarray]) -> int:
    """The board size the markers belong to (6 when they do not say)."""
    from vision.board_model import size_of_marker

    sizes = {size_of_marker(marker) for marker in markers} - {None}
    return 6 if 6 in sizes or not sizes else 7


def _missing(markers: dict[int, np.ndarray]) -> list[str]:
    """Where the board's markers that are not in ``markers`` are."""
    from vision.board_model import marker_ids

    return [CORNERS[index] for index, marker in enumerate(marker_ids(_board_size(markers)))
            if marker not in markers]


def _marked(frame: np.ndarray, markers: dict[int, np.ndarray], mirrored: bool) -> np.ndarray:
    """The picture with each marker found outlined and named by its corner, and a line
    at the top saying what is missing: what a maker looks at to move the camera."""
    import cv2
    import numpy as np

    from vision.board_model import marker_ids

    marked = frame.copy()
    scale = max(0.4, frame.shape[1] / 1600)
    thickness = max(1, round(scale * 2))
    ids = marker_ids(_board_size(markers))
    for marker, corners in markers.items():
        outline = np.round(corners).astype(np.int32)
        cv2.polylines(marked, [outline], True, FOUND, thickness + 1, cv2.LINE_AA)
        name = CORNERS[ids.index(marker)].split(" (")[0] if marker in ids else "not this board's"
        (width, height), _ = cv2.getTextSize(name, cv2.FONT_HERSHEY_SIMPLEX, scale, thickness)
        x, y = outline.min(axis=0)
        x = min(int(x), frame.shape[1] - width - 2)  # a right-hand marker's name stays in
        cv2.putText(marked, name, (max(0, x), max(height + 2, int(y) - 6)),
                    cv2.FONT_HERSHEY_SIMPLEX, scale, FOUND, thickness, cv2.LINE_AA)
    if mirrored:
        note = "no marker reads: the camera mirrors its picture"
    elif missing := _missing(markers):
        note = "not in view: " + ", ".join(name.split(" (")[0] for name in missing)
    else:
        note = "all four markers in view"
    colour = FOUND if note.startswith("all") else MISSING
    (width, height), base = cv2.getTextSize(note, cv2.FONT_HERSHEY_SIMPLEX, scale, thickness)
    cv2.rectangle(marked, (0, 0), (width + 12, height + base + 12), (255, 255, 255), -1)
    cv2.putText(marked, note, (6, height + 6), cv2.FONT_HERSHEY_SIMPLEX, scale, colour,
                thickness, cv2.LINE_AA)
    return marked


# -------------------------------------------------------------- the sheet


def _check_sheet(sights: list[Sight]) -> Sight:
    best = max(sights, key=lambda sight: len(sight.markers))
    if not best.markers:
        if any(sight.mirrored for sight in sights):
            raise StepFailed("the camera mirrors its picture (a webcam's 'mirror' setting): "
                             "turn mirroring off in its settings (v4l2-ctl --set-ctrl "
                             "horizontal_flip=0) and try again")
        drawn = _drawn_board(sights)
        if drawn is not None:
            return drawn
        raise StepFailed(
            "no camera sees the board's markers: look at the saved pictures; put the whole "
            "printed sheet in view, with light on it and the camera above it, and focus "
            "the lens if the picture is blurred")
    print(f"  using camera {best.spec}")
    sides, widths = _marker_quality(best)
    # Blur first: a blurred marker may go unread, and is then no sign of a sheet out of view.
    if max(widths) > BLUR_LIMIT:
        raise StepFailed(
            f"the picture is blurred (marker edges {max(widths):.2f} of a cell wide, at most "
            f"{BLUR_LIMIT} wanted): focus the lens (a webcam's ring; the Pi Camera Module 3 "
            "focuses itself, an older one turns with its tool), hold the camera still, or "
            "add light")
    if missing := _missing(best.markers):
        raise StepFailed(
            "the markers near " + ", ".join(missing) + " are "
            f"not in view ({len(best.markers)} of 4 seen): raise the camera or centre it over "
            f"the board so that the whole sheet is in the picture ({best.marked})")
    if min(sides) < LEAST_MARKER_PIXELS:
        raise StepFailed(
            f"the board is small in the picture (markers {min(sides):.0f} pixels across, "
            f"at least {LEAST_MARKER_PIXELS:.0f} wanted): lower the camera, use a narrower "
            "lens or a higher camera resolution")
    print(f"  all 4 markers in view, {min(sides):.0f}+ pixels across, edges sharp "
          f"({max(widths):.2f} of a cell)")
    return best


def _drawn_board(sights: list[Sight]) -> Sight | None:
    """The first camera that sees a board without markers (a wooden or hand-drawn one) by
    its lines and loops, or None."""
    from vision.find_board import find_board

    for sight in sights:
        found = find_board(sight.frame)
        if found is not None:
            print(f"  using camera {sight.spec}: a {found.size}x{found.size} board without "
                  "markers, found by its lines and loops; rank 1 (red's side) is the side "
                  "nearer the bottom of the picture, and the camera must not move after "
                  "calibration")
            return sight
    return None


def _marker_quality(sight: Sight) -> tuple[list[float], list[float]]:
    """Each marker's side in the picture (pixels) and its border's edge width, as a share
    of one cell: black to white across the marker's outer edge."""
    import cv2
    import numpy as np

    from vision.locate import as_grey

    grey = as_grey(sight.frame).astype(np.float32)
    sides, widths = [], []
    cell = 8  # canonical pixels per cell
    side = 6 * cell
    pad = cell
    for corners in sight.markers.values():
        sides.append(float(np.mean(np.linalg.norm(corners - np.roll(corners, 1, axis=0),
                                                  axis=1))))
        target = np.array([[pad, pad], [pad + side, pad], [pad + side, pad + side],
                           [pad, pad + side]], np.float32)
        warp = cv2.getPerspectiveTransform(corners.astype(np.float32), target)
        view = cv2.warpPerspective(grey, warp, (side + 2 * pad, side + 2 * pad),
                                   flags=cv2.INTER_LINEAR)
        # Rows through the left and right borders: white quiet zone, then the black border.
        band = view[pad + cell:pad + side - cell]
        profiles = np.concatenate([band[:, :pad + cell], band[:, -(pad + cell):][:, ::-1]])
        white = np.percentile(profiles[:, : pad // 2], 50)
        black = np.percentile(profiles[:, pad + 2:], 50)
        contrast = max(1.0, float(white - black))
        steepest = np.abs(np.diff(profiles, axis=1)).max(axis=1)
        width = contrast / max(1e-3, float(np.median(steepest)))
        widths.append(width / cell)
    return sides, widths


# ------------------------------------------------ calibration, config, ...


def _calibrate(sight: Sight, out: Path, piece_height: float | None) -> None:
    from vision.calibrate import calibrate, save_calibration
    from vision.config import VisionConfig
    from vision.errors import CalibrationFailed

    try:
        calibration = calibrate(VisionConfig(), sight.frame, piece_height=piece_height)
    except CalibrationFailed as error:
        height = ("" if piece_height is not None else
                  "; for tall or patterned pieces, give their height with --piece-height MM")
        raise StepFailed(f"{error}: set up the start position (red on ranks 1 and 2, black "
                         "on the last two), every piece on its point, with even light and "
                         f"no hand in view{height}") from None
    with writing(out):
        save_calibration(calibration, out)
    camera = calibration.camera
    print(f"  {calibration.size}x{calibration.size} board, camera "
          f"{camera.viewing_angle_degrees():.0f} degrees from straight above, pieces' tops "
          f"{calibration.piece_height:g} mm up; wrote {out}")


def config_text(camera: str, calibration: Path, state: Path, path: Path) -> str:
    """The example Pi config with this camera and these folders, to be written to ``path``."""
    text = EXAMPLE.read_text(encoding="utf-8")
    # Its comments' commands name the example file: they should name this one.
    text = re.sub(r"(^#.*--config )pi\.toml", lambda found: found.group(1) + str(path), text,
                  flags=re.M)
    if camera.isdigit():
        source = f'source = "usb"\ndevice = {camera}'
    elif camera == "picamera":
        source = 'source = "picamera"'
    else:
        kind = "folder" if Path(camera).is_dir() else "file"
        source = f'source = "{kind}"\npath = {_toml_string(str(Path(camera).resolve()))}'
    text = re.sub(r'^source = "picamera".*$', source, text, count=1, flags=re.M)
    text = re.sub(r"^# Made by: surakarta calibrate.*\n", "", text, count=1, flags=re.M)
    replacements = {
        "calibration": calibration,
        "path": state / "journal.json",
        "records": state / "games",
    }
    for key, value in replacements.items():
        text = re.sub(rf'^{key} = "~[^"]*"', f"{key} = {_toml_string(str(value))}", text,
                      count=1, flags=re.M)
    return text


def _toml_string(text: str) -> str:
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"') + '"'


def _write_config(camera: str, calibration: Path, state: Path, path: Path) -> None:
    from firmware.config import check_config

    with writing(path):
        if path.exists():
            kept = path.with_suffix(".toml.old")
            shutil.copy2(path, kept)
            print(f"  the config there before is kept as {kept}")
        path.write_text(config_text(camera, calibration, state, path), encoding="utf-8")
    problems = check_config(path)
    if problems:
        raise StepFailed(f"the config written to {path} has a problem: {problems[0]}")
    print(f"  wrote {path}")


def _selftest(config: Path, mock: bool) -> None:
    from firmware.commands import selftest

    arguments = argparse.Namespace(config=str(config), mock=mock, lamp_seconds=0.3,
                                   button_timeout=30.0, no_sound=False)
    if selftest.run(arguments) != 0:
        raise StepFailed("press each button when asked; a button that is never heard from is "
                         "wired to the wrong pin or not to ground (hardware/README.md, "
                         "'Buttons'); a lamp that stayed dark or lit out of turn is wired to "
                         "another output (surakarta lamp-map --output lamps.svg)")


def _service(config: Path, unit_dir: Path) -> None:
    from firmware.commands import install_service

    arguments = argparse.Namespace(config=config, unit_dir=unit_dir, no_start=False)
    install_service.run(arguments)
