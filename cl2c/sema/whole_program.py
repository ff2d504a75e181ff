"""Whole-program facts, once every function is checked: which pointer parameters a
kernel writes through, which functions reach work-item functions, barriers and program
globals through their callees, calls that form a cycle (no recursion in OpenCL C), and
the alignment a kernel's pointer conversions rely on in its buffers."""
from __future__ import annotations

from pycparser import c_ast

from .. import types as ty
from .checker import Checker
from .model import FunctionInfo, Module


class WholeProgram(Checker):
    def _param_access(self, info: FunctionInfo):
        """Which pointer parameters the kernel may write through (conservative)."""
        finder = _WriteFinder(self.module, {p.name for p in info.params})
        finder.visit(info.node.body)
        for p in info.params:
            if isinstance(p.type, ty.Pointer):
                p.written = not p.const and p.name in finder.written
                p.read = True

    def _cast_alignment(self):
        """Each kernel's buffer parameters' cast_align: a conversion to a pointer whose
        pointee is aligned to more than the converted pointer's (``(__global float16
        *)in``, a ``void *`` assigned to a ``float8 *``) is right at offset 0 in OpenCL,
        which places every buffer at CL_DEVICE_MEM_BASE_ADDR_ALIGN, and it faults in C
        on an array that starts less aligned (NumPy's large ones, 16 bytes past a line).
        So the loader places such a buffer that far (loader.py). A conversion of a
        pointer not plainly the parameter's (another variable's, a callee's parameter)
        counts for every buffer of the kernel."""
        funcs = self.module.functions
        for info in funcs.values():
            if not info.is_kernel:
                continue
            buffers = {p.name: p for p in info.params if isinstance(p.type, ty.Pointer)
                       and p.type.space in ("global", "constant")}
            if not buffers:
                continue
            finder = _CastFinder(set(buffers), funcs)
            finder.visit(info.node.body)
            seen, todo = set(), list(info.callees)
            finder.names = set()            # in callees: no parameter of the kernel's
            while todo:
                name = todo.pop()
                if name in seen or name not in funcs:
                    continue
                seen.add(name)
                finder.visit(funcs[name].node.body)
                todo.extend(funcs[name].callees)
            for name, p in buffers.items():
                p.cast_align = max(finder.aligns.get(name, 1), finder.unknown)

    def _propagate_workitem(self):
        funcs = self.module.functions
        changed = True
        while changed:
            changed = False
            for f in funcs.values():
                callees = [funcs[c] for c in f.callees if c in funcs]
                if not f.workitem and any(g.workitem for g in callees):
                    f.workitem = True
                    changed = True
                if not f.sync and any(g.sync for g in callees):
                    f.sync = True
                    changed = True
                if not f.globals and any(g.globals for g in callees):
                    f.globals = True
                    changed = True


    def _check_recursion(self):
        """OpenCL C has no recursion (spec 6.9.k): each cycle of calls is an error at
        the call that closes it, naming the functions on it."""
        funcs = self.module.functions
        state: dict[str, int] = {}            # 1: on the current path, 2: done
        path: list[str] = []

        def visit(name):                      # depth-first, iterative over callees
            stack = [(name, iter(sorted(funcs[name].callees)))]
            state[name] = 1
            path.append(name)
            while stack:
                current, callees = stack[-1]
                callee = next(callees, None)
                if callee is None:
                    stack.pop()
                    path.pop()
                    state[current] = 2
                elif callee not in funcs:
                    continue
                elif state.get(callee) == 1:
                    cycle = path[path.index(callee):] + [callee]
                    chain = " -> ".join(f"'{c}'" for c in cycle)
                    self.reporter.error(
                        f"recursion is not allowed in OpenCL C: '{callee}' calls itself"
                        if len(cycle) == 2 else
                        f"recursion is not allowed in OpenCL C: {chain}",
                        funcs[current].call_sites[callee].coord)
                elif callee not in state:
                    state[callee] = 1
                    path.append(callee)
                    stack.append((callee, iter(sorted(funcs[callee].callees))))

        for name in funcs:
            if name not in state:
                visit(name)


def _root(node):
    """What an lvalue or pointer expression is based on: its variable, as a rule."""
    while True:
        if isinstance(node, (c_ast.ArrayRef,)):
            node = node.name
        elif isinstance(node, c_ast.StructRef):
            node = node.name
        elif isinstance(node, c_ast.UnaryOp) and node.op == "*":
            node = node.expr
        elif isinstance(node, c_ast.BinaryOp) and node.op in ("+", "-"):
            lt = node.left.ty
            node = node.left if isinstance(lt, ty.Pointer) else node.right
        elif isinstance(node, c_ast.Cast):
            node = node.expr
        else:
            return node


class _WriteFinder(c_ast.NodeVisitor):
    """Finds parameters that are written through, or escape where they might be."""

    def __init__(self, module: Module, names: set):
        self.module = module
        self.names = names
        self.written: set = set()

    def _mark(self, node):
        root = _root(node)
        if isinstance(root, c_ast.ID) and root.name in self.names:
            self.written.add(root.name)

    def visit_Assignment(self, node):
        self._mark(node.lvalue)
        # Storing a pointer into memory or a variable lets it escape.
        self._escape(node.rvalue)
        self.generic_visit(node)

    def visit_UnaryOp(self, node):
        if node.op in ("++", "--", "p++", "p--"):
            self._mark(node.expr)
        if node.op == "&":
            self._mark(node.expr)
        self.generic_visit(node)

    def visit_FuncCall(self, node):
        call = node.call
        for a in (node.args.exprs if node.args else []):
            if call is not None and call.kind in ("builtin", "convert", "as", "vload",
                                                  "vload_half", "printf"):
                if call.kind == "builtin" and any(p.endswith("*") for p in call.row.params):
                    self._escape(a)
                continue
            self._escape(a)
        if call is not None and call.kind in ("vstore", "vstore_half"):
            self._escape(node.args.exprs[2])
        self.generic_visit(node)

    def visit_Decl(self, node):
        if node.init is not None:
            self._escape(node.init)
        self.generic_visit(node)

    def _escape(self, node):
        t = node.ty
        if isinstance(t, ty.Pointer) or isinstance(node, c_ast.UnaryOp) and node.op == "&":
            self._mark(node)
        if isinstance(node, c_ast.InitList):
            for e in node.exprs:
                self._escape(e)


_FAR = ("global", "constant", "generic")     # memory whose placement the host chose


class _CastFinder(c_ast.NodeVisitor):
    """Conversions of pointers to __global, __constant or generic memory to pointers
    whose pointee is aligned to more: explicit casts, and the implicit ones of a
    declaration's initialiser, an assignment and a call of a program function."""

    def __init__(self, names: set, functions: dict):
        self.names = names
        self.functions = functions
        self.aligns: dict = {}          # parameter -> the most its conversions rely on
        self.unknown = 1                # of conversions of other pointers

    def _converted(self, to, expr):
        frm = getattr(expr, "ty", None)
        if not (isinstance(to, ty.Pointer) and isinstance(frm, ty.Pointer)) or \
                to.space not in _FAR or frm.space not in _FAR:
            return
        need = 1 if to.pointee.is_void else ty.type_align(to.pointee)
        if need <= (1 if frm.pointee.is_void else ty.type_align(frm.pointee)):
            return
        root = _root(expr)
        if isinstance(root, c_ast.ID) and root.name in self.names:
            self.aligns[root.name] = max(self.aligns.get(root.name, 1), need)
        else:
            self.unknown = max(self.unknown, need)

    def visit_Cast(self, node):
        self._converted(getattr(node, "ty", None), node.expr)
        self.generic_visit(node)

    def visit_Decl(self, node):
        if node.init is not None and not isinstance(node.init, c_ast.InitList):
            self._converted(getattr(node, "ty", None), node.init)
        self.generic_visit(node)

    def visit_Assignment(self, node):
        if node.op == "=":
            self._converted(getattr(node.lvalue, "ty", None), node.rvalue)
        self.generic_visit(node)

    def visit_FuncCall(self, node):
        call = getattr(node, "call", None)
        if call is not None and call.kind == "function" and call.name in self.functions:
            params = self.functions[call.name].type.params
            for want, arg in zip(params, node.args.exprs if node.args else []):
                self._converted(want, arg)
        self.generic_visit(node)
