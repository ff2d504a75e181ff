"""Groups with nothing to do (issue 37, item 1): a kernel's guard read as bounds on its
global ids, for the entry to skip the groups that lie wholly past them.

A kernel written for a GPU is launched on a grid larger than its work and sends the
work-items past the end home first: ``int i = get_global_id(0); if (i >= n) return;``
(or ``if (i < n) { ... }``; ``if (x >= w || y >= h) return;`` in 2-D). Each bound
found here is a fact of the launch plan (``LaunchPlan.live``); the entry
(templates/groups.c.j2, runtime host.h) computes from the bounds and the launch the
work-items of each dimension that may be live, narrows the groups its threads share
out along the slowest dimension (before cl2c regroups a group-blind kernel, so that
the live groups are shared evenly), and tests each group along the others before
any per-group setup.

Exact, or nothing: a bound counts only where every work-item past it goes home before
it does anything. The statements before the guard are declarations whose values read
no memory and change nothing, and earlier guards of the same kind; the guard's terms
before the bound read no memory either (a work-item past the bound evaluates them),
and an ``if`` guard is the kernel's last statement and has no ``else``. The id side is
the global id (or, where every group has the enqueued size, get_group_id(d) *
get_local_size(d) + get_local_id(d)) through casts, variables declared from it and
one added or subtracted uniform term; the limit is integer arithmetic (+, -, *) on
constants and by-value arguments the kernel never writes. C computes the guard in its own types, which wrap:
each bound carries the range each of its values must stay in for C's value to be
the arithmetic one (the types it passes through, and the comparison's), and the
entry uses it only where the launch keeps every work-item's value in that range.
In checking builds the work-items past a bound must also have nothing to report: the
declarations before the guard are initialised (no uninitialised read) and divide by
nothing (no division by zero), so that skipping them hides no finding.
"""
from __future__ import annotations

import copy
from typing import NamedTuple

from pycparser import c_ast

from .. import cnodes as cn
from ..checking import is_check_state
from ..cnodes import DIVISION_HELPERS, expression_type
from .. import types as ty
from ..lower.effects import builtin_name, has_effects
from ..typed_ast import fact, replace_child, walk
from .builders.prepare import is_return_guard, params_written, reads_values
from .launch_plan import LLONG_RANGE, LiveBound


def live_bounds(func: c_ast.FuncDef, uniform_groups: bool = True,
                checked: bool = False) -> tuple[LiveBound, ...]:
    """The bounds of ``func``'s (a lowered kernel's) guards that send every work-item
    past them home before it does anything; () if none. ``uniform_groups``: every group
    of a launch has the enqueued local size (OpenCL 1.x), so that get_group_id(d) *
    get_local_size(d) + get_local_id(d) is the global id less the offset. ``checked``:
    a checking build's, whose skipped work-items must have had nothing to report."""
    params = func.decl.type.args.params if func.decl.type.args else []
    written = params_written(func.body)
    uniform = {p.name for p in params if isinstance(p, c_ast.Decl) and p.name and
               isinstance(p.type, c_ast.TypeDecl) and _integer(fact(p, "ty")) and
               p.name not in written}
    finder = _Finder(uniform, uniform_groups, checked)
    items = list(func.body.block_items or [])
    bounds = []
    for at, s in enumerate(items):
        if isinstance(s, c_ast.Decl):
            if not finder.declare(s):
                break
        elif is_return_guard(s):
            bounds += finder.exits(s.cond)
            if not finder.quiet(s.cond):
                break               # a later guard's work-items ran this one's effects
        elif isinstance(s, c_ast.If) and s.iffalse is None and at == len(items) - 1:
            bounds += finder.stays(s.cond)
            break
        else:
            break
    return tuple(bounds)


class _Chain(NamedTuple):
    """How a guard's value is a global id: that of dimension ``dim`` (less the offset,
    where ``relative``), plus ``shift`` (minus, where ``negate``); the ranges it must
    stay in (LiveBound's)."""
    dim: int
    relative: bool
    shift: object
    negate: bool
    id_range: tuple
    x_range: tuple


class _Finder:
    def __init__(self, uniform: set, uniform_groups: bool, checked: bool):
        self.uniform = uniform      # integer by-value arguments the kernel never writes
        self.uniform_groups = uniform_groups  # every group has the enqueued size (1.x)
        self.checked = checked      # a checking build's: past a bound, nothing to report
        self.decls: dict = {}       # variables declared before the guard

    def declare(self, d: c_ast.Decl) -> bool:
        """Whether declaration ``d`` is one a guard may come after (no effects, no
        memory read); remembers a scalar's, for the guard to read its value."""
        if self.checked and is_check_state(d):
            return True             # checking mode's state, which the entry sets up
        if d.storage or (d.init is not None and not self.quiet(d.init)) or \
                (self.checked and d.init is None):
            return False
        if d.name and isinstance(d.type, c_ast.TypeDecl) and d.init is not None and \
                not isinstance(d.init, c_ast.InitList):
            self.decls[d.name] = d
        return True

    def quiet(self, e) -> bool:
        """A work-item past a bound evaluates ``e`` with no effect, no memory read and,
        in a checking build, no division (whose divisor checking mode tests)."""
        return reads_values(e) and not (self.checked and any(
            isinstance(n, c_ast.FuncCall) and isinstance(n.name, c_ast.ID) and
            n.name.name.startswith(DIVISION_HELPERS) for n in walk(e)))

    def exits(self, cond) -> list:
        """Bounds from ``if (cond) return;``: each disjunct a bound whose earlier
        disjuncts a work-item past it evaluates without effects or reads."""
        return self._terms(cond, "||", exit_when=True)

    def stays(self, cond) -> list:
        """Bounds from ``if (cond) { ... }`` (the kernel's last statement): each
        conjunct, its earlier conjuncts free of effects and reads."""
        return self._terms(cond, "&&", exit_when=False)

    def _terms(self, cond, op: str, exit_when: bool) -> list:
        out = []
        for t in _flatten(cond, op):
            b = self._bound(t, exit_when)
            if b is not None:
                out.append(b)
            if not self.quiet(t):
                break
        return out

    def _bound(self, t, exit_when: bool) -> LiveBound | None:
        """The bound of comparison ``t`` where the work-items it sends home
        (``t == exit_when``) are those whose x is at or past a limit."""
        if not isinstance(t, c_ast.BinaryOp) or t.op not in ("<", "<=", ">", ">=") or \
                has_effects(t):
            return None
        op, x, u = t.op, t.left, t.right
        chain = self._id_chain(x)
        if chain is None:
            chain, x, u = self._id_chain(u), u, x
            op = {"<": ">", "<=": ">=", ">": "<", ">=": "<="}[op]
            if chain is None:
                return None
        if not self._limit(u):
            return None
        if not exit_when:           # the work-items it keeps: the others go home
            op = {"<": ">=", "<=": ">", ">": "<=", ">=": "<"}[op]
        if op not in (">=", ">"):   # a lower bound: live work-items at the end
            return None
        tx, tu = expression_type(x), expression_type(u)
        if not (_integer(tx) and _integer(tu)):
            return None
        common = ty.arithmetic_result(tx, tu)
        shift = None if chain.shift is None else self._inlined(chain.shift)
        return LiveBound(chain.dim, self._inlined(u), op == ">", shift, chain.negate,
                         chain.relative, chain.id_range, _meet(chain.x_range, _range(common)),
                         limit_nonneg=tu.signed and not common.signed, limit_signed=tu.signed,
                         shift_signed=chain.shift is None or
                         expression_type(chain.shift).signed)

    def _id_chain(self, x, seen=()) -> _Chain | None:
        """How ``x`` is a global id (through casts, variables and at most one uniform
        term added or subtracted), or None."""
        t = expression_type(x)
        if not _integer(t):
            return None
        here = _range(t)
        if _dim_of(x, "get_global_id") is not None:
            return _Chain(_dim_of(x, "get_global_id"), False, None, False, here, here)
        d = self._group_start_plus_local_id(x)
        if d is not None:           # the global id less the offset, where every group
            return _Chain(d, True, None, False, here, here) if self.uniform_groups \
                else None           # has the enqueued size
        if isinstance(x, c_ast.Cast):
            inner = self._id_chain(x.expr, seen)
        elif isinstance(x, c_ast.ID) and x.name in self.decls and x.name not in seen:
            decl = self.decls[x.name]
            here = _meet(here, _range(fact(decl, "ty")))
            inner = self._id_chain(decl.init, (*seen, x.name))
        elif isinstance(x, c_ast.BinaryOp) and x.op in ("+", "-"):
            inner = None
            pairs = [(x.left, x.right)] + ([(x.right, x.left)] if x.op == "+" else [])
            for a, b in pairs:
                below = self._id_chain(a, seen)
                if below is not None and below.shift is None and self._limit(b):
                    inner = below._replace(shift=b, negate=x.op == "-",  # x's types
                                           x_range=LLONG_RANGE)          # from here
                    break
        else:
            return None
        if inner is None:
            return None
        if inner.shift is None:     # the id itself still: its range narrows
            return inner._replace(id_range=_meet(inner.id_range, here),
                                  x_range=_meet(inner.x_range, here))
        return inner._replace(x_range=_meet(inner.x_range, here))

    def _group_start_plus_local_id(self, x) -> int | None:
        """d if ``x`` is get_group_id(d) * get_local_size(d) + get_local_id(d)."""
        if not (isinstance(x, c_ast.BinaryOp) and x.op == "+"):
            return None
        for start, lid in ((x.left, x.right), (x.right, x.left)):
            d = _dim_of(lid, "get_local_id")
            if d is not None and isinstance(start, c_ast.BinaryOp) and start.op == "*" and \
                    {(_dim_of(start.left, "get_group_id"), _dim_of(start.right, "get_local_size")),
                     (_dim_of(start.right, "get_group_id"),
                      _dim_of(start.left, "get_local_size"))} & {(d, d)}:
                return d
        return None

    def _limit(self, u, seen=()) -> bool:
        """``u`` is integer arithmetic (+, -, *, comparisons, ?:) on constants, the
        uniform arguments and variables declared from those before the guard, which
        the entry can evaluate as the kernel does (``_inlined``)."""
        for n in walk(u):
            if isinstance(n, c_ast.ID):
                d = self.decls.get(n.name)
                if n.name not in self.uniform and not (
                        d is not None and n.name not in seen and _integer(fact(d, "ty")) and
                        self._limit(d.init, (*seen, n.name))):
                    return False
            elif isinstance(n, c_ast.Constant):
                if not _integer(fact(n, "ty")):
                    return False
            elif isinstance(n, c_ast.Cast):
                if not _integer(expression_type(n)):
                    return False
            elif isinstance(n, c_ast.BinaryOp):
                if n.op not in ("+", "-", "*", *_COMPARISONS, "&&", "||"):
                    return False
            elif isinstance(n, c_ast.UnaryOp):
                if n.op not in ("-", "+", "!"):
                    return False
            elif not isinstance(n, (c_ast.TernaryOp, c_ast.Typename, c_ast.TypeDecl,
                                    c_ast.IdentifierType)):
                return False
        return _integer(expression_type(u))

    def _inlined(self, e):
        """A copy of ``e`` (a ``_limit``) with each variable replaced by its value,
        in its type: an expression of the arguments alone, for the entry."""
        if isinstance(e, c_ast.ID) and e.name in self.decls and e.name not in self.uniform:
            d = self.decls[e.name]
            return cn.cast(fact(d, "ty"), self._inlined(d.init), e.coord)
        e = copy.deepcopy(e)
        for name, child in list(e.children()):
            replace_child(e, name, self._inlined(child))
        return e


def _dim_of(call, name: str) -> int | None:
    """d for a call ``name(d)`` of a constant dimension d (0, 1, 2), else None."""
    if builtin_name(call) != name:
        return None
    args = call.args.exprs
    if len(args) != 2 or not isinstance(args[1], c_ast.Constant):
        return None
    d = args[1].value.rstrip("uUlL")
    return int(d) if d in ("0", "1", "2") else None


_COMPARISONS = ("<", "<=", ">", ">=", "==", "!=")


def _flatten(e, op: str) -> list:
    if isinstance(e, c_ast.BinaryOp) and e.op == op:
        return _flatten(e.left, op) + _flatten(e.right, op)
    return [e]


def _integer(t) -> bool:
    return isinstance(t, ty.Scalar) and t.kind == "int"


def _range(t) -> tuple:
    """The values of integer type ``t``, as long long bounds."""
    if not _integer(t):
        return LLONG_RANGE
    bits = t.bits
    lo, hi = (-(1 << (bits - 1)), (1 << (bits - 1)) - 1) if t.signed else (0, (1 << bits) - 1)
    return _meet((lo, hi), LLONG_RANGE)


def _meet(a: tuple, b: tuple) -> tuple:
    return max(a[0], b[0]), min(a[1], b[1])
