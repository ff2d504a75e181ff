"""The type errors OpenCL C requires, each reported at file:line:col (spec 6.1-6.5).

Every case is a kernel body whose line marked ``// <-`` must be the one reported, with
a column and a message naming the problem. PoCL (clang) rejects all of them too.
"""
from __future__ import annotations

import pytest

import cl2c

HEADER = """#pragma OPENCL EXTENSION cl_khr_fp64 : enable
int helper(__global int *p) { return *p; }
__constant int K = 3;
__kernel void k(__global int *g, __local int *l, __constant int *c, __global float *f,
                int n, float x)
{
    int4 a = (int4)(1); uint4 u = (uint4)(2); float4 v = (float4)(0.5f);
    int8 e = (int8)(1); float3 t = (float3)(1.0f); int2 w = (int2)(0);
    int i = 0; int *pi = &i;
"""

CASES = [
    # swizzles
    ("a.xx = w;", "duplicate components"),
    ("a.yxy = (int3)(1);", "duplicate components"),
    ("i = a.s0x;", "invalid"),
    ("i = a.x1;", "invalid"),
    ("i = t.w;", "invalid"),
    ("i = w.z;", "invalid"),
    ("i = e.s8;", "invalid"),
    ("i = e.s8;", "invalid"),
    ("e = a.xyzwx;", "5 components"),
    ("int *q = &a.x;", "address of vector element"),
    ("w.lo = 1; i = w.lo.x;", "not a structure"),
    # vector types do not convert implicitly
    ("a = a + u;", "implicit conversions between vector types"),
    ("v = v * a;", "implicit conversions between vector types"),
    ("e = e + a;", "implicit conversions between vector types"),
    ("v = a;", "incompatible type"),
    ("a = e;", "incompatible type"),
    ("i = a;", "incompatible type"),
    ("u = (uint4)a;", "invalid conversion between vector types"),
    ("v = (float4)a;", "invalid conversion between vector types"),
    ("a += u;", "implicit conversions between vector types"),
    # a scalar of higher rank than the vector's element type (6.2.6)
    ("a = a + 1.0f;", "greater rank"),
    ("a = a + 1u;", "greater rank"),
    ("a = a * (long)n;", "greater rank"),
    ("v = v + 1.0;", "greater rank"),
    ("char4 ch = (char4)(1); ch = ch + 1;", "greater rank"),
    ("a = (a < 2) ? a : 1.5f;", "greater rank"),
    ("v *= 2.0;", "greater rank"),
    # operators that do not apply
    ("v = v % v;", "invalid operands"),
    ("v = v & v;", "invalid operands"),
    ("x = x << 1;", "invalid operands"),
    ("v = v >> 1;", "invalid operands"),
    ("i = n << a;", "vector shift count"),
    ("x++;", "cannot increment"),
    ("v--;", "cannot decrement"),
    ("v = v ? v : v;", "floating point type is not allowed"),
    ("char4 s4 = (char4)(1); v = s4 ? v : v;", "same number and size"),
    ("v.x %= 2.0f;", "invalid operands"),
    # vector literals
    ("v = (float4)(1.0f, 2.0f);", "needs 4 components"),
    ("v = (float4)(t, t);", "needs 4 components"),
    ("long4 q = (long4)(w, w);", "does not match"),
    # any/all take signed integers only (6.12.6); the runtime has no unsigned form
    ("i = any(u);", "no matching function"),
    ("i = all(u.x);", "no matching function"),
    # conversions and reinterpretation
    ("a = convert_int4(t);", "no matching function"),
    ("v = convert_float4_sat(a);", "_sat does not apply"),
    ("double4 d = as_double4(v);", "invalid reinterpretation"),
    ("int3 r3 = as_int3(w);", "invalid reinterpretation"),
    ("i = convert_bool(n);", "convert_"),
    # const and __constant
    ("const int ci = 1; ci = 2;", "const-qualified"),
    ("const int4 cv = (int4)(1); cv.x = 2;", "const-qualified"),
    ("K = 4;", "__constant"),
    ("c[0] = 1;", "__constant"),
    ("*c = 1;", "__constant"),
    ("vstore4(a, 0, c);", "__constant"),
    ("vstore_half(x, 0, (__constant half *)c);", "__constant"),
    # address spaces
    ("l = g;", "address space"),
    ("__global int *q = pi;", "address space"),
    ("i = helper(l);", "address space"),
    ("__local int *q = c;", "address space"),
    # half is a storage type
    ("float h = vload_half(0, f);", "no matching function"),
    ("half h;", "storage type"),
    ("__global half *hp = (__global half *)g; x = hp[1];", "vload_half"),
    ("__global half *hp = (__global half *)g; *hp = *hp;", "vload_half"),
    # (an element's address is no load, but a half read inside its index is)
    ("__global half *hp = (__global half *)g; x = vload_half(0, &hp[(int)hp[0]]);",
     "vload_half"),
    ("vstore_half(a, 0, (__global half *)g);", "float or double"),
]


@pytest.mark.parametrize("body,message", CASES, ids=[c[0] for c in CASES])
def test_type_error_is_reported_at_its_position(body, message):
    source = HEADER + "    " + body + "   // <-\n}\n"
    line = source.count("\n", 0, source.index("// <-")) + 1
    with pytest.raises(cl2c.BuildError) as info:
        cl2c.Program(source, filename="diag.cl").build()
    diags = [d for d in info.value.diagnostics if d.severity == "error"]
    assert diags, "no error reported"
    d = diags[0]
    assert message in d.message, d.message
    assert (d.file, d.line) == ("diag.cl", line), str(d)
    assert d.column and d.column >= 5, str(d)
    assert f"diag.cl:{line}:{d.column}: error:" in str(info.value)


VALID = """
__kernel void ok(__global int4 *g, __global float4 *f, __global uint *u, int n, float x)
{
    int4 a = g[0]; float4 v = f[0]; uint4 w = (uint4)(1);
    a = a + n; a = n * a; a = a << 33; a = a >> w.x;      /* shifts take any count */
    w = w + n;                                  /* int has lower rank than uint */
    v = v * n + x;                              /* ints convert to float */
    short8 s = (short8)(1); char c = 1; s = s + c;
    a = (a < 3) ? a : 7;
    v = (a > 0) ? v : x;
    v = (a > 0) ? 1.0f : 2.0f;                  /* scalars widened to the condition */
    int4 b = 1.5f;                              /* assignment converts, then widens */
    a.xy++; --a.zw; a.yx += 2;
    a = (int4)(w.xy.x, a.yzw);
    g[1] = a + b; f[1] = v + (float4)(x, (float2)(x), 1);
    u[0] = as_uint(x) + as_uint4(v).w + convert_uint_sat_rte(x) + (uint)sizeof(int3)
         + (uint)vec_step((float3)(x)) + (uint)vec_step(a) + vec_step(uint3);
}
"""


def test_valid_mixed_code_builds():
    cl2c.Program(VALID).build()


def _vec_step_kernel() -> str:
    """vec_step of every scalar and vector type, spelled as a type, through a typedef and
    as an (unevaluated) expression of that type; one int each."""
    import typegen as tg
    names = [t if n == 1 else f"{t}{n}" for t in tg.SCALARS + ("bool", "half")
             for n in tg.WIDTHS if n == 1 or t not in ("bool",)]
    names = [t for t in names if not (t.startswith("half") and t != "half")]
    lines = []
    for i, t in enumerate(names):
        lines.append(f"out[{3 * i}] = vec_step({t}); {{ typedef {t} td{i}; "
                     f"out[{3 * i + 1}] = vec_step(td{i}); }}")
        # (half values cannot be loaded without cl_khr_fp16, even unevaluated)
        operand = {"bool": "(bool)0", "half": "half"}.get(t, f"*(global {t} *)out")
        lines.append(f"out[{3 * i + 2}] = vec_step({operand});")
    return ("#pragma OPENCL EXTENSION cl_khr_fp64 : enable\n"
            "kernel void k(global int *out) {\n" + "\n".join(lines) + "\n}\n"), names


def test_vec_step_of_types_and_expressions(pocl):
    import numpy as np
    source, names = _vec_step_kernel()
    got = np.zeros(3 * len(names), np.int32)
    cl2c.Program(source, filename="vec_step.cl").build().k((1,), (1,), got)
    want = np.zeros_like(got)
    pocl(source, "k", (1,), (1,), want)
    assert list(got) == list(want)
    for i, t in enumerate(names):           # the spec's values: 3-vectors count 4
        n = int(t.lstrip("abcdefghijklmnopqrstuvwxyz") or 1)
        assert list(got[3 * i:3 * i + 3]) == [4 if n == 3 else n] * 3, t


GENERIC = """
int twice(int *p) { return 2 * *p; }            /* generic pointer (OpenCL C 2.0) */
__kernel void k(__global int *g, __local int *l)
{
    int x = 3;
    l[0] = 5;
    g[0] = twice(g) + twice(l) + twice(&x);
}
"""


def test_generic_address_space_accepts_named_spaces():
    import numpy as np
    prg = cl2c.Program(GENERIC, options="-cl-std=CL2.0").build()
    g = np.array([7], np.int32)
    prg.k((1,), (1,), g, cl2c.LocalMemory(4))
    assert g[0] == 2 * 7 + 2 * 5 + 2 * 3


def test_generic_address_space_excludes_constant():
    src = GENERIC.replace("__local int *l)", "__local int *l, __constant int *c)") \
        .replace("twice(&x);", "twice(&x) + twice(c);")
    with pytest.raises(cl2c.BuildError, match="address space"):
        cl2c.Program(src, options="-cl-std=CL2.0").build()
    with pytest.raises(cl2c.BuildError, match="address space"):     # CL1.2: private
        cl2c.Program(GENERIC).build()


def test_float_constants_are_macros_too():
    """INFINITY, NAN, HUGE_VALF and HUGE_VAL are macros (spec 6.12.2): #ifdef sees them."""
    import numpy as np
    src = """
#pragma OPENCL EXTENSION cl_khr_fp64 : enable
kernel void k(global float *o, global double *d) {
#if defined(INFINITY) && defined(NAN) && defined(HUGE_VALF) && defined(HUGE_VAL) && \\
    defined(MAXFLOAT)
    o[0] = INFINITY; o[1] = NAN; o[2] = HUGE_VALF; o[3] = -INFINITY; d[0] = HUGE_VAL;
#else
#error "a constant of 6.12.2 is not a macro"
#endif
}
"""
    o, d = np.zeros(4, np.float32), np.zeros(1, np.float64)
    cl2c.Program(src).build().k((1,), None, o, d)
    assert o[0] == np.inf and np.isnan(o[1]) and o[2] == np.inf and o[3] == -np.inf
    assert d[0] == np.inf


# ---- incompatible pointer types: warnings where clang warns ---------------------------
POINTERS = """void takes(uchar *p) { }
uchar *gives(uint4 *v) { return v; }                        /* <- returning */
float4 *same(float4 *v) { return v; }
__kernel void k(__global uint *g, __global int *gi)
{
    uint4 vec = (uint4)(0x00010203, 0x04050607, 0x08090A0B, 0x0C0D0E0F);
    uchar *p = &vec;                                        /* <- initializing */
    p = &vec;                                               /* <- assigning */
    takes(&vec);                                            /* <- passing */
    float2 f2; float *fp = &f2;                             /* <- initializing */
    int i; uint *q = &i; int **pp = &q;                     /* <- initializing */
    char c; uchar *r = &c;
    __global int *s = g;
    const int ci = 1; const int *cp = &ci;
    void *vp = &vec; int *ip = vp; uint4 *vq = (uint4 *)same((float4 *)vp);
    __global uchar *gb = (__global uchar *)g;
    g[0] = *p + *fp + *r + *s + *cp + *ip + **pp + (vq != 0) + *gb + gi[0];
}
"""
INCOMPATIBLE = ("incompatible pointer types initializing '__private uchar *' with an "
                "expression of type '__private uint4 *'")


def _pointer_warnings(source: str) -> list:
    with pytest.warns(cl2c.BuildWarning) as caught:
        cl2c.Program(source).build()
    return [line for w in caught for line in str(w.message).splitlines()
            if ": warning: " in line]


def test_incompatible_pointer_types_warn_as_clang_does():
    """uchar *p = &v with v a uint4 (a vector chapter's listing), and the same for
    assignment, argument passing and return: a warning each at its file:line:col; none
    for void, integers differing in sign only (clang's -Wpointer-sign), qualifiers, or
    casts."""
    warnings = _pointer_warnings(POINTERS)
    lines = POINTERS.splitlines()
    marked = [(n + 1, line.split("<- ")[1].split()[0]) for n, line in enumerate(lines)
              if "<- " in line]
    assert len(warnings) == len(marked), warnings
    for w, (line, what) in zip(warnings, marked):
        assert w.startswith(f"<kernel>:{line}:"), w
        assert f"warning: incompatible pointer types {what} " in w, w
    assert any(w.startswith("<kernel>:7:") and w.endswith(f": warning: {INCOMPATIBLE}")
               for w in warnings), warnings


def test_incompatible_pointer_types_where_clang_finds_them(tmp_path):
    """The same lines as clang's -Wincompatible-pointer-types (the differential)."""
    import re
    import shutil
    import subprocess
    clang = shutil.which("clang")
    if clang is None:
        pytest.skip("clang is not installed: the reference for which lines warn")
    path = tmp_path / "p.cl"
    path.write_text(POINTERS)
    res = subprocess.run([clang, "-x", "cl", "-cl-std=CL1.2", "-fsyntax-only", "-Xclang",
                          "-finclude-default-header", str(path)],
                         capture_output=True, text=True, timeout=120)
    theirs = sorted(int(m) for m in re.findall(
        r":(\d+):\d+: warning: .*\[-Wincompatible-pointer-types\]", res.stderr))
    ours = sorted(int(w.split(":")[1]) for w in _pointer_warnings(POINTERS))
    assert theirs and ours == theirs, res.stderr
