"""Lowering pass: a software prefetch of the rows of the work-group after next.

A group of several rows (a 16 x 16 tile) reads and writes a short run of each of its
rows: 64 bytes of 16 rows of the input and 16 of the output, where a CPU loop streams
two or three rows. A thread runs its groups along x one after the other (the launch's
static schedule), so each row's next run is the next group's, ``local size 0``
elements on; with 32 and more rows streamed at once the hardware's prefetchers lose
them, and the work-item loops wait on the loads and the stores' lines (``perf``: the
GPU corpus's tiled Jacobi, its time at the instructions after them). Each row of such a
loop now first asks for its runs two groups on, where the loop reads or writes a
``__global`` array at consecutive elements along the local id 0: the tiled Jacobi
2040^2 on the 2-core Zen 4, two threads, 2.52 -> 1.61 ms (hand C 0.79-0.85), one
thread of its C 4.0-4.3 -> 3.0-3.1 ms; the rest of the corpus and the bench as before.

Only the work-item loops of a group's rows (not those in uniform loops, whose next
step is no next group, nor a split's edges), in kernels of more than one dimension and
groups of more than one row, at most MOST runs a loop, the line of each run's first
element (the group after asks for the next; regions.h's CL2C_PREFETCH_AT, a write's hint
for a run the loop stores to: a third more off the Jacobi than a read's, and a loop over
the run's lines cost half the gain). The address is computed as an integer: two groups
on may lie past the array (a prefetch never faults, and no pointer is formed there).
"""
from __future__ import annotations

import copy

from pycparser import c_ast, c_generator

from ... import types as ty
from ...typed_ast import fact, ids, map_children, walk
from ..builders.splits import reads_no_memory
from ..ir import Block, GroupFunction, GroupIf, WorkItemLoop
from ..names import FIRST, INDEX, L0, LS0, LS1
from ..strides import Strides
from ..write import snippet

MOST = 4                # runs a loop asks for
AHEAD = 2               # groups on
_BASE, _INDEX = "cl2c_pf_base", "cl2c_pf_index"


def prefetch_group_rows(gf: GroupFunction) -> int:
    """Give each work-item loop of a row of work-group function ``gf`` that reads or
    writes ``__global`` arrays at consecutive elements a prefetch of those runs, two
    groups on, at the head of the row; returns how many loops have one."""
    found = 0
    for loop in _row_loops(gf.items):
        block = _prefetches(loop)
        if block is not None:
            loop.row_items.append(block)
            found += 1
    return found


def _row_loops(items):
    """The work-item loops of ``items`` run once a row of the group (not in a uniform
    loop), vectorised, not a split's edge, not rewritten by a later pass."""
    for it in items:
        if isinstance(it, WorkItemLoop):
            if it.simd and it.rows and not it.edge and it.ways == 1 and \
                    it.lanes is None and it.steps is None and it.versions is None:
                yield it
        elif isinstance(it, GroupIf):
            yield from _row_loops(it.then + it.other)
        elif isinstance(it, Block):
            yield from _row_loops(it.items)


def _prefetches(loop: WorkItemLoop):
    """The block of prefetches at the head of each row of ``loop``, or None."""
    decls = {}          # the work-item's leading declarations, by name
    for s in loop.body:
        if not isinstance(s, c_ast.Decl):
            break
        decls[s.name] = s
    strides = Strides(loop.body)
    runs, seen = [], set()
    for access in (n for s in loop.body for n in walk(s) if isinstance(n, c_ast.ArrayRef)):
        base = access.name
        t = fact(base, "ty") if isinstance(base, c_ast.ID) else None
        if not isinstance(t, ty.Pointer) or t.space != "global" or \
                base.name in strides.local or strides.of(access.subscript) != 1:
            continue
        needed = _needed(access.subscript, decls, strides.local)
        key = (base.name, _text(access.subscript))     # (a store's run and its reads')
        if needed is None or key in seen:
            continue
        seen.add(key)
        runs.append((base, access.subscript, needed))
        if len(runs) == MOST:
            break
    stored = {(a.name.name, _text(a.subscript)) for a in _stored(loop.body)}
    if not runs:
        return None
    names = set().union(*(needed | ids(index) for _, index, needed in runs))
    items = []
    if L0 in names or any(L0 in ids(decls[n].init) for n in names if n in decls):
        # the row's first work-item's (write.py's row head declares FIRST where the
        # loop has bounds)
        first = FIRST if loop.end is not None else "0"
        items = snippet(f"const {loop.counter} {L0} = ({loop.counter}) {first};")
    items += [copy.deepcopy(d) for name, d in decls.items() if name in names]
    for base, index, _ in runs:
        writes = int((base.name, _text(index)) in stored)
        (call,) = snippet(
            f"CL2C_PREFETCH_AT({_BASE}, (ptrdiff_t) ({_INDEX}) + {AHEAD} * (ptrdiff_t) "
            f"{LS0}, sizeof *{_BASE}, {writes});", types=("ptrdiff_t",))
        given = {_BASE: base, _INDEX: index}
        for n in list(walk(call)):
            map_children(n, lambda c: copy.deepcopy(given[c.name])
                         if isinstance(c, c_ast.ID) and c.name in given else c)
        items.append(call)
    # (a group of one row has its next groups' runs next to its own, which the
    # hardware's prefetchers follow)
    (guard,) = snippet(f"if ({LS1} > 1) {{}}")
    guard.iftrue = c_ast.Compound(items)
    return guard


def _stored(body):
    """The array elements ``body`` (statements) assigns to."""
    return [n.lvalue for s in body for n in walk(s)
            if isinstance(n, c_ast.Assignment) and isinstance(n.lvalue, c_ast.ArrayRef)
            and isinstance(n.lvalue.name, c_ast.ID)]


def _needed(index, decls: dict, local: set) -> set | None:
    """The work-item's declarations that ``index`` needs, transitively: names, or None
    where one of them reads memory or is not a leading declaration with a value
    (``local``: every name the work-item declares)."""
    needed, todo = set(), list(ids(index))
    while todo:
        name = todo.pop()
        if name == INDEX:
            return None         # (write.py declares it in the loop's body)
        if name in needed or name == L0:
            continue
        d = decls.get(name)
        if d is None:
            if name in local:
                return None     # declared later in the work-item
            continue            # the row's, the group's or the kernel's: in scope
        if d.init is None or not reads_no_memory(d.init):
            return None
        needed.add(name)
        todo.extend(ids(d.init))
    return needed


def _text(node) -> str:
    return c_generator.CGenerator().visit(node)
