"""The accesses to its buffer arguments that every work-item of a kernel makes, at an
index that is a polynomial in the launch's values (extents.py): the loader refuses a
launch whose buffers are too small for them before it runs.

Only what is provable counts. The kernel's statements are read from its start, through
declarations, expression statements and blocks, up to the first other statement (an
``if``, a loop, a ``return``, a label...): every work-item runs those (a call returns or
never ends; nothing else leaves a work-item early). In them, the operands that C
evaluates only on a condition (of ``?:``, ``&&``, ``||``), and those it does not evaluate
(``sizeof``), are left out, and so is ``&p[i]``, which accesses nothing. An access counts
where it is ``p[index]``, ``p`` a buffer argument that the kernel never changes, and the
index is built by ``+``, ``-``, ``*`` and ``<<`` by a constant from integer constants,
integer arguments, ``get_global_id``/``get_global_size``/``get_global_offset`` of a
constant dimension and integer variables initialised so and never changed, with at most
one global id in each product. Every value on the way keeps its C type's range, which
the launch checks (a value that wraps makes the index unknown, not wrong).

Runs on sema's tree, before lowering rewrites it.
"""
from __future__ import annotations

from pycparser import c_ast

from .. import literals
from .. import types as ty
from ..extents import Access
from ..sema import FunctionInfo
from ..typed_ast import fact, walk

_FACTORS = {"get_global_id": "gid", "get_global_size": "gsize",
            "get_global_offset": "goff"}
_CHANGES = ("++", "--", "p++", "p--", "&")      # unary operators that change (or may)
_UNEVALUATED = ("sizeof", "_Alignof")


def unconditional_accesses(f: FunctionInfo) -> dict[str, tuple[Access, ...]]:
    """Kernel ``f``'s provable accesses, by the name of the buffer argument."""
    return IndexReader(f).read()


def changed_declarations(body) -> set[int]:
    """The declarations (by id) of variables that the function assigns, increments or
    takes the address of anywhere."""
    out = set()
    for n in walk(body):
        target = n.lvalue if isinstance(n, c_ast.Assignment) else \
            n.expr if isinstance(n, c_ast.UnaryOp) and n.op in _CHANGES else None
        sym = fact(target, "symbol") if isinstance(target, c_ast.ID) else None
        if sym is not None:
            out.add(id(sym.node))
    return out


def _range(t) -> tuple[int, int] | None:
    if not (isinstance(t, ty.Scalar) and t.kind == "int"):
        return None
    if t.signed:
        return -(1 << (t.bits - 1)), (1 << (t.bits - 1)) - 1
    return 0, (1 << t.bits) - 1


# ---- polynomials, as dicts {factors: coefficient} while they are built -----------------

def add_polynomials(a: dict, b: dict, sign: int = 1) -> dict:
    """a + sign * b, terms of coefficient 0 dropped."""
    out = dict(a)
    for fs, c in b.items():
        out[fs] = out.get(fs, 0) + sign * c
    return {fs: c for fs, c in out.items() if c}


def _mul(a: dict, b: dict) -> dict | None:
    out: dict = {}
    for fa, ca in a.items():
        for fb, cb in b.items():
            fs = tuple(sorted(fa + fb))
            if sum(f.startswith("gid") for f in fs) > 1:
                return None           # not affine in the global ids
            out[fs] = out.get(fs, 0) + ca * cb
    return {fs: c for fs, c in out.items() if c}


def _frozen(p: dict) -> tuple:
    return tuple(sorted((c, fs) for fs, c in p.items()))


class IndexReader:
    """A kernel's provable indices and values, as polynomials (``read``: its
    unconditional accesses); owned.py's finder reads the rest of the kernel with it."""

    def __init__(self, f: FunctionInfo):
        self.body = f.node.body
        decls = [p for p in f.node.decl.type.args.params if isinstance(p, c_ast.Decl)] \
            if f.node.decl.type.args else []
        self.params = {id(d): i for i, d in enumerate(decls)}
        self.buffers = {id(d) for d, p in zip(decls, f.params)
                        if isinstance(p.type, ty.Pointer) and p.type.space in ("global",
                                                                               "constant")}
        self.changed = changed_declarations(self.body)
        self.values: dict[int, tuple[dict, list]] = {}   # variable declaration -> index
        self.found: dict[str, list[Access]] = {}

    def read(self) -> dict[str, tuple[Access, ...]]:
        self._block(self.body)
        return {name: tuple(dict.fromkeys(a)) for name, a in self.found.items()}

    def _block(self, block: c_ast.Compound) -> bool:
        """Reads the statements every work-item runs; False at the first other one."""
        for item in block.block_items or []:
            if isinstance(item, c_ast.Decl):
                if item.init is not None:
                    self._expression(item.init)
                    self._variable(item)
            elif isinstance(item, c_ast.Compound):
                if not self._block(item):
                    return False
            elif isinstance(item, c_ast.DeclList):
                for d in item.decls:
                    if d.init is not None:
                        self._expression(d.init)
                        self._variable(d)
            elif isinstance(item, (c_ast.EmptyStatement, c_ast.Typedef)):
                pass
            elif isinstance(item, c_ast.Node) and not isinstance(item, _STATEMENTS):
                self._expression(item)
            else:
                return False
        return True

    def _variable(self, d: c_ast.Decl):
        """An integer variable's value, where it is a polynomial and never changes."""
        bounds = _range(fact(d, "ty"))
        if bounds is None or id(d) in self.changed or "static" in (d.storage or []):
            return
        value = self._poly(d.init)
        if value is not None:
            poly, within = value
            self.values[id(d)] = (poly, within + [(_frozen(poly), *bounds)])

    # ---- expressions ------------------------------------------------------------------
    def _expression(self, e, writes: bool = False):
        """The accesses of expression ``e`` that C always evaluates; ``writes``: ``e``
        is the target of a store."""
        if isinstance(e, c_ast.ArrayRef):
            self._access(e, writes)
            self._expression(e.name)
            self._expression(e.subscript)
        elif isinstance(e, c_ast.Assignment):
            self._expression(e.lvalue, writes=True)
            self._expression(e.rvalue)
        elif isinstance(e, c_ast.UnaryOp):
            if e.op in _UNEVALUATED:
                return
            if e.op == "&":         # an address: what it indexes is evaluated, not read
                inner = e.expr
                while isinstance(inner, (c_ast.StructRef, c_ast.ArrayRef)) and \
                        not (isinstance(inner, c_ast.StructRef) and inner.type == "->"):
                    if isinstance(inner, c_ast.ArrayRef):
                        self._expression(inner.subscript)
                    inner = inner.name
                self._expression(inner)
                return
            self._expression(e.expr, writes=e.op in ("++", "--", "p++", "p--"))
        elif isinstance(e, c_ast.BinaryOp):
            self._expression(e.left)
            if e.op not in ("&&", "||"):
                self._expression(e.right)
        elif isinstance(e, c_ast.TernaryOp):
            self._expression(e.cond)
        elif isinstance(e, c_ast.StructRef):
            # a member of p[i] is in element i; through ->, the pointer is only read
            self._expression(e.name, writes=writes and e.type == ".")
        elif isinstance(e, c_ast.FuncCall):
            if fact(e, "call") is not None and e.call.name == "vec_step":
                return              # its operand is a type, not a value
            if e.args is not None:
                for a in e.args.exprs:
                    self._expression(a)
        elif isinstance(e, (c_ast.Cast, c_ast.ExprList, c_ast.InitList,
                            c_ast.CompoundLiteral, c_ast.NamedInitializer)):
            for _, child in e.children():
                self._expression(child)

    def _access(self, e: c_ast.ArrayRef, writes: bool):
        sym = fact(e.name, "symbol") if isinstance(e.name, c_ast.ID) else None
        if sym is None or id(sym.node) not in self.buffers or id(sym.node) in self.changed:
            return
        value = self._poly(e.subscript)
        if value is not None:
            poly, within = value
            self.found.setdefault(sym.name, []).append(
                Access(writes, _frozen(poly), tuple(dict.fromkeys(within))))

    def _poly(self, e) -> tuple[dict, list] | None:
        """Integer expression ``e`` as a polynomial, with the values on the way and their
        types' ranges; None where it is not one."""
        bounds = _range(fact(e, "ty"))
        if bounds is None:
            return None
        if isinstance(e, c_ast.Constant):
            value = literals.char_value(e.value) if e.type == "char" else \
                literals.integer_value(e.value)
            return ({(): value} if value else {}), []
        if isinstance(e, c_ast.ID):
            sym = fact(e, "symbol")
            if sym is None or id(sym.node) in self.changed:
                return None
            if sym.kind == "param" and id(sym.node) in self.params:
                return {(f"arg{self.params[id(sym.node)]}",): 1}, []
            return self.values.get(id(sym.node))
        parts = None
        if isinstance(e, c_ast.FuncCall):
            parts = self._builtin(e)
        elif isinstance(e, c_ast.Cast):
            parts = self._poly(e.expr)
        elif isinstance(e, c_ast.UnaryOp) and e.op in ("-", "+"):
            inner = self._poly(e.expr)
            if inner is not None:
                parts = (add_polynomials({}, inner[0], -1 if e.op == "-" else 1), inner[1])
        elif isinstance(e, c_ast.BinaryOp) and e.op in ("+", "-", "*", "<<"):
            parts = self._binary(e)
        if parts is None:
            return None
        poly, within = parts
        return poly, within + [(_frozen(poly), *bounds)]

    def _binary(self, e: c_ast.BinaryOp):
        a, b = self._poly(e.left), self._poly(e.right)
        if a is None or b is None:
            return None
        within = a[1] + b[1]
        if e.op == "<<":
            shift = b[0].get((), 0) if set(b[0]) <= {()} else None
            if shift is None or not 0 <= shift < 64:
                return None
            return _mul(a[0], {(): 1 << shift}), within
        if e.op == "*":
            poly = _mul(a[0], b[0])
            return (poly, within) if poly is not None else None
        return add_polynomials(a[0], b[0], -1 if e.op == "-" else 1), within

    def _builtin(self, e: c_ast.FuncCall):
        call = fact(e, "call")
        if call is None or call.kind != "builtin" or call.name not in _FACTORS or \
                e.args is None or len(e.args.exprs) != 1:
            return None
        d = e.args.exprs[0]
        dim = self._poly(d)
        if dim is None or not set(dim[0]) <= {()}:
            return None
        dim = dim[0].get((), 0)
        if not 0 <= dim < 3:
            return None             # 0 or 1 (sizes) beyond: the launch would say
        return {(f"{_FACTORS[call.name]}{dim}",): 1}, []


# Statements that end the part every work-item runs.
_STATEMENTS = (c_ast.If, c_ast.For, c_ast.While, c_ast.DoWhile, c_ast.Switch, c_ast.Return,
               c_ast.Goto, c_ast.Label, c_ast.Break, c_ast.Continue, c_ast.Case,
               c_ast.Default, c_ast.Pragma, c_ast.StaticAssert)
