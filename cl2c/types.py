"""The OpenCL C type model, kept apart from the AST.

Types are small immutable values with structural equality (as in cffi's
``model.py``). Semantic analysis gives every expression one of them; lowering
and emission read them to spell C types and choose runtime helpers.
"""
from __future__ import annotations

from dataclasses import dataclass, field

ADDRESS_SPACES = ("private", "global", "local", "constant", "generic")


class Type:
    """Base of all types."""

    is_scalar = is_vector = is_pointer = is_array = is_record = False
    is_void = is_function = False

    def __deepcopy__(self, memo):   # types are values: a copied tree shares them
        return self

    @property
    def is_arithmetic(self) -> bool:
        return self.is_scalar and not self.is_void

    @property
    def is_integer(self) -> bool:
        return False

    @property
    def is_float(self) -> bool:
        return False


@dataclass(frozen=True)
class Scalar(Type):
    name: str          # OpenCL spelling: "int", "uint", "float", ...
    size: int          # bytes
    kind: str          # "int", "float", "bool", "void"
    signed: bool = True
    rank: int = 0      # integer conversion rank (C99 6.3.1.1)

    is_scalar = True

    @property
    def is_void(self) -> bool:       # type: ignore[override]
        return self.kind == "void"

    @property
    def is_integer(self) -> bool:
        return self.kind in ("int", "bool")

    @property
    def is_float(self) -> bool:
        return self.kind == "float"

    @property
    def bits(self) -> int:
        return self.size * 8

    def __str__(self) -> str:
        return self.name


def _int(name, size, signed, rank):
    return Scalar(name, size, "int", signed, rank)


VOID = Scalar("void", 0, "void")
BOOL = Scalar("bool", 1, "bool", False, 1)
CHAR = _int("char", 1, True, 2)
UCHAR = _int("uchar", 1, False, 2)
SHORT = _int("short", 2, True, 3)
USHORT = _int("ushort", 2, False, 3)
INT = _int("int", 4, True, 4)
UINT = _int("uint", 4, False, 4)
LONG = _int("long", 8, True, 5)
ULONG = _int("ulong", 8, False, 5)
HALF = Scalar("half", 2, "float", True, 1)
FLOAT = Scalar("float", 4, "float", True, 2)
DOUBLE = Scalar("double", 8, "float", True, 3)
# size_t and friends are 64-bit on every target cl2c supports; they keep their
# own names so that emitted C reads like the kernel.
SIZE_T = _int("size_t", 8, False, 5)
PTRDIFF_T = _int("ptrdiff_t", 8, True, 5)
INTPTR_T = _int("intptr_t", 8, True, 5)
UINTPTR_T = _int("uintptr_t", 8, False, 5)

SCALARS = {t.name: t for t in (VOID, BOOL, CHAR, UCHAR, SHORT, USHORT, INT, UINT, LONG,
                               ULONG, HALF, FLOAT, DOUBLE, SIZE_T, PTRDIFF_T, INTPTR_T,
                               UINTPTR_T)}
# Scalars that can be vector elements, in the order of the spec's tables.
VECTOR_ELEMENTS = (CHAR, UCHAR, SHORT, USHORT, INT, UINT, LONG, ULONG, HALF, FLOAT, DOUBLE)
VECTOR_WIDTHS = (2, 3, 4, 8, 16)

# Multi-word spellings, as pycparser gives them (sorted word lists).
_SPELLINGS = {
    ("unsigned",): UINT, ("int", "unsigned"): UINT, ("signed",): INT, ("int", "signed"): INT,
    ("char", "unsigned"): UCHAR, ("char", "signed"): CHAR,
    ("short", "unsigned"): USHORT, ("int", "short"): SHORT, ("int", "short", "unsigned"): USHORT,
    ("short", "signed"): SHORT,
    ("long", "unsigned"): ULONG, ("int", "long"): LONG, ("int", "long", "unsigned"): ULONG,
    ("long", "signed"): LONG, ("_Bool",): BOOL,
}


@dataclass(frozen=True)
class Vector(Type):
    elem: Scalar
    n: int

    is_vector = True

    @property
    def name(self) -> str:
        return f"{self.elem.name}{self.n}"

    @property
    def size(self) -> int:
        return self.elem.size * (4 if self.n == 3 else self.n)

    @property
    def align(self) -> int:
        return self.size

    @property
    def is_integer(self) -> bool:
        return self.elem.is_integer

    @property
    def is_float(self) -> bool:
        return self.elem.is_float

    def __str__(self) -> str:
        return self.name


@dataclass(frozen=True)
class Pointer(Type):
    pointee: Type
    space: str = "private"
    const: bool = False        # the pointee is const-qualified
    volatile: bool = False
    restrict: bool = False

    is_pointer = True
    size = 8

    def __str__(self) -> str:
        quals = " const" if self.const else ""
        return f"__{self.space} {self.pointee}{quals} *"


@dataclass(frozen=True)
class Array(Type):
    elem: Type
    length: int | None

    is_array = True

    @property
    def size(self) -> int:
        return type_size(self.elem) * (self.length or 0)

    def __str__(self) -> str:
        return f"{self.elem}[{'' if self.length is None else self.length}]"


@dataclass(eq=False)
class Record(Type):
    """A struct or union. Identity, not structure, decides equality. The one type that
    is not a frozen value: a struct is named before its definition completes it."""

    tag: str | None
    union: bool = False
    fields: list = field(default_factory=list)   # [(name, Type)], filled once complete
    packed: bool = False
    align_attr: int = 0
    defined: bool = False        # its definition's closing brace has been read
    const_fields: frozenset = frozenset()    # the members declared const (not assignable)
    field_align: dict = field(default_factory=dict)  # {member: bytes} of aligned(N) members

    is_record = True

    def complete(self, fields: list, packed: bool = False, align_attr: int = 0,
                 const_fields=frozenset(), field_align=None) -> None:
        self.fields, self.packed, self.align_attr = list(fields), packed, align_attr
        self.const_fields = frozenset(const_fields)
        self.field_align = dict(field_align or {})
        self.defined = True

    def read_only_member(self, name: str | None = None) -> str | None:
        """The member ``name`` if it is const (searched in unnamed members too); with
        no name, the first const member anywhere in the record, nested records too
        (what makes the whole not assignable, C11 6.3.2.1)."""
        for fname, ftype in self.fields:
            if fname in self.const_fields and (name is None or fname == name):
                return fname
            inner = ftype
            while isinstance(inner, Array):
                inner = inner.elem
            if isinstance(inner, Record) and (name is None or fname is None):
                found = inner.read_only_member(name)
                if found is not None:
                    return found
        return None

    def field_type(self, name: str) -> Type | None:
        for fname, ftype in self.fields:
            if fname == name:
                return ftype
            if fname is None and isinstance(ftype, Record):   # an unnamed member's
                found = ftype.field_type(name)
                if found is not None:
                    return found
        return None

    @property
    def size(self) -> int:
        return layout(self)[0]

    @property
    def align(self) -> int:
        return layout(self)[1]

    def __str__(self) -> str:
        return f"{'union' if self.union else 'struct'} {self.tag or '<anonymous>'}"


@dataclass(frozen=True)
class Enum(Type):
    tag: str | None
    # whether its enumerators have been read: a tag only declared (`enum E;`, a GNU
    # extension) names an incomplete type until then. Not part of its identity.
    defined: bool = field(default=True, compare=False)

    is_scalar = True
    size = 4
    name = "int"
    # its values are ints (clang's enums here): what passes ask of an integer type
    signed = True
    bits = 32

    @property
    def is_integer(self) -> bool:
        return True

    def __str__(self) -> str:
        return f"enum {self.tag or '<anonymous>'}"


@dataclass(frozen=True)
class Function(Type):
    ret: Type
    params: tuple
    variadic: bool = False

    is_function = True

    def __str__(self) -> str:
        return f"{self.ret} ({', '.join(map(str, self.params))})"


@dataclass(frozen=True)
class Opaque(Type):
    """Types the runtime defines and kernels only pass around (event_t, sampler_t)."""

    name: str
    size = 8

    def __str__(self) -> str:
        return self.name


EVENT_T = Opaque("event_t")


# The image types (spec 6.12.14): name -> (coordinate dimensions, an array of images,
# depth). Lowering spells each a pointer to the runtime's struct cl2c_image (host.h).
IMAGE_KINDS = {
    "image1d_t": (1, False, False), "image1d_buffer_t": (1, False, False),
    "image1d_array_t": (1, True, False), "image2d_t": (2, False, False),
    "image2d_array_t": (2, True, False), "image3d_t": (3, False, False),
    "image2d_depth_t": (2, False, True), "image2d_array_depth_t": (2, True, True),
}
IMAGE_ACCESS = ("read_only", "write_only", "read_write")


@dataclass(frozen=True)
class Image(Type):
    """An image type with its access qualifier (read_only unless written otherwise):
    ``read_only image2d_t`` and ``write_only image2d_t`` are different types, so that
    the table's rows tell which functions each allows."""

    name: str              # "image2d_t", ... (IMAGE_KINDS)
    access: str = "read_only"
    size = 8

    @property
    def dims(self) -> int:
        return IMAGE_KINDS[self.name][0]

    @property
    def arrayed(self) -> bool:
        return IMAGE_KINDS[self.name][1]

    @property
    def depth(self) -> bool:
        return IMAGE_KINDS[self.name][2]

    def __str__(self) -> str:
        return f"{self.access} {self.name}"


@dataclass(frozen=True)
class Sampler(Type):
    """sampler_t: its CLK_* flags as a uint (the runtime's cl2c_sampler_t), so that a
    constant sampler is a compile-time constant of the C that the compiler folds."""

    name = "sampler_t"
    size = 4

    def __str__(self) -> str:
        return self.name


SAMPLER_T = Sampler()

# The runtime's objects: OpenCL C passes images, samplers and events around whole, never
# as struct members, return values or the operands of conversions (6.9), though the C
# holds them as pointers and integers.
RUNTIME_OBJECTS = (Image, Sampler, Opaque)


@dataclass(frozen=True)
class Atomic(Type):
    """An atomic type of OpenCL C 2.0 (atomic_int, ...; spec 6.13.11): the size and
    alignment of its value type, whose objects only the atomic functions read and
    write. atomic_flag is atomic_int, as in clang."""

    value: Scalar

    @property
    def name(self) -> str:
        return f"atomic_{self.value.name}"

    @property
    def size(self) -> int:
        return self.value.size

    def __str__(self) -> str:
        return self.name


# The value types of the atomic types (atomic_double needs cl_khr_fp64).
ATOMIC_VALUES = (INT, UINT, LONG, ULONG, FLOAT, DOUBLE, INTPTR_T, UINTPTR_T, SIZE_T,
                 PTRDIFF_T)
ATOMIC_TYPES = {f"atomic_{t.name}": Atomic(t) for t in ATOMIC_VALUES}
ATOMIC_TYPES["atomic_flag"] = Atomic(INT)


def scalar_of(t: Type) -> Type:
    """The element type of a vector, or the type itself."""
    return t.elem if isinstance(t, Vector) else t


def vector_of(elem: Scalar, n: int) -> Type:
    return elem if n == 1 else Vector(elem, n)


def width(t: Type) -> int:
    return t.n if isinstance(t, Vector) else 1


def type_size(t: Type) -> int:
    if isinstance(t, Enum):
        return 4
    return getattr(t, "size", 0)


def type_align(t: Type) -> int:
    if isinstance(t, Array):
        return type_align(t.elem)
    if isinstance(t, (Vector, Record)):
        return t.align
    return max(1, type_size(t))


def layout(rec: Record) -> tuple[int, int, list]:
    """(size, alignment, [field offsets]) by the C rules OpenCL uses."""
    offset = size = 0
    align = 1
    offsets = []
    for name, ftype in rec.fields:
        # a member's aligned(N) holds in a packed record too, as in clang and GCC
        fa = max(1 if rec.packed else type_align(ftype), rec.field_align.get(name, 0))
        fs = type_size(ftype)
        align = max(align, fa)
        if rec.union:
            offsets.append(0)
            size = max(size, fs)
        else:
            offset = (offset + fa - 1) // fa * fa
            offsets.append(offset)
            offset += fs
            size = offset
    align = max(align, rec.align_attr)
    size = (size + align - 1) // align * align
    return size, align, offsets


def scalar_from_words(words: list[str]) -> Scalar | None:
    """The scalar type a list of type specifier words names, or None."""
    if len(words) == 1 and words[0] in SCALARS:
        return SCALARS[words[0]]
    key = tuple(sorted(words))
    if key in _SPELLINGS:
        return _SPELLINGS[key]
    if key == ("long", "long"):
        return LONG
    if key == ("long", "long", "unsigned"):
        return ULONG
    return None


def vector_from_name(name: str) -> Vector | None:
    """``float4`` -> Vector(FLOAT, 4); None for anything else."""
    for n in (16, 8, 4, 3, 2):
        suffix = str(n)
        if name.endswith(suffix):
            base = name[: -len(suffix)]
            elem = SCALARS.get(base)
            if elem in VECTOR_ELEMENTS:
                return Vector(elem, n)
            return None
    return None


def named_type(name: str) -> Type | None:
    """A built-in type name: a scalar, a vector, or a runtime opaque type."""
    if name in SCALARS:
        return SCALARS[name]
    if name == "event_t":
        return EVENT_T
    if name == "sampler_t":
        return SAMPLER_T
    words = name.split()
    if words and words[-1] in IMAGE_KINDS:       # "image2d_t", "write_only image2d_t"
        access = words[0].removeprefix("__") if len(words) == 2 else "read_only"
        if len(words) <= 2 and access in IMAGE_ACCESS:
            return Image(words[-1], access)
        return None
    if name == "cl_mem_fence_flags":        # a bitfield of CLK_*_MEM_FENCE (6.1.3)
        return UINT
    if name in ("memory_order", "memory_scope"):   # enums of OpenCL C 2.0 (6.13.11.4)
        return INT
    if name in ATOMIC_TYPES:
        return ATOMIC_TYPES[name]
    return vector_from_name(name)


# ---- the usual arithmetic conversions (spec 1.2.6 / C99 6.3.1.8) ----------

def wrapped(value: int, t: Scalar) -> int:
    """The value integer type ``t`` holds of ``value``: its width's low bits, as two's
    complement where it is signed ((uchar)-1 is 255, (char)300 is 44)."""
    value &= (1 << t.bits) - 1
    return value - (1 << t.bits) if t.signed and value >> (t.bits - 1) else value


def integer_promote(t: Scalar) -> Scalar:
    if isinstance(t, Enum):
        return INT
    if t.is_integer and t.rank < INT.rank:
        return INT
    return t


def _int_by_rank(rank: int, signed: bool) -> Scalar:
    for t in (INT, UINT, LONG, ULONG):
        if t.rank == rank and t.signed == signed:
            return t
    return INT


def opencl_rank(t: Type) -> tuple:
    """The rank of spec 6.2.6 that decides whether a scalar may widen to a vector of
    another element type (not C99's integer rank): floating-point types above integers,
    more precision above less, unsigned above signed of the same precision, bool lowest."""
    if isinstance(t, Enum):
        t = INT
    if t.kind == "bool":
        return (0, 0, 0)
    if t.is_float:
        return (2, t.size, 0)
    return (1, t.size, 0 if t.signed else 1)


def arithmetic_result(a: Type, b: Type) -> Type:
    """The common type of a binary arithmetic operation on scalars."""
    if isinstance(a, Enum):
        a = INT
    if isinstance(b, Enum):
        b = INT
    if a.is_float or b.is_float:
        fa = a.rank if a.is_float else -1
        fb = b.rank if b.is_float else -1
        return a if fa >= fb else b
    a, b = integer_promote(a), integer_promote(b)
    if a == b:
        return a
    if a.signed == b.signed:
        return a if a.rank >= b.rank else b
    u, s = (a, b) if not a.signed else (b, a)
    if u.rank >= s.rank:
        return u
    if s.size > u.size:
        return s
    return _int_by_rank(s.rank, False)
