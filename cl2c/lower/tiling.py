"""Lowering pass: register tiles for uniform loops hoisted out of work-item loops.

The regions schedule hoists a kernel's uniform loop out of its work-item loops, so that
the work-item loop is innermost and vectorises (regions/__init__.py): a naive matrix
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
``if`` around the loop, the column's its bounds, regions/bounds.py) runs in tiles too,
in groups of at least one tile: a tile whose work-items all pass the guard runs whole,
and one across the guard's or the group's edge runs the loop as it was, for its own
work-items (a guarded 512^2 matrix multiply: 3.2 ms -> 0.8).

Where every group is one tile (``reqd_work_group_size`` of 16 or 32 columns, one row per
tile row), the tile also stays in registers through a uniform loop around the tiled one
(a tiled matrix multiply's loop over tiles, whose other statements fill ``__local``
memory): it is copied in before that loop and out after it, which is legal where
nothing else in that loop uses the tiled arrays (but the other branch of an ``if`` on
the way, which the tile is copied out before and in after) and nothing jumps out.
"""
from __future__ import annotations

import copy

from pycparser import c_ast

from .. import types as ty
from ..typed_ast import walk
from . import cnodes as cn
from .effects import UPDATE, call_of, value_of_arguments, work_item_function
from .regions.syntax import escaping_jumps, ids, replace_child, replace_node
from ..workgroup.names import INDEX, L0, L1, L2, LS0, LS1

COLS = "CL2C_TILE_COLS"       # work-items of a tile's row (regions.h)
ROWS = 8                      # rows of a tile, and what cl2c_regroup makes a group's
_TILE_BYTES = 1024            # tile values in registers: 16 of AVX-512's 32 (8 x 32 floats)
_SIZES = {"float": 4, "int": 4, "unsigned": 4, "cl2c_uint": 4, "double": 8, "long": 8,
          "cl2c_long": 8, "cl2c_ulong": 8, "short": 2, "cl2c_ushort": 2, "cl2c_half": 2,
          "char": 1, "cl2c_char": 1, "cl2c_uchar": 1}
_COLS_VALUE = 32              # CL2C_TILE_COLS, for the size budget
_NAMES = ("cl2c_t0", "cl2c_t1", "cl2c_r", "cl2c_c", "cl2c_full", "cl2c_from", "cl2c_to")


def tile_uniform_loops(func: c_ast.FuncDef, local_size: tuple | None = None) -> list[int]:
    """Tile, in work-group function ``func``, each hoisted uniform loop that allows it;
    returns the rows of the tiles of each. ``local_size``: every group's, where it is
    known (reqd_work_group_size): tiles that fit it, and no test of it in the C."""
    taken = ids(func.body)
    if any(n in taken for n in _NAMES):
        return []
    cols = COLS
    if local_size is not None:
        if local_size[0] % _COLS_VALUE:     # 16 columns where the group has 16 or 48
            if local_size[0] % 16:
                return []
            cols = 16
    arrays = _work_item_arrays(func.body)
    found, around = [], []
    for block, i, enclosing in _statements(func.body):
        plan = _Plan.of(block.block_items[i], arrays, taken, cols)
        if plan is None:
            continue
        plan.known = local_size is not None
        if plan.known and not plan.bounded and plan.one_tile(local_size):
            loop, branches = _loop_around(enclosing, plan)
            if loop is not None and not any(loop is x for x in around):
                around.append(loop)         # (one tile in registers per loop)
                plan.around, plan.branches = loop, branches
            if plan.around is not None or local_size[1] % plan.rows:
                plan.rows = local_size[1]   # the group's rows are the tile's
        if plan.known and local_size[1] % plan.rows:
            continue
        found.append((block, i, plan))
    for block, i, plan in found:
        if plan.around is None:
            block.block_items[i] = plan.rewrite()
        else:
            block.block_items[i] = plan.steps()
            for branch_of, name in plan.branches:
                setattr(branch_of, name, c_ast.Compound(
                    plan.copies(False) + [getattr(branch_of, name)] + plan.copies(True)))
            replace_node(func.body, plan.around, plan.hoisted(plan.around))
    return [plan.rows for _, _, plan in found]


def _statements(body: c_ast.Compound):
    """(compound, index, enclosing) for each statement of a compound under ``body``;
    ``enclosing``: the statements around it, innermost first, as a chain of
    ``(node, outer chain)`` pairs (no recursion: kernels nest thousands deep)."""
    stack = [(body, None)]
    while stack:
        node, chain = stack.pop()
        if isinstance(node, c_ast.Compound):
            for i, s in enumerate(node.block_items or []):
                yield node, i, chain
        inner = (node, chain) if isinstance(node, (c_ast.For, c_ast.While, c_ast.DoWhile,
                                                   c_ast.If)) else chain
        stack.extend((child, inner) for _, child in node.children())


def _loop_around(enclosing, plan) -> tuple:
    """The outermost uniform loop around ``plan``'s loop (through compounds, ifs and
    loops) in which the tiled arrays appear only in that loop, or in the other branch
    of an ``if`` around it (a checking build's checked twin of the loop, which the tile
    is then copied out before and in after), and which nothing leaves by return or
    goto: the tile can stay in registers through it. Returns (that loop or None, the
    (if, branch name) pairs to bracket)."""
    tiled = set(plan.tiled)

    def uses(node) -> int:
        """Mentions of the tiled arrays in ``node``; -1 where it returns or jumps."""
        count = 0
        for n in walk(node):
            if isinstance(n, (c_ast.Return, c_ast.Goto, c_ast.Label)):
                return -1
            count += isinstance(n, c_ast.ID) and n.name in tiled
        return count

    inside, best, branches, bracketed, brackets = uses(plan.loop), None, [], 0, []
    while enclosing is not None:
        node, enclosing = enclosing
        if isinstance(node, c_ast.For) and isinstance(node.init, c_ast.DeclList) and \
                any(d.name.startswith("cl2c_") for d in node.init.decls):
            break                           # a loop over work-items or tiles
        if isinstance(node, c_ast.If) and node.iffalse is not None:
            holds = any(n is plan.loop for n in walk(node.iftrue))
            name = "iffalse" if holds else "iftrue"
            other = getattr(node, name)
            used = uses(other)
            if used > 0 and not any(True for _ in escaping_jumps(other)):
                branches.append((node, name))
                bracketed += used
        if uses(node) != inside + bracketed:
            break                           # (or it returns or jumps)
        if not isinstance(node, c_ast.If):
            best, brackets = node, list(branches)
    return best, brackets


def _work_item_arrays(body: c_ast.Compound) -> dict:
    """{name: element type name} of the per-work-item arrays of a work-group function:
    ``T *X = cl2c_take(...)`` at its top level (privates.py's storage)."""
    out = {}
    for s in body.block_items or []:
        if isinstance(s, c_ast.Decl) and isinstance(s.type, c_ast.PtrDecl) and \
                isinstance(s.init, c_ast.FuncCall) and \
                isinstance(s.init.name, c_ast.ID) and s.init.name.name == "cl2c_take":
            t = s.type.type
            if isinstance(t, c_ast.TypeDecl) and isinstance(t.type, c_ast.IdentifierType):
                name = " ".join(t.type.names)
                if name in _SIZES:
                    out[s.name] = name
    return out


def _loop_var(s, name) -> bool:
    """``for (size_t NAME = 0; NAME < ...; ++NAME)``"""
    return isinstance(s, c_ast.For) and isinstance(s.init, c_ast.DeclList) and \
        len(s.init.decls) == 1 and s.init.decls[0].name == name


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

    def __init__(self, loop, outer, row_items, inner, tiled: dict, rows: int, cols):
        self.loop = loop            # the uniform loop
        self.outer = outer          # for (cl2c_l2) for (cl2c_l1) {...}
        self.row_items = row_items  # the l1 level's declarations
        self.inner = inner          # the omp simd loop over cl2c_l0
        self.tiled = tiled          # {array: element type} the tile holds
        self.rows = rows
        self.cols = cols            # CL2C_TILE_COLS, or 16 where groups are 16 wide
        self.known = False          # every group is whole tiles: no test, no other path
        self.around = None          # a loop around this one that the tile stays through
        self.branches = []          # (if, branch name): other uses, bracketed by copies
        self.guard = None           # a guard of the row around the work-item loop, or None
        self.guarded = []           # the declarations under that guard
        self.lead = []              # the row's declarations before it
        self.bounded = False        # the work-item loop has bounds other than the group's

    @classmethod
    def of(cls, s, arrays: dict, taken: set, cols=COLS):
        if not isinstance(s, c_ast.For) or not _header_ok(s):
            return None
        body = [x for x in (s.stmt.block_items or [])
                if not isinstance(x, c_ast.EmptyStatement)] \
            if isinstance(s.stmt, c_ast.Compound) else []
        if len(body) != 1 or not _loop_var(body[0], L2) or \
                not _loop_var(body[0].stmt, L1) or \
                not isinstance(body[0].stmt.stmt, c_ast.Compound):
            return None
        outer = body[0]
        items = outer.stmt.stmt.block_items or []
        guard, guarded = None, []
        if items and isinstance(items[-1], c_ast.If) and items[-1].iffalse is None and \
                isinstance(items[-1].iftrue, c_ast.Compound):
            guard = items[-1]               # a guard that does not depend on the local id 0
            guarded = guard.iftrue.block_items or []
            if len(guarded) < 2:
                return None
            items = items[:-1] + guarded
        if len(items) < 2 or not isinstance(items[-2], c_ast.Pragma) or \
                items[-2].string.strip() != "omp simd" or not _loop_var(items[-1], L0):
            return None
        inner = items[-1]
        cond = inner.cond
        whole = isinstance(cond, c_ast.BinaryOp) and cond.op == "<" and \
            isinstance(cond.left, c_ast.ID) and cond.left.name == L0 and \
            isinstance(cond.right, c_ast.Cast) and isinstance(cond.right.expr, c_ast.ID) \
            and cond.right.expr.name == LS0 and \
            isinstance(inner.init.decls[0].init, c_ast.Constant) and \
            inner.init.decls[0].init.value == "0"
        if not whole and not (guard is not None or _bounds_of(inner)) or \
                whole and guard is not None:    # (bounds.py bounds a guarded loop)
            return None
        row_items = items[:-2]
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
        tests = [s.cond, s.next] + ([guard.cond] if guard else []) + \
            ([] if whole else list(_bounds_of(inner)))
        if any(t is not None and ids(t) & set(tiled) for t in tests) or \
                (guard is not None and not _reads_only(guard.cond)):
            return None
        per_row = _per_row(tiled, cols)
        if _one_sided_loads(inner.stmt, {d.name for d in s.init.decls}, arrays):
            rows = 1            # a row of a tile loses no locality: any launch shape
        else:
            rows = ROWS         # a tile's rows share its loads: groups of ROWS rows
            while rows > 1 and rows * per_row > _TILE_BYTES:
                rows //= 2
            if rows < 2:
                return None
        if per_row * rows > _TILE_BYTES or any(f"{a}__tile" in taken for a in tiled):
            return None
        plan = cls(s, outer, row_items, inner, tiled, rows, cols)
        plan.bounded = not whole
        if plan.bounded:
            plan.guard = guard.cond if guard is not None else None
            plan.guarded = guarded[:-2]
            plan.lead = row_items[:len(row_items) - len(plan.guarded)]
            # (whole tiles need no bounds)
            plan.row_items = _used_decls(row_items, [inner.stmt], keep_unused=True)
        return plan

    def one_tile(self, local_size: tuple) -> bool:
        """Is every group of that size one tile, whose values fit the registers?"""
        return local_size[0] == _cols_value(self.cols) and local_size[2] == 1 and \
            local_size[1] * _per_row(self.tiled, self.cols) <= _TILE_BYTES

    def rewrite(self) -> c_ast.If:
        """``if (whole tiles) { tiles } else <the loop as it was>``"""
        loop = self.loop
        tile = c_ast.Compound(self._tile_decls() + self.copies(True) + [self.steps()] +
                              self.copies(False))
        cols = c_ast.For(c_ast.DeclList([_decl("size_t", "cl2c_t0", cn.const_int(0))]),
                         c_ast.BinaryOp("<", cn.ident("cl2c_t0"), cn.ident(LS0)),
                         c_ast.Assignment("+=", cn.ident("cl2c_t0"), self._cols()), tile)
        rows = c_ast.For(c_ast.DeclList([_decl("size_t", "cl2c_t1", cn.const_int(0))]),
                         c_ast.BinaryOp("<", cn.ident("cl2c_t1"), cn.ident(LS1)),
                         c_ast.Assignment("+=", cn.ident("cl2c_t1"),
                                          cn.const_int(self.rows)), cols)
        nest = copy.deepcopy(self.outer)
        nest.stmt = rows
        if self.bounded or not self.known:
            # tiles on the group's or the guard's edges run the loop as it was, for
            # their work-items (a group cut by the range's edge still runs its whole
            # tiles in registers); a group smaller than a tile runs it whole
            cols.stmt = c_ast.Compound(self._full_test() + [
                c_ast.If(cn.ident("cl2c_full"), tile, c_ast.Compound([self._partial()]))])
        if self.known:
            return c_ast.Compound([nest])
        whole = c_ast.BinaryOp(">=", cn.ident(LS0), self._cols())
        if self.rows > 1:
            whole = c_ast.BinaryOp("&&", whole, c_ast.BinaryOp(
                ">=", cn.ident(LS1), cn.const_int(self.rows)))
        return c_ast.If(whole, c_ast.Compound([nest]), c_ast.Compound([loop]))

    def _full_test(self) -> list:
        """``cl2c_full``: is the tile at (cl2c_t0, cl2c_t1) within the group, and does
        every work-item of it pass the row's guard and the work-item loop's bounds?"""
        room = c_ast.BinaryOp("&&", c_ast.BinaryOp(
            "<=", c_ast.BinaryOp("+", cn.ident("cl2c_t1"), cn.const_int(self.rows)),
            cn.ident(LS1)), c_ast.BinaryOp(
            "<=", c_ast.BinaryOp("+", cn.ident("cl2c_t0"), self._cols()), cn.ident(LS0)))
        if not self.bounded:        # the group's edges are the work-item loop's bounds
            return [_decl("int", "cl2c_full", room)]
        init, hi = _bounds_of(self.inner)
        t0 = _int(cn.ident("cl2c_t0"))
        inside = c_ast.BinaryOp("&&", c_ast.BinaryOp("<=", copy.deepcopy(init), t0),
                                c_ast.BinaryOp("<=", c_ast.BinaryOp("+", copy.deepcopy(t0),
                                                                    self._cols()),
                                               copy.deepcopy(hi)))
        test = [c_ast.Assignment("=", cn.ident("cl2c_full"), inside)]
        if self.guard is not None:
            test = _used_decls(self.guarded, [init, hi]) + test
            test = [c_ast.If(copy.deepcopy(self.guard), c_ast.Compound(test), c_ast.Assignment(
                "=", cn.ident("cl2c_full"), cn.const_int(0)))]
        roots = [init, hi] + ([self.guard] if self.guard is not None else [])
        test = _used_decls(self.lead, roots + test) + test
        rows = _counted("cl2c_r", self.rows, c_ast.Compound([self._row_l1()] + test))
        rows.cond = c_ast.BinaryOp("&&", cn.ident("cl2c_full"), rows.cond)
        return [_decl("int", "cl2c_full", room), rows]

    def _partial(self) -> c_ast.For:
        """The loop as it was, for the work-items of the tile at (cl2c_t0, cl2c_t1) only
        (those of a tile that does not run whole)."""
        body = copy.deepcopy(self.outer.stmt.stmt)
        items = body.block_items
        if self.guard is not None:
            items = items[-1].iftrue.block_items
        inner = items[-1]
        init, hi = inner.init.decls[0].init, inner.cond.right
        t0 = _int(cn.ident("cl2c_t0"))
        end = c_ast.BinaryOp("+", copy.deepcopy(t0), self._cols())
        first = copy.deepcopy(t0) if not self.bounded else c_ast.TernaryOp(
            c_ast.BinaryOp(">", init, t0), copy.deepcopy(init), copy.deepcopy(t0))
        items[-2:-2] = [
            _const_decl("int", "cl2c_from", first),
            _const_decl("int", "cl2c_to", c_ast.TernaryOp(
                c_ast.BinaryOp("<", hi, end), copy.deepcopy(hi), copy.deepcopy(end)))]
        inner.init.decls[0].init = cn.ident("cl2c_from")
        inner.cond.right = cn.ident("cl2c_to")
        rows = _counted("cl2c_r", self.rows, c_ast.Compound([self._row_l1()] +
                                                             (body.block_items or [])))
        rows.cond = c_ast.BinaryOp("&&", rows.cond, c_ast.BinaryOp(
            "<", c_ast.BinaryOp("+", cn.ident("cl2c_t1"), cn.ident("cl2c_r")),
            cn.ident(LS1)))
        loop = copy.deepcopy(self.loop)
        loop.stmt = c_ast.Compound([rows])
        return loop

    @staticmethod
    def _row_l1() -> c_ast.Decl:
        l1 = _const_decl("size_t", L1, c_ast.BinaryOp("+", cn.ident("cl2c_t1"),
                                                              cn.ident("cl2c_r")))
        l1.funcspec = ["CL2C_UNUSED"]       # (where neither guard nor bounds use the row)
        return l1

    def hoisted(self, around) -> c_ast.Compound:
        """``around`` (which holds this loop's steps) with the group's one tile copied in
        before it and out after it."""
        origin = [_const_decl("size_t", n, cn.const_int(0)) for n in ("cl2c_t0", "cl2c_t1")]
        return c_ast.Compound(self._tile_decls() + origin + self.copies(True) +
                              [around] + self.copies(False))

    def _tile_decls(self) -> list:
        return [c_ast.Decl(f"{a}__tile", [], [], [], [],
                           c_ast.ArrayDecl(c_ast.ArrayDecl(
                               c_ast.TypeDecl(f"{a}__tile", [], None,
                                              c_ast.IdentifierType(t.split())),
                               self._cols(), []), cn.const_int(self.rows), []), None, None)
                for a, t in self.tiled.items()]

    def steps(self) -> c_ast.For:
        """The loop, each step running the tile's rows with the tile's values."""
        r, loop = self.rows, self.loop
        body = copy.deepcopy(self.inner.stmt)
        for n in walk(body):
            for name, child in list(n.children()):
                if _is_element(child, self.tiled):
                    replace_child(n, name, _tile_ref(child.name.name))
        l0 = _const_decl("int", L0,
                         c_ast.BinaryOp("+", _int(cn.ident("cl2c_t0")), cn.ident("cl2c_c")))
        columns = c_ast.For(c_ast.DeclList([_decl("int", "cl2c_c", cn.const_int(0))]),
                            c_ast.BinaryOp("<", cn.ident("cl2c_c"), self._cols()),
                            c_ast.UnaryOp("++", cn.ident("cl2c_c")),
                            c_ast.Compound([l0] + (body.block_items or [])))
        l1 = _const_decl("size_t", L1, c_ast.BinaryOp("+", cn.ident("cl2c_t1"),
                                                              cn.ident("cl2c_r")))
        row = _counted("cl2c_r", r, c_ast.Compound(
            [l1] + copy.deepcopy(self.row_items) + [c_ast.Pragma("omp simd"), columns]))
        steps = copy.deepcopy(loop)
        steps.stmt = c_ast.Compound([row])
        return steps

    def _cols(self):
        return cn.ident(COLS) if self.cols == COLS else cn.const_int(self.cols)

    def copies(self, into: bool) -> list:
        """The tile's values in from the per-work-item arrays, or back out."""
        index = c_ast.BinaryOp("+", c_ast.BinaryOp("+", cn.ident("cl2c_t0"),
                                                   cn.ident("cl2c_c")),
                               c_ast.BinaryOp("*", cn.ident(LS0), c_ast.BinaryOp(
                                   "+", c_ast.BinaryOp("+", cn.ident("cl2c_t1"),
                                                       cn.ident("cl2c_r")),
                                   c_ast.BinaryOp("*", cn.ident(LS1),
                                                  cn.ident(L2)))))
        out = []
        for a in self.tiled:
            element = c_ast.ArrayRef(cn.ident(a), copy.deepcopy(index))
            tile = _tile_ref(a)
            assign = c_ast.Assignment("=", tile, element) if into else \
                c_ast.Assignment("=", element, tile)
            columns = c_ast.For(c_ast.DeclList([_decl("int", "cl2c_c", cn.const_int(0))]),
                                c_ast.BinaryOp("<", cn.ident("cl2c_c"), self._cols()),
                                c_ast.UnaryOp("++", cn.ident("cl2c_c")),
                                c_ast.Compound([assign]))
            out.append(_counted("cl2c_r", self.rows,
                                c_ast.Compound([c_ast.Pragma("omp simd"), columns])))
        return out


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


def _used_decls(decls: list, roots: list, keep_unused: bool = False) -> list:
    """Those of ``decls`` (in order) whose names ``roots`` use, directly or through
    other such declarations; with ``keep_unused``, also those marked CL2C_UNUSED."""
    wanted = set().union(set(), *(ids(r) for r in roots if r is not None))
    out = []
    for d in reversed(decls):
        if d.name in wanted or (keep_unused and "CL2C_UNUSED" in (d.funcspec or [])):
            out.append(d)
            wanted |= ids(d.init) if d.init is not None else set()
    return out[::-1]


def _int(e):
    """``(int) e``"""
    return cn.cast(ty.INT, e)


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


def _is_element(n, arrays) -> bool:
    """``X[cl2c_i]`` of a per-work-item array X."""
    return isinstance(n, c_ast.ArrayRef) and isinstance(n.name, c_ast.ID) and \
        n.name.name in arrays and isinstance(n.subscript, c_ast.ID) and \
        n.subscript.name == INDEX


def _tile_ref(array: str) -> c_ast.ArrayRef:
    return c_ast.ArrayRef(c_ast.ArrayRef(cn.ident(f"{array}__tile"), cn.ident("cl2c_r")),
                          cn.ident("cl2c_c"))


def _decl(type_name: str, name: str, init=None) -> c_ast.Decl:
    return c_ast.Decl(name, [], [], [], [], c_ast.TypeDecl(
        name, [], None, c_ast.IdentifierType(type_name.split())), init, None)


def _const_decl(type_name: str, name: str, init) -> c_ast.Decl:
    d = _decl(type_name, name, init)
    d.quals = ["const"]
    d.type.quals = ["const"]
    return d


def _counted(var: str, n: int, body) -> c_ast.For:
    """``for (size_t VAR = 0; VAR < n; ++VAR) body``"""
    return c_ast.For(c_ast.DeclList([_decl("size_t", var, cn.const_int(0))]),
                     c_ast.BinaryOp("<", cn.ident(var), cn.const_int(n)),
                     c_ast.UnaryOp("++", cn.ident(var)), body)
