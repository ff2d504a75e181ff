"""The launch plan: how a kernel's launches run, as lowering decided it, for emission.

Lowering makes one ``LaunchPlan`` per kernel, once, after its schedule and the passes
have decided (``lower.lower``), from the values they return; nothing changes it after
(it is frozen). Emission (``emit/render.py`` and the templates) reads it and decides
nothing about the launch itself: the contract between the two stages. What the build's
options ask of every launch comes in as ``LaunchOptions``.

A leaf module (data only): it imports no stage.
"""
from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class LaunchOptions:
    """The build options that shape every kernel's launch (``options.Options``)."""
    schedule: str = "auto"         # -cl2c-schedule=: a name of schedules.SCHEDULES, or auto
    check: str = ""                # -cl2c-check: "stop" or "collect"; "" off
    check_barriers: bool = False   # -cl2c-check-barriers: fibers report divergence
    fiber_stack: int = 0           # -cl2c-fiber-stack=: bytes a fiber; 0: the runtime's
    poison_locals: bool = False    # -cl2c-sanitize=address: red zones after __local memory
    uniform_groups: bool = True    # every group of a launch has the local size (1.x);
                                   # 2.0's last groups may be smaller, reqd or not


@dataclass(frozen=True)
class Regroup:
    """How cl2c cuts the range into groups of its own (cl2c_regroup, regions.h), for a
    kernel that cannot tell its work-groups apart (but through ``own_locals``)."""
    tile_rows: int = 0             # rows of work-items a register tile takes
                                   # (workgroup/passes/tiling.py): the rows of a group; 0: no tiles
    tile_cols: str = "0"           # and the work-items of a row, a C constant
    own_locals: tuple = ()         # the __local arrays through which alone it could
                                   # (each work-item its own elements: lower/own_locals.py)
    streams: bool = False          # uniform loops run its groups' rows every step (no
                                   # tiles): pieces of a row as long as threads allow


# the values of a long long, which the entry computes live bounds in (less its least)
LLONG_RANGE = (-(1 << 63) + 1, (1 << 63) - 1)


@dataclass(frozen=True)
class LiveBound:
    """A bound of a kernel's guard (workgroup/live_groups.py): the work-items whose value
    ``x`` of the guard is at or past ``limit`` (past it, where ``inclusive``) go home
    before they do anything. x is the global id of dimension ``dim`` (less the offset,
    where ``relative``) plus ``shift`` (minus, where ``negate``; None: 0), as long as the
    id stays in ``id_range`` and x in ``x_range`` (the ranges of the C types each passes
    through and is compared in, which wrap); ``limit_nonneg``: the limit converts
    unchanged to the comparison's type only when it is not negative. ``limit`` and
    ``shift`` are C expressions (nodes) of the kernel's by-value arguments, of signed
    types where ``limit_signed``, ``shift_signed``."""
    dim: int
    limit: object
    inclusive: bool = False
    shift: object = None
    negate: bool = False
    relative: bool = False
    id_range: tuple = LLONG_RANGE
    x_range: tuple = LLONG_RANGE
    limit_nonneg: bool = False
    limit_signed: bool = True
    shift_signed: bool = True


@dataclass(frozen=True)
class LoopLaunch:
    """A launch that runs the kernel's last loop as dimension 1 of the range, where the
    entry finds it may (workgroup/loop_dimension.py): the work-group functions of the
    kernel so written, and what the entry checks first."""
    var: str                       # the loop's counter
    count: int                     # its iterations: the range's width in dimension 1
    group_functions: tuple         # the work-group functions (FuncDefs), the entry's first
    transposed: bool               # they run its dimensions 0 and 1 exchanged (dimensions.py)
    regroup: Regroup               # how cl2c cuts that range into groups
    spans: tuple                   # loop_dimension.Spans of the pointer arguments' accesses
    fits: tuple                    # ...of the indices' subexpressions (an int's range)
    apart: tuple                   # (argument, argument) whose elements must not meet
    reason: str                    # what its schedule did


@dataclass(frozen=True)
class LaunchPlan:
    """One kernel's launch: its schedule, its work-group functions and how its entry
    hands out the groups."""
    schedule: object               # its entry of workgroup/schedules.py's registry (a
                                   # Schedule: not imported, the registry imports passes)
    reason: str                    # why that schedule, and what its passes did (the
                                   # file's header comment)
    group_functions: tuple = ()    # its work-group functions (FuncDefs), the entry's
                                   # first; none for fibers (they run the kernel itself)
    item_function: bool = True     # the work-item function is emitted: a schedule runs
                                   # it, or another kernel calls it
    interleaved_function: object = None  # the loops schedule's FuncDef of several
                                   # work-items at once (workgroup/passes/interleaving.py), or None
    dynamic: bool = False          # threads take groups as they finish (groups of
                                   # unequal cost: the schedule's, or divergent loops)
    regroup: Regroup | None = None  # cl2c cuts the range into groups its own way:
                                   # the kernel cannot tell them apart; None: the host's
    serial_items: int = 0          # launches of at most this many work-items run on
                                   # the calling thread (launch_work.py); 0: none
    check: str = ""                # checking mode: "stop", "collect" or "" (off)
    fiber_checks: bool = False     # fibers check barriers (and checked accesses)
    fiber_stack: int = 0           # bytes a fiber's stack; 0: the runtime's default
    poison_locals: bool = False    # red zones after each __local region (ASan)
    transposed: bool = False       # the group functions run the kernel with its
                                   # dimensions 0 and 1 exchanged, and the entry the
                                   # range so (dimensions.py)
    live: tuple = ()               # LiveBounds of its guard (live_groups.py): the entry
                                   # skips the groups with no live work-item
    loop: LoopLaunch | None = None  # its last loop as a dimension, where the launch
                                   # allows (loop_dimension.py)

    def functions(self) -> list:
        """Every function the plan has the C run the kernel's groups with: its work-group
        functions, its loop dimension's, its interleaved work-item function."""
        return list(self.group_functions) + \
            (list(self.loop.group_functions) if self.loop is not None else []) + \
            ([self.interleaved_function] if self.interleaved_function is not None else [])
