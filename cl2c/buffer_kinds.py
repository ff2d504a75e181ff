"""Whether a NumPy array's elements are the numbers a buffer argument's pointee holds.

A buffer argument takes any buffer of whole pointee elements, as PyOpenCL's do; but a
float64 array for ``float *`` (``np.ones(n)``, NumPy's default) read as floats is
garbage, the most common mistake of all. So a numeric array must hold numbers of the
pointee's kind (integer or floating) and size; what is the same bits by design passes:
raw bytes (uint8, ``bytearray``, ``memoryview``), structured dtypes, vector and complex
dtypes of the pointee's element, integers of the other signedness (int32 for ``uint *``)
and cl_half's bits as uint16.
"""
from __future__ import annotations

import numpy as np

from . import types as ty
from .launch_layout import dtype_for


def _element(dt: np.dtype) -> np.dtype | None:
    """The scalar a dtype is made of, where it is a number (or a vector or complex
    number of them); None for bytes, structs and anything else of no numeric kind."""
    from .cltypes import vec_type_to_scalar_and_count
    if dt in vec_type_to_scalar_and_count:
        return vec_type_to_scalar_and_count[dt][0]
    if dt.kind == "c":
        return np.dtype(f"f{dt.itemsize // 2}")
    if dt.kind in "biuf" and dt != np.uint8:
        return dt
    return None


def _kind(dt: np.dtype) -> str:
    return "floating" if dt.kind == "f" else "integer"


def pointee_element(pointee) -> np.dtype | None:
    """The scalar dtype a buffer of ``pointee`` holds; None for void and structs."""
    if isinstance(pointee, ty.Atomic):          # atomic_int *: int32
        pointee = pointee.value
    if isinstance(pointee, ty.Vector):
        return dtype_for(pointee.elem)
    if isinstance(pointee, ty.Scalar) and pointee.is_void:
        return None
    return dtype_for(pointee)


def mismatch(pointee, got: np.dtype) -> np.dtype | None:
    """The dtype an array for a ``pointee *`` should have had, where ``got`` holds other
    numbers (another kind or size); None where its bytes are the pointee's."""
    want = pointee_element(pointee)
    have = _element(got)
    if want is None or have is None:
        return None
    if want == np.float16 and got == np.uint16:
        return None                 # half bits as cl_half (uint16), as OpenCL hosts keep them
    if _kind(have) == _kind(want) and have.itemsize == want.itemsize:
        return None
    return want
