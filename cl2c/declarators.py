"""pycparser's declarator chains, walked in one place.

A declaration's type is a chain of declarators (``PtrDecl``, ``ArrayDecl``, ``FuncDecl``)
ending, for a named declaration, in the ``TypeDecl`` that holds the declared name, the
base type's qualifiers and (with pycparserext) the attributes written after the name:
``float *a[4]`` is ArrayDecl -> PtrDecl -> TypeDecl('a', IdentifierType(['float'])).
"""
from __future__ import annotations

from pycparser import c_ast

DECLARATORS = (c_ast.PtrDecl, c_ast.ArrayDecl, c_ast.FuncDecl)


def inner(chain, through: tuple[type, ...] = DECLARATORS):
    """The first node of ``chain`` that is not one of the declarator kinds ``through``
    (by default all of them: the TypeDecl of a named declaration, or where the chain ends
    otherwise, a struct's or enum's definition)."""
    while isinstance(chain, through):
        chain = chain.type
    return chain


def type_decl(chain) -> c_ast.TypeDecl | None:
    """The TypeDecl at the end of declarator chain ``chain``; None where there is none."""
    end = inner(chain)
    return end if isinstance(end, c_ast.TypeDecl) else None


def declaring(chain, name: str | None):
    """``chain`` changed to declare ``name`` (None: a type name); returns ``chain``."""
    type_decl(chain).declname = name
    return chain


def rename(decl, name: str) -> None:
    """Rename declaration ``decl`` (a Decl or a Typedef), the name in its type too."""
    decl.name = name
    declaring(decl.type, name)
