"""Stage 3: semantic analysis.

Walks the AST once, resolves every name, and gives every expression a type
from :mod:`cl2c.types`. The result, a :class:`Module`, is what lowering reads:
the types of expressions (keyed by node identity; pycparser nodes have
slots), resolved calls, vector component selections, and per-function facts
(work-item builtins used, callees, parameters read and written).
"""
from __future__ import annotations

import copy
import re
from dataclasses import dataclass, field

from pycparser import c_ast

from . import builtins as bi
from . import printf_format
from . import types as ty
from .diagnostics import Reporter

SPACE_QUALIFIERS = {
    "__global": "global", "global": "global", "__local": "local", "local": "local",
    "__constant": "constant", "constant": "constant", "__private": "private",
    "private": "private", "__generic": "generic", "generic": "generic",
}
ACCESS_QUALIFIERS = {"__read_only", "read_only", "__write_only", "write_only",
                     "__read_write", "read_write"}

_COMPONENTS_XYZW = "xyzw"
_HEX = "0123456789abcdef"


class SemaError(Exception):
    def __init__(self, message, coord):
        super().__init__(message)
        self.coord = coord


@dataclass
class Symbol:
    name: str
    type: ty.Type
    kind: str                      # var, param, func, enum, const, typedef
    space: str = "private"
    const: bool = False
    node: object = None
    c_name: str | None = None      # for builtin constants


@dataclass
class Param:
    name: str
    type: ty.Type
    space: str                     # address space of the pointee for pointers
    const: bool                    # pointee (or value) const-qualified
    type_name: str                 # as written, e.g. "float4*"
    written: bool = True           # the kernel may write through it
    read: bool = True


@dataclass
class FunctionInfo:
    name: str
    node: c_ast.FuncDef
    type: ty.Function
    params: list[Param]
    is_kernel: bool = False
    attributes: dict = field(default_factory=dict)
    workitem: bool = False         # uses work-item functions, directly or through calls
    callees: set = field(default_factory=set)
    used_params: set = field(default_factory=set)
    builtins: set = field(default_factory=set)     # names of the builtins it calls
    sync: bool = False             # reaches a barrier, directly or through calls


@dataclass
class Call:
    kind: str                      # "builtin" or "function"
    name: str
    row: bi.Builtin | None = None
    generic: ty.Type | None = None
    arg_types: tuple = ()
    value: int | None = None       # the constant a vec_step call folds to
    width: int | None = None       # the second width n of a row with one (shuffle)
    conversions: tuple = ()        # printf: the conversion of each argument after the format


@dataclass
class Module:
    ast: c_ast.FileAST
    types: dict = field(default_factory=dict)          # id(expr) -> Type
    calls: dict = field(default_factory=dict)          # id(FuncCall) -> Call
    components: dict = field(default_factory=dict)     # id(StructRef) -> [indices]
    symbols: dict = field(default_factory=dict)        # id(ID) -> Symbol
    decl_types: dict = field(default_factory=dict)     # id(Decl) -> (Type, space)
    functions: dict = field(default_factory=dict)      # name -> FunctionInfo
    program_scope: list = field(default_factory=list)  # (kind, node)
    records: dict = field(default_factory=dict)        # id(Struct/Union) -> Record
    nodes: list = field(default_factory=list)          # keeps typed nodes alive
    extensions: set = field(default_factory=set)
    uses_fp16: bool = False        # half was checked as arithmetic: the C needs _Float16

    @property
    def kernels(self) -> list[FunctionInfo]:
        return [f for f in self.functions.values() if f.is_kernel]

    def type_of(self, node) -> ty.Type:
        return self.types[id(node)]


def components_of(name: str, n: int) -> list[int] | None:
    """Indices a swizzle selects from an n-vector, or None if it is not one."""
    if name in ("lo", "hi", "even", "odd"):
        half = (n + 1) // 2 if n != 3 else 2
        if name == "lo":
            return list(range(half))
        if name == "hi":
            return list(range(half, 2 * half)) if n != 3 else [2, 3]
        return list(range(0 if name == "even" else 1, 2 * half, 2))
    if name[:1] in ("s", "S") and len(name) > 1:
        try:
            idx = [_HEX.index(c.lower()) for c in name[1:]]
        except ValueError:
            return None
        return idx if all(i < n for i in idx) else None
    if all(c in _COMPONENTS_XYZW for c in name):
        idx = [_COMPONENTS_XYZW.index(c) for c in name]
        return idx if all(i < n for i in idx) and n <= 4 else None
    return None


# The integer type of a size in bytes and a signedness.
_INTEGER_OF = {(t.size, t.signed): t for t in (ty.CHAR, ty.UCHAR, ty.SHORT, ty.USHORT, ty.INT,
                                               ty.UINT, ty.LONG, ty.ULONG)}
_INT_SUFFIX = re.compile(r"[uUlL]*$")
# Element types of convert_ and as_ (spec 6.2.3, 6.2.4): not bool or the size types, and
# half only under cl_khr_fp16 (Analyzer._convertible).
_CONVERTIBLE = (ty.CHAR, ty.UCHAR, ty.SHORT, ty.USHORT, ty.INT, ty.UINT, ty.LONG, ty.ULONG,
                ty.FLOAT, ty.DOUBLE)


def constant_type(node: c_ast.Constant) -> ty.Type:
    v = node.value
    if node.type == "char":
        return ty.INT
    if node.type == "string":
        return ty.Pointer(ty.CHAR, "constant", const=True)
    if node.type in ("float", "double", "long double") or (
            not v.lower().startswith("0x") and any(c in v for c in ".eE")) or (
            v.lower().startswith("0x") and "p" in v.lower()):
        if v[-1] in "fF":
            return ty.FLOAT
        if v[-1] in "hH":
            return ty.HALF
        return ty.DOUBLE
    suffix = _INT_SUFFIX.search(v).group().lower()
    digits = v[: len(v) - len(suffix)]
    value = int(digits, 0) if not (len(digits) > 1 and digits[0] == "0" and
                                   digits[1] not in "xXbB") else int(digits, 8)
    decimal = not digits.lower().startswith("0")
    unsigned = "u" in suffix
    long_ = "l" in suffix
    if not long_:
        if not unsigned and value < 2 ** 31:
            return ty.INT
        if (unsigned or not decimal) and value < 2 ** 32:
            return ty.UINT
    if not unsigned and value < 2 ** 63:
        return ty.LONG
    return ty.ULONG


class Analyzer(c_ast.NodeVisitor):
    def __init__(self, reporter: Reporter, cl_std: int = 120):
        self.reporter = reporter
        self.cl_std = cl_std
        self.scopes: list[dict[str, Symbol]] = [{}]
        self.tags: list[dict[str, ty.Type]] = [{}]
        self.module: Module | None = None
        self.func: FunctionInfo | None = None

    # ---- entry --------------------------------------------------------------
    def analyze(self, ast: c_ast.FileAST) -> Module:
        self.module = Module(ast)
        for ext in ast.ext:
            try:
                self.top_level(ext)
            except SemaError as e:
                self.reporter.error(str(e), e.coord)
        self._propagate_workitem()
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
        from .preprocess import EXTENSIONS
        words = node.string.replace(":", " : ").split()
        if words[:2] != ["OPENCL", "EXTENSION"]:
            return
        if len(words) != 5 or words[3] != ":" or words[4] not in ("enable", "disable"):
            self.reporter.warning("expected '#pragma OPENCL EXTENSION <name> : enable' or "
                                  "'disable'; pragma ignored", node.coord)
            return
        name = words[2]
        if name != "all" and name not in EXTENSIONS:
            self.reporter.warning(f"unsupported OpenCL extension '{name}'; pragma ignored",
                                  node.coord)
            return
        if words[4] == "enable":
            self.module.extensions.add(name)
        else:
            self.module.extensions.discard(name)

    @property
    def fp16(self) -> bool:
        """Whether half is an arithmetic type here: cl_khr_fp16 is enabled (spec 9.4)."""
        from .preprocess import EXTENSIONS
        on = "cl_khr_fp16" in EXTENSIONS and \
            bool({"cl_khr_fp16", "all"} & self.module.extensions)
        self.module.uses_fp16 |= on
        return on

    def typedef(self, node: c_ast.Typedef):
        t, space, const = self.resolve(node.type)
        self.declare(Symbol(node.name, t, "typedef", space, const, node))

    # ---- types of declarators -----------------------------------------------------
    def resolve(self, node) -> tuple[ty.Type, str, bool]:
        """(type, address space, const) of a declarator chain."""
        if isinstance(node, c_ast.TypeDecl):
            base, space, const = self.base_type(node.type)
            quals = node.quals or []
            for q in quals:
                if q in SPACE_QUALIFIERS:
                    space = SPACE_QUALIFIERS[q]
                elif q == "const":
                    const = True
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
                return t, "private", False
            if len(names) == 1:
                t = ty.named_type(names[0])
                if t is not None:
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

    def record(self, node, attributes: str = "") -> ty.Record:
        """The Record of a struct or union specifier; ``attributes`` are those written
        after its closing brace (``struct S {...} __attribute__((packed));``)."""
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
                ft, _, _ = self.resolve(d.type)
                fields.append((d.name, ft))
                self.module.decl_types[id(d)] = (ft, "private")
            rec.fields[:] = fields
            attrs = self._attribute_text(node) + " " + attributes
            object.__setattr__(rec, "packed", "packed" in attrs)
            m = re.search(r"aligned\s*\(\s*(\d+)\s*\)", attrs)
            if m:
                object.__setattr__(rec, "align_attr", int(m.group(1)))
            # Lowering writes the attributes into the C definition (the layout is the
            # C compiler's): keep the record of each definition.
            self.module.records[id(node)] = rec
        return rec

    def _attribute_text(self, node) -> str:
        parts = []
        for attr_holder in ("attrs", "attributes", "attrib"):
            a = getattr(node, attr_holder, None)
            if a:
                parts.append(_attr_text(a))
        return " ".join(parts)

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
                attrs = " ".join(_attr_text(f) for f in node.funcspec or []
                                 if isinstance(f, c_ast.Node))
                self.record(node.type, attrs)
            elif isinstance(node.type, c_ast.Enum):
                self.base_type(node.type)
            return "tag"
        t, space, const = self.resolve(node.type)
        if t.is_function:
            self.declare(Symbol(node.name, t, "func", node=node))
            return "prototype"
        if program_scope:
            if space not in ("constant",) and "static" not in (node.storage or []):
                if space == "global" and self.cl_std >= 200:
                    pass
                else:
                    self.error(f"program scope variable '{node.name}' must be declared in the "
                               f"__constant address space", node)
            if space == "constant" and node.init is None:
                self.error(f"variable '{node.name}' in the __constant address space must be "
                           f"initialized", node)
        if t == ty.VOID:
            self.error(f"variable '{node.name}' has incomplete type 'void'", node)
        if ty.HALF in (t, ty.scalar_of(t), getattr(t, "elem", None)) and not self.fp16:
            self.error(f"variable '{node.name}' of type '{t}': half is a storage type "
                       f"(only pointers to it) unless cl_khr_fp16 is enabled", node)
        # In scope from its own initializer on (C99 6.2.1), and still declared if the
        # initializer has an error, so that one mistake is reported once.
        self.declare(Symbol(node.name, t, "var", space, const, node), node)
        self.module.decl_types[id(node)] = (t, space)
        if node.init is not None:
            if isinstance(node.init, c_ast.InitList):
                self.init_list(node.init, t)
            else:
                value = self.rvalue(node.init)
                self.check_pointer_conversion(t, value, node.init, node.init, "initializing")
            if isinstance(t, ty.Array) and t.length is None:
                length = len(node.init.exprs) if isinstance(node.init, c_ast.InitList) else None
                if isinstance(node.init, c_ast.Constant) and node.init.type == "string":
                    length = len(eval(node.init.value)) + 1
                t = ty.Array(t.elem, length)
                self.module.decl_types[id(node)] = (t, space)
                self.scopes[-1][node.name] = Symbol(node.name, t, "var", space, const, node)
        return "variable"

    def init_list(self, node: c_ast.InitList, t: ty.Type):
        for i, e in enumerate(node.exprs):
            target = ty.initializer_target(t, i)
            if isinstance(e, c_ast.NamedInitializer):
                e = e.expr
            if isinstance(e, c_ast.InitList):
                self.init_list(e, target)
            else:
                self.expr(e)
        self.module.types[id(node)] = t

    # ---- functions -----------------------------------------------------------------
    def function(self, node: c_ast.FuncDef):
        decl = node.decl
        funcspec = [f for f in (decl.funcspec or []) if isinstance(f, str)]
        is_kernel = any(f in ("__kernel", "kernel") for f in funcspec)
        ftype, _, _ = self.resolve(decl.type)
        name = decl.name
        if name in self.module.functions:
            self.error(f"redefinition of '{name}'", decl)
        if name in bi.BY_NAME or name == "printf":
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
                self.module.decl_types[id(p)] = (pt, space)
                info.params.append(Param(p.name, pt, pspace, pconst, self._type_name(pt)))
                self.declare(Symbol(p.name, pt, "param", space, const, p))
            self.statement(node.body, new_scope=False)
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
            for item in node.block_items or []:
                try:
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
            self.statement(node.stmt)
        finally:
            self.pop()

    def stmt_While(self, node):
        self.condition(node.cond)
        self.statement(node.stmt)

    def stmt_DoWhile(self, node):
        self.statement(node.stmt)
        self.condition(node.cond)

    def stmt_Switch(self, node):
        t = self.expr(node.cond)
        if not t.is_integer or t.is_vector:
            self.error("statement requires expression of integer type", node.cond)
        self.statement(node.stmt)

    def stmt_Case(self, node):
        if self.const_int(node.expr) is None:
            self.error("case value is not an integer constant expression", node.expr)
        for s in node.stmts or []:
            self.statement(s)

    def stmt_Default(self, node):
        for s in node.stmts or []:
            self.statement(s)

    def stmt_Label(self, node):
        self.statement(node.stmt)

    def stmt_Goto(self, node):
        self.error("'goto' is not supported yet", node)

    def stmt_Return(self, node):
        if node.expr is not None:
            self.expr(node.expr)

    def stmt_Break(self, node):
        pass

    stmt_Continue = stmt_EmptyStatement = stmt_Pragma = stmt_StaticAssert = stmt_Break

    def condition(self, node):
        t = self.expr(node)
        if not (t.is_scalar or t.is_pointer) or t.is_void:
            self.error(f"statement requires expression of scalar type ('{t}' invalid)", node)

    # ---- expressions -------------------------------------------------------------------
    def expr(self, node) -> ty.Type:
        method = getattr(self, "expr_" + type(node).__name__, None)
        if method is None:
            self.error(f"unsupported expression {type(node).__name__}", node)
        t = method(node)
        self.module.types[id(node)] = t
        self.module.nodes.append(node)
        return t

    def rvalue(self, node) -> ty.Type:
        """The type of an expression after array-to-pointer decay."""
        t = self.expr(node)
        if isinstance(t, ty.Array):
            sym = self._base_symbol(node)
            space = sym.space if sym else "private"
            return ty.Pointer(t.elem, space, sym.const if sym else False)
        return t

    def _base_symbol(self, node) -> Symbol | None:
        while isinstance(node, (c_ast.ArrayRef, c_ast.StructRef)):
            node = node.name
        if isinstance(node, c_ast.ID):
            return self.module.symbols.get(id(node))
        return None

    def expr_Constant(self, node):
        return constant_type(node)

    def expr_ID(self, node):
        sym = self.lookup(node.name)
        if sym is None:
            if node.name in bi.CONSTANTS:
                t, c_name = bi.CONSTANTS[node.name]
                sym = Symbol(node.name, t, "const", c_name=c_name)
            elif node.name in bi.BY_NAME or node.name in bi.NOT_YET or node.name == "printf":
                self.error(f"built-in function '{node.name}' used as a value", node)
            else:
                self.error(f"use of undeclared identifier '{node.name}'", node)
        if sym.kind == "typedef":
            self.error(f"unexpected type name '{node.name}': expected expression", node)
        self.module.symbols[id(node)] = sym
        if sym.kind == "param" and self.func is not None:
            self.func.used_params.add(sym.name)
        return sym.type

    def expr_ArrayRef(self, node):
        base = self.rvalue(node.name)
        index = self.rvalue(node.subscript)
        if isinstance(index, ty.Pointer) and not isinstance(base, ty.Pointer):
            base, index = index, base
        if not isinstance(base, ty.Pointer):
            if isinstance(base, ty.Vector):
                self.error("subscripted value is a vector: use .sN or .xyzw", node)
            self.error("subscripted value is not an array or pointer", node)
        if not index.is_integer or index.is_vector:
            self.error("array subscript is not an integer", node.subscript)
        self._check_not_half(base.pointee, node)
        return base.pointee

    def _check_not_half(self, t, node):
        """Without cl_khr_fp16, half values are read and written only through
        vload_half and vstore_half (spec 6.1.1.1)."""
        if ty.scalar_of(t) == ty.HALF and not self.fp16:
            self.error(f"loading or storing '{t}' directly needs '#pragma OPENCL EXTENSION "
                       f"cl_khr_fp16 : enable' (or use vload_half / vstore_half)", node)

    def expr_StructRef(self, node):
        base = self.rvalue(node.name)
        field_name = node.field.name
        if node.type == "->":
            if not isinstance(base, ty.Pointer):
                self.error(f"member reference type '{base}' is not a pointer", node)
            base = base.pointee
        if isinstance(base, ty.Vector):
            idx = components_of(field_name, base.n)
            if idx is None or (field_name[0] in "xyzw" and not all(c in "xyzw" for c in
                                                                    field_name)):
                self.error(f"vector component access '.{field_name}' is invalid for "
                           f"'{base}'", node.field)
            if len(idx) not in (1, 2, 3, 4, 8, 16):
                self.error(f"vector component access '.{field_name}' selects {len(idx)} "
                           f"components", node.field)
            self.module.components[id(node)] = idx
            return ty.vector_of(base.elem, len(idx))
        if not isinstance(base, ty.Record):
            self.error(f"member reference base type '{base}' is not a structure or union", node)
        ft = base.field_type(field_name)
        if ft is None:
            self.error(f"no member named '{field_name}' in '{base}'", node.field)
        return ft

    def expr_FuncCall(self, node):
        if not isinstance(node.name, c_ast.ID):
            self.error("calls through function pointers are not allowed in OpenCL C", node)
        name = node.name.name
        args = node.args.exprs if node.args else []
        sym = self.lookup(name)
        if name == "vec_step" and sym is None:
            return self.vec_step(node, args)
        arg_types = [self.rvalue(a) for a in args]
        if name == "printf" and sym is None:
            return self.printf(node, args, arg_types)
        if sym is not None and sym.kind == "func":
            ftype = sym.type
            if len(args) != len(ftype.params):
                self.error(f"function '{name}' takes {len(ftype.params)} argument(s), "
                           f"{len(args)} given", node)
            for a, at, pt in zip(args, arg_types, ftype.params):
                self.check_pointer_conversion(pt, at, a, a, f"passing to '{name}'")
            self.module.calls[id(node)] = Call("function", name, arg_types=tuple(arg_types))
            if self.func is not None:
                self.func.callees.add(name)
            return ftype.ret
        if name in bi.NOT_YET:
            self.error(bi.NOT_YET[name], node)
        if name.startswith(("convert_", "as_", "vload", "vstore")):
            return self.conversion_call(node, name, args, arg_types)
        rows = bi.BY_NAME.get(name)
        if rows is None:
            self.error(f"implicit declaration of function '{name}' is invalid in OpenCL", node)
        for row in rows:
            result = self.match(row, arg_types)
            if result is not None:
                ret, generic, n = result
                self.module.calls[id(node)] = Call("builtin", name, row, generic,
                                                   tuple(arg_types), width=n)
                if row.name.startswith("work_group_") and self.cl_std < 200:
                    self.error(f"{name}() is an OpenCL C 2.0 function: build with "
                               f"-cl-std=CL2.0", node)
                if self.func is not None:
                    self.func.builtins.add(name)
                    self.func.workitem |= row.workitem
                    self.func.sync |= row.sync
                return ret
        shown = ", ".join(str(t) for t in arg_types)
        self.error(f"no matching function for call to '{name}({shown})'", node)

    def vec_step(self, node, args):
        """vec_step(x) and vec_step(type) (spec 6.12.13): the number of components, 4 for
        a 3-vector, 1 for a scalar; an int constant. The operand is not evaluated."""
        if len(args) == 1 and isinstance(args[0], c_ast.Typename):
            t, _, _ = self.resolve(args[0])
            self.module.types[id(args[0])] = t
            arg_types = [t]
        else:
            arg_types = [self.rvalue(a) for a in args]
        t = arg_types[0] if len(arg_types) == 1 else None
        if t is None or not (t.is_vector or t.is_arithmetic) or t.is_void:
            self.error(f"vec_step takes a scalar or vector operand, not "
                       f"'{', '.join(map(str, arg_types))}'", node)
        n = 1 if t.is_scalar else (4 if t.n == 3 else t.n)
        self.module.calls[id(node)] = Call("vec_step", "vec_step", None, None,
                                           tuple(arg_types), n)
        return ty.INT

    def printf(self, node, args, arg_types):
        """printf (spec 6.12.13): the format, a string literal, is checked against the
        arguments here; each argument is then known to suit its conversion."""
        fmt = args[0] if args else None
        if not (isinstance(fmt, c_ast.Constant) and fmt.type == "string"):
            self.error("the format of printf must be a string literal (OpenCL C 6.12.13: it "
                       "is resolved at compile time)", fmt if fmt is not None else node)
        text, offsets = printf_format.decode_literal(fmt.value)
        try:
            conversions = printf_format.parse(text)
        except printf_format.FormatError as e:
            raise SemaError(f"invalid printf format: {e}",
                            self._inside_literal(fmt, offsets[e.offset])) from None
        rest = args[1:]
        if len(rest) < len(conversions):
            c = conversions[len(rest)]
            self.error(f"printf: '{c.text}' has no argument ({len(conversions)} conversion(s), "
                       f"{len(rest)} argument(s) after the format)", node)
        for i, (c, a, at) in enumerate(zip(conversions, rest, arg_types[1:])):
            literal = isinstance(a, c_ast.Constant) and a.type == "string"
            problem = printf_format.check_argument(c, at, literal)
            if problem is None:
                continue
            severity, message = problem
            message = f"printf argument {i + 2}: {message}"
            if severity == "error":
                self.error(message, a)
            else:
                self.reporter.warning(message, a.coord)
        if len(rest) > len(conversions):
            # evaluated and ignored (spec), as C compilers warn
            self.reporter.warning("printf: more arguments than the format has conversions",
                                  rest[len(conversions)].coord)
        self.module.calls[id(node)] = Call("printf", "printf", None, None, tuple(arg_types),
                                           conversions=tuple(conversions))
        if self.func is not None:
            self.func.builtins.add("printf")
        return ty.INT

    def _inside_literal(self, node: c_ast.Constant, offset: int):
        """The position of character ``offset`` of string literal ``node``, where the
        source line holds the literal as parsed (not concatenated, not from a macro);
        else the literal's own."""
        coord = node.coord
        line = self.reporter.sources.line(coord.file, coord.line) if coord else None
        col = (coord.column or 0) - 1 if coord else -1
        if line is None or col < 0 or line[col:col + len(node.value)] != node.value:
            return coord
        at = copy.copy(coord)
        at.column = coord.column + offset
        return at

    def conversion_call(self, node, name, args, arg_types):
        m = re.fullmatch(r"convert_([a-z]+\d*)(_sat)?(_rte|_rtz|_rtp|_rtn)?", name)
        if m:
            # Spec 6.2.3: between char..double scalars and vectors of the same width;
            # _sat only into integer types.
            target = ty.named_type(m.group(1))
            if target is None or ty.scalar_of(target) not in self._convertible():
                self.error(f"implicit declaration of function '{name}' is invalid in OpenCL "
                           f"(convert_ takes char ... double and their vectors)", node)
            if m.group(2) and ty.scalar_of(target).is_float:
                self.error(f"'{name}': _sat does not apply to conversions to floating-point "
                           f"types", node)
            src = arg_types[0] if len(args) == 1 else None
            if src is None or not (src.is_vector or src.is_arithmetic) or \
                    ty.scalar_of(src) == ty.BOOL or \
                    ty.scalar_of(src) == ty.HALF and not self.fp16 or \
                    ty.width(target) != ty.width(src):
                shown = ", ".join(str(t) for t in arg_types)
                self.error(f"no matching function for call to '{name}({shown})'", node)
            self.module.calls[id(node)] = Call("convert", name, None, target,
                                               tuple(arg_types))
            return target
        m = re.fullmatch(r"as_([a-z]+\d*)", name)
        if m:
            # Spec 6.2.4.2: any scalar or vector type but bool, half (without cl_khr_fp16)
            # and void, into one of the same size.
            target = ty.named_type(m.group(1))
            if target is None or ty.scalar_of(target) not in self._convertible():
                self.error(f"implicit declaration of function '{name}' is invalid in OpenCL",
                           node)
            src = arg_types[0] if len(args) == 1 else None
            if src is None or not (src.is_vector or src.is_arithmetic) or \
                    ty.scalar_of(src) == ty.BOOL or \
                    ty.scalar_of(src) == ty.HALF and not self.fp16 or \
                    ty.type_size(target) != ty.type_size(src):
                self.error(f"invalid reinterpretation: '{name}' needs an operand of "
                           f"{ty.type_size(target)} bytes, not '{src}'", node)
            self.module.calls[id(node)] = Call("as", name, None, target, tuple(arg_types))
            return target
        m = re.fullmatch(r"v(load|store)(a?)_half(\d*)(_rte|_rtz|_rtp|_rtn)?", name)
        if m:
            return self.half_load_store(node, name, m, arg_types)
        m = re.fullmatch(r"vload(\d+)", name)
        if m and len(args) == 2 and isinstance(arg_types[1], ty.Pointer):
            n = int(m.group(1))
            elem = arg_types[1].pointee
            if n not in ty.VECTOR_WIDTHS or elem not in ty.VECTOR_ELEMENTS or \
                    not self._is_offset(arg_types[0]):
                self.error(f"no matching function for call to '{name}({arg_types[0]}, "
                           f"{arg_types[1]})'", node)
            self._check_not_half(elem, node)
            t = ty.Vector(elem, n)
            self.module.calls[id(node)] = Call("vload", name, None, t, tuple(arg_types))
            return t
        m = re.fullmatch(r"vstore(\d+)", name)
        if m and len(args) == 3 and isinstance(arg_types[2], ty.Pointer):
            data, ptr = arg_types[0], arg_types[2]
            if data != ty.Vector(ptr.pointee, int(m.group(1))) or \
                    not self._is_offset(arg_types[1]):
                self.error(f"no matching function for call to '{name}({data}, "
                           f"{arg_types[1]}, {ptr})'", node)
            self._check_not_half(ptr.pointee, node)
            self._check_store_pointer(node, name, ptr)
            self.module.calls[id(node)] = Call("vstore", name, None, arg_types[0],
                                               tuple(arg_types))
            return ty.VOID
        self.error(f"'{name}' is not supported yet", node)

    def _convertible(self) -> tuple:
        return _CONVERTIBLE + ((ty.HALF,) if self.fp16 else ())

    @staticmethod
    def _is_offset(t) -> bool:
        return t.is_integer and t.is_scalar

    def _check_store_pointer(self, node, name, ptr: ty.Pointer):
        if ptr.space == "constant":
            self.error(f"'{name}' cannot store to the __constant address space", node)
        if ptr.const:
            self.error(f"'{name}' cannot store through a pointer to const", node)

    def half_load_store(self, node, name, m, arg_types):
        """vload_half[n], vloada_half[n], vstore_half[n][_rtX] and vstorea_half[n][_rtX]
        (spec 6.12.7): half as a storage type, converted to and from float or double."""
        store, n = m.group(1) == "store", int(m.group(3) or 1)
        if n not in (1,) + ty.VECTOR_WIDTHS or (m.group(4) and not store):
            self.error(f"implicit declaration of function '{name}' is invalid in OpenCL",
                       node)
        shown = ", ".join(str(t) for t in arg_types)
        ptr = arg_types[-1] if arg_types else None
        if len(arg_types) != (3 if store else 2) or not isinstance(ptr, ty.Pointer) or \
                ptr.pointee != ty.HALF or not self._is_offset(arg_types[-2]):
            self.error(f"no matching function for call to '{name}({shown})'", node)
        if not store:
            result = ty.vector_of(ty.FLOAT, n)
            self.module.calls[id(node)] = Call("vload_half", name, None, result,
                                               tuple(arg_types))
            return result
        data = arg_types[0]
        if ty.width(data) != n or ty.scalar_of(data) not in (ty.FLOAT, ty.DOUBLE):
            self.error(f"no matching function for call to '{name}({shown})': the data must "
                       f"be float{n if n > 1 else ''} or double{n if n > 1 else ''}", node)
        self._check_store_pointer(node, name, ptr)
        self.module.calls[id(node)] = Call("vstore_half", name, None, data, tuple(arg_types))
        return ty.VOID

    def match(self, row: bi.Builtin, args: list[ty.Type]):
        """(result type, generic type, second width n or None) if ``args`` fit ``row``,
        else None."""
        if len(args) != len(row.params):
            return None
        family = bi.FAMILIES[row.family]
        generic = None
        for pat, at in zip(row.params, args):
            if pat == "T" and at in family:
                generic = at
                break
            if pat.endswith("T*") and isinstance(at, ty.Pointer) and at.pointee in family:
                generic = at.pointee        # atomic_inc(p): T from what p points to
                break
        if generic is None and family:
            # Integer literals and mixed scalars: take the widest arithmetic type offered.
            scalars = [at for pat, at in zip(row.params, args) if pat in ("T", "S")]
            if not scalars:
                return None
            common = scalars[0]
            for s in scalars[1:]:
                if not (common.is_scalar and s.is_scalar):
                    return None
                common = ty.arithmetic_result(common, s)
            if common not in family:
                return None
            generic = common
        # The second width, from the first argument of a "Tn" or "Un" pattern.
        n = next((ty.width(at) for pat, at in zip(row.params, args)
                  if bi.free_width_base(pat)), None)
        if n is not None and n not in bi.family_widths(row.family):
            return None
        for pat, at in zip(row.params, args):
            if not self._fits(pat, at, generic, n):
                return None
        return self._pattern_type(row.ret, generic, n), generic, n

    def _fits(self, pat, at, generic, n=None) -> bool:
        if pat == "T":
            # A scalar argument converts to T's element type and, for a vector T,
            # widens (spec 6.2.1): mad(float2, float, float).
            return at == generic or (at.is_scalar and not at.is_void and generic is not None
                                     and (generic.is_scalar or at.is_arithmetic))
        if pat == "S":
            return at.is_scalar and not at.is_void
        if pat.endswith("*"):
            if not isinstance(at, ty.Pointer):
                return False
            # "[const] [space|space...] X*": a pointer pattern that names address
            # spaces accepts only those, and a const pointee only if it says const.
            *quals, base = pat[:-1].split()
            spaces = [q for q in quals if q != "const"]
            if spaces and (at.space not in spaces[0].split("|") or
                           (at.const and "const" not in quals)):
                return False
            return at.pointee == self._pattern_type(base, generic)
        want = self._pattern_type(pat, generic, n)
        if want is None:
            return False
        if isinstance(want, ty.Opaque):
            # event_t: another event_t, or an integer (0 is the "no event" value)
            return at == want or (at.is_scalar and at.is_integer)
        if want.is_vector:
            return at == want
        return at.is_scalar and not at.is_void

    def _pattern_type(self, pat, generic, free_width=None):
        if pat == "T":
            return generic
        base = bi.free_width_base(pat)
        if base is not None:        # "Tn", "Un": the base pattern's element, width n
            if free_width is None:
                return None
            return ty.Vector(ty.scalar_of(self._pattern_type(base, generic)), free_width)
        n = ty.width(generic) if generic is not None else 1
        elem = ty.scalar_of(generic) if generic is not None else None
        if pat in ("S", "R"):
            return elem
        if pat == "U":
            return ty.vector_of(_INTEGER_OF[elem.size, False], n)
        if pat == "D":
            return ty.vector_of(_INTEGER_OF[2 * elem.size, elem.signed], n)
        if pat == "I":
            return ty.vector_of(ty.INT, n)
        if pat == "K":
            if n == 1:
                return ty.INT
            return ty.Vector(_INTEGER_OF[elem.size, True], n)
        return ty.named_type(pat)

    def expr_UnaryOp(self, node):
        op = node.op
        if op == "sizeof":
            if isinstance(node.expr, c_ast.Typename):
                t, _, _ = self.resolve(node.expr)
                self.module.types[id(node.expr)] = t
            else:
                t = self.expr(node.expr)
            return ty.SIZE_T
        if op == "vec_step":
            return ty.INT
        if op == "&":
            t = self.expr(node.expr)
            sym = self._base_symbol(node.expr)
            space = sym.space if sym else "private"
            if isinstance(node.expr, c_ast.UnaryOp) and node.expr.op == "*":
                inner = self.module.types.get(id(node.expr.expr))
                if isinstance(inner, ty.Pointer):
                    space = inner.space
            elif isinstance(node.expr, (c_ast.ArrayRef, c_ast.StructRef)):
                base = node.expr
                while isinstance(base, (c_ast.ArrayRef, c_ast.StructRef)):
                    if isinstance(base, c_ast.ArrayRef):
                        bt = self.module.types.get(id(base.name))
                        if isinstance(bt, ty.Pointer):
                            space = bt.space
                            break
                    elif base.type == "->":
                        bt = self.module.types.get(id(base.name))
                        if isinstance(bt, ty.Pointer):
                            space = bt.space
                            break
                    base = base.name
            if id(node.expr) in self.module.components:
                self.error("address of vector element requested", node)
            return ty.Pointer(t, space, sym.const if sym else False)
        t = self.rvalue(node.expr)
        if op == "*":
            if not isinstance(t, ty.Pointer):
                self.error(f"indirection requires pointer operand ('{t}' invalid)", node)
            self._check_not_half(t.pointee, node)
            return t.pointee
        if op in ("++", "--", "p++", "p--"):
            if t.is_float:
                self.error(f"cannot {'increment' if '+' in op else 'decrement'} value of type "
                           f"'{t}' (++ and -- do not apply to floating-point types, spec "
                           f"6.3.c)", node)
            self.check_assignable(node.expr)
            return t
        if op == "!":
            if t.is_vector:
                return self._mask_type(t)
            return ty.INT
        if op in ("-", "+"):
            if not (t.is_scalar or t.is_vector):
                self.error(f"invalid argument type '{t}' to unary expression", node)
            return ty.integer_promote(t) if t.is_scalar else t
        if op == "~":
            if t.is_float:
                self.error(f"invalid argument type '{t}' to unary expression", node)
            return ty.integer_promote(t) if t.is_scalar else t
        self.error(f"unsupported operator '{op}'", node)

    def _mask_type(self, t: ty.Vector) -> ty.Vector:
        return ty.Vector({1: ty.CHAR, 2: ty.SHORT, 4: ty.INT, 8: ty.LONG}[t.elem.size], t.n)

    def check_assignable(self, node):
        t = self.module.types.get(id(node))
        # Walk from the lvalue to the object it is part of: a variable, or memory
        # through a pointer. Either may be read-only.
        root = node
        while isinstance(root, c_ast.StructRef) and root.type == "." or \
                isinstance(root, c_ast.ArrayRef) and \
                isinstance(self.module.types.get(id(root.name)), ty.Array):
            root = root.name
        sym = self.module.symbols.get(id(root)) if isinstance(root, c_ast.ID) else None
        if sym is not None and sym.const and not isinstance(sym.type, ty.Pointer):
            what = "memory in the __constant address space" if sym.space == "constant" else \
                f"variable '{sym.name}' with const-qualified type"
            self.error(f"cannot assign to {what}", node)
        inner = root.name if isinstance(root, (c_ast.ArrayRef, c_ast.StructRef)) else \
            root.expr if isinstance(root, c_ast.UnaryOp) and root.op == "*" else None
        pt = self.module.types.get(id(inner)) if inner is not None else None
        if isinstance(pt, ty.Pointer):
            if pt.space == "constant":
                self.error("cannot assign to memory in the __constant address space", node)
            if pt.const:
                self.error("cannot assign to a const-qualified location", node)
        comps = self.module.components.get(id(node))
        if comps is not None and len(set(comps)) != len(comps):
            self.error("vector is not assignable (contains duplicate components)", node)
        if t is not None and isinstance(t, ty.Array):
            self.error("array type is not assignable", node)

    def binary_vector(self, node, a, b, op):
        """The type of a binary operation with at least one vector operand (spec 6.2.6):
        vectors of one type, or a vector and a scalar of no greater rank than its element
        type, which is converted and widened."""
        if a.is_vector and b.is_vector:
            if a != b:
                self.error(f"implicit conversions between vector types ('{a}' and '{b}') are "
                           f"not permitted", node)
            return a
        v, s = (a, b) if a.is_vector else (b, a)
        if not s.is_scalar or s.is_void:
            self.error(f"invalid operands to binary expression ('{a}' and '{b}')", node)
        if op not in ("<<", ">>") and ty.opencl_rank(s) > ty.opencl_rank(v.elem):
            self.error(f"scalar operand type '{s}' has greater rank than the type of the "
                       f"vector element ('{v}')", node)
        return v

    def expr_BinaryOp(self, node):
        return self.binary_type(node, node.op, self.rvalue(node.left), self.rvalue(node.right))

    def binary_type(self, node, op, a, b):
        """The type of ``a op b`` (also of the ``op`` of a compound assignment)."""
        if op in ("&&", "||"):
            if a.is_vector or b.is_vector:
                return self._mask_type(self.binary_vector(node, a, b, op))
            return ty.INT
        if a.is_vector or b.is_vector:
            v = self.binary_vector(node, a, b, op)
            if op in ("<", ">", "<=", ">=", "==", "!="):
                return self._mask_type(v)
            if op in ("%", "&", "|", "^", "<<", ">>") and v.is_float:
                self.error(f"invalid operands to binary expression ('{a}' and '{b}')", node)
            if op in ("<<", ">>") and a.is_scalar:
                self.error("a vector shift count needs a vector left operand", node)
            return v
        if isinstance(a, ty.Pointer) or isinstance(b, ty.Pointer):
            if op in ("<", ">", "<=", ">=", "==", "!="):
                return ty.INT
            if op == "-" and isinstance(a, ty.Pointer) and isinstance(b, ty.Pointer):
                return ty.PTRDIFF_T
            if op in ("+", "-") and isinstance(a, ty.Pointer) and b.is_integer:
                return a
            if op == "+" and isinstance(b, ty.Pointer) and a.is_integer:
                return b
            self.error(f"invalid operands to binary expression ('{a}' and '{b}')", node)
        if not (a.is_arithmetic and b.is_arithmetic):
            self.error(f"invalid operands to binary expression ('{a}' and '{b}')", node)
        if op in ("<", ">", "<=", ">=", "==", "!="):
            return ty.INT
        if op in ("<<", ">>"):
            if a.is_float or b.is_float:
                self.error(f"invalid operands to binary expression ('{a}' and '{b}')", node)
            return ty.integer_promote(a)
        if op in ("%", "&", "|", "^") and (a.is_float or b.is_float):
            self.error(f"invalid operands to binary expression ('{a}' and '{b}')", node)
        return ty.arithmetic_result(a, b)

    def expr_Assignment(self, node):
        target = self.expr(node.lvalue)
        value = self.rvalue(node.rvalue)
        self.check_assignable(node.lvalue)
        if node.op != "=":
            value = self.binary_type(node, node.op[:-1], target, value)
        self.check_pointer_conversion(target, value, node.rvalue, node, "assigning to")
        if target.is_vector and value.is_vector and target != value:
            self.error(f"assigning to '{target}' from incompatible type '{value}'", node)
        if target.is_scalar and value.is_vector:
            self.error(f"assigning to '{target}' from incompatible type '{value}'", node)
        if isinstance(target, ty.Record) and target != value:
            self.error(f"assigning to '{target}' from incompatible type '{value}'", node)
        return target

    def check_pointer_conversion(self, target, value, value_node, node, what):
        """Implicit pointer conversions keep the address space (spec 6.5), except to the
        generic one (OpenCL C 2.0) and for null pointer constants."""
        if not (isinstance(target, ty.Pointer) and isinstance(value, ty.Pointer)):
            return
        if target.space == value.space or target.space == "generic" and \
                value.space != "constant" or self._null_pointer(value_node):
            return
        self.error(f"{what} '{target}' from '{value}' changes the address space of the "
                   f"pointer", node)

    def _null_pointer(self, node) -> bool:
        while isinstance(node, c_ast.Cast):
            node = node.expr
        return self.const_int(node) == 0

    def expr_TernaryOp(self, node):
        c = self.rvalue(node.cond)
        a = self.rvalue(node.iftrue)
        b = self.rvalue(node.iffalse)
        if c.is_vector:
            # Per component: select(b, a, c), on the sign bit of c (spec 6.3.i).
            if not c.is_integer:
                self.error(f"used type '{c}' where floating point type is not allowed "
                           f"(a vector condition must be an integer vector)", node.cond)
            if a.is_vector or b.is_vector:
                t = self.binary_vector(node, a, b, "?:")
            elif a.is_arithmetic and b.is_arithmetic:
                t = ty.Vector(ty.arithmetic_result(a, b), c.n)
            else:
                self.error(f"invalid operands to a vector '?:' ('{a}' and '{b}')", node)
            if t.n != c.n or t.elem.size != c.elem.size:
                self.error(f"vector condition type '{c}' and result type '{t}' do not have "
                           f"elements of the same number and size", node)
            return t
        if a.is_vector or b.is_vector:
            return self.binary_vector(node, a, b, "?:")
        if a.is_arithmetic and b.is_arithmetic:
            return ty.arithmetic_result(a, b)
        if isinstance(a, ty.Pointer):
            return a
        if isinstance(b, ty.Pointer):
            return b
        return a

    def expr_Cast(self, node):
        t, _, _ = self.resolve(node.to_type)
        self.module.types[id(node.to_type)] = t
        if isinstance(node.expr, c_ast.ExprList) and t.is_vector:
            # A vector literal: (float4)(a, b.xy, c)
            total = 0
            for e in node.expr.exprs:
                et = self.rvalue(e)
                if et.is_vector:
                    if et.elem != t.elem:
                        self.error(f"vector literal component of type '{et}' does not match "
                                   f"'{t}'", e)
                    total += et.n
                elif et.is_scalar and not et.is_void:
                    total += 1
                else:
                    self.error(f"invalid vector literal component of type '{et}'", e)
            if total != t.n and not (total == 1 and len(node.expr.exprs) == 1):
                self.error(f"vector literal of type '{t}' needs {t.n} components, "
                           f"{total} given", node)
            self.module.types[id(node.expr)] = t
            return t
        src = self.rvalue(node.expr)
        self._check_not_half(t, node)
        if t.is_vector and src.is_vector and t != src:
            self.error(f"invalid conversion between vector types '{src}' and '{t}'", node)
        if t.is_scalar and src.is_vector:
            self.error(f"invalid conversion from vector '{src}' to scalar '{t}'", node)
        return t

    def expr_ExprList(self, node):
        t = ty.VOID
        for e in node.exprs:
            t = self.rvalue(e)
        return t

    def expr_CompoundLiteral(self, node):
        t, _, _ = self.resolve(node.type)
        self.init_list(node.init, t)
        return t

    def expr_InitList(self, node):
        for e in node.exprs:
            self.expr(e)
        return ty.VOID

    def expr_Typename(self, node):
        t, _, _ = self.resolve(node)
        return t

    # ---- constant folding (array sizes, case labels, enums) -------------------------------
    def const_int(self, node) -> int | None:
        try:
            return self._fold(node)
        except (SemaError, ValueError, ZeroDivisionError, TypeError, KeyError):
            return None

    def _fold(self, node):
        if isinstance(node, c_ast.Constant):
            if node.type == "char":
                return ord(eval(node.value)) if len(node.value) > 2 else 0
            t = constant_type(node)
            if t.is_float:
                raise ValueError
            v = node.value.rstrip("uUlL")
            if len(v) > 1 and v[0] == "0" and v[1] not in "xXbB":
                return int(v, 8)
            return int(v, 0)
        if isinstance(node, c_ast.ID):
            sym = self.lookup(node.name)
            if sym is not None and sym.kind == "enum":
                return sym.node
            raise ValueError
        if isinstance(node, c_ast.UnaryOp):
            if node.op == "sizeof":
                if isinstance(node.expr, c_ast.Typename):
                    t, _, _ = self.resolve(node.expr)
                else:
                    t = self.expr(node.expr)
                return ty.type_size(t)
            v = self._fold(node.expr)
            return {"-": -v, "+": v, "~": ~v, "!": int(not v)}[node.op]
        if isinstance(node, c_ast.BinaryOp):
            a, b = self._fold(node.left), self._fold(node.right)
            ops = {"+": a + b, "-": a - b, "*": a * b, "<<": a << b if b >= 0 else 0,
                   ">>": a >> b if b >= 0 else 0, "&": a & b, "|": a | b, "^": a ^ b,
                   "<": int(a < b), ">": int(a > b), "<=": int(a <= b), ">=": int(a >= b),
                   "==": int(a == b), "!=": int(a != b), "&&": int(bool(a and b)),
                   "||": int(bool(a or b))}
            if node.op in ("/", "%"):
                q = abs(a) // abs(b) * (1 if (a >= 0) == (b >= 0) else -1)
                return q if node.op == "/" else a - q * b
            return ops[node.op]
        if isinstance(node, c_ast.TernaryOp):
            return self._fold(node.iftrue) if self._fold(node.cond) else self._fold(node.iffalse)
        if isinstance(node, c_ast.Cast):
            return self._fold(node.expr)
        if isinstance(node, c_ast.FuncCall) and isinstance(node.name, c_ast.ID) and \
                node.name.name == "vec_step":
            self.expr(node)
            return self.module.calls[id(node)].value
        raise ValueError


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
                lt = self.module.types.get(id(node.left))
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
        call = self.module.calls.get(id(node))
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
        t = self.module.types.get(id(node))
        if isinstance(t, ty.Pointer) or isinstance(node, c_ast.UnaryOp) and node.op == "&":
            self._mark(node)
        if isinstance(node, c_ast.InitList):
            for e in node.exprs:
                self._escape(e)


def analyze(ast: c_ast.FileAST, reporter: Reporter, cl_std: int = 120) -> Module:
    return Analyzer(reporter, cl_std).analyze(ast)
