"""sinpi, cospi, tanpi and the math builtins with a pointer output (spec 6.12.2).

The pi functions are checked against a reference of higher precision: x is reduced
exactly (fmod(|x|, 2) and the differences from the nearest integer are exact in binary
floating point), then sin(pi d) and cos(pi d) are evaluated in long double (a 64-bit
significand) with pi to 64 bits: within about 2^-62 relative of the true value, far below
the ulp bounds checked (section 7.4: 4 ulp for sinpi and cospi, 6 for tanpi, in float and
in double).
The special cases of section 7.5.1 must come out exactly, the signs of zeros included.

The pointer-output functions (fract, modf, frexp, lgamma_r, sincos, remquo) are checked
on every vector width, float and double, with the pointer into private and into global
memory, against the scalar forms bit for bit; the scalar forms against the spec's
definitions computed here, and against PoCL where PoCL is exact.
"""
from __future__ import annotations

import math
import subprocess

import numpy as np
import pytest

import cl2c
import typegen as tg
import ulp_reference as ur
from cl2c.resources import runtime_include_dir
from conftest import run_pocl

LD = np.longdouble
if np.finfo(LD).nmant < 63:
    pytest.skip("the reference needs an 80-bit (or wider) long double", allow_module_level=True)

PI = LD(math.pi) + LD(1.2246467991473532e-16)     # pi - math.pi, to double precision
BOUND = {"sinpi": 4, "cospi": 4, "tanpi": 6}       # ulp, float and double alike (7.4)
SIGNIFICAND = {"float": 24, "double": 53}
MIN_EXP = {"float": -125, "double": -1021}          # of frexp: the smallest normal's
HEADER = "#pragma OPENCL EXTENSION cl_khr_fp64 : enable\n"
# NaN inputs (signalling ones among the random bit patterns) and the reference's poles
# raise NumPy's floating-point warnings: expected here.
pytestmark = pytest.mark.filterwarnings("ignore::RuntimeWarning")


def load(n, buf, idx):
    return f"{buf}[{idx}]" if n == 1 else f"vload{n}({idx}, {buf})"


def store(n, val, idx, buf):
    return f"{buf}[{idx}] = {val};" if n == 1 else f"vstore{n}({val}, {idx}, {buf});"


def ulp_error(got, ref, t):
    """|got - ref| in ulps of t at ref (section 7.4's ulp; ref in long double)."""
    ref = np.asarray(ref, LD)
    e = np.maximum(np.frexp(ref)[1], MIN_EXP[t])
    return np.abs(np.asarray(got).astype(LD) - ref) / np.ldexp(LD(1), e - SIGNIFICAND[t])


# ---- sinpi, cospi, tanpi ----------------------------------------------------------------
N_PI = 4080          # work-items of the scalar kernel; a multiple of every width


def pi_inputs(t):
    """Edge values (zeros, integers, half-integers and their neighbours, huge values,
    denormals, inf, NaN) and random ones, N_PI of them."""
    dt = tg.DTYPES[t]
    p = SIGNIFICAND[t]
    vals = [k / 4 for k in range(-40, 41)] + [-0.0, np.inf, -np.inf, np.nan]
    vals += [s * (2.0 ** k + d) for s in (1, -1) for k in (p - 2, p - 1, p, p + 1, 70, 120)
             for d in (-1.5, -1, -0.5, 0, 0.5, 1, 1.5)]
    info = np.finfo(dt)
    vals += [s * float(v) for s in (1, -1)
             for v in (info.smallest_subnormal, info.tiny, info.tiny / 3, info.max, info.eps)]
    edges = np.array(vals, np.float64).astype(dt)
    quarters = np.arange(-64, 65, dtype=dt) / dt(4)
    near = np.concatenate([np.nextafter(quarters, dt(np.inf)),
                           np.nextafter(quarters, -dt(np.inf))])
    r = tg.rng(f"pi-{t}")
    rest = N_PI - len(edges) - len(near)
    k = rest // 4
    small = r.uniform(-4, 4, k)
    large = r.uniform(-1, 1, k) * 2.0 ** r.uniform(0, p + 8, k)
    tiny = r.choice([-1, 1], k) * 2.0 ** r.uniform(-40, 0, k)
    bits = tg.random_values(t, rest - 3 * k + len(tg.edge_values(t)), r)[len(tg.edge_values(t)):]
    out = np.concatenate([edges, near, np.concatenate([small, large, tiny]).astype(dt), bits])
    assert len(out) == N_PI
    return out.astype(dt)


def pi_reference(x):
    """(sinpi, cospi, tanpi) of finite x (float64), in long double."""
    r = np.fmod(np.abs(x), 2.0)
    k = np.rint(r)                        # the nearest integer: 0, 1 or 2
    d = np.abs(r - k)                     # exact (Sterbenz), at most 1/2
    sign = np.where(k == 1, -1.0, 1.0)
    s = sign * np.where(r >= k, 1, -1) * np.sin(PI * d.astype(LD))
    # cos(pi d) loses its relative precision near d = 1/2, where sin(pi (1/2 - d)) is exact
    c = sign * np.where(d <= 0.25, np.cos(PI * d.astype(LD)), np.sin(PI * (0.5 - d).astype(LD)))
    s = np.where(x < 0, -s, s)
    return s, c, s / c


def pi_special(x):
    """{function: (mask, expected)}: the results section 7.5.1 prescribes, exactly."""
    finite = np.isfinite(x)
    xf = np.where(finite, x, 0)
    whole = finite & (x == np.trunc(x))
    half = finite & (np.fmod(np.abs(xf), 1) == 0.5)    # exact, unlike x - floor(x)
    even = np.fmod(np.floor(xf), 2) == 0                # n, or n of n + 0.5
    nan = np.full_like(x, np.nan)
    return {
        "sinpi": (whole | ~finite, np.where(finite, np.copysign(0.0, x), nan)),
        "cospi": (whole | half | ~finite,
                  np.where(half, 0.0, np.where(finite, np.where(even, 1.0, -1.0), nan))),
        "tanpi": (whole | half | ~finite,
                  np.where(half, np.where(even, np.inf, -np.inf),
                           np.where(finite, np.copysign(0.0, np.where(even, x, -x)), nan))),
    }


# FP_ILOGB0 and FP_ILOGBNAN: values the spec allows (6.12.2), and what ilogb returns
ILOGB_MACROS = """
#if !((FP_ILOGB0 == INT_MIN || FP_ILOGB0 == -INT_MAX) && \\
      (FP_ILOGBNAN == INT_MIN || FP_ILOGBNAN == INT_MAX))
#error "FP_ILOGB0 or FP_ILOGBNAN has a value that spec 6.12.2 does not allow"
#endif
__kernel void ilogb_macros(__global const float *F, __global const double *D, __global int *R)
{
    int4 want = (int4)(FP_ILOGB0, FP_ILOGB0, FP_ILOGBNAN, FP_ILOGBNAN);  /* 0, -0, NaN, -NaN */
    vstore4(ilogb(vload4(0, F)) - want, 0, R);
    vstore4(ilogb(vload4(0, D)) - want, 1, R);
    R[8] = ilogb(F[1]) - FP_ILOGB0;
    R[9] = ilogb(F[3]) - FP_ILOGBNAN;
    R[10] = ilogb(D[1]) - FP_ILOGB0;
    R[11] = ilogb(D[3]) - FP_ILOGBNAN;
}
"""


def pi_program():
    parts = [HEADER, ILOGB_MACROS]
    for t in tg.FLOATS:
        for n in tg.WIDTHS:
            v = tg.vname(t, n)
            body = "\n".join(f"    {store(n, f'{f}(x)', 'g', f.upper())}" for f in BOUND)
            parts.append(f"""
__kernel void pi_{v}(__global const {t} *X, __global {t} *SINPI, __global {t} *COSPI,
                     __global {t} *TANPI)
{{
    size_t g = get_global_id(0);
    {v} x = {load(n, 'X', 'g')};
{body}
}}""")
    return "\n".join(parts)


@pytest.fixture(scope="module")
def pi_results():
    """{type: (x, {function: results of the scalar kernel}, [vector mismatches])}."""
    prg = cl2c.Program(pi_program()).build()
    out = {"program": prg}
    for t in tg.FLOATS:
        x = pi_inputs(t)
        runs = {}
        for n in tg.WIDTHS:
            bufs = [tg.poison(N_PI, t) for _ in BOUND]
            getattr(prg, f"pi_{tg.vname(t, n)}")((N_PI // n,), None, x, *bufs)
            runs[n] = dict(zip(BOUND, bufs))
        mismatches = [f"{f} {tg.vname(t, n)}: x={x[i]!r} vector {runs[n][f][i]!r} "
                      f"scalar {runs[1][f][i]!r}"
                      for n in tg.WIDTHS[1:] for f in BOUND
                      for i in np.flatnonzero(~tg.same(runs[n][f], runs[1][f]))[:3]]
        out[t] = (x, runs[1], mismatches)
    return out


@pytest.mark.parametrize("t", tg.FLOATS)
def test_pi_vectors_match_scalars(pi_results, t):
    assert not pi_results[t][2], "\n".join(pi_results[t][2])


@pytest.mark.parametrize("t", tg.FLOATS)
@pytest.mark.parametrize("f", list(BOUND))
def test_pi_special_cases_exact(pi_results, t, f):
    x, got, _ = pi_results[t]
    mask, want = pi_special(x.astype(np.float64))[f]
    want = want.astype(x.dtype)
    bad = np.flatnonzero(mask & ~tg.same(got[f], want))
    assert not len(bad), "\n".join(f"{f}({x[i]!r}) = {got[f][i]!r}, spec: {want[i]!r}"
                                   for i in bad[:12])


def pi_max_ulp(pi_results, t, f):
    """(largest ulp error off the special cases, the x where it occurs)."""
    x, got, _ = pi_results[t]
    x64 = x.astype(np.float64)
    mask = ~pi_special(x64)[f][0]
    ref = dict(zip(BOUND, pi_reference(np.where(mask, x64, 0.125))))[f]
    err = np.where(mask, ulp_error(got[f], ref, t), 0)
    i = int(np.argmax(err))
    return float(err[i]), x[i]


@pytest.mark.parametrize("t", tg.FLOATS)
@pytest.mark.parametrize("f", list(BOUND))
def test_pi_within_ulp_bound(pi_results, t, f):
    worst, at = pi_max_ulp(pi_results, t, f)
    assert worst <= BOUND[f], f"{f}({at!r}): {worst:.2f} ulp, spec: {BOUND[f]}"


def test_ilogb_macros(pi_results):
    special = [0.0, -0.0, np.nan, -np.nan]
    r = np.full(12, 7, np.int32)
    pi_results["program"].ilogb_macros((1,), None, np.array(special, np.float32),
                                       np.array(special, np.float64), r)
    assert not r.any(), f"ilogb(x) - FP_ILOGB0/FP_ILOGBNAN: {r}"


# ---- fract, modf, frexp, lgamma_r, sincos, remquo: every width, private and global -------
N_PTR = 960
# (function, how it is called, the type its pointer points to: T the vector, I int)
POINTER_FUNCS = [("fract", "fract(x, {p})", "T"), ("modf", "modf(x, {p})", "T"),
                 ("sincos", "sincos(x, {p})", "T"), ("frexp", "frexp(x, {p})", "I"),
                 ("lgamma_r", "lgamma_r(x, {p})", "I"), ("remquo", "remquo(x, y, {p})", "I")]
# the builtins the results are checked against, in the same kernels
COMPANIONS = ["sin(x)", "cos(x)", "lgamma(x)"]
T_FUNCS = [f for f, _, k in POINTER_FUNCS if k == "T"]
I_FUNCS = [f for f, _, k in POINTER_FUNCS if k == "I"]
NR = len(POINTER_FUNCS) + len(COMPANIONS)


def ptr_kernel(t, n, space):
    """Results to R (NR per work-item), pointer outputs to P (fract, modf, sincos) and Q
    (frexp, lgamma_r, remquo): flat for private pointers, vector-typed for global ones."""
    v, vi = tg.vname(t, n), tg.vname("int", n)
    if space == "private":
        params = f"__global {t} *P, __global int *Q"
        decl = f"    {v} p; {vi} q;\n"
    else:
        params = f"__global {v} *P, __global {vi} *Q"
        decl = ""
    body, slot = [], {"T": 0, "I": 0}
    for j, (f, call, kind) in enumerate(POINTER_FUNCS):
        buf, k = ("P", slot["T"]) if kind == "T" else ("Q", slot["I"])
        slot[kind] += 1
        if space == "private":
            var = "p" if kind == "T" else "q"
            body.append(store(n, call.format(p="&" + var), f"g * {NR} + {j}", "R"))
            body.append(store(n, var, f"g * 3 + {k}", buf))
        else:
            body.append(store(n, call.format(p=f"&{buf}[g * 3 + {k}]"), f"g * {NR} + {j}", "R"))
    for j, call in enumerate(COMPANIONS, len(POINTER_FUNCS)):
        body.append(store(n, call, f"g * {NR} + {j}", "R"))
    lines = "\n".join("    " + b for b in body)
    return f"""
__kernel void ptr_{v}_{space}(__global const {t} *X, __global const {t} *Y, __global {t} *R,
                              {params})
{{
    size_t g = get_global_id(0);
    {v} x = {load(n, 'X', 'g')}, y = {load(n, 'Y', 'g')};
{decl}{lines}
}}"""


def ptr_source(types=tg.FLOATS, widths=tg.WIDTHS):
    return HEADER + "".join(ptr_kernel(t, n, s) for t in types for n in widths
                            for s in ("private", "global"))


def ptr_inputs(t):
    r = tg.rng(f"ptr-{t}")
    dt = tg.DTYPES[t]
    x = tg.random_values(t, N_PTR, r)
    x[-40:] = np.arange(-20, 20, dtype=dt) / dt(2)        # lgamma_r's poles and between
    y = tg.random_values(t, N_PTR, r)
    y = r.permutation(y)
    y[::4] = (r.uniform(0.5, 8, len(y[::4])) * r.choice([-1, 1], len(y[::4]))).astype(dt)
    y[1::16] = x[1::16] / dt(3)                           # small quotients
    return x, y


def run_ptr(prg, t, n, space, x, y, runner=None):
    """(R, P, Q) of kernel ptr_<t><n>_<space>, as (N_PTR, NR), (N_PTR, 3), (N_PTR, 3)."""
    items = N_PTR // n
    vec = space == "global"
    r = tg.poison(items * NR * n, t)
    p = tg.poison(items * 3 * (tg.slots(n) if vec else n), t)
    q = tg.poison(items * 3 * (tg.slots(n) if vec else n), "int")
    name = f"ptr_{tg.vname(t, n)}_{space}"
    if runner is None:
        getattr(prg, name)((items,), None, x, y, r, p, q)
    else:
        runner(name, (items,), None, x, y, r, p, q)

    def per_element(buf, k, padded):
        lanes = tg.lanes(buf, n) if padded else buf.reshape(-1, n)
        return lanes.reshape(items, k, n).transpose(0, 2, 1).reshape(N_PTR, k)

    return per_element(r, NR, False), per_element(p, 3, vec), per_element(q, 3, vec)


@pytest.fixture(scope="module")
def ptr_results():
    """{type: (x, y, {(width, space): (R, P, Q)})}."""
    prg = cl2c.Program(ptr_source()).build()
    out = {}
    for t in tg.FLOATS:
        x, y = ptr_inputs(t)
        out[t] = (x, y, {(n, s): run_ptr(prg, t, n, s, x, y)
                         for n in tg.WIDTHS for s in ("private", "global")})
    return out


@pytest.mark.parametrize("t", tg.FLOATS)
def test_pointer_outputs_vectors_match_scalars(ptr_results, t):
    x, y, runs = ptr_results[t]
    want = runs[(1, "private")]
    names = [f for f, _, _ in POINTER_FUNCS] + COMPANIONS
    failures = []
    for (n, space), got in runs.items():
        for what, g, w, labels in (("result", got[0], want[0], names),
                                   ("*pointer", got[1], want[1], T_FUNCS),
                                   ("*pointer", got[2], want[2], I_FUNCS)):
            for i, j in np.argwhere(~tg.same(g, w))[:4]:
                failures.append(f"{tg.vname(t, n)} {space}: {labels[j]} {what} x={x[i]!r} "
                                f"y={y[i]!r}: {g[i, j]!r}, scalar {w[i, j]!r}")
    assert not failures, "\n".join(failures)


def spec_fract(x):
    """fract of spec 6.12.2 and its edge cases (7.5.1): (value, *iptr)."""
    with np.errstate(invalid="ignore"):
        fl = np.floor(x)
        below_one = np.nextafter(x.dtype.type(1), x.dtype.type(0))
        v = np.minimum(x - fl, below_one)
    v = np.where((x == 0) | np.isinf(x), np.copysign(0, x).astype(x.dtype), v)
    return np.where(np.isnan(x), x, v), fl


def spec_modf(x):
    """modf as section 7.5.2 defines it: (value, *iptr)."""
    ip = np.trunc(x)
    with np.errstate(invalid="ignore"):
        v = np.copysign(np.where(np.isinf(x), 0, x - ip), x).astype(x.dtype)
    return v, ip


def gamma_sign(x):
    """The sign of Gamma(x) by the reflection formula: that of sin(pi x) for x < 0; 0 at
    the poles (x zero or a negative integer, and -inf) as lgamma_r stores (7.5.1)."""
    x = x.astype(np.float64)
    r = np.fmod(np.where(np.isfinite(x), x, 0), 2.0)
    k = np.rint(r)
    sign = np.where(np.fmod(k, 2) == 0, 1, -1) * np.sign(r - k)   # of sin(pi r), exactly
    sign = np.where(np.isinf(x) & (x < 0), 0, sign)
    return np.where((x > 0) | np.isnan(x), 1, sign).astype(np.int32)


def spec_remquo(x, y):
    """(remainder, the integral quotient x/y rounded to even, as a Python int or None)."""
    rem = [math.nan if q is None else math.remainder(a, b)
           for a, b, q in zip(x.astype(float), y.astype(float), ur.remquo_quotient(x, y))]
    return np.array(rem).astype(x.dtype), ur.remquo_quotient(x, y)


def quo_mismatches(got_q, x, y, quo):
    """remquo's quotient: the sign of x/y and the low 7 bits of the integral quotient; 0
    where the result is a NaN (7.5.1)."""
    return [i for i, (g, want) in enumerate(zip(got_q, quo))
            if not ur.remquo_quotient_ok(int(g), want, x[i], y[i])]


@pytest.mark.parametrize("t", tg.FLOATS)
def test_pointer_outputs_follow_spec(ptr_results, t):
    x, y, runs = ptr_results[t]
    (R, P, Q) = runs[(1, "private")]
    col = {f: j for j, (f, _, _) in enumerate(POINTER_FUNCS)}
    col.update({c.split("(")[0]: len(POINTER_FUNCS) + j for j, c in enumerate(COMPANIONS)})
    failures = []

    def check(label, got, want, bad=None):
        idx = np.flatnonzero(~tg.same(got, want)) if bad is None else bad
        failures.extend(f"{label}: x={x[i]!r} y={y[i]!r}: {got[i]!r}, spec {want[i]!r}"
                        for i in idx[:6])

    fv, fi = spec_fract(x)
    check("fract", R[:, col["fract"]], fv)
    check("fract *iptr", P[:, 0], fi)
    mv, mi = spec_modf(x)
    check("modf", R[:, col["modf"]], mv)
    check("modf *iptr", P[:, 1], mi)
    check("sincos", R[:, col["sincos"]], R[:, col["sin"]])
    check("sincos *cosval", P[:, 2], R[:, col["cos"]])
    with np.errstate(invalid="ignore"):
        m, e = np.frexp(x)
    check("frexp", R[:, col["frexp"]], m)
    check("frexp *exp", Q[:, 0], e.astype(np.int32))
    check("lgamma_r", R[:, col["lgamma_r"]], R[:, col["lgamma"]])
    check("lgamma_r *signp", Q[:, 1], gamma_sign(x))
    rv, quo = spec_remquo(x, y)
    check("remquo", R[:, col["remquo"]], rv)
    check("remquo *quo", Q[:, 2], np.array([q if q is not None else 0 for q in quo], object),
          quo_mismatches(Q[:, 2], x, y, quo))
    # sin and cos themselves, within their bound (4 ulp, 7.4)
    with np.errstate(invalid="ignore"):
        for f, j in (("sin", col["sin"]), ("cos", col["cos"])):
            finite = np.isfinite(x)
            ref = getattr(np, f)(np.where(finite, x, 0).astype(LD))
            err = np.where(finite, ulp_error(R[:, j], ref, t), 0)
            failures.extend(f"{f}({x[i]!r}): {err[i]:.2f} ulp"
                            for i in np.flatnonzero(err > 4)[:6])
    assert not failures, "\n".join(failures)


@pytest.mark.parametrize("t", tg.FLOATS)
def test_pointer_outputs_match_pocl(ptr_results, t, pocl):
    """Against PoCL on the scalar forms, where PoCL computes exactly what the spec says
    (PoCL 3.0 gives +0 for fract(-0) and fract(-inf), against 7.5.1; its lgamma_r stores 1
    or -1 at the poles)."""
    x, y, runs = ptr_results[t]
    source = HEADER + ptr_kernel(t, 1, "private")
    ref = run_ptr(None, t, 1, "private", x, y,
                  runner=lambda name, *args: run_pocl(source, name, *args))
    got = runs[(1, "private")]
    col = {f: j for j, (f, _, _) in enumerate(POINTER_FUNCS)}
    everywhere = np.ones(len(x), bool)
    fract_ok = np.isfinite(x) & (x != 0)
    poles = (x <= 0) & (x == np.floor(x))
    cases = [("fract", got[0][:, col["fract"]], ref[0][:, col["fract"]], fract_ok),
             ("fract *iptr", got[1][:, 0], ref[1][:, 0], everywhere),
             ("modf", got[0][:, col["modf"]], ref[0][:, col["modf"]], everywhere),
             ("modf *iptr", got[1][:, 1], ref[1][:, 1], everywhere),
             ("frexp", got[0][:, col["frexp"]], ref[0][:, col["frexp"]], everywhere),
             ("frexp *exp", got[2][:, 0], ref[2][:, 0], everywhere),
             ("lgamma_r *signp", got[2][:, 1], ref[2][:, 1], ~poles & ~np.isnan(x)),
             ("remquo", got[0][:, col["remquo"]], ref[0][:, col["remquo"]], everywhere),
             ("remquo *quo", got[2][:, 2], ref[2][:, 2], everywhere)]
    failures = [f"{label}: x={x[i]!r} y={y[i]!r}: cl2c {g[i]!r} PoCL {w[i]!r}"
                for label, g, w, where in cases
                for i in np.flatnonzero(where & ~tg.same(g, w))[:6]]
    assert not failures, "\n".join(failures)


# ---- the generated C ----------------------------------------------------------------------
@pytest.mark.parametrize("program", ["pi", "ptr"])
def test_generated_c_compiles_without_warnings(program, tmp_path, cc):
    """As tests/test_werror.py, for the vector math helpers of both programs. -Wno-psabi:
    gcc notes that passing 32- and 64-byte aligned structs (float8, float16) changed ABI
    in gcc 4.6, which concerns no one here."""
    source = pi_program() if program == "pi" else ptr_source()
    c_file = tmp_path / f"{program}.c"
    c_file.write_text(cl2c.translate(source, f"{program}.cl").c_source, encoding="utf-8")
    cmd = [cc, "-std=c11", "-fopenmp", "-Wall", "-Wextra", "-Werror", "-Wno-psabi",
           "-I", str(runtime_include_dir()), "-c", str(c_file), "-o", str(tmp_path / "k.o")]
    res = subprocess.run(cmd, capture_output=True, text=True)
    assert res.returncode == 0 and not res.stderr.strip(), f"{' '.join(cmd)}\n{res.stderr}"
