"""The companion page as a service of the board's pipeline.

``WebService`` is opened with the pipeline (``PipelineParts.services``) and closed
before it; the loop that owns the pipeline calls ``pump`` once per pass, which is
where page actions are carried out and new states sent.
"""

from __future__ import annotations

import logging
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from firmware.web.link import Board, BoardLink
from firmware.web.server import WebServer
from firmware.web.token import load_token

log = logging.getLogger(__name__)


class WebService:
    """Serves the companion page of whatever pipeline it is opened with."""

    def __init__(self, address: str, port: int, token_file: Path, *,
                 calibration_file: Path | None = None) -> None:
        self.address = address
        self.port = port
        self.token_file = token_file
        self.calibration_file = calibration_file
        """Where a calibration made from the page is kept (the config's)."""
        self.link: BoardLink | None = None
        """The open pipeline's link; None while closed."""
        self.server: WebServer | None = None

    @contextmanager
    def __call__(self, board: Board) -> Iterator[WebService]:
        """Serve ``board`` (a pipeline) until the context closes."""
        token = load_token(self.token_file)
        link = BoardLink(board)
        link.calibration_file = self.calibration_file
        server = WebServer(link, token, self.address, self.port)
        server.start()
        log.info("companion page on %s (actions need the token: surakarta web-token)",
                 server.url)
        self.link, self.server = link, server
        try:
            yield self
        finally:
            self.link = self.server = None
            server.stop()

    def pump(self, now: float, reading: Any = None, frame: Any = None,
             view: Any = None) -> None:
        """One pass of the board's loop (see ``BoardLink.pump``); nothing while closed."""
        if self.link is not None:
            self.link.pump(now, reading, frame, view)
