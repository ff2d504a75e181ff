"""The writer of register tiles: a uniform loop whose work-items run in tiles
(``GroupLoop.tile``, decided by workgroup/passes/tiling.py, which says why) as C.

``tiled`` prints the loop tile by tile (or, where a loop around holds the group's one
tile, the loop's steps alone); ``holding`` brackets that loop around with the copies of
the tile in and out. Both take the C that write.py printed for the loop as it was.
"""
from __future__ import annotations

import copy
import dataclasses

from pycparser import c_ast

from .. import cnodes as cn
from .. import types as ty
from ..cnodes import c_type_name
from ..typed_ast import ids, replace_child, replace_node, walk
from . import panels
from .ir import Tile
from .wide_subscripts import widen_subscripts
from .names import (CLANG_KEEP_LOOP, INDEX, L0, L1, L2, LS0, LS1, PANEL, PANEL_FAR, PANEL_STEP,
                    PANEL_STEPS, PANEL_VALUE, PANELS, TILE_COL, TILE_COLS, TILE_FROM, TILE_FULL,
                    TILE_ORIGIN, TILE_ROW, TILE_SUFFIX, TILE_TO, UNUSED)

T0, T1 = TILE_ORIGIN


class _Tiled:
    """A uniform loop around one work-item loop nest (as write.py printed it) and its
    tile: ``outer`` the loops over the rows, ``inner`` the loop over local id 0,
    ``guard`` the row's guard (C), ``guarded`` the declarations under it, ``lead``
    those before it."""

    def __init__(self, loop, tile: Tile):
        self.loop, self.tile = loop, tile
        self.rows, self.cols, self.tiled = tile.rows, tile.cols, tile.arrays
        self.row_items = tile.row_items
        self.outer = loop.stmt.block_items[0]
        items = self.outer.stmt.stmt.block_items or []
        self.guard, self.guarded = None, []
        if items and isinstance(items[-1], c_ast.If):
            self.guard = items[-1].cond
            self.guarded = (items[-1].iftrue.block_items or [])[:-2]
            items = items[:-1] + items[-1].iftrue.block_items
        self.lead = items[:len(items) - 2 - len(self.guarded)]
        self.inner = items[-1]

    def rewrite(self) -> c_ast.Node:
        """``if (whole tiles) { tiles } else <the loop as it was>``, where the tile has a
        narrower twin: ``else if (whole narrower tiles) { those } else ...``."""
        loop = self.loop
        narrower = _Tiled(copy.deepcopy(loop), dataclasses.replace(
            self.tile, cols=self.tile.narrower, narrower=0)) if self.tile.narrower else None
        steps = self._with_panels() if self.tile.panels else self.steps()
        tile = c_ast.Compound(_tile_decls(self.tile) + copies(self.tile, True) + [steps] +
                              copies(self.tile, False))
        # a column of tiles at a time: its tiles load the same columns of the other
        # operand (a matmul's panel of B), which stay in L2 from one tile to the next
        # (host.h's cl2c_regroup_tiles makes a group such a column)
        rows = c_ast.For(c_ast.DeclList([_decl("size_t", T1, cn.const_int(0))]),
                         c_ast.BinaryOp("<", cn.ident(T1), cn.ident(LS1)),
                         c_ast.Assignment("+=", cn.ident(T1),
                                          cn.const_int(self.rows)), tile)
        column = c_ast.Compound([_pointer_decl("char", PANELS, cn.const_int(0)), rows]) \
            if self.tile.panels else rows
        cols = c_ast.For(c_ast.DeclList([_decl("size_t", T0, cn.const_int(0))]),
                         c_ast.BinaryOp("<", cn.ident(T0), cn.ident(LS0)),
                         c_ast.Assignment("+=", cn.ident(T0), _cols(self.tile)), column)
        nest = copy.deepcopy(self.outer)
        nest.stmt = cols
        if self.tile.bounded or not self.tile.known:
            # tiles on the group's or the guard's edges run the loop as it was, for
            # their work-items (a group cut by the range's edge still runs its whole
            # tiles in registers); a group smaller than a tile runs it whole
            rows.stmt = c_ast.Compound(self._full_test() + [
                c_ast.If(cn.ident(TILE_FULL), tile, c_ast.Compound([self._partial()]))])
        if self.tile.known:
            return c_ast.Compound([nest])
        whole = c_ast.BinaryOp(">=", cn.ident(LS0), _cols(self.tile))
        if self.rows > 1:
            whole = c_ast.BinaryOp("&&", whole, c_ast.BinaryOp(
                ">=", cn.ident(LS1), cn.const_int(self.rows)))
        other = narrower.rewrite() if narrower else c_ast.Compound([loop])
        return c_ast.If(whole, c_ast.Compound([nest]), other)

    def _full_test(self) -> list:
        """``cl2c_full``: is the tile at (cl2c_t0, cl2c_t1) within the group, and does
        every work-item of it pass the row's guard and the work-item loop's bounds?"""
        room = c_ast.BinaryOp("&&", c_ast.BinaryOp(
            "<=", c_ast.BinaryOp("+", cn.ident(T1), cn.const_int(self.rows)),
            cn.ident(LS1)), c_ast.BinaryOp(
            "<=", c_ast.BinaryOp("+", cn.ident(T0), _cols(self.tile)), cn.ident(LS0)))
        if not self.tile.bounded:   # the group's edges are the work-item loop's bounds
            return [_decl("int", TILE_FULL, room)]
        init, hi = self.inner.init.decls[0].init, self.inner.cond.right
        t0 = _int(cn.ident(T0))
        inside = c_ast.BinaryOp("&&", c_ast.BinaryOp("<=", copy.deepcopy(init), t0),
                                c_ast.BinaryOp("<=", c_ast.BinaryOp("+", copy.deepcopy(t0),
                                                                    _cols(self.tile)),
                                               copy.deepcopy(hi)))
        test = [c_ast.Assignment("=", cn.ident(TILE_FULL), inside)]
        if self.guard is not None:
            test = used_decls(self.guarded, [init, hi]) + test
            test = [c_ast.If(copy.deepcopy(self.guard), c_ast.Compound(test), c_ast.Assignment(
                "=", cn.ident(TILE_FULL), cn.const_int(0)))]
        roots = [init, hi] + ([self.guard] if self.guard is not None else [])
        test = used_decls(self.lead, roots + test) + test
        rows = _counted(TILE_ROW, self.rows, c_ast.Compound([_row_l1()] + test))
        rows.cond = c_ast.BinaryOp("&&", cn.ident(TILE_FULL), rows.cond)
        return [_decl("int", TILE_FULL, room), rows]

    def _partial(self) -> c_ast.For:
        """The loop as it was, for the work-items of the tile at (cl2c_t0, cl2c_t1) only
        (those of a tile that does not run whole)."""
        body = copy.deepcopy(self.outer.stmt.stmt)
        items = body.block_items
        if self.guard is not None:
            items = items[-1].iftrue.block_items
        inner = items[-1]
        init, hi = inner.init.decls[0].init, inner.cond.right
        t0 = _int(cn.ident(T0))
        end = c_ast.BinaryOp("+", copy.deepcopy(t0), _cols(self.tile))
        first = copy.deepcopy(t0) if not self.tile.bounded else c_ast.TernaryOp(
            c_ast.BinaryOp(">", init, t0), copy.deepcopy(init), copy.deepcopy(t0))
        items[-2:-2] = [
            _const_decl("int", TILE_FROM, first),
            _const_decl("int", TILE_TO, c_ast.TernaryOp(
                c_ast.BinaryOp("<", hi, end), copy.deepcopy(hi), copy.deepcopy(end)))]
        inner.init.decls[0].init = cn.ident(TILE_FROM)
        inner.cond.right = cn.ident(TILE_TO)
        rows = _counted(TILE_ROW, self.rows, c_ast.Compound([_row_l1()] +
                                                            (body.block_items or [])))
        rows.cond = c_ast.BinaryOp("&&", rows.cond, c_ast.BinaryOp(
            "<", c_ast.BinaryOp("+", cn.ident(T1), cn.ident(TILE_ROW)), cn.ident(LS1)))
        loop = copy.deepcopy(self.loop)
        loop.stmt = c_ast.Compound([rows])
        return loop

    def _with_panels(self) -> c_ast.If:
        """The steps of a tile in a column of tiles with panels (panels.py): from the
        panels where an earlier tile filled them; filling them where a tile of the
        column comes after this one and they fit; else as written."""
        h = panels.header(self.loop)
        loads = [same[0] for same in
                 panels.panel_loads(self.loop, self.inner.stmt, self.row_items)]
        steps = cn.call("cl2c_panel_steps", cn.cast(ty.LONG, copy.deepcopy(h.first)),
                        _panel_end(h))
        sizes, offsets = [], []
        for load in loads:
            offsets.append(list(sizes))
            sizes.append(cn.call("cl2c_panel_size", cn.ident(PANEL_STEPS), c_ast.BinaryOp(
                "*", _cols(self.tile), c_ast.UnaryOp("sizeof", cn.typename(load.ty)))))
        pointers = [_decl("size_t", PANEL_STEPS, steps)] + [
            _pointer_decl(c_type_name(load.ty), f"{PANEL}{i}", cn.cast(
                ty.Pointer(load.ty), _plus(cn.ident(PANELS), offsets[i])))
            for i, load in enumerate(loads)]
        total = sizes[0] if len(sizes) == 1 else _plus(sizes[0], sizes[1:])
        later = c_ast.BinaryOp("<", c_ast.BinaryOp("+", cn.ident(T1), cn.const_int(self.rows)),
                               cn.ident(LS1))
        # the loads' span, from their subscripts at the first two steps in the tile's
        # first column (values the kernel computes, where there are two steps)
        far = c_ast.If(c_ast.BinaryOp(">", cn.ident(PANEL_STEPS), cn.const_int(1)),
                       c_ast.Compound([_const_decl("int", L0, _int(cn.ident(T0))),
                                       c_ast.Assignment("=", cn.ident(PANEL_FAR), _any(
                                           [self._far(load, h) for load in loads]))]), None)
        fills = c_ast.BinaryOp("&&", c_ast.BinaryOp("&&", later, cn.ident(PANEL_FAR)),
                               c_ast.BinaryOp("!=", c_ast.Assignment(
                                   "=", cn.ident(PANELS), cn.call("cl2c_panels", total)),
                                   cn.const_int(0)))
        # (the steps size the panels after the first)
        read = c_ast.Compound(copy.deepcopy(pointers[0 if len(loads) > 1 else 1:]) +
                              [self.steps("read")])
        fill = c_ast.Compound(pointers + [self.steps("fill")])
        # (the panels' bytes, found before the tile fills them)
        fill_first = c_ast.Compound([_decl("size_t", PANEL_STEPS, copy.deepcopy(steps)),
                                     _decl("int", PANEL_FAR, cn.const_int(0)), far,
                                     c_ast.If(fills, fill, self.steps())])
        fill.block_items = fill.block_items[1:]
        return c_ast.If(c_ast.BinaryOp("!=", cn.ident(PANELS), cn.const_int(0)), read,
                        fill_first)

    def steps(self, panel: str | None = None) -> c_ast.Node:
        """The loop, each step running the tile's rows with the tile's values; with
        ``panel`` "fill", storing its panels' loads in them as well, "read", reading
        them from there (panels.py)."""
        body = copy.deepcopy(self.inner.stmt)
        shared = panels.panel_loads(self.loop, body, self.row_items) if panel else []
        for i, same in enumerate(shared):
            self._panel_load(body, i, same, panel)
        for n in walk(body):
            for name, child in list(n.children()):
                if is_element(child, self.tiled):
                    replace_child(n, name, _tile_ref(child.name.name))
        l0 = _const_decl("int", L0,
                         c_ast.BinaryOp("+", _int(cn.ident(T0)), cn.ident(TILE_COL)))
        columns = c_ast.For(c_ast.DeclList([_decl("int", TILE_COL, cn.const_int(0))]),
                            c_ast.BinaryOp("<", cn.ident(TILE_COL), _cols(self.tile)),
                            c_ast.UnaryOp("++", cn.ident(TILE_COL)),
                            c_ast.Compound([l0] + (body.block_items or [])))
        widen_subscripts(columns.stmt, self.row_items)
        l1 = _const_decl("size_t", L1, c_ast.BinaryOp("+", cn.ident(T1), cn.ident(TILE_ROW)))
        ahead = [self._prefetch(same[0]) for same in shared] if panel == "fill" else []
        row = _counted(TILE_ROW, self.rows, c_ast.Compound(
            [l1] + copy.deepcopy(self.row_items) + ahead + _simd_columns(self.tile) +
            [columns]))
        steps = copy.deepcopy(self.loop)
        steps.stmt = c_ast.Compound([row])
        if not panel:
            return steps
        # the step counts the panels' rows
        steps.next = c_ast.ExprList([steps.next, c_ast.UnaryOp("++", cn.ident(PANEL_STEP))])
        return c_ast.Compound([_decl("size_t", PANEL_STEP, cn.const_int(0)), steps])

    def _panel_load(self, body: c_ast.Compound, i: int, loads: list, panel: str) -> None:
        """Panel ``i``'s loads in ``body``: read from the panel, or loaded into a value
        of their own before the first's statement, which the tile's first row stores in
        the panel."""
        element = c_ast.ArrayRef(cn.ident(f"{PANEL}{i}"), c_ast.BinaryOp(
            "+", c_ast.BinaryOp("*", cn.ident(PANEL_STEP), _cols(self.tile)),
            cn.ident(TILE_COL)))
        if panel == "read":
            for load in loads:
                replace_node(body, load, copy.deepcopy(element))
            return
        first = loads[0]
        at = panels.statement_of(first, body)
        value = f"{PANEL_VALUE}{i}"
        for load in loads:
            replace_node(body, load, cn.ident(value))
        store = c_ast.If(c_ast.BinaryOp("==", cn.ident(TILE_ROW), cn.const_int(0)),
                         c_ast.Assignment("=", element, cn.ident(value)), None)
        body.block_items[at:at] = [_const_decl(c_type_name(first.ty), value, first), store]

    def _far(self, load, h) -> c_ast.FuncCall:
        """Do ``load``'s rows over the loop's steps span more than the caches hold?
        Its stride, from its subscripts at the first two steps."""
        decls = [*self.row_items, *(self.inner.stmt.block_items or [])]
        at = [cn.cast(ty.LONG, panels.subscript_at(load, h.counter, decls, value))
              for value in (c_ast.BinaryOp("+", copy.deepcopy(h.first), cn.const_int(1)),
                            h.first)]
        return cn.call("cl2c_panel_far", c_ast.BinaryOp("-", *at), c_ast.UnaryOp(
            "sizeof", cn.typename(load.ty)), cn.ident(PANEL_STEPS))

    def _prefetch(self, load) -> c_ast.If:
        """The tile's first row asks for ``load``'s run CL2C_PANEL_AHEAD steps on,
        where the loop has that step (its subscript is then one the kernel computes)."""
        h = panels.header(self.loop)
        ahead = cn.ident("CL2C_PANEL_AHEAD")
        sub = panels.subscript_at(load, h.counter, self.inner.stmt.block_items or [],
                                  c_ast.BinaryOp("+", cn.ident(h.counter), ahead))
        left = c_ast.BinaryOp("-", _panel_end(h), cn.cast(ty.LONG, cn.ident(h.counter)))
        exists = c_ast.BinaryOp(">", left, copy.deepcopy(ahead))
        buffer = copy.deepcopy(load.name)
        fetch = cn.call("CL2C_PREFETCH_RUN", buffer, sub, _cols(self.tile), c_ast.UnaryOp(
            "sizeof", c_ast.UnaryOp("*", copy.deepcopy(buffer))))
        l0 = _const_decl("int", L0, _int(cn.ident(T0)))
        return c_ast.If(c_ast.BinaryOp("&&", c_ast.BinaryOp(
            "==", cn.ident(TILE_ROW), cn.const_int(0)), exists),
            c_ast.Compound([l0, fetch]), None)


def _panel_end(h) -> c_ast.Node:
    """The end of a panel loop's steps as a long: its bound, plus one where inclusive."""
    end = cn.cast(ty.LONG, copy.deepcopy(h.end))
    return c_ast.BinaryOp("+", end, cn.const_int(1)) if h.inclusive else end


def _any(tests: list):
    """``tests[0] || tests[1] || ...``"""
    out = tests[0]
    for t in tests[1:]:
        out = c_ast.BinaryOp("||", out, t)
    return out


def _plus(first, rest: list):
    """``first + rest[0] + ...`` (first alone where rest is empty)."""
    for e in rest:
        first = c_ast.BinaryOp("+", first, copy.deepcopy(e))
    return first


def _pointer_decl(type_name: str, name: str, init) -> c_ast.Decl:
    """``type_name *name = init;``"""
    return c_ast.Decl(name, [], [], [], [], c_ast.PtrDecl([], c_ast.TypeDecl(
        name, [], None, c_ast.IdentifierType(type_name.split()))), init, None)




def tiled(loop, tile: Tile) -> c_ast.Node:
    """Uniform loop ``loop`` (C, as printed) run tile by tile; where a loop around it
    holds the tile, its steps alone."""
    return _Tiled(loop, tile).steps() if tile.held else _Tiled(loop, tile).rewrite()


def holding(loop, tile: Tile) -> c_ast.Compound:
    """``loop`` (C, which holds a tiled loop's steps) with the group's one tile copied
    in before it and out after it."""
    origin = [_const_decl("size_t", n, cn.const_int(0)) for n in TILE_ORIGIN]
    return c_ast.Compound(_tile_decls(tile) + origin + copies(tile, True) +
                          [loop] + copies(tile, False))


def _tile_decls(tile: Tile) -> list:
    return [c_ast.Decl(f"{a}{TILE_SUFFIX}", [], [], [], [],
                       c_ast.ArrayDecl(c_ast.ArrayDecl(
                           c_ast.TypeDecl(f"{a}{TILE_SUFFIX}", [], None,
                                          c_ast.IdentifierType(t.split())),
                           _cols(tile), []), cn.const_int(tile.rows), []), None, None)
            for a, t in tile.arrays.items()]


def _simd_columns(tile: Tile) -> list:
    """The pragmas of a tile's loop over its columns: omp simd, and for clang, where the
    kernel fixes the columns (reqd_work_group_size), no full unrolling. clang unrolls
    such a loop of 16 columns into 16 statements and then vectorises the loop around it,
    over the rows, with gathers and scatters: the bench's tiled matmul took 114 ms at
    one thread under clang 21 (56 at two under clang 14), 7.2 with the hint (5.8), where
    GCC, which ignores it, takes 3.1 (the emitted file tells GCC so: render.py). Not
    for CL2C_TILE_COLS columns: clang 14 vectorises those well as they are (the naive
    matmul 2.1 ms, 4.9 with the hint)."""
    simd = [c_ast.Pragma("omp simd")]
    return simd if tile.cols == TILE_COLS else simd + [cn.LoopHint(CLANG_KEEP_LOOP)]


def _cols(tile: Tile):
    return cn.ident(TILE_COLS) if tile.cols == TILE_COLS else cn.const_int(tile.cols)


def copies(tile: Tile, into: bool) -> list:
    """The tile's values in from the per-work-item arrays, or back out."""
    index = c_ast.BinaryOp("+", c_ast.BinaryOp("+", cn.ident(T0), cn.ident(TILE_COL)),
                           c_ast.BinaryOp("*", cn.ident(LS0), c_ast.BinaryOp(
                               "+", c_ast.BinaryOp("+", cn.ident(T1), cn.ident(TILE_ROW)),
                               c_ast.BinaryOp("*", cn.ident(LS1), cn.ident(L2)))))
    out = []
    for a in tile.arrays:
        element = c_ast.ArrayRef(cn.ident(a), copy.deepcopy(index))
        ref = _tile_ref(a)
        assign = c_ast.Assignment("=", ref, element) if into else \
            c_ast.Assignment("=", element, ref)
        columns = c_ast.For(c_ast.DeclList([_decl("int", TILE_COL, cn.const_int(0))]),
                            c_ast.BinaryOp("<", cn.ident(TILE_COL), _cols(tile)),
                            c_ast.UnaryOp("++", cn.ident(TILE_COL)),
                            c_ast.Compound([assign]))
        out.append(_counted(TILE_ROW, tile.rows,
                            c_ast.Compound(_simd_columns(tile) + [columns])))
    return out


def _row_l1() -> c_ast.Decl:
    l1 = _const_decl("size_t", L1, c_ast.BinaryOp("+", cn.ident(T1), cn.ident(TILE_ROW)))
    l1.funcspec = [UNUSED]       # (where neither guard nor bounds use the row)
    return l1


def used_decls(decls: list, roots: list, keep_unused: bool = False) -> list:
    """Those of ``decls`` (in order) whose names ``roots`` use, directly or through
    other such declarations; with ``keep_unused``, also those marked CL2C_UNUSED."""
    wanted = set().union(set(), *(ids(r) for r in roots if r is not None))
    out = []
    for d in reversed(decls):
        if d.name in wanted or (keep_unused and UNUSED in (d.funcspec or [])):
            out.append(d)
            wanted |= ids(d.init) if d.init is not None else set()
    return out[::-1]


def is_element(n, arrays) -> bool:
    """``X[cl2c_i]`` of a per-work-item array X."""
    return isinstance(n, c_ast.ArrayRef) and isinstance(n.name, c_ast.ID) and \
        n.name.name in arrays and isinstance(n.subscript, c_ast.ID) and \
        n.subscript.name == INDEX



def _tile_ref(array: str) -> c_ast.ArrayRef:
    return c_ast.ArrayRef(c_ast.ArrayRef(cn.ident(f"{array}{TILE_SUFFIX}"),
                                         cn.ident(TILE_ROW)), cn.ident(TILE_COL))


def _int(e):
    """``(int) e``"""
    return cn.cast(ty.INT, e)


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


__all__ = ["tiled", "holding", "copies", "is_element", "used_decls"]
