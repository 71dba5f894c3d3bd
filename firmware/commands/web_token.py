"""``surakarta web-token``: the companion page's pairing token (made on first use)."""

from __future__ import annotations

import argparse
import socket
from pathlib import Path

NAME = "web-token"
HELP = "show the pairing token the companion page's actions need (--new replaces it)"


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--config", type=Path, help="the board's TOML config (for its journal)")
    parser.add_argument("--new", action="store_true",
                        help="replace the token: every paired page must pair again")


def run(args: argparse.Namespace) -> int:
    from firmware.config import load_config
    from firmware.web.token import load_token, token_path

    config = load_config(args.config)
    path = token_path(config.journal)
    if args.new:
        path.unlink(missing_ok=True)
    token = load_token(path)
    print(token)
    if config.web is not None:
        host = socket.gethostname() if config.web.address == "0.0.0.0" else config.web.address
        # The token goes after '#': browsers never send that part, so no log sees it.
        print(f"pair a phone by opening http://{host}:{config.web.port}/#token={token}")
    return 0
