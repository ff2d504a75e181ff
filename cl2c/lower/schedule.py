"""Choosing how the work-items of a group run (the work-group schedule).

``loops``: one C loop over the work-items of a group, which the compiler
vectorises; right for every kernel without barriers.
``regions``: the kernel becomes a work-group function cut at its barriers,
each region a loop over the work-items (lower/regions.py); for kernels whose
barriers sit at statement level of the body and of uniform loops and ifs.
``fibers``: each work-item runs on a stack of its own and a barrier switches
to the next; works wherever the spec allows a barrier, and is the slowest.
"""
from __future__ import annotations

from ..diagnostics import BuildError, Diagnostic
from ..sema import FunctionInfo


def choose_schedule(f: FunctionInfo, forced: str, check_barriers: bool = False) \
        -> tuple[str, str]:
    """(schedule, why) for kernel ``f``; "regions" may still fall back to fibers."""
    if check_barriers and f.sync:
        return "fibers", "barrier checking (-cl2c-check-barriers) runs on fibers"
    if forced == "loops":
        if f.sync:
            raise BuildError([Diagnostic("error", f"kernel '{f.name}' has barriers: the "
                                                  f"'loops' schedule cannot run it")])
        return "loops", "forced by -cl2c-schedule=loops"
    if forced in ("regions", "fibers"):
        return forced, f"forced by -cl2c-schedule={forced}"
    if f.sync:
        return "regions", "barriers at statement level: loops over the work-items between them"
    return "loops", "the kernel has no barriers: one vectorisable loop over the work-items"
