"""Loops around barriers whose trip count the analysis cannot prove uniform.

The spec (barrier, 6.12.8) requires every work-item of a group to execute a barrier
in a loop on every iteration: where a barrier is a statement of the loop's body
itself (run on each iteration), all work-items make the same number of iterations,
whatever the condition looks like. Such a loop is rewritten so that its condition is
computed by the work-items into a group-level flag, and the loop runs at group
level on that flag:

    while (c) { ...; barrier(); ... }
  ->
    { int go; go = c; while (go) { ...; barrier(); ...; go = c; } }

(``for`` and ``do`` alike). The work-items store the same value into the flag; a
kernel that breaks the rule ends the loop when the last work-item of the group to
evaluate says so (`-cl2c-check-barriers` runs it on fibers and reports it).
Loops left or continued by ``break``, ``continue``, ``return`` or ``goto`` are not
rewritten: their trip count is not the condition's alone.
"""
from __future__ import annotations

import copy

from pycparser import c_ast

from ... import cnodes as cn
from ...lower.effects import is_barrier
from .syntax import replace_node, statements, walk

FLAG = "cl2c_go"


def rewrite_loop(body: c_ast.Compound, loop, taken: set) -> str | None:
    """Rewrite ``loop`` (under ``body``) as above; the flag's name, or None where the
    rule does not make its trip count uniform."""
    if not isinstance(loop, (c_ast.For, c_ast.While, c_ast.DoWhile)) or \
            not any(_is_barrier_statement(s) for s in statements(loop.stmt)) or \
            any(isinstance(n, (c_ast.Break, c_ast.Continue, c_ast.Return, c_ast.Goto,
                               c_ast.Label)) for n in walk(loop.stmt)):
        return None
    flag = _fresh(FLAG, taken)
    taken.add(flag)
    cond = loop.cond if loop.cond is not None else cn.const_int(1)
    coord = loop.coord

    def evaluate():
        return c_ast.Assignment("=", cn.ident(flag, coord), copy.deepcopy(cond), coord)

    inner = statements(loop.stmt)
    if isinstance(loop, c_ast.For) and loop.next is not None:
        inner.append(loop.next)
    inner.append(evaluate())
    block = c_ast.Compound(inner, coord)
    # 0 until evaluated: a group of no work-items would not set it
    decl = c_ast.Decl(flag, [], [], [], [], c_ast.TypeDecl(
        flag, [], None, c_ast.IdentifierType(["int"]), coord), cn.const_int(0), None,
        coord=coord)
    if isinstance(loop, c_ast.DoWhile):
        items = [decl, c_ast.DoWhile(cn.ident(flag, coord), block, coord)]
    else:
        before = []
        if isinstance(loop, c_ast.For) and loop.init is not None:
            before = list(loop.init.decls) if isinstance(loop.init, c_ast.DeclList) \
                else [loop.init]
        items = [*before, decl, evaluate(), c_ast.While(cn.ident(flag, coord), block, coord)]
    if not replace_node(body, loop, c_ast.Compound(items, coord)):
        return None
    return flag


def _is_barrier_statement(s) -> bool:
    return isinstance(s, c_ast.FuncCall) and is_barrier(s)


def _fresh(base: str, taken: set) -> str:
    n = 0
    while f"{base}{n}" in taken:
        n += 1
    return f"{base}{n}"

