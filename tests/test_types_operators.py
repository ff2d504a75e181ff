"""Every operator on every vector width of every type, against PoCL, exactly.

One program per element type holds one kernel per width (1, 2, 3, 4, 8, 16); each kernel
applies the whole operator list of spec 6.3 to random and edge-case operands and stores
every result: arithmetic, %, bitwise, shifts (counts masked, 6.3.j), unary + - ~ !,
relational and equality (-1/0 per component for vectors, 1/0 for scalars), && || and !
on vectors, ?: with vector conditions, pre/post ++ and --, every compound assignment,
the comma operator, and scalar operands widened to vectors (of the same type and of a
lower-ranked one, 6.2.6). A second program covers the usual arithmetic conversions of
mixed scalar operands for every pair of types.
"""
from __future__ import annotations

import numpy as np
import pytest

import cl2c
import typegen as tg
from conftest import run_pocl

N = 160      # work-items; each gets fresh operands


def _ops(t: str, n: int):
    """Groups of [(expression, result kind)]: "r" a value of the vector type, "m" of its
    mask type, "t" the statement runs on the running copy t of a, which is then stored.
    A group that changes t runs in one kernel, in order, from t = a."""
    is_int = t in tg.INTS
    single = [("a + b", "r"), ("a - b", "r"), ("a * b", "r"), ("-a", "r"), ("+a", "r"),
              ("a + s", "r"), ("s - a", "r"), ("a * s", "r"), ("a + c", "r"), ("c * a", "r"),
              ("(a, b)", "r"), ("(b, a)", "r")]
    if is_int:
        single += [("a / d", "r"), ("a % d", "r"), ("a / sd", "r"), ("a % sd", "r"),
                   ("a & b", "r"), ("a | b", "r"), ("a ^ b", "r"), ("~a", "r"),
                   ("s & a", "r"), ("a | s", "r"), ("a ^ s", "r"),
                   ("a << b", "r"), ("a >> b", "r"), ("a << s", "r"), ("a >> s", "r"),
                   ("a << 3", "r"), ("a >> 65", "r")]
    else:
        single += [("a / b", "r"), ("a / s", "r"), ("s / a", "r")]
    # ?: with a vector condition (per component, on the sign bit) or a scalar one
    single += [("(a < b) ? a : b", "r"), ("(a != b) ? b : s", "r"), ("(a > b) ? s : a", "r"),
               ("(s > sd) ? a : b", "r")]
    if n > 1 and tg.DTYPES[t]().itemsize >= 4:
        single += [("(a >= b) ? s : sd", "r")]       # both branches scalar
    if n > 1 and is_int:
        single += [("a ? b : d", "r")]               # the vector itself as condition
    # comparisons and logic: the mask buffer
    single += [(f"a {op} b", "m") for op in ("==", "!=", "<", ">", "<=", ">=", "&&", "||")]
    single += [("!a", "m"), ("a == s", "m"), ("s < a", "m"), ("a >= s", "m"),
               ("a && s", "m"), ("s || a", "m"), ("!(a < b)", "m"), ("a == a", "m"),
               ("a != a", "m")]
    groups = [[op] for op in single]
    # compound assignment, one after the other on t
    steps = ["t += b", "t -= s", "t *= b"]
    steps += ["t /= d", "t %= d", "t <<= b", "t >>= s", "t &= b", "t |= s", "t ^= b",
              "t += c", "t <<= 2", "t >>= b"] if is_int else ["t /= s", "t += c", "t -= a"]
    groups.append([(st, "t") for st in steps])
    if is_int:      # ++ and -- (not on floating-point types, 6.3.c)
        groups.append([("t++", "r"), ("t", "r"), ("++t", "r"), ("t--", "r"), ("--t", "r"),
                       ("t", "r")])
    return groups


# A scalar type of lower rank than each element type, widened to vectors of it (6.2.6).
# Of the same size where there is one: a narrower scalar makes gcc vectorise over many
# more work-items at once (char with float16: 32 x 16 lanes), which compiles for minutes.
LOWER = {"char": "char", "uchar": "char", "short": "char", "ushort": "short", "int": "short",
         "uint": "int", "long": "int", "ulong": "long", "float": "int", "double": "long"}

# Results per kernel on the default schedule: gcc's compile time grows much faster than
# linearly with the size of a vectorised work-item loop (17 s for 50 float2 results in
# one kernel, 6 s in two). Fewer kernels also mean fewer PoCL compiles (0.3 s each).
CHUNK = 24


def _chunks(t: str, n: int, size: int = CHUNK):
    """The groups of _ops, packed into kernels of about ``size`` results."""
    out, cur = [], []
    for g in _ops(t, n):
        if cur and len(cur) + len(g) > size:
            out.append(cur)
            cur = []
        cur = cur + g
    if cur:
        out.append(cur)
    return out


def _labels(t: str, n: int, size: int):
    """Labels of the r and m result slots, in slot order."""
    ops = [op for chunk in _chunks(t, n, size) for op in chunk]
    return [e for e, k in ops if k != "m"], [e for e, k in ops if k == "m"]


def _program(t: str, widths, size: int):
    """One kernel per width and chunk; all write into one r and one m buffer per
    work-item. Returns (source, {width: (kernel names, r slots, m slots)})."""
    parts = ["#pragma OPENCL EXTENSION cl_khr_fp64 : enable"]
    shapes = {}
    for n in widths:
        v = tg.vname(t, n)
        m = tg.vname(tg.MASK[t], n) if n > 1 else "int"
        chunks = _chunks(t, n, size)
        nr_total = sum(1 for c in chunks for _, k in c if k != "m")
        nm_total = sum(1 for c in chunks for _, k in c if k == "m")
        names, nr, nm = [], 0, 0
        for part, chunk in enumerate(chunks):
            body = []
            for expr, kind in chunk:
                if kind == "r":
                    body.append(f"    r[{nr}] = {expr};")
                    nr += 1
                elif kind == "t":
                    body.append(f"    {expr}; r[{nr}] = t;")
                    nr += 1
                else:
                    body.append(f"    m[{nm}] = {expr};")
                    nm += 1
            name = f"ops_{v}_{part}"
            names.append(name)
            parts.append(f"""
__kernel void {name}(__global const {v} *A, __global const {v} *B, __global const {v} *D,
                      __global const {t} *S, __global const {t} *SD,
                      __global const {LOWER[t]} *C, __global {v} *R, __global {m} *M)
{{
    size_t g = get_global_id(0);
    {v} a = A[g], b = B[g], d = D[g];
    {t} s = S[g], sd = SD[g];
    {LOWER[t]} c = C[g];
    {v} t = a;
    __global {v} *r = R + g * {max(nr_total, 1)};
    __global {m} *m = M + g * {max(nm_total, 1)};
{chr(10).join(body)}
}}""")
        shapes[n] = (names, nr_total, nm_total)
    return "\n".join(parts), shapes


def _nonzero_divisor(x: np.ndarray, t: str) -> np.ndarray:
    x = x.copy()
    x[x == 0] = 1
    if np.dtype(tg.DTYPES[t]).kind == "i":       # signed: MIN / -1 overflows
        x[x == -1] = 3
    return x


def _schedules(t: str):
    """[(build options, widths)]. The default schedule vectorises the work-item loop
    under `#pragma omp simd`, which makes gcc take 5 to 300 s on these kernels for narrow
    element types and for 8- and 16-wide vectors (it vectorises over 32 work-items of
    char4 or 8 of float16 at once, whatever the cost). Those run on the fibers schedule,
    which executes the same runtime helpers once per work-item.

    The scalars build optimised (-O3, as users' kernels); the vectors unoptimised
    (-cl-opt-disable: the C at -O0), PoCL's reference unchanged: float's 2- to 4-wide
    kernels took 26 CPU seconds of GCC's at -O3, the scalar one 2."""
    fibers, unoptimised = "-cl2c-schedule=fibers", "-cl-opt-disable"
    if tg.DTYPES[t]().itemsize < 4:
        return [(fibers, (1,)), (f"{fibers} {unoptimised}", tg.WIDTHS[1:])]
    return [("", (1,)), (unoptimised, (2, 3, 4)), (f"{fibers} {unoptimised}", (8, 16))]


@pytest.mark.parametrize("t", tg.SCALARS)
def test_operators_match_pocl(t, pocl):
    r = tg.rng(f"ops-{t}")
    failures = []
    for options, widths in _schedules(t):
        failures += _check_widths(t, widths, options, r)
    assert not failures, "\n".join(failures)


def _check_widths(t, widths, options, r):
    size = 1000 if "fibers" in options else CHUNK      # fibers: one kernel per width
    source, shapes = _program(t, widths, size)
    prg = cl2c.Program(source, options=options).build()
    failures = []
    for n in widths:
        v = tg.vname(t, n)
        names, nr, nm = shapes[n]
        a = tg.random_values(t, N * n, r)
        b = tg.random_values(t, N * n, r)
        b[::5] = a[::5]                               # equal operands now and then
        d = _nonzero_divisor(b, t) if t in tg.INTS else b
        s = r.permutation(tg.random_values(t, N, r))
        s[::7] = a[:N * n:n][::7]
        sd = _nonzero_divisor(s, t) if t in tg.INTS else s
        c = tg.random_values(LOWER[t], N, r)
        mt = tg.MASK[t] if n > 1 else "int"
        out_r = tg.poison(max(nr, 1) * N * tg.slots(n), t)
        out_m = tg.poison(max(nm, 1) * N * tg.slots(n), mt)
        args = [tg.vector_buffer(a, n), tg.vector_buffer(b, n), tg.vector_buffer(d, n), s, sd,
                c, out_r, out_m]
        mine = [x.copy() if isinstance(x, np.ndarray) else x for x in args]
        ref = [x.copy() if isinstance(x, np.ndarray) else x for x in args]
        for name in names:
            getattr(prg, name)((N,), None, *mine)
            run_pocl(source, name, (N,), None, *ref, options=" ".join(
                o for o in options.split() if not o.startswith(("-cl2c-", "-cl-opt"))))
        r_labels, m_labels = _labels(t, n, size)
        for idx, labels, name in ((6, r_labels, "r"), (7, m_labels, "m")):
            got = tg.lanes(mine[idx], n).reshape(N, -1, n)
            want = tg.lanes(ref[idx], n).reshape(N, -1, n)
            if not tg.same(got, want).all():
                failures.append(f"{v}:\n" + tg.describe_mismatch(
                    got, want, lambda ix: f"  item {ix[0]} '{labels[ix[1]]}' lane {ix[2]} "
                                          f"(a={tg.lanes(args[0], n)[ix[0], ix[2]]!r}, "
                                          f"b={tg.lanes(args[1], n)[ix[0], ix[2]]!r}, "
                                          f"s={s[ix[0]]!r})"))
    return failures


# ---- the usual arithmetic conversions of mixed scalar operands -------------------------
_MIXED_OPS = ("+", "*", "-", "<", "==", ">>", "/")


def _c99_result(x: str, y: str) -> str:
    """The C99 type of x op y (6.3.1.8), computed apart from cl2c's own rules."""
    rank = {"char": 1, "uchar": 1, "short": 2, "ushort": 2, "int": 3, "uint": 3, "long": 4,
            "ulong": 4}
    if "double" in (x, y):
        return "double"
    if "float" in (x, y):
        return "float"
    px = "int" if rank[x] < 3 else x
    py = "int" if rank[y] < 3 else y
    if px == py:
        return px
    sx, sy = not px.startswith("u"), not py.startswith("u")
    if sx == sy:
        return px if rank[px] > rank[py] else py
    u, s = (px, py) if not sx else (py, px)
    if rank[u] >= rank[s]:
        return u
    return s      # long vs uint: long holds every uint


def _mixed_program():
    lines, labels = [], []
    for x in tg.SCALARS:
        for y in tg.SCALARS:
            res = _c99_result(x, y)
            for op in _MIXED_OPS:
                if op == ">>" and (res in tg.FLOATS):
                    continue
                if op == "/" and res in tg.INTS:
                    expr = f"(({x})X[{tg.SCALARS.index(x)}]) / (({y})NZ[{tg.SCALARS.index(y)}])"
                else:
                    expr = f"(({x})X[{tg.SCALARS.index(x)}]) {op} (({y})Y[{tg.SCALARS.index(y)}])"
                if op in ("<", "=="):
                    buf = "ci"
                elif res in tg.FLOATS:
                    buf = "cf"
                else:
                    buf = "cu"
                lines.append((buf, expr, f"{x} {op} {y}"))
    counts = {"ci": 0, "cf": 0, "cu": 0}
    body = []
    for buf, expr, label in lines:
        body.append(f"    {buf}[{counts[buf]}] = {expr};")
        labels.append((buf, counts[buf], label))
        counts[buf] += 1
    src = f"""#pragma OPENCL EXTENSION cl_khr_fp64 : enable
__kernel void mixed(__global const double *X, __global const double *Y,
                    __global const double *NZ, __global int *CI, __global double *CF,
                    __global long *CU)
{{
    size_t g = get_global_id(0);
    X += g * 10; Y += g * 10; NZ += g * 10;
    __global int *ci = CI + g * {counts['ci']};
    __global double *cf = CF + g * {counts['cf']};
    __global long *cu = CU + g * {counts['cu']};
{chr(10).join(body)}
}}
"""
    return src, counts, labels


def test_usual_arithmetic_conversions_match_pocl(pocl):
    """Mixed scalar operands convert as C99 6.3.1.8 says; results are stored into wide
    buffers, so a wrong common type shows as a wrong value."""
    source, counts, labels = _mixed_program()
    prg = cl2c.Program(source).build()
    n = 64
    r = tg.rng("mixed")
    # Operands as doubles that every type holds exactly (converted in the kernel).
    x = r.integers(-120, 120, (n, 10)).astype(np.float64)
    x[:, 8:] += r.random((n, 2)).round(3)
    x[::3] = -x[::3]
    y = r.integers(-120, 120, (n, 10)).astype(np.float64)
    # Converting a negative double to an unsigned type is undefined (C99 6.3.1.4).
    unsigned = [k for k, t in enumerate(tg.SCALARS) if t.startswith("u")]
    x[:, unsigned] = np.abs(x[:, unsigned])
    y[:, unsigned] = np.abs(y[:, unsigned])
    nz = np.where(y == 0, 5, y)
    ci = np.full(n * counts["ci"], -99, np.int32)
    cf = np.full(n * counts["cf"], np.nan)
    cu = np.full(n * counts["cu"], -99, np.int64)
    mine, ref = tg.run_both(prg, source, "mixed", (n,), x.reshape(-1), y.reshape(-1),
                            nz.reshape(-1), ci, cf, cu)
    bad = []
    for k, name in ((3, "ci"), (4, "cf"), (5, "cu")):
        got, want = mine[k].reshape(n, -1), ref[k].reshape(n, -1)
        for buf, col, label in labels:
            if buf == name and not tg.same(got[:, col], want[:, col]).all():
                row = int(np.argmax(~tg.same(got[:, col], want[:, col])))
                bad.append(f"{label}: cl2c {got[row, col]!r} PoCL {want[row, col]!r}")
    assert not bad, "\n".join(bad[:30])
