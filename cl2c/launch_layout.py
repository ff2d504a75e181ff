"""The C side of a launch as the loader lays it out: the block a frame packs (the
cl2c_range first, the argument values at VALUES_AT), the NumPy dtype of an OpenCL type,
sizes that plainly are sizes, aligned storage, and a program's __global variables."""
from __future__ import annotations

import numpy as np

from . import types as ty
from .cltypes import SCALARS
from .device_limits import STORAGE_ALIGN

VALUES_AT = 128              # where a frame's argument values start, after the range
SIZE_LIMIT = 1 << 64         # a size_t holds less


def program_globals(module):
    """A program's own instance of its program-scope __global variables (OpenCL C
    2.0), initialised, or NULL where it has none. Each Program has one, kept across
    launches: two Programs of one source share the compiled module, not these."""
    ffi, lib = module.ffi, module.lib
    size = lib.cl2c_globals_size() if hasattr(lib, "cl2c_globals_size") else 0
    if size == 0:
        return ffi.NULL
    storage = aligned_empty(size, STORAGE_ALIGN)
    storage[:] = 0
    pointer = ffi.from_buffer(storage)
    lib.cl2c_globals_init(pointer)
    return pointer          # keeps storage alive


def aligned_empty(nbytes: int, align: int) -> np.ndarray:
    raw = np.empty(nbytes + align, dtype=np.uint8)
    offset = (-raw.ctypes.data) % align
    return raw[offset:offset + nbytes]


def dtype_for(t) -> np.dtype | None:
    if isinstance(t, ty.Scalar):
        if t.is_void:
            return np.dtype(np.uint8)
        return np.dtype(SCALARS[t.name])
    if isinstance(t, ty.Vector):
        from . import cltypes
        return cltypes.vec_types[(np.dtype(SCALARS[t.elem.name]), t.n)]
    if isinstance(t, ty.Enum):
        return np.dtype(np.int32)
    return None


def is_integer(value) -> bool:
    return isinstance(value, (int, np.integer)) and not isinstance(value, (bool, np.bool_))


def range_formats(ffi) -> dict[int, tuple[str, int]]:
    """struct formats of cl2c_range (host.h) and its size, by the length of the tuple
    they pack: 4 (a 1-D range: work_dim, global, local, offset) or 10 (any), each
    followed by the address of the program's __global variables and the part of the
    launch (group_first, group_count: 0, 0 for the whole launch)."""
    size_t = {4: "I", 8: "Q"}[ffi.sizeof("size_t")]
    pointer = {4: "I", 8: "Q"}[ffi.sizeof("void *")]
    g, loc, off, gl, part = (ffi.offsetof("cl2c_range", f) for f in
                             ("global_size", "local_size", "global_offset", "globals",
                              "group_first"))
    one, three = ffi.sizeof("size_t"), 3 * ffi.sizeof("size_t")
    size = ffi.sizeof("cl2c_range")
    end = part + 2 * one
    tail = f"{part - gl - ffi.sizeof('void *')}x2{size_t}"
    assert ffi.sizeof("unsigned") == 4 and size <= VALUES_AT and end <= size
    assert ffi.offsetof("cl2c_range", "group_count") == part + one
    return {4: (f"I{g - 4}x{size_t}{loc - g - one}x{size_t}{off - loc - one}x{size_t}"
                f"{gl - off - one}x{pointer}{tail}", end),
            10: (f"I{g - 4}x3{size_t}{loc - g - three}x3{size_t}{off - loc - three}x3{size_t}"
                 f"{gl - off - three}x{pointer}{tail}", end)}


def plain_sizes(value) -> tuple | None:
    """``value`` as a tuple of sizes where it plainly is one (an int, or a tuple of 1 to 3
    ints, in range), else None: Kernel._sizes then decides, and explains."""
    if type(value) is int:
        return (value,) if 0 <= value < SIZE_LIMIT else None
    if type(value) is tuple and 0 < len(value) <= 3:
        for v in value:
            if type(v) is not int or not 0 <= v < SIZE_LIMIT:
                return None
        return value
    return None
