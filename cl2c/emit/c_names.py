"""User identifiers that would clash with the C library in the emitted C get a suffix.

OpenCL C has no C library in scope, so a kernel may define ``int index(int)``, a kernel
named ``div`` or a local ``errno``; the emitted C includes the C headers the runtime
needs, where those names are taken (a function of <strings.h>, a macro of <errno.h>).
Such a name is emitted as ``index_cl`` (``_cl2``... if the program has that too);
every other identifier keeps its spelling. The kernel's own name stays what the host
API sees (``cl2c_kernel_div``, metadata "div"); only its C function is renamed.
"""
from __future__ import annotations

from pycparser import c_ast

from ..reserved_names import rename
from ..typed_ast import walk
from .c_library_names import NAMES


def _declared(nodes) -> set[str]:
    """Every identifier the program declares: functions, variables, parameters, fields,
    typedefs and enum constants."""
    out = set()
    for node in nodes:
        for n in walk(node):
            if isinstance(n, (c_ast.Decl, c_ast.Typedef, c_ast.Enumerator)) and n.name:
                out.add(n.name)
    return out


class Renames(dict):
    """{clashing name: its C spelling}, and which of those names the program gives a
    type (a typedef): a variable's or a parameter's new spelling leaves the type of its
    old one alone (a parameter named ``size_t``, the emitted C's ``size_t``s)."""

    def __init__(self, spellings: dict[str, str], types: set[str]):
        super().__init__(spellings)
        self.types = {name: new for name, new in spellings.items() if name in types}


def renames_for(nodes) -> Renames:
    """The clashing names of the program made of ``nodes`` and their C spellings."""
    declared = _declared(nodes)
    out = {}
    for name in sorted(declared & NAMES):
        new, k = f"{name}_cl", 1
        while new in declared or new in NAMES:
            k += 1
            new = f"{name}_cl{k}"
        declared.add(new)
        out[name] = new
    typedefs = {n.name for node in nodes for n in walk(node) if isinstance(n, c_ast.Typedef)}
    return Renames(out, typedefs)


def apply(node, renames: Renames) -> None:
    """Respell the clashing names in ``node``'s tree, in place."""
    if renames:
        rename(node, renames, types=renames.types)