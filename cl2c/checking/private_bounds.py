"""Checking builds (-cl2c-check): accesses through pointers into private memory, checked
against the bounds of the variable they point into (private memory is one work-item's:
no races to look for).

accesses.py calls it on the C tree, before the schedules. A private variable whose address
a pointer may take (``&x``, ``&a[i]``, ``&s.v``, an array that decays: ``f(a)``,
``a + 1``, ``float *p = a``) is registered where it is declared:
``cl2c_ck_private(cl2c_ck_t, "a", &a, sizeof a);`` after its declaration (a parameter:
at the top of the function). An access through a pointer into private memory becomes
``*CL2C_CK_PRIVATE(base, &E, flags, site)`` (accesses.py), which checks it against the
most recently registered variable that holds ``base`` (clruntime check.h): stack
frames nest, so that is the live one at that address. A pointer that no registered
variable holds is not checked (nothing is reported that the check cannot be sure of).
"""
from __future__ import annotations

from pycparser import c_ast

from .. import types as ty
from ..typed_ast import fact

REGISTER = "cl2c_ck_private"
_NOT_PRIVATE = {"__local", "local", "__constant", "constant", "__global", "global",
                "static", "extern"}


def register_escaping(func: c_ast.FuncDef, thread: str) -> int:
    """Put a registration after the declaration of each private variable of ``func``
    whose address escapes (``thread``: the name of the thread's checking state);
    returns how many."""
    params = [p for p in (func.decl.type.args.params if func.decl.type.args else [])
              if isinstance(p, c_ast.Decl) and p.name]
    finder = _Escapes()
    finder.scopes.append({p.name: p for p in params if _private(p)})
    finder.visit(func.body)
    if not finder.escaping:
        return 0
    count = 0
    for block in _blocks(func.body):
        items = []
        for item in block.block_items or []:
            items.append(item)
            if isinstance(item, c_ast.Decl) and item in finder.escaping:
                items.append(_registration(item, thread))
                count += 1
        block.block_items = items
    top = [_registration(p, thread) for p in params if p in finder.escaping]
    func.body.block_items = top + (func.body.block_items or [])
    return count + len(top)


def _private(decl: c_ast.Decl) -> bool:
    quals = set(decl.quals or []) | set(decl.storage or [])
    return not (quals & _NOT_PRIVATE) and fact(decl, "ty") is not None and \
        not isinstance(decl.type, c_ast.FuncDecl)


def _registration(decl: c_ast.Decl, thread: str) -> c_ast.FuncCall:
    """At the declaration's place (the emitted #line, a barrier's line, stay right)."""
    at = decl.coord
    return c_ast.FuncCall(c_ast.ID(REGISTER, at), c_ast.ExprList([
        c_ast.ID(thread, at), c_ast.Constant("string", f'"{decl.name}"', at),
        c_ast.UnaryOp("&", c_ast.ID(decl.name, at), at),
        c_ast.UnaryOp("sizeof", c_ast.ID(decl.name, at), at)], at), at)


def _updates_in_place(call: c_ast.FuncCall) -> bool:
    """A runtime helper that writes through its first argument (lower/effects.py's
    UPDATE: ++ on a vector, a swizzle store)."""
    found = fact(call, "call")
    return found is not None and found.kind == "update" and call.args is not None


def _blocks(node):
    """Every compound statement under ``node``, itself included."""
    stack = [node]
    while stack:
        n = stack.pop()
        if isinstance(n, c_ast.Compound):
            yield n
        stack.extend(child for _, child in n.children())


class _Escapes:
    """The private declarations whose address escapes, by a walk that resolves each
    name in its scope."""

    def __init__(self):
        self.scopes: list[dict] = []
        self.escaping: set[c_ast.Decl] = set()      # (nodes hash by identity)

    def lookup(self, name):
        for scope in reversed(self.scopes):
            if name in scope:
                return scope[name]
        return None

    def visit(self, node, parent=None):
        if node is None:
            return
        if isinstance(node, c_ast.Compound):
            self.scopes.append({})
            for item in node.block_items or []:
                self.visit(item, node)
            self.scopes.pop()
            return
        if isinstance(node, c_ast.For):
            self.scopes.append({})
            for _, child in node.children():
                self.visit(child, node)
            self.scopes.pop()
            return
        if isinstance(node, c_ast.Decl):
            self.visit(node.init, node)     # its own name is not in scope there yet
            if node.name and _private(node):
                self.scopes[-1][node.name] = node
            elif node.name:
                self.scopes[-1][node.name] = None       # shadows an outer one
            return
        if isinstance(node, (c_ast.ArrayRef, c_ast.StructRef, c_ast.ID)):
            self.chain(node, parent)
            return
        if isinstance(node, c_ast.FuncCall) and _updates_in_place(node):
            # a vector's ++ or swizzle store, which lowering writes as a runtime helper
            # taking the vector's address: it writes that vector's own components (in
            # bounds by construction), so the address does not escape
            for arg in node.args.exprs:
                taken = isinstance(arg, c_ast.UnaryOp) and arg.op == "&"
                self.visit(arg.expr if taken else arg, node)
            return
        for _, child in node.children():
            self.visit(child, node)

    def chain(self, top, parent):
        """An lvalue chain ``a[i].s[j]`` down to the variable it names: its indices are
        visited; the variable escapes where the chain's address is taken, or where
        the chain is an array that decays to a pointer."""
        n = top
        while isinstance(n, (c_ast.ArrayRef, c_ast.StructRef)):
            if isinstance(n, c_ast.ArrayRef):
                self.visit(n.subscript, n)
            if isinstance(n, c_ast.StructRef) and n.type == "->":
                self.visit(n.name, n)       # a pointer's target: not the variable's
                return
            if isinstance(n, c_ast.ArrayRef) and \
                    isinstance(fact(n.name, "ty"), ty.Pointer):
                self.visit(n.name, n)       # through a pointer: not the variable's
                return
            n = n.name
        if not isinstance(n, c_ast.ID):
            self.visit(n, top)
            return
        decl = self.lookup(n.name)
        if decl is None:
            return
        taken = isinstance(parent, c_ast.UnaryOp) and parent.op == "&"
        sized = isinstance(parent, c_ast.UnaryOp) and parent.op in ("sizeof", "_Alignof")
        decays = isinstance(fact(top, "ty"), ty.Array) and not sized
        if taken or decays:
            self.escaping.add(decl)
