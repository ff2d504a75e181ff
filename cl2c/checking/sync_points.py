"""Checking builds (-cl2c-check): what the group's synchronisation points ask, for
clruntime check.h.

Barriers: ``barrier(flags);`` and ``work_group_barrier(flags[, scope]);`` get
``cl2c_ck_fences(flags);`` before them: the barrier then moves on the phase of the
memory its fences order only (spec 6.13.8: CLK_LOCAL_MEM_FENCE alone orders no
__global accesses, CLK_GLOBAL_MEM_FENCE alone no __local ones), and accesses of two
work-items on either side of it race in the other space.

Async copies (cl2c_ck_copied): every ``async_work_group_copy`` and
``async_work_group_strided_copy`` call becomes ``CL2C_CK_COPIED(call, site)``: the
event it returns is its site's (or the event it joins), and the group counts who
reached it. Every ``wait_group_events(n, list)`` statement gets
``CL2C_CK_WAITED(n, list, site);`` before it. At the group's end the runtime reports a
copy that some work-items reached and others not ("divergent async copy") and an event
never waited for ("unwaited event"); a wait for an event that no copy returned, or for
one that an earlier wait released, is reported at the wait. (The copies' source and
destination, strided or not, are marked for races in accesses.py: CL2C_CK_SOURCE,
CL2C_CK_FILLED.)

The checks are statements of their own before the barrier or wait: the schedules make
those group-level cuts (the regions schedule drops the wait's call, and runs the fences
once for the group: builders/plan.py).
"""
from __future__ import annotations

import copy

from pycparser import c_ast

from ..sema import Module
from ..typed_ast import fact, map_children
from ..workgroup.names import CHECK_FENCES
from .sites import Sites

_COPIES = ("async_work_group_copy", "async_work_group_strided_copy")
_WAIT = "wait_group_events"
_BARRIERS = ("barrier", "work_group_barrier")


def instrument(module: Module, sites: Sites) -> Module:
    for f in module.functions.values():
        _Rewriter(sites).stmt(f.node.body)
    return module


def _builtin(node) -> str | None:
    call = fact(node, "call") if isinstance(node, c_ast.FuncCall) else None
    return call.name if call is not None and call.kind == "builtin" else None


def _call(name, args, coord):
    return c_ast.FuncCall(c_ast.ID(name, coord), c_ast.ExprList(args, coord), coord)


class _Rewriter:
    def __init__(self, sites: Sites):
        self.sites = sites

    def site(self, coord):
        return c_ast.UnaryOp("&", c_ast.ID(self.sites.name(coord)), coord)

    def stmt(self, s):
        """Rewrite statement ``s`` in place; a wait inside comes back as a compound
        statement with its check first."""
        if s is None:
            return s
        if isinstance(s, c_ast.Compound):
            items = []
            for item in s.block_items or []:
                out = self.stmt(item)
                if isinstance(out, c_ast.Compound) and out is not item and \
                        not isinstance(item, c_ast.Compound):
                    items += out.block_items        # (a wait and its check: one block)
                else:
                    items.append(out)
            s.block_items = items
            return s
        if isinstance(s, c_ast.FuncCall) and _builtin(s) == _WAIT and s.args is not None \
                and len(s.args.exprs) == 2:
            n, events = s.args.exprs
            self.expr(n)
            self.expr(events)
            check = _call("CL2C_CK_WAITED", [copy.deepcopy(n), copy.deepcopy(events),
                                             self.site(s.coord)], s.coord)
            return c_ast.Compound([check, s], s.coord)
        if isinstance(s, c_ast.FuncCall) and _builtin(s) in _BARRIERS and s.args is not None:
            row = fact(s, "call").row
            flags = s.args.exprs[len(s.args.exprs) - len(row.params)]
            check = _call(CHECK_FENCES, [copy.deepcopy(flags)], s.coord)
            return c_ast.Compound([check, s], s.coord)
        if isinstance(s, (c_ast.If, c_ast.While, c_ast.DoWhile, c_ast.For, c_ast.Switch,
                          c_ast.Label, c_ast.Case, c_ast.Default, c_ast.Return)):
            for name in ("stmt", "iftrue", "iffalse"):
                child = getattr(s, name, None)
                if isinstance(child, c_ast.Node):
                    setattr(s, name, self.stmt(child))
            if isinstance(s, (c_ast.Case, c_ast.Default)):
                s.stmts = [self.stmt(x) for x in s.stmts or []]
            for name in ("cond", "init", "next", "expr"):
                child = getattr(s, name, None)
                if isinstance(child, c_ast.Node):
                    setattr(s, name, self.expr(child))
            return s
        if isinstance(s, (c_ast.Goto, c_ast.Break, c_ast.Continue, c_ast.EmptyStatement,
                          c_ast.Pragma, c_ast.Typedef)):
            return s
        return self.expr(s)         # an expression, a declaration

    def expr(self, n):
        """Rewrite expression ``n``: a copy in it wrapped."""
        if n is None or not isinstance(n, c_ast.Node):
            return n
        map_children(n, self.expr)
        if _builtin(n) in _COPIES:
            return _call("CL2C_CK_COPIED", [n, self.site(n.coord)], n.coord)
        return n
