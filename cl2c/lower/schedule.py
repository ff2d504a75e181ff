"""Choosing how the work-items of a group run (the work-group schedule).

``loops``: one C loop over the work-items of a group, which the compiler
vectorises; right for every kernel without barriers. ``regions`` (loop
fission at barriers) and ``fibers`` (a stack per work-item) come with
barrier support.
"""
from __future__ import annotations

from ..diagnostics import BuildError, Diagnostic
from ..sema import FunctionInfo

IMPLEMENTED = ("loops",)


def choose_schedule(f: FunctionInfo, forced: str) -> tuple[str, str]:
    """(schedule, why) for kernel ``f``."""
    if forced not in ("auto", "loops"):
        raise BuildError([Diagnostic("error", f"kernel '{f.name}': the '{forced}' schedule is "
                                              f"not supported yet")])
    if forced == "loops":
        return "loops", "forced by -cl2c-schedule=loops"
    return "loops", "the kernel has no barriers: one vectorisable loop over the work-items"
