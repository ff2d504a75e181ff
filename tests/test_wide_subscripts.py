"""A register tile's subscripts summed in ptrdiff_t (cl2c/workgroup/wide_subscripts.py):
``int`` sums with a work-item's id in them, which clang otherwise reads with gathers.
The products against NumPy's (small integers: every sum exact) show the value unchanged
with offsets before, after and subtracted from the id; the C shows which subscripts take
the wide form and which keep theirs: unsigned ids (their sums wrap), ids the loop assigns,
sums of 64-bit terms."""
from __future__ import annotations

import re

import numpy as np
import pytest

import cl2c

pytestmark = pytest.mark.optimised

RNG = np.random.default_rng(11)

# c = a * b[:, shift:], the column read as `col + shift` in several spellings
SHIFTED = """
__kernel void shifted(__global const float *a, __global const float *b,
                      __global float *c, int k, int m, int shift) {
    ID_TYPE col = get_global_id(0);
    ID_TYPE row = get_global_id(1);
    float acc = 0.0f;
    for (int j = 0; j < k; j++)
        acc += a[row * k + j] * b[SUBSCRIPT];
    c[row * m + col] = acc;
}
"""
SPELLINGS = {
    "after": "j * (m + shift) + col + shift",
    "before": "shift + j * (m + shift) + col",
    "subtracted": "j * (m + shift) - (-shift) + col",
    "negated id": "j * (m + shift) + shift - (-col)",
}


def program(subscript: str, id_type: str = "int", extra: str = ""):
    source = SHIFTED.replace("SUBSCRIPT", subscript).replace("ID_TYPE", id_type)
    source = source.replace("float acc = 0.0f;", "float acc = 0.0f;" + extra)
    return source, cl2c.Program(source).build()


def run(prg, n, k, m, shift):
    a = RNG.integers(0, 8, (n, k)).astype(np.float32)
    b = RNG.integers(0, 8, (k, m + shift)).astype(np.float32)
    c = np.full((n, m), -1, np.float32)
    prg.shifted((m, n), None, a, b, c, np.int32(k), np.int32(m), np.int32(shift))
    want = (a.astype(np.int64) @ b[:, shift:].astype(np.int64)).astype(np.float32)
    np.testing.assert_array_equal(c, want)


def tile_subscripts(c_source: str) -> list[str]:
    """The subscripts of b in the register tile's loop over its columns (the tile is
    there: the kernel's steps update acc__tile)."""
    steps = [line for line in c_source.splitlines()
             if "acc__tile[cl2c_r][cl2c_c] = " in line and " b[" in line]
    assert steps, "no register tile"
    return [sub for line in steps for sub in re.findall(r"\bb\[([^\]]*)\]", line)]


@pytest.mark.parametrize("spelling", SPELLINGS)
def test_int_sums_with_the_id_are_wide_and_compute_the_same(spelling):
    source, prg = program(SPELLINGS[spelling])
    subs = tile_subscripts(prg.c_source)
    assert subs and all("(ptrdiff_t) col__base" in s and "(ptrdiff_t) cl2c_l0" in s
                        for s in subs), subs
    for n, k, m, shift in ((64, 9, 96, 3), (24, 5, 70, 0), (8, 3, 33, 17)):
        run(prg, n, k, m, shift)


@pytest.mark.parametrize("id_type,extra", [
    ("uint", ""),                       # unsigned: its sums wrap, and stay so
    ("long", ""),                       # 64-bit terms: nothing to widen
    ("int", "col = col + 0;"),          # assigned in the loop: not expanded
])
def test_other_subscripts_keep_their_form(id_type, extra):
    source, prg = program(SPELLINGS["after"], id_type, extra)
    assert "ptrdiff_t" not in "".join(tile_subscripts(prg.c_source))
    run(prg, 32, 7, 64, 5)
