"""Random updates of lvalues with effects against PoCL: compound assignments, ``++``/``--``
and swizzle assignments whose lvalue calls something with effects, each evaluated once.

The lvalues are array elements (global and private), vector components and swizzles
(``.s1``, ``.xy``, ``.wz``), whole vectors and struct fields, through ``a[i]``, ``*(p + i)``
and ``p->f``; their indices have effects: ``atomic_inc`` on a counter, a helper ``bump``
that writes through its pointer, ``++i`` and ``i--`` on a private index. The value
assigned sometimes reads the counter or bumps it too (clang evaluates it first); the
value of each update goes into a checksum. Each work-item has its own counter and its own
rows, so the results do not depend on how work-items interleave. Lowering once read and
wrote such an lvalue apart: ``a[atomic_inc(p)] /= b`` called ``atomic_inc`` twice.
"""
from __future__ import annotations

import random

import numpy as np
import pytest

import cl2c

ITEMS = 4               # work-items: one counter and one row of each array apiece
ROW = 8                 # ints of a work-item's row of a (and of each private array)
VECS = 4                # int4s and float4s of a row; struct elements


def _index(r: random.Random) -> str:
    """An index in 0..3 whose evaluation has effects, or calls that lowering rewrites
    (get_global_id gains the work-item: an lvalue lowered twice got it twice)."""
    return r.choice(["(atomic_inc(c) & 3)", "(atomic_dec(c) & 3)", "bump(c)", "(bump(c) ^ 1)",
                     "(++i & 3)", "(i-- & 3)", "(i++ & 3)", "(get_global_id(0) & 3)",
                     "abs((int)get_local_id(0) - 2)"])


def _int_value(r: random.Random) -> str:
    """A small int (never 0: a divisor); may read or bump the counter (a call: the
    order is unspecified, not undefined, and clang's is the value first)."""
    return r.choice(["3", "5", "(*c & 7) + 1", "(atomic_inc(c) & 3) + 1", "bump(c) + 2",
                     "(*c | 1)"])


def _vector_value(r: random.Random, t: str, n: int) -> str:
    scalars = ", ".join(_int_value(r) if t == "int" else r.choice(["2.0f", "0.5f", "(float)*c"])
                        for _ in range(n))
    return f"({t}{n})({scalars})" if n > 1 else scalars.split(", ")[0]


_SWIZZLES = (("x", 1), ("s1", 1), ("w", 1), ("xy", 2), ("wz", 2), ("s31", 2), ("xzw", 3),
             ("", 4))


def _update(r: random.Random) -> tuple[str, str]:
    """An update with effects in its lvalue, and the type of its value (int or a
    vector type)."""
    idx = _index(r)
    k = r.random()
    if k < 0.3:                                     # an int element
        lv = r.choice([f"a[{idx}]", f"pa[{idx}]", f"*(a + {idx})", f"s[{idx}].f",
                       f"(s + {idx})->f"])
        t, n = "int", 1
    else:                                           # a vector, a component, a swizzle
        sw, n = r.choice(_SWIZZLES)
        t = "float" if k < 0.45 else "int"
        base = r.choice([f"fv[{idx}]", f"(fv + {idx})->"] if t == "float" else
                        [f"v[{idx}]", f"pv[{idx}]", f"s[{idx}].v", f"(v + {idx})->"])
        if base.endswith("->"):
            lv = base + (sw or "xyzw")
        else:
            lv = base + (f".{sw}" if sw else "")
    vt = t if n == 1 else f"{t}{n}"
    ops = ["+=", "-=", "*="] if t == "float" else \
        ["+=", "-=", "*=", "/=", "%=", "<<=", ">>=", "&=", "|=", "^=", "=", "++", "--"]
    op = r.choice(ops)
    if op in ("++", "--"):
        # (a postfix binds tighter than a prefix `*`: `*(a + i)--` would decrement the
        # pointer, which is no lvalue)
        post = f"({lv})" if lv.startswith("*") else lv
        return (f"{op}{lv}" if r.random() < 0.5 else f"{post}{op}"), vt
    value = _vector_value(r, t, n)
    if op in ("<<=", ">>="):
        value = "2" if r.random() < 0.5 else "(*c & 3)"
    if op == "=" and n == 1:
        op = "+="                                    # (a plain store uses its lvalue once)
    return f"{lv} {op} {value}", vt


def kernel(seed: int) -> str:
    r = random.Random(seed)
    lines = []
    for _ in range(r.randint(3, 6)):
        update, t = _update(r)
        if t in ("int", "float"):
            lines.append(f"sum = sum * 3 + (int)({update});")
        else:
            lines.append(f"sum = sum * 3 + (int)(({update}).s0);")
    body = "\n    ".join(lines)
    return f"""
__kernel void k{seed}(__global int *a0, __global int4 *v0, __global float4 *fv0,
                      __global int *counters, __global int *out) {{
    int gid = get_global_id(0);
    __global int *c = counters + gid;
    __global int *a = a0 + {ROW} * gid;
    __global int4 *v = v0 + {VECS} * gid;
    __global float4 *fv = fv0 + {VECS} * gid;
    int pa[{ROW}];
    int4 pv[{VECS}];
    S s[{VECS}];
    for (int j = 0; j < {ROW}; j++) pa[j] = a[j] + 1;
    for (int j = 0; j < {VECS}; j++) {{ pv[j] = v[j] * 2; s[j].f = j + 3; s[j].v = v[j] + 5; }}
    int i = gid, sum = 0;
    {body}
    __global int *o = out + gid * {ROW + 5 * VECS + 2};
    for (int j = 0; j < {ROW}; j++) o[j] = pa[j];
    for (int j = 0; j < {VECS}; j++) {{
        o[{ROW} + 5 * j] = s[j].f;
        vstore4(pv[j] ^ s[j].v * 7, 0, o + {ROW + 1} + 5 * j);
    }}
    o[{ROW + 5 * VECS}] = sum;
    o[{ROW + 5 * VECS + 1}] = i;
}}"""


PRELUDE = """
typedef struct { int f; int4 v; } S;
int bump(__global int *c) { return (*c)++ & 3; }
"""
SEEDS = range(1, 25)


def _arrays(rng):
    return [rng.integers(0, 60, ITEMS * ROW).astype(np.int32),
            rng.integers(-20, 60, (ITEMS * VECS, 4)).astype(np.int32),
            rng.integers(-8, 8, (ITEMS * VECS, 4)).astype(np.float32),
            rng.integers(0, 9, ITEMS).astype(np.int32),
            np.zeros(ITEMS * (ROW + 5 * VECS + 2), np.int32)]


@pytest.fixture(scope="module")
def source():
    return PRELUDE + "\n".join(kernel(s) for s in SEEDS)


def test_random_updates_of_lvalues_with_effects_agree_with_pocl(source, pocl):
    prg = cl2c.Program(source, filename="lvalues.cl").build()
    for seed in SEEDS:
        got = _arrays(np.random.default_rng(seed))
        want = [x.copy() for x in got]
        getattr(prg, f"k{seed}")((ITEMS,), None, *got)
        pocl(source, f"k{seed}", (ITEMS,), None, *want)
        for g, w, name in zip(got, want, ("a", "v", "fv", "counters", "out")):
            np.testing.assert_array_equal(g, w, err_msg=f"seed {seed}, {name}:"
                                                        f"{kernel(seed)}")


ISSUE = """
__kernel void divide(__global int *a, __global int *p, int b) { a[atomic_inc(p)] /= b; }
__kernel void add(__global float4 *v, __global int *p, __global float2 *w) {
    v[atomic_inc(p)].xy += w[0];
}
"""


def test_the_issue_updates_call_atomic_inc_once(pocl):
    prg = cl2c.Program(ISSUE).build()
    for run in (lambda name, *args: getattr(prg, name)((1,), None, *args),
                lambda name, *args: pocl(ISSUE, name, (1,), None, *args)):
        a, p = np.array([100, 40, 7, 7], np.int32), np.zeros(1, np.int32)
        run("divide", a, p, np.int32(2))
        assert a.tolist() == [50, 40, 7, 7] and p[0] == 1
        v, p = np.arange(8, dtype=np.float32).reshape(2, 4), np.zeros(1, np.int32)
        run("add", v, p, np.array([[10, 20]], np.float32))
        assert v.tolist() == [[10, 21, 2, 3], [4, 5, 6, 7]] and p[0] == 1


def test_an_update_through_a_pointer_to_an_unnamed_struct_with_effects_is_refused():
    # C cannot declare the temporary that would evaluate q++ once: a diagnostic, not
    # q++ twice (a scalar's update evaluates it once in C: that one works)
    source = ("typedef struct { int4 v; } S;\n"
              "__kernel void k(__global S *q) {\n"
              "    (q++)->v.xy += (int2)(1, 2);\n"
              "}\n")
    with pytest.raises(cl2c.BuildError) as info:
        cl2c.translate(source, "bad.cl")
    lines = str(info.value).splitlines()
    assert lines[0].startswith("bad.cl:3:6: error: assignment to a swizzle of an expression "
                               "with side effects is not supported yet"), lines
    assert lines[2] == " " * 5 + "^"
    cl2c.translate(source.replace("->v.xy += (int2)(1, 2)", "->v.x /= 3"), "good.cl")


SWIZZLE_STORES = """
int bump(__global int *c) { return (*c)++ & 3; }
__kernel void k(__global int4 *v, __global int *c, __global int *out) {
    int i = 0, sum = 0;
    sum = sum * 3 + (int)(((v + (++i & 3))->s31 = (int2)(bump(c) + 2, 3)).s0);
    (v + (++i & 3))->s31 = (int2)(bump(c) + 2, 3);
    v[atomic_inc(c) & 3].wx = (int2)(*c, 9);
    out[0] = sum;
    out[1] = i;
}
"""


def test_stores_to_swizzles_with_effects_in_the_vector_agree_with_pocl(pocl):
    """A plain store to a swizzle is lowered as an update of the whole vector: its
    effects are evaluated once too (they were refused as "not supported yet")."""
    prg = cl2c.Program(SWIZZLE_STORES, filename="swizzles.cl").build()

    def arrays():
        return [np.arange(16, dtype=np.int32).reshape(4, 4), np.zeros(1, np.int32),
                np.zeros(2, np.int32)]
    got, want = arrays(), arrays()
    prg.k((1,), None, *got)
    pocl(SWIZZLE_STORES, "k", (1,), None, *want)
    for g, w in zip(got, want):
        np.testing.assert_array_equal(g, w)
