"""The bounds of a region's work-item loop in the regions schedule: a guard of the
whole region of the form ``if (get_global_id(0) < n)`` becomes the loop's bounds, and
ids affine in the local id 0 are computed once before the loop."""
from __future__ import annotations

import copy
from typing import NamedTuple

from pycparser import c_ast

from ... import types as ty
from ...literals import integer_value
from ...typed_ast import fact
from ... import cnodes as cn
from ...cnodes import expression_type
from ...lower.effects import (builtin_name, constant_dimension, has_effects, runtime_call,
                              work_item_function)
from .privates import Privates
from .syntax import INDEX, replace_child, set_name, statements, typename, walk
from .uniformity import Analysis
from ..names import L0, LS0


class LoopBounds:
    """Guards as loop bounds, for the regions of one kernel."""

    def __init__(self, an: Analysis, priv: Privates, params: dict, done: bool,
                 counters=frozenset()):
        self.an, self.priv = an, priv
        self.params = params
        # loop counters below a limit of their own type (the interchanged grid-stride
        # loops'): one plus a local id passes its type's end only where the kernel's
        # own loop would have wrapped past it and never ended
        self.counters = counters
        self.done = done            # work-items that return early are tracked
        self.bounded = 0            # guards turned into loop bounds
        self.affine = 0             # ids computed as x__base + cl2c_l0
        self.outer_guard = None     # the guard's terms that do not depend on the local id 0
        # whether the bounds of_region found depend on the row (a linear local id's
        # ``ly * lsx + lx < n``): they are then valid only inside the row's loop
        self.row_bounds = False
        self._lead = []

    def affine_ids(self, stmts) -> list:
        """``int x = get_global_id(0)`` at the head of a region becomes ``int x =
        x__base + cl2c_l0``, x__base computed once before the loop: a signed sum
        the compiler may assume does not wrap, unlike a truncated size_t."""
        bases = []
        for i, d in enumerate(stmts):
            if not isinstance(d, c_ast.Decl):
                break
            if d.init is None or not _is_signed_int_decl(d) or \
                    d.name in self.priv.assigned and not (
                        d.name in self.priv.single and d.name in self.priv.remat):
                continue    # (assigned once, old style, and recomputed: its definition)
            a = self._affine(d.init, [], rows=True)
            a = a and a.converted(fact(d, "ty"))
            if a is None or a.modular:
                continue
            name = f"{d.name}__base"
            decl = copy.deepcopy(d)
            set_name(decl, name)
            decl.type.quals = ["const"]
            decl.funcspec = ["CL2C_UNUSED"]
            decl.init = c_ast.Cast(typename(d.type, d), a.base)
            bases.append(decl)
            self.affine += 1
            d = stmts[i] = copy.deepcopy(d)     # the original also defines recomputations
            d.init = c_ast.BinaryOp("+", cn.ident(name), cn.ident(L0))
            d.funcspec = ["CL2C_UNUSED"]        # its guard may have become the loop's bounds
        return bases

    def of_region(self, stmts):
        """(lo, hi, statements): a whole-region guard affine in the local id 0
        becomes the bounds of the work-item loop; (None, None, stmts) if none."""
        self.outer_guard = None
        self.row_bounds = False
        lead = [s for s in stmts if isinstance(s, c_ast.Decl)]
        rest = stmts[len(lead):]
        if len(rest) != 1 or not isinstance(rest[0], c_ast.If) or rest[0].iffalse is not None \
                or self.done or any(isinstance(s, c_ast.Decl) for s in rest):
            return None, None, stmts
        guard = rest[0]
        self._lead = lead
        los, his, outer, inner = [], [], [], []
        for t in _conjuncts(guard.cond):
            b = self._affine_bound(t, lead)
            if b is None and not self._l0_invariant(t):
                b = self._affine_bound(t, lead, rows=True)
                self.row_bounds |= b is not None
            if b is not None:
                for kind, value in b:
                    (los if kind == "lo" else his).append(value)
            elif self._l0_invariant(t):
                outer.append(t)
            elif not has_effects(t):
                # tested in the loop, for the work-items within the bounds: the others
                # would have skipped the body whatever it says
                inner.append(t)
            else:
                return None, None, stmts
        if not los and not his and not outer:
            return None, None, stmts
        self.bounded += 1
        self.outer_guard = _conjunction([self._inline_remat(t) for t in outer])
        lo_expr = cn.const_int(0)
        for e in los:
            lo_expr = runtime_call("cl2c_bound_lo", lo_expr, e, cn.ident(LS0))
        hi_expr = cn.ident(LS0)
        for e in his:
            hi_expr = runtime_call("cl2c_bound_hi", hi_expr, e)
        body = statements(guard.iftrue)
        if inner:
            body = [c_ast.If(_conjunction(inner), guard.iftrue, None, guard.coord)]
        return lo_expr, hi_expr, lead + body

    def _l0_invariant(self, e) -> bool:
        """Does ``e`` not depend on the local id 0 (so it can guard the whole
        loop over it)? Uniform values and ids of dimensions 1 and 2."""
        for n in walk(e):
            if isinstance(n, c_ast.ID) and n.name in (L0, INDEX, "CL2C_WI") and \
                    not isinstance(e, c_ast.FuncCall):
                if n.name != "CL2C_WI":
                    return False
            if isinstance(n, c_ast.ID) and self._value_of(n.name, self._lead) is not None:
                if not self._l0_invariant(self._value_of(n.name, self._lead)):
                    return False
            elif isinstance(n, c_ast.ID) and (n.name in self.an.decls and
                                              n.name not in self.an.uniform):
                return False
            elif builtin_name(n) in ("get_local_id", "get_global_id"):
                d = n.args.exprs[1]
                if not (isinstance(d, c_ast.Constant) and d.value.rstrip("uU") in ("1", "2")):
                    return False
            elif isinstance(n, c_ast.FuncCall) and work_item_function(n) != "group" and \
                    builtin_name(n) not in _IMAGE_SIZES:
                return False
            elif isinstance(n, (c_ast.Assignment, c_ast.ArrayRef)) or \
                    (isinstance(n, c_ast.UnaryOp) and n.op in ("*", "&", "++", "--", "p++",
                                                               "p--")):
                return False
        return True

    def _value_of(self, name, lead):
        """The expression a never-assigned variable holds: recomputed ones, and
        those declared with a value at the head of the region."""
        if name in self.priv.remat:
            return self.priv.remat_value(name)
        if name in self.priv.assigned:
            return None
        for d in lead:
            if isinstance(d, c_ast.Decl) and d.name == name and d.init is not None and \
                    _is_int_decl(d) and name not in self.an.addressed:
                return d.init
        return None

    def _inline_remat(self, e):
        """``e`` with recomputed variables replaced by their definitions."""
        e = copy.deepcopy(e)
        if isinstance(e, c_ast.ID) and self._value_of(e.name, self._lead) is not None:
            d = self.priv.remat.get(e.name) or next(
                x for x in self._lead if isinstance(x, c_ast.Decl) and x.name == e.name)
            return c_ast.Cast(typename(d.type, d),
                              self._inline_remat(self._value_of(e.name, self._lead)))
        for name, child in list(e.children()):
            replace_child(e, name, self._inline_remat(child))
        return e

    def known_where(self, t, lead, dim: int = 0):
        """Where comparison ``t`` (``X op U``, X = l + B with l the local id ``dim`` (0
        or 1), U uniform) is known, for the index-set splitting of splits.py: ("in",
        [("lo"|"hi", v)]) for <, <=, >, >=, true just where that local id is at least
        every "lo" v and below every "hi" one; ("at", v) for == and !=, which compare
        equal where it is v alone."""
        if not isinstance(t, c_ast.BinaryOp):
            return None
        if t.op in ("==", "!="):
            b = self._affine_bound(c_ast.BinaryOp("==", t.left, t.right), lead, dim)
            return b and ("at", b[0][1])
        b = self._affine_bound(t, lead, dim)
        return b and ("in", b)

    def _affine_bound(self, t, lead, dim: int = 0, rows: bool = False):
        """For ``X op U`` with X = l + B (l the local id ``dim``): [("lo"|"hi", U - B
        [+ 1])] as ptrdiff_t, where C compares the values that arithmetic would (see
        ``_Affine``); ``rows``: B may depend on the local ids 1 and 2 (a row's bounds)."""
        if not isinstance(t, c_ast.BinaryOp) or t.op not in ("<", "<=", ">", ">=", "=="):
            return None
        op, x, u = t.op, t.left, t.right
        a = self._affine(x, lead, dim, rows)
        if a is None:
            a = self._affine(u, lead, dim, rows)
            if a is None:
                return None
            x, u = u, x
            op = {"<": ">", "<=": ">=", ">": "<", ">=": "<=", "==": "=="}[op]
        if a.modular or not self._integer_uniform(u):
            return None
        tu = self._type(u)
        if not _is_integer(tu):
            return None
        common = ty.arithmetic_result(a.t, tu)
        out = []
        if not common.signed and a.may_be_negative:
            # C compares a negative x as a huge unsigned value: only below-U tests keep
            # an interval, that of the x from 0
            if op not in ("<", "<="):
                return None
            out.append(("lo", c_ast.UnaryOp("-", c_ast.Cast(_ptrdiff(), a.base))))
        limit = copy.deepcopy(u)
        if tu.signed and not common.signed:
            limit = cn.cast(common, limit)          # U as C converts it
        if not common.signed and common.bits == 64 and (tu.signed or tu.bits == 64) and \
                not _small_constant(u):
            limit = runtime_call("cl2c_bound_limit", limit)  # may be past PTRDIFF_MAX
        diff = c_ast.BinaryOp("-", c_ast.Cast(_ptrdiff(), limit),
                              c_ast.Cast(_ptrdiff(), a.base))
        plus_one = c_ast.BinaryOp("+", copy.deepcopy(diff), cn.const_int(1))
        if op == "<":
            return out + [("hi", diff)]
        if op == "<=":
            return out + [("hi", plus_one)]
        if op == ">":
            return [("lo", plus_one)]
        if op == "==":
            return [("lo", diff), ("hi", plus_one)]
        return [("lo", diff)]

    def _affine(self, x, lead, dim: int = 0, rows: bool = False) -> "_Affine | None":
        """x as cl2c_l<dim> + B (``_Affine``), B an expression valid at group level
        (``rows``: at a row's, where the local ids 1 and 2 are known: the base of a
        row's ids, as the linear local id ``ly * lsx + lx`` has it)."""
        if isinstance(x, c_ast.Cast):
            inner = self._affine(x.expr, lead, dim, rows)
            return inner and inner.converted(fact(x.to_type, "ty"))
        if isinstance(x, c_ast.ID) and self._value_of(x.name, lead) is not None:
            inner = self._affine(self._value_of(x.name, lead), lead, dim, rows)
            return inner and inner.converted(self._declared_type(x.name, lead))
        if isinstance(x, c_ast.BinaryOp) and x.op == "+":
            for a, b in ((x.left, x.right), (x.right, x.left)):
                inner = self._affine(a, lead, dim, rows)
                if inner is not None and (self._integer_uniform(b) or
                                          rows and dim == 0 and self._row_uniform(b)):
                    return inner.plus(b, self._type(b), isinstance(b, c_ast.ID) and
                                      b.name in self.counters)
        if isinstance(x, c_ast.BinaryOp) and x.op == "-":    # x - b (a stencil's x - 1)
            inner = self._affine(x.left, lead, dim, rows)
            if inner is not None and self._integer_uniform(x.right):
                return inner.minus(x.right, self._type(x.right))
        if _id_dim(x) == str(dim):
            # evaluated at group level, where cl2c_l0 and cl2c_l1 are 0
            return _Affine(copy.deepcopy(x), ty.SIZE_T)
        return None

    def _type(self, e):
        """The type of uniform expression ``e``; a name's, from its declaration
        (the passes' own names carry no type)."""
        if isinstance(e, c_ast.ID):
            d = self.an.decls.get(e.name) or self.params.get(e.name)
            if d is not None:
                return fact(d, "ty")
        return expression_type(e)

    def _declared_type(self, name, lead):
        d = self.priv.remat.get(name) or next(
            x for x in lead if isinstance(x, c_ast.Decl) and x.name == name)
        return fact(d, "ty")

    def _row_uniform(self, u) -> bool:
        """Is ``u`` an integer expression uniform but for the local and global ids 1
        and 2 (a row's)?"""
        holder = c_ast.Compound([copy.deepcopy(u)])
        for n in list(walk(holder)):
            for name, child in n.children():
                if _id_dim(child) in ("1", "2"):
                    replace_child(n, name, cn.const_int(0))
        return self._integer_uniform(holder.block_items[0])

    def _integer_uniform(self, u) -> bool:
        if not self.an.is_uniform(u):
            return False
        # an image's sizes (``x >= get_image_width(src)``): the image is no integer
        queried = {id(a) for n in walk(u) if builtin_name(n) in _IMAGE_SIZES
                   for a in n.args.exprs}
        for n in walk(u):
            if isinstance(n, c_ast.ID) and id(n) not in queried:
                d = self.an.decls.get(n.name) or self.params.get(n.name)
                if d is not None and not _is_int_decl(d):
                    return False
            if isinstance(n, c_ast.Constant) and n.type not in ("int", "unsigned int",
                                                                "long int", "unsigned long int",
                                                                "long long int", "char"):
                return False
            if isinstance(n, c_ast.FuncCall) and work_item_function(n) != "group" and \
                    builtin_name(n) not in _IMAGE_SIZES:
                return False
            if isinstance(n, c_ast.Cast) and not _is_int_typename(n.to_type):
                return False
            if isinstance(n, c_ast.BinaryOp) and n.op not in ("+", "-", "*"):
                return False
        return True


_IMAGE_SIZES = ("get_image_width", "get_image_height", "get_image_depth",
                "get_image_array_size")


class _Affine(NamedTuple):
    """An integer expression x that is cl2c_l0 + ``base`` in arithmetic: ``base`` its
    value at group level (where cl2c_l0 == 0), ``t`` x's C type. C computes x in types
    that wrap; the translation assumes that a group's ids never cross the end of a
    32-bit type they are converted to (2^31 work-items for an int), and refuses the
    rest: types narrower than int (``converted``), a value that may be negative
    (``may_be_negative``: a signed term was added) held in an unsigned type, and an
    unsigned sum with a term that may carry it past its end (``modular``: C's value
    is the arithmetic one only modulo 2^bits, until a signed type takes it back)."""
    base: object
    t: object
    may_be_negative: bool = False
    modular: int | None = None      # the bits of the narrowest type it wrapped in

    def converted(self, t) -> "_Affine | None":
        """x converted to integer type ``t``."""
        if not _is_integer(t) or t.bits < 32:
            return None
        if t.signed:        # takes back a wrapped value, if it wrapped in as many bits,
            if self.modular and t.bits > self.modular:  # as one that may be negative
                return self._replace(t=t)
            return self._replace(t=t, modular=None,
                                 may_be_negative=self.may_be_negative or bool(self.modular))
        if self.may_be_negative:
            return self._replace(t=t, modular=min(self.modular or t.bits, t.bits))
        return self._replace(t=t)

    def plus(self, b, tb, counter: bool = False) -> "_Affine | None":
        """x + b, b a uniform integer expression of type ``tb`` (a constant is not
        negative; a ``counter`` stays below its type's end, less a group)."""
        if not _is_integer(tb):
            return None
        t = ty.arithmetic_result(self.t, tb)
        constant = isinstance(b, c_ast.Constant) or counter
        may_be_negative = self.may_be_negative or (tb.signed and not constant)
        modular = self.modular
        if not t.signed and (may_be_negative or not constant):
            modular = min(modular or t.bits, t.bits)
        return _Affine(c_ast.BinaryOp("+", copy.deepcopy(b), self.base), t,
                       may_be_negative, modular)

    def minus(self, b, tb) -> "_Affine | None":
        """x - b, b a uniform integer expression of type ``tb``: a value that may be
        negative, which wraps in an unsigned type."""
        if not _is_integer(tb):
            return None
        t = ty.arithmetic_result(self.t, tb)
        modular = self.modular if t.signed else min(self.modular or t.bits, t.bits)
        return _Affine(c_ast.BinaryOp("-", self.base, copy.deepcopy(b)), t, True, modular)


def _id_dim(x) -> str | None:
    """The dimension (its digits) of ``get_local_id(d)`` or ``get_global_id(d)`` with a
    constant d, else None."""
    if builtin_name(x) not in ("get_local_id", "get_global_id"):
        return None
    d = constant_dimension(x)
    return None if d is None else str(d)


def _small_constant(e) -> bool:
    """A constant (through casts) that a ptrdiff_t holds with room to spare."""
    while isinstance(e, c_ast.Cast):
        e = e.expr
    if not isinstance(e, c_ast.Constant) or not _is_integer(fact(e, "ty")):
        return False
    try:
        return integer_value(e.value) < 1 << 62
    except ValueError:
        return False


def _conjunction(terms):
    if not terms:
        return None
    out = terms[0]
    for t in terms[1:]:
        out = c_ast.BinaryOp("&&", out, t)
    return out


def _conjuncts(e):
    if isinstance(e, c_ast.BinaryOp) and e.op == "&&":
        return _conjuncts(e.left) + _conjuncts(e.right)
    return [e]


def _ptrdiff():
    return cn.typename(ty.PTRDIFF_T)


def _is_int_typename(t) -> bool:
    return _is_integer(fact(t, "ty"))


def _is_signed_int_decl(d) -> bool:
    t = fact(d, "ty")
    return _is_integer(t) and t.signed


def _is_integer(t) -> bool:
    """An integer scalar (not bool); None (a node a pass made untyped) is not one."""
    return t is not None and t.is_scalar and t.is_integer and t != ty.BOOL


def _is_int_decl(d) -> bool:
    return _is_integer(fact(d, "ty"))
