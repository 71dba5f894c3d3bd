"""The C allocator's settings for a board that runs for months.

glibc's ``malloc`` hands out blocks above a threshold as their own mapped pages,
returned to the system when freed, and smaller ones from its heaps. Out of the box
the threshold follows the largest mapped block freed so far: after the first few
frames (a 640x480 frame is 0.9 MB, its float copies several MB) every camera buffer
is carved out of a heap, in between Python's small objects that live for hours. A
buffer's pages freed there stay resident while a small object above them lives, and
the heaps of a playing board held about 20 MB of freed memory after minutes, and
grew (``benchmarks/soak.py --main-loop``).

A fixed threshold keeps the camera's buffers out of the heaps, and two arenas (one
for the loop, one for the engine's thread) keep each new thread from starting heaps
of its own. Elsewhere than glibc nothing changes.
"""

from __future__ import annotations

import ctypes
import logging
import platform

log = logging.getLogger(__name__)

MMAP_THRESHOLD = 1 << 20
"""Blocks of this many bytes or more get pages of their own (glibc's M_MMAP_THRESHOLD).

Every buffer larger than a frame. A frame and smaller temporaries stay in the heaps:
they come back at the same sizes every read and reuse the same space, and mapping them
afresh each time costs the read (measured: a threshold of 128 KB or 512 KB made a read
5 to 7% slower, 1 MB no slower than glibc's own choice)."""

ARENAS = 2
"""At most this many heaps (glibc's M_ARENA_MAX; its default is eight per core)."""

_M_MMAP_THRESHOLD = -3
_M_ARENA_MAX = -8
"""glibc's parameter numbers for ``mallopt`` (malloc.h)."""


def settle_allocator() -> bool:
    """Fix glibc's allocator for a long run; False (and nothing done) on another C library.

    Call it early in a process that runs the board: blocks allocated before stay where
    they are.
    """
    if platform.libc_ver()[0] != "glibc":
        log.debug("not glibc: the C allocator keeps its own settings")
        return False
    mallopt = ctypes.CDLL(None).mallopt  # glibc is loaded in every process it serves
    mallopt.argtypes = (ctypes.c_int, ctypes.c_int)
    mallopt.restype = ctypes.c_int
    # mallopt answers 1 when it took the setting.
    return bool(mallopt(_M_MMAP_THRESHOLD, MMAP_THRESHOLD)) and bool(mallopt(_M_ARENA_MAX, ARENAS))
