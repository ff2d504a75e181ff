"""Sizes, alignments and struct layouts as kernels see them, against PoCL and against the
host-side contract (cl2c.cltypes / NumPy structured dtypes, as PyOpenCL's cltypes).

sizeof of every scalar and vector type (3-vectors sized as 4), vec_step, and the field
offsets and sizes of structs and unions with vector members, arrays, nested records,
enums, typedefs and __attribute__((aligned(N))) / __attribute__((packed)).
"""
from __future__ import annotations

import numpy as np

import cl2c
import typegen as tg
from cl2c import cltypes
from conftest import run_pocl

RECORDS = """
typedef struct { char c; float4 v; int i; } A;                       /* vector alignment */
typedef struct { char c; int3 v; short s; } B;                       /* int3 is 16 bytes */
typedef struct { char c; double d; char e[3]; } C;
typedef struct __attribute__((packed)) { char c; int i; double d; } P;
typedef struct __attribute__((aligned(32))) { char c; int i; } AL;
typedef struct { A a; char tail; B b[2]; } N;                        /* nesting, arrays */
typedef union { float4 v; int i; char c[20]; } U;
typedef enum { RED, GREEN = 5, BLUE } E;
typedef struct { E e; char c; long l; uchar16 u; } S;
"""
FIELDS = {"A": ["c", "v", "i"], "B": ["c", "v", "s"], "C": ["c", "d", "e"],
          "P": ["c", "i", "d"], "AL": ["c", "i"], "N": ["a", "tail", "b"], "U": ["v", "i", "c"],
          "S": ["e", "c", "l", "u"]}


def _layout_source():
    lines = []
    k = 0
    for rec, fields in FIELDS.items():
        lines.append(f"    o[{k}] = sizeof({rec});")
        k += 1
        lines.append(f"    {{ {rec} r; __private char *base = (__private char *)&r;")
        for f in fields:
            lines.append(f"      o[{k}] = (int)((__private char *)&r.{f} - base); "
                         f"o[{k + 1}] = sizeof(r.{f});")
            k += 2
        lines.append("    }")
    types = [tg.vname(t, n) for t in tg.SCALARS for n in tg.WIDTHS] + ["bool", "size_t",
                                                                         "ptrdiff_t"]
    for name in types:
        lines.append(f"    {{ {name} x; o[{k}] = sizeof({name}); o[{k + 1}] = sizeof(x);"
                     + (f" o[{k + 2}] = vec_step(x);" if name not in ("bool", "size_t",
                                                                      "ptrdiff_t") else
                        f" o[{k + 2}] = 1;") + " }")
        k += 3
    src = ("#pragma OPENCL EXTENSION cl_khr_fp64 : enable\n" + RECORDS +
           "__kernel void layout(__global int *o) {\n" + "\n".join(lines) + "\n}\n")
    return src, k, types


def test_sizes_and_layouts_match_pocl(pocl):
    src, count, types = _layout_source()
    prg = cl2c.Program(src).build()
    got = np.full(count, -1, np.int32)
    ref = got.copy()
    prg.layout((1,), None, got)
    run_pocl(src, "layout", (1,), None, ref)
    # bool's size is implementation-defined (6.3.k): not compared.
    bool_at = count - 3 * len(types) + 3 * types.index("bool")
    keep = np.ones(count, bool)
    keep[bool_at:bool_at + 2] = False
    np.testing.assert_array_equal(got[keep], ref[keep])
    # and against the spec: sizeof and vec_step of vectors
    base = count - 3 * len(types)
    for j, name in enumerate(types[:-3]):
        elem = name.rstrip("0123456789")
        n = int(name[len(elem):] or 1)
        size = np.dtype(tg.DTYPES[elem]).itemsize * tg.slots(n)
        assert tuple(got[base + 3 * j: base + 3 * j + 3]) == (size, size, tg.slots(n)), name


def test_host_layout_matches_kernel():
    """cl2c.cltypes.struct_dtype gives the kernel's layout (NumPy's align=True does not:
    it aligns a float4 field to 4): a struct array written by the host is read field by
    field in the kernel, and the other way round."""
    src = """
typedef struct { char c; float4 v; int i; double d; int3 w; } R;
__kernel void roundtrip(__global R *r, __global float *f, __global int *i)
{
    size_t g = get_global_id(0);
    f[g * 4] = r[g].v.y + r[g].d;  i[g * 4] = r[g].c + r[g].i + r[g].w.z;
    r[g].v = r[g].v.wzyx;  r[g].w.x = -r[g].i;  r[g].c = 'z';
}
"""
    dt = cltypes.struct_dtype([("c", "char"), ("v", "float4"), ("i", "int"), ("d", "double"),
                               ("w", "int3")])
    assert dt.itemsize == 64 and dt.fields["v"][1] == 16 and dt.fields["w"][1] == 48
    n = 8
    r = np.zeros(n, dt)
    rng = tg.rng("layout")
    r["c"] = rng.integers(-100, 100, n)
    r["i"] = rng.integers(-1000, 1000, n)
    r["d"] = rng.standard_normal(n)
    for k, name in enumerate("xyzw"):
        r["v"][name] = rng.standard_normal(n).astype(np.float32)
    for name in "xyz":
        r["w"][name] = rng.integers(-50, 50, n)
    orig = r.copy()
    f = np.zeros(4 * n, np.float32)
    i = np.zeros(4 * n, np.int32)
    cl2c.Program(src).build().roundtrip((n,), None, r, f, i)
    np.testing.assert_array_equal(f[::4], (orig["v"]["y"] + orig["d"]).astype(np.float32))
    np.testing.assert_array_equal(i[::4], orig["c"] + orig["i"] + orig["w"]["z"])
    for a, b in zip("xyzw", "wzyx"):
        np.testing.assert_array_equal(r["v"][a], orig["v"][b])
    np.testing.assert_array_equal(r["w"]["x"], -orig["i"])
    assert (r["c"] == ord("z")).all() and (r["d"] == orig["d"]).all()


def test_cltypes_match_pyopencl():
    """cl2c.cltypes is PyOpenCL's cltypes: the same dtypes, field for field."""
    pcl = __import__("pytest").importorskip("pyopencl.cltypes")
    for t in tg.SCALARS:
        for n in (2, 3, 4, 8, 16):
            mine, theirs = getattr(cltypes, f"{t}{n}"), getattr(pcl, f"{t}{n}")
            assert mine.descr == theirs.descr and mine.itemsize == theirs.itemsize, (t, n)


def test_struct_dtype_matches_the_kernel_layout():
    """struct_dtype's offsets and sizes are the kernel's for the RECORDS above."""
    src, count, types = _layout_source()
    got = np.full(count, -1, np.int32)
    cl2c.Program(src).build().layout((1,), None, got)
    A = cltypes.struct_dtype([("c", "char"), ("v", "float4"), ("i", "int")])
    B = cltypes.struct_dtype([("c", "char"), ("v", "int3"), ("s", "short")])
    C = cltypes.struct_dtype([("c", "char"), ("d", "double"), ("e", "char", 3)])
    P = cltypes.struct_dtype([("c", "char"), ("i", "int"), ("d", "double")], packed=True)
    AL = cltypes.struct_dtype([("c", "char"), ("i", "int")], aligned=32)
    N = cltypes.struct_dtype([("a", A), ("tail", "char"), ("b", B, 2)])
    S = cltypes.struct_dtype([("e", "int"), ("c", "char"), ("l", "long"), ("u", "uchar16")])
    k = 0
    for name, dt in (("A", A), ("B", B), ("C", C), ("P", P), ("AL", AL), ("N", N), ("U", None),
                     ("S", S)):
        fields = FIELDS[name]
        if dt is not None:
            want = [dt.itemsize]
            for f in fields:
                want += [dt.fields[f][1], dt.fields[f][0].itemsize]
            assert list(got[k:k + 1 + 2 * len(fields)]) == want, name
        k += 1 + 2 * len(fields)


def test_attributes_after_the_closing_brace(pocl):
    """GCC's attribute position after '}' (of a typedef, a tagged struct, a union) counts
    like the one before the tag: the layout is PoCL's."""
    src = """typedef struct { char c; int i; } __attribute__((aligned(32))) T;
typedef union { char c; int i; } __attribute__((aligned(16))) U;
typedef struct __attribute__((packed)) { char c; int i; } __attribute__((aligned(8))) P;
struct S { char c; int i; } __attribute__((packed));
__kernel void k(__global int *o)
{ o[0] = sizeof(T); o[1] = sizeof(U); o[2] = sizeof(P); o[3] = sizeof(struct S); }"""
    got, want = np.zeros(4, np.int32), np.zeros(4, np.int32)
    cl2c.Program(src).build().k((1,), None, got)
    pocl(src, "k", (1,), None, want)
    assert list(got) == list(want) == [32, 16, 8, 5]
