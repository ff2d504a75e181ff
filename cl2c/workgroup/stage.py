"""Stage 5: the work-group stage. For each lowered kernel, the schedule decides how the
work-items of a group run (schedules.py), builds its work-group function as data
(builders/), transforms it (passes/) and has it printed once (write.py); the kernel's
``LaunchPlan`` (launch_plan.py) says what was decided, for emission. Runs on lowering's
C tree, after it: this package may import ``lower/``, never the reverse.
"""
from __future__ import annotations

from dataclasses import replace

from pycparser import c_ast

from .. import checking
from ..checking.sites import Sites
from ..lower import KernelModel, LoweredProgram
from ..lower.effects import called_function
from ..sema import Module
from ..timing import StageTimes
from ..typed_ast import fact, walk
from . import schedules
from .dimensions import runs_along_dimension_1, transposable, transposed
from .launch_plan import LaunchOptions, LaunchPlan, LoopLaunch, Regroup
from .launch_work import serial_items, work
from .live_groups import live_bounds
from .loop_dimension import loop_as_dimension
from .passes import tiling
from .passes.interleaving import interleavable, interleaved_function, program_names


def plan_launches(program: LoweredProgram, options: LaunchOptions = LaunchOptions(),
                  times: StageTimes | None = None) -> LoweredProgram:
    """``program`` with each kernel's launch plan, and its work-group functions (and
    interleaved functions) in the program's scope after their kernels; the helpers that
    only work-group functions called, inlined there, are gone."""
    times = times or StageTimes()
    module, kernels = program.module, program.kernels
    sites = Sites(program.check_sites) if options.check else None
    with times.stage("work-group: schedules"):
        outside = program_names(module)
        launches = [_launch(k, module, options, outside, sites) for k in kernels]
    if sites is not None:
        program = replace(program, check_sites=sites.listed())
    called = _called_functions(module, kernels, launches)
    kernels = [replace(k, plan=LaunchPlan(**launch, item_function=not launch[
        "group_functions"] or k.name in called)) for k, launch in zip(kernels, launches)]
    emitted = called | {k.name for k in kernels if k.plan.item_function}
    scope = []
    for kind, node in program.program_scope:
        name = node.decl.name if kind == "function" else node.name if kind == "prototype" \
            else None
        # a helper inlined into work-group functions, and called nowhere else, is gone
        if name is None or name in emitted or name not in module.functions or \
                module.functions[name].is_kernel:
            scope.append((kind, node))
        for k in kernels:
            if kind == "function" and node is k.info.node and \
                    k.plan.interleaved_function is not None:
                scope.append(("interleaved_function", k.plan.interleaved_function))
            if kind == "function" and node is k.info.node:
                scope += [("group_function", f) for f in k.plan.group_functions]
                if k.plan.loop is not None:
                    scope += [("group_function", f) for f in k.plan.loop.group_functions]
    return replace(program, kernels=kernels,
                   program_scope=_without_unread_constants(scope, kernels))


def _launch(k: KernelModel, module: Module, options: LaunchOptions,
            outside: set[str], sites: Sites | None = None) -> dict:
    """What the schedule and the passes decide for kernel model ``k``: the fields of its
    LaunchPlan, less ``item_function`` (which takes every kernel's functions).
    ``sites``: a checking build's check sites, which a version of its own adds to."""
    launch = _launch_as_asked(k, module, options, outside)
    loop = loop_as_dimension(k, hold=not options.check) if \
        options.schedule == schedules.AUTO and _shares_an_entry(launch) else None
    if loop is None:
        return launch
    # its last loop as dimension 1 (loop_dimension.py), where the entry finds the
    # launch allows: a kernel of its own, whose work-group functions the entry runs
    name = f"{k.name}__loop"
    info = replace(k.info, node=loop.node, name=name)
    if options.check:
        # made from the kernel before its checks went in: checked now, at the sites of
        # the kernel's own checks (a place of its own, where one is new)
        checking.instrument(Module(None, {name: info}), {}, sites)
    twin = replace(k, name=name, info=info)
    other = _launch_as_asked(twin, module, options, outside)
    if not _shares_an_entry(other) or other["schedule"].calls_item_function:
        return launch       # (the twin has no work-item function of its own)
    launch["reason"] += f"; its loop over {loop.var} as dimension 1 of the range where " \
        "the launch allows"
    return dict(launch, loop=LoopLaunch(
        loop.var, loop.count, other["group_functions"], other["transposed"],
        other["regroup"], loop.spans, loop.fits, loop.apart, other["reason"]),
        dynamic=launch["dynamic"] or other["dynamic"])


def _shares_an_entry(launch: dict) -> bool:
    """A launch whose entry may run either of two kernels' work-group functions: one
    that cuts the range its own way, with one work-group function a group (the regions
    or loops schedule; no interleaved twin, no live bounds)."""
    return launch["regroup"] is not None and bool(launch["group_functions"]) and \
        launch["schedule"].name in ("regions", "loops") and \
        launch["interleaved_function"] is None and not launch["live"]


def _launch_as_asked(k: KernelModel, module: Module, options: LaunchOptions,
                     outside: set[str]) -> dict:
    """``_launch``'s fields for kernel model ``k`` as it is written (its dimensions
    exchanged where its memory runs along dimension 1)."""
    if transposable(k, module.functions) and runs_along_dimension_1(k.info.node.body):
        # its work-item loops along global id 1, where its memory runs (dimensions.py),
        # where the schedule builds them inline and cuts the range its own way: the
        # regions schedule, where the loops schedule (calling the work-item function,
        # which keeps its dimensions) would have been chosen
        twisted = replace(k, info=replace(k.info, node=transposed(k.info.node)))
        ways = interleavable(twisted, outside, work(twisted.info, module.functions),
                             bool(options.check))
        choice = schedules.choose(twisted, module, options, ways)
        if choice.schedule.calls_item_function and options.schedule == schedules.AUTO:
            choice = schedules.inlined(twisted, module, options, ways)
        if choice is not None and choice.schedule.regroups and \
                not choice.schedule.calls_item_function:
            launch = _launch_of(twisted, module, options, outside, choice, ways)
            if launch["interleaved_function"] is None:
                launch["reason"] += "; its work-item loops along dimension 1, where its " \
                    "memory runs (dimensions 0 and 1 exchanged)"
                return dict(launch, transposed=True)
    return dict(_launch_of(k, module, options, outside), transposed=False)


def _launch_of(k: KernelModel, module: Module, options: LaunchOptions, outside: set[str],
               choice=None, ways=None) -> dict:
    """The fields of kernel model ``k``'s LaunchPlan, under ``choice`` (the schedule's
    own where None) and its ``ways`` (interleaving.interleavable's)."""
    k_work = work(k.info, module.functions)
    if choice is None:
        ways = interleavable(k, outside, k_work, bool(options.check))
        choice = schedules.choose(k, module, options, ways)
    regroup = k.regroupable and choice.schedule.regroups
    reason, serial, twin = choice.reason, 0, None
    if k.forwarded:
        reason += "; __local " + "; ".join(k.forwarded) + ", read from there (memory " \
            "the kernel does not change meanwhile): the copy gone"
    if k.joined:
        reason += "; loops " + "; ".join(k.joined) + " run as one"
    if regroup and k.own_locals:
        reason += "; __local " + ", ".join(k.own_locals) + " each work-item's own " \
            "elements: groups of cl2c's choosing"
    if regroup:
        serial = serial_items(k_work)
        twin = interleaved_function(k, choice.schedule, ways, serial)
        if twin is not None:
            reason += f", {ways.ways} an iteration, interleaved"
    functions = choice.schedule.group_functions(k, choice.group_functions, options, ways,
                                                twin)
    return dict(schedule=choice.schedule, reason=reason, group_functions=functions,
                interleaved_function=twin,
                dynamic=choice.schedule.dynamic or choice.uneven,
                regroup=Regroup(choice.tile_rows, tiling.COLS if choice.tile_rows else "0",
                                k.own_locals, choice.streams) if regroup else None,
                serial_items=serial, check=options.check,
                fiber_checks=options.check_barriers or bool(options.check),
                fiber_stack=options.fiber_stack, poison_locals=options.poison_locals,
                live=live_bounds(k.info.node, options.uniform_groups, bool(options.check)))


def _called_functions(module: Module, kernels, launches) -> set[str]:
    """The user functions the emitted code calls: from each kernel's entry (its
    work-group function, or its work-item function), transitively."""
    todo = [f for k, launch in zip(kernels, launches)
            for f in launch["group_functions"] or [k.info.node]] + \
        [f for launch in launches if launch.get("loop") for f in launch["loop"].group_functions]
    seen: set[str] = set()
    while todo:
        for n in walk(todo.pop()):
            name = called_function(n)
            if name in module.functions and name not in seen:
                seen.add(name)
                todo.append(module.functions[name].node)
    return seen


def _is_constant(kind: str, node) -> bool:
    return kind == "variable" and fact(node, "space") == "constant" and bool(node.name)


def _without_unread_constants(scope: list, kernels) -> list:
    """``scope`` less the __constant variables that nothing emitted reads: neither a
    function, a type or a __global variable, nor a constant read (transitively) by one
    of those. An initializer that read one has its value folded in (expressions.py),
    and a helper no kernel calls is gone: C would have an unused static const
    (clang's -Wunused-const-variable), and dead code."""
    constants = {node.name: node for kind, node in scope if _is_constant(kind, node)}
    roots = [node for kind, node in scope if not _is_constant(kind, node)] + \
        [d for k in kernels for d in k.local_decls]
    read: set[str] = set()
    todo = list(roots)
    while todo:
        for n in walk(todo.pop()):
            if isinstance(n, c_ast.ID) and n.name in constants and n.name not in read:
                read.add(n.name)
                todo.append(constants[n.name])
    return [(kind, node) for kind, node in scope
            if not _is_constant(kind, node) or node.name in read]


