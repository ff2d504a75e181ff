"""Buffer arguments whose every element one work-item at most touches: checking builds
keep no race shadow for them (check.h, cl2c_ck_owned), whose reads and writes of the
shadow cost a stencil's output more than its own stores.

A buffer argument ``p`` qualifies where the kernel never changes it and uses it only as
``p[E]``, or only through vector loads and stores of one width (``vload4(E, p)``,
``vstore4(v, E, p)``: the elements from 4 * E), with no ``&p[E]``, no other call that
takes ``p``, no pointer made from it, and one and the same index ``E`` at every access,
a polynomial (lower/unconditional.py's) that is injective in the global ids:

- ``gid(b) + K`` (the other dimensions of the launch one work-item wide), or
- ``gid(a) * W + gid(b) + K`` (dimension a != b, the third one work-item wide), where
  ``W`` is a positive constant, an integer argument or a global size times a positive
  constant, and the values of ``gid(b)`` span at most ``W``: the launch's size along
  ``b`` is at most ``W``, or every access is under a guard that gives ``gid(b) < W``
  (``if (x < width)``, ``x < nx - 1 && ...``, ``if (x >= width) return;`` before it).

``K`` is any sum of terms without a global id (constants, arguments). Only what is
provable counts: every value in ``E`` and in the guards comes from declarations never
changed, the arguments and the launch. What depends on the launch (its sizes, ``W``'s
value, whether another argument is the same buffer, whether the host says which bytes
were written) the kernel's entry tests before dropping the shadow (check.h).

Runs on sema's tree, before lowering rewrites it.
"""
from __future__ import annotations

from dataclasses import dataclass

from pycparser import c_ast

from .. import types as ty
from ..sema import FunctionInfo
from ..typed_ast import fact, walk
from .unconditional import IndexReader, add_polynomials

_SWAPPED = {"<": ">", ">": "<", "<=": ">=", ">=": "<=", "==": "==", "!=": "!="}
# the largest constant a guard may add (the entry keeps the ids below 2^30)
_SMALL = 1 << 20
_NEGATED = {"<": ">=", ">=": "<", ">": "<=", "<=": ">", "==": "!=", "!=": "=="}


@dataclass(frozen=True)
class Owned:
    """``p[gid(along) + gid(across) * width + K]`` (``across`` -1: ``p[gid(along) + K]``);
    ``width``: ((coefficient, (factor,)),) as extents.py writes polynomials; ``guarded``:
    every access is under a guard that keeps ``gid(along)`` below ``width``."""
    along: int
    across: int = -1
    width: tuple = ()
    guarded: bool = False


def owned_buffers(f: FunctionInfo, pointers_kept: bool) -> dict[str, Owned]:
    """Kernel ``f``'s buffer arguments that qualify, by name. ``pointers_kept``: the
    program has variables of static storage that hold pointers (OpenCL C 2.0), through
    which an earlier launch may have left the way to a buffer: then none qualifies."""
    return {} if pointers_kept else _Finder(f).find()


def keeps_pointers(module) -> bool:
    """Whether a variable of ``module`` at program scope, or static in a function, holds
    a pointer (in an array or a struct too)."""
    decls = [d for kind, d in module.program_scope if kind == "variable"]
    for f in module.functions.values():
        decls += [n for n in walk(f.node.body) if isinstance(n, c_ast.Decl)
                  and "static" in (n.storage or [])]
    return any(_holds_pointer(fact(d, "ty")) for d in decls if isinstance(d, c_ast.Decl))


def _holds_pointer(t, depth: int = 0) -> bool:
    if isinstance(t, ty.Pointer) or t is None or depth > 16:
        return True             # (a type not known: as if it did)
    if isinstance(t, ty.Array):
        return _holds_pointer(t.elem, depth + 1)
    if isinstance(t, ty.Record):
        return any(_holds_pointer(ft, depth + 1) for _, ft in t.fields)
    return False


class _Finder(IndexReader):
    def __init__(self, f: FunctionInfo):
        super().__init__(f)
        decls = [p for p in f.node.decl.type.args.params if isinstance(p, c_ast.Decl)] \
            if f.node.decl.type.args else []
        self.names = {id(d): d.name for d in decls}
        self.seen: dict[int, list] = {}     # buffer declaration -> [(index, facts, block)]
        self.lost: set[int] = set()         # buffers used otherwise
        self.jumps = any(isinstance(n, (c_ast.Goto, c_ast.Label, c_ast.Case, c_ast.Default))
                         for n in walk(self.body))

    def find(self) -> dict[str, Owned]:
        self._statement(self.body, ())
        out = {}
        for d, uses in self.seen.items():
            if d in self.lost or d in self.changed:
                continue
            owned = _shape(uses)
            if owned is not None:
                out[self.names[d]] = owned
        return out

    # ---- statements, with the facts that hold where they run --------------------------
    def _statement(self, s, facts: tuple):
        if isinstance(s, c_ast.Compound):
            for item in s.block_items or []:
                self._statement(item, facts)
                early = _early_return(item)
                if early is not None and not self.jumps:
                    facts = facts + self._facts(early, False)
        elif isinstance(s, c_ast.Decl):
            if s.init is not None:
                self._expr(s.init, facts)
                self._variable(s)
        elif isinstance(s, c_ast.DeclList):
            for d in s.decls:
                self._statement(d, facts)
        elif isinstance(s, c_ast.If):
            self._expr(s.cond, facts)
            if s.iftrue is not None:
                self._statement(s.iftrue, facts + self._facts(s.cond, True))
            if s.iffalse is not None:
                self._statement(s.iffalse, facts + self._facts(s.cond, False))
        elif isinstance(s, (c_ast.For, c_ast.While)):
            for part in (getattr(s, "init", None), s.cond, getattr(s, "next", None)):
                if isinstance(part, (c_ast.Decl, c_ast.DeclList)):
                    self._statement(part, facts)
                elif part is not None:
                    self._expr(part, facts)
            inside = facts + (self._facts(s.cond, True) if s.cond is not None else ())
            self._statement(s.stmt, inside)
        elif isinstance(s, c_ast.Typedef):
            pass
        elif isinstance(s, c_ast.Node) and not isinstance(s, (c_ast.Return, c_ast.Break,
                                                                   c_ast.Continue,
                                                                   c_ast.EmptyStatement)):
            # expression statements, and what else holds them (a do-while, a switch,
            # a label's statement): children with the facts of here
            if isinstance(s, (c_ast.DoWhile, c_ast.Switch, c_ast.Label, c_ast.Case,
                              c_ast.Default)):
                for _, child in s.children():
                    if _is_statement(child):
                        self._statement(child, facts)
                    else:
                        self._expr(child, facts)
            else:
                self._expr(s, facts)
        elif isinstance(s, c_ast.Return) and s.expr is not None:
            self._expr(s.expr, facts)

    # ---- expressions ------------------------------------------------------------------
    def _expr(self, e, facts: tuple):
        if e is None:
            return
        if isinstance(e, c_ast.ArrayRef) and self._buffer(e.name) is not None:
            self.seen.setdefault(self._buffer(e.name), []).append(
                (self._poly(e.subscript), facts, 1))
            self._expr(e.subscript, facts)
            return
        block = _vector_block(e)
        if block and self._buffer(e.args.exprs[-1]) is not None:
            # vloadn(i, p), vstoren(v, i, p): the block of elements from block * i, the
            # work-item's own where i is
            self.seen.setdefault(self._buffer(e.args.exprs[-1]), []).append(
                (self._poly(e.args.exprs[-2]), facts, block))
            for a in e.args.exprs[:-1]:
                self._expr(a, facts)
            return
        if isinstance(e, c_ast.ID):
            d = self._buffer(e)
            if d is not None:
                self.lost.add(d)            # the pointer itself: passed, copied, compared
            return
        if isinstance(e, c_ast.UnaryOp) and e.op == "&":
            inner = e.expr
            while isinstance(inner, (c_ast.ArrayRef, c_ast.StructRef)):
                if isinstance(inner, c_ast.ArrayRef):
                    d = self._buffer(inner.name)
                    if d is not None:
                        self.lost.add(d)    # an address: it may go anywhere
                    self._expr(inner.subscript, facts)
                inner = inner.name
            self._expr(inner, facts)
            return
        if isinstance(e, c_ast.BinaryOp) and e.op in ("&&", "||"):
            self._expr(e.left, facts)
            self._expr(e.right, facts + self._facts(e.left, e.op == "&&"))
            return
        if isinstance(e, c_ast.TernaryOp):
            self._expr(e.cond, facts)
            self._expr(e.iftrue, facts + self._facts(e.cond, True))
            self._expr(e.iffalse, facts + self._facts(e.cond, False))
            return
        for _, child in e.children():
            self._expr(child, facts)

    def _buffer(self, e) -> int | None:
        """The declaration (by id) of the buffer argument that ``e`` names, if it does."""
        sym = fact(e, "symbol") if isinstance(e, c_ast.ID) else None
        return id(sym.node) if sym is not None and id(sym.node) in self.buffers else None

    # ---- guards -----------------------------------------------------------------------
    def _facts(self, cond, holds: bool) -> tuple:
        """What ``cond`` being ``holds`` says: ((R - L, strict), ...) for each
        comparison L < R (or L <= R) it implies between polynomials."""
        if isinstance(cond, c_ast.UnaryOp) and cond.op == "!":
            return self._facts(cond.expr, not holds)
        if isinstance(cond, c_ast.BinaryOp):
            if cond.op in ("&&", "||"):
                if (cond.op == "&&") == holds:
                    return self._facts(cond.left, holds) + self._facts(cond.right, holds)
                return ()
            if cond.op in _NEGATED:
                return self._comparison(cond, cond.op if holds else _NEGATED[cond.op])
        return ()

    def _comparison(self, cond: c_ast.BinaryOp, op: str) -> tuple:
        left, right = self._poly(cond.left), self._poly(cond.right)
        if left is None or right is None or op in ("==", "!=") or \
                not _wide(left[1] + right[1]):
            return ()
        lo, hi = (left[0], right[0]) if op in ("<", "<=") else (right[0], left[0])
        if not _signed(cond) and not _without_wrap(lo, hi) or \
                any(abs(p.get((), 0)) > _SMALL for p in (lo, hi)):
            return ()
        return ((add_polynomials(hi, lo, -1), op in ("<", ">")),)


def _shape(uses: list) -> Owned | None:
    """The Owned of a buffer's accesses (index, facts, block: 1 for ``p[E]``, a vector
    access's elements), where they qualify."""
    indices = {(_key(index[0]), block) if index is not None else None
               for index, _, block in uses}
    if len(indices) != 1 or None in indices or not all(_wide(i[1]) for i, _, _ in uses):
        return None
    poly = uses[0][0][0]
    ids = {fs: c for fs, c in poly.items() if any(f.startswith("gid") for f in fs)}
    if any(not f.startswith(("arg", "gsize", "goff")) for fs, c in poly.items()
           if fs not in ids for f in fs):
        return None
    plain = [fs for fs, c in ids.items() if len(fs) == 1 and c == 1]
    if len(plain) != 1:
        return None
    along = int(plain[0][0][3:])
    rest = {fs: c for fs, c in ids.items() if fs != plain[0]}
    if not rest:
        return Owned(along)
    if len(rest) != 1:
        return None
    (fs, c), = rest.items()
    across = [f for f in fs if f.startswith("gid")]
    others = [f for f in fs if not f.startswith("gid")]
    if len(across) != 1 or across[0] == plain[0][0] or c <= 0 or len(others) > 1 or \
            any(not f.startswith(("arg", "gsize")) for f in others):
        return None
    width = {tuple(others): c}
    guarded = all(_bounded(plain[0], width, facts) for _, facts, _ in uses)
    return Owned(along, int(across[0][3:]), ((c, tuple(others)),), guarded)


def _vector_block(e) -> int:
    """The elements a vector load or store (``vloadn(i, p)``, ``vstoren(v, i, p)`` and
    their half forms) reaches from block * i: n, or 4 for the aligned forms of 3; else
    0."""
    call = fact(e, "call") if isinstance(e, c_ast.FuncCall) and e.args is not None else None
    if call is None or call.kind not in ("vload", "vstore", "vload_half", "vstore_half") or \
            len(e.args.exprs) < 2:
        return 0
    n = ty.width(call.generic)
    return 4 if n == 3 and call.name.startswith(("vloada", "vstorea")) else n


def _bounded(gid: tuple, width: dict, facts: tuple) -> bool:
    """Whether one of ``facts`` gives gid < width: (width - gid) - (R - L) a constant,
    at least 0 where L < R, at least 1 where L <= R."""
    need = add_polynomials(width, {gid: 1}, -1)
    for diff, strict in facts:
        rest = add_polynomials(need, diff, -1)
        if set(rest) <= {()} and rest.get((), 0) >= (0 if strict else 1):
            return True
    return False


def _wide(within: list) -> bool:
    """Whether every value on the way has a type of 32 bits or more: below the bounds the
    entry tests, no product wraps, and a sum that wraps does so one-to-one."""
    return all(hi - lo >= (1 << 32) - 1 for _, lo, hi in within)


def _key(poly: dict) -> tuple:
    return tuple(sorted(poly.items()))


def _signed(cond: c_ast.BinaryOp) -> bool:
    """Whether the comparison is of signed integers (no operand wraps to a large one)."""
    types = [fact(side, "ty") for side in (cond.left, cond.right)]
    return all(isinstance(t, ty.Scalar) and t.kind == "int" and t.signed for t in types)


def _without_wrap(lo: dict, hi: dict) -> bool:
    """An unsigned comparison lo < hi whose sides cannot wrap: no negative coefficient."""
    return all(c > 0 for c in lo.values()) and all(c > 0 for c in hi.values())


def _early_return(item) -> object | None:
    """The condition of ``if (c) return;`` (or ``{ return; }``), which is false after it."""
    if not isinstance(item, c_ast.If) or item.iffalse is not None:
        return None
    body = item.iftrue
    if isinstance(body, c_ast.Compound) and len(body.block_items or []) == 1:
        body = body.block_items[0]
    return item.cond if isinstance(body, c_ast.Return) else None


def _is_statement(node) -> bool:
    return isinstance(node, (c_ast.Compound, c_ast.If, c_ast.For, c_ast.While, c_ast.DoWhile,
                             c_ast.Switch, c_ast.Return, c_ast.Break, c_ast.Continue,
                             c_ast.Label, c_ast.Case, c_ast.Default, c_ast.Goto, c_ast.Decl,
                             c_ast.DeclList, c_ast.EmptyStatement))

