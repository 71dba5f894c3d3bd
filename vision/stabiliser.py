"""The stabiliser: hands a board on only once it has held still, confidently, for a while.

A player's hand leaves the board in stages and a piece being put down is briefly
half-seen; the controller must see none of that. The stabiliser is fed every frame
reading with its time (the caller owns the clock: this module never reads one) and
returns a ``BoardReading`` only when the same confident reading has been seen in every
frame for ``hold_seconds``. Any frame that is not OK restarts the wait. A board is
handed on once; the same board is not repeated until a different one has been
handed on in between (a hand that passes over the board and leaves it unchanged
produces nothing).

A doubtful frame (a point or two the colours leave unsure, on clear paper) counts as
the one board the game expects next that it fits, when it is given the boards the game
expects (see ``FrameReading.fitting``): a glossy top mirroring a lamp, read unsure in
every frame, would otherwise hold the game up for as long as it lies there.
"""

from __future__ import annotations

from collections.abc import Collection

from controller.reading import BoardReading
from vision.reader import FrameReading

DEFAULT_HOLD_SECONDS = 0.3


class Stabiliser:
    """Turns a stream of frame readings into a stream of stable boards."""

    def __init__(self, hold_seconds: float = DEFAULT_HOLD_SECONDS) -> None:
        if hold_seconds < 0:
            raise ValueError(f"hold time must not be negative: {hold_seconds!r}")
        self.hold_seconds = hold_seconds
        self._candidate: BoardReading | None = None
        self._since = 0.0
        self._last_time: float | None = None
        self.stable: BoardReading | None = None
        """The last board handed on, or None before the first."""

    def feed(self, time_seconds: float, frame: FrameReading,
             expected: Collection[BoardReading] = ()) -> BoardReading | None:
        """Take one frame read at ``time_seconds``; the board when it has just become stable.

        ``expected`` are the boards the game may show next (the position as it stands,
        and after each legal move): a doubtful frame that fits exactly one of them counts
        as that board.
        """
        if self._last_time is not None and time_seconds < self._last_time:
            raise ValueError(f"time went backwards: {time_seconds!r} < {self._last_time!r}")
        self._last_time = time_seconds
        board = frame.reading if frame.is_ok else frame.fitting(expected)
        if board is None:
            self._candidate = None
            return None
        if board != self._candidate:
            self._candidate = board
            self._since = time_seconds
        if time_seconds - self._since < self.hold_seconds or self._candidate == self.stable:
            return None
        self.stable = self._candidate
        return self.stable

    def reset(self) -> None:
        """Forget everything (e.g. after the camera was reopened)."""
        self._candidate = None
        self._last_time = None
        self.stable = None
