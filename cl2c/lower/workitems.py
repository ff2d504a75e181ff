"""Lowering pass: give functions their work-item context.

Work-item builtins read a ``const cl2c_workitem *cl2c_wi`` parameter. Kernels
(which become the work-item functions the schedules call) always take it;
helper functions take it only if they, or functions they call, use a
work-item builtin. ``__local`` variables declared in a kernel body are
per-work-group, not per-work-item: they move into a struct that the schedule
allocates once per group and passes as ``cl2c_locals``.
"""
from __future__ import annotations

from pycparser import c_ast

from .. import declarators
from ..sema import FunctionInfo, Module
from ..typed_ast import fact, walk
from ..workgroup.names import LOCALS
from .. import cnodes as cn
from .expressions import Transformer

WI = "cl2c_wi"


def context_param() -> c_ast.Decl:
    # The runtime macro CL2C_WI_PARAMS declares the group and the local id.
    return c_ast.Decl(None, [], [], [], [], c_ast.TypeDecl(
        None, [], None, c_ast.IdentifierType(["CL2C_WI_PARAMS"])), None, None)


def thread_context(module: Module) -> Module:
    """The module with the context parameter on kernels and on the helpers that use
    work-item builtins, and passed in their calls."""
    for f in module.functions.values():
        params = _params(f)
        if f.is_kernel or f.workitem:
            params.insert(0, context_param())
        _add_context_to_calls(f, module)
    # Prototypes of helpers that take the context must say so too.
    for kind, node in module.program_scope:
        if kind == "prototype":
            info = module.functions.get(node.name)
            if info is not None and (info.workitem or info.is_kernel):
                node.type.args.params.insert(0, context_param())
    return module


def _params(f: FunctionInfo) -> list:
    decl = f.node.decl.type
    if decl.args is None:
        decl.args = c_ast.ParamList([])
    params = decl.args.params
    # f(void) has one parameter of type void: it has no parameters.
    if len(params) == 1 and isinstance(params[0], c_ast.Typename):
        params.pop()
    elif len(params) == 1 and isinstance(params[0], c_ast.Decl) and params[0].name is None \
            and _is_void(params[0]):
        params.pop()
    return params


def _is_void(decl) -> bool:
    t = decl.type
    return isinstance(t, c_ast.TypeDecl) and isinstance(t.type, c_ast.IdentifierType) and \
        t.type.names == ["void"]


def _add_context_to_calls(f: FunctionInfo, module: Module) -> None:
    takes = {name for name, g in module.functions.items() if g.workitem or g.is_kernel}

    class Calls(c_ast.NodeVisitor):
        def visit_FuncCall(self, node):
            self.generic_visit(node)
            if isinstance(node.name, c_ast.ID) and node.name.name in takes:
                node.args.exprs.insert(0, cn.ident("CL2C_WI"))

    Calls().visit(f.node.body)


def mark_unused_params(module: Module) -> Module:
    """Parameters a function never reads get CL2C_UNUSED (no -Wunused-parameter)."""
    for f in module.functions.values():
        for p in _params(f):
            if isinstance(p, c_ast.Decl) and p.name and p.name != WI and \
                    p.name not in f.used_params:
                p.funcspec = list(p.funcspec or []) + ["CL2C_UNUSED"]
    return module


def hoist_kernel_locals(module: Module) -> tuple[Module, dict]:
    """Move kernel-scope ``__local`` declarations into a per-group struct, and the
    kernel's own type declarations they use out with them (the struct is declared at
    program scope).

    Returns the module and {kernel name: [type declarations..., Decl...]} of what moved.
    """
    moved = {}
    for f in module.kernels:
        decls = []
        body = f.node.body
        names = set()
        keep = []
        for item in body.block_items or []:
            if isinstance(item, c_ast.Decl) and fact(item, "space") == "local":
                decls.append(item)
                names.add(item.name)
            else:
                keep.append(item)
        if not decls:
            continue
        types = _types_used(decls, keep)
        body.block_items = [item for item in keep if not any(item is t for t in types)]
        _rename_types(f.name, types, [*types, *decls, body])
        moved[f.name] = types + decls
        _redirect(body, names)
        _params(f).insert(0, _locals_param(f.name))
    return module, moved


def _rename_types(kernel: str, types: list, trees: list) -> None:
    """The names that ``types`` declare, prefixed with the kernel's (``k__S``) in
    ``trees``: at program scope, two kernels' own ``struct S`` must not meet."""
    renames = {name: f"{kernel}__{name}" for t in types for name in _declared_names(t)}
    if not renames:
        return
    for tree in trees:
        for n in walk(tree):
            if isinstance(n, (c_ast.Struct, c_ast.Union, c_ast.Enum)) and n.name in renames:
                n.name = renames[n.name]
            elif isinstance(n, c_ast.IdentifierType):
                n.names = [renames.get(name, name) for name in n.names]
            elif isinstance(n, c_ast.Typedef) and n.name in renames:
                declarators.rename(n, renames[n.name])
            elif isinstance(n, c_ast.Enumerator) and n.name in renames:
                n.name = renames[n.name]
            elif isinstance(n, c_ast.ID) and n.name in renames and \
                    getattr(fact(n, "symbol"), "kind", "enum") == "enum":
                n.name = renames[n.name]     # an enum constant (array sizes have no facts)


def is_type_declaration(node) -> bool:
    """``struct S {...};``, ``enum E {...};`` or a typedef."""
    return isinstance(node, c_ast.Typedef) or isinstance(node, c_ast.Decl) and \
        node.name is None and isinstance(node.type, (c_ast.Struct, c_ast.Union, c_ast.Enum))


def _types_used(decls: list, items: list) -> list:
    """The type declarations among ``items`` that ``decls`` use, directly or through
    each other, in their order."""
    names = set().union(*(_type_names(d.type) for d in decls))
    used: list = []
    changed = True
    while changed:
        changed = False
        for item in items:
            if is_type_declaration(item) and not any(item is u for u in used) and \
                    _declared_names(item) & names:
                used.append(item)
                names |= _type_names(item.type)
                changed = True
    return [item for item in items if any(item is u for u in used)]


def _declared_names(node) -> set:
    """The typedef name, the tag, and an enum's constants a declaration declares."""
    if isinstance(node, c_ast.Typedef):
        return {node.name}
    names = {node.type.name} - {None}
    if isinstance(node.type, c_ast.Enum) and node.type.values is not None:
        names |= {e.name for e in node.type.values.enumerators}
    return names


def _type_names(node) -> set:
    """Tags, typedef names and (in array sizes) constants a type mentions."""
    out = set()
    for n in walk(node):
        if isinstance(n, (c_ast.Struct, c_ast.Union, c_ast.Enum)) and n.name:
            out.add(n.name)
        elif isinstance(n, c_ast.IdentifierType):
            out.update(n.names)
        elif isinstance(n, c_ast.ID):
            out.add(n.name)
    return out


def _locals_param(kernel: str) -> c_ast.Decl:
    ptr = c_ast.PtrDecl([], c_ast.TypeDecl(LOCALS, [], None,
                                           c_ast.Struct(f"{kernel}__locals", None)))
    return c_ast.Decl(LOCALS, [], [], [], [], ptr, None, None)


def _redirect(body, names):
    """Rewrite uses of hoisted names into cl2c_locals->name."""

    class Redirect(Transformer):
        def lower_ID(self, node):
            if node.name in names:
                return c_ast.StructRef(cn.ident(LOCALS), "->", node, node.coord)
            return node

        def lower_StructRef(self, node):
            node.name = self.visit(node.name)   # never the field name
            return node

    Redirect().visit(body)
