"""Checking builds keep a shadow of each buffer between launches (check.h: zeroing a new
one for every launch would cost more than most kernels), each program its own. A
process that checks many programs (PyOpenCL makes one for each elementwise kernel)
would keep every one's, to the point of running out of memory; so the shadows that no
launch holds are kept within a budget over all programs, the least recently launched
program's freed first (its next launch makes new ones). The platform library does the
same in C (clruntime/platform/shadows.c)."""
from __future__ import annotations

import os
import threading
from collections import OrderedDict


def _physical_bytes() -> int:
    try:
        return os.sysconf("SC_PHYS_PAGES") * os.sysconf("SC_PAGE_SIZE")
    except (ValueError, OSError, AttributeError):
        return 8 << 30


def _budget() -> int:
    """CL2C_CHECK_SHADOWS_MB, else a quarter of the machine's memory (at least 256 MiB)."""
    asked = os.environ.get("CL2C_CHECK_SHADOWS_MB", "")
    if asked.strip().isdigit():
        return int(asked) << 20
    return max(256 << 20, _physical_bytes() // 4)


# the idle shadows' bytes kept, over all programs
BUDGET = _budget()

_lock = threading.Lock()
_idle: OrderedDict = OrderedDict()    # library -> its idle shadows' bytes, LRU first
_total = 0                            # their sum


def after_launch(lib) -> None:
    """After a checking launch of the program whose library is ``lib``: its idle shadows
    counted, and the least recently launched programs' freed while over the budget."""
    if not hasattr(lib, "cl2c_loader_check_idle_bytes"):
        return                  # a library from before the budget
    global _total
    idle = lib.cl2c_loader_check_idle_bytes()
    with _lock:
        _total += idle - _idle.pop(lib, 0)
        _idle[lib] = idle
        while _total > BUDGET and _idle:
            oldest, bytes_ = _idle.popitem(last=False)
            oldest.cl2c_loader_check_trim()
            _total -= bytes_
