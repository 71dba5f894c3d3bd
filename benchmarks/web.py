"""The companion page's floors, measured on this machine over the loopback address.

- page ready: headless Chromium opens the page of a running simulation; the time
  from navigation to the board drawn with the referee's position (floor: < 1 s);
- event to page: a move is made on the simulated board (rendered camera, vision,
  referee in real time at 10 frames a second); the time from the referee accepting
  it to the new state drawn in an open Chromium page, and to its arrival at each of
  20 other open pages (event streams read by this process) (floor: median < 100 ms);
- confirmation latency with 20 pages open: the time from the pieces set down to the
  referee accepting the move, without the server and then with 21 pages open
  (floor: the median grows by less than 50 ms, half a camera frame);
- idle cost: in a separate process, a board loop at 10 passes a second, first
  alone, then with the server and 20 pages open and nothing happening; the
  resident memory and CPU time the server adds (floors: < 30 MB, < 5% of a core).

    python benchmarks/web.py                 # every floor (about a minute)
    python benchmarks/web.py --moves 8       # fewer moves per phase

Needs Debian's chromium and chromium-driver. Exits 1 when a floor is missed.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import resource
import selectors
import shutil
import socket
import statistics
import subprocess
import sys
import threading
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from controller.decisions import Accepted, Decision
from controller.movegen import legal_moves
from firmware.simulation import Simulation, SimulationOptions
from firmware.web.link import BoardLink

PAGES = 20
FRAME_SECONDS = 0.1
TOKEN = "benchmark-token-0123456789"
FLOORS = {
    "page ready (s)": 1.0,
    "event to page, median (s)": 0.100,
    "confirmation latency added by 21 pages, median (s)": 0.050,
    "idle memory added (MB)": 30.0,
    "idle CPU added (% of a core)": 5.0,
}


class RealTimeBoard:
    """A simulation stepped on the real clock at the camera's rate, serving its page."""

    def __init__(self) -> None:
        self.accepted: dict[int, float] = {}
        """Move count after each accepted move -> wall time (time.time()) of the decision."""
        self.accepted_monotonic: dict[int, float] = {}
        self.simulation = Simulation(lambda event: None, SimulationOptions(hands=False),
                                     observers=[self._observe])
        self.link = BoardLink(self.simulation)
        self.lock = threading.Lock()
        self.stop = threading.Event()
        self.started = time.monotonic()
        self.thread = threading.Thread(target=self._loop, name="board", daemon=True)
        self.thread.start()
        end = time.monotonic() + 10
        while not self.simulation.referee.settled and time.monotonic() < end:
            time.sleep(0.05)  # the camera must first see the start position

    def _observe(self, decision: Decision) -> None:
        if isinstance(decision, Accepted):
            count = len(self.simulation.referee.current.moves)
            self.accepted[count] = time.time()
            self.accepted_monotonic[count] = time.monotonic()

    def _loop(self) -> None:
        simulation = self.simulation
        while not self.stop.is_set():
            begun = time.monotonic()
            with self.lock:
                simulation.t = begun - self.started
                simulation.step(simulation.frame())
                self.link.pump(simulation.t)
            self.stop.wait(max(0.0, FRAME_SECONDS - (time.monotonic() - begun)))

    def play(self, moves: int, rng: random.Random) -> list[float]:
        """Make ``moves`` random moves; the confirmation latency of each (seconds)."""
        latencies = []
        for _ in range(moves):
            with self.lock:
                referee = self.simulation.referee
                if referee.current.is_over:
                    break
                move = rng.choice(legal_moves(referee.position, referee.variant))
                count = len(referee.current.moves) + 1
                self.simulation.carry_out(move)
                placed = time.monotonic()
            end = placed + 5.0
            while count not in self.accepted_monotonic and time.monotonic() < end:
                time.sleep(0.005)
            if count not in self.accepted_monotonic:
                raise SystemExit(f"the move {move} was not accepted within 5 s")
            latencies.append(self.accepted_monotonic[count] - placed)
            time.sleep(0.3)
        return latencies

    def close(self) -> None:
        self.stop.set()
        self.thread.join(5)
        self.simulation.close()


class EventPages:
    """``count`` open event streams, read on one thread; when each saw each move count."""

    def __init__(self, port: int, count: int) -> None:
        self.selector = selectors.DefaultSelector()
        self.arrivals: list[tuple[int, float]] = []
        self.sockets = []
        for _ in range(count):
            page = socket.create_connection(("127.0.0.1", port), timeout=5)
            page.sendall(b"GET /api/events HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
            page.setblocking(False)
            self.selector.register(page, selectors.EVENT_READ, data=[b""])
            self.sockets.append(page)
        self.stop = threading.Event()
        self.thread = threading.Thread(target=self._read, name="pages", daemon=True)
        self.thread.start()

    def _read(self) -> None:
        while not self.stop.is_set():
            for key, _ in self.selector.select(0.1):
                now = time.time()
                try:
                    chunk = key.fileobj.recv(1 << 16)  # type: ignore[union-attr]
                except BlockingIOError:
                    continue
                if not chunk:
                    self.selector.unregister(key.fileobj)
                    continue
                buffer = key.data[0] + chunk
                *messages, key.data[0] = buffer.split(b"\n\n")
                for message in messages:
                    if b"event: state" in message:
                        data = message.split(b"data: ", 1)[1]
                        self.arrivals.append((len(json.loads(data)["moves"]), now))

    def close(self) -> None:
        self.stop.set()
        self.thread.join(2)
        for page in self.sockets:
            page.close()


def chromium() -> Any:
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service

    binary, driver = shutil.which("chromium"), shutil.which("chromedriver")
    if not binary or not driver:
        raise SystemExit("needs Chromium: apt-get install chromium chromium-driver")
    options = webdriver.ChromeOptions()
    options.binary_location = binary
    for argument in ("--headless=new", "--no-sandbox", "--disable-gpu", "--window-size=1000,800"):
        options.add_argument(argument)
    return webdriver.Chrome(options=options, service=Service(driver))


def page_ready(browser: Any, url: str, position: str) -> float:
    """Seconds from navigation to the board drawn with ``position`` (best of three loads)."""
    times = []
    for _ in range(3):
        browser.get("about:blank")
        browser.get(url)
        end = time.monotonic() + 10
        while time.monotonic() < end:
            ready = browser.execute_script(
                "const b = document.getElementById('board');"
                "return b && b.dataset.position === arguments[0] && document.body.dataset.ready;",
                position)
            if ready:
                times.append(float(ready) / 1000)
                break
            time.sleep(0.02)
        else:
            raise SystemExit("the page never drew the board")
    return min(times)


WATCH_MOVES = """
window.arrivals = [];
new MutationObserver(() => {
  const moves = Number(document.getElementById('board').dataset.moves);
  window.arrivals.push([moves, Date.now()]);
}).observe(document.getElementById('board-box'), {attributes: true, subtree: true,
  attributeFilter: ['data-moves']});
"""


def idle_child() -> None:
    """In its own process: memory and CPU of a board loop alone, then with the server."""
    from controller.variants import Variant
    from firmware.journal import Journal
    from tests.firmware.web_helpers import CameraFreeBoard

    folder = Path(os.environ.get("TMPDIR", "/tmp")) / f"web-bench-{os.getpid()}"
    board = CameraFreeBoard(Journal(folder / "journal.json"), Variant.STANDARD)
    link = BoardLink(board)
    pump = threading.Event()

    def loop(seconds: float) -> float:
        """Run the loop for ``seconds``; the CPU seconds the process used meanwhile."""
        before = resource.getrusage(resource.RUSAGE_SELF)
        end = time.monotonic() + seconds
        while time.monotonic() < end:
            board.tick()
            if pump.is_set():
                link.pump(board.t)
            time.sleep(FRAME_SECONDS)
        after = resource.getrusage(resource.RUSAGE_SELF)
        return (after.ru_utime + after.ru_stime) - (before.ru_utime + before.ru_stime)

    def rss_mb() -> float:
        for line in Path("/proc/self/status").read_text().splitlines():
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
        return float("nan")

    loop(2)
    assert "tornado" not in sys.modules
    alone_rss, alone_cpu = rss_mb(), loop(10)
    # Imported only now: Tornado's own memory counts as the server's.
    from firmware.web.server import WebServer

    server = WebServer(link, TOKEN, "127.0.0.1", 0)
    server.start()
    pump.set()
    print(json.dumps({"port": server.port}), flush=True)
    sys.stdin.readline()  # the parent has opened its pages
    loop(2)
    served_cpu, served_rss = loop(10), rss_mb()
    server.stop()
    print(json.dumps({"memory": served_rss - alone_rss, "cpu": (served_cpu - alone_cpu) / 10,
                      "alone_rss": alone_rss}), flush=True)


def idle_cost() -> tuple[float, float]:
    child = subprocess.Popen([sys.executable, __file__, "--idle-child"], stdin=subprocess.PIPE,
                             stdout=subprocess.PIPE, text=True)
    assert child.stdin is not None and child.stdout is not None
    port = json.loads(child.stdout.readline())["port"]
    pages = EventPages(port, PAGES)
    time.sleep(0.5)
    child.stdin.write("go\n")
    child.stdin.flush()
    result = json.loads(child.stdout.readline())
    pages.close()
    child.wait(10)
    return result["memory"], 100 * result["cpu"]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--moves", type=int, default=12, help="moves per phase (default 12)")
    parser.add_argument("--idle-child", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.idle_child:
        idle_child()
        return 0
    from firmware.web.server import WebServer

    rng = random.Random(17)
    figures: dict[str, float] = {}

    board = RealTimeBoard()
    try:
        alone = board.play(args.moves, rng)
        server = WebServer(board.link, TOKEN, "127.0.0.1", 0)
        server.start()
        browser = chromium()
        try:
            with board.lock:
                position = board.simulation.referee.position.board_string()
            figures["page ready (s)"] = page_ready(browser, server.url, position)
            browser.execute_script(WATCH_MOVES)
            pages = EventPages(server.port, PAGES)
            time.sleep(0.5)
            first = len(board.accepted)
            served = board.play(args.moves, rng)
            time.sleep(0.5)
            pages.close()
            arrivals = browser.execute_script("return window.arrivals;")
        finally:
            browser.quit()
            server.stop()
    finally:
        board.close()
    delays = []
    for count, accepted in board.accepted.items():
        if count <= first:
            continue
        drawn = [t for moves, t in arrivals if moves == count]
        if drawn:
            delays.append(min(drawn) / 1000 - accepted)
        delays.extend(t - accepted for moves, t in pages.arrivals if moves == count)
    if not delays:
        raise SystemExit("no state reached the pages")
    figures["event to page, median (s)"] = statistics.median(delays)
    print(f"event to page: {len(delays)} arrivals, median {1000 * statistics.median(delays):.1f} "
          f"ms, max {1000 * max(delays):.1f} ms")
    print(f"confirmation latency: alone median {statistics.median(alone):.3f} s, "
          f"with {PAGES + 1} pages {statistics.median(served):.3f} s")
    figures["confirmation latency added by 21 pages, median (s)"] = max(
        0.0, statistics.median(served) - statistics.median(alone))
    memory, cpu = idle_cost()
    figures["idle memory added (MB)"] = memory
    figures["idle CPU added (% of a core)"] = cpu

    missed = 0
    for name, value in figures.items():
        floor = FLOORS[name]
        ok = value < floor
        missed += not ok
        print(f"{name:52} {value:8.3f}  floor < {floor:g}  {'ok' if ok else 'MISSED'}")
    return 1 if missed else 0


if __name__ == "__main__":
    sys.exit(main())
