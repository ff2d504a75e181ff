"""Checking builds (-cl2c-check): reads of uninitialised private variables.

Runs on the C tree after accesses.py and before the schedules, in every function
(kernels and helpers): a private variable gets a private flag, so the regions and
fibers schedules carry it across barriers as they carry any private (a per-work-item
array, a fiber's stack). definite_assignment.py says which reads may come before any
write; only the variables with such a read get instrumented (clruntime
cl2c/check_private.h):

- a scalar, vector, struct or pointer ``x``: ``_Bool cl2c_cks_x = 0;`` after its
  declaration, set by each write (a statement ``cl2c_cks_x = 1;`` after a write that is
  a statement, CL2C_CK_PSET around one inside an expression, CL2C_CK_PADDR where its
  address is taken: these two take the flag's address, so the schedules see it
  written) and tested by each read not proven written (CL2C_CK_PGET, or
  CL2C_CK_PTEST before a statement ``x += e;``);
- an array ``a``: a shadow byte per innermost element, ``_Bool cl2c_cks_a[N] = {0};``,
  each element access through CL2C_CK_ELEM (set on a write, tested on a read), every
  element set where the array's address escapes.
"""
from __future__ import annotations

from pycparser import c_ast

from .. import types as ty
from ..sema import Module
from ..typed_ast import child_fields, make
from .definite_assignment import ADDR, READ, RW, WRITE, Analysis
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

    def expr_stmt(self, e) -> list:
        """An expression statement: a write of a flagged scalar sets its flag in a
        statement after it (a read-modify-write tests it in one before)."""
        lvalue = e.lvalue if isinstance(e, c_ast.Assignment) else \
            e.expr if isinstance(e, c_ast.UnaryOp) and e.op in ("++", "--", "p++", "p--") \
            else None
        a = self.access(lvalue) if lvalue is not None else None
        if a is None or a.var.dims or a.mode not in (WRITE, RW):
            return [self.expr(e)]
        out = []
        if a.mode == RW and not a.proven:
            out.append(_call("CL2C_CK_PTEST", [self.flag(a.var), self.site(lvalue.coord),
                                               _string(a.var.name)], e.coord))
        out.append(self.expr(e, statement=True))
        out.append(c_ast.Assignment("=", self.flag(a.var), c_ast.Constant("int", "1"),
                                    e.coord))
        return out

    def flag_decl(self, var):
        d = var.decl
        name = FLAG + var.name
        # _Bool, not unsigned char: its stores alias no other type's, so they do not make
        # the compiler reload the kernel's other memory
        base = c_ast.TypeDecl(name, [], None, c_ast.IdentifierType(["_Bool"]))
        if var.dims:
            decl = c_ast.ArrayDecl(base, c_ast.Constant("int", str(var.total)), [])
            init = c_ast.InitList([c_ast.Constant("int", "0")])
        else:
            decl, init = base, c_ast.Constant("int", "0")
        flag = make(c_ast.Decl, name, [], [], [], [], decl, init, None, d.coord)
        flag.ty = ty.Array(ty.BOOL, var.total) if var.dims else ty.BOOL
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
            return self.escape(a, n) if a is not None and a.mode == ADDR else n
        self.children(n)
        a = self.access(n)
        if a is not None and not under_addr:
            n = self.use(a, n)
        if not statement and isinstance(n, (c_ast.Assignment, c_ast.UnaryOp)):
            lvalue = n.lvalue if isinstance(n, c_ast.Assignment) else \
                n.expr if n.op in ("++", "--", "p++", "p--") else None
            w = self.access(lvalue) if lvalue is not None else None
            if w is not None and not w.var.dims and w.mode in (WRITE, RW):
                if w.mode == RW and not w.proven:
                    n = self.get(w, n, lvalue.coord)
                n = _call("CL2C_CK_PSET", [self.flag_address(w.var), n], n.coord)
        return n

    def children(self, n):
        if isinstance(n, c_ast.Assignment):
            n.rvalue = self.expr(n.rvalue)
            n.lvalue = self.expr(n.lvalue)
            return
        for name in child_fields(n):
            value = getattr(n, name, None)
            if isinstance(value, list):
                setattr(n, name, [self.expr(v) for v in value])
            elif isinstance(value, c_ast.Node):
                setattr(n, name, self.expr(value))

    def use(self, a, n):
        """The use ``n`` of a flagged variable, with its check."""
        if a.mode == ADDR:
            return self.escape(a, n)
        if a.var.dims:
            bits = (_CHECK if a.mode in (READ, RW) and not a.proven else 0) | \
                (_SET if a.mode in (WRITE, RW) else 0)
            if not bits:
                return n
            elem = _call("CL2C_CK_ELEM", [self.flag(a.var), _id(a.var.name),
                                          c_ast.UnaryOp("&", n, n.coord),
                                          c_ast.Constant("int", str(bits)),
                                          self.site(n.coord), _string(a.var.name)], n.coord)
            return c_ast.UnaryOp("*", elem, n.coord)
        if a.mode == READ and not a.proven:
            return self.get(a, n, n.coord)
        return n        # writes: the assignment around sets the flag

    def get(self, a, n, coord):
        return _call("CL2C_CK_PGET", [self.flag(a.var), self.site(coord),
                                      _string(a.var.name), n], n.coord)

    def escape(self, a, n):
        if a.var.dims:
            return _call("CL2C_CK_AADDR", [self.flag(a.var), n], n.coord)
        return _call("CL2C_CK_PADDR", [self.flag_address(a.var), n], n.coord)
