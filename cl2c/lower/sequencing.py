"""Lowering pass: operands evaluated left to right, as clang-based OpenCL compilers do.

C leaves the order of evaluation of operands and of function arguments unspecified,
and GCC often evaluates arguments right to left: ``gen(&s) * a + gen(&s)`` would draw
the two numbers in the other order than every OpenCL implementation users know (all
built on clang, which goes left to right). Where the order can change a result (an
operand with effects, and another operand it may affect or be affected by), the
earlier operands are evaluated into temporaries first:

    out = (cl2c_seq1 = gen(&s), cl2c_seq1 * a + gen(&s));

with ``cl2c_seq1`` declared just before the statement. Operands that only read
private variables whose address is never taken, and that the other operand does not
assign, are left in place: most expressions are untouched.

Runs before expression lowering, on the typed tree: the temporaries carry their types
as facts, so vector operators on them lower as on any variable.
"""
from __future__ import annotations

from pycparser import c_ast

from .. import types as ty
from ..sema import Module
from ..sema.model import Symbol
from ..typed_ast import fact, make, walk
from .. import cnodes as cn
from .effects import (UPDATES, assigned_lvalue, call_has_effects, functions_with_effects,
                      has_effects, local_object)

_SEQUENCED = ("&&", "||")
_UNEVALUATED = ("sizeof", "_Alignof", "__alignof__")


def sequence_operands(module: Module) -> Module:
    writers = functions_with_effects(module)
    for f in module.functions.values():
        _Sequencer(writers, _address_taken(f.node.body)).compound(f.node.body)
    return module


def _address_taken(body) -> set:
    names = set()
    for n in walk(body):
        if isinstance(n, c_ast.UnaryOp) and n.op == "&":
            base = n.expr
            while isinstance(base, (c_ast.ArrayRef, c_ast.StructRef)):
                base = base.name
            if isinstance(base, c_ast.ID):
                names.add(base.name)
        # an array decays to a pointer to itself
        if isinstance(n, c_ast.ID) and isinstance(fact(n, "ty"), ty.Array):
            names.add(n.name)
    return names


# ---- the rewrite ------------------------------------------------------------------------

class _Sequencer:
    def __init__(self, writers: set, addressed: set):
        self.writers = writers
        self.addressed = addressed
        self.count = 0
        # the subtrees found to have no effects, by id (the node kept, so that its id
        # stays its own): each operator asks of its operands, whose operands were asked
        # of before, and a rewrite changes nothing in a subtree without effects
        self._pure: dict[int, c_ast.Node] = {}

    def has_effects(self, node) -> bool:
        return has_effects(node, self.writers, self._pure)

    # statements: temporaries are declared just before the statement that needs them
    def compound(self, node: c_ast.Compound) -> None:
        items = []
        for s in node.block_items or []:
            temps: list = []
            s = self.statement(s, temps)
            items.extend(temps)
            items.append(s)
        node.block_items = items

    def nested(self, s):
        """A statement where no declaration may precede it (an if's branch, a loop's
        body, a labelled statement): a block if it needs temporaries."""
        if s is None:
            return None
        temps: list = []
        s = self.statement(s, temps)
        return make(c_ast.Compound, temps + [s], s.coord) if temps else s

    def statement(self, s, temps: list):
        if isinstance(s, c_ast.Compound):
            self.compound(s)
        elif isinstance(s, c_ast.If):
            s.cond = self.expr(s.cond, temps)
            s.iftrue, s.iffalse = self.nested(s.iftrue), self.nested(s.iffalse)
        elif isinstance(s, (c_ast.While, c_ast.DoWhile, c_ast.Switch)):
            s.cond = self.expr(s.cond, temps)
            s.stmt = self.nested(s.stmt)
        elif isinstance(s, c_ast.For):
            if isinstance(s.init, (c_ast.Decl, c_ast.DeclList)):
                self.statement(s.init, temps)
            else:
                s.init = self.expr(s.init, temps)
            s.cond = self.expr(s.cond, temps)
            s.next = self.expr(s.next, temps)
            s.stmt = self.nested(s.stmt)
        elif isinstance(s, (c_ast.Case, c_ast.Default)):
            s.stmts = [self.nested(x) for x in s.stmts or []]
        elif isinstance(s, c_ast.Label):
            s.stmt = self.nested(s.stmt)
        elif isinstance(s, c_ast.Return):
            s.expr = self.expr(s.expr, temps)
        elif isinstance(s, c_ast.DeclList):
            for d in s.decls:
                self.statement(d, temps)
        elif isinstance(s, c_ast.Decl):
            if s.init is not None and not isinstance(s.init, c_ast.InitList):
                s.init = self.expr(s.init, temps)
        elif isinstance(s, c_ast.Node) and not isinstance(
                s, (c_ast.Break, c_ast.Continue, c_ast.Goto, c_ast.EmptyStatement,
                    c_ast.Pragma, c_ast.Typedef, c_ast.FuncDef)):
            return self.expr(s, temps)
        return s

    # expressions, inner ones first
    def expr(self, e, temps: list):
        if e is None or not isinstance(e, c_ast.Node):
            return e
        if isinstance(e, c_ast.UnaryOp):
            if e.op not in _UNEVALUATED:
                e.expr = self.expr(e.expr, temps)
            return self.update(e, e.expr, temps) if e.op in UPDATES else e
        if isinstance(e, c_ast.BinaryOp):
            e.left, e.right = self.expr(e.left, temps), self.expr(e.right, temps)
            if e.op in _SEQUENCED:
                return e
            operands = [e.left, e.right]
            hoisted = self.hoist(operands, temps)
            e.left, e.right = operands
            return self.in_order(hoisted, e)
        if isinstance(e, c_ast.FuncCall):
            if e.args is None or fact(e, "call") is None or \
                    getattr(fact(e, "call"), "value", None) is not None:
                return e            # vec_step and the like: folded, not evaluated
            args = e.args.exprs
            for i, a in enumerate(args):
                args[i] = self.expr(a, temps)
            hoisted = self.hoist(args, temps)
            return self.in_order(hoisted, e)
        if isinstance(e, c_ast.Cast):
            if isinstance(e.expr, c_ast.ExprList) and isinstance(fact(e, "ty"), ty.Vector):
                # a vector literal: its components, left to right
                parts = e.expr.exprs
                for i, a in enumerate(parts):
                    parts[i] = self.expr(a, temps)
                assignments = self.hoist(parts, temps)
                for i, a in enumerate(parts):
                    if _computed_vector(a):
                        parts[i] = self.temporary(a, temps, assignments)
                return self.in_order(assignments, e)
            e.expr = self.expr(e.expr, temps)
            return e
        if isinstance(e, c_ast.TernaryOp):
            e.cond = self.expr(e.cond, temps)
            e.iftrue, e.iffalse = self.expr(e.iftrue, temps), self.expr(e.iffalse, temps)
            return e
        if isinstance(e, c_ast.Assignment):
            e.lvalue, e.rvalue = self.expr(e.lvalue, temps), self.expr(e.rvalue, temps)
            # a store to a swizzle is lowered as an update of its vector too
            swizzle = len(fact(e.lvalue, "components") or ()) > 1
            return self.update(e, e.lvalue, temps, once=e.op == "=" and not swizzle)
        if isinstance(e, c_ast.ExprList):
            e.exprs = [self.expr(x, temps) for x in e.exprs]
            return e
        if isinstance(e, c_ast.ArrayRef):
            e.name, e.subscript = self.expr(e.name, temps), self.expr(e.subscript, temps)
            return e
        if isinstance(e, c_ast.StructRef):
            e.name = self.expr(e.name, temps)
            return e
        return e

    def update(self, e, lvalue, temps: list, once: bool = False):
        """A compound assignment or an increment ``e`` of ``lvalue`` evaluates the lvalue
        once (``a[atomic_inc(p)] /= b``), but its lowering may read it and write it
        apart (a vector's, a swizzle's, an integer division's): the parts of the lvalue
        with effects become temporaries (where C can declare them: lowering refuses the
        rest). A plain store (``once``) is lowered as written, its lvalue evaluated once
        by C. The value assigned goes before the lvalue where the order matters
        (``v[bump(c)] = *c``, ``a[*c] = bump(c)``), as clang evaluates it first."""
        operands = _lvalue_operands(lvalue)
        effects = [self.has_effects(getattr(n, a)) for n, a in operands]
        assignments = []
        if isinstance(e, c_ast.Assignment) and operands:
            value_effects = self.has_effects(e.rvalue)
            if any(self.conflict(e.rvalue, value_effects, getattr(n, a), effect)
                   for (n, a), effect in zip(operands, effects)):
                e.rvalue = self.temporary(e.rvalue, temps, assignments)
        if not once:
            for (n, a), effect in zip(operands, effects):
                if effect:
                    setattr(n, a, self.temporary(getattr(n, a), temps, assignments))
        return self.in_order(assignments, e)

    def hoist(self, operands: list, temps: list) -> list:
        """Replace the operands that must be evaluated before the ones after them by
        temporaries (declared into ``temps``); returns the assignments, in order."""
        effects = [self.has_effects(o) for o in operands]
        if not any(effects):
            return []
        assignments = []
        for i, o in enumerate(operands[:-1]):
            later = range(i + 1, len(operands))
            if not any(self.conflict(o, effects[i], operands[j], effects[j]) for j in later):
                continue
            operands[i] = self.temporary(o, temps, assignments)
        return assignments

    def temporary(self, o, temps: list, assignments: list):
        """A temporary that holds the value of ``o``: declared into ``temps``, assigned
        by what goes into ``assignments``; ``o`` itself where its type has none
        (records: C compilers agree on few such programs; a pointer to a struct
        without a tag, which C cannot name here)."""
        t = fact(o, "ty")
        if not isinstance(t, (ty.Scalar, ty.Vector, ty.Pointer)) or t == ty.VOID or \
                not _nameable(t):
            return o
        self.count += 1
        name = f"cl2c_seq{self.count}"
        symbol = Symbol(name, t, "var")
        decl = make(c_ast.Decl, name, [], [], [], [], cn.declarator(t, name, o.coord),
                    None, None, coord=o.coord)
        decl.ty, decl.space = t, "private"
        temps.append(decl)
        assign = make(c_ast.Assignment, "=", self.ident(name, t, symbol, o.coord), o, o.coord)
        assign.ty = t
        assignments.append(assign)
        return self.ident(name, t, symbol, o.coord)

    @staticmethod
    def ident(name, t, symbol, coord):
        node = make(c_ast.ID, name, coord)
        node.ty, node.symbol = t, symbol
        return node

    def conflict(self, a, a_effects: bool, b, b_effects: bool) -> bool:
        if a_effects and b_effects:
            return True
        if not (a_effects or b_effects):
            return False
        reader, writer = (b, a) if a_effects else (a, b)
        assigned = self.private_writes(writer)
        if assigned is not None:        # it writes private variables only
            return any(isinstance(n, c_ast.ID) and n.name in assigned for n in walk(reader))
        return not self.reads_private_values(reader, self.assigned_names(writer))

    def private_writes(self, writer) -> set | None:
        """The variables ``writer`` assigns, if its only effects are assignments to
        private variables whose address is never taken; else None."""
        names = set()
        for n in walk(writer):
            if isinstance(n, c_ast.FuncCall) and call_has_effects(n, self.writers):
                return None
            target = assigned_lvalue(n)
            if target is None:
                continue
            if not isinstance(target, c_ast.ID) or not local_object(target) or \
                    target.name in self.addressed:
                return None
            names.add(target.name)
        return names

    @staticmethod
    def assigned_names(writer) -> set:
        names = set()
        for n in walk(writer):
            target = assigned_lvalue(n)
            while isinstance(target, (c_ast.ArrayRef, c_ast.StructRef)):
                target = target.name
            if isinstance(target, c_ast.ID):
                names.add(target.name)
        return names

    def reads_private_values(self, reader, assigned: set) -> bool:
        """``reader`` reads only private variables whose address is never taken, and
        that are not among ``assigned``: evaluating it before or after the operand that
        assigns those is the same."""
        for n in walk(reader):
            if isinstance(n, c_ast.ID):
                symbol = fact(n, "symbol")
                if symbol is None or symbol.kind not in ("var", "param", "enum", "const"):
                    if symbol is not None and symbol.kind == "func":
                        continue
                    return False
                if symbol.program or n.name in self.addressed or n.name in assigned:
                    return False
            elif isinstance(n, c_ast.UnaryOp) and n.op == "*" or \
                    isinstance(n, c_ast.StructRef) and n.type == "->":
                return False
            elif isinstance(n, c_ast.ArrayRef) and isinstance(fact(n.name, "ty"), ty.Pointer):
                return False
            elif isinstance(n, c_ast.FuncCall):
                call = fact(n, "call")
                if call is None or call.kind != "builtin" or call.row is None or \
                        not call.row.pure:
                    return False
        return True

    @staticmethod
    def in_order(assignments: list, e):
        if not assignments:
            return e
        out = make(c_ast.ExprList, assignments + [e], e.coord)
        out.ty = fact(e, "ty")
        out.space = fact(e, "space")
        return out


def _computed_vector(part) -> bool:
    """A vector literal's part that is a vector computed by an expression (``(a +
    b).hi``): the literal takes its components one by one, so C would have the
    expression once for each (nested literals, a power of it: minutes of GCC), where a
    temporary holds it once. A variable, a constant and a variable's swizzle stay."""
    if not isinstance(fact(part, "ty"), ty.Vector):
        return False
    while isinstance(part, c_ast.StructRef) and part.type == ".":
        part = part.name
    return not isinstance(part, (c_ast.ID, c_ast.Constant))


def _lvalue_operands(lvalue) -> list:
    """The values an lvalue is computed from, left to right, as (node, attribute): the
    subscripts of ``a[i][j]``, the pointer of ``*p``, ``p->f`` and ``p[i]`` (the
    operands of ``p + i`` there)."""
    out = []
    node = lvalue
    while True:
        if isinstance(node, c_ast.ArrayRef):
            out.append((node, "subscript"))
            if isinstance(fact(node.name, "ty"), ty.Pointer):
                out += _pointer_operands(node, "name")[::-1]
                break
        elif isinstance(node, c_ast.StructRef):
            if node.type == "->":
                out += _pointer_operands(node, "name")[::-1]
                break
        elif isinstance(node, c_ast.UnaryOp) and node.op == "*":
            out += _pointer_operands(node, "expr")[::-1]
            break
        else:
            break
        node = node.name
    return out[::-1]


def _nameable(t) -> bool:
    """A type C can name in a declaration of its own: not a pointer to an untagged
    struct (which a typedef names in the source)."""
    while isinstance(t, ty.Pointer):
        t = t.pointee
    return not isinstance(t, ty.Record) or bool(t.tag)


def _pointer_operands(parent, attr) -> list:
    """(parent, attr) for the pointer ``parent.attr``; for ``p + i`` or ``p - i``, the
    operands' (a temporary of an integer is one C can always declare), left to right."""
    e = getattr(parent, attr)
    if not (isinstance(e, c_ast.BinaryOp) and e.op in ("+", "-")):
        return [(parent, attr)]
    if isinstance(fact(e.left, "ty"), (ty.Pointer, ty.Array)):
        return _pointer_operands(e, "left") + [(e, "right")]
    if isinstance(fact(e.right, "ty"), (ty.Pointer, ty.Array)):
        return [(e, "left")] + _pointer_operands(e, "right")
    return [(parent, attr)]
