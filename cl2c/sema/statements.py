"""Statements: scopes, conditions, jumps."""
from __future__ import annotations

from pycparser import c_ast

from .. import types as ty
from .checker import Checker
from .model import SemaError


class Statements(Checker):
    # ---- statements -----------------------------------------------------------------
    def statement(self, node, new_scope=True):
        if node is None:
            return
        method = getattr(self, "stmt_" + type(node).__name__, None)
        if method is not None:
            method(node, new_scope) if isinstance(node, c_ast.Compound) else method(node)
        else:
            self.expr(node)

    def stmt_Compound(self, node, new_scope=True):
        if new_scope:
            self.push()
        try:
            items = node.block_items or []
            for i, item in enumerate(items):
                try:
                    if isinstance(item, c_ast.Label) and _stands_in(item.stmt, item):
                        self.label_followed_by(item, items[i + 1] if i + 1 < len(items)
                                               else None)
                    self.statement(item)
                except SemaError as e:
                    self.reporter.error(str(e), e.coord)
        finally:
            if new_scope:
                self.pop()

    def stmt_Decl(self, node):
        self.declaration(node)

    def stmt_DeclList(self, node):
        for d in node.decls:
            self.declaration(d)

    def stmt_Typedef(self, node):
        self.typedef(node)

    def stmt_If(self, node):
        self.condition(node.cond)
        self.statement(node.iftrue)
        self.statement(node.iffalse)

    def stmt_For(self, node):
        self.push()
        try:
            if node.init is not None:
                self.statement(node.init)
            if node.cond is not None:
                self.condition(node.cond)
            if node.next is not None:
                self.expr(node.next)
            self.body_of(node.stmt, "loop")
        finally:
            self.pop()

    def stmt_While(self, node):
        self.condition(node.cond)
        self.body_of(node.stmt, "loop")

    def stmt_DoWhile(self, node):
        self.body_of(node.stmt, "loop")
        self.condition(node.cond)

    def stmt_Switch(self, node):
        t = self.expr(node.cond)
        if not t.is_integer or t.is_vector:
            self.error("statement requires expression of integer type", node.cond)
        self.switches.append([ty.integer_promote(t), {}, None])
        try:
            self.body_of(node.stmt, "switch")
        finally:
            self.switches.pop()

    def body_of(self, stmt, kind: str):
        """A loop's or a switch's body: where break (and continue, case, default) may be."""
        self.jump_targets.append(kind)
        try:
            self.statement(stmt)
        finally:
            self.jump_targets.pop()

    def stmt_Case(self, node):
        if "switch" not in self.jump_targets:
            self.error("'case' statement not in switch statement", node)
        value = self.const_int(node.expr)
        if value is None:
            self.error("case value is not an integer constant expression", node.expr)
        if self.switches:
            # the value converted to the condition's type: two labels of one value are
            # an error (C11 6.8.4.2p3), which the C compiler would give cl2c's C
            t, seen, _ = self.switches[-1]
            value = ty.wrapped(value, t)
            if value in seen:
                self.reporter.error(f"duplicate case value '{value}'", node.expr.coord)
                self.reporter.note("previous case defined here", seen[value].coord)
            else:
                seen[value] = node
        self.labelled(node, node.stmts or [])

    def stmt_Default(self, node):
        if "switch" not in self.jump_targets:
            self.error("'default' statement not in switch statement", node)
        if self.switches:
            if self.switches[-1][2] is not None:
                self.reporter.error("multiple default labels in one switch", node.coord)
                self.reporter.note("previous case defined here", self.switches[-1][2].coord)
            else:
                self.switches[-1][2] = node
        self.labelled(node, node.stmts or [])

    def stmt_Label(self, node):
        if node.name in self.func.labels:
            self.error(f"redefinition of label '{node.name}'", node)
        self.func.labels[node.name] = node
        self.statement(node.stmt)

    def labelled(self, label, stmts: list):
        """A case's or default's statements (the switch's items up to the next one)."""
        if stmts and _stands_in(stmts[0], label):
            self.label_followed_by(label, stmts[1] if len(stmts) > 1 else None)
        for i, s in enumerate(stmts):
            if isinstance(s, c_ast.Label) and _stands_in(s.stmt, s):
                self.label_followed_by(s, stmts[i + 1] if i + 1 < len(stmts) else None)
            self.statement(s)

    def label_followed_by(self, label, following):
        """In C99, which OpenCL C is based on, a label labels a statement, and neither a
        declaration nor a block's end is one (clang rejects ``case 1: int x = 0;``;
        C23 allows both)."""
        if following is None:
            self.reporter.error("label at end of compound statement: expected statement",
                                label.coord)
        elif isinstance(following, (c_ast.Decl, c_ast.DeclList, c_ast.Typedef)):
            self.reporter.error("a label can only be part of a statement and a declaration "
                                "is not a statement", following.coord)

    def stmt_Goto(self, node):
        self.func.gotos.append(node)      # its label is checked at the function's end

    def check_labels(self):
        for g in self.func.gotos:
            if g.name not in self.func.labels:
                self.error(f"use of undeclared label '{g.name}'", g)

    def stmt_Return(self, node):
        if node.expr is not None:
            t = self.rvalue(node.expr)
            if self.func is not None:
                ret = self.func.type.ret
                if t == ty.VOID and ret != ty.VOID:
                    self.error(f"returning '{t}' from a function with result type '{ret}'",
                               node.expr)
                self.check_pointer_conversion(ret, t, node.expr, node.expr, "returning")
                if ret != ty.VOID and self.incompatible(ret, t):
                    self.error(f"returning '{t}' from a function with incompatible result "
                               f"type '{ret}'", node.expr)

    def stmt_Break(self, node):
        if not self.jump_targets:
            self.error("'break' statement not in loop or switch statement", node)

    def stmt_Continue(self, node):
        if "loop" not in self.jump_targets:
            self.error("'continue' statement not in loop statement", node)

    def stmt_EmptyStatement(self, node):
        pass

    stmt_StaticAssert = stmt_EmptyStatement

    def stmt_Pragma(self, node):
        self.check_pragma(node)

    def condition(self, node):
        t = self.expr(node)
        if not (t.is_scalar or t.is_pointer) or t.is_void:
            self.error(f"statement requires expression of scalar type ('{t}' invalid)", node)


def _stands_in(stmt, label) -> bool:
    """Is ``stmt`` the empty statement that the parser puts after a label that no
    statement follows (at the label's own position, where a written ``;`` has its own)?"""
    return isinstance(stmt, c_ast.EmptyStatement) and stmt.coord is not None and \
        label.coord is not None and (stmt.coord.line, stmt.coord.column) == \
        (label.coord.line, label.coord.column)
