"""Stage 3: semantic analysis.

Walks the typed tree (typed_ast.py) once, resolves every name, and writes on each node
what it learns: an expression's type (from :mod:`cl2c.types`), a call's resolution, a
swizzle's components, the symbol an identifier names, a declaration's type and space.
The result, a :class:`Module`, holds the tree and the per-function facts (work-item
builtins used, callees, parameters read and written).
"""
from __future__ import annotations

from pycparser import c_ast

from ..diagnostics import Reporter
from ..language_version import CL1_2, LanguageVersion
from .assignability import Assignability
from .attributes import Attributes
from .calls import Calls
from .declarations import Declarations
from .expressions import Expressions
from .folding import Folding
from .model import (ACCESS_QUALIFIERS, SPACE_QUALIFIERS, Call, FunctionInfo, Module, Param,
                    SemaError, Symbol, components_of, constant_type)
from .statements import Statements
from .type_names import TypeNames
from .whole_program import WholeProgram


class Analyzer(Declarations, TypeNames, Attributes, Statements, Expressions, Assignability,
               Calls, Folding, WholeProgram):
    """The checker, one part per module: declarations, types as written, attributes,
    statements, expressions, assignability, calls, constant folding, whole-program facts;
    scopes and the entry in checker.py."""


def analyze(ast: c_ast.FileAST, reporter: Reporter, cl_std: LanguageVersion = CL1_2,
            extensions=(), linking: bool = False) -> Module:
    """The checked module of ``ast``, for a target that offers ``extensions``;
    ``linking``: the texts of a link's units, each checked alone before (link.py)."""
    return Analyzer(reporter, cl_std, extensions, linking).analyze(ast)


__all__ = ["ACCESS_QUALIFIERS", "SPACE_QUALIFIERS", "Analyzer", "Call", "FunctionInfo",
           "Module", "Param", "SemaError", "Symbol", "analyze", "components_of",
           "constant_type"]
