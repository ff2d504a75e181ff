"""Helpers for the type-system differential tests (``test_types_*.py``).

They generate OpenCL C source for many small cases at once (one build covers many cases:
compile time matters), make random and edge-case inputs for every scalar type, run the
same program through cl2c and PoCL, and compare the outputs exactly.

Exactly means bit for bit, with one exception: two NaNs compare equal whatever their sign
and payload, which neither IEEE 754 nor OpenCL specify (and which x86 gives differently
depending on operand order, which compilers may swap).
"""
from __future__ import annotations

import numpy as np

from conftest import run_pocl

INTS = ("char", "uchar", "short", "ushort", "int", "uint", "long", "ulong")
FLOATS = ("float", "double")
SCALARS = INTS + FLOATS
WIDTHS = (1, 2, 3, 4, 8, 16)
DTYPES = {"char": np.int8, "uchar": np.uint8, "short": np.int16, "ushort": np.uint16,
          "int": np.int32, "uint": np.uint32, "long": np.int64, "ulong": np.uint64,
          "float": np.float32, "double": np.float64}
# The signed integer type of a type's size: the element type of vector comparisons.
MASK = {"char": "char", "uchar": "char", "short": "short", "ushort": "short", "int": "int",
        "uint": "int", "float": "int", "long": "long", "ulong": "long", "double": "long"}
SEED = 20250101


def vname(t: str, n: int) -> str:
    return t if n == 1 else f"{t}{n}"


def slots(n: int) -> int:
    return 4 if n == 3 else n


def rng(salt: str | int = 0) -> np.random.Generator:
    import zlib
    return np.random.default_rng(SEED + zlib.crc32(str(salt).encode()))


def edge_values(t: str) -> np.ndarray:
    """The values every test of type ``t`` includes."""
    dt = np.dtype(DTYPES[t])
    if dt.kind in "iu":
        info = np.iinfo(dt)
        vals = {0, 1, 2, 3, 7, info.max, info.max - 1, info.min, info.min + 1}
        for k in range(1, dt.itemsize * 8):
            for v in (1 << k, (1 << k) - 1, (1 << k) + 1, -(1 << k), -(1 << k) - 1,
                      -(1 << k) + 1):
                if info.min <= v <= info.max:
                    vals.add(v)
        if dt.kind == "i":
            vals.update({-1, -2, -3, -7})
        return np.array(sorted(vals), dtype=dt)
    info = np.finfo(dt)
    vals = [0.0, -0.0, 1.0, -1.0, 0.5, -0.5, 1.5, -1.5, 2.5, -2.5, 3.5, 0.49999997,
            np.inf, -np.inf, np.nan, -np.nan, float(info.max), -float(info.max),
            float(info.tiny), -float(info.tiny), float(info.smallest_subnormal),
            -float(info.smallest_subnormal), float(info.tiny) / 3, 1e-300, -1e300]
    for k in (7, 8, 15, 16, 23, 24, 25, 31, 32, 33, 52, 53, 54, 63, 64, 65):
        for base in (2.0 ** k, -(2.0 ** k)):
            vals += [base, base + 1, base - 1, base + 0.5, base - 0.5]
    with np.errstate(over="ignore"):
        out = np.array(vals, dtype=np.float64).astype(dt)
    # the neighbours of powers of two, in the type's own precision
    pows = np.array([2.0 ** k for k in (8, 16, 24, 31, 32, 63, 64)], dtype=dt)
    return np.concatenate([out, np.nextafter(pows, dt.type(0)), np.nextafter(pows, dt.type(np.inf)),
                           -np.nextafter(pows, dt.type(0))])


def random_values(t: str, count: int, r: np.random.Generator, bits: bool = True) -> np.ndarray:
    """Random values of type ``t``: uniform bit patterns and, for floats, also values of
    moderate magnitude; the edge values come first."""
    dt = np.dtype(DTYPES[t])
    edges = edge_values(t)
    rest = count - len(edges)
    if rest <= 0:
        return r.permutation(edges)[:count]
    raw = r.integers(0, 256, rest * dt.itemsize, dtype=np.uint8).view(dt)
    if dt.kind == "f":
        moderate = (r.standard_normal(rest) * 10.0 ** r.integers(-3, 6, rest)).astype(dt)
        pick = r.random(rest) < (0.5 if bits else 0.0)
        raw = np.where(pick, raw, moderate)
    return np.concatenate([edges, raw]).astype(dt)


def vector_buffer(values: np.ndarray, n: int) -> np.ndarray:
    """Elements of width n (3 padded to 4) from a flat array of count * n values."""
    count = len(values) // n
    out = np.zeros((count, slots(n)), values.dtype)
    out[:, :n] = values[:count * n].reshape(count, n)
    return out.reshape(-1)


def lanes(buf: np.ndarray, n: int) -> np.ndarray:
    """The components of a buffer of width-n elements, without 3-vector padding."""
    return buf.reshape(-1, slots(n))[:, :n]


def poison(shape, t: str) -> np.ndarray:
    dt = np.dtype(DTYPES[t])
    return np.full(shape, 0xA5, np.uint8).view(dt) if dt.itemsize == 1 else \
        np.frombuffer(np.full(int(np.prod(shape)) * dt.itemsize, 0xA5, np.uint8),
                      dt).reshape(shape).copy()


def same(got: np.ndarray, want: np.ndarray) -> np.ndarray:
    """Element-wise: bit-identical, or both NaN."""
    got, want = np.asarray(got), np.asarray(want)
    if got.dtype.kind == "f":
        bits = f"u{got.dtype.itemsize}"
        eq = got.view(bits) == want.view(bits)
        return eq | (np.isnan(got) & np.isnan(want))
    return got == want


def run_both(program, source: str, kernel: str, gsize, *args, options: str = ""):
    """Run ``kernel`` on cl2c and PoCL with copies of ``args``; the two argument lists
    after the runs (arrays written in place)."""
    mine = [a.copy() if isinstance(a, np.ndarray) else a for a in args]
    ref = [a.copy() if isinstance(a, np.ndarray) else a for a in args]
    getattr(program, kernel)(gsize, None, *mine)
    run_pocl(source, kernel, gsize, None, *ref, options=options)
    return mine, ref


def describe_mismatch(got, want, labels, max_items: int = 12) -> str:
    """A readable list of the first differences, by label."""
    bad = np.argwhere(~same(got, want))
    lines = []
    for idx in bad[:max_items]:
        idx = tuple(idx)
        lines.append(f"{labels(idx)}: cl2c {got[idx]!r} PoCL {want[idx]!r}")
    more = len(bad) - max_items
    return "\n".join(lines) + (f"\n... and {more} more" if more > 0 else "")
