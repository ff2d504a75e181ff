"""Host-side OpenCL types as NumPy dtypes, laid out as kernels see them.

The same contract as PyOpenCL's ``pyopencl.cltypes``, field for field:
``float4`` is a structured dtype of four float32 fields ``s0..s3`` (titled
``x y z w``), a 3-vector is padded to four components (``padding0``), and
``make_float4(1, 2, 3, 4)`` builds a value. ``struct_dtype`` lays out a struct as
kernels do (vectors aligned to their size, which NumPy's ``align=True`` cannot know).
"""
from __future__ import annotations

import numpy as np

SCALARS = {
    "char": np.int8, "uchar": np.uint8, "short": np.int16, "ushort": np.uint16,
    "int": np.int32, "uint": np.uint32, "long": np.int64, "ulong": np.uint64,
    "half": np.float16, "float": np.float32, "double": np.float64,
    "bool": np.bool_, "size_t": np.uint64, "ptrdiff_t": np.int64, "intptr_t": np.int64,
    "uintptr_t": np.uint64,
}

vec_types: dict[tuple, np.dtype] = {}
vec_type_to_scalar_and_count: dict[np.dtype, tuple] = {}

_FIELD_NAMES = ["x", "y", "z", "w"]


def _vector_dtype(base, n: int) -> np.dtype:
    """PyOpenCL's dtype, field for field: s0 ... s<n-1> (decimal), the first four titled
    x y z w, and a 3-vector's fourth slot named padding0."""
    padded = 4 if n == 3 else n
    names = [f"s{i}" for i in range(n)] + ["padding0"] * (padded - n)
    titles = _FIELD_NAMES[:min(n, 4)] + [None] * (padded - min(n, 4))
    return np.dtype({"names": names, "formats": [base] * padded, "titles": titles})


for _name, _base in SCALARS.items():
    globals()[_name] = np.dtype(_base)
    if _name in ("bool", "size_t", "ptrdiff_t", "intptr_t", "uintptr_t"):
        continue
    for _n in (2, 3, 4, 8, 16):
        _dt = _vector_dtype(_base, _n)
        globals()[f"{_name}{_n}"] = _dt
        vec_types[(np.dtype(_base), _n)] = _dt
        vec_type_to_scalar_and_count[_dt] = (np.dtype(_base), _n)

        def _make(*values, _dt=_dt, _n=_n):
            if len(values) == 1:
                values = values * _n
            if len(values) != _n:
                raise ValueError(f"expected {_n} components, got {len(values)}")
            padding = (0,) * (len(_dt.names) - _n)
            return np.array(tuple(values) + padding, dtype=_dt)[()]

        _make.__name__ = f"make_{_name}{_n}"
        globals()[_make.__name__] = _make


def alignment(dt: np.dtype) -> int:
    """The alignment OpenCL C gives a value of this dtype: a vector's is its size (a
    3-vector's that of 4), a scalar's its size, a struct's its largest field's (or what
    struct_dtype recorded)."""
    dt = np.dtype(dt)
    if dt.metadata and "cl_align" in dt.metadata:
        return dt.metadata["cl_align"]
    if dt in vec_type_to_scalar_and_count:
        return dt.itemsize
    if dt.subdtype is not None:
        return alignment(dt.subdtype[0])
    if dt.fields:
        return max(alignment(f[0]) for f in dt.fields.values())
    return dt.itemsize


def struct_dtype(fields, packed: bool = False, aligned: int = 0,
                 aligned_fields: dict | None = None) -> np.dtype:
    """A NumPy structured dtype laid out as OpenCL C lays out the struct with these
    fields (what PyOpenCL's match_dtype_to_c_struct finds out by compiling): each field
    at the next multiple of its alignment, the size a multiple of the largest one.
    ``fields`` are (name, dtype or OpenCL type name) or (name, type, count) for arrays;
    ``packed`` and ``aligned`` are __attribute__((packed)) and __attribute__((aligned(N)));
    ``aligned_fields``, {name: N} of the fields declared __attribute__((aligned(N))) (which
    holds in a packed struct too).

        R = struct_dtype([("c", "char"), ("v", "float4"), ("i", "int")])   # 48 bytes
    """
    names, formats, offsets = [], [], []
    offset, align = 0, 1
    for f in fields:
        name, t = f[0], f[1]
        dt = dtype_of(t) if isinstance(t, str) else np.dtype(t)
        if len(f) > 2:
            dt = np.dtype((dt, (f[2],)))
        a = max(1 if packed else alignment(dt), (aligned_fields or {}).get(name, 0))
        offset = -(-offset // a) * a
        names.append(name)
        formats.append(dt)
        offsets.append(offset)
        offset += dt.itemsize
        align = max(align, a)
    align = max(align, aligned)
    size = -(-offset // align) * align
    return np.dtype({"names": names, "formats": formats, "offsets": offsets,
                     "itemsize": size}, metadata={"cl_align": align})


def dtype_of(name: str) -> np.dtype:
    """The dtype of an OpenCL type name such as ``float`` or ``int4``."""
    value = globals().get(name)
    if isinstance(value, np.dtype):
        return value
    raise KeyError(name)
