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
from ..typed_ast import ids, replace_child, walk
from .ir import Tile
from .wide_subscripts import widen_subscripts
from .names import (CLANG_KEEP_LOOP, INDEX, L0, L1, L2, LS0, LS1, TILE_COL, TILE_COLS,
                    TILE_FROM, TILE_FULL, TILE_ORIGIN, TILE_ROW, TILE_SUFFIX, TILE_TO, UNUSED)

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
        tile = c_ast.Compound(_tile_decls(self.tile) + copies(self.tile, True) + [self.steps()] +
                              copies(self.tile, False))
        # a column of tiles at a time: its tiles load the same columns of the other
        # operand (a matmul's panel of B), which stay in L2 from one tile to the next
        # (host.h's cl2c_regroup_tiles makes a group such a column)
        rows = c_ast.For(c_ast.DeclList([_decl("size_t", T1, cn.const_int(0))]),
                         c_ast.BinaryOp("<", cn.ident(T1), cn.ident(LS1)),
                         c_ast.Assignment("+=", cn.ident(T1),
                                          cn.const_int(self.rows)), tile)
        cols = c_ast.For(c_ast.DeclList([_decl("size_t", T0, cn.const_int(0))]),
                         c_ast.BinaryOp("<", cn.ident(T0), cn.ident(LS0)),
                         c_ast.Assignment("+=", cn.ident(T0), _cols(self.tile)), rows)
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

    def steps(self) -> c_ast.Node:
        """The loop, each step running the tile's rows with the tile's values."""
        body = copy.deepcopy(self.inner.stmt)
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
        row = _counted(TILE_ROW, self.rows, c_ast.Compound(
            [l1] + copy.deepcopy(self.row_items) + _simd_columns(self.tile) + [columns]))
        steps = copy.deepcopy(self.loop)
        steps.stmt = c_ast.Compound([row])
        return steps


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
