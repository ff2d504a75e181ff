"""Every math builtin within its ULP bound and exact on the spec's special values (issue 11).

Each function of spec section 1.13.2 (and the half_ and native_ forms) is run, for half
(under cl_khr_fp16, where the compiler has _Float16), float and double, through one kernel
per (function, type) that computes the scalar form and a vector form on the same
arguments; all the kernels are one program, built once. The arguments are a random sample
(ulp_inputs.py: wide exponent ranges, subnormals, near-integers, near-multiples of pi/2...),
the special values of C99 Annex F.9 and section 2.5.1 (ulp_bounds.SPECIAL) and NaNs in each
argument. The results are checked against mpmath or exact arithmetic (ulp_reference.py):

- within the bound of section 2.4's tables (half: cl_khr_fp16's of OpenCL C 3.0), in ulps as
  section 2.4 defines them, without flushing subnormals: cl2c computes them (it sets no
  flush-to-zero mode and the spec lets a device flush only where it does not support them);
- exactly, bit for bit, where the bound is 0 ulp or correctly rounded, and on the special
  values (the sign of zero included; NaNs are equal whatever their sign and payload);
- native_*: no bound (implementation-defined), but finite where the reference is a normal
  number, with a relative error below 2^-11;
- the vector form equal to the scalar one, bit for bit, where the result is exact, and
  otherwise held to the same bound and special values.

CL2C_ULP_SAMPLE sets the number of random arguments per (function, type) (default 300);
``make test-ulp`` runs 20000 and prints the table of worst errors (test_report, which
CL2C_ULP_REPORT=1 turns on).
"""
from __future__ import annotations

import functools
import math
import os
from dataclasses import dataclass, field

import numpy as np
import pytest

import cl2c
import ulp_bounds as ub
import ulp_reference as ur
from cl2c.target import Target
from ulp_inputs import sample

SAMPLE = int(os.environ.get("CL2C_ULP_SAMPLE", "300"))
TYPES = (("half",) if Target.host().has_float16 else ()) + ("float", "double")
WIDTH = {"half": 8, "float": 4, "double": 2}          # the vector form checked per type
PAD = 16                                              # inputs padded to a multiple of this
# optimised: the vector forms of the math builtins are what -O3 makes of them
pytestmark = [pytest.mark.filterwarnings("ignore::RuntimeWarning"), pytest.mark.optimised]

# shapes: "1" T f(T); "2" T f(T, T); "3" T f(T, T, T); "n" T f(T, int); "i" int f(T);
# "u" T f(unsigned); "pT" T f(T, T*); "pI" T f(T, int*); "q" T f(T, T, int*)
SHAPES = {
    "1": "acos acosh acospi asin asinh asinpi atan atanh atanpi cbrt ceil cos cosh cospi erfc "
         "erf exp exp2 exp10 expm1 fabs floor lgamma log log2 log10 log1p logb rint round "
         "rsqrt sin sinh sinpi sqrt tan tanh tanpi tgamma trunc",
    "2": "atan2 atan2pi copysign fdim fmax fmin fmod hypot maxmag minmag nextafter pow powr "
         "remainder",
    "3": "fma mad", "n": "ldexp pown rootn", "i": "ilogb", "u": "nan",
    "pT": "fract modf sincos", "pI": "frexp lgamma_r", "q": "remquo",
}
SHAPE = {f: s for s, names in SHAPES.items() for f in names.split()}
for _f in ub.HALF_FUNCS:
    for _prefix in ("half_", "native_"):
        SHAPE[_prefix + _f] = "2" if _f in ("divide", "powr") else "1"
INT_ARGS = {f: (1,) for f, s in SHAPE.items() if s == "n"}


def cases():
    return [(f, t) for f in SHAPE for t in TYPES if ub.bound(f, t) is not None]


# ---- the kernels -------------------------------------------------------------------------
def kernel(f: str, t: str) -> str:
    w = WIDTH[t]
    v, iv = f"{t}{w}", f"int{w}"
    shape = SHAPE[f]
    ld = lambda buf: f"vload{w}(g / {w}, {buf})"         # noqa: E731
    st = lambda val, buf: f"vstore{w}({val}, g / {w}, {buf});"   # noqa: E731
    ins = {"1": "X", "2": "X, Y", "3": "X, Y, Z", "n": "X, N", "i": "X", "u": "X",
           "pT": "X", "pI": "X", "q": "X, Y"}[shape]
    in_types = {"N": "int"}
    params = [f"__global const {in_types.get(b, t)} *{b}" for b in ins.split(", ")]
    if shape == "u":
        params = [f"__global const {dict(half='ushort', float='uint', double='ulong')[t]} *X"]
    out_t = "int" if shape == "i" else t
    params += [f"__global {out_t} *R", f"__global {out_t} *RV"]
    s_args = ", ".join(f"{b}[g]" for b in ins.split(", "))
    v_args = ", ".join(ld(b) for b in ins.split(", "))
    body = []
    if shape in ("pT", "pI", "q"):
        q_t = t if shape == "pT" else "int"
        qv_t = v if shape == "pT" else iv
        params += [f"__global {q_t} *Q", f"__global {q_t} *QV"]
        call = f"{f}({v_args}, &qv)"
        body += [f"{q_t} q; R[g] = {f}({s_args}, &q); Q[g] = q;",
                 f"if (g % {w} == 0) {{ {qv_t} qv; {st(call, 'RV')} {st('qv', 'QV')} }}"]
    else:
        call = f"{f}({v_args})"
        body += [f"R[g] = {f}({s_args});", f"if (g % {w} == 0) {st(call, 'RV')}"]
    if f == "ldexp":                                    # ldexp(vector, int) too
        params.append(f"__global {t} *RS")
        call = f"ldexp({ld('X')}, N[g])"
        body.append(f"if (g % {w} == 0) {st(call, 'RS')}")
    lines = "\n    ".join(body)
    return f"""
__kernel void {f}_{t}({', '.join(params)})
{{
    size_t g = get_global_id(0);
    {lines}
}}"""


def program_source(types) -> str:
    head = "#pragma OPENCL EXTENSION cl_khr_fp64 : enable\n"
    if "half" in types:
        head += "#pragma OPENCL EXTENSION cl_khr_fp16 : enable\n"
    return head + "".join(kernel(f, t) for f, t in cases() if t in types)


# ---- running and checking ------------------------------------------------------------------
@dataclass
class Outcome:
    function: str
    type: str
    bound: float
    worst: float = 0.0
    worst_at: tuple = ()
    specials: int = 0
    failures: list = field(default_factory=list)

    def fail(self, what: str, args, got, want):
        if len(self.failures) < 12:
            shown = ", ".join(repr(a) for a in args)
            self.failures.append(f"{self.function}({shown}) [{self.type}] {what}: "
                                 f"got {got!r}, want {want!r}")


def arguments(f: str, t: ur.FloatType, specials, r) -> tuple[list, int, int]:
    """(argument arrays, random rows, NaN rows): the random sample, then the special
    values, then NaN in each float argument in turn (NaN in, NaN out: F.9), padded."""
    base = ur.base_name(f)
    rand = list(sample(base, t, SAMPLE, r))
    shape = SHAPE[f]
    nargs = len(rand)
    rows = [list(s.args) for s in specials]
    nnan = 0
    if shape not in ("u", "i") and base not in NAN_RULES:
        for k in set(range(nargs)) - set(INT_ARGS.get(f, ())):
            row = [3 if j in INT_ARGS.get(f, ()) else 1.5 for j in range(nargs)]
            row[k] = math.nan
            rows.append(row)
            nnan += 1
    out = []
    for j, col in enumerate(rand):
        extra = np.array([row[j] for row in rows], np.float64).astype(col.dtype)
        out.append(np.concatenate([col, extra]))
    n = len(out[0])
    pad = (-n) % PAD
    out = [np.concatenate([a, a[:pad]]) for a in out]
    return out, len(rand[0]), nnan


# functions with their own rules for NaN arguments (the table has them)
NAN_RULES = {"fmax", "fmin", "pow", "pown", "powr", "hypot", "copysign", "maxmag", "minmag",
             "nan", "ilogb", "frexp", "fract", "modf", "remquo", "lgamma_r", "nextafter"}


def run(prg, f: str, t: ur.FloatType, args: list) -> dict:
    n = len(args[0])
    shape = SHAPE[f]
    out_dt = np.int32 if shape == "i" else t.dtype
    res = {"R": np.zeros(n, out_dt), "RV": np.zeros(n, out_dt)}
    if shape in ("pT", "pI", "q"):
        q_dt = t.dtype if shape == "pT" else np.int32
        res.update(Q=np.zeros(n, q_dt), QV=np.zeros(n, q_dt))
    if f == "ldexp":
        res["RS"] = np.zeros(n, t.dtype)
    getattr(prg, f"{f}_{t.name}")((n,), None, *args, *res.values())
    return res


def check(prg, f: str, tname: str, specials: list) -> Outcome:
    t = ur.TYPE[tname]
    b = ub.bound(f, tname)
    o = Outcome(f, tname, b, specials=len(specials))
    r = np.random.default_rng([ord(c) for c in f"{f}/{tname}"])
    args, nrand, nnan = arguments(f, t, specials, r)
    res = run(prg, f, t, args)
    R = res["R"]
    # The vector forms: where the result is exact, the scalar results bit for bit; else
    # checked as the scalar form is (a vectorised loop may take the C library's vector
    # functions, within the same bound but not always the same last bit).
    if f == "ldexp":            # ldexp(vector, int): each vector's first n for all its lanes
        w = WIDTH[tname]
        res["RS_want"] = ur.EXACT["ldexp"](t, args[0], np.repeat(args[1][::w], w))
    exact = b == ub.EXACT
    for key, scalar in (("RV", "R"), ("QV", "Q"), ("RS", "RS_want")):
        if key in res and (exact or key == "RS"):
            for i in np.flatnonzero(~ur.same(res[key], res[scalar]))[:3]:
                o.fail(f"vector form ({key})", [a[i] for a in args], res[key][i], res[scalar][i])
    forms = [("R", "Q")] + ([("RV", "QV")] if not exact and "RV" in res else [])
    rand = [a[:nrand] for a in args]
    for r_key, q_key in forms:
        results = {k: v[:nrand] for k, v in res.items()}
        results["R"] = res[r_key][:nrand]
        if q_key in res:
            results["Q"] = res[q_key][:nrand]
        check_random(o, f, t, rand, results)
        got = res[r_key]
        for j, s in enumerate(specials):
            i = nrand + j
            check_special(o, t, s, got[i], res[q_key][i] if q_key in res else None)
        for i in range(nrand + len(specials), nrand + len(specials) + nnan):
            if not np.isnan(got[i]):
                o.fail("NaN argument", [a[i] for a in args], got[i], "NaN")
    return o


def check_special(o: Outcome, t, s: ur.Special, got, got_q):
    if s.exact:
        want = s.results[0]
        ok = ur.same(np.array([got]), np.array([want], dtype=np.asarray(got).dtype))[0]
        if not ok:
            o.fail(f"special value ({s.line})", s.args, got, want)
        if len(s.results) > 1 and got_q is not None:
            want_q = s.results[1]
            if not ur.same(np.array([got_q]), np.array([want_q], np.asarray(got_q).dtype))[0]:
                o.fail(f"special value, 2nd result ({s.line})", s.args, got_q, want_q)
        return
    err = ur.ulp_error(np.array([got]), np.array([ur.mp_to_ld(s.results[0])]), t)[0]
    limit = o.bound if o.bound not in (ub.INF, ub.EXACT) else 0.5
    if not err <= limit:
        o.fail(f"special value ({s.line}), {err:.2f} ulp", s.args, got, s.results[0])


def note(o: Outcome, err: np.ndarray, args):
    if len(err) and np.nanmax(err) > o.worst:
        i = int(np.nanargmax(err))
        o.worst, o.worst_at = float(err[i]), tuple(a[i] for a in args)


def check_random(o: Outcome, f: str, t, args, res):
    base = ur.base_name(f)
    R = res["R"]
    if f == "nan":
        bits = R.view(f"u{R.dtype.itemsize}")
        quiet = 1 << (t.p - 2)
        for i in np.flatnonzero(~np.isnan(R) | ((bits & quiet) == 0))[:3]:
            o.fail("not a quiet NaN", [args[0][i]], R[i], "a quiet NaN")
        return
    if f == "ilogb":
        want = ur.EXACT["ilogb"](t, args[0])
        for i in np.flatnonzero(R != want)[:6]:
            o.fail("exact", [args[0][i]], R[i], want[i])
        return
    if base in ur.EXACT and not f.startswith("native_") and o.bound == ub.EXACT:
        check_exact(o, f, t, args, res)
        return
    if f == "mad":               # double: any value; measured from fma or a*b + c
        err = np.minimum(ur.ulp_error(R, ur.EXACT["mad"](t, *args).astype(ur.LD), t),
                         ur.ulp_error(R, ur.MAD_ALTERNATIVE(t, *args).astype(ur.LD), t))
        note(o, err, args)
        return
    ref, judged = ur.mp_reference(f, args)
    err = np.where(judged, ur.ulp_error(R, ref, t), 0)
    note(o, err, args)
    if f.startswith("native_"):
        check_sane(o, t, args, R, ref, judged)
    else:
        for i in np.flatnonzero(~(err <= o.bound))[:6]:
            o.fail(f"{err[i]:.2f} ulp (bound {o.bound})", [a[i] for a in args], R[i],
                   ref[i])
    if f == "sincos":
        ref_c, _ = ur.mp_reference("cos", args)
        err_c = ur.ulp_error(res["Q"], ref_c, t)
        note(o, err_c, args)
        for i in np.flatnonzero(~(err_c <= o.bound))[:6]:
            o.fail(f"*cosval {err_c[i]:.2f} ulp", [a[i] for a in args], res["Q"][i], ref_c[i])
    if f == "lgamma_r":
        want = np.array([gamma_sign(float(x)) for x in args[0]], np.int32)
        for i in np.flatnonzero((res["Q"] != want) & ~np.isnan(args[0]))[:6]:
            o.fail("*signp", [args[0][i]], res["Q"][i], want[i])


def gamma_sign(x: float) -> int:
    """The sign of Gamma(x); 0 at its poles (section 2.5.1: x zero or a negative integer)."""
    if x > 0 or math.isnan(x):
        return 1
    if x == math.floor(x):
        return 0
    return -1 if math.floor(x) % 2 else 1


def check_sane(o: Outcome, t, args, R, ref, judged):
    """native_*: finite where the reference is a normal number, relative error < 2^-11."""
    with np.errstate(all="ignore"):
        normal = np.isfinite(ref) & (np.abs(ref) >= t.min) & (np.abs(ref) <= t.max) & judged
        rel = np.abs(R.astype(ur.LD) - ref) / np.abs(ref)
    bad = normal & ~(rel < 2.0 ** -11)
    for i in np.flatnonzero(bad)[:6]:
        o.fail("not sane", [a[i] for a in args], R[i], ref[i])


def check_exact(o: Outcome, f: str, t, args, res):
    base = ur.base_name(f)
    want = ur.EXACT[base](t, *args)
    pair = isinstance(want, tuple)
    first = want[0] if pair else want
    err = ur.ulp_error(res["R"], np.asarray(first).astype(ur.LD), t)
    ok = ur.same(res["R"], first)
    if f == "mad":                       # a correctly rounded fma, or a*b and + rounded
        alt = ur.MAD_ALTERNATIVE(t, *args)
        ok |= ur.same(res["R"], alt)
        err = np.minimum(err, ur.ulp_error(res["R"], alt.astype(ur.LD), t))
    note(o, err, args)
    for i in np.flatnonzero(~ok)[:6]:
        o.fail("not exact", [a[i] for a in args], res["R"][i], first[i])
    if f == "remquo":
        quo = ur.remquo_quotient(*args)
        for i, (g, w) in enumerate(zip(res["Q"], quo)):
            if not ur.remquo_quotient_ok(int(g), w, args[0][i], args[1][i]):
                o.fail("*quo", [args[0][i], args[1][i]], g, w)
    elif pair:
        ok2 = ur.same(res["Q"], want[1])
        for i in np.flatnonzero(~ok2)[:6]:
            o.fail("2nd result not exact", [a[i] for a in args], res["Q"][i], want[1][i])


# ---- the tests -----------------------------------------------------------------------------
@functools.lru_cache(maxsize=None)
def program(t: str):
    """The kernels of type t: one program per type, so that test workers share the build
    through the kernel cache and each computes the references of its own tests only."""
    return cl2c.Program(program_source((t,))).build()


@functools.lru_cache(maxsize=None)
def special_cases(t: str) -> dict:
    return ur.special_cases(ur.TYPE[t], INT_ARGS)


@functools.lru_cache(maxsize=None)
def outcome(f: str, t: str) -> Outcome:
    return check(program(t), f, t, special_cases(t).get(f, []))


def report(outcomes) -> str:
    lines = [f"{'function':<16} {'type':<7} {'bound':>8} {'worst (ulp)':>12} {'special':>8}  "
             f"{'status':<6} worst at"]
    for o in sorted(outcomes, key=lambda o: (o.function, TYPES.index(o.type))):
        b = "any" if o.bound == ub.INF else ("exact" if o.bound == ub.EXACT else o.bound)
        at = ", ".join(f"{float(a):.9g}" for a in o.worst_at)
        status = "FAIL" if o.failures else "ok"
        lines.append(f"{o.function:<16} {o.type:<7} {b!s:>8} {o.worst:>12.3f} "
                     f"{o.specials:>8}  {status:<6} {at}")
    return "\n".join(lines)


@pytest.mark.parametrize("f, t", cases(), ids=[f"{f}-{t}" for f, t in cases()])
def test_within_bound_and_special_values(f, t):
    o = outcome(f, t)
    assert not o.failures, "\n".join(o.failures)


@pytest.mark.skipif(not os.environ.get("CL2C_ULP_REPORT"), reason="CL2C_ULP_REPORT unset "
                    "(make test-ulp sets it): the table of worst errors is not wanted")
def test_report():
    """The table of worst errors, all functions (make test-ulp)."""
    print("\n" + report([outcome(f, t) for f, t in cases()]))


def test_every_math_builtin_is_covered():
    """The harness covers every math row of the builtin table (spec 6.12.2)."""
    from cl2c import builtins as bi
    math_rows = {r.name for r in bi.TABLE if r.family in ("F", "Ff", "Fv") and r.ret != "K"
                 and r.name not in ("degrees", "radians", "sign", "mix", "step", "smoothstep",
                                    "min", "max", "clamp")}
    math_rows |= {r.name for r in bi.TABLE if r.name.startswith(("native_", "half_"))}
    missing = math_rows - set(SHAPE)
    assert not missing, f"not in the ULP harness: {sorted(missing)}"


RELAXING = ("-cl-fast-relaxed-math", "-cl-mad-enable", "-cl-finite-math-only",
            "-cl-denorms-are-zero", "-cl-unsafe-math-optimizations", "-cl-no-signed-zeros")


@pytest.mark.parametrize("option", RELAXING)
def test_relaxing_options_change_no_math(option):
    """The options that permit less accurate math (spec 5.8.4.2-3; -cl-fast-relaxed-math's
    own table 38) change nothing in cl2c: the C of the harness's kernels is the same, so
    every check above holds under them too."""
    assert relaxing_sample(option) == relaxing_sample("")


@functools.lru_cache(maxsize=None)
def relaxing_sample(options: str) -> str:
    """The C of a few of the harness's kernels (the ones such options could touch)."""
    src = "#pragma OPENCL EXTENSION cl_khr_fp64 : enable\n" + "".join(
        kernel(f, t) for f in ("sin", "pow", "sqrt", "fma", "mad", "exp", "fmax", "native_exp",
                               "half_divide", "rsqrt")
        for t in ("float", "double") if ub.bound(f, t) is not None)
    return cl2c.translate(src, "ulp.cl", options=options).c_source


def test_no_unsafe_math_flags():
    """No C flag may let the compiler relax IEEE arithmetic: not -ffast-math nor any of its
    parts, nor FP contraction (-std=c11 keeps GCC's ISO default, -ffp-contract=off)."""
    unsafe = ("-ffast-math", "-Ofast", "-funsafe-math-optimizations", "-ffinite-math-only",
              "-fno-signed-zeros", "-freciprocal-math", "-fassociative-math",
              "-fcx-limited-range", "-ffp-contract=fast")
    for native in (True, False):
        flags = Target.host(native).compile_flags()
        assert not [f for f in flags if f in unsafe], flags
        assert "-std=c11" in flags
