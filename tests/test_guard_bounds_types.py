"""A guard read as a work-item loop's bounds (workgroup/builders/bounds.py) must pick the
work-items that C's own arithmetic picks: ids held in types that wrap (char, short,
unsigned with a negative term added), limits that C converts (a negative int compared
as size_t is huge; a ulong past PTRDIFF_MAX). Each kernel runs under the regions
schedule, which reads its guard as bounds, and under fibers, which runs the kernel as
written, one work-item at a time; the work-items each marks must be the same. The
combinations are a fixed sample of id type x added term x comparison x limit type, in
each form of guard (``if`` around the body, ``return`` before it, and across a barrier).
"""
from __future__ import annotations

import itertools
import random

import numpy as np
import pytest

import cl2c

ID_TYPES = ["uchar", "ushort", "short", "int", "uint", "long", "ulong", "size_t"]
TERMS = ["", " + 3", " + s", " + u"]            # s: a negative int, u: a huge ulong
OPS = ["<", "<=", ">", ">=", "=="]
LIMITS = {"int": [np.int32(100), np.int32(-1)],
          "uint": [np.uint32(70000), np.uint32(2**32 - 1)],
          "long": [np.int64(-3), np.int64(65600)],
          "ulong": [np.uint64(100), np.uint64(2**64 - 1)]}
FORMS = {
    "if": "if ({cond}) out[get_global_id(0)] = 1;",
    "ret": "if (!({cond})) return;\n    out[get_global_id(0)] = 1;",
    "bar": "if ({cond}) out[get_global_id(0)] = 1;\n    barrier(CLK_GLOBAL_MEM_FENCE);",
}
N, LOCAL = 70016, 64      # past 65536: ids wrap in 16 bits


def _cases():
    r = random.Random(20261202)
    every = list(itertools.product(ID_TYPES, TERMS, OPS, LIMITS))
    # those of the guards that cl2c read wrongly before, and a sample of the rest
    known = [("uint", " + s", "<", "uint"), ("uchar", "", "<", "uint"),
             ("size_t", "", "<", "int"), ("size_t", "", "<", "ulong"),
             ("size_t", " + s", "<", "int"), ("ushort", "", ">=", "uint"),
             ("long", " + u", "<", "long"), ("int", " + s", "<", "uint")]
    return known + r.sample([c for c in every if c not in known], 24)


def _source(cases):
    kernels = []
    for n, (id_type, term, op, limit) in enumerate(cases):
        for form, body in FORMS.items():
            cond = f"i {op} n"
            kernels.append(
                f"kernel void k{n}_{form}(global int *out, int s, ulong u, {limit} n) {{\n"
                f"    {id_type} i = get_global_id(0){term};\n"
                f"    {body.format(cond=cond)}\n}}\n")
    return "".join(kernels)


def test_guards_as_bounds_pick_what_c_picks(tmp_path, monkeypatch):
    monkeypatch.setenv("CL2C_CACHE_DIR", str(tmp_path))
    cases = _cases()
    src = _source(cases)
    regions = cl2c.Program(src).build(options="-cl2c-schedule=regions")
    fibers = cl2c.Program(src).build(options="-cl2c-schedule=fibers -cl-opt-disable")
    wrong = []
    for n, (id_type, term, op, limit) in enumerate(cases):
        for form in FORMS:
            for value in LIMITS[limit]:
                args = (np.int32(-5), np.uint64(2**64 - 7), value)
                got, want = np.zeros(N, np.int32), np.zeros(N, np.int32)
                getattr(regions, f"k{n}_{form}")((N,), (LOCAL,), got, *args)
                getattr(fibers, f"k{n}_{form}")((N,), (LOCAL,), want, *args)
                if not np.array_equal(got, want):
                    wrong.append(f"{id_type} i = get_global_id(0){term}; i {op} "
                                 f"({limit}){value} [{form}]: {int(got.sum())} work-items "
                                 f"marked, C marks {int(want.sum())}")
    assert not wrong, "\n".join(wrong)


@pytest.mark.parametrize("decl, want", [
    ("int i = get_global_id(0);", True),          # the common guard keeps its bounds
    ("size_t i = get_global_id(0);", True),
    ("uchar i = get_global_id(0);", False),       # wraps within a launch: tested per item
    ("uint i = get_global_id(0) + s;", False),
])
def test_which_guards_become_bounds(decl, want, tmp_path, monkeypatch):
    """The guards that C computes exactly still become bounds: the fix costs the common
    kernels nothing."""
    monkeypatch.setenv("CL2C_CACHE_DIR", str(tmp_path))
    src = (f"kernel void k(global int *out, int s, uint n) {{\n    {decl}\n"
           f"    if (i < n) out[get_global_id(0)] = 1;\n"
           f"    barrier(CLK_GLOBAL_MEM_FENCE);\n}}\n")
    c = cl2c.translate(src, options="-cl2c-schedule=regions").emitted
    assert ("cl2c_bound_hi" in c.source) == want
