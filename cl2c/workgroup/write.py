"""The one writer of work-item loops: a ``WorkItemLoop`` (ir.py) to C statements.

Both schedules that run work-items as loops print theirs here: the regions schedule
(each region of a work-group function) and the loops schedule (its one loop calling
the work-item function). C that is boilerplate is clearer written as C than as nodes:
``snippet`` parses it.
"""
from __future__ import annotations

import copy
import functools
import threading
from dataclasses import replace

from pycparser import c_ast, c_parser

from .. import types as ty
from ..typed_ast import copy_tree, make
from . import tiles
from .ir import Block, GroupFunction, GroupIf, GroupLoop, Once, WorkItemLoop
from .names import (BLOCK, BLOCKS, CHECK_FAST, CHECK_ITEM, CHECK_THREAD, DONE, END, FIRST, INDEX,
                    LOCAL_ID, UNUSED, WAY_BLOCK, way_id)

_TYPEDEFS = ("typedef int size_t; typedef int ptrdiff_t; typedef int cl2c_workitem; "
             "typedef int cl2c_uint; typedef int cl2c_ck_thread; typedef int cl2c_image;")


def snippet(code: str, types=(), coord=None) -> list:
    """Block items of C code, at ``coord`` of the kernel (None: they are the schedule's,
    not lines of the .cl file); ``types``: the type names it uses beyond the runtime's
    usual ones."""
    items = copy_tree(list(_parsed(code, tuple(dict.fromkeys(types)))))
    for item in items:
        _place(item, coord)
    return items


_parser = c_parser.CParser()
_parser_lock = threading.Lock()     # (one parse at a time: translations may run on threads)


@functools.lru_cache(maxsize=1024)
def _parsed(code: str, types: tuple) -> tuple:
    """The block items of ``code`` as parsed, kept as they are: ``snippet`` hands out
    copies (a build's few hundred snippets are a few dozen texts)."""
    typedefs = _TYPEDEFS + "".join(f"typedef int {t};" for t in types)
    with _parser_lock:
        ast = _parser.parse(typedefs + " void f(void) {" + code + "}")
    return tuple(ast.ext[-1].body.block_items or [])


def _place(node, coord) -> None:
    node.coord = coord
    for _, child in node.children():
        _place(child, coord)


def group_function(gf: GroupFunction):
    """The C definition of work-group function ``gf`` (its FuncDef, given its body)."""
    gf.func.body = c_ast.Compound(gf.prologue + items(gf.items), gf.func.body.coord)
    return gf.func


def items(group_items: list) -> list:
    """C statements of the items of a work-group function."""
    out = []
    for it in group_items:
        if isinstance(it, Once):
            out.append(it.node)
        elif isinstance(it, WorkItemLoop):
            out.extend(work_item_loop(it))
        elif isinstance(it, GroupIf):
            node = it.node
            node.iftrue = c_ast.Compound(items(it.then), node.coord)
            node.iffalse = c_ast.Compound(items(it.other), node.coord) if it.other else None
            for branch, tile in it.brackets:     # (a tile that a loop around holds)
                name = "iftrue" if branch == "then" else "iffalse"
                setattr(node, name, c_ast.Compound(tiles.copies(tile, False) +
                                                   [getattr(node, name)] +
                                                   tiles.copies(tile, True)))
            out.append(node)
        elif isinstance(it, GroupLoop):
            it.node.stmt = c_ast.Compound(items(it.body), it.node.coord)
            loop = tiles.tiled(it.node, it.tile) if it.tile is not None else it.node
            out.append(tiles.holding(loop, it.holds) if it.holds is not None else loop)
        elif isinstance(it, Block):
            out.append(c_ast.Compound(items(it.items)))
        else:                                   # pragma: no cover
            raise AssertionError(f"{type(it).__name__} left in a work-group function")
    return out


def item_body(loop: WorkItemLoop) -> list:
    """What one work-item of ``loop`` runs: its index, the checking build's note of who
    runs, the skip of a work-item that returned, the body, the end label."""
    l0, l1, l2 = LOCAL_ID
    s0, s1, _ = loop.sizes
    head = []
    if loop.index:
        head += snippet(f"const size_t {INDEX} = {l0} + {s0} * ({l1} + {s1} * {l2});")
        head[-1].funcspec = [UNUSED]
    if loop.checked:
        head += snippet(f"{CHECK_ITEM}({CHECK_THREAD}, {l0}, {l1}, {l2}, {INDEX});")
    if loop.skips_done:
        head += snippet(f"if ({DONE}[{INDEX}]) continue;")
    tail = [c_ast.Label(loop.end_label, c_ast.EmptyStatement())] if loop.end_label else []
    return head + list(loop.body) + tail


def inner_loop(loop: WorkItemLoop) -> c_ast.For:
    """The loop over local id 0 of ``loop``, one work-item an iteration."""
    l0 = LOCAL_ID[0]
    bounded = loop.end is not None
    start = snippet(f"{loop.counter} {l0} = 0;")[0]
    if bounded:
        start.init = _counter(loop, c_ast.ID(FIRST))
    return c_ast.For(c_ast.DeclList([start]), c_ast.BinaryOp(
        "<", c_ast.ID(l0), _counter(loop, c_ast.ID(END) if bounded else
                                    snippet(f"x = {loop.sizes[0]};")[0].rvalue)),
        c_ast.UnaryOp("++", c_ast.ID(l0)), c_ast.Compound(item_body(loop)))


def work_item_loop(loop: WorkItemLoop) -> list:
    """``loop`` as C statements."""
    bounded = loop.end is not None
    first = _cast(loop, FIRST) if bounded else "0"
    end = _cast(loop, END if bounded else loop.sizes[0])
    inner = inner_loop(loop) if loop.steps is None else _in_steps(loop)
    row = row_head(loop)
    if loop.lanes is not None:
        row += loop.lanes
    elif loop.ways > 1:
        row += _ways(loop, inner, first, end)
    elif loop.versions is not None:
        row.append(_versioned(loop, inner))
    else:
        row += [c_ast.Pragma("omp simd"), inner] if loop.simd else [inner]
    row += loop.after
    if loop.row_guard is not None:
        row = [c_ast.If(loop.row_guard, c_ast.Compound(row), None)]
    if not loop.rows:
        return [c_ast.Compound(row)]
    l0, l1, l2 = LOCAL_ID
    _, s1, s2 = loop.sizes
    rows = snippet(f"for (size_t {l2} = 0; {l2} < {s2}; ++{l2})"
                   f" for (size_t {l1} = 0; {l1} < {s1}; ++{l1}) {{}}")[0]
    if loop.row_first is not None:
        rows.stmt.init.decls[0].init = copy.deepcopy(loop.row_first)
        rows.stmt.cond.right = copy.deepcopy(loop.row_end)
    rows.stmt.stmt = c_ast.Compound(row)
    return [rows]


def row_head(loop: WorkItemLoop) -> list:
    """The declarations of a row of ``loop`` before its loop over local id 0: its
    bounds, where it has some, and its row items."""
    row = []
    if loop.end is not None:
        row = [typed(d, ty.SIZE_T) for d in snippet(f"const size_t {FIRST} = 0, {END} = 0;")]
        row[0].init, row[1].init = loop.first, loop.end
    return row + loop.row_items


def _versioned(loop: WorkItemLoop, inner: c_ast.For) -> c_ast.Compound:
    """The test of ``loop``'s fast version, then the fast loop (unchecked, omp simd where
    the loop is, its marks after it) or the checked one."""
    v = loop.versions
    fast = inner_loop(replace(loop, checked=False, body=v.fast))
    simd = [c_ast.Pragma("omp simd")] if loop.simd else []
    return c_ast.Compound(v.test + [c_ast.If(
        c_ast.ID(CHECK_FAST), c_ast.Compound([c_ast.Compound([*simd, fast, *v.marks])]),
        c_ast.Compound([c_ast.Compound([inner])]))])


def _in_steps(loop: WorkItemLoop) -> c_ast.Compound:
    """``loop``'s loop over local id 0, len(loop.steps) work-items a step:

        { T cl2c_q = first;
          for (; cl2c_q + 3 < end; cl2c_q += 4) { { const T l0 = cl2c_q; S0 } ... }
          for (T l0 = cl2c_q; l0 < end; ++l0) S0 }

    where Sk is what the k-th work-item of a step runs (loop.steps[k])."""
    n = len(loop.steps)
    whole = inner_loop(loop)
    decl = whole.init.decls[0]
    q = c_ast.ID("cl2c_q")
    start = copy.deepcopy(decl)
    start.name = start.type.declname = "cl2c_q"
    steps = []
    for k, body in enumerate(loop.steps):
        item = copy.deepcopy(decl)
        item.quals = ["const"] + [x for x in item.quals if x != "const"]
        item.type.quals = ["const"] + [x for x in item.type.quals if x != "const"]
        item.init = c_ast.BinaryOp("+", q, c_ast.Constant("int", str(k))) if k else q
        steps.append(c_ast.Compound([item] + item_body(replace(loop, body=body))))
    stepped = c_ast.For(None, c_ast.BinaryOp(
        "<", c_ast.BinaryOp("+", q, c_ast.Constant("int", str(n - 1))),
        copy.deepcopy(whole.cond.right)),
        c_ast.Assignment("+=", q, c_ast.Constant("int", str(n))), c_ast.Compound(steps))
    whole.init.decls[0].init = q
    whole.stmt = c_ast.Compound(item_body(replace(loop, body=copy.deepcopy(loop.steps[0]))))
    return c_ast.Compound([start, stepped, whole])


def typed(decl: c_ast.Decl, t: ty.Type) -> c_ast.Decl:
    """A typed copy of declaration ``decl`` (a snippet's) that knows its type is ``t``."""
    node = make(c_ast.Decl, decl.name, decl.quals, decl.align, decl.storage, decl.funcspec,
                decl.type, decl.init, decl.bitsize, decl.coord)
    node.ty = t
    return node


def _cast(loop: WorkItemLoop, value: str) -> str:
    """``value`` as the loop counter's type (int counters: the bounds are size_t)."""
    return f"({loop.counter}) {value}" if loop.counter == "int" else value


def _counter(loop: WorkItemLoop, e):
    """Expression ``e`` (a size_t bound) as the loop counter's type."""
    if loop.counter != "int":
        return e
    int_type = make(c_ast.Typename, None, [], None,
                    c_ast.TypeDecl(None, [], None, c_ast.IdentifierType(["int"])))
    int_type.ty = ty.INT
    return c_ast.Cast(int_type, e)


def _ways(loop: WorkItemLoop, inner: c_ast.For, first: str, end: str) -> list:
    """Blocks of WAY_BLOCK work-items, each with the next ``ways - 1`` blocks, their
    statements alternating (loop.interleaved); the rest one at a time (``inner``)."""
    l0, ways, counter = LOCAL_ID[0], loop.ways, loop.counter
    step = f"{ways} * {WAY_BLOCK}"
    ids = ", ".join(f"{way_id(w)} = {l0} + {w - 1} * {WAY_BLOCK}" for w in range(2, ways + 1))
    skeleton = snippet(
        f"const {counter} {BLOCKS} = ({end} - {first}) / ({step});"
        f"for ({counter} {BLOCK} = {first}; {BLOCK} < {first} + {step} * {BLOCKS};"
        f"     {BLOCK} += {step})"
        f"  for ({counter} {l0} = {BLOCK}; {l0} < {BLOCK} + {WAY_BLOCK}; ++{l0}) {{"
        f"    const {counter} {ids};"
        f"  }}")
    blocks = skeleton[1].stmt
    blocks.stmt.block_items += loop.interleaved
    skeleton[1].stmt = c_ast.Compound([c_ast.Pragma("omp simd"), blocks])
    inner.init.decls[0].init = snippet(f"{counter} x = {first} + {step} * {BLOCKS};")[0].init
    return skeleton + [c_ast.Pragma("omp simd"), inner]


__all__ = ["snippet", "group_function", "items", "item_body", "inner_loop",
           "work_item_loop"]
