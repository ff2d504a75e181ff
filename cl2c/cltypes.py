"""Host-side OpenCL types as NumPy dtypes, laid out as kernels see them.

The same contract as PyOpenCL's ``pyopencl.cltypes``: ``float4`` is a
structured dtype of four float32 fields ``x y z w`` (titled ``s0..s3``), a
3-vector is padded to four components, and ``make_float4(1, 2, 3, 4)`` builds
a value.
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
    padded = 4 if n == 3 else n
    if n <= 4:
        names = _FIELD_NAMES[:n]
        titles = [f"s{i}" for i in range(n)]
    else:
        names = [f"s{i:x}" for i in range(n)]
        titles = None
    spec = {"names": names, "formats": [base] * n,
            "offsets": [i * np.dtype(base).itemsize for i in range(n)],
            "itemsize": padded * np.dtype(base).itemsize}
    if titles:
        spec["titles"] = titles
    return np.dtype(spec)


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
            return np.array(tuple(values), dtype=_dt)[()]

        _make.__name__ = f"make_{_name}{_n}"
        globals()[_make.__name__] = _make


def dtype_of(name: str) -> np.dtype:
    """The dtype of an OpenCL type name such as ``float`` or ``int4``."""
    value = globals().get(name)
    if isinstance(value, np.dtype):
        return value
    raise KeyError(name)
