"""The C allocator's settings: a camera-sized buffer, once freed, is given back."""

from __future__ import annotations

import platform
import struct
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]

# Run in a process of its own: the settings are the whole process's.
MAPPED_BYTES = """
import ctypes, sys
from firmware.memory import settle_allocator

class Info(ctypes.Structure):
    _fields_ = [(name, ctypes.c_size_t) for name in (
        "arena ordblks smblks hblks hblkhd usmblks fsmblks uordblks fordblks keepcost".split())]

libc = ctypes.CDLL(None)
libc.mallinfo2.restype = Info
libc.malloc.restype = ctypes.c_void_p
libc.malloc.argtypes = (ctypes.c_size_t,)
libc.free.argtypes = (ctypes.c_void_p,)
if sys.argv[1] == "settled":
    assert settle_allocator()
# A larger buffer of an earlier frame, freed.
libc.free(libc.malloc(1_500_000))
before = libc.mallinfo2().hblkhd
frame = libc.malloc(1_200_000)
print(libc.mallinfo2().hblkhd - before)
"""


def _mapped(mode: str) -> int:
    result = subprocess.run([sys.executable, "-c", MAPPED_BYTES, mode], cwd=ROOT,
                            capture_output=True, text=True, check=True)
    return int(result.stdout)


GLIBC = platform.libc_ver()[0] == "glibc"


@pytest.mark.skipif(not GLIBC, reason="glibc's allocator only")
def test_a_frame_sized_buffer_has_pages_of_its_own_after_larger_ones_were_freed() -> None:
    assert _mapped("settled") >= 1_200_000


@pytest.mark.skipif(not GLIBC or struct.calcsize("P") < 8,
                    reason="a 32-bit glibc's own threshold stops at 512 KB, below a frame")
def test_unsettled_a_frame_sized_buffer_lands_in_a_heap() -> None:
    # Why the setting is needed on a 64-bit Pi: glibc's own threshold follows the largest
    # freed block, so the buffer lands in a heap, where its pages stay resident after it
    # is freed.
    assert _mapped("plain") == 0
