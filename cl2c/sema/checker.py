"""The scopes every part of semantic analysis shares, and its entry."""
from __future__ import annotations

from pycparser import c_ast

from .. import types as ty
from ..builtins import IMAGES_H
from ..diagnostics import Reporter
from ..language_version import CL1_2, LanguageVersion
from .model import FunctionInfo, Module, SemaError, Symbol


class Checker(c_ast.NodeVisitor):
    def __init__(self, reporter: Reporter, cl_std: LanguageVersion = CL1_2, extensions=(),
                 linking: bool = False):
        self.reporter = reporter
        self.cl_std = cl_std
        self.linking = linking          # the units of a link, each checked alone before
        self.offered = frozenset(extensions)     # the target's OpenCL extensions
        self.scopes: list[dict[str, Symbol]] = [{}]
        self.tags: list[dict[str, ty.Type]] = [{}]
        self.record_definitions: dict[int, c_ast.Node] = {}   # id(Record) -> its body
        # (file, line, column) of an anonymous body -> its Record: the parser gives each
        # declarator of `struct {...} x, y;` its own copy of the one body
        self.anonymous_records: dict[tuple, ty.Type] = {}
        self.module: Module | None = None
        self.func: FunctionInfo | None = None
        self.jump_targets: list[str] = []          # "loop"/"switch" around a statement
        # the switches around a statement, innermost last: (the condition's promoted
        # type, {case value: its Case}, its Default or None)
        self.switches: list[list] = []
        # id() of the parameter declarators being resolved (type_names.resolve_parameter)
        self._parameter_arrays: set[int] = set()

    # ---- entry --------------------------------------------------------------
    def analyze(self, ast: c_ast.FileAST) -> Module:
        self.module = Module(ast)
        for ext in ast.ext:
            try:
                self.top_level(ext)
            except SemaError as e:
                self.reporter.error(str(e), e.coord)
        self._propagate_workitem()
        self._check_recursion()
        self._cast_alignment()
        return self.module

    def error(self, message, node):
        raise SemaError(message, getattr(node, "coord", None))

    # ---- scopes ---------------------------------------------------------------
    def push(self):
        self.scopes.append({})
        self.tags.append({})

    def pop(self):
        self.scopes.pop()
        self.tags.pop()

    def declare(self, sym: Symbol, node=None):
        node = node if node is not None else sym.node
        if isinstance(sym.type, (ty.Image, ty.Sampler)):
            self.module.runtime_headers.add(IMAGES_H)
        scope = self.scopes[-1]
        old = scope.get(sym.name)
        if old is not None and old.kind in ("var", "param") and sym.kind in ("var", "param") \
                and len(self.scopes) > 1:
            self.error(f"redefinition of '{sym.name}'", node)
        scope[sym.name] = sym

    def lookup(self, name: str) -> Symbol | None:
        for scope in reversed(self.scopes):
            if name in scope:
                return scope[name]
        return None

    def lookup_tag(self, name: str):
        for tags in reversed(self.tags):
            if name in tags:
                return tags[name]
        return None

    @property
    def fp16(self) -> bool:
        """Whether half is an arithmetic type here: cl_khr_fp16 is enabled (spec 9.4)."""
        on = "cl_khr_fp16" in self.offered and \
            bool({"cl_khr_fp16", "all"} & self.module.extensions)
        self.module.uses_fp16 |= on
        return on
