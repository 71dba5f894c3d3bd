"""``surakarta run``: the board. With no config on a PC, the simulator window."""

from __future__ import annotations

import argparse
import logging
import sys
import threading
from pathlib import Path

from controller.errors import BadOption
from controller.numbers import seconds
from firmware.commands import check_numbers, simulator

NAME = "run"
HELP = "run the board (with no --config: the simulator window on a PC)"

EXIT_INVALID_CONFIG = 2
EXIT_NO_CAMERA = 1
"""``--check``: the config is valid but its camera is not found."""
EXIT_CAMERA_STACK = 78
"""The camera's software cannot load: a restart cannot fix it (sysexits' EX_CONFIG).

The service's unit lists it in ``RestartPreventExitStatus=``, so systemd stops
instead of restarting the board every few seconds.
"""


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--config", type=Path, help="TOML config file (see firmware/examples/)")
    parser.add_argument("--check", action="store_true", help="validate the config and exit")
    parser.add_argument("--verbose", action="store_true", help="log every referee message")
    # The simulator's own flags; --exit-after also bounds a run with a config.
    simulator.add_arguments(parser.add_argument_group("simulator window (no --config)"))


def _check(path: Path) -> int:
    from firmware.config import check_config, load_config

    problems = check_config(path)
    for problem in problems:
        print(f"{path}: {problem}", file=sys.stderr)
    if problems:
        return EXIT_INVALID_CONFIG
    print(f"{path}: valid")
    if load_config(path).camera.source == "picamera":
        return _check_pi_camera()
    return 0


def _check_pi_camera() -> int:
    """Whether the Pi camera can be used, without opening it (a running board keeps it)."""
    from vision.errors import CameraUnavailable
    from vision.sources import CameraStackBroken, PiCamera

    try:
        print(f"camera: {PiCamera.describe()}: usable")
    except CameraStackBroken as error:
        print(f"camera: {error}", file=sys.stderr)
        return EXIT_CAMERA_STACK
    except CameraUnavailable as error:
        print(f"camera: {error}", file=sys.stderr)
        return EXIT_NO_CAMERA
    return 0


def _load_pi_camera_stack() -> int:
    """0 when the Pi camera's software imports; else says why and gives the status for it.

    Checked before the board starts: the board retries a camera that fails to open,
    which helps an unplugged or busy camera but never a broken install.
    """
    from vision.sources import CameraStackBroken, PiCamera

    try:
        PiCamera.load_stack()
    except CameraStackBroken as error:
        print(f"surakarta run: {error}", file=sys.stderr)
        return EXIT_CAMERA_STACK
    return 0


def _window(args: argparse.Namespace) -> int:
    from firmware.simulator import run_window

    return run_window(simulator.window_options(args))


def _board(args: argparse.Namespace) -> int:
    from firmware.app import BoardApp, install_signal_handlers
    from firmware.config import load_config
    from firmware.memory import settle_allocator

    settle_allocator()  # before the camera's first buffers, for months of running
    config = load_config(args.config)
    if config.camera.source == "picamera" and (status := _load_pi_camera_stack()):
        return status
    pin_factory = None
    if config.hardware is None:
        from hardware.mock import mock_factory

        logging.getLogger(__name__).info("no [hardware] section: lamps and buttons on mock pins")
        pin_factory = mock_factory()
    web = None
    if config.web is not None:
        from firmware.web.service import WebService
        from firmware.web.token import token_path

        web = WebService(config.web.address, config.web.port, token_path(config.journal),
                         calibration_file=config.camera.calibration)
    app = BoardApp(config, pin_factory, services=() if web is None else (web,),
                   on_step=None if web is None else web.pump)
    install_signal_handlers(app)
    if args.exit_after is not None:
        timer = threading.Timer(args.exit_after, app.stop.set)
        timer.daemon = True
        timer.start()
    return app.run()


def run(args: argparse.Namespace) -> int:
    logging.basicConfig(
        level=logging.INFO if args.verbose or args.config else logging.WARNING,
        format="%(levelname)s %(name)s: %(message)s",
    )
    if args.check:
        if args.config is None:
            raise BadOption("--check needs --config FILE")
        return _check(args.config)
    check_numbers(args, exit_after=seconds(366 * 86_400))
    if args.config is None:
        return _window(args)
    return _board(args)
