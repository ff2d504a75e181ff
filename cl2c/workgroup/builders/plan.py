"""The group-level structure of a kernel in the regions schedule: regions (what every
work-item runs between two cuts), statements run once per group, and uniform ifs and
loops around them; Builder makes it from the uniformity analysis, and splits each
work-group function call (a collective) into a per-work-item store, a call run
once, and a read of the result."""
from __future__ import annotations

import copy

from pycparser import c_ast

from ..ir import (Collective, GroupIf, GroupLoop, Once,  # noqa: F401
                             Region, all_items)
from ... import cnodes as cn
from ..names import CHECK_FENCES
from ...lower.effects import collective, is_barrier, is_collective
from .errors import NeedFibers
from .syntax import COUNT, at, replace_node, statements, walk
from .uniformity import Analysis


# ---- building the structure ---------------------------------------------------------------

def _is_barrier(s) -> bool:
    return is_barrier(s)


def _is_fences(s) -> bool:
    return isinstance(s, c_ast.FuncCall) and isinstance(s.name, c_ast.ID) and \
        s.name.name == CHECK_FENCES


def _flatten(stmts):
    for s in stmts:
        if isinstance(s, c_ast.Compound):
            yield from _flatten(statements(s))
        else:
            yield s


def phase_call() -> c_ast.FuncCall:
    """Checking builds: a barrier phase begins (check.h's cl2c_ck_phase)."""
    return cn.call("cl2c_ck_phase", cn.ident("cl2c_ck_t"))


class Builder:
    def __init__(self, analysis: Analysis, checking: bool = False):
        self.an = analysis
        # checking builds: a new barrier phase where the group passes a barrier (or a
        # work-group function), and only there: two work-items' accesses on either
        # side of any other cut (a uniform loop's iterations) can race
        self.checking = checking
        self.collectives = 0
        self.buffers: list[tuple[str, str]] = []      # (name, ctype) of collective buffers

    def build(self, stmts) -> list:
        items: list = []
        current: Region | None = None
        flat = list(_flatten(stmts))
        for i, s in enumerate(flat):
            if isinstance(s, c_ast.Pragma):
                # a pragma belongs to the statement after it: at group level with it
                following = flat[i + 1] if i + 1 < len(flat) else None
                if following is not None and self.an.group_level(following):
                    items.append(Once(s))
                    current = None
                    continue
            if self.checking and _is_fences(s) and i + 1 < len(flat) and \
                    _is_barrier(flat[i + 1]):
                # the barrier's fences (checking/sync_points.py): the group's, once
                items.append(Once(s))
                current = None
                continue
            if _is_barrier(s):
                current = None
                if self.checking:
                    items.append(Once(phase_call()))
                continue
            if self.an.group_level(s):
                current = None
                items.append(self.structure(s))
                continue
            if isinstance(s, (c_ast.Break, c_ast.Continue)):
                # leaves a group-level loop: the whole group leaves it
                items.append(Once(s))
                current = None
                continue
            if any(is_collective(n) for n in walk(s)):
                pre, s = self.collective(s)
                phase = [Once(phase_call())] if self.checking else []
                items.extend(phase + pre + copy.deepcopy(phase))
                current = None
                if s is None:
                    continue
            kind = self.an.once_kind(s)
            if kind == "decl":
                # A fresh uniform value: computed before the running region.
                if current is not None:
                    items.insert(items.index(current), Once(s))
                else:
                    items.append(Once(s))
            elif kind == "update":
                items.append(Once(s))
                current = None
            else:
                if current is None:
                    current = Region()
                    items.append(current)
                current.stmts.append(s)
        return items

    def structure(self, s):
        if isinstance(s, c_ast.If):
            return GroupIf(s, self.build(statements(s.iftrue)), self.build(statements(s.iffalse)))
        return GroupLoop(s, self.build(statements(s.stmt)))

    def collective(self, s):
        """Split the work-group function calls out of statement ``s``."""
        if not isinstance(s, (c_ast.Decl, c_ast.Assignment, c_ast.FuncCall, c_ast.UnaryOp,
                              c_ast.BinaryOp, c_ast.TernaryOp, c_ast.Cast, c_ast.ExprList,
                              c_ast.Return)):
            raise NeedFibers("a work-group function is called under control flow")
        pre = []
        calls = [n for n in walk(s) if is_collective(n)]
        for call in calls:
            if any(is_collective(m) for a in call.args.exprs[1:] for m in walk(a)):
                raise NeedFibers("work-group function calls are nested")
            op, elem, group_fn = collective(call)
            self.collectives += 1
            buf = f"cl2c_wg{self.collectives}"
            ctype = cn.c_type_name(elem) if elem is not None else "int"   # all, any
            self.buffers.append((buf, ctype))
            args = call.args.exprs[1:]
            store = c_ast.Assignment("=", at(buf), args[0], call.coord)
            pre.append(Region([store]))
            if call is s:
                # a call whose value goes unused: its argument is evaluated (its effects
                # happen), nothing is reduced, and the statement is gone
                s = None
                continue
            if op.startswith(("scan_inclusive", "scan_exclusive")):
                pre.append(Once(cn.call(group_fn, cn.ident(buf), cn.ident(COUNT),
                                        coord=call.coord)))
                result = at(buf)
            else:
                res = f"{buf}_result"
                if op.startswith("broadcast"):
                    for a in args[1:]:
                        if not self.an.is_uniform(a):
                            raise NeedFibers("work_group_broadcast() with a work-item "
                                             "that is not provably uniform")
                    value = cn.call(group_fn, cn.ident("cl2c_wi"), cn.ident(buf), *args[1:],
                                    coord=call.coord)
                else:
                    value = cn.call(group_fn, cn.ident(buf), cn.ident(COUNT),
                                    coord=call.coord)
                decl = c_ast.Decl(res, [], [], [], [], c_ast.TypeDecl(
                    res, ["const"], None, c_ast.IdentifierType([ctype])), value, None,
                    coord=call.coord)
                pre.append(Once(decl))
                result = cn.ident(res)
            replace_node(s, call, result)
        return pre, s       # (None: the statement was the call alone)
