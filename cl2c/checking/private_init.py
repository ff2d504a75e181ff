"""Checking builds (-cl2c-check): reads of uninitialized private variables.

Runs on the C tree after accesses.py and before the schedules, in every function
(kernels and helpers): a private variable gets a private flag, so the regions and
fibers schedules carry it across barriers as they carry any private (a per-work-item
array, a fiber's stack). definite_assignment.py says which reads may come before any
write; only the variables with such a read get instrumented (clruntime
cl2c/check_private.h):

- a scalar, struct or pointer ``x``: ``_Bool cl2c_cks_x = 0;`` after its
  declaration, set by each write (a statement ``cl2c_cks_x = 1;`` after a write that is
  a statement, CL2C_CK_PSET around one inside an expression or around a builtin that
  stores a second result in it, CL2C_CK_PADDR where its address is taken: these two
  take the flag's address, so the schedules see it written) and tested by each read
  not proven written (CL2C_CK_PGET, or CL2C_CK_PTEST before a statement ``x += e;``);
- a vector ``v``: ``unsigned short cl2c_cks_v = 0;``, a bit per component, set by
  writes (``cl2c_cks_v |= 5;`` after ``v.s[0] = ...; v.s[2] = ...`` as statements,
  CL2C_CK_VSET, CL2C_CK_VADDR) and tested by reads (CL2C_CK_VGET, CL2C_CK_VTEST)
  for the components they use;
- a struct with vector members: the same, a bit per component of each vector member
  and one for its other members (CL2C_CK_STEST, CL2C_CK_SGET name the part);
- an array ``a``: a shadow byte per innermost element, ``_Bool cl2c_cks_a[N] = {0};``,
  each element access through CL2C_CK_ELEM (set on a write, tested on a read), every
  element set where the array's address escapes; an array of vectors a shadow of a bit
  per component (``unsigned short cl2c_cks_a[N]``, CL2C_CK_VELEM, CL2C_CK_VAADDR), an
  array of structs of a bit per part (``unsigned long long``, CL2C_CK_SELEM).
"""
from __future__ import annotations

from pycparser import c_ast

from .. import types as ty
from ..sema import Module
from ..typed_ast import make, map_children
from .definite_assignment import ADDR, ANY, READ, RW, WRITE, Analysis
from .sites import Sites

FLAG = "cl2c_cks_"
_CHECK, _SET = 1, 2


def instrument(module: Module, sites: Sites) -> Module:
    """Flags and checks into every function of ``module``; ``sites`` names the place of
    each check."""
    for f in module.functions.values():
        params = [p.name for p in (f.node.decl.type.args.params
                                   if f.node.decl.type.args else [])
                  if isinstance(p, c_ast.Decl) and p.name]
        an = Analysis(f.node.body, params)
        if any(v.needed for v in an.vars):
            f.node.body = _Rewriter(an, sites).stmt(f.node.body)[0]
    return module


def _id(name, coord=None):
    return c_ast.ID(name, coord)


def _call(name, args, coord):
    return c_ast.FuncCall(_id(name, coord), c_ast.ExprList(args, coord), coord)


def _bits(mask: int):
    """A flag's bits, as a constant of a type that holds them."""
    return c_ast.Constant("int", str(mask) if mask < 1 << 31 else f"{mask}ull")


def _string(text):
    return c_ast.Constant("string", '"' + text.replace("\\", "\\\\").replace('"', '\\"') + '"')


class _Rewriter:
    def __init__(self, an: Analysis, sites):
        self.an = an
        self.sites = sites

    def site(self, coord):
        return c_ast.UnaryOp("&", _id(self.sites.name(coord)), coord)

    def flag(self, var, coord=None):
        return _id(FLAG + var.name, coord)

    def flag_address(self, var):
        """A flag a macro sets goes by its address: the schedules then see that it is
        written there (it is neither recomputed nor taken for the group's)."""
        return c_ast.UnaryOp("&", self.flag(var))

    def access(self, node):
        a = self.an.access(node)
        return a if a is not None and a.var.needed else None

    # ---- statements: each becomes a list of statements
    def stmt(self, s) -> list:
        if s is None:
            return [None]
        if isinstance(s, c_ast.Compound):
            items = []
            for item in s.block_items or []:
                items += self.stmt(item)
            s.block_items = items
            return [s]
        if isinstance(s, c_ast.Decl):
            s.init = self.expr(s.init)
            var = next((v for v in self.an.vars if v.decl is s and v.needed), None)
            return [s] if var is None else [s, self.flag_decl(var)]
        if isinstance(s, (c_ast.Case, c_ast.Default)):
            if isinstance(s, c_ast.Case):
                s.expr = self.expr(s.expr)
            s.stmts = [x for item in s.stmts or [] for x in self.stmt(item)]
            return [s]
        if isinstance(s, c_ast.If):
            s.cond = self.expr(s.cond)
            s.iftrue, s.iffalse = self.slot(s.iftrue), self.slot(s.iffalse)
            return [s]
        if isinstance(s, (c_ast.While, c_ast.DoWhile)):
            s.cond = self.expr(s.cond)
            s.stmt = self.slot(s.stmt)
            return [s]
        if isinstance(s, c_ast.For):
            if isinstance(s.init, c_ast.DeclList):
                for d in s.init.decls:
                    d.init = self.expr(d.init)
            else:
                s.init = self.expr(s.init)
            s.cond, s.next = self.expr(s.cond), self.expr(s.next)
            s.stmt = self.slot(s.stmt)
            return [s]
        if isinstance(s, c_ast.Switch):
            s.cond = self.expr(s.cond)
            s.stmt = self.slot(s.stmt)
            return [s]
        if isinstance(s, c_ast.Label):
            s.stmt = self.slot(s.stmt)
            return [s]
        if isinstance(s, c_ast.Return):
            s.expr = self.expr(s.expr)
            return [s]
        if isinstance(s, c_ast.DeclList):
            for d in s.decls:
                d.init = self.expr(d.init)
            return [s]
        if isinstance(s, (c_ast.EmptyStatement, c_ast.Pragma, c_ast.Goto, c_ast.Break,
                          c_ast.Continue, c_ast.Typedef)):
            return [s]
        return self.expr_stmt(s)

    def slot(self, s):
        """A statement where one statement goes (an if's branch, a loop's body)."""
        out = self.stmt(s)
        return out[0] if len(out) == 1 else c_ast.Compound(out, s.coord)

    def written(self, e):
        """The write of a flagged variable that expression ``e`` is, if any (not of an
        array's element: those set their shadow byte where they are), and the node
        that names what it writes."""
        if isinstance(e, c_ast.Assignment):
            node = e.lvalue
        elif isinstance(e, c_ast.UnaryOp) and e.op in ("++", "--", "p++", "p--"):
            node = e.expr
        elif isinstance(e, c_ast.FuncCall):
            node = e                        # a swizzle store, a second result
        else:
            return None, None
        a = self.access(node)
        if a is None or a.var.dims or a.mode not in (WRITE, RW):
            return None, None
        return a, node

    def expr_stmt(self, e) -> list:
        """An expression statement: a write of a flagged scalar sets its flag in a
        statement after it (a read-modify-write tests it in one before)."""
        a, node = self.written(e)
        if a is None:
            return [self.expr(e)]
        out = []
        if a.mode == RW and not a.proven:
            out.append(self.test(a, node.coord))
        out.append(self.expr(e, statement=True))
        if a.var.comps:
            mask = a.var.mask(None if a.comps == ANY else a.comps)
            full = mask == a.var.mask()
            out.append(c_ast.Assignment("=" if full else "|=", self.flag(a.var),
                                        _bits(mask), e.coord))
        else:
            out.append(c_ast.Assignment("=", self.flag(a.var), c_ast.Constant("int", "1"),
                                        e.coord))
        return out

    def test(self, a, coord):
        """The test of a read of ``a``'s variable, as a statement."""
        if a.var.comps:
            test = "CL2C_CK_STEST" if a.var.members is not None else "CL2C_CK_VTEST"
            return _call(test, self.vector_args(a, coord), coord)
        return _call("CL2C_CK_PTEST", [self.flag(a.var), self.site(coord),
                                       _string(a.var.name)], coord)

    def vector_args(self, a, coord):
        """A vector's flag, the bits that the use needs (0: any), its components, site
        and name: what CL2C_CK_VTEST takes."""
        if a.var.members is not None:
            return [self.flag(a.var), _bits(a.var.mask(a.comps)), self.labels(a.var),
                    c_ast.Constant("int", str(a.var.comps)), self.site(coord),
                    _string(a.var.name)]
        return [self.flag(a.var), _bits(a.var.mask(a.comps)),
                c_ast.Constant("int", str(a.var.comps)), self.site(coord),
                _string(a.var.name)]

    @staticmethod
    def labels(var):
        """A struct's bits' labels, for the report: one C string, each ended by a NUL."""
        return c_ast.Constant("string", '"' + "\\0".join(
            label.replace("\\", "\\\\").replace('"', '\\"')
            for label in var.labels) + '"')

    def flag_decl(self, var):
        d = var.decl
        name = FLAG + var.name
        # _Bool, not unsigned char: its stores alias no other type's, so they do not make
        # the compiler reload the kernel's other memory
        # (a vector's: a bit per component, of a type that aliases no other type of
        # its components' but short's)
        # (a struct's with vector members: as many bits as it needs)
        # (an array of structs': a ulong each, what CL2C_CK_SELEM takes)
        kind = ty.BOOL if not var.comps else \
            ty.ULONG if var.dims and var.members is not None else \
            ty.USHORT if var.comps <= 16 else ty.UINT if var.comps <= 32 else ty.ULONG
        base = c_ast.TypeDecl(name, [], None, c_ast.IdentifierType(
            {ty.BOOL: ["_Bool"], ty.USHORT: ["unsigned", "short"], ty.UINT: ["unsigned"],
             ty.ULONG: ["unsigned", "long", "long"]}[kind]))
        if var.dims:
            decl = c_ast.ArrayDecl(base, c_ast.Constant("int", str(var.total)), [])
            init = c_ast.InitList([c_ast.Constant("int", "0")])
        else:
            decl, init = base, c_ast.Constant("int", "0")
        flag = make(c_ast.Decl, name, [], [], [], [], decl, init, None, d.coord)
        flag.ty = ty.Array(kind, var.total) if var.dims else kind
        return flag

    # ---- expressions
    def expr(self, n, statement=False, under_addr=False):
        if n is None or not isinstance(n, c_ast.Node):
            return n
        if isinstance(n, c_ast.UnaryOp) and n.op in ("sizeof", "_Alignof"):
            return n
        if isinstance(n, (c_ast.Typename, c_ast.Constant, c_ast.TypeDecl, c_ast.PtrDecl,
                          c_ast.ArrayDecl, c_ast.FuncDecl, c_ast.Struct, c_ast.Union,
                          c_ast.Enum)):
            return n
        if isinstance(n, c_ast.UnaryOp) and n.op == "&":
            n.expr = self.expr(n.expr, under_addr=True)
            a = self.access(n.expr)
            if a is not None and a.mode == ADDR:
                return self.escape(a, n)
            if a is not None and a.var.dims and a.mode == WRITE:
                n.expr = self.use(a, n.expr)     # a builtin's second result: its shadow
            return n
        self.children(n)
        a = self.access(n)
        if a is not None and not under_addr and not isinstance(n, c_ast.FuncCall):
            n = self.use(a, n)
        if not statement:
            w, node = self.written(n)
            if w is not None:
                if w.mode == RW and not w.proven:
                    n = self.get(w, n, node.coord)
                n = self.set(w, n)
        return n

    def set(self, w, n):
        """``n``, which writes ``w``'s variable, then its flag set."""
        if w.var.comps:
            mask = w.var.mask(None if w.comps == ANY else w.comps)
            return _call("CL2C_CK_VSET", [self.flag_address(w.var),
                                          _bits(mask), n], n.coord)
        return _call("CL2C_CK_PSET", [self.flag_address(w.var), n], n.coord)

    def children(self, n):
        if isinstance(n, c_ast.Assignment):
            n.rvalue = self.expr(n.rvalue)
            n.lvalue = self.expr(n.lvalue)
            return
        map_children(n, self.expr)

    def use(self, a, n):
        """The use ``n`` of a flagged variable, with its check."""
        if a.mode == ADDR:
            return self.escape(a, n)
        if a.var.dims:
            bits = (_CHECK if a.mode in (READ, RW) and not a.proven else 0) | \
                (_SET if a.mode in (WRITE, RW) else 0)
            if not bits:
                return n
            if a.var.comps:
                # an array of vectors: the components read, those written (of
                # structs: the parts, with their labels)
                read = a.var.mask(a.comps) if bits & _CHECK else 0
                wrote = a.var.mask(None if a.comps == ANY else a.comps) \
                    if bits & _SET else 0
                labels = [self.labels(a.var)] if a.var.members is not None else []
                elem = _call("CL2C_CK_SELEM" if labels else "CL2C_CK_VELEM", [
                    self.flag(a.var), _id(a.var.name), c_ast.UnaryOp("&", n, n.coord),
                    c_ast.Constant("int", str(bits & _CHECK)),
                    _bits(read), _bits(wrote), *labels, c_ast.Constant("int", str(a.var.comps)), self.site(n.coord),
                    _string(a.var.name)], n.coord)
                return c_ast.UnaryOp("*", elem, n.coord)
            elem = _call("CL2C_CK_ELEM", [self.flag(a.var), _id(a.var.name),
                                          c_ast.UnaryOp("&", n, n.coord),
                                          c_ast.Constant("int", str(bits)),
                                          self.site(n.coord), _string(a.var.name)], n.coord)
            return c_ast.UnaryOp("*", elem, n.coord)
        if a.mode == READ and not a.proven:
            return self.get(a, n, n.coord)
        return n        # writes: the assignment around sets the flag

    def get(self, a, n, coord):
        if a.var.comps:
            get = "CL2C_CK_SGET" if a.var.members is not None else "CL2C_CK_VGET"
            return _call(get, self.vector_args(a, coord) + [n], n.coord)
        return _call("CL2C_CK_PGET", [self.flag(a.var), self.site(coord),
                                      _string(a.var.name), n], n.coord)

    def escape(self, a, n):
        if a.var.dims:
            return _call("CL2C_CK_VAADDR" if a.var.comps else "CL2C_CK_AADDR",
                         [self.flag(a.var), n], n.coord)
        if a.var.comps:
            return _call("CL2C_CK_VADDR", [self.flag_address(a.var),
                                           _bits(a.var.mask()), n],
                         n.coord)
        return _call("CL2C_CK_PADDR", [self.flag_address(a.var), n], n.coord)
