"""Lowering pass: spell every type in C.

OpenCL type names become their C spellings (``uint`` -> ``cl2c_uint``,
``float4`` -> ``cl2c_float4``), address-space qualifiers disappear (``__constant``
becomes ``const``: the data is read-only), and the ``__kernel`` specifier and
OpenCL attributes are dropped, their meaning having been recorded by semantic
analysis.
"""
from __future__ import annotations

import itertools
import re

from pycparser import c_ast

from .. import types as ty
from ..sema import ACCESS_QUALIFIERS, SPACE_QUALIFIERS, Module
from .. import cnodes as cn
from .. import declarators
from ..typed_ast import walk


def spell_types(module: Module, more=()) -> Module:
    """The module with its types (and those of the declarations ``more``) in C."""
    speller = _Speller()
    speller.visit(module.ast)
    for node in more:
        speller.visit(node)
    anonymous = itertools.count(1)
    for lists in _declaration_lists(module.ast):
        _defined_once(lists, anonymous)
    # the program scope's list is what emission prints (of the file's declarations)
    kinds = {id(node): kind for kind, node in module.program_scope}
    nodes = [node for _, node in module.program_scope]
    _defined_once(nodes, anonymous)
    module.program_scope[:] = [(kinds.get(id(n), "tag"), n) for n in nodes]
    return module


def _declaration_lists(ast):
    """The lists of statements and declarations that are one scope each: each block's
    (the program scope is emitted from its own list, lower's program_scope)."""
    for n in walk(ast):
        if isinstance(n, c_ast.Compound) and n.block_items:
            yield n.block_items


def _defined_once(items: list, anonymous) -> None:
    """``struct S {...} w, v;`` is one Decl a declarator, each with the struct's body:
    printed as they stand, the second would define S again, which C refuses. A named
    struct or union defined by a declaration of variables (or typedef names) is defined
    by a declaration of its own before them (``struct S {...}; struct S w; struct S
    v;``), which the work-group function can also move to its top
    (workgroup/builders/prepare.py). An anonymous one that several declarators share
    (their copies of the body are at one place) gets a name first, ``cl2c_anon<n>``
    (``anonymous`` counts them): two bodies would be two types."""
    at = 0
    while at < len(items):
        tag = _body(items[at])
        if tag is not None and not _tag(tag) and tag.coord is not None and any(
                _body(later) is not None and _body(later).coord == tag.coord
                for later in items[at + 1:]):
            name = f"cl2c_anon{next(anonymous)}"
            for later in items[at:]:
                body = _body(later)
                if body is not None and body.coord == tag.coord:
                    body.name = f"{body.name or ''} {name}".lstrip()
        if tag is not None and _tag(tag):
            items.insert(at, c_ast.Decl(None, [], [], [], [], tag, None, None,
                                        items[at].coord))
            at += 1
            for later in items[at:]:
                body = _body(later)
                if body is not None and body is not tag and isinstance(body, type(tag)) \
                        and _tag(body) == _tag(tag):
                    declarators.inner(later.type).type = type(tag)(_tag(tag), None,
                                                                   body.coord)
            declarators.inner(items[at].type).type = type(tag)(_tag(tag), None, tag.coord)
        at += 1


def _tag(body) -> str:
    """A struct's or union's tag ('' where it has none) as lowering leaves it: its layout
    attributes written before it (expressions.py's lower_Struct)."""
    return _ATTRIBUTES.sub("", body.name or "")


_ATTRIBUTES = re.compile(r"^__attribute__\(\(.*\)\)\s*")


def _body(item):
    """The struct or union body that a declaration of a variable or a typedef name
    writes, or None."""
    if not isinstance(item, (c_ast.Decl, c_ast.Typedef)) or not item.name:
        return None
    t = declarators.inner(item.type)
    tag = t.type if isinstance(t, c_ast.TypeDecl) else None
    return tag if isinstance(tag, (c_ast.Struct, c_ast.Union)) and tag.decls is not None \
        else None


class _Speller(c_ast.NodeVisitor):
    def visit_IdentifierType(self, node):
        t = ty.scalar_from_words(node.names)
        if t is None and len(node.names) == 1:
            t = ty.named_type(node.names[0])
        if t is not None:
            node.names = [cn.c_type_name(t)]

    def _quals(self, quals):
        out = []
        for q in quals or []:
            if q in SPACE_QUALIFIERS:
                if SPACE_QUALIFIERS[q] == "constant" and "const" not in out:
                    out.append("const")
            elif q in ACCESS_QUALIFIERS:
                continue
            elif q not in out:
                out.append(q)
        return out

    def _requalified(self, node):
        node.quals = self._quals(node.quals)
        self.generic_visit(node)

    # (pycparserext's ...Ext classes: a declarator with __attribute__s)
    visit_TypeDecl = visit_PtrDecl = visit_Typedef = visit_Typename = _requalified
    visit_TypeDeclExt = _requalified

    def visit_ArrayDecl(self, node):
        node.dim_quals = self._quals(node.dim_quals)
        self.generic_visit(node)

    visit_ArrayDeclExt = visit_ArrayDecl

    def visit_Decl(self, node):
        node.quals = self._quals(node.quals)
        node.funcspec = [f for f in node.funcspec or []
                         if isinstance(f, str) and f not in ("__kernel", "kernel")]
        self.generic_visit(node)
