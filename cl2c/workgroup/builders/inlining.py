"""Preparing a kernel body for the regions schedule: calls of helpers that reach a
barrier are replaced by the helpers' bodies, and every local variable gets a name
of its own."""
from __future__ import annotations

import copy

from pycparser import c_ast

from ...lower.effects import called_function, has_effects
from .errors import NeedFibers
from .syntax import contains_sync, replace_child, retyped, set_declname, walk


# ---- inlining helpers that contain barriers -----------------------------------------------

def syncing_functions(functions: dict) -> set:
    """Names of user functions (lowered FuncDefs by name) that reach a barrier."""
    found = {n for n, f in functions.items() if contains_sync(f.body)}
    changed = True
    while changed:
        changed = False
        for n, f in functions.items():
            if n not in found and contains_sync(f.body, found):
                found.add(n)
                changed = True
    return found


def inline_sync_calls(body: c_ast.Compound, functions: dict, depth: int = 0) -> None:
    """Replace statement-level calls of helpers that reach a barrier by their bodies."""
    if not any(called_function(n) in functions for n in walk(body)):
        return              # calls no helper: no need to look at every function's body
    sync = syncing_functions(functions)
    if not any(called_function(n) in sync for n in walk(body)):
        return
    if depth > 16:
        raise NeedFibers("helpers with barriers nest too deeply to inline")

    class Inliner(c_ast.NodeVisitor):
        def generic_visit(self, node):
            for name, child in node.children():
                if not _is_statement_slot(node, name):
                    self.visit(child)
                elif called_function(child) in sync:
                    replace_child(node, name,
                                   _inline(child, functions[called_function(child)]))
                elif called_function(_value_call(child)) in sync:
                    f = functions[called_function(_value_call(child))]
                    replace_child(node, name, _inline_value(child, f, body))
                else:
                    self.visit(child)
            if isinstance(node, c_ast.Compound) and node.block_items:
                # a declaration's initialiser inlined: its statements join the block
                node.block_items = [s for item in node.block_items for s in
                                    (item.block_items if isinstance(item, _Spliced)
                                     else [item])]

    Inliner().visit(body)
    for n in walk(body):
        if called_function(n) in sync:
            raise NeedFibers(f"the helper '{called_function(n)}' reaches a barrier but is called "
                             f"inside an expression")
    inline_sync_calls(body, functions, depth + 1)


def _is_statement_slot(parent, name) -> bool:
    if isinstance(parent, c_ast.Compound):
        return name.startswith("block_items")
    if isinstance(parent, (c_ast.If,)):
        return name in ("iftrue", "iffalse")
    if isinstance(parent, (c_ast.For, c_ast.While, c_ast.DoWhile)):
        return name == "stmt"
    return False


def _value_call(s):
    """The call of ``v = f(...)`` or ``T v = f(...)`` (statement ``s``), else None: a
    helper's value taken whole."""
    if isinstance(s, c_ast.Assignment) and s.op == "=":
        return s.rvalue
    if isinstance(s, c_ast.Decl) and not isinstance(s.init, c_ast.InitList):
        return s.init
    return None


class _Spliced(c_ast.Compound):
    """Statements that replace one statement of a block, in that block (not a scope)."""


def _inline_value(s, f: c_ast.FuncDef, body) -> c_ast.Compound:
    """``T v = f(args)`` (or ``v = f(args)``) as ``R cl2c_retN; { f's body inlined;
    cl2c_retN = e; } T v = cl2c_retN;``, where f ends in ``return e;``."""
    block = list(f.body.block_items or [])
    if not block or not isinstance(block[-1], c_ast.Return) or block[-1].expr is None:
        raise NeedFibers(f"the helper '{f.decl.name}' reaches a barrier and does not end "
                         f"in the return of its value")
    taken = {n.name for n in walk(body) if isinstance(n, c_ast.ID)}
    n = 0
    while f"cl2c_ret{n}" in taken:
        n += 1
    name = f"cl2c_ret{n}"
    result = c_ast.Decl(name, [], [], [], [], retyped(copy.deepcopy(f.decl.type.type), name),
                        None, None, coord=s.coord)
    inlined = _inline(_value_call(s), f, result=c_ast.ID(name, s.coord))
    if isinstance(s, c_ast.Decl):          # declares a name the block goes on to use
        s.init = c_ast.ID(name, s.coord)
        return _Spliced([result, inlined, s], s.coord)
    s.rvalue = c_ast.ID(name, s.coord)
    return c_ast.Compound([result, inlined, s], s.coord)


def _inline(call: c_ast.FuncCall, f: c_ast.FuncDef, result=None) -> c_ast.Compound:
    params = [p for p in f.decl.type.args.params if isinstance(p, c_ast.Decl) and p.name]
    args = list(call.args.exprs if call.args else [])
    if args and isinstance(args[0], c_ast.ID) and args[0].name == "CL2C_WI":
        args = args[1:]
    items = []
    for p, a in zip(params, args):
        d = copy.deepcopy(p)
        if isinstance(d.type, c_ast.ArrayDecl):       # a parameter array is a pointer
            d.type = c_ast.PtrDecl([], d.type.type)
        d.funcspec = [s for s in d.funcspec or [] if s != "CL2C_UNUSED"]
        d.init = a
        items.append(d)
    body = copy.deepcopy(f.body)
    block = list(body.block_items or [])
    if block and isinstance(block[-1], c_ast.Return) and block[-1].expr is None:
        block.pop()
    elif block and isinstance(block[-1], c_ast.Return):
        last = block.pop()          # its value: stored in ``result``, or dropped
        if result is not None:
            block.append(c_ast.Assignment("=", copy.deepcopy(result), last.expr, last.coord))
        elif has_effects(last.expr):
            block.append(last.expr)
    for n in block:
        if any(isinstance(j, c_ast.Return) for j in walk(n)):
            raise NeedFibers(f"the helper '{f.decl.name}' reaches a barrier and returns "
                             f"early")
    return c_ast.Compound(items + block, call.coord)


# ---- unique names -------------------------------------------------------------------------

def rename_locals(body: c_ast.Compound, taken: set) -> None:
    """Give every local variable of the kernel a name of its own (x, x_1, ...), so
    that declarations can move between scopes without capturing other names."""
    used = set(taken)
    for n in walk(body):
        if isinstance(n, c_ast.ID):
            used.add(n.name)

    def fresh(name):
        if name not in used:
            used.add(name)
            return name
        i = 1
        while f"{name}_{i}" in used:
            i += 1
        used.add(f"{name}_{i}")
        return f"{name}_{i}"

    seen = set(taken)

    def block(items, scope):
        scope = dict(scope)
        for item in items:
            scope = stmt(item, scope)

    def stmt(node, scope):
        if isinstance(node, c_ast.Decl) and node.name and not isinstance(node.type,
                                                                         c_ast.FuncDecl):
            expr(node.init, scope)
            _rename_dims(node.type, scope)
            old = node.name
            new = old if old not in seen else fresh(old)
            seen.add(old)
            seen.add(new)
            set_declname(node, new)
            scope = dict(scope)
            scope[old] = new
            return scope
        if isinstance(node, c_ast.DeclList):
            for d in node.decls:
                scope = stmt(d, scope)
            return scope
        if isinstance(node, c_ast.Compound):
            block(node.block_items or [], scope)
            return scope
        if isinstance(node, c_ast.For):
            inner = stmt(node.init, scope) if isinstance(node.init, (c_ast.DeclList,
                                                                     c_ast.Decl)) else scope
            if not isinstance(node.init, (c_ast.DeclList, c_ast.Decl)):
                expr(node.init, scope)
            expr(node.cond, inner)
            expr(node.next, inner)
            stmt(node.stmt, inner)
            return scope
        for _, child in node.children() if node is not None else ():
            if isinstance(child, (c_ast.Compound, c_ast.If, c_ast.For, c_ast.While,
                                  c_ast.DoWhile, c_ast.Switch, c_ast.Case, c_ast.Default,
                                  c_ast.Label, c_ast.Decl, c_ast.DeclList)):
                stmt(child, scope)
            else:
                expr(child, scope)
        return scope

    def expr(node, scope):
        if node is None:
            return
        for n in walk(node):
            if isinstance(n, c_ast.ID) and n.name in scope:
                n.name = scope[n.name]

    # StructRef field names are IDs too: protect them by renaming only the base.
    _protect_fields(body)
    block(body.block_items or [], {})
    _unprotect_fields(body)


def _rename_dims(t, scope):
    while t is not None and not isinstance(t, c_ast.TypeDecl):
        if isinstance(t, c_ast.ArrayDecl) and t.dim is not None:
            for n in walk(t.dim):
                if isinstance(n, c_ast.ID) and n.name in scope:
                    n.name = scope[n.name]
        t = getattr(t, "type", None)


def _protect_fields(body):
    for n in walk(body):
        if isinstance(n, c_ast.StructRef) and isinstance(n.field, c_ast.ID):
            n.field = _Field(n.field.name)


def _unprotect_fields(body):
    for n in walk(body):
        if isinstance(n, c_ast.StructRef) and isinstance(n.field, _Field):
            n.field = c_ast.ID(n.field.fname)


class _Field(c_ast.Node):
    """A struct field name, hidden from renaming (not an ID)."""
    __slots__ = ("fname", "coord", "__weakref__")
    attr_names = ()

    def __init__(self, fname):
        self.fname = fname
        self.coord = None

    def children(self):
        return ()
