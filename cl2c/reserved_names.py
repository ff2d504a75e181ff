"""User identifiers that the generated C's own names could meet get another spelling.

The emitted C names its own things ``cl2c_*`` and ``CL2C_*`` (the runtime, the work-item
context, temporaries) and joins a user's name to a suffix with ``__`` (``k__group``,
``k__locals``, ``f__count`` for a function's static). A kernel may use such names as
well: OpenCL C reserves none of them. Before semantic analysis, every identifier the
program declares that starts with ``cl2c`` (any case) or holds ``__`` after its first
character is respelled: ``cl2c_x`` as ``u_cl2c_x``, ``a__b`` as ``a_uu_b`` (with a number
after it if the program has that name too); the diagnostics
name it as written (``restore``). A kernel keeps its name (the host's), so a kernel name
of that form is an error at its declaration.
"""
from __future__ import annotations

import re

from pycparser import c_ast

from .diagnostics import Reporter
from .typed_ast import walk

_RESERVED = re.compile(r"(?i:cl2c)|[^_].*__")


def reserved(name: str) -> bool:
    return _RESERVED.match(name) is not None


def _declared(ast) -> tuple[set[str], set[str]]:
    """(every identifier the program declares, the kernels' names)."""
    names, kernels = set(), set()
    for n in walk(ast):
        if isinstance(n, (c_ast.Decl, c_ast.Typedef, c_ast.Enumerator)) and n.name:
            names.add(n.name)
        elif isinstance(n, (c_ast.Struct, c_ast.Union, c_ast.Enum)) and n.name:
            names.add(n.name)
        if isinstance(n, c_ast.FuncDef) and any(
                f in ("kernel", "__kernel") for f in n.decl.funcspec or []
                if isinstance(f, str)):
            kernels.add(n.decl.name)
    return names, kernels


def respell(ast, reporter: Reporter) -> dict[str, str]:
    """Rename the reserved identifiers of ``ast`` in place; {new name: as written}."""
    names, kernels = _declared(ast)
    renames = {}
    functions = {n.decl.name for n in walk(ast) if isinstance(n, c_ast.FuncDef)}
    for name in sorted(names):
        if not reserved(name):
            continue
        if name in kernels:
            if not re.match(r"(?i)cl2c", name) and not any(
                    name.startswith(f"{f}__") for f in functions):
                continue        # test__kernel: its generated names are its own
            node = next(n for n in walk(ast) if isinstance(n, c_ast.FuncDef)
                        and n.decl.name == name)
            reporter.error(f"kernel name '{name}' is reserved for cl2c's generated code "
                           f"(names that start with 'cl2c', or another function's name "
                           f"and '__')", node.decl.coord)
            continue
        base = re.sub(r"(?<=[^_])__+", lambda m: "_" + "u" * len(m.group()) + "_", name)
        base = f"u_{base}" if reserved(base) else base
        new, k = base, 1
        while new in names:
            k += 1
            new = f"{base}{k}"
        names.add(new)
        renames[name] = new
    if renames:
        rename(ast, renames, tags=True)
    return {new: old for old, new in renames.items()}


def rename(tree, renames: dict[str, str], tags: bool = False,
           types: dict[str, str] | None = None) -> None:
    """Respell identifiers of ``tree`` in place (``renames``: old -> new); struct, union
    and enum tags too where ``tags``; the type names that name a typedef as ``types``
    says where it is given (else as ``renames``)."""
    types = renames if types is None else types
    named = (c_ast.ID, c_ast.Decl, c_ast.Typedef, c_ast.Enumerator) + \
        ((c_ast.Struct, c_ast.Union, c_ast.Enum) if tags else ())
    for n in walk(tree):
        if isinstance(n, named):
            if n.name in renames:
                n.name = renames[n.name]
        elif isinstance(n, c_ast.TypeDecl):
            if n.declname in renames:
                n.declname = renames[n.declname]
        elif isinstance(n, c_ast.IdentifierType):
            n.names = [types.get(x, x) for x in n.names]


def restore(reporter: Reporter, spelled: dict[str, str]) -> None:
    """Diagnostics name the identifiers as the kernel writes them."""
    if not spelled:
        return
    pattern = re.compile(r"\b(" + "|".join(map(re.escape, spelled)) + r")\b")
    for d in reporter.diagnostics:
        d.message = pattern.sub(lambda m: spelled[m.group(1)], d.message)
