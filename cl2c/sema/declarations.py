"""Declarations, types as written, functions and kernels (spec 6.1-6.8)."""
from __future__ import annotations

from pycparser import c_ast

from .. import builtins as bi
from .. import declarators
from .. import literals
from .. import types as ty
from . import initializers
from .checker import Checker
from .constant_init import first_non_constant, has_static_storage
from .model import FunctionInfo, Param, SemaError, Symbol
from .type_names import alike, incomplete


class Declarations(Checker):
    # ---- program scope -------------------------------------------------------------
    def top_level(self, ext):
        m = self.module
        if isinstance(ext, c_ast.FuncDef):
            self.function(ext)
            m.program_scope.append(("function", ext))
        elif isinstance(ext, c_ast.Typedef):
            if self.typedef(ext):
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

    def storage_classes(self, node) -> None:
        """At most one storage-class specifier (C11 6.7.1; OpenCL C has no
        _Thread_local): ``typedef typedef`` and ``static extern`` are errors."""
        seen: list[str] = []
        for word in node.storage or []:
            if seen:
                what = "duplicate" if word in seen else "cannot combine with previous"
                self.error(f"{what} '{seen[-1] if word not in seen else word}' declaration "
                           f"specifier", node)
            seen.append(word)

    def typedef(self, node: c_ast.Typedef) -> bool:
        """Declare a typedef name; False where it repeats one of a linked unit before
        (its anonymous struct alike): nothing to emit, the name keeps the first type."""
        self.storage_classes(node)
        t, space, const = self.resolve(node.type)
        old = self.scopes[-1].get(node.name)
        if old is not None and old.kind == "typedef" and \
                (old.type, old.space, old.const) != (t, space, const):
            linked = self.linking and len(self.scopes) == 1
            if linked and (old.space, old.const) == (space, const) and alike(old.type, t):
                # units of a link that typedef an anonymous struct alike: one type in
                # the one program, as a tag's alike bodies are (record)
                return False
            # C11 6.7p3: a typedef name may be redefined only as the same type
            self.reporter.error(
                f"typedef redefinition of '{node.name}' with another type (cl2c links "
                f"units as one program, where a typedef names one type: give the units "
                f"one definition)" if linked else
                f"typedef redefinition with different types ('{t}' vs '{old.type}')" +
                (" (each anonymous struct or union is a type of its own)"
                 if str(t) == str(old.type) else ""),
                node.coord)
            self.reporter.note("previous definition is here", old.node.coord)
            return True
        self.declare(Symbol(node.name, t, "typedef", space, const, node))
        return True

    # ---- types of declarators -----------------------------------------------------
    def declaration(self, node: c_ast.Decl, program_scope=False) -> str:
        self.storage_classes(node)
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
        elif "static" in (node.storage or []) and self.cl_std.program_scope_variables \
                and self.func is not None:
            # 2.0: a static variable in a function lives in the program's storage
            space = self._program_scope_space(node, space)
            static_storage = space == "global"
            if space == "constant" and node.init is None:
                self.error(f"variable '{node.name}' in the __constant address space must be "
                           f"initialized", node)
        if space == "local" and not program_scope and self.func is not None:
            # OpenCL C 6.5.2: one per group, so at a kernel's outermost scope only (the
            # C had made it a private variable, each work-item its own)
            # (reported, and declared all the same: its uses add no errors)
            if "static" in (node.storage or []):      # (clang's words; fuzzer seed 7705)
                self.reporter.error("variables in function scope cannot be declared static",
                                    node.coord)
            elif not self.func.is_kernel:
                self.reporter.error("non-kernel function variable cannot be declared in "
                                    "local address space", node.coord)
            elif len(self.scopes) > 2:
                self.reporter.error("variables in the local address space can only be "
                                    "declared in the outermost scope of a kernel function",
                                    node.coord)
        self.variable_alignment(node, t, space)
        if program_scope:
            self._program_redeclaration(node, t, space)
        if t == ty.VOID or incomplete(t) and "extern" not in (node.storage or []):
            # (C: an extern declaration may name an incomplete type, 6.7p7)
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
            if space == "local":
                self.error(f"'__local' variable '{node.name}' cannot have an initializer "
                           f"(OpenCL C 6.5.2)", node.init)
            if isinstance(node.init, c_ast.InitList):
                node.init = self.init_list(node.init, t)
            else:
                value = self.rvalue(node.init)
                if value == ty.VOID:
                    self.error(f"initializing '{t}' with an expression of incompatible type "
                               f"'void'", node.init)
                self.check_pointer_conversion(t, value, node.init, node.init, "initializing")
                # (a sampler_t from its CLK_* flags, an event_t from 0: clang's too)
                flags = self.const_int(node.init) if value.is_integer else None
                if self.incompatible(t, value) and not (
                        t == ty.SAMPLER_T and flags is not None or
                        t == ty.EVENT_T and flags == 0):
                    self.error(f"initializing '{t}' with an expression of incompatible type "
                               f"'{value}'", node.init)
            sym = self.lookup(node.name)
            bad = first_non_constant(node.init, self.const_int) \
                if has_static_storage(sym) else None
            if bad is not None:
                self.error("initializer element is not a compile-time constant", bad)
            if isinstance(t, ty.Array) and t.length is None:
                length = self._initialized_length(node.init, t)
                t = ty.Array(t.elem, length)
                node.ty, node.space = t, space
                if length is not None:      # the C declaration says it too: a program
                    node.type.dim = c_ast.Constant("int", str(length))  # variable's field
                self.scopes[-1][node.name] = Symbol(node.name, t, "var", space, const, node,
                                                    c_name=home, program=static_storage)
        elif isinstance(t, ty.Array) and t.length is None and \
                "extern" not in (node.storage or []):
            self.error(f"definition of variable '{node.name}' with array type needs an "
                       f"explicit size or an initializer", node)
        return "variable"

    def _program_redeclaration(self, node: c_ast.Decl, t: ty.Type, space: str) -> None:
        """A program-scope variable declared again (C11 6.9.2): the same type, and at most
        one initializer; declarations without one are tentative definitions, which the
        one definition (or the first of them) stands for, as an extern declaration
        does. A __constant variable must be initialized (OpenCL C 6.5.3)."""
        extern = "extern" in (node.storage or [])
        if space == "constant" and node.init is None and not extern:
            self.error(f"variable '{node.name}' in the __constant address space must be "
                       f"initialized", node)
        old = self.scopes[0].get(node.name)
        if old is None or old.kind != "var" or extern or \
                "extern" in (old.node.storage or []):
            return
        if not alike(old.type, t) or old.space != space:
            self.reporter.error(f"redefinition of '{node.name}' with a different type: "
                                f"'{t}' vs '{old.type}'", node.coord)
        elif old.node.init is not None and node.init is not None:
            self.reporter.error(f"redefinition of '{node.name}'", node.coord)
        else:
            tentative = node if node.init is None else old.node
            tentative.storage = list(tentative.storage or []) + ["extern"]
            return
        self.reporter.note("previous definition is here", old.node.coord)

    def _initialized_length(self, init, t: ty.Array) -> int | None:
        """The length an initializer gives an array declared without one (C11 6.7.9):
        a string's characters and its NUL, or the last element a fully braced
        initializer reaches."""
        if isinstance(init, c_ast.InitList) and initializers.is_braced_string(init, t):
            init = init.exprs[0]            # char s[] = {"text"}
        if initializers.is_string(init):
            return literals.string_length(init.value) + 1
        if not isinstance(init, c_ast.InitList):
            return None
        return initializers.braced_length(init, t)

    def _program_scope_space(self, node: c_ast.Decl, space: str) -> str:
        """The address space of a program-scope variable: __constant, or from OpenCL C
        2.0 on also __global, which is the default there (spec 6.5)."""
        if not self.cl_std.program_scope_variables:
            if space != "constant" and "static" not in (node.storage or []):
                self.error(f"program scope variable '{node.name}' must be declared in the "
                           f"__constant address space", node)
            return space
        own = declarators.inner(node.type, through=(c_ast.ArrayDecl,))
        if space == "private" and not self._explicit_space(own):
            return "global"
        if space not in ("global", "constant"):
            self.error(f"program scope variable '{node.name}' must be declared in the "
                       f"__global or __constant address space", node)
        return space

    def init_list(self, node: c_ast.InitList, t: ty.Type) -> c_ast.InitList:
        """``node`` fully braced (sema/initializers.py), each item checked against the
        place it initializes."""
        self._type_items(node)
        braced = initializers.fully_braced(self, node, t, lambda e: e.ty)
        self._check_items(braced, t)
        return braced

    def _type_items(self, node: c_ast.InitList):
        for e in node.exprs:
            if isinstance(e, c_ast.NamedInitializer):
                e = e.expr
            if isinstance(e, c_ast.InitList):
                self._type_items(e)
            else:
                self.expr(e)

    def _check_items(self, node: c_ast.InitList, t: ty.Type):
        node.ty = t
        if initializers.is_braced_string(node, t) or t.is_vector:
            return                  # (a vector's items: initializers.vector_list)
        for _, value, target in initializers.items(node, t):
            if isinstance(value, c_ast.InitList):
                self._check_items(value, target)
            elif (target.is_scalar or target.is_vector) and \
                    self.incompatible(target, value.ty):
                self.error(f"initializing '{target}' with an expression of incompatible "
                           f"type '{value.ty}'", value)

    # ---- functions -----------------------------------------------------------------
    def function(self, node: c_ast.FuncDef):
        decl = node.decl
        if not isinstance(decl.type, c_ast.FuncDecl):   # 'void f { ... }'
            self.error(f"expected '(' after the name of function '{decl.name}'", decl)
        if node.param_decls:        # 'f(int a) int b; { ... }': K&R's declaration list
            self.error(f"declarations between the parameters and the body of function "
                       f"'{decl.name}' (old-style C's parameter declarations) are not "
                       f"OpenCL C", node.param_decls[0])
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
        if is_kernel and "static" in (decl.storage or []):
            self.error("kernel functions cannot be declared static", decl)
        if isinstance(ftype.ret, ty.RUNTIME_OBJECTS):
            self.error(f"declaring function return value of type '{ftype.ret}' is not "
                       f"allowed", decl)
        attributes, attribute_text = self.kernel_attributes(decl) if is_kernel else ({}, "")
        info = FunctionInfo(name, node, ftype, [], is_kernel, attributes,
                            attribute_text=attribute_text)
        self.module.functions[name] = info
        self.func = info
        self.push()
        try:
            params = decl.type.args.params if decl.type.args else []
            for p in params:
                if isinstance(p, c_ast.EllipsisParam):
                    self.error("variadic functions are not allowed in OpenCL C", p)
                storage = ["typedef"] if isinstance(p, c_ast.Typedef) else \
                    [w for w in getattr(p, "storage", None) or [] if w != "register"]
                if storage:
                    self.error(f"invalid storage class specifier '{storage[0]}' in a "
                               f"function's parameter", p)
                pt, space, const = self.resolve_parameter(p.type)
                if pt == ty.VOID:
                    continue
                if not p.name:
                    self.error(f"parameter of type '{pt}': its name is omitted (a function "
                               f"definition names its parameters)", p)
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
                problem = _kernel_parameter_problem(pt) if is_kernel else None
                if problem:     # (reported, and declared all the same)
                    self.reporter.error(problem, p.coord)
                if is_kernel and p.name == name:
                    # the generated C calls the kernel's function where its parameters
                    # are in scope (templates/schedule_*.c.j2)
                    self.error(f"parameter '{p.name}' has the name of its kernel: cl2c "
                               f"needs the kernel's name in scope; rename the parameter", p)
                info.params.append(Param(p.name, pt, pspace, pconst, self._type_name(pt),
                                         coord=p.coord))
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


# Types whose size or meaning the host cannot share with the device (OpenCL C 6.9 (k)).
_NOT_KERNEL_PARAMETERS = (ty.BOOL, ty.SIZE_T, ty.PTRDIFF_T, ty.INTPTR_T, ty.UINTPTR_T,
                          ty.EVENT_T)


def _kernel_parameter_problem(t: ty.Type) -> str | None:
    """What OpenCL C 6.9 (a, k) says against a kernel parameter of type ``t``, as clang
    words it: bool, size_t and the like, event_t, or a struct that holds one or a
    pointer."""
    def holds(u, what) -> bool:
        while isinstance(u, ty.Array):
            u = u.elem
        if isinstance(u, ty.Record):
            return any(holds(f, what) for _, f in u.fields)
        return what(u)
    if isinstance(t, ty.Record) and holds(t, lambda u: isinstance(u, ty.Pointer)):
        return "struct kernel parameters may not contain pointers"
    if holds(t, lambda u: u in _NOT_KERNEL_PARAMETERS):
        return f"'{t}' cannot be used as the type of a kernel parameter"
    return None
