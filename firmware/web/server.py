"""The web server: the page, its JSON API and the live event stream, on its own thread.

Tornado, one thread with its own event loop beside the board's loop. Every
request is bounded (header and body sizes, open connections, open pages) and
every action is checked for the pairing token and, from a browser, for coming
from the board's own page. Nothing a request sends reaches the referee except
through ``BoardLink``, on the board's own thread.

Routes::

    GET  /                       the page
    GET  /static/app.js|app.css  its script and style
    GET  /board.svg              the board drawing (with the lamps of this build)
    GET  /api/state              the game, lamps, status (and the health figures)
    GET  /api/health             camera and vision rates, journal, engine, uptime
    GET  /api/events             server-sent events: ``state`` and ``health``
    GET  /api/camera.jpg         the camera's latest view with the reader's overlay
    GET  /api/games              finished games; /api/games/<name> its record,
                                 /api/games/<name>/replay every position of it
    POST /api/action/<name>      hint, undo, new, mode, level, variant, eval, lamp-test
    POST /api/pair               200 when the token sent is the board's
"""

from __future__ import annotations

import asyncio
import json
import logging
import threading
from concurrent.futures import Future
from importlib import resources
from typing import Any, NoReturn
from urllib.parse import urlsplit

import tornado.httpserver
import tornado.iostream
import tornado.netutil
import tornado.web

from controller.errors import SurakartaError
from firmware.web.drawing import board_svg
from firmware.web.games import NoSuchGame, list_games, record_file, replay
from firmware.web.link import ActionName, ActionResult, BadAction, BoardLink, parse_action
from firmware.web.token import TOKEN_HEADER, is_token

log = logging.getLogger(__name__)

MAX_CONNECTIONS = 64
"""Open TCP connections; more are closed at once."""
MAX_PAGES = 32
"""Open event streams (pages); more are refused with 503."""
MAX_BODY_BYTES = 4096
"""Largest request body: an action is a few bytes of JSON."""
MAX_HEADER_BYTES = 8192
"""Largest request head."""
ACTION_TIMEOUT_SECONDS = 3.0
"""How long an action may wait for the board's loop before the page is told it is busy."""
CALIBRATE_TIMEOUT_SECONDS = 30.0
"""The same for a calibration, which fits the lens and learns the pieces: a second or two
on a PC, several on a Pi or a busy machine."""
PING_SECONDS = 20.0
"""A comment on idle event streams, so dead connections are found and closed."""
STATIC = {"app.js": "application/javascript", "app.css": "text/css"}
SECURITY_HEADERS = {
    "Content-Security-Policy": "default-src 'self'; img-src 'self' data:; "
                               "frame-ancestors 'none'; base-uri 'none'; form-action 'none'",
    "X-Content-Type-Options": "nosniff",
    "X-Frame-Options": "DENY",
    "Referrer-Policy": "no-referrer",
    "Cache-Control": "no-store",
}


class WebError(SurakartaError, OSError):
    """The server cannot start (the address is taken or cannot be used)."""


def _asset(name: str) -> bytes:
    return resources.files("firmware.web").joinpath("data", name).read_bytes()


class Page:
    """One open event stream. Only the newest message of each kind waits to be sent, so a
    slow phone costs the server two messages of memory, never a growing queue."""

    def __init__(self, handler: EventsHandler) -> None:
        self.handler = handler
        self.pending: dict[str, str] = {}
        self.sending = False
        self.closed = asyncio.Event()
        self._task: asyncio.Future[None] | None = None

    def send(self, event: str, text: str) -> None:
        self.pending[event] = text
        if not self.sending:
            self.sending = True
            self._task = asyncio.ensure_future(self._drain())

    async def _drain(self) -> None:
        try:
            while self.pending and not self.closed.is_set():
                event = next(iter(self.pending))
                text = self.pending.pop(event)
                self.handler.write(f"event: {event}\ndata: {text}\n\n" if event else text)
                await self.handler.flush()
        except tornado.iostream.StreamClosedError:
            self.closed.set()
        finally:
            self.sending = False


class Hub:
    """The open pages, told of every new state from the board's thread."""

    def __init__(self, link: BoardLink, loop: asyncio.AbstractEventLoop) -> None:
        self.link = link
        self.loop = loop
        self.pages: set[Page] = set()
        link.listeners.append(self.from_board)

    def from_board(self, event: str, text: str) -> None:
        # Called on the board's thread: hand over to the server's loop.
        self.loop.call_soon_threadsafe(self.broadcast, event, text)

    def broadcast(self, event: str, text: str) -> None:
        for page in list(self.pages):
            page.send(event, text)

    def add(self, page: Page) -> None:
        self.pages.add(page)
        self.link.pages = len(self.pages)

    def remove(self, page: Page) -> None:
        self.pages.discard(page)
        self.link.pages = len(self.pages)


class Base(tornado.web.RequestHandler):
    """Shared by every route: security headers, JSON errors, the origin check."""

    def initialize(self, server: WebServer) -> None:
        self.server = server
        self.link = server.link

    def set_default_headers(self) -> None:
        for name, value in SECURITY_HEADERS.items():
            self.set_header(name, value)

    def write_error(self, status_code: int, **kwargs: Any) -> None:
        reason = self._reason
        self.set_header("Content-Type", "application/json")
        self.finish(json.dumps({"ok": False, "error": reason}))

    def fail(self, status: int, reason: str) -> NoReturn:
        """End the request with ``status`` and a one-line reason (as JSON)."""
        raise tornado.web.HTTPError(status, reason=reason.replace("\n", " ")[:200])

    def check_origin(self) -> None:
        """A browser's request must come from this board's own page.

        Browsers name the page a request comes from in ``Origin``; another site's page
        asking this board to act is refused. Programs send no Origin and go on to the
        token check.
        """
        origin = self.request.headers.get("Origin")
        if origin is None:
            return
        parts = urlsplit(origin)
        if parts.scheme not in ("http", "https") or parts.netloc != self.request.host:
            self.fail(403, "requests must come from the board's own page")

    def prepare(self) -> None:
        self.check_origin()

    def write_json(self, data: Any) -> None:
        self.set_header("Content-Type", "application/json")
        self.finish(json.dumps(data, separators=(",", ":")))

    def write_json_text(self, text: str) -> None:
        self.set_header("Content-Type", "application/json")
        self.finish(text)


class IndexHandler(Base):
    def get(self) -> None:
        self.set_header("Content-Type", "text/html; charset=utf-8")
        self.finish(self.server.assets["index.html"])


class StaticHandler(Base):
    def get(self, name: str) -> None:
        if name not in STATIC:
            self.fail(404, f"no such file: {name[:40]!r}")
        self.set_header("Content-Type", f"{STATIC[name]}; charset=utf-8")
        self.finish(self.server.assets[name])


class BoardHandler(Base):
    def get(self) -> None:
        self.set_header("Content-Type", "image/svg+xml")
        self.finish(board_svg(self.link.board.hardware.layout))


class StateHandler(Base):
    def get(self) -> None:
        state = self.link.state_json
        if state is None:
            self.fail(503, "the board is starting")
        health = self.link.health_json or "null"
        self.write_json_text(f'{state[:-1]},"health":{health}}}')


class HealthHandler(Base):
    def get(self) -> None:
        self.write_json_text(self.link.health_json or "null")


class EventsHandler(Base):
    async def get(self) -> None:
        hub = self.server.hub
        if len(hub.pages) >= MAX_PAGES:
            self.fail(503, "too many pages open")
        self.set_header("Content-Type", "text/event-stream")
        self.set_header("X-Accel-Buffering", "no")
        page = Page(self)
        self.page = page
        hub.add(page)
        try:
            page.send("", "retry: 1000\n\n")
            if self.link.state_json is not None:
                page.send("state", self.link.state_json)
            if self.link.health_json is not None:
                page.send("health", self.link.health_json)
            while not page.closed.is_set():
                try:
                    await asyncio.wait_for(page.closed.wait(), PING_SECONDS)
                except TimeoutError:
                    page.send("ping", "{}")
        finally:
            hub.remove(page)

    def on_connection_close(self) -> None:
        page = getattr(self, "page", None)
        if page is not None:
            page.closed.set()


class CameraHandler(Base):
    def get(self) -> None:
        camera, view = self.link.camera, self.link.camera_view
        if camera is None and view is None:
            self.fail(404, "no camera frame yet")
        # Imported here: OpenCV loads only when someone looks at the camera.
        import cv2

        from vision.board_model import board_model
        from vision.debug import debug_image

        if camera is not None:
            frame, reading = camera
            size = self.link.board.session.referee.position.size
            picture = debug_image(frame, reading, board_model(size), 0.5)
        else:
            picture = cv2.cvtColor(view, cv2.COLOR_RGB2BGR)
        ok, encoded = cv2.imencode(".jpg", picture, [cv2.IMWRITE_JPEG_QUALITY, 80])
        if not ok:
            self.fail(500, "could not encode the camera frame")
        self.set_header("Content-Type", "image/jpeg")
        self.finish(encoded.tobytes())


class GamesHandler(Base):
    def get(self) -> None:
        self.write_json(list_games(self.link.records))


class GameHandler(Base):
    def get(self, name: str, what: str | None) -> None:
        try:
            if what == "/replay":
                self.write_json(replay(self.link.records, name))
                return
            text = record_file(self.link.records, name).read_bytes()
        except NoSuchGame as error:
            self.fail(404, str(error))
        except (SurakartaError, OSError, ValueError) as error:
            self.fail(422, f"unreadable record {name!r}: {error}")
        self.set_header("Content-Type", "text/plain; charset=utf-8")
        self.set_header("Content-Disposition", f'attachment; filename="{name}"')
        self.finish(text)


class TokenChecked(Base):
    """A route that needs the pairing token."""

    def prepare(self) -> None:
        super().prepare()
        if not is_token(self.request.headers.get(TOKEN_HEADER), self.server.token):
            self.fail(401, f"this needs the board's pairing token (in the {TOKEN_HEADER} "
                           "header; surakarta web-token shows it)")


class PairHandler(TokenChecked):
    def post(self) -> None:
        self.write_json({"ok": True})


class ActionHandler(TokenChecked):
    async def post(self, name: str) -> None:
        value = None
        body = self.request.body
        if body.strip():
            try:
                document = json.loads(body)
            except (ValueError, RecursionError):
                self.fail(400, "the body is not JSON")
            if not isinstance(document, dict) or set(document) - {"value"}:
                self.fail(400, 'expected {"value": ...} or no body')
            value = document.get("value")
        try:
            request = parse_action(name, value)
            future: Future[ActionResult] = self.link.submit(request)
        except BadAction as error:
            self.fail(503 if "busy" in str(error) else 400, str(error))
        try:
            timeout = (CALIBRATE_TIMEOUT_SECONDS if request.name is ActionName.CALIBRATE
                       else ACTION_TIMEOUT_SECONDS)
            result = await asyncio.wait_for(asyncio.wrap_future(future), timeout)
        except TimeoutError:
            future.cancel()
            self.fail(503, "the board did not answer in time: try again")
        self.set_status(200 if result.ok else 409)
        self.write_json({"ok": result.ok, "message": result.message})


class BoundedHTTPServer(tornado.httpserver.HTTPServer):
    """An HTTP server that closes connections beyond ``MAX_CONNECTIONS`` at once."""

    def handle_stream(self, stream: tornado.iostream.IOStream, address: Any) -> None:
        if len(getattr(self, "_connections", ())) >= MAX_CONNECTIONS:
            stream.close()
            return
        super().handle_stream(stream, address)


def _log_request(handler: tornado.web.RequestHandler) -> None:
    # The path only: no query string, no headers (the token travels in one).
    request = handler.request
    status = handler.get_status()
    level = logging.WARNING if status >= 500 and status != 503 else logging.DEBUG
    log.log(level, "%d %s %s %.0f ms", status, request.method, request.path,
            1000 * request.request_time())


class WebServer:
    """The companion page's server, running on its own thread until ``stop``."""

    def __init__(self, link: BoardLink, token: str, address: str = "127.0.0.1",
                 port: int = 8080) -> None:
        self.link = link
        self.token = token
        self.address = address
        self.port = port
        self.assets = {name: _asset(name) for name in ("index.html", *STATIC)}
        self.loop: asyncio.AbstractEventLoop | None = None
        self.hub: Hub
        self._thread: threading.Thread | None = None
        self._started = threading.Event()
        self._server: BoundedHTTPServer | None = None

    def application(self) -> tornado.web.Application:
        keep = {"server": self}
        return tornado.web.Application(
            [
                (r"/", IndexHandler, keep),
                (r"/static/([a-z.]+)", StaticHandler, keep),
                (r"/board\.svg", BoardHandler, keep),
                (r"/api/state", StateHandler, keep),
                (r"/api/health", HealthHandler, keep),
                (r"/api/events", EventsHandler, keep),
                (r"/api/camera\.jpg", CameraHandler, keep),
                (r"/api/games", GamesHandler, keep),
                (r"/api/games/([^/]{1,80})(/replay)?", GameHandler, keep),
                (r"/api/pair", PairHandler, keep),
                (r"/api/action/([a-z-]{1,20})", ActionHandler, keep),
            ],
            log_function=_log_request,
            default_handler_class=NotFound,
            default_handler_args=keep,
            compress_response=False,
        )

    def start(self) -> None:
        """Bind the address (raising WebError at once if impossible) and serve on a thread."""
        try:
            sockets = tornado.netutil.bind_sockets(self.port, self.address)
        except OSError as error:
            raise WebError(f"cannot serve the page on {self.address}:{self.port}: "
                           f"{error.strerror or error}") from None
        self.port = sockets[0].getsockname()[1]
        self._thread = threading.Thread(target=self._serve, args=(sockets,), name="web",
                                        daemon=True)
        self._thread.start()
        self._started.wait(10)
        log.info("companion page on http://%s:%d/", self.address, self.port)

    def _serve(self, sockets: list[Any]) -> None:
        loop = asyncio.new_event_loop()
        asyncio.set_event_loop(loop)
        self.loop = loop
        self.hub = Hub(self.link, loop)
        server = BoundedHTTPServer(
            self.application(),
            max_body_size=MAX_BODY_BYTES,
            max_buffer_size=MAX_BODY_BYTES * 4,
            max_header_size=MAX_HEADER_BYTES,
            idle_connection_timeout=60,
            body_timeout=10,
        )
        server.add_sockets(sockets)
        self._server = server
        loop.call_soon(self._started.set)
        try:
            loop.run_forever()
        finally:
            loop.close()

    def stop(self) -> None:
        """Close every connection and end the thread."""
        loop, thread = self.loop, self._thread
        if loop is None or thread is None:
            return
        if self.hub.from_board in self.link.listeners:
            self.link.listeners.remove(self.hub.from_board)

        async def shut() -> None:
            assert self._server is not None
            self._server.stop()
            for page in list(self.hub.pages):
                page.closed.set()
            await asyncio.sleep(0)
            await self._server.close_all_connections()
            loop.stop()

        loop.call_soon_threadsafe(lambda: asyncio.ensure_future(shut()))
        thread.join(5)
        self._thread = None

    @property
    def url(self) -> str:
        """The page's address."""
        return f"http://{self.address}:{self.port}/"


class NotFound(Base):
    def prepare(self) -> None:
        self.fail(404, f"no such page: {self.request.path[:80]!r}")
