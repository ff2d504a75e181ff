"""Declarations, types as written, functions and kernels (spec 6.1-6.8)."""
from __future__ import annotations

import re

from pycparser import c_ast
from pycparserext.ext_c_parser import AttributeSpecifier

from .. import builtins as bi
from .. import literals
from .. import types as ty
from .checker import Checker
from .model import ACCESS_QUALIFIERS, SPACE_QUALIFIERS, FunctionInfo, Module, Param, SemaError, Symbol


class Declarations(Checker):
    # ---- program scope -------------------------------------------------------------
    def top_level(self, ext):
        m = self.module
        if isinstance(ext, c_ast.FuncDef):
            self.function(ext)
            m.program_scope.append(("function", ext))
        elif isinstance(ext, c_ast.Typedef):
            self.typedef(ext)
            m.program_scope.append(("typedef", ext))
        elif isinstance(ext, c_ast.Decl):
            kind = self.declaration(ext, program_scope=True)
            m.program_scope.append((kind, ext))
        elif isinstance(ext, c_ast.Pragma):
            self.pragma(ext)
            m.program_scope.append(("pragma", ext))
        elif isinstance(ext, c_ast.StaticAssert):
            m.program_scope.append(("static_assert", ext))
        else:
            self.error(f"unexpected {type(ext).__name__} at program scope", ext)

    def pragma(self, node: c_ast.Pragma):
        """#pragma OPENCL EXTENSION name|all : enable|disable (spec 9.1): accepted for the
        extensions cl2c offers (cl_khr_fp64 among them); a warning for others."""
        self.check_pragma(node)
        words = node.string.replace(":", " : ").split()
        if words[:2] != ["OPENCL", "EXTENSION"]:
            return
        if len(words) != 5 or words[3] != ":" or words[4] not in ("enable", "disable"):
            self.reporter.warning("expected '#pragma OPENCL EXTENSION <name> : enable' or "
                                  "'disable'; pragma ignored", node.coord)
            return
        name = words[2]
        if name != "all" and name not in self.offered:
            self.reporter.warning(f"unsupported OpenCL extension '{name}'; pragma ignored",
                                  node.coord)
            return
        if words[4] == "enable":
            self.module.extensions.add(name)
        else:
            self.module.extensions.discard(name)

    def check_pragma(self, node: c_ast.Pragma):
        """A kernel's pragmas never reach the C compiler as they are (emit/cgen.py):
        OpenMP's directives are cl2c's to place (a kernel's would nest in the loops over
        its work-items), and ``unroll`` takes an integer."""
        words = node.string.split()
        if words[:1] == ["omp"]:
            self.reporter.warning("'#pragma omp' ignored: cl2c runs the work-items with "
                                  "OpenMP itself", node.coord)
            node.string = f"(ignored) {node.string}"    # a comment in the C
        elif words[:1] == ["unroll"] and not (len(words) == 1 or len(words) == 2 and
                                              words[1].isdigit()):
            self.reporter.warning("'#pragma unroll' takes an integer constant; pragma "
                                  "ignored", node.coord)

    def typedef(self, node: c_ast.Typedef):
        t, space, const = self.resolve(node.type)
        self.declare(Symbol(node.name, t, "typedef", space, const, node))

    # ---- types of declarators -----------------------------------------------------
    def resolve(self, node) -> tuple[ty.Type, str, bool]:
        """(type, address space, const) of a declarator chain."""
        if isinstance(node, c_ast.TypeDecl):
            base, space, const = self.base_type(node.type)
            quals = node.quals or []
            written = {SPACE_QUALIFIERS[q] for q in quals if q in SPACE_QUALIFIERS}
            if len(written) > 1 or (written and space != "private" and {space} != written):
                # global constant int (spec 6.5: one address space a type); clang's words
                self.error("multiple address spaces specified for type", node.type)
            for q in quals:
                if q in SPACE_QUALIFIERS:
                    space = SPACE_QUALIFIERS[q]
                elif q == "const":
                    const = True
                elif q in ACCESS_QUALIFIERS:
                    base = self._image_access(base, q, node)
            if space == "constant":
                const = True
            return base, space, const
        if isinstance(node, c_ast.PtrDecl):
            pointee, space, const = self.resolve(node.type)
            pquals = node.quals or []
            pspace = "private"
            for q in pquals:
                if q in SPACE_QUALIFIERS:
                    pspace = SPACE_QUALIFIERS[q]
            volatile = "volatile" in self._quals(node.type)
            ptr = ty.Pointer(pointee, space if space != "private" or self._explicit_space(node.type)
                             else self._default_space(), const, volatile, "restrict" in pquals)
            return ptr, pspace, "const" in pquals
        if isinstance(node, c_ast.ArrayDecl):
            elem, space, const = self.resolve(node.type)
            length = None
            if node.dim is not None:
                length = self.const_int(node.dim)
                if length is None:
                    self.error("array size is not an integer constant expression", node.dim)
                if length < 0:       # reported; the declaration goes on with one element
                    self.reporter.error(f"array has a negative size ({length})",
                                        node.dim.coord)
                    length = 1
            if _incomplete(elem):
                self.error(f"array has incomplete element type '{elem}'", node)
            return ty.Array(elem, length), space, const
        if isinstance(node, c_ast.FuncDecl):
            ret, _, _ = self.resolve(node.type)
            params = []
            if node.args:
                for p in node.args.params:
                    if isinstance(p, c_ast.EllipsisParam):
                        continue
                    pt, _, _ = self.resolve(p.type)
                    if pt == ty.VOID:
                        continue
                    params.append(pt)
            return ty.Function(ret, tuple(params)), "private", False
        if isinstance(node, c_ast.Typename):
            return self.resolve(node.type)
        self.error(f"unsupported declarator {type(node).__name__}", node)

    def _image_access(self, base: ty.Type, qualifier: str, node) -> ty.Image:
        """The image type ``base`` under access qualifier ``qualifier`` (spec 6.6):
        read_write only from OpenCL C 2.0 on, and on images only."""
        access = qualifier.removeprefix("__")
        if not isinstance(base, ty.Image):
            self.error(f"access qualifier '{qualifier}' can only be used for image types, "
                       f"not '{base}'", node)
        if access == "read_write" and self.cl_std < 200:
            self.error("read_write images are an OpenCL C 2.0 feature: build with "
                       "-cl-std=CL2.0 or later", node)
        return ty.Image(base.name, access)

    def _quals(self, node) -> list:
        return list(getattr(node, "quals", None) or [])

    def _explicit_space(self, node) -> bool:
        return any(q in SPACE_QUALIFIERS for q in self._quals(node))

    def _default_space(self) -> str:
        return "generic" if self.cl_std >= 200 else "private"

    def base_type(self, node) -> tuple[ty.Type, str, bool]:
        if isinstance(node, c_ast.IdentifierType):
            names = [n for n in node.names]
            t = ty.scalar_from_words(names)
            if t is not None:
                self.offers_type(t, " ".join(names), node)
                return t, "private", False
            if len(names) == 1:
                t = ty.named_type(names[0])
                if isinstance(t, ty.Atomic) and self.cl_std < 200:
                    self.error(f"'{names[0]}' is an OpenCL C 2.0 type: build with "
                               f"-cl-std=CL2.0 or later", node)
                if t is not None:
                    self.offers_type(t, names[0], node)
                    return t, "private", False
                sym = self.lookup(names[0])
                if sym is not None and sym.kind == "typedef":
                    return sym.type, sym.space, sym.const
                self.error(f"unknown type name '{names[0]}'", node)
            self.error(f"invalid type '{' '.join(names)}'", node)
        if isinstance(node, (c_ast.Struct, c_ast.Union)):
            return self.record(node), "private", False
        if isinstance(node, c_ast.Enum):
            return self.enum(node), "private", False
        self.error(f"unsupported type {type(node).__name__}", node)

    def offers_type(self, t: ty.Type, name: str, node) -> None:
        """A type of an optional extension is an error, at its use, where the device
        does not offer the extension (-cl-ext=-cl_khr_fp64): double and its vectors
        (spec 6.1.1), and the atomic types of 64-bit values (6.13.11.6: atomic_long,
        atomic_ulong, atomic_size_t and the others of a 64-bit device, which need the
        64-bit atomics; atomic_double, which needs double as well)."""
        need = required_extensions(t)
        if any(e not in self.offered for e in need):
            self.error(f"use of type '{name}' requires {_names(need)} support", node)

    def record(self, node, attributes: tuple = ()) -> ty.Record:
        """The Record of a struct or union specifier; ``attributes`` are the attribute
        specifiers written after its closing brace (``struct S {...}
        __attribute__((packed));``)."""
        union = isinstance(node, c_ast.Union)
        rec = self.lookup_tag(node.name) if node.name else None
        if rec is None or (node.decls is not None and rec.fields and
                           node.name not in self.tags[-1]):
            rec = ty.Record(node.name, union)
            if node.name:
                self.tags[-1][node.name] = rec
        if node.decls is not None:
            fields = []
            for d in node.decls:
                if d.name is None and isinstance(d.type, (c_ast.Struct, c_ast.Union)):
                    # an unnamed member (C11 6.7.2.1p13): its fields are the record's
                    ft = self.record(d.type)
                else:
                    ft, _, _ = self.resolve(d.type)
                if ft.is_function or _incomplete(ft):
                    # reported, and the field left out: the record is still defined
                    self.reporter.error(
                        f"field '{d.name}' is declared as a function" if ft.is_function else
                        f"field '{d.name}' has incomplete type '{ft}'" +
                        (" (a struct cannot contain itself)" if ft is rec else ""), d.coord)
                    continue
                fields.append((d.name, ft))
                d.ty, d.space = ft, "private"
            specs = [getattr(node, a, None) for a in ("attrs", "attributes", "attrib")]
            packed, align = self._layout_attributes([a for a in specs if a] +
                                                    list(attributes))
            rec.complete(fields, packed=packed, align_attr=align)
            # Lowering writes the attributes into the C definition (the layout is the
            # C compiler's): keep the record of each definition.
            node.record = rec
        return rec

    def _layout_attributes(self, specs) -> tuple[bool, int]:
        """(packed, aligned bytes) of a record's __attribute__ specifiers. aligned takes
        an integer constant expression (pyopencl-complex.h: ``2*sizeof(float)``)."""
        packed, align = False, 0
        for spec in specs:
            exprs = spec.exprlist.exprs if isinstance(spec, AttributeSpecifier) else []
            for e in exprs:
                call = isinstance(e, c_ast.FuncCall) and isinstance(e.name, c_ast.ID)
                name = e.name.name if call else e.name if isinstance(e, c_ast.ID) else None
                if name in ("packed", "__packed__"):
                    packed = True
                elif name in ("aligned", "__aligned__") and call and e.args and e.args.exprs:
                    value = self.const_int(e.args.exprs[0])
                    if value is None or value <= 0 or value & (value - 1):
                        self.error("requested alignment is not a positive power of 2",
                                   e.args.exprs[0])
                    align = max(align, value)
        return packed, align

    def enum(self, node) -> ty.Enum:
        e = ty.Enum(node.name)
        if node.name:
            self.tags[-1][node.name] = e
        if node.values is not None:
            value = 0
            for en in node.values.enumerators:
                if en.value is not None:
                    v = self.const_int(en.value)
                    if v is None:
                        self.error("enumerator value is not an integer constant", en.value)
                    value = v
                self.declare(Symbol(en.name, ty.INT, "enum", node=value))
                value += 1
        return e

    # ---- declarations ----------------------------------------------------------------
    def declaration(self, node: c_ast.Decl, program_scope=False) -> str:
        if node.name is None:           # struct/union/enum declaration only
            if isinstance(node.type, (c_ast.Struct, c_ast.Union)):
                self.record(node.type, tuple(node.funcspec or ()))
            elif isinstance(node.type, c_ast.Enum):
                self.base_type(node.type)
            return "tag"
        try:
            t, space, const = self.resolve(node.type)
        except SemaError:
            # declared all the same (as an int), so that its uses add no errors
            self.declare(Symbol(node.name, ty.INT, "var", node=node))
            raise
        if t.is_function:
            self.declare(Symbol(node.name, t, "func", node=node))
            return "prototype"
        static_storage = program_scope
        if isinstance(t, ty.Image):
            self.error(f"variable '{node.name}' of image type '{t}': images are kernel and "
                       f"function arguments only (OpenCL C 6.12.14)", node)
        if t == ty.SAMPLER_T and (program_scope or "static" in (node.storage or [])):
            # const sampler_t s = CLK_...; at program scope is in __constant (6.12.14.1)
            space, const = "constant", True
        if program_scope:
            space = self._program_scope_space(node, space)
        elif "static" in (node.storage or []) and self.cl_std >= 200 and self.func is not None:
            # 2.0: a static variable in a function lives in the program's storage
            space = self._program_scope_space(node, space)
            static_storage = space == "global"
            if space == "constant" and node.init is None:
                self.error(f"variable '{node.name}' in the __constant address space must be "
                           f"initialized", node)
        if t == ty.VOID or _incomplete(t):
            self.declare(Symbol(node.name, ty.INT, "var", node=node))
            self.error(f"variable '{node.name}' has incomplete type '{t}'", node)
        if ty.HALF in (t, ty.scalar_of(t), getattr(t, "elem", None)) and not self.fp16:
            self.error(f"variable '{node.name}' of type '{t}': half is a storage type "
                       f"(only pointers to it) unless cl_khr_fp16 is enabled", node)
        # In scope from its own initializer on (C99 6.2.1), and still declared if the
        # initializer has an error, so that one mistake is reported once.
        home = None if program_scope or not static_storage else \
            f"{self.func.name}__{node.name}"      # its field among the program's variables
        self.declare(Symbol(node.name, t, "var", space, const, node, c_name=home,
                            program=static_storage), node)
        node.ty, node.space = t, space
        if node.init is not None:
            if isinstance(node.init, c_ast.InitList):
                self.init_list(node.init, t)
            else:
                value = self.rvalue(node.init)
                self.check_pointer_conversion(t, value, node.init, node.init, "initializing")
            if isinstance(t, ty.Array) and t.length is None:
                length = len(node.init.exprs) if isinstance(node.init, c_ast.InitList) else None
                if isinstance(node.init, c_ast.Constant) and node.init.type == "string":
                    length = literals.string_length(node.init.value) + 1
                t = ty.Array(t.elem, length)
                node.ty, node.space = t, space
                self.scopes[-1][node.name] = Symbol(node.name, t, "var", space, const, node,
                                                    c_name=home, program=static_storage)
        return "variable"

    def _program_scope_space(self, node: c_ast.Decl, space: str) -> str:
        """The address space of a program-scope variable: __constant, or from OpenCL C
        2.0 on also __global, which is the default there (spec 6.5)."""
        if self.cl_std < 200:
            if space != "constant" and "static" not in (node.storage or []):
                self.error(f"program scope variable '{node.name}' must be declared in the "
                           f"__constant address space", node)
            return space
        own = node.type
        while isinstance(own, c_ast.ArrayDecl):
            own = own.type
        if space == "private" and not self._explicit_space(own):
            return "global"
        if space not in ("global", "constant"):
            self.error(f"program scope variable '{node.name}' must be declared in the "
                       f"__global or __constant address space", node)
        return space

    def init_list(self, node: c_ast.InitList, t: ty.Type):
        for i, e in enumerate(node.exprs):
            target = ty.initializer_target(t, i)
            if isinstance(e, c_ast.NamedInitializer):
                e = e.expr
            if isinstance(e, c_ast.InitList):
                self.init_list(e, target)
            else:
                self.expr(e)
        node.ty = t

    # ---- functions -----------------------------------------------------------------
    def function(self, node: c_ast.FuncDef):
        decl = node.decl
        funcspec = [f for f in (decl.funcspec or []) if isinstance(f, str)]
        is_kernel = any(f in ("__kernel", "kernel") for f in funcspec)
        ftype, _, _ = self.resolve(decl.type)
        name = decl.name
        if name in self.module.functions:
            self.error(f"redefinition of '{name}'", decl)
        if name == "printf" or any(r.since <= self.cl_std for r in bi.BY_NAME.get(name, ())):
            self.error(f"'{name}' is the name of a built-in function", decl)
        self.declare(Symbol(name, ftype, "func", node=node))
        if is_kernel and ftype.ret != ty.VOID:
            self.error(f"kernel '{name}' must return void", decl)
        info = FunctionInfo(name, node, ftype, [], is_kernel,
                            self._kernel_attributes(decl) if is_kernel else {})
        self.module.functions[name] = info
        self.func = info
        self.push()
        try:
            params = decl.type.args.params if decl.type.args else []
            for p in params:
                if isinstance(p, c_ast.EllipsisParam):
                    self.error("variadic functions are not allowed in OpenCL C", p)
                pt, space, const = self.resolve(p.type)
                if pt == ty.VOID:
                    continue
                if isinstance(pt, ty.Array):
                    pt = ty.Pointer(pt.elem, space, const)
                if ty.scalar_of(pt) == ty.HALF and not self.fp16:
                    self.error(f"parameter '{p.name}' of type '{pt}': half is a storage type "
                               f"(only pointers to it) unless cl_khr_fp16 is enabled", p)
                pspace = pt.space if isinstance(pt, ty.Pointer) else space
                pconst = pt.const if isinstance(pt, ty.Pointer) else const
                if is_kernel and isinstance(pt, ty.Pointer) and pt.space in ("private",
                                                                               "generic"):
                    self.error(f"kernel pointer argument '{p.name}' must point to the __global, "
                               f"__constant or __local address space", p)
                p.ty, p.space = pt, space
                info.params.append(Param(p.name, pt, pspace, pconst, self._type_name(pt)))
                self.declare(Symbol(p.name, pt, "param", space, const, p))
            self.statement(node.body, new_scope=False)
            self.check_labels()
        finally:
            self.pop()
            self.func = None
        if is_kernel:
            self._param_access(info)

    def _type_name(self, t: ty.Type) -> str:
        if isinstance(t, ty.Pointer):
            return f"{self._type_name(t.pointee)}*"
        return t.name if hasattr(t, "name") and isinstance(getattr(t, "name"), str) else str(t)

    def _kernel_attributes(self, decl) -> dict:
        attrs = {}
        text = " ".join(_attr_text(f) for f in decl.funcspec or [] if isinstance(f, c_ast.Node))
        m = re.search(r"reqd_work_group_size\s*\(\s*(\d+)\s*,\s*(\d+)\s*,\s*(\d+)\s*\)", text)
        if m:
            attrs["reqd_work_group_size"] = tuple(int(x) for x in m.groups())
        return attrs

    def _param_access(self, info: FunctionInfo):
        """Which pointer parameters the kernel may write through (conservative)."""
        finder = _WriteFinder(self.module, {p.name for p in info.params})
        finder.visit(info.node.body)
        for p in info.params:
            if isinstance(p.type, ty.Pointer):
                p.written = not p.const and p.name in finder.written
                p.read = True

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



_INT64_ATOMICS = ("cl_khr_int64_base_atomics", "cl_khr_int64_extended_atomics")


def required_extensions(t: ty.Type) -> tuple[str, ...]:
    """The extensions a device must offer for type ``t`` (spec 6.1.1, 6.13.11.6)."""
    if isinstance(t, ty.Atomic):
        fp64 = ("cl_khr_fp64",) if t.value == ty.DOUBLE else ()
        return fp64 + (_INT64_ATOMICS if t.value.size == 8 else ())
    return ("cl_khr_fp64",) if ty.scalar_of(t) == ty.DOUBLE else ()


def _names(words) -> str:
    words = list(words)
    return words[0] if len(words) == 1 else f"{', '.join(words[:-1])} and {words[-1]}"


def _incomplete(t: ty.Type) -> bool:
    """A struct or union declared but not (yet) defined, as a value's type."""
    return isinstance(t, ty.Record) and not t.defined


def _attr_text(node) -> str:
    from pycparserext.ext_c_generator import OpenCLCGenerator
    return OpenCLCGenerator().visit(node) if isinstance(node, c_ast.Node) else str(node)


class _WriteFinder(c_ast.NodeVisitor):
    """Finds parameters that are written through, or escape where they might be."""

    def __init__(self, module: Module, names: set):
        self.module = module
        self.names = names
        self.written: set = set()

    def _root(self, node):
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

    def _mark(self, node):
        root = self._root(node)
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
