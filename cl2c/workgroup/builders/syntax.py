"""Small helpers on the lowered C AST, shared by the parts of the regions schedule:
walking a tree, the names a node reads or assigns, replacing a node, renaming a
declaration, type names; and the names the work-group function declares."""
from __future__ import annotations

import copy

from pycparser import c_ast

from ... import declarators
from ...typed_ast import (assigned_names, base_ids, fact, ids, make,  # (assigned_names,
                          replace_child, replace_node,  # base_ids, ids, replace_child,
                          walk)  # replace_node: re-exported)
from ..names import COUNT, INDEX, LOCAL_ID as LID
from ... import cnodes as cn
from ...lower.effects import synchronises


# ---- shapes of the tree (walk is typed_ast's) -----------------------------------------

def statements(node) -> list:
    """The statements of a block, ``[node]`` for a single statement, [] for none."""
    if node is None:
        return []
    if isinstance(node, c_ast.Compound):
        return list(node.block_items or [])
    return [node]


def contains_sync(node, syncing_functions=frozenset()) -> bool:
    """Does ``node`` reach a barrier (or call one of ``syncing_functions``)?"""
    return any(synchronises(n, syncing_functions) for n in walk(node))


def escaping_jumps(node, in_loop=False, in_switch=False):
    """break/continue statements in ``node`` that leave it, and every return."""
    if isinstance(node, c_ast.Return):
        yield node
        return
    if isinstance(node, c_ast.Break) and not (in_loop or in_switch):
        yield node
    if isinstance(node, c_ast.Continue) and not in_loop:
        yield node
    loop = in_loop or isinstance(node, (c_ast.For, c_ast.While, c_ast.DoWhile))
    switch = in_switch or isinstance(node, c_ast.Switch)
    for _, child in node.children():
        yield from escaping_jumps(child, loop, switch)




# ---- rewriting ----------------------------------------------------------------------------

def at(name: str):
    """``name[cl2c_i]``: the current work-item's element of a per-work-item array."""
    return c_ast.ArrayRef(cn.ident(name), cn.ident(INDEX))


def set_declname(decl: c_ast.Decl, name: str) -> None:
    """Rename declaration ``decl``."""
    declarators.rename(decl, name)


# ---- type names ---------------------------------------------------------------------------

def typename(t, of=None) -> c_ast.Typename:
    """The type name of declarator chain ``t`` (a copy, without const); ``of``: the
    declaration it comes from, whose type it then knows."""
    t = copy.deepcopy(t)
    retyped(t, None)
    node = make(c_ast.Typename, None, [], None, t)
    node.ty = fact(of, "ty")
    return node


def retyped(t, name):
    """``t`` (a declarator chain) declaring ``name``; returns t."""
    inner = declarators.type_decl(declarators.declaring(t, name))
    inner.quals = [q for q in inner.quals or [] if q != "const"]
    return t


def set_name(d: c_ast.Decl, name: str) -> None:
    """Rename declaration ``d``, dropping the const of its type."""
    d.name = name
    retyped(d.type, name)
