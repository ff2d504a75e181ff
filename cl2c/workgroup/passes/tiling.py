"""Work-group pass: register tiles for uniform loops hoisted out of work-item loops.

The regions schedule hoists a kernel's uniform loop out of its work-item loops, so that
the work-item loop is innermost and vectorises (workgroup/builders/__init__.py): a naive matrix
multiply becomes

    for (k...) for (l2) for (l1) { omp simd for (l0) acc[cl2c_i] += A[..k] * B[k..]; }

where ``acc`` is a per-work-item array. Every step of ``k`` then loads and stores each
work-item's accumulator, and the loads of B are used once: a vector FMA costs two loads
and a store. This pass runs, where that loop allows it, tiles of ``rows`` x
CL2C_TILE_COLS work-items (regions.h) through the whole loop at a time, with the tile's
values of each per-work-item array in a small local array (copied in before, out
after) that the compiler keeps in registers; a load in a row is shared by the tile's
columns, and one of the loop's other operands by its rows. Single-threaded, a 512^2
matrix multiply in this shape takes half the time of the hoisted one.

Legality: the loop's body is one work-item loop nest that writes nothing but its own
locals and its work-item's elements ``X[cl2c_i]`` of per-work-item arrays, and calls
nothing that has effects; its header reads values the body does not write. Then no
work-item sees another's writes inside the loop, and each still runs the loop's steps in
order: running them tile by tile instead of step by step changes no result. Where the
local size is not known, a tile that reaches past the group's edge runs the loop as it
was, for its work-items (a group cut by the range's edge still runs its whole tiles in
registers), and a group smaller than a tile runs the loop as it was. An array that the
body indexes by a value that changes along the row (``Bs[k][lx]``) bounds the width of
any group the kernel allows: shorter than CL2C_TILE_COLS, it narrows the tiles to 16
columns (or, shorter than 16, leaves the loop untiled), since wider tiles would be dead
code that GCC proves out of bounds, and warns of.

A work-item loop bounded by a guard (``if (row < n && col < m)``: the row's part an
``if`` around the loop, the column's its bounds, builders/bounds.py) runs in tiles too,
in groups of at least one tile: a tile whose work-items all pass the guard runs whole,
and one across the guard's or the group's edge runs the loop as it was, for its own
work-items (a guarded 512^2 matrix multiply: 3.2 ms -> 0.8).

Where every group is one tile (``reqd_work_group_size`` of 16 or 32 columns, one row per
tile row), the tile also stays in registers through a uniform loop around the tiled one
(a tiled matrix multiply's loop over tiles, whose other statements fill ``__local``
memory): it is copied in before that loop and out after it, which is legal where
nothing else in that loop uses the tiled arrays (but the other branch of an ``if`` on
the way, which the tile is copied out before and in after) and nothing jumps out.

A kernel that asks only of the range's dimension 0 (schedules._one_dimensional) runs
in groups of one row, as a rule, which tiles of ROWS rows never fit: its tiles are of
one row, and groups narrower than a tile run tiles of NARROW columns (the lecture's V6,
8 wide: 70 -> 32 ms at 512^2 on 2 threads). One row shares no load between rows, so
such a loop is tiled only where that costs no locality (strides.loads_defeat_tiles):
not where a step reads a large array's row in a run (k-means over a column-major array
ran 1.8x slower so), nor where the work-items load apart (the lecture's V2: 20x slower
so under GCC 13 on a Xeon).

The pass decides on the work-group function as data: a ``GroupLoop`` whose body is one
work-item loop gets a ``Tile``, a loop around that holds it ``holds``, an ``if`` on the
way ``brackets``; workgroup/tiles.py writes the tiles.
"""
from __future__ import annotations

from pycparser import c_ast

from ... import types as ty
from ...typed_ast import changed_names, ids, walk
from ...lower.effects import UPDATE, call_of, value_of_arguments, work_item_function
from ..builders.syntax import escaping_jumps
from .. import write
from ..ir import (Block, GroupFunction, GroupIf, GroupLoop, Tile, WorkItemLoop,
                            all_items, c_parts)
from ..names import (INDEX, L0, LS0, PANEL_FAR, PANEL_STEP, PANEL_STEPS, PANELS, TILE_COL,
                    TILE_COLS, TILE_FROM, TILE_FULL, TILE_ORIGIN, TILE_ROW, TILE_SUFFIX,
                    TILE_TO)
from ..panels import panel_loads
from ..strides import loads_defeat_tiles
from ..tiles import is_element as _is_element, used_decls

COLS = TILE_COLS              # work-items of a tile's row (regions.h)
ROWS = 8                      # rows of a tile, and what cl2c_regroup makes a group's
NARROW = 8                    # columns of the tiles of narrower groups of one row
_TILE_BYTES = 1024            # tile values in registers: 16 of AVX-512's 32 (8 x 32 floats)
_SIZES = {"float": 4, "int": 4, "unsigned": 4, "cl2c_uint": 4, "double": 8, "long": 8,
          "cl2c_long": 8, "cl2c_ulong": 8, "short": 2, "cl2c_ushort": 2, "cl2c_half": 2,
          "char": 1, "cl2c_char": 1, "cl2c_uchar": 1}
_COLS_VALUE = 32              # CL2C_TILE_COLS, for the size budget
_NAMES = (*TILE_ORIGIN, TILE_ROW, TILE_COL, TILE_FULL, TILE_FROM, TILE_TO, PANELS,
          PANEL_STEP, PANEL_STEPS, PANEL_FAR)


def tile_uniform_loops(gf: GroupFunction, local_size: tuple | None = None,
                       one_row: bool = False) -> list[int]:
    """Tile, in work-group function ``gf``, each hoisted uniform loop that allows it;
    returns the rows of the tiles of each. ``local_size``: every group's, where it is
    known (reqd_work_group_size): tiles that fit it, and no test of it in the C.
    ``one_row``: groups are one row, as a rule (a kernel that asks only of the range's
    dimension 0): tiles of one row, which such groups run (tiles of ROWS rows they
    never do, and their loop then loaded and stored each work-item's values at every
    step: the lecture's V6 ran 2.2x slower so)."""
    taken = set().union(*(ids(part) for part in
                          [*gf.prologue, *(node for node, _ in c_parts(gf.items))]))
    if any(n in taken for n in _NAMES):
        return []
    cols = COLS
    if local_size is not None:
        if local_size[0] % _COLS_VALUE:     # 16 columns where the group has 16 or 48
            if local_size[0] % 16:
                return []
            cols = 16
    arrays = {n: t for n, t in gf.item_arrays.items() if t in _SIZES}
    # the group's own storage (per-work-item arrays: a private array's elements for the
    # work-items side by side), which a tile's columns read in a run of their own
    scratch = {d.name for d in gf.prologue if isinstance(d, c_ast.Decl) and d.name}
    found, around = [], []
    for loop, enclosing in _group_loops(gf.items, []):
        plan = _Plan.of(loop, arrays, taken, cols, one_row and local_size is None, scratch)
        if plan is None:
            continue
        plan.known = local_size is not None
        if plan.known and not plan.bounded and plan.one_tile(local_size):
            outer, branches = _loop_around(enclosing, plan)
            if outer is not None and not any(outer is x for x in around):
                around.append(outer)        # (one tile in registers per loop)
                plan.around, plan.branches = outer, branches
            if plan.around is not None or local_size[1] % plan.rows:
                plan.rows = local_size[1]   # the group's rows are the tile's
        if plan.known and local_size[1] % plan.rows:
            continue
        found.append(plan)
    for plan in found:
        held = plan.around is not None
        shared = 0 if held or plan.rows < 2 else \
            len(panel_loads(plan.group_loop.node, plan.inner.stmt, plan.row_items))
        tile = Tile(plan.rows, plan.cols, plan.tiled, plan.row_items, plan.known,
                    plan.bounded, held=held, narrower=plan.narrower, panels=shared)
        plan.group_loop.tile = tile
        if plan.around is not None:
            plan.around.holds = tile
            for gi, branch in plan.branches:
                gi.brackets.append((branch, tile))
    return [plan.rows for plan in found]


def _group_loops(items, enclosing):
    """(group loop, the group loops and ifs around it, innermost first) for each group
    loop of ``items``, in order."""
    for it in items:
        if isinstance(it, GroupLoop):
            yield it, enclosing
            yield from _group_loops(it.body, [it] + enclosing)
        elif isinstance(it, GroupIf):
            yield from _group_loops(it.then, [it] + enclosing)
            yield from _group_loops(it.other, [it] + enclosing)
        elif isinstance(it, Block):
            yield from _group_loops(it.items, enclosing)


def _loop_around(enclosing, plan) -> tuple:
    """The outermost group loop around ``plan``'s loop (through ifs and loops) in
    which the tiled arrays appear only in that loop, or in the other branch of an
    ``if`` around it (a checking build's checked twin of the loop, which the tile is
    then copied out before and in after), and which nothing leaves by return or goto:
    the tile can stay in registers through it. Returns (that loop or None, the (if,
    "then" or "other") pairs to bracket)."""
    tiled = set(plan.tiled)

    def uses(items) -> int:
        """Mentions of the tiled arrays in ``items``; -1 where they return or jump."""
        count = 0
        for node in write.items(items):
            for n in walk(node):
                if isinstance(n, (c_ast.Return, c_ast.Goto, c_ast.Label)):
                    return -1
                count += isinstance(n, c_ast.ID) and n.name in tiled
        return count

    inside, best, branches, bracketed, brackets = uses([plan.group_loop]), None, [], 0, []
    for item in enclosing:
        if isinstance(item, GroupIf) and item.other:
            holds = any(x is plan.group_loop for x in all_items(item.then))
            branch = "other" if holds else "then"
            other = getattr(item, branch)
            used = uses(other)
            if used > 0 and not any(True for s in write.items(other)
                                    for _ in escaping_jumps(s)):
                branches.append((item, branch))
                bracketed += used
        if uses([item]) != inside + bracketed:
            break                           # (or it returns or jumps)
        if not isinstance(item, GroupIf):
            best, brackets = item, list(branches)
    return best, brackets


def _counter(loop: c_ast.For) -> str | None:
    """The name a for loop's header sets first (``int k = 0`` or ``k = 0``)."""
    init = loop.init
    if isinstance(init, c_ast.DeclList) and len(init.decls) == 1:
        return init.decls[0].name
    if isinstance(init, c_ast.Assignment) and isinstance(init.lvalue, c_ast.ID):
        return init.lvalue.name
    return None


def _harmless_call(node, local=frozenset()) -> bool:
    """A call with no effect, or one that writes through its first argument (a swizzle
    store, ++ on a vector) where that is ``&x`` of a local ``x``."""
    call = call_of(node)
    if call is None:
        return False
    if call == UPDATE:
        first = node.args.exprs[0] if node.args and node.args.exprs else None
        return isinstance(first, c_ast.UnaryOp) and first.op == "&" and \
            isinstance(first.expr, c_ast.ID) and first.expr.name in local
    return value_of_arguments(node) or work_item_function(node) is not None


def _reads_only(e) -> bool:
    """Expression ``e`` computes and reads: no assignment, no call with effects."""
    for n in walk(e):
        if isinstance(n, c_ast.Assignment):
            return False
        if isinstance(n, c_ast.UnaryOp) and n.op in ("++", "--", "p++", "p--"):
            return False
        if isinstance(n, c_ast.FuncCall) and not _harmless_call(n):
            return False
    return True


class _Plan:
    """A uniform loop around one work-item loop nest, and what its tiles hold."""

    def __init__(self, group_loop, row_items, inner, tiled: dict, rows: int, cols):
        self.group_loop = group_loop  # the uniform loop
        self.row_items = row_items  # the row's declarations a tile's row runs
        self.inner = inner          # the loop over local id 0, as C
        self.tiled = tiled          # {array: element type} the tile holds
        self.rows = rows
        self.cols = cols            # CL2C_TILE_COLS, or 16 where groups are 16 wide
        self.known = False          # every group is whole tiles: no test, no other path
        self.around = None          # a loop around this one that the tile stays through
        self.branches = []          # (if, branch): other uses, bracketed by copies
        self.bounded = False        # the work-item loop has bounds other than the group's
        self.narrower = 0           # NARROW: tiles that wide for narrower groups

    @classmethod
    def of(cls, group_loop: GroupLoop, arrays: dict, taken: set, cols=COLS,
           one_row: bool = False, scratch=frozenset()):
        if len(group_loop.body) != 1 or not isinstance(group_loop.body[0], WorkItemLoop):
            return None
        item = group_loop.body[0]
        if not (item.simd and item.rows and item.row_first is None and
                item.lanes is None and item.ways == 1 and
                item.steps is None and item.versions is None and not item.after):
            return None
        s = group_loop.node
        if not isinstance(s, c_ast.For) or not _header_ok(s):
            return None
        guard = item.row_guard              # (a test that does not depend on local id 0)
        items = write.row_head(item)
        inner = write.inner_loop(item)
        whole = item.end is None and item.counter == "int" and item.sizes[0] == LS0
        if not whole and not (guard is not None or _bounds_of(inner)) or \
                whole and guard is not None:    # (bounds.py bounds a guarded loop)
            return None
        row_items = items
        if not all(isinstance(d, c_ast.Decl) and _reads_only(d) for d in row_items):
            return None
        tiled = _tiled_arrays(inner.stmt, arrays)
        if not tiled:
            return None
        bound = _column_bound(inner.stmt)
        if bound is not None and bound < _cols_value(cols):
            # no group that the body's arrays allow is a tile wide (GCC proves the tile
            # out of bounds and warns): tiles of 16 columns where they allow 16
            if cols != COLS or bound < 16:
                return None
            cols = 16
        # the loop's header must not read what the body writes (it is rerun per tile),
        # nor may the row's guard or the work-item loop's bounds (tested per tile)
        tests = [s.cond, s.next] + ([guard] if guard is not None else []) + \
            ([] if whole else list(_bounds_of(inner)))
        if any(t is not None and ids(t) & set(tiled) for t in tests) or \
                (guard is not None and not _reads_only(guard)):
            return None
        # whole tiles are found before the loop: its bounds, guard and row declarations
        # cannot read what the loop changes (`for (j...) if (lx == j)`: bounds from j)
        varying = {d.name for d in s.init.decls} | changed_names(s.next) | \
            changed_names(inner.stmt)
        if not whole and any(ids(t) & varying for t in [*tests[2:], *row_items]):
            return None
        per_row = _per_row(tiled, cols)
        counter = _counter(s)
        if one_row and (counter is None or
                        loads_defeat_tiles(inner.stmt.block_items or [], counter, set(scratch))):
            return None         # (tiles of one row would cost it locality)
        if one_row or _one_sided_loads(inner.stmt, {d.name for d in s.init.decls}, arrays):
            rows = 1            # a row of a tile loses no locality: any launch shape
        else:
            rows = ROWS         # a tile's rows share its loads: groups of ROWS rows
            while rows > 1 and rows * per_row > _TILE_BYTES:
                rows //= 2
            if rows < 2:
                return None
        if per_row * rows > _TILE_BYTES or \
                any(f"{a}{TILE_SUFFIX}" in taken for a in tiled):
            return None
        plan = cls(group_loop, row_items, inner, tiled, rows, cols)
        plan.bounded = not whole
        if one_row and cols == COLS and (bound is None or bound >= NARROW):
            plan.narrower = NARROW
        if plan.bounded:
            # (whole tiles need no bounds)
            plan.row_items = used_decls(row_items, [inner.stmt], keep_unused=True)
        return plan

    def one_tile(self, local_size: tuple) -> bool:
        """Is every group of that size one tile, whose values fit the registers?"""
        return local_size[0] == _cols_value(self.cols) and local_size[2] == 1 and \
            local_size[1] * _per_row(self.tiled, self.cols) <= _TILE_BYTES


def _cols_value(cols) -> int:
    """A tile's columns as a number (CL2C_TILE_COLS's value, or 16)."""
    return _COLS_VALUE if cols == COLS else cols


def _column_bound(body: c_ast.Compound) -> int | None:
    """The length of the shortest array that the work-item loop's ``body`` indexes by
    a value that changes along a row of work-items (``Bs[k][lx]``), or None."""
    varying = {L0}
    for d in body.block_items or []:
        if isinstance(d, c_ast.Decl) and d.init is not None and ids(d.init) & varying:
            varying.add(d.name)
    lengths = [n.name.ty.length for n in walk(body)
               if isinstance(n, c_ast.ArrayRef) and ids(n.subscript) & varying and
               isinstance(getattr(n.name, "ty", None), ty.Array) and
               n.name.ty.length is not None]
    return min(lengths, default=None)


def _per_row(tiled: dict, cols) -> int:
    """Bytes of a tile's row."""
    return sum(_SIZES[t] for t in tiled.values()) * _cols_value(cols)


def _bounds_of(inner: c_ast.For) -> tuple:
    """(first, end) of the work-item loop ``for (int cl2c_l0 = first; cl2c_l0 < end;
    ++cl2c_l0)``, expressions that only read; () where it has another shape."""
    cond, init = inner.cond, inner.init.decls[0].init
    if isinstance(cond, c_ast.BinaryOp) and cond.op == "<" and \
            isinstance(cond.left, c_ast.ID) and cond.left.name == L0 and \
            init is not None and _reads_only(init) and _reads_only(cond.right) and \
            isinstance(inner.next, c_ast.UnaryOp) and inner.next.op in ("++", "p++"):
        return init, cond.right
    return ()


def _header_ok(loop: c_ast.For) -> bool:
    """A header that can run again with the same effect: counters it declares (one
    declared outside would be left unassigned where a group has no whole tile, as
    far as the compiler can tell), a condition and steps that only read otherwise."""
    init = loop.init
    if not isinstance(init, c_ast.DeclList) or \
            not all(_reads_only(d.init) for d in init.decls if d.init is not None):
        return False
    if loop.cond is None or not _reads_only(loop.cond):
        return False
    steps = loop.next.exprs if isinstance(loop.next, c_ast.ExprList) else \
        [loop.next] if loop.next is not None else []
    for e in steps:
        if isinstance(e, c_ast.UnaryOp) and e.op in ("++", "--", "p++", "p--") and \
                isinstance(e.expr, c_ast.ID):
            continue
        if isinstance(e, c_ast.Assignment) and isinstance(e.lvalue, c_ast.ID) and \
                _reads_only(e.rvalue):
            continue
        return False
    return True


def _tiled_arrays(body: c_ast.Compound, arrays: dict) -> dict | None:
    """The per-work-item arrays the work-item loop's body writes (those it only reads
    stay where they are), each used only as its work-item's element; None where the
    body writes anything else, has effects, or uses an array another way (a
    neighbour's element, its address)."""
    local = {d.name: d for d in walk(body) if isinstance(d, c_ast.Decl)}
    written: dict = {}

    def visit(n) -> bool:
        if _is_element(n, arrays):
            return True
        if isinstance(n, c_ast.StructRef):
            return visit(n.name)                    # (its field names no variable)
        if isinstance(n, c_ast.ID):
            return n.name not in arrays
        if isinstance(n, (c_ast.Return, c_ast.Goto, c_ast.Label, c_ast.Break,
                          c_ast.Continue)):
            return False
        if isinstance(n, c_ast.FuncCall):
            if not _harmless_call(n, local):
                return False
            args = n.args.exprs if n.args else []
            if call_of(n) == UPDATE:                # its first argument is &local
                args = args[1:]
            return all(visit(a) for a in args)
        if isinstance(n, c_ast.UnaryOp) and n.op == "&":
            return False
        if isinstance(n, c_ast.Assignment) or \
                (isinstance(n, c_ast.UnaryOp) and n.op in ("++", "--", "p++", "p--")):
            target = n.lvalue if isinstance(n, c_ast.Assignment) else n.expr
            if _is_element(target, arrays):
                written[target.name.name] = arrays[target.name.name]
            elif not _in_local(target, local):
                return False
        return all(visit(child) for _, child in n.children())

    return written if visit(body) else None


def _in_local(target, local: dict) -> bool:
    """``x``, ``x.s[3]``, ``x.f[i].g`` of a local ``x`` that is no pointer: no memory
    but its own."""
    while isinstance(target, c_ast.ArrayRef) or \
            (isinstance(target, c_ast.StructRef) and target.type == "."):
        target = target.name
    return isinstance(target, c_ast.ID) and target.name in local and \
        not isinstance(local[target.name].type, c_ast.PtrDecl)


def _one_sided_loads(body: c_ast.Compound, counters: set, arrays: dict) -> bool:
    """Does every load of the body depend on the loop's counters or on the work-item,
    never on both? (N-body's ``pos[j]``, and its own position; not a matrix product's
    ``B[k * n + col]``, which a one-row tile would read down a column.)"""
    lane = {L0, INDEX}
    steps = set(counters)
    local = {d.name: d for d in walk(body) if isinstance(d, c_ast.Decl)}
    for n in walk(body):                 # locals, in order, with what their values use
        if isinstance(n, c_ast.Decl) and n.init is not None:
            used = ids(n.init) | ({L0} if _item_call(n.init) else set())
            lane |= {n.name} if used & lane else set()
            steps |= {n.name} if used & steps else set()
        elif isinstance(n, c_ast.Assignment) and isinstance(n.lvalue, c_ast.ID):
            used = ids(n.rvalue) | ({L0} if _item_call(n.rvalue) else set())
            lane |= {n.lvalue.name} if used & lane else set()
            steps |= {n.lvalue.name} if used & steps else set()
    for n in walk(body):
        if isinstance(n, c_ast.ArrayRef) and not _is_element(n, arrays) and \
                not _in_local(n, local):        # (a component of a local: no load)
            where = ids(n.subscript) | ids(n.name)
        elif isinstance(n, c_ast.UnaryOp) and n.op == "*":
            where = ids(n.expr)
        else:
            continue
        if where & lane and where & steps:
            return False
    return True


def _item_call(e) -> bool:
    return any(isinstance(n, c_ast.FuncCall) and work_item_function(n) == "item"
               for n in walk(e))
