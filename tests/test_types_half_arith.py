"""half arithmetic under cl_khr_fp16 (spec 9.4) against NumPy's float16.

PoCL here has no cl_khr_fp16, so NumPy is the reference: its float16 operators compute
in float and round once to half, which is what OpenCL's half + - * / give (exactly). The
math builtins compute in float and round once: within 1 ULP of the double result
rounded to half, tighter than the extension's bounds. Conversions into half are checked
for every rounding mode, conversions from half into integers for every mode with and
without _sat. One program holds every kernel (one build).
"""
from __future__ import annotations

import numpy as np
import pytest

import cl2c
import typegen as tg
from cl2c.target import Target

pytestmark = pytest.mark.skipif(not Target.host().has_float16,
                                reason="the C compiler has no _Float16")

N = 256
WIDTHS = (1, 2, 3, 4, 8, 16)
# a compound expression too: C may compute _Float16 in float, OpenCL rounds every step
EXPRS = ("a + b", "a - b", "a * b", "a / b", "-a", "a * b + b / a - a", "a * 3 - 1")
CMPS = ("<", ">", "<=", ">=", "==", "!=")
MODES = ("", "_rte", "_rtz", "_rtp", "_rtn")
OTHERS = tg.INTS + tg.FLOATS
MATH1 = ("sin", "cos", "exp", "exp2", "log", "log2", "sqrt", "rsqrt", "floor", "ceil",
         "trunc", "rint", "fabs", "tanh", "cbrt", "sinpi", "atan")
MATH2 = ("pow", "atan2", "fmax", "fmin", "fmod", "hypot", "copysign")


def _ops_kernel(n: int) -> str:
    t, m = tg.vname("half", n), tg.vname("short" if n > 1 else "int", n)
    body = [f"    R[g * {len(EXPRS)} + {k}] = {e};" for k, e in enumerate(EXPRS)]
    body += [f"    M[g * {len(CMPS)} + {k}] = a {op} b;" for k, op in enumerate(CMPS)]
    return f"""
__kernel void ops{n}(__global const {t} *A, __global const {t} *B, __global {t} *R,
                     __global {m} *M)
{{
    size_t g = get_global_id(0);
    {t} a = A[g], b = B[g];
{chr(10).join(body)}
}}"""


def _source() -> str:
    parts = ["#pragma OPENCL EXTENSION cl_khr_fp16 : enable",
             "#pragma OPENCL EXTENSION cl_khr_fp64 : enable"]
    parts += [_ops_kernel(n) for n in WIDTHS]
    # conversions from half into every type, and into half from every type
    params = ", ".join(f"__global {d} *O_{d}" for d in OTHERS)
    body = []
    for d in OTHERS:
        sfx = _suffixes(d)
        body += [f"    O_{d}[g * {len(sfx)} + {j}] = convert_{d}{s}(x);"
                 for j, s in enumerate(sfx)]
    parts.append(f"""
__kernel void from_half(__global const half *X, {params})
{{
    size_t g = get_global_id(0);
    half x = X[g];
{chr(10).join(body)}
}}""")
    for s in OTHERS:
        body = [f"    O[g * {len(MODES)} + {j}] = convert_half{m}(x);"
                for j, m in enumerate(MODES)]
        parts.append(f"""
__kernel void to_half_{s}(__global const {s} *X, __global half *O, __global half4 *O4)
{{
    size_t g = get_global_id(0);
    {s} x = X[g];
{chr(10).join(body)}
    O4[g] = convert_half4_rtz(({s}4)(x));
}}""")
    math = [f"    O[g * {len(MATH1) + len(MATH2)} + {k}] = {f}(x);" for k, f in enumerate(MATH1)]
    math += [f"    O[g * {len(MATH1) + len(MATH2)} + {len(MATH1) + k}] = {f}(x, y);"
             for k, f in enumerate(MATH2)]
    parts.append(f"""
__kernel void math(__global const half *X, __global const half *Y, __global half *O,
                   __global half4 *F4, __global half4 *S4)
{{
    size_t g = get_global_id(0);
    half x = X[g], y = Y[g];
{chr(10).join(math)}
    F4[g] = fma(vload4(g, X), vload4(g, Y), (half4)(x));
    S4[g] = sqrt(vload4(g, Y));
}}

__kernel void misc(__global const half *X, __global const short *C, __global half *S,
                   __global half4 *V, __global half *W, half k, __global int *I)
{{
    size_t g = get_global_id(0);
    half4 a = vload4(g, X), b = vload4(g + 1, X);
    S[g] = select(X[g], X[g + 1], C[g]);
    V[g] = shuffle2(a, b, (ushort4)(7, C[g] & 7, 0, 3)) + select(a, b, vload4(g, C));
    vstore3(vload3(g, X) * k, g, W);
    I[g] = as_short(X[g]) + (X[g] < k) + isnan(X[g]) * 2;
}}""")
    return "\n".join(parts)


def _suffixes(d: str) -> list[str]:
    return list(MODES) + ([f"_sat{m}" for m in MODES] if d in tg.INTS else [])


SOURCE = _source()


@pytest.fixture(scope="module")
def program():
    return cl2c.Program(SOURCE).build()


def _halves(count: int, salt) -> np.ndarray:
    """Every kind of half: the edge values, then random bit patterns and moderate
    values."""
    r = tg.rng(salt)
    edges = np.array([0, -0.0, 1, -1, 0.5, 1.5, 2.5, -2.5, 65504, -65504, 6e-8, -6e-8,
                      6.1e-5, np.inf, -np.inf, np.nan, 0.333, 3.14, 1e4, 255.5], np.float16)
    bits = r.integers(0, 1 << 16, count // 2, dtype=np.uint16).view(np.float16)
    moderate = r.uniform(-100, 100, count - len(edges) - len(bits)).astype(np.float16)
    return np.concatenate([edges, bits, moderate])


def _lanes(flat: np.ndarray, n: int) -> np.ndarray:
    """The used lanes of a buffer of n-vectors (a 3-vector takes four slots)."""
    return flat.reshape(-1, tg.slots(n))[:, :n].ravel()


@pytest.mark.parametrize("n", WIDTHS)
def test_operators_round_like_numpy_float16(n, program):
    count = N // tg.slots(n)
    a, b = _halves(count * tg.slots(n), f"a{n}"), _halves(count * tg.slots(n), f"b{n}")
    r = np.zeros(count * tg.slots(n) * len(EXPRS), np.float16)
    m = np.zeros(count * tg.slots(n) * len(CMPS), np.int16 if n > 1 else np.int32)
    getattr(program, f"ops{n}")((count,), None, a, b, r, m)
    av, bv = _lanes(a, n), _lanes(b, n)
    r = r.reshape(count, len(EXPRS), tg.slots(n))[:, :, :n]
    m = m.reshape(count, len(CMPS), tg.slots(n))[:, :, :n]
    with np.errstate(all="ignore"):
        for k, e in enumerate(EXPRS):
            want = eval(e, {"a": av, "b": bv})    # NumPy keeps float16 with int scalars
            got = r[:, k, :].ravel()
            bad = ~tg.same(got, want)
            assert not bad.any(), f"half{n} {e}: {av[bad][:3]} {bv[bad][:3]} -> " \
                                  f"{got[bad][:3]}, NumPy {want[bad][:3]}"
        for k, op in enumerate(CMPS):
            want = eval(f"av {op} bv").astype(int) * (-1 if n > 1 else 1)
            assert (m[:, k, :].ravel() == want).all(), f"half{n} {op}"


def _round_half(x: np.ndarray, mode: str) -> np.ndarray:
    """float64 ``x`` rounded to half by ``mode`` (NumPy rounds to nearest even)."""
    with np.errstate(all="ignore"):
        h = x.astype(np.float16)
        wide = h.astype(np.float64)
        if mode == "_rtz":
            step = np.abs(wide) > np.abs(x)
            h[step] = np.nextafter(h[step], np.float16(0))
        elif mode == "_rtp":
            step = wide < x
            h[step] = np.nextafter(h[step], np.float16(np.inf))
        elif mode == "_rtn":
            step = wide > x
            h[step] = np.nextafter(h[step], np.float16(-np.inf))
    return h


@pytest.mark.parametrize("src", OTHERS)
def test_conversions_into_half_every_mode(src, program):
    x = tg.random_values(src, N, tg.rng(f"to-half-{src}"))
    if src in tg.FLOATS:    # values near halves' rounding points, too
        with np.errstate(all="ignore"):
            x[-64:] = (_halves(64, "near").astype(np.float64) * (1 + 2.0 ** -12)).astype(x.dtype)
    o = np.zeros(N * len(MODES), np.float16)
    o4 = np.zeros(N * 4, np.float16)
    getattr(program, f"to_half_{src}")((N,), None, x, o, o4)
    o = o.reshape(N, len(MODES))
    for j, mode in enumerate(MODES):
        want = _round_half(x.astype(np.float64), mode or "_rte")
        bad = ~tg.same(o[:, j], want)
        assert not bad.any(), f"convert_half{mode}(({src}){x[bad][:3]}) = {o[bad, j][:3]}, " \
                              f"expected {want[bad][:3]}"
    assert tg.same(o4.reshape(N, 4), _round_half(x.astype(np.float64), "_rtz")[:, None]).all()


def test_conversions_from_half_every_type_and_mode(program):
    x = _halves(N, "from-half")
    outs = [np.zeros(N * len(_suffixes(d)), tg.DTYPES[d]) for d in OTHERS]
    program.from_half((N,), None, x, *outs)
    x64 = x.astype(np.float64)
    rnd = {"_rte": np.rint, "_rtz": np.trunc, "_rtp": np.ceil, "_rtn": np.floor}
    bad = []
    for d, out in zip(OTHERS, outs):
        sfx = _suffixes(d)
        out = out.reshape(N, len(sfx))
        for j, s in enumerate(sfx):
            if d in tg.FLOATS:
                want, ok = x.astype(tg.DTYPES[d]), np.ones(N, bool)
            else:
                info = np.iinfo(tg.DTYPES[d])
                with np.errstate(invalid="ignore"):
                    v = rnd[s.replace("_sat", "") or "_rtz"](x64).tolist()
                # Python compares floats and ints exactly (float64(LONG_MAX) is 2^63).
                # _sat: NaN gives 0, out of range the nearest limit; without it, the spec
                # leaves those results undefined.
                ok = np.array(["_sat" in s or info.min <= q <= info.max for q in v])
                vals = [0 if q != q else info.max if q >= info.max else
                        info.min if q <= info.min else int(q) for q in v]
                want = np.array(vals, tg.DTYPES[d])
            wrong = ok & ~tg.same(out[:, j], want)
            bad += [f"convert_{d}{s}((half){x[i]!r}) = {out[i, j]!r}, expected {want[i]!r}"
                    for i in np.nonzero(wrong)[0][:2]]
    assert not bad, "\n".join(bad[:20])


def _ulps(got: np.ndarray, exact: np.ndarray) -> np.ndarray:
    """|got - exact| in ULPs of half at the exact value; 0 where both are the same
    non-finite value."""
    with np.errstate(all="ignore"):
        ref = exact.astype(np.float16)
        ulp = np.spacing(np.abs(ref)).astype(np.float64)
        d = np.abs(got.astype(np.float64) - exact) / ulp
        same = (got == ref) | (np.isnan(got) & np.isnan(exact))
        return np.where(same, 0.0, np.nan_to_num(d, nan=np.inf))


def test_math_builtins_on_half_within_one_ulp(program):
    x, y = _halves(N, "mx"), _halves(N, "my")
    k = len(MATH1) + len(MATH2)
    o, f4, s4 = np.zeros(N * k, np.float16), np.zeros(N * 4, np.float16), \
        np.zeros(N * 4, np.float16)
    xx, yy = np.tile(x, 4), np.tile(y, 4)           # vload4(g) reads 4 g ... 4 g + 3
    program.math((N,), None, xx, yy, o, f4, s4)
    o = o.reshape(N, k)
    x64, y64 = x.astype(np.float64), y.astype(np.float64)
    ref = {"exp2": np.exp2, "log2": np.log2, "rsqrt": lambda v: 1 / np.sqrt(v),
           "fabs": np.abs, "cbrt": np.cbrt, "sinpi": lambda v: np.sin(np.pi * v),
           "pow": np.power, "atan2": np.arctan2, "fmax": np.fmax, "fmin": np.fmin,
           "atan": np.arctan}
    bad = []
    with np.errstate(all="ignore"):
        for j, f in enumerate(MATH1 + MATH2):
            fn = ref.get(f) or getattr(np, f)
            exact = fn(x64) if f in MATH1 else fn(x64, y64)
            if f == "sinpi":       # sin(pi x) in double is no reference where |x| is large
                exact = np.where(np.abs(x64) < 8, exact, o[:, j].astype(np.float64))
            u = _ulps(o[:, j], exact)
            bad += [f"{f}({x[i]!r}, {y[i]!r}) = {o[i, j]!r}, exact {exact[i]!r}"
                    for i in np.nonzero(u > 1)[0][:2]]
        x4, y4 = xx.astype(np.float64), yy.astype(np.float64)
        for name, got, exact in (("fma", f4, x4 * y4 + np.repeat(x64, 4)),
                                 ("sqrt", s4, np.sqrt(y4))):
            u = _ulps(got, exact)
            bad += [f"half4 {name}: {got[i]!r}, exact {exact[i]!r}"
                    for i in np.nonzero(u > 1)[0][:2]]
    assert not bad, "\n".join(bad[:20])


def test_select_shuffle_vload_vstore_as_and_scalar_argument(program):
    x = _halves(4 * N + 8, "misc")              # vload4(g + 1, X) reads up to 4 N + 8
    c = tg.rng("c").integers(-3, 3, 4 * N).astype(np.int16)
    s, v = np.zeros(N, np.float16), np.zeros(N * 4, np.float16)
    w, i = np.zeros(N * 3 + 3, np.float16), np.zeros(N, np.int32)
    k = np.float16(1.5)
    program.misc((N,), None, x, c, s, v, w, k, i)
    g = np.arange(N)
    assert tg.same(s, np.where(c[:N] != 0, x[1:N + 1], x[:N])).all()
    a = np.stack([x[4 * g + j] for j in range(4)], 1)
    b = np.stack([x[4 * g + 4 + j] for j in range(4)], 1)
    ab = np.concatenate([a, b], 1)
    idx = np.stack([np.full(N, 7), c[:N].astype(np.uint16) & 7, np.zeros(N, int),
                    np.full(N, 3)], 1)
    sel = np.where(np.stack([c[4 * g + j] for j in range(4)], 1) < 0, b, a)
    with np.errstate(all="ignore"):
        want = np.take_along_axis(ab, idx.astype(int), 1) + sel
        assert tg.same(v.reshape(N, 4), want).all()
        want_w = (np.stack([x[3 * g + j] for j in range(3)], 1) * k).ravel()
        assert tg.same(w[:N * 3], want_w).all()
        want_i = x[:N].view(np.int16).astype(np.int32) + (x[:N] < k) + np.isnan(x[:N]) * 2
    assert (i == want_i).all()


@pytest.mark.parametrize("body", ["p[0] = p[1] + p[2];", "half h = 1;",
                                  "q[0] = convert_float(vload2(0, p).x);",
                                  "q[0] = (half)1.5f + 1;", ", half2 h) {"])
def test_half_arithmetic_without_the_pragma_is_an_error_at_its_position(body):
    params = "__global half *p, __global float *q"
    source = f"__kernel void k({params})\n{{\n    {body}\n}}\n"
    if body.startswith(","):          # a half parameter, on line 3
        source = f"\n__kernel void k({params}\n    {body}\n}}\n"
    with pytest.raises(cl2c.BuildError) as info:
        cl2c.Program(source, filename="h.cl").build()
    d = [d for d in info.value.diagnostics if d.severity == "error"][0]
    assert "cl_khr_fp16" in d.message and (d.file, d.line) == ("h.cl", 3), str(d)
    assert d.column and d.column >= 5, str(d)


def test_generated_c_demands_float16():
    """The C of a kernel that computes in half stops a compiler without _Float16 with an
    #error (rather than compiling half as uint16_t arithmetic); one that does not, does not."""
    uses = ("#pragma OPENCL EXTENSION cl_khr_fp16 : enable\n"
            "kernel void k(global half *a) { a[0] = a[0] * a[1]; }\n")
    plain = uses.replace("half", "float")
    assert "#error" in cl2c.translate(uses, "h.cl").c_source.split("__FLT16_MAX__", 1)[1]
    assert "__FLT16_MAX__" not in cl2c.translate(plain, "f.cl").c_source


def test_geometric_functions_on_half():
    """dot, length, distance, normalize and cross on half and half2/3/4, against NumPy
    in double rounded to half: within 2 ULP of half (the dot product accumulates in half,
    as float's accumulates in float). (The fast_ forms take float alone, in the spec and
    in clang's headers: test_builtins_table.py.)"""
    rng = np.random.default_rng(7)
    lines, outs = [], 0
    for n in (1, 2, 3, 4):
        get = (lambda i: f"x[{i}]") if n == 1 else \
            (lambda i, n=n: f"vload{n}({i}, x + {16 * n})")
        for fn in ("dot", "distance"):
            lines.append(f"o[{outs}] = {fn}({get(0)}, {get(1)});")
            outs += 1
        lines.append(f"o[{outs}] = length({get(0)});")
        outs += 1
    src = ("#pragma OPENCL EXTENSION cl_khr_fp16 : enable\n"
           "kernel void g(global half *x, global half *o, global half *nrm, global half *c) {\n"
           + "\n".join(lines) +
           "\nvstore4(normalize(vload4(0, x + 64)), 0, nrm);"
           "\nvstore3(cross(vload3(0, x + 48), vload3(1, x + 48)), 0, c);\n}\n")
    x = rng.uniform(-4, 4, 128).astype(np.float16)
    o, nrm, c = np.zeros(outs, np.float16), np.zeros(4, np.float16), np.zeros(3, np.float16)
    cl2c.Program(src, filename="geometric_half.cl").build().g((1,), (1,), x, o, nrm, c)
    want = []
    for n in (1, 2, 3, 4):
        a = x[16 * n:16 * n + n].astype(np.float64) if n > 1 else x[0:1].astype(np.float64)
        b = x[16 * n + n:16 * n + 2 * n].astype(np.float64) if n > 1 else \
            x[1:2].astype(np.float64)
        want += [a @ b, np.linalg.norm(a - b), np.linalg.norm(a)]
    v = x[64:68].astype(np.float64)
    u, w = x[48:51].astype(np.float64), x[51:54].astype(np.float64)
    checks = [(o, np.array(want)), (nrm, v / np.linalg.norm(v)),
              (c, np.cross(u, w))]
    for got, ref in checks:
        ref16 = ref.astype(np.float16)
        ulp = np.spacing(np.abs(ref16)).astype(np.float64)
        err = np.abs(got.astype(np.float64) - ref)
        assert (err <= 2 * ulp + 1e-3).all(), (got, ref16)


def test_printf_of_half_values():
    """%vNhf prints half vectors and %f a half scalar (promoted to double), as C's printf
    prints the same values as doubles."""
    import subprocess
    import sys
    from pathlib import Path
    src = ("#pragma OPENCL EXTENSION cl_khr_fp16 : enable\n"
           "kernel void k(global half *a) { half4 v = vload4(0, a);\n"
           '  printf("%v4hf|%.3f|%v2hg|%v3he\\n", v, a[1], v.xy, v.xyz); }\n')
    vals = np.array([1.5, -2, 0.25, 65504], np.float16)
    script = ("import sys, numpy as np, cl2c\n"
              f"p = cl2c.Program({src!r}).build()\n"
              f"p.k((1,), None, np.array({vals.tolist()!r}, np.float16))\n")
    env = {"PYTHONPATH": str(Path(cl2c.__file__).resolve().parent.parent),
           **{k: v for k, v in __import__("os").environ.items() if k != "PYTHONPATH"}}
    res = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True,
                         timeout=300, env=env)
    assert res.returncode == 0, res.stderr[-2000:]
    d = [float(v) for v in vals]
    want = (",".join("%f" % x for x in d) + "|%.3f" % d[1] + "|" +
            ",".join("%g" % x for x in d[:2]) + "|" + ",".join("%e" % x for x in d[:3]))
    assert res.stdout.splitlines() == [want]
