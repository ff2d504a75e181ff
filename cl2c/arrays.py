"""NumPy arrays that start where an OpenCL runtime's buffers do: at a multiple of
CL_DEVICE_MEM_BASE_ADDR_ALIGN (STORAGE_ALIGN bytes here).

A kernel's work-items run in blocks of 8 or 16 along dimension 0, so a block's loads of
consecutive floats are whole 64-byte lines where the buffer starts on one. NumPy's
arrays of over about 128 KiB come from glibc's mmap and start 16 bytes past a line:
every such load then spans two lines (the tiled matmul at 1024^2, docs/performance.md:
1.5-1.6x its time)."""
from __future__ import annotations

import numpy as np

from .device_limits import STORAGE_ALIGN
from .launch_layout import aligned_empty

ALIGN = STORAGE_ALIGN


def _layout(shape, dtype, order, who):
    """(dtype, shape as a tuple, element count) of an array to make, or a clear error."""
    try:
        dt = np.dtype(dtype)
        dims = tuple(int(d) for d in shape) if np.ndim(shape) else (int(shape),)
    except (TypeError, ValueError) as e:
        raise TypeError(f"cl2c.{who}: shape {shape!r} and dtype {dtype!r} do not make an "
                        f"array ({e})") from None
    if order not in ("C", "F"):
        raise ValueError(f"cl2c.{who}: order must be 'C' or 'F', not {order!r}")
    if any(d < 0 for d in dims) or dt.itemsize == 0:
        raise ValueError(f"cl2c.{who}: shape {shape!r} of {dt} is no array of elements")
    return dt, dims, int(np.prod(dims, dtype=np.int64))


def empty(shape, dtype=np.float32, order="C") -> np.ndarray:
    """An uninitialised array, as :func:`numpy.empty`, whose data starts at a multiple
    of 128 bytes (an OpenCL buffer's alignment, ``CL_DEVICE_MEM_BASE_ADDR_ALIGN``)."""
    dt, dims, count = _layout(shape, dtype, order, "empty")
    raw = aligned_empty(max(count, 1) * dt.itemsize, ALIGN)[:count * dt.itemsize]
    return raw.view(dt).reshape(dims, order=order)


def zeros(shape, dtype=np.float32, order="C") -> np.ndarray:
    """:func:`empty`, filled with zeros."""
    a = empty(shape, dtype, order)
    a[...] = 0
    return a


def aligned(array) -> np.ndarray:
    """``array`` itself where its data is contiguous and starts at a multiple of 128
    bytes; else a contiguous copy that does (C order, or Fortran order for a Fortran
    array)."""
    a = np.asarray(array)
    contiguous = a.flags.c_contiguous or a.flags.f_contiguous
    if contiguous and a.ctypes.data % ALIGN == 0:
        return a
    order = "F" if a.flags.f_contiguous and not a.flags.c_contiguous else "C"
    copy = empty(a.shape, a.dtype, order)
    copy[...] = a
    return copy
