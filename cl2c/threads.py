"""Threads cl2c did not create keep their CPU affinity."""
from __future__ import annotations

import contextlib
import os


@contextlib.contextmanager
def affinity_kept():
    """The calling thread's CPU affinity as it was: libgomp, loaded with the first
    module, binds the thread that loads it when OMP_PROC_BIND asks, and every thread
    the program starts later would inherit that binding (issue 10: cl2c never changes
    the affinity of threads it did not create)."""
    get = getattr(os, "sched_getaffinity", None)
    mask = get(0) if get is not None else None
    try:
        yield
    finally:
        if mask is not None and os.sched_getaffinity(0) != mask:
            os.sched_setaffinity(0, mask)
