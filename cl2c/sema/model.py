"""What semantic analysis hands on: the checked module, functions, symbols and calls,
and the facts of single tokens (swizzle components, the type of a constant)."""
from __future__ import annotations

from dataclasses import dataclass, field

from pycparser import c_ast

from .. import builtins as bi
from .. import literals
from .. import types as ty

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
    c_name: str | None = None      # for builtin constants; a function's static: its field
    program: bool = False          # a program-scope variable, or a 2.0 function's static

    @property
    def in_program_storage(self) -> bool:
        """A program-scope __global variable (OpenCL C 2.0): one instance per program,
        which functions reach through their work-item context."""
        return self.program and self.kind == "var" and self.space == "global"

    def __deepcopy__(self, memo):  # a fact about a node: copies of the node share it
        return self


@dataclass
class Param:
    name: str
    type: ty.Type
    space: str                     # address space of the pointee for pointers
    const: bool                    # pointee (or value) const-qualified
    type_name: str                 # as written, e.g. "float4*"
    written: bool = True           # the kernel may write through it
    read: bool = True
    # a buffer's: the alignment the kernel's pointer conversions rely on where it is
    # more than the pointee's (a float * read as float16 *; whole_program.py)
    cast_align: int = 1
    coord: object = field(default=None, compare=False)   # where it is declared


@dataclass
class FunctionInfo:
    name: str
    node: c_ast.FuncDef
    type: ty.Function
    params: list[Param]
    is_kernel: bool = False
    attributes: dict = field(default_factory=dict)
    attribute_text: str = ""       # a kernel's, as CL_KERNEL_ATTRIBUTES tells them
    workitem: bool = False         # needs the work-item context (work-item functions or
                                   # program-scope __global variables), maybe through calls
    globals: bool = False          # uses program-scope __global variables, maybe through calls
    callees: set = field(default_factory=set)
    call_sites: dict = field(default_factory=dict)  # callee name -> its first FuncCall
    used_params: set = field(default_factory=set)
    builtins: set = field(default_factory=set)     # names of the builtins it calls
    sync: bool = False             # reaches a barrier, directly or through calls
    labels: dict = field(default_factory=dict)     # goto labels: name -> Label node
    gotos: list = field(default_factory=list)      # its Goto nodes


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

    def __deepcopy__(self, memo):  # a fact about a node: copies of the node share it
        return self


@dataclass
class Module:
    """The checked program. Facts about single nodes live on the nodes (typed_ast.py);
    this holds what is about the whole program."""
    ast: c_ast.FileAST
    functions: dict = field(default_factory=dict)      # name -> FunctionInfo
    program_scope: list = field(default_factory=list)  # (kind, node)
    extensions: set = field(default_factory=set)
    uses_fp16: bool = False        # half was checked as arithmetic: the C needs _Float16
    runtime_headers: set = field(default_factory=set)  # the runtime headers beyond
                                   # cl2c/cl2c.h that the C needs: its builtins' rows',
                                   # images.h where an image or a sampler is declared
    extern_uses: dict = field(default_factory=dict)  # name -> the first ID that reads a
                                   # variable through an ``extern`` declaration

    @property
    def kernels(self) -> list[FunctionInfo]:
        return [f for f in self.functions.values() if f.is_kernel]


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
        # the spec names .xyzw for vectors of 1 to 4 components and says nothing of wider
        # ones: there they are the first four, as in clang (PoCL) and the CTS's tests
        idx = [_COMPONENTS_XYZW.index(c) for c in name]
        return idx if all(i < n for i in idx) else None
    return None




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
    suffix = literals.INT_SUFFIX.search(v).group().lower()
    digits = v[: len(v) - len(suffix)]
    value = literals.integer_value(v)
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
