"""Checking builds (-cl2c-check): the instrumentation of the lowered tree, and what the
schedules ask of it.

``instrument`` runs once, on the C tree that lowering leaves, before the schedules copy
its functions into work-group functions:

- ``accesses.py``: every access to __global, __constant and __local memory goes through
  the runtime's check (clruntime check.h), every array index and integer divisor too,
  and the coordinates of image writes and of reads no sampler addresses;
  ``ranges.py`` finds once, at a function's top, the ranges that are the same at every
  access; ``private_bounds.py`` registers the private variables a pointer may reach;
- ``sync_points.py``: barriers' fences (which memory each orders); async copies
  reached by some work-items of a group and not others, their events never waited
  for, waits for events no copy returned;
- ``private_init.py``: reads of uninitialized private variables, where
  ``definite_assignment.py`` cannot prove a write first;
- ``sites.py``: the place in the .cl file of each check.

The schedules then ask ``is_check_state`` (the declarations ``instrument`` put at a
function's top) and run ``quiet_local_reads`` (``phases.py``) on the regions schedule's
work-group function. This package imports nothing from ``lower/``: lowering calls it.
"""
from __future__ import annotations

from ..sema import Module
from . import accesses, private_init, sync_points
from .accesses import is_check_state, is_thread_state
from .phases import loud_local_atomics, loud_local_reads, quiet_local_reads
from .sites import Sites


def instrument(module: Module, local_types: dict,
               sites: Sites | None = None) -> tuple[Module, Sites]:
    """The checks into every function of ``module``, and their sites (added to
    ``sites``, where given). ``local_types``: the types of each kernel's __local variables
    (now fields of cl2c_locals), {kernel: {name: type}}."""
    sites = Sites() if sites is None else sites
    module = accesses.instrument(module, local_types, sites)
    module = sync_points.instrument(module, sites)
    # uninitialized private variables: their flags are privates the schedules carry
    module = private_init.instrument(module, sites)
    return module, sites


__all__ = ["instrument", "Sites", "is_check_state", "is_thread_state", "quiet_local_reads",
           "loud_local_atomics", "loud_local_reads"]
