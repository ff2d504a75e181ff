"""Vector comparisons feeding a selection, against NumPy, under every schedule.

A comparison gives -1 or 0 per component; ``c ? a : b`` with a vector ``c`` and
``select(b, a, c)`` pick on each component's sign bit (spec 6.3.i, 6.12.6).
GCC 12 with AVX-512BW once inverted ``(a != b) ? b : s`` on char16 when the mask
was written as a negation (vectors.h says how it is written now; the operator
test's char kernel caught it). This holds every comparison, in both operand
orders and through select(), to NumPy on the widths where vector code differs
most.
"""
from __future__ import annotations

import numpy as np
import pytest

import cl2c

TYPES = {"char": np.int8, "uchar": np.uint8, "short": np.int16, "ushort": np.uint16,
         "int": np.int32, "uint": np.uint32, "long": np.int64, "float": np.float32}
MASKS = {"char": "char", "uchar": "char", "short": "short", "ushort": "short", "int": "int",
         "uint": "int", "long": "long", "float": "int"}
OPS = {"==": np.equal, "!=": np.not_equal, "<": np.less, ">": np.greater,
       "<=": np.less_equal, ">=": np.greater_equal}
WIDTHS = (4, 16)


def _source(t: str) -> str:
    kernels = []
    for n in WIDTHS:
        v, m = f"{t}{n}", f"{MASKS[t]}{n}"
        body = []
        for k, op in enumerate(OPS):
            body.append(f"    r[{3 * k}] = (a {op} b) ? b : s;")
            body.append(f"    r[{3 * k + 1}] = (a {op} b) ? s : a;")
            body.append(f"    r[{3 * k + 2}] = select(a, ({v})s, a {op} b);")
        kernels.append(f"""
kernel void masks_{v}(global const {v} *A, global const {v} *B, global const {t} *S,
                      global {v} *R)
{{
    size_t g = get_global_id(0);
    {v} a = A[g], b = B[g];
    {t} s = S[g];
    global {v} *r = R + g * {3 * len(OPS)};
{chr(10).join(body)}
}}""")
    return "\n".join(kernels)


def _expected(a, b, s):
    out = []
    for f in OPS.values():
        c = f(a, b)
        out += [np.where(c, b, s), np.where(c, s, a), np.where(c, s, a)]
    return np.stack(out, axis=1)


# The default schedule vectorises the work-item loop, which takes gcc minutes on
# 16-wide vectors of narrow types (see test_types_operators.py): those run on
# fibers, where the miscompile was seen, and the wider types on both.
CASES = [(t, "fibers") for t in TYPES] + \
    [(t, "auto") for t in TYPES if np.dtype(TYPES[t]).itemsize >= 4]


@pytest.mark.parametrize("t,schedule", CASES)
def test_comparison_masks_select_per_component(t, schedule):
    options = "" if schedule == "auto" else f"-cl2c-schedule={schedule}"
    prg = cl2c.Program(_source(t), options=options).build()
    rng = np.random.default_rng(sum(map(ord, t)))
    dt, items = TYPES[t], 64
    for n in WIDTHS:
        info = np.iinfo(dt) if dt != np.float32 else np.finfo(dt)
        lo, hi = (-100, 100) if dt == np.float32 else (info.min, info.max)
        a = rng.integers(lo, hi, (items, n), endpoint=True).astype(dt)
        b = rng.integers(lo, hi, (items, n), endpoint=True).astype(dt)
        b[:, ::3] = a[:, ::3]                     # equal components in every vector
        s = rng.integers(lo, hi, items, endpoint=True).astype(dt)
        r = np.zeros((items, 3 * len(OPS), n), dt)
        getattr(prg, f"masks_{t}{n}")((items,), None, a, b, s, r)
        want = _expected(a, b, s[:, None])
        bad = np.argwhere(r != want)
        assert not len(bad), f"{t}{n} under {schedule}: {len(bad)} wrong components, first " \
                             f"at (item, result, lane) {tuple(bad[0])}"
