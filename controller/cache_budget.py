"""One memory budget shared by the move generator's and the engine's look-up tables.

The tables keep what was computed for a circuit occupancy or a position, to look it up
again (trips, reach, scores). Each used to be capped on its own and to start afresh when
full, each at its own moment: the freed room went to whichever table grew next, so the
process's memory followed the largest total the tables had ever held together, and that
rose by steps for as long as they took to be full at the same time, hours on a board
playing both sizes (``benchmarks/soak.py --main-loop``).

Under one budget their total is bounded, and the bound is reached within minutes of
play: when an entry would overspend it, every table drops its older half (a dict keeps
the order entries came in), so the entries the running search uses stay.
"""

from __future__ import annotations

import threading
from itertools import islice
from typing import Any

BUDGET_BYTES = 16 * 1024 * 1024
"""What the tables may hold together. A board playing both sizes, with and against the
computer, reaches it in about ten minutes (``benchmarks/soak.py --main-loop`` shows
it in each sample); perft and searches to a depth take the same processor time as
with each table capped at 10,000 entries as before (``benchmarks/perft.py``,
``benchmarks/strength.py --no-matches``)."""


class CacheBudget:
    """A byte budget for dicts used as caches; each entry is counted at a fixed size."""

    def __init__(self, limit: int) -> None:
        self.limit = limit
        self.used = 0
        """Bytes the entries take, as counted (set exactly at each halving)."""
        self._tables: list[tuple[dict[Any, Any], int]] = []
        self._halving = threading.Lock()

    def register(self, table: dict[Any, Any], entry_bytes: int) -> None:
        """Put ``table`` under the budget; each of its entries takes about ``entry_bytes``.

        The budget keeps the table for good: register the tables of objects that live as
        long as the process (the shared, cached ones), not one per search.
        """
        self._tables.append((table, entry_bytes))
        self.used += len(table) * entry_bytes

    def charge(self, entry_bytes: int) -> None:
        """Count an entry just added (``entry_bytes``); halve every table when overspent."""
        self.used += entry_bytes
        if self.used > self.limit:
            self._halve()

    def _halve(self) -> None:
        # The engine's thread and the loop's share the tables: one halving at a time.
        with self._halving:
            # Another thread may just have halved (then nothing is left to do); a lowered
            # limit may need more than one halving.
            while self.used > self.limit and self.used > 0:
                used = 0
                for table, entry_bytes in self._tables:
                    # Each call runs in C without giving up the interpreter lock: no other
                    # thread changes the dict while the newer half is read (an entry added
                    # between two calls may be lost: it is only a cache).
                    newer = dict(islice(table.items(), (len(table) + 1) // 2, None))
                    table.clear()
                    table.update(newer)
                    used += len(table) * entry_bytes
                self.used = used


BUDGET = CacheBudget(BUDGET_BYTES)
"""The budget of every table of the move generator and the engine."""
