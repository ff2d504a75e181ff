"""The work-group schedules: how the work-items of one group run.

Each schedule is an entry of ``SCHEDULES`` with its name, whether it can run a kernel
(``refusal``), its preparation of the kernel (``prepare``) and its work-group functions
(``group_functions``), its template (``templates/schedule_<name>.c.j2``) and the runtime
header it needs. ``choose`` is the one policy: what ``-cl2c-schedule=auto`` picks, and
what happens when a schedule turns out not to fit; it returns a ``Choice``, from which
lowering makes the kernel's launch plan (workgroup/launch_plan.py). Options, the CLI,
templates and metadata read the registry; a new schedule is a class here, its template
and its header.
"""
from __future__ import annotations

import copy
from dataclasses import dataclass

from pycparser import c_ast

from ..diagnostics import BuildError, Diagnostic
from ..sema import FunctionInfo, Module
from ..typed_ast import fact, walk
from ..lower.effects import builtin_name, constant_dimension, work_item_function
from .passes.check_versions import version_checked_loops
from .passes.counters import COPIES, split_local_counters
from .passes.lockstep import lockstep_divergent_loops
from .passes.prefetch import prefetch_group_rows
from .passes.tiling import ROWS, tile_uniform_loops
from .passes.unrolling import unroll_halving_loops
from .builders import Description, NeedFibers, make_group_function
from . import write
from .launch_plan import LaunchOptions
from .builders.loops import group_functions as item_loop_functions, image_format_of
from .builders.image_twins import accesses_in_lanes, format_twins
from .ir import work_item_loops
from .strides import scattered_stores

AUTO = "auto"


class Schedule:
    name = ""
    summary = ""
    header: str | None = None      # runtime header the emitted file includes for it
    dynamic = False                # groups may take very unequal times: OpenMP hands
                                   # them out dynamically
    regroups = True                # may cut a group-blind kernel's range its own way
    calls_item_function = False    # its work-group function calls the work-item
                                   # function (which an interleaved twin may join)
    own_stacks = False             # work-items run on stacks of their own (a fault
                                   # leaves them; checking sees each work-item apart)

    @property
    def template(self) -> str:
        return f"schedule_{self.name}.c.j2"

    def refusal(self, f: FunctionInfo) -> str | None:
        """Why this schedule cannot run kernel ``f`` (the whole message), or None."""
        return None

    def prepare(self, k, module: Module, options: LaunchOptions,
                interleaving=None) -> Description | None:
        """Build the work-group function of kernel model ``k`` under the build's
        ``options`` (``interleaving``: interleaving.interleavable's); returns what it
        made and did (its str a note for the file's header comment), or raises
        NeedFibers when the kernel does not fit."""
        return None

    def group_functions(self, k, prepared: tuple, options: LaunchOptions,
                        interleaving=None, interleaved=None) -> tuple:
        """Kernel model ``k``'s work-group functions (FuncDefs), the entry's first: those
        ``prepare`` wrote (``prepared``). ``interleaved``: its interleaved function
        (interleaving.py, running ``interleaving.ways`` work-items at once) or None."""
        return prepared

    def group_comment(self, kernel: str, function: str) -> str:
        """The comment above ``function``, one of ``kernel``'s work-group functions."""
        return f"/* Kernel {kernel}'s work-group function ({self.name} schedule). */"

    def __str__(self) -> str:
        return self.name


class Loops(Schedule):
    name = "loops"
    summary = "one vectorisable loop over the work-items of a group (no barriers)"
    calls_item_function = True

    def refusal(self, f):
        return f"kernel '{f.name}' has barriers: the 'loops' schedule cannot run it" \
            if f.sync else None

    def group_functions(self, k, prepared, options, interleaving=None, interleaved=None):
        """One work-item loop calling the work-item function (workgroup/builders/loops.py), made
        once the interleaved function is known."""
        return item_loop_functions(k, options.check, interleaving, interleaved)

    def group_comment(self, kernel, function):
        fmt = image_format_of(function)
        if fmt:
            return (f"/* The same for images all of {fmt}, a common format: on copies "
                    f"of their\n * descriptors that say so as constants, so that reads "
                    f"and writes test no format\n * (images.h). */")
        return (f"/* Kernel {kernel}'s work-items of one group. A function of its own, out "
                f"of line: in\n * the function that holds the thread's setjmp (faults.h) "
                f"GCC 13 inlines no helper, and a\n * loop that calls one does not "
                f"vectorise. */")


class Regions(Schedule):
    name = "regions"
    summary = "the kernel cut at its barriers, each region a loop over the work-items"
    header = "cl2c/regions.h"

    def group_comment(self, kernel, function):
        fmt = image_format_of(function)
        if fmt:
            return (f"/* The same for images all of {fmt}, a common format: on copies "
                    f"of their\n * descriptors that say so as constants, so that reads "
                    f"and writes test no format\n * (images.h). */")
        return (f"/* Kernel {kernel} as a work-group function (regions schedule): the "
                f"code between\n * barriers runs as loops over the work-items of the "
                f"group. */")

    def prepare(self, k, module, options, interleaving=None):
        """The work-group function of ``k`` (a copy: the work-item function stays for
        kernels that call it)."""
        node = copy.deepcopy(k.info.node)
        name = f"{k.name}__group"
        node.decl.name = name
        node.decl.type.type.declname = name
        helpers = {n: f.node for n, f in module.functions.items()
                   if not f.is_kernel or n != k.name}
        params = {p.name: p for p in node.decl.type.args.params
                  if isinstance(p, c_ast.Decl) and p.name}
        checking = bool(options.check)
        state = []
        if checking:
            # the group function has the checks' thread state once, at its top (writer),
            # and the arguments' ranges after it
            from ..checking import is_check_state, is_thread_state
            state = [s for s in node.body.block_items or []
                     if is_check_state(s) and not is_thread_state(s)]
            node.body.block_items = [s for s in node.body.block_items or []
                                     if not is_check_state(s)]
        # checking: omp simd loops where check_versions.py gives them a fast version
        # (it drops the others' pragma); lock-step loops only in barrier-free kernels
        simd = k.simd
        # a reqd_work_group_size is every group's size only where groups are uniform,
        # and where cl2c does not cut the range its own way (a group-blind kernel's
        # groups are cl2c_regroup's, whatever size the kernel requires of the launch)
        reqd = k.reqd_work_group_size \
            if options.uniform_groups and not (k.regroupable and self.regroups) else None
        what = make_group_function(node, params, helpers, reqd,
                                   simd, hoist_loops=True, checking=checking,
                                   interleavable=interleaving)
        gf = what.function
        what.scattered = scattered_stores(gf.items)
        if state:
            at = next(i for i, s in enumerate(gf.prologue) if is_thread_state(s)) + 1
            gf.prologue[at:at] = state
        # the passes on the work-group function as data
        if checking:
            from ..checking import quiet_local_reads
            quiet_local_reads(gf)
        # then divergent loops in its work-item loops run in lock-step, if-converted
        what.lockstep = lockstep_divergent_loops(gf) \
            if simd and not (checking and k.info.sync) else 0
        if what.lockstep:
            what.add(f"{what.lockstep} divergent loop{'s' if what.lockstep != 1 else ''} "
                     f"in lock-step across work-items")
        # halving loops of a known local size have known trip counts: unrolled
        unrolled = unroll_halving_loops(gf) if reqd is not None and not checking else 0
        if checking:
            # checked work-item loops that a test before them can settle run unchecked
            # (as the normal build's: omp simd where those are)
            what.versioned = version_checked_loops(gf, helpers, scalar=not simd)
            if what.versioned:
                what.add(f"{what.versioned} checked loop{'s' if what.versioned != 1 else ''} "
                         f"with a fast version")
            what.unchecked = sum(1 for loop in work_item_loops(gf.items)
                                 if loop.simd and not loop.checked)
        # uniform loops around a work-item loop run a register tile at a time
        # (in checking builds, where groups are whole tiles: a known size, or cl2c's
        # own; the tiles of other groups would index a kernel's __local arrays as no
        # valid launch does, and GCC warns that such a path is undefined)
        # (of one row with __local arrays each work-item has its own elements of: in a
        # group of several rows, work-items of one column would meet there)
        tiled = k.simd and (not checking or reqd is not None or k.group_blind)
        tiles = tile_uniform_loops(gf, reqd, _one_dimensional(k.info.node.body) or
                                   bool(k.own_locals)) \
            if tiled else []
        # __local counters that a statement only adds to: counted in copies
        split = split_local_counters(gf, _local_types(k)) if not checking else []
        # the rows' work-item loops ask for the next groups' runs of their arrays (a
        # kernel of one dimension has groups of one row, as a rule)
        prefetching = prefetch_group_rows(gf) if simd and \
            not _one_dimensional(k.info.node.body) else 0
        # and the one writer prints it
        node = write.group_function(gf)
        what.tile_rows = ROWS if any(r > 1 for r in tiles) else 0
        what.streams = bool(what.loops) and not tiles
        if tiles:
            what.add(f"{len(tiles)} loop{'s' if len(tiles) != 1 else ''} in register tiles "
                     f"of work-items")
        if unrolled:
            what.add(f"{unrolled} halving loop{'s' if unrolled != 1 else ''} unrolled")
        if prefetching:
            what.add(f"{prefetching} loop{'s' if prefetching != 1 else ''} of rows "
                     f"prefetching the next groups' runs")
        if split:
            what.add(f"__local counters {', '.join(sorted(set(split)))} counted in "
                     f"{COPIES} copies")
        what.written = node
        # a twin of it per common image format, where the kernel takes images
        what.twins, converted = format_twins(
            node, [a.name for a in k.args if a.kind == "image"], accesses_in_lanes(gf))
        if converted:
            what.add(f"{converted} conversion{'s' if converted != 1 else ''} of an 8-bit "
                     f"channel times 255 to its byte, in the 8-bit twins")
        return what


class Fibers(Schedule):
    name = "fibers"
    summary = "a stack per work-item, a barrier switches to the next (any kernel)"
    header = "cl2c/fiber.h"
    dynamic = True
    regroups = False               # a fiber stack per work-item: groups stay small
    own_stacks = True


SCHEDULES = {s.name: s for s in (Loops(), Regions(), Fibers())}
LOOPS, REGIONS, FIBERS = SCHEDULES["loops"], SCHEDULES["regions"], SCHEDULES["fibers"]


def names() -> tuple[str, ...]:
    """What -cl2c-schedule= and the CLI's --schedule accept."""
    return (AUTO,) + tuple(SCHEDULES)


@dataclass(frozen=True)
class Choice:
    """What ``choose`` decided for one kernel: the schedule, why, and what its
    preparation made (the loops schedule's functions come after: lower.lower)."""
    schedule: Schedule
    reason: str
    group_functions: tuple = ()    # the written work-group functions (FuncDefs)
    uneven: bool = False           # divergent loops in lock-step: groups of unequal cost
    tile_rows: int = 0             # rows of work-items a register tile takes (tiling.py)
    streams: bool = False          # its uniform loops run the group's rows every step
                                   # (the regions schedule's Description.streams)


def choose(k, module: Module, options: LaunchOptions = LaunchOptions(),
           interleaving=None) -> Choice:
    """The schedule of kernel model ``k`` under the build's ``options``, the reason, and
    the schedule's preparation."""
    f = k.info
    forced = options.schedule
    if options.check_barriers and f.sync:
        return _take(k, module, FIBERS,
                     "barrier checking (-cl2c-check-barriers) runs on fibers", options)
    if forced != AUTO:
        schedule = SCHEDULES[forced]
        why = schedule.refusal(f)
        if why is not None:
            raise _error(why)
        try:
            return _take(k, module, schedule, f"forced by -cl2c-schedule={forced}", options,
                         interleaving)
        except NeedFibers as e:
            raise _error(f"kernel '{k.name}': the '{forced}' schedule cannot run it: {e}") \
                from None
    if f.sync:
        try:
            return _take(k, module, REGIONS,
                         "barriers at statement level: loops over the work-items between "
                         "them", options, interleaving)
        except NeedFibers as e:
            return _take(k, module, FIBERS, f"{e}: one fiber per work-item", options)
    def loops() -> Choice:      # built only where the work-group function does not win
        return _take(k, module, LOOPS, "the kernel has no barriers: one vectorisable loop "
                     "over the work-items", options, interleaving)
    return _regions_if_better(k, module, loops, options, interleaving)


def inlined(k, module: Module, options: LaunchOptions = LaunchOptions(),
            interleaving=None) -> Choice | None:
    """The regions schedule's choice for kernel model ``k`` (its work-group function
    inlines the kernel), or None where it cannot run it."""
    try:
        return _take(k, module, REGIONS, "a work-group function of loops over the "
                     "work-items", options, interleaving)
    except NeedFibers:
        return None


def _take(k, module, schedule: Schedule, reason: str, options: LaunchOptions,
          interleaving=None) -> Choice:
    what = schedule.prepare(k, module, options, interleaving)
    if what is None:
        return Choice(schedule, reason)
    return Choice(schedule, f"{reason} ({what})", (what.written, *what.twins),
                  bool(what.lockstep), what.tile_rows, what.streams)


def _regions_if_better(k, module, loops, options: LaunchOptions,
                       interleaving=None) -> Choice:
    """A barrier-free kernel gains from the work-group function when a uniform loop
    moves outside the work-item loop (the work-item loop inside it vectorises) or a
    guard becomes loop bounds, or a divergent loop runs in lock-step across work-items
    (lockstep.py); not when that would store private arrays per work-item (unless a
    uniform loop moves out: the lecture's matmult_v5, its row of A a private array, ran
    twice as fast so, and a guarded kernel with one 4.4x), nor test a "returned" flag in
    every region, nor when privates would become arrays of
    structs per work-item (the vectorised loop transposes them: N-body's float4s ran
    1.3x slower so; vector privates go by component, one array each, and N-body runs
    4x faster so than in the loops schedule), nor when the work-items would store apart
    inside the hoisted loops (strides.py: the lecture's V1, 3.3x slower so). ``loops``:
    makes the loops schedule's choice, kept otherwise (not made where the work-group
    function wins: a cold build's translation spent a quarter of its schedules so)."""
    checking = bool(options.check)
    body = k.info.node.body
    straight = not _has_loop_or_branch(body)
    # int ids gain in loop-free kernels, with branches too (the Guide's shortest paths'
    # phase 2: its stores under an `if` were scatters, 5x slower); not in those that
    # take images, whose loops schedule has a twin per common format (builders/loops.py)
    # that gains more
    narrows = _narrows_an_id(body) and not any(a.kind == "image" for a in k.args)
    int_ids = narrows and not _has_loop(body)
    if not checking and straight and not int_ids:
        return loops()          # nothing to hoist, no guard: the work-group function is
                                # the loop as it stands (and costs a copy of the kernel)
    try:
        what = REGIONS.prepare(k, module, options, interleaving)
    except NeedFibers:
        return loops()
    # with loops, int ids gain where the work-group function keeps each work-item's
    # loops as they are (none hoisted, none in lock-step, no stores apart): the Guide's
    # shortest paths' phase 1, whose scan of its mask ran 1.5-2.4x faster so
    int_ids = int_ids or (narrows and not (what.loops or what.lockstep or what.scattered))
    # checking: the loops schedule (no omp simd: each work-item says who runs), unless
    # lock-step loops, fast versions or loops with nothing to check gain
    gains = what.lockstep or what.versioned or what.unchecked if checking else \
        what.loops or what.bounded or what.lockstep or (int_ids and what.affine_ids)
    if what.scattered and not (checking or what.bounded or what.lockstep or
                               (int_ids and what.affine_ids)):
        # each work-item its own loops, where the hoisted ones would store a scattered
        # element a lane and step (strides.py: the lecture's V1, 3.3x slower so)
        kept = loops()
        return Choice(kept.schedule, f"{kept.reason}; not hoisting its loops, whose "
                      f"work-items store apart", kept.group_functions, kept.uneven,
                      what.tile_rows)
    if not gains or (what.array_privates and not what.loops) or what.done_flags or \
            what.vector_privates:
        # (the rows of the tiles the work-group function would have had still cut the
        # range: cl2c_regroup's rows, as before the launch plan)
        kept = loops()
        return Choice(kept.schedule, kept.reason, kept.group_functions, kept.uneven,
                      what.tile_rows)
    return Choice(REGIONS, f"no barriers, but a work-group function vectorises better "
                  f"({what})", (what.written, *what.twins), bool(what.lockstep),
                  what.tile_rows, what.streams)


def _local_types(k) -> dict:
    """{name: type} of kernel ``k``'s kernel-scope __local variables."""
    return {d.name: fact(d, "ty") for d in k.local_decls
            if isinstance(d, c_ast.Decl) and d.name}


def _narrows_an_id(body) -> bool:
    """An int declared from a work-item id of dimension 0 (int x =
    get_global_id(0)): in the loops schedule it is a size_t truncated in the work-item
    loop, which GCC cannot prove affine (its loads become gathers, and the loop stays
    scalar); the work-group function computes it as x__base + cl2c_l0."""
    for d in walk(body):
        t = fact(d, "ty") if isinstance(d, c_ast.Decl) else None
        if t is not None and t.is_scalar and t.is_integer and t.signed and t.bits == 32 and \
                d.init is not None and any(_id_of_dimension_0(n) for n in walk(d.init)):
            return True
    return False


def _id_of_dimension_0(n) -> bool:
    return builtin_name(n) in ("get_global_id", "get_local_id") and \
        constant_dimension(n) == 0


def _one_dimensional(body) -> bool:
    """The kernel asks of the range only its dimension 0 (ids, sizes, groups): it is
    launched over one dimension, as a rule, its groups one row each."""
    return all(constant_dimension(n) == 0 for n in walk(body)     # (not another
               if work_item_function(n) is not None and             # dimension, a linear
               builtin_name(n) != "get_work_dim")                   # id, a computed one)


def _has_loop(body) -> bool:
    return any(isinstance(n, (c_ast.For, c_ast.While, c_ast.DoWhile)) for n in walk(body))


def _has_loop_or_branch(body) -> bool:
    return any(isinstance(n, (c_ast.For, c_ast.While, c_ast.DoWhile, c_ast.If))
               for n in walk(body))


def _error(message: str) -> BuildError:
    return BuildError([Diagnostic("error", message)])
