"""Random straight-line kernels of integer or float expressions, scalar or vector, for
test_expressions_random.py: each work-item loads three values, computes a few
expressions of them and stores the last.

What they leave out, each a place where cl2c and PoCL 3.1 may differ and the
specification allows both:
- ``mad``: PoCL rounds the product first; cl2c makes one fma (device model);
- constants as factors of a float product: LLVM may split an fma of a product whose
  factors it has propagated to constants, rounding the product; cl2c folds only a
  product of literals (``3.0f * 0.1f``) first, as clang does while it emits the code;
- ``abs`` and ``abs_diff`` at the type's minimum: PoCL's LLVM takes their result for
  non-negative (``mad_sat(97, as_int(abs(INT_MIN)), 0)`` is INT_MAX there);
- signed overflow (undefined): signed types get no +, - or *;
- operators on char and short: their results are int, which the builtins' overloads do
  not take; every scalar expression is cast back to its type.
"""
from __future__ import annotations

import random

INTEGER_TYPES = ("char", "uchar", "short", "ushort", "int", "uint", "long", "ulong")
WIDTHS = (1, 1, 2, 3, 4, 8, 16)
_HEX = "0123456789abcdef"


def _integer(r: random.Random, t: str, n: int, names: list, depth: int = 0) -> str:
    vt = t if n == 1 else f"{t}{n}"
    if depth > 3 or r.random() < 0.25:
        if r.random() < 0.7:
            return r.choice(names)
        value = r.randint(0, 100)
        return f"({vt})({value})" if n > 1 else f"(({t}){value})"
    e = _integer_op(r, t, n, names, depth, vt)
    return e if n > 1 else f"(({t}){e})"


def _integer_op(r, t, n, names, depth, vt) -> str:
    def a():
        return _integer(r, t, n, names, depth + 1)
    unsigned = t.startswith("u")
    k = r.randint(0, 27)
    if k == 0 and unsigned:
        return f"({a()} + {a()})"
    if k == 1 and unsigned:
        return f"({a()} - {a()})"
    if k == 2 and unsigned:
        return f"({a()} * {a()})"
    if k == 3:
        return f"({a()} / ({a()} | ({vt})1))" if unsigned else \
            f"(({a()} & ({vt})0x7fffff) / (({vt}){r.randint(1, 9)}))"
    if k == 4:
        return f"({a()} % (({vt}){r.randint(1, 13)}))" if unsigned else f"({a()} & ({vt})127)"
    if k == 5:                        # shift counts are taken modulo the width
        return f"({a()} << {a()})" if unsigned else f"({a()} >> {a()})"
    if k == 6:
        return f"({a()} >> {a()})"
    if k == 7:
        return f"({a()} ^ {a()})"
    if k == 8:
        return f"(~{a()})" if unsigned else f"({a()} | {a()})"
    if k == 9:                        # a comparison: 1 or 0, -1 or 0 for vectors
        return f"(({a()} < {a()}) & ({vt})5)" if n == 1 else \
            f"(as_{vt}({a()} < {a()}) & ({vt})5)"
    if k == 22:
        return f"({a()} < {a()} ? {a()} : {a()})"
    if k == 23:                       # a vector and a scalar
        return f"(({a()} & ({vt})0x3ff) * ({t})3)" if n > 1 else f"({a()} & ({t})0x3ff)"
    if k == 24:
        return f"as_{vt}(abs(({vt})({a()} | ({vt})1)))"
    if k >= 25 and n > 1:
        return _swizzle(r, k, n, vt, a)
    builtin = {10: "add_sat(#, #)", 11: "sub_sat(#, #)", 12: "hadd(#, #)",
               13: "rhadd(#, #)", 14: "rotate(#, #)", 15: "clz(#)", 16: "mul_hi(#, #)",
               17: "max(#, #)" if n > 1 else "clamp(#, min(#, #), max(#, #))",
               18: "popcount(#)", 19: "mad_sat(#, #, #)", 20: "mad_hi(#, #, #)",
               21: "bitselect(#, #, #)"}.get(k)
    if builtin is None:
        return a()
    parts = builtin.split("#")
    return "".join(p + (a() if i < len(parts) - 1 else "") for i, p in enumerate(parts))


def _swizzle(r, k, n, vt, a) -> str:
    if k == 25:
        order = list(range(n))
        r.shuffle(order)
        return f"({a()}).s{''.join(_HEX[i] for i in order)}"
    if k == 26 and n % 2 == 0:
        return f"(({vt})(({a()}).hi, ({a()}).lo))"
    if k == 26 and n == 3:
        return f"(({vt})(({a()}).z, ({a()}).xy))"
    if k == 27 and n % 2 == 0:
        return f"(({vt})(({a()}).odd, ({a()}).even))"
    return f"({a()}).s{''.join(_HEX[r.randrange(n)] for _ in range(n))}"


def _float(r: random.Random, names: list, depth: int = 0) -> str:
    if depth > 3 or r.random() < 0.3:
        return r.choice(names)

    def a():
        return _float(r, names, depth + 1)
    return r.choice([
        lambda: f"({a()} + {a()})", lambda: f"({a()} * {a()})", lambda: f"({a()} - {a()})",
        lambda: f"{a()} * {a()} + {a()}", lambda: f"{a()} - {a()} * {a()}",
        lambda: f"(-({a()}))", lambda: f"{a()} * {a()} - {a()}",
        lambda: f"({a()} * {a()} + {a()})"])()


def integer_kernel(seed: int) -> tuple[str, int, str]:
    """(element type, width, source) of kernel k<seed>(in, out): 3 * width values in
    for each work-item, width out."""
    r = random.Random(seed)
    t, n = r.choice(INTEGER_TYPES), r.choice(WIDTHS)
    vt = t if n == 1 else f"{t}{n}"
    lines, names = [], []
    for i in range(3):
        load = f"vload{n}({i}, in)" if n > 1 else f"in[{i}]"
        lines.append(f"{vt} x{i} = {load};")
        names.append(f"x{i}")
    for i in range(r.randint(1, 4)):
        lines.append(f"{vt} y{i} = {_integer(r, t, n, names)};")
        names.append(f"y{i}")
    return t, n, _kernel(seed, t, n, lines, names[-1])


def float_kernel(seed: int) -> tuple[str, int, str]:
    """As integer_kernel, of floats: sums, differences and products of variables, in
    expressions and in updates of variables and of a private array's elements (which
    contract into fmas as clang's do)."""
    r = random.Random(seed)
    n = r.choice(WIDTHS)
    vt = "float" if n == 1 else f"float{n}"
    lines = [f"{vt} acc[2] = {{({vt})(0.25f), ({vt})(-0.5f)}};"]
    names = []
    for i in range(3):
        load = f"vload{n}({i}, in)" if n > 1 else f"in[{i}]"
        lines.append(f"{vt} x{i} = {load};")
        names.append(f"x{i}")
    for i in range(r.randint(1, 4)):
        if i > 0 and r.random() < 0.4:
            target = r.choice(names[3:])
            lines.append(f"{target} {r.choice(['+=', '-='])} {_float(r, names)} * "
                         f"{_float(r, names)};")
        else:
            lines.append(f"{vt} y{i} = {_float(r, names)};")
            names.append(f"y{i}")
    result = names[-1]
    if r.random() < 0.4:
        index = r.choice(["0", "1", "gid & 1"])
        lines.append(f"acc[{index}] {r.choice(['+=', '-='])} {_float(r, names)} * "
                     f"{_float(r, names)};")
        result = f"{result} + acc[0] + acc[1]"
    return "float", n, _kernel(seed, "float", n, lines, result)


def _kernel(seed, t, n, lines, result) -> str:
    store = f"vstore{n}({result}, 0, out + gid * {n});" if n > 1 else f"out[gid] = {result};"
    body = "\n    ".join(lines)
    return f"""
kernel void k{seed}(global const {t} *in0, global {t} *out) {{
    int gid = get_global_id(0);
    global const {t} *in = in0 + gid * {3 * n};
    {body}
    {store}
}}"""
