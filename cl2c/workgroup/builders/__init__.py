"""The regions schedule's work-group function, built as IR (loop fission at barriers).

A kernel with barriers becomes a *work-group function*: code that runs once per
group, in which the statements between barriers ("regions") become loops over
the work-items of the group. What runs once and what runs per work-item:

- Values the same for every work-item of the group (*uniform*: kernel
  arguments, group ids and sizes, loop counters of loops whose bounds are
  uniform) stay scalars and their statements run once per group.
- Loops and ``if`` statements with uniform headers that contain a barrier run
  at group level; the work-item loops go inside them. Uniform loops without
  barriers can be hoisted the same way, which is how a dot-product loop in a
  kernel becomes a vectorisable loop over work-items inside it.
- Private variables used on both sides of a cut live in per-work-item arrays,
  unless they are cheap to recompute from the local id (``int lid =
  get_local_id(0)``), in which case each region recomputes them.
- A guard of the form ``if (get_local_id(0) < s)`` around a whole region
  becomes the bounds of its work-item loop, so the loop has no control flow.

Kernels this cannot express (a barrier under a condition that is not provably
uniform, a ``break`` out of a hoisted loop from inside a region, ...) raise
``NeedFibers`` with the reason, and the schedule falls back to fibers.

It reads the lowered C AST: names are already the C names, and
work-item builtins are calls ``cl2c_get_local_id(CL2C_WI, d)``; what a call does comes
from the facts on its node (effects.py), never from its name.

``make_group_function`` runs the parts in order:

- ``inlining``: helpers that reach a barrier inlined, locals renamed apart;
- ``prepare``: early returns as guards, guards moved into loops every work-item runs
  alike, written parameters made locals, array sizes, ``sizeof`` by type;
- ``grid_stride``: grid-stride loops interchanged (when loops are hoisted);
- ``uniformity``: which variables and expressions are uniform (``Analysis``);
- ``plan``: the group-level structure (``Builder``: regions, ``Once``, group-level
  ifs and loops, collectives);
- ``privates``: which privates cross a cut, recomputed or stored per work-item;
- ``group_function`` (with ``bounds``): the work-group function as IR (``GroupFunction``,
  workgroup/ir.py), its work-item loops with their bodies.

``loops`` builds the loops schedule's one work-item loop. The schedule then runs the passes
(workgroup/passes/) over the IR: lock-step, unrolling, check versions, tiling, counters;
workgroup/write.py prints it.

``syntax`` holds the AST helpers they share; ``errors`` the ``NeedFibers`` exception.
"""
from __future__ import annotations

from pycparser import c_ast

from ...typed_ast import fact
from .errors import NeedFibers, NotProvablyUniform
from .grid_stride import interchange_grid_stride_loops
from .inlining import inline_sync_calls, rename_locals
from .plan import Builder, GroupLoop, Once, all_items, phase_call
from .prepare import (complete_array_bounds, counters_into_loops, guards_into_loops,
                      privatize_written_params, returns_as_guards, sizeof_by_type,
                      type_definitions_out)
from .privates import Privates
from .spec_uniform import rewrite_loop
from ...lower.effects import builtin_name
from .syntax import replace_child, statements, walk
from .uniformity import Analysis
from .group_function import Writer
from .. import ir
from ..names import LOCAL_SIZE


def make_group_function(func: c_ast.FuncDef, params: dict, helpers: dict,
                        reqd: tuple | None, simd: bool, hoist_loops: bool,
                        checking: bool = False, interleavable=None) -> "Description":
    """Make kernel ``func`` (rewritten in place) into its work-group function, as IR
    (``.function``: write.py prints it).

    params: {name: Decl} of the kernel's by-value parameters.
    helpers: {name: FuncDef} of the lowered helper functions (for inlining).
    Returns it with a short description of what was done (for the emitted comment).
    Raises NeedFibers when the kernel cannot be expressed this way.
    """
    body = func.body
    inline_sync_calls(body, helpers)
    if any(isinstance(n, (c_ast.Goto, c_ast.Label)) for n in walk(body)):
        # a jump may cross a cut between regions; fibers keep each work-item's own flow
        raise NeedFibers("the kernel uses goto")
    returns_as_guards(body)
    if hoist_loops:
        guards_into_loops(body)
    params = privatize_written_params(func, params)
    taken = {p.name for p in func.decl.type.args.params if getattr(p, "name", None)}
    counters_into_loops(body)
    rename_locals(body, taken | set(helpers))
    complete_array_bounds(body)
    sizeof_by_type(body)
    strided = interchange_grid_stride_loops(body) if hoist_loops else []
    types = type_definitions_out(body)
    an = _analysis(body, set(params), hoist_loops)
    builder = Builder(an, checking)
    items = builder.build(statements(body))
    priv = Privates(an, items)
    writer = Writer(an, priv, builder, params, reqd, simd, checking, interleavable,
                    counters=set(strided))
    start = [Once(phase_call())] if checking else []     # the group's first barrier phase
    prologue = types + writer.prologue()
    gf = ir.GroupFunction(func, prologue, start + writer.items(items), writer.item_arrays)
    _known_local_sizes(gf)
    params = func.decl.type.args.params
    params[0] = c_ast.Decl(None, [], [], [], [], c_ast.TypeDecl(
        None, [], None, c_ast.IdentifierType(["CL2C_GROUP_PARAMS"])), None, None)
    regions = len(priv.regions)
    parts = [f"{regions} region{'s' if regions != 1 else ''}"]
    if priv.promoted:
        parts.append("per-work-item arrays: " + ", ".join(
            d.name + (" (by component)" if d.name in writer.soa else "")
            for d in priv.promoted))
    if priv.remat:
        parts.append("recomputed: " + ", ".join(sorted(priv.remat)))
    if priv.per_region:
        parts.append("live across no barrier, one per region: " +
                     ", ".join(sorted(priv.per_region)))
    if writer.bounded:
        parts.append(f"{writer.bounded} guard{'s' if writer.bounded != 1 else ''} as "
                     f"loop bounds")
    if writer.splits:
        parts.append(f"{writer.splits} region{'s' if writer.splits != 1 else ''} split "
                     f"where comparisons with the local id 0 are known")
    if writer.inside:
        n = len(writer.inside)
        parts.append(f"{n} image access{'es' if n != 1 else ''} made in the middle at an x "
                     f"known inside the image")
    if writer.cuts:
        parts.append(f"{writer.cuts} region{'s' if writer.cuts != 1 else ''} cut where a "
                     f"statement runs for one work-item of each row")
    if writer.row_splits:
        parts.append(f"the rows of {writer.row_splits} region"
                     f"{'s' if writer.row_splits != 1 else ''} split where comparisons "
                     f"with the local id 1 are known")
    if writer.interleaving:
        parts.append(f"{writer.interleavable.ways} work-items an iteration, interleaved")
    loops = sum(1 for it in all_items(items) if isinstance(it, GroupLoop))
    if loops:
        parts.append(f"{loops} uniform loop{'s' if loops != 1 else ''} around the "
                     f"work-item loops")
    if strided:
        parts.append(f"{len(strided)} grid-stride loop{'s' if len(strided) != 1 else ''} "
                     f"interchanged")
    big = [d.name for d in priv.promoted if not isinstance(d.type, c_ast.TypeDecl)]
    wide = [d.name for d in priv.promoted
            if _is_vector_or_record(d) and d.name not in writer.soa]
    return Description(gf, "; ".join(parts), loops, writer.bounded, big, writer.done, wide,
                       affine_ids=writer.bounds.affine, splits=writer.splits)


def _known_local_sizes(gf: ir.GroupFunction) -> None:
    """``get_local_size(d)`` of a constant ``d`` becomes ``cl2c_ls<d>``: the same value
    (the group's), and a constant under reqd_work_group_size, where a loop on it (a tree
    reduction's halving steps) then has a trip count the compiler knows."""
    for it in ir.all_items(gf.items):       # (an expression that is the call itself)
        if isinstance(it, ir.WorkItemLoop):
            it.first, it.end, it.row_guard, it.row_first, it.row_end = (
                _known_size(e) or e for e in (it.first, it.end, it.row_guard,
                                              it.row_first, it.row_end))
        elif isinstance(it, (ir.GroupIf, ir.GroupLoop)) and getattr(it.node, "cond", None):
            it.node.cond = _known_size(it.node.cond) or it.node.cond
    for part, _ in ir.c_parts(gf.items):
        for parent in walk(part):
            for name, child in parent.children():
                size = _known_size(child)
                if size is not None:
                    replace_child(parent, name, size)


def _known_size(e) -> c_ast.ID | None:
    """``cl2c_ls<d>`` for ``get_local_size(d)`` of a constant ``d``, else None."""
    if isinstance(e, c_ast.FuncCall) and builtin_name(e) == "get_local_size" and \
            e.args and len(e.args.exprs) == 2 and \
            isinstance(e.args.exprs[1], c_ast.Constant) and \
            e.args.exprs[1].value in ("0", "1", "2"):
        return c_ast.ID(LOCAL_SIZE[int(e.args.exprs[1].value)], e.coord)
    return None


def _analysis(body, params: set, hoist_loops: bool) -> Analysis:
    """The uniformity analysis, after rewriting each barrier loop whose trip count the
    spec makes uniform though the analysis cannot prove it (spec_uniform.py)."""
    flags: set = set()
    taken = {n.name for n in walk(body) if isinstance(n, (c_ast.ID, c_ast.Decl)) and n.name}
    while True:
        try:
            return Analysis(body, params, hoist_loops, frozenset(flags))
        except NotProvablyUniform as e:
            flag = rewrite_loop(body, e.loop, taken)
            if flag is None:
                raise NeedFibers(str(e)) from None
            flags.add(flag)


def _is_vector_or_record(d: c_ast.Decl) -> bool:
    """A declaration of one vector, struct or union."""
    t = fact(d, "ty")
    return isinstance(d.type, c_ast.TypeDecl) and t is not None and (t.is_vector or
                                                                      t.is_record)


class Description:
    """What make_group_function made (``function``, the IR) and did, for the schedule
    choice and the comment."""

    def __init__(self, function, description, loops, bounded, array_privates, done_flags,
                 vector_privates=(), lockstep=0, affine_ids=0, splits=0):
        self.function = function
        self.description = description
        self.loops = loops                    # uniform loops hoisted over the regions
        self.bounded = bounded                # guards turned into loop bounds
        self.array_privates = array_privates  # private arrays now stored per work-item
        self.done_flags = done_flags          # work-items that return early are tracked
        self.vector_privates = vector_privates  # vector or struct privates stored per item
        self.affine_ids = affine_ids          # signed int ids as base + local id 0
        self.splits = splits                  # regions split where comparisons are
                                              # known (splits.py)
        self.lockstep = lockstep              # divergent loops run in lock-step
                                              # (lockstep.py, run by the schedule)
        self.scattered = 0                    # work-item loops in hoisted loops that
                                              # store scattered (strides.py)
        self.versioned = 0                    # checking builds: loops with a fast version
                                              # (check_versions.py, run by the schedule)
        self.unchecked = 0                    # checking builds: omp simd loops with no
                                              # checks at all (an image filter's)
        self.tile_rows = 0                    # rows a register tile takes (tiling.py,
                                              # run by the schedule); 0: no tiles
        self.streams = False                  # uniform loops around work-item loops in
                                              # no tiles: each step runs the group's rows
                                              # again (cl2c_regroup's longer pieces)
        self.written = None                   # the function as C (write.py), once the
                                              # schedule's passes on C have run
        self.twins = ()                       # its twins per image format (image_twins.py)

    def add(self, part: str) -> None:
        self.description = f"{self.description}; {part}" if self.description else part

    def __str__(self):
        return self.description


__all__ = ["make_group_function", "NeedFibers"]
