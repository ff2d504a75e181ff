"""C text from the lowered AST, with ``#line`` directives back to the .cl source.

pycparser's generator does the work; this subclass adds the directives before
statements and declarations whose source line differs from the running one,
and parenthesises nested binary operators fully (C compilers warn about mixes
such as ``a || b && c`` under -Wall).
"""
from __future__ import annotations

from pycparser import c_ast, c_generator

from ..literals import float_out_of_range
from ..source_text import line_marker_name


MAX_INDENT = 64         # columns: 32 levels of nesting


class CGenerator(c_generator.CGenerator):
    def __init__(self, line_directives: bool = True):
        super().__init__()
        self.line_directives = line_directives
        self.file = None
        self.line = None     # the source line the next emitted line maps to

    def line_marker(self, coord) -> str:
        if not self.line_directives or coord is None or not coord.line:
            return ""
        if coord.file == self.file and coord.line == self.line:
            return ""
        self.file, self.line = coord.file, coord.line
        return f'#line {coord.line} "{_escape(coord.file)}"\n'

    def _generate_stmt(self, n, add_indent=False):
        marker = ""
        if not isinstance(n, (c_ast.Compound,)):
            marker = self.line_marker(n.coord)
        text = super()._generate_stmt(n, add_indent)
        if marker:
            self.line = (self.line or 0) + text.count("\n")
        return marker + text

    def visit_FuncDef(self, n):
        marker = self.line_marker(n.decl.coord)
        decl = self.visit(n.decl)
        self.indent_level = 0
        body = self.visit(n.body)       # (no K&R declarations: sema refuses them)
        return marker + decl + "\n" + body + "\n"

    def _make_indent(self) -> str:
        # no deeper than MAX_INDENT: a kernel thousands of blocks deep made C text
        # quadratic in its depth, and each level copies its inner text (3,000 nested
        # blocks: 37 s, most of a fuzzed kernel's translation)
        return " " * min(self.indent_level, MAX_INDENT)

    def visit_ID(self, n):
        # A program-scope __global variable lives in the program's instance of them.
        symbol = getattr(n, "symbol", None)
        if symbol is not None and symbol.in_program_storage:
            return f"CL2C_G->{symbol.c_name or n.name}"
        return n.name

    def visit_BinaryOp(self, n):
        left = self._operand(n.left)
        right = self._operand(n.right)
        return f"{left} {n.op} {right}"

    def _operand(self, node):
        text = self._parenthesize_if(
            node, lambda d: isinstance(d, (c_ast.BinaryOp, c_ast.TernaryOp, c_ast.Assignment,
                                           c_ast.ExprList)))
        return text

    def visit_Constant(self, n):
        # A floating constant out of its type's range is infinity or zero (sema warned),
        # spelled so that the C compiler does not warn again.
        if n.type in ("float", "double"):
            wrong = float_out_of_range(n.value)
            single = n.value[-1] in "fF"
            if wrong == "overflow":
                return "((float)INFINITY)" if single else "((double)INFINITY)"
            if wrong == "underflow":
                return "0.0f" if single else "0.0"
        return super().visit_Constant(n)

    def visit_LoopHint(self, n):            # cnodes.LoopHint: cl2c's own
        return super().visit_Pragma(n)

    def visit_Pragma(self, n):
        words = n.string.split()
        if words[:1] == ["unroll"] and (len(words) == 1 or
                                        len(words) == 2 and words[1].isdigit()):
            return f"#pragma GCC unroll {words[1] if len(words) > 1 else 65534}"
        if words[:1] == ["omp"]:            # lowering's (sema set the kernel's aside)
            return super().visit_Pragma(n)
        # OpenCL pragmas (EXTENSION, FP_CONTRACT) mean nothing to a C compiler.
        return f"/* #pragma {n.string.replace('*/', '* /')} */"


def _escape(path: str) -> str:
    return line_marker_name(path)


def generate(node, line_directives: bool = True, gen: CGenerator | None = None) -> str:
    return (gen or CGenerator(line_directives)).visit(node)
