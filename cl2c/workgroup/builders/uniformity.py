"""The uniformity analysis of the regions schedule: which variables and expressions
have the same value for every work-item of the group, and so which statements run
once per group and which ifs and loops run at group level, around the work-item
loops."""
from __future__ import annotations

import copy

from pycparser import c_ast

from ... import declarators
from ...lower.effects import value_of_arguments, work_item_function
from .errors import NeedFibers, NotProvablyUniform
from .syntax import (INDEX, assigned_names, base_ids, contains_sync, escaping_jumps,
                     replace_child, statements, walk)


class Analysis:
    """Which variables are uniform, and how the kernel splits into regions."""

    def __init__(self, body: c_ast.Compound, params: set, hoist_loops: bool,
                 uniform_by_spec: frozenset = frozenset()):
        """uniform_by_spec: flags that every work-item sets to the same value, as the
        spec requires (spec_uniform.py): uniform whatever their definitions."""
        self.body = body
        self.hoist_loops = hoist_loops
        self.decls: dict[str, c_ast.Decl] = {}
        self.addressed: set = set()
        for n in walk(body):
            if isinstance(n, c_ast.Decl) and n.name and not isinstance(n.type, c_ast.FuncDecl):
                self.decls[n.name] = n
            if isinstance(n, c_ast.UnaryOp) and n.op == "&":
                self.addressed |= base_ids(n.expr)
        assigned = assigned_names(body)
        self.all_params = set(params)
        self.params = {p for p in params if p not in assigned}
        self.uniform = {name for name, d in self.decls.items()
                        if is_scalar_decl(d) and name not in self.addressed}
        # Shrink to a fixpoint: a variable stays uniform only if every definition
        # is a group-level statement with a uniform value.
        while True:
            self.varying_defs: set = set()
            self.walk(statements(body), True)
            before = len(self.uniform)
            self.uniform -= self.varying_defs - uniform_by_spec
            if len(self.uniform) == before:
                break

    def in_order(self, names) -> list[str]:
        """The kernel's variables among ``names``, in the order of their declarations
        (sets of names have no stable order: the emitted C must)."""
        return [n for n in self.decls if n in names]

    # -- uniform expressions
    def is_uniform(self, e) -> bool:
        if e is None:
            return True
        if isinstance(e, c_ast.Constant) or isinstance(e, c_ast.Typename):
            return True
        if isinstance(e, c_ast.ID):
            if e.name in self.decls:
                return e.name in self.uniform
            if e.name in self.all_params:
                return e.name in self.params
            return e.name not in ("CL2C_WI", INDEX) and not e.name.startswith("cl2c_l")
        if isinstance(e, c_ast.FuncCall):
            args = e.args.exprs if e.args else []
            if work_item_function(e) == "group":       # args[0] is CL2C_WI
                return all(self.is_uniform(a) for a in args[1:])
            return value_of_arguments(e) and all(self.is_uniform(a) for a in args)
        if isinstance(e, c_ast.UnaryOp):
            if e.op == "sizeof":
                return True
            if e.op in ("&", "*", "++", "--", "p++", "p--"):
                return False
            return self.is_uniform(e.expr)
        if isinstance(e, c_ast.BinaryOp):
            return self.is_uniform(e.left) and self.is_uniform(e.right)
        if isinstance(e, c_ast.TernaryOp):
            return all(self.is_uniform(x) for x in (e.cond, e.iftrue, e.iffalse))
        if isinstance(e, c_ast.Cast):
            return self.is_uniform(e.expr)
        if isinstance(e, c_ast.StructRef):
            return e.type == "." and self.is_uniform(e.name)
        if isinstance(e, c_ast.ArrayRef):
            # only components of a uniform vector value: v.s[k]
            return isinstance(e.name, c_ast.StructRef) and e.name.type == "." and \
                self.is_uniform(e.name) and self.is_uniform(e.subscript)
        if isinstance(e, (c_ast.ExprList, c_ast.InitList)):
            return all(self.is_uniform(x) for x in e.exprs)
        if isinstance(e, c_ast.CompoundLiteral):
            return self.is_uniform(e.init)
        return False

    # -- statements that run once per group
    def once_kind(self, s) -> str | None:
        """'decl' for a uniform declaration, 'update' for an update of uniform
        variables, None for a statement every work-item runs."""
        if isinstance(s, c_ast.Decl) and s.name in self.uniform and \
                not isinstance(s.init, c_ast.InitList) and self.is_uniform(s.init):
            return "decl"
        if isinstance(s, c_ast.DeclList) and all(self.once_kind(d) == "decl" for d in s.decls):
            return "decl"
        if self._uniform_update(s):
            return "update"
        return None

    def _uniform_condition(self, e) -> bool:
        """A loop's condition that is uniform where its updates of uniform variables
        (``while (--n > 0)``) count as their values: at group level it runs once an
        iteration and updates them as each work-item would have."""
        return self.is_uniform(_values_of_updates(e, self.uniform))

    def _uniform_update(self, e) -> bool:
        if isinstance(e, c_ast.Assignment):
            return isinstance(e.lvalue, c_ast.ID) and e.lvalue.name in self.uniform and \
                self.is_uniform(e.rvalue)
        if isinstance(e, c_ast.UnaryOp) and e.op in ("++", "--", "p++", "p--"):
            return isinstance(e.expr, c_ast.ID) and e.expr.name in self.uniform
        if isinstance(e, c_ast.ExprList):
            return all(self._uniform_update(x) for x in e.exprs)
        return False

    def uniform_header(self, s) -> bool:
        if isinstance(s, c_ast.For):
            init_ok = s.init is None or self.once_kind(s.init) is not None
            return init_ok and self._uniform_condition(s.cond) and \
                (s.next is None or self._uniform_update(s.next))
        if isinstance(s, (c_ast.While, c_ast.DoWhile)):
            return self._uniform_condition(s.cond)
        if isinstance(s, c_ast.If):
            return self.is_uniform(s.cond)
        return False

    def group_level(self, s) -> bool:
        """Does statement ``s`` (at group level) run as group-level structure?"""
        if isinstance(s, c_ast.Compound):
            return True
        sync = contains_sync(s)
        if isinstance(s, c_ast.If):
            if sync or any(not isinstance(j, c_ast.Return) for j in escaping_jumps(s)):
                if not self.uniform_header(s):
                    if sync:
                        raise NeedFibers("a barrier sits under a condition that is not "
                                         "provably uniform across the work-group")
                    return False
                return True
            # a uniform if around a loop with a uniform header: at group level, so that
            # the loop can run there too (the Guide's histogram copies its bins out in
            # such a loop, under `if (local_size >= 768) ... else`)
            return self.hoist_loops and self.uniform_header(s) and any(
                isinstance(n, (c_ast.For, c_ast.While, c_ast.DoWhile)) and
                self.uniform_header(n) for n in walk(s))
        if isinstance(s, (c_ast.For, c_ast.While, c_ast.DoWhile)):
            if not sync and not self.hoist_loops:
                return False
            if not self.uniform_header(s) or not self._jumps_stay_at_group_level(s.stmt):
                if sync and not self.uniform_header(s):
                    raise NotProvablyUniform("a barrier sits in a loop whose trip count "
                                             "is not provably uniform across the "
                                             "work-group", s)
                if sync:
                    raise NeedFibers("a barrier sits in a loop left from a region "
                                     "(break or continue under a condition that is not "
                                     "provably uniform)")
                return False
            return True
        if isinstance(s, c_ast.Switch) and sync:
            raise NeedFibers("a barrier sits inside a switch statement")
        return False

    def _jumps_stay_at_group_level(self, body) -> bool:
        """break/continue of a hoisted loop must be reachable at group level: only
        through blocks and uniform ifs."""
        for s in statements(body):
            if isinstance(s, (c_ast.Break, c_ast.Continue)):
                continue
            if isinstance(s, c_ast.Compound):
                if not self._jumps_stay_at_group_level(s):
                    return False
                continue
            jumps = [j for j in escaping_jumps(s) if not isinstance(j, c_ast.Return)]
            if not jumps:
                continue
            if isinstance(s, c_ast.If) and self.uniform_header(s) and \
                    self._jumps_stay_at_group_level(s.iftrue) and \
                    self._jumps_stay_at_group_level(s.iffalse):
                continue
            return False
        return True

    def walk(self, stmts, group: bool) -> None:
        """Record the variables defined outside group-level uniform statements."""
        for s in stmts:
            if group and self.group_level(s):
                if isinstance(s, c_ast.Compound):
                    self.walk(statements(s), True)
                elif isinstance(s, c_ast.If):
                    self.walk(statements(s.iftrue), True)
                    self.walk(statements(s.iffalse), True)
                else:
                    if isinstance(s, c_ast.For):
                        self._defs(s.init, once=True)
                        self._defs(s.next, once=True)
                    self.walk(statements(s.stmt), True)
                continue
            self._defs(s, once=group and self.once_kind(s) is not None)

    def _defs(self, node, once: bool) -> None:
        if node is None or once:
            return
        for n in walk(node):
            if isinstance(n, c_ast.Decl) and n.name and n.init is not None:
                self.varying_defs.add(n.name)
            elif isinstance(n, c_ast.Assignment):
                self.varying_defs |= base_ids(n.lvalue)
            elif isinstance(n, c_ast.UnaryOp) and n.op in ("++", "--", "p++", "p--"):
                self.varying_defs |= base_ids(n.expr)


def _values_of_updates(e, uniform: set):
    """``e`` with each ``++``/``--`` of a variable in ``uniform`` replaced by the variable
    (a copy where there are any)."""
    if e is None or not any(_uniform_step(n, uniform) for n in walk(e)):
        return e
    e = copy.deepcopy(e)
    if _uniform_step(e, uniform):
        return e.expr
    for n in walk(e):
        for name, child in list(n.children()):
            if _uniform_step(child, uniform):
                replace_child(n, name, child.expr)
    return e


def _uniform_step(n, uniform: set) -> bool:
    return isinstance(n, c_ast.UnaryOp) and n.op in ("++", "--", "p++", "p--") and \
        isinstance(n.expr, c_ast.ID) and n.expr.name in uniform


def is_scalar_decl(d: c_ast.Decl) -> bool:
    """Scalars, vectors and pointers: values a group can hold once."""
    t = declarators.inner(d.type, through=(c_ast.PtrDecl,))
    if not isinstance(t, c_ast.TypeDecl):
        return False
    return "volatile" not in (d.type.quals or []) and \
        isinstance(t.type, (c_ast.IdentifierType, c_ast.Struct, c_ast.Union))
