"""A package whose wheel carries OpenCL kernels compiled by cl2c.

``kernels`` is a built ``cl2c.Program``: at run time it needs no C compiler and
translates nothing (``cl2c.load`` imports the extension module that setup.py's
``cl2c_modules`` built).
"""
import numpy as np

import cl2c

kernels = cl2c.load("cl2c_demo.kernels")


def saxpy(a: float, x: np.ndarray, y: np.ndarray) -> np.ndarray:
    """y = a * x + y, in place; returns y."""
    kernels.saxpy(x.shape, None, x, y, a)
    return y


def affine(v: np.ndarray, scale: float, offset: float) -> np.ndarray:
    """Every element of a float32 array (4n long) becomes scale * v + offset."""
    t = np.array((scale, offset), dtype=[("scale", np.float32), ("offset", np.float32)])
    kernels.affine4(v.size // 4, None, v, t)
    return v


def scaled_grid(a: np.ndarray, k: int) -> np.ndarray:
    """a * k + 8 for a 2-D int32 array (rows a multiple of 2, columns of 4)."""
    out = np.empty_like(a)
    rows, cols = a.shape
    kernels.scaled_grid((cols, rows), (4, 2), a, out, cl2c.LocalMemory(8 * 4), k)
    return out
