"""A struct member's __attribute__((aligned(N))) lays the struct out as clang does, in a
packed struct too (cl2c dropped it: a struct the host shares with such a member was read
at other offsets). Layouts against PoCL's, and a struct by value built with
cltypes.struct_dtype."""
from __future__ import annotations

import numpy as np

import cl2c
from cl2c import cltypes
from conftest import run_pocl

STRUCTS = """
struct A { uint m0 __attribute__((aligned(8))); };
struct B { char c; int x __attribute__((aligned(16))); short s; };
struct P { float m0[3] __attribute__((aligned(4))); short m1[3] __attribute__((aligned(16))); }
    __attribute__((packed));
struct Q { double4 m0 __attribute__((aligned(16))); short m1[2]; } __attribute__((packed));
struct R { char c; float f __attribute__((aligned(2))); } __attribute__((packed));
struct N { char c; struct B b; int2 v __attribute__((aligned(32))); };
"""
MEASURES = ["sizeof(struct A)", "sizeof(struct B)", "OFF(B, x)", "OFF(B, s)",
            "sizeof(struct P)", "OFF(P, m1)", "sizeof(struct Q)", "OFF(Q, m1)",
            "sizeof(struct R)", "OFF(R, f)", "sizeof(struct N)", "OFF(N, b)", "OFF(N, v)"]
LAYOUTS = STRUCTS + """
#define OFF(S, m) ((char *)&v##S.m - (char *)&v##S)
kernel void k(global ulong *o) {
    struct A vA; struct B vB; struct P vP; struct Q vQ; struct R vR; struct N vN;
""" + "".join(f"    o[{i}] = {m};\n" for i, m in enumerate(MEASURES)) + "}\n"


def test_layouts_as_pocl():
    ours, theirs = np.zeros(len(MEASURES), np.uint64), np.zeros(len(MEASURES), np.uint64)
    cl2c.Program(LAYOUTS).build().k((1,), None, ours)
    run_pocl(LAYOUTS, "k", (1,), None, theirs)
    np.testing.assert_array_equal(ours, theirs, err_msg=str(MEASURES))


BY_VALUE = STRUCTS + """
kernel void k(struct B b, global int *o) { o[0] = b.c; o[1] = b.x; o[2] = b.s; }
"""


def test_struct_with_an_aligned_member_by_value():
    dt = cltypes.struct_dtype([("c", "char"), ("x", "int"), ("s", "short")],
                              aligned_fields={"x": 16})
    assert dt.itemsize == 32 and dt.fields["x"][1] == 16 and dt.fields["s"][1] == 20
    b = np.zeros((), dt)
    b["c"], b["x"], b["s"] = -3, 123456, 77
    ours, theirs = np.zeros(3, np.int32), np.zeros(3, np.int32)
    cl2c.Program(BY_VALUE).build().k((1,), None, b[()], ours)
    run_pocl(BY_VALUE, "k", (1,), None, b[()], theirs)
    np.testing.assert_array_equal(ours, [-3, 123456, 77])
    np.testing.assert_array_equal(ours, theirs)
