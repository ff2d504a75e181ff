"""Rewrites of a kernel before the regions analysis: parameters the kernel writes
become locals, arrays get their sizes, and ``sizeof`` of a local names its type."""
from __future__ import annotations

import copy

from pycparser import c_ast

from .. import cnodes as cn
from .syntax import set_declname, typename, walk


def privatize_written_params(func: c_ast.FuncDef, params: dict) -> dict:
    """A parameter is a private of each work-item (spec 6.5: kernel arguments are
    in the private address space). In a work-group function one parameter serves
    the whole group, so each parameter the kernel assigns (or takes the address
    of) becomes a local variable initialised from it, ``int *data =
    cl2c_param_data;``, which the region analysis treats as any other private:
    once per group if every assignment is uniform, else per work-item.
    Returns the by-value parameters left (those of the old dict still named)."""
    written = _params_written(func.body)
    copies = []
    for p in func.decl.type.args.params:
        if not isinstance(p, c_ast.Decl) or p.name not in written:
            continue
        local = copy.deepcopy(p)
        local.funcspec = [f for f in local.funcspec or [] if f != "CL2C_UNUSED"]
        local.init = cn.ident(f"cl2c_param_{p.name}")
        copies.append(local)
        set_declname(p, f"cl2c_param_{p.name}")
    if copies:
        func.body.block_items = copies + list(func.body.block_items or [])
    return {n: d for n, d in params.items() if n not in written}


def _params_written(body) -> set:
    """Names whose own value the body changes: ``p = ...``, ``p += ...``, ``p++``,
    ``v.x = ...``, ``&p``; not ``p[i] = ...`` nor ``p->x = ...`` (the pointee)."""
    def base(lvalue):
        while True:
            if isinstance(lvalue, c_ast.ID):
                return lvalue.name
            if isinstance(lvalue, c_ast.ArrayRef) and not isinstance(lvalue.name, c_ast.ID):
                lvalue = lvalue.name          # v.s[0]: a component of a vector value
            elif isinstance(lvalue, c_ast.StructRef) and lvalue.type == ".":
                lvalue = lvalue.name
            else:
                return None

    out = set()
    for n in walk(body):
        target = None
        if isinstance(n, c_ast.Assignment):
            target = n.lvalue
        elif isinstance(n, c_ast.UnaryOp) and n.op in ("++", "--", "p++", "p--", "&"):
            target = n.expr
        name = base(target) if target is not None else None
        if name:
            out.add(name)
    return out


def complete_array_bounds(body) -> None:
    """``long a[] = {1, 2}`` -> ``long a[2]``: a per-work-item array needs the size."""
    for n in walk(body):
        if isinstance(n, c_ast.Decl) and isinstance(n.type, c_ast.ArrayDecl) and \
                n.type.dim is None:
            if isinstance(n.init, c_ast.InitList) and not any(
                    isinstance(e, c_ast.NamedInitializer) for e in n.init.exprs):
                n.type.dim = cn.const_int(len(n.init.exprs))
            elif isinstance(n.init, c_ast.Constant) and n.init.type == "string":
                n.type.dim = c_ast.UnaryOp("sizeof", copy.deepcopy(n.init))


def sizeof_by_type(body) -> None:
    """``sizeof(x)`` and ``sizeof(x[0])`` of local variables become sizeof of their
    types: a variable moved into a per-work-item array changes what its name is."""
    decls = {n.name: n for n in walk(body) if isinstance(n, c_ast.Decl) and n.name}
    for n in list(walk(body)):
        if isinstance(n, c_ast.UnaryOp) and n.op == "sizeof" and \
                not isinstance(n.expr, c_ast.Typename):
            e, depth = n.expr, 0
            while isinstance(e, c_ast.ArrayRef):
                e, depth = e.name, depth + 1
            if not (isinstance(e, c_ast.ID) and e.name in decls):
                continue
            t = copy.deepcopy(decls[e.name].type)
            for _ in range(depth):
                if not isinstance(t, (c_ast.ArrayDecl, c_ast.PtrDecl)):
                    break
                t = t.type
            else:
                n.expr = typename(t)
