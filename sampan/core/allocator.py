"""Tune glibc's allocator for NumPy-sized temporaries (called once at import).

By default glibc serves every block over 128 KiB with a fresh mmap and returns it on
free, so each large kernel temporary costs one page fault per 4 KiB page when first
written: about 50,000 faults for 60 LeNet steps. Raising the mmap and trim thresholds
lets freed blocks be reused from the heap (about 9,000 faults, 10-20% less time per
step). Set SAMPAN_NO_MALLOPT=1 to keep the system defaults.
"""
import ctypes
import os
import sys

__all__ = ["tune_allocator"]

_M_TRIM_THRESHOLD = -1
_M_MMAP_THRESHOLD = -3
_MMAP_THRESHOLD = 64 << 20
_TRIM_THRESHOLD = 128 << 20


def tune_allocator():
    """Raise glibc's mmap/trim thresholds; True when applied (Linux with glibc only)."""
    if os.environ.get("SAMPAN_NO_MALLOPT") or not sys.platform.startswith("linux"):
        return False
    try:  # the process's own symbols hold glibc's (ctypes.util would cost 10 ms of imports)
        mallopt = ctypes.CDLL(None).mallopt
    except (OSError, AttributeError):
        return False
    mallopt.argtypes = (ctypes.c_int, ctypes.c_int)
    return bool(mallopt(_M_MMAP_THRESHOLD, _MMAP_THRESHOLD)
                and mallopt(_M_TRIM_THRESHOLD, _TRIM_THRESHOLD))
