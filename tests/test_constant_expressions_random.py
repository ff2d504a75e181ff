"""Random constant expressions in __constant initializers, integer (with overflows,
narrowing casts, shifts, divisions by computed divisors) and float, through cl2c and
PoCL, bit for bit: what C's compiler folds from cl2c's C is what clang folds."""
from __future__ import annotations

import random

import numpy as np

import cl2c
from conftest import run_pocl

COUNT = 300
_FLOATS = ("1.0f", "0.1f", "3.0f", "1e-3f", "7.25f", "(float)1/3", "2.5f", "1e20f", "1e-30f",
           "(float)M", "-0.7f", "(float)(1 << 20)", "0x1.fffffep0f")
_INTS = ("1", "7u", "-3", "M", "0x7fffffff", "(int)2.9f", "(uint)-1", "sizeof(float4)",
         "(char)300", "(uchar)-1", "(short)70000", "5l")


def _float(r: random.Random, depth: int = 0) -> str:
    if depth > 3 or r.random() < 0.3:
        return r.choice(_FLOATS)
    k = r.random()
    if k < 0.8:
        return f"({_float(r, depth + 1)} {r.choice('+-*/')} {_float(r, depth + 1)})"
    return f"(float)({'int' if k < 0.9 else 'double'})({_float(r, depth + 1)})"


def _integer(r: random.Random, depth: int = 0) -> str:
    if depth > 3 or r.random() < 0.3:
        return r.choice(_INTS)
    op = r.choice(["+", "-", "*", "/", "%", "<<", ">>", "&", "|", "^", "<", "==", "&&"])
    a, b = _integer(r, depth + 1), _integer(r, depth + 1)
    if op in ("/", "%"):
        return f"({a} {op} (({b}) | 1))"        # (a divisor of zero: not a constant)
    if op in ("<<", ">>"):
        return f"({a} {op} (({b}) & 15))"
    return f"({a} {op} {b})"


def test_same_bits_as_pocl():
    r = random.Random(2026)
    floats = [_float(r) for _ in range(COUNT)]
    ints = [_integer(r) for _ in range(COUNT)]
    source = ("#define M 5\n__constant float F[] = {" + ", ".join(floats) + "};\n"
              "__constant long I[] = {" + ", ".join(f"(long)({e})" for e in ints) + "};\n"
              f"kernel void k(global float *o, global long *p) {{\n"
              f"    for (int i = 0; i < {COUNT}; ++i) {{ o[i] = F[i]; p[i] = I[i]; }}\n}}\n")
    ours = [np.zeros(COUNT, np.float32), np.zeros(COUNT, np.int64)]
    theirs = [np.zeros(COUNT, np.float32), np.zeros(COUNT, np.int64)]
    cl2c.Program(source).build().k((1,), None, *ours)
    run_pocl(source, "k", (1,), None, *theirs)
    for i in np.nonzero(ours[0].view(np.uint32) != theirs[0].view(np.uint32))[0][:5]:
        raise AssertionError(f"{floats[i]}: {ours[0][i]} (PoCL {theirs[0][i]})")
    for i in np.nonzero(ours[1] != theirs[1])[0][:5]:
        raise AssertionError(f"{ints[i]}: {ours[1][i]} (PoCL {theirs[1][i]})")
