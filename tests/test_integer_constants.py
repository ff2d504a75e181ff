"""Integer constant expressions as clang folds them: a cast gives the value its type
holds ((uchar)-1 is 255), in array sizes and case labels, and two case labels of one
value in a switch (converted to its condition's type) are an error, as are two
defaults. Against PoCL where they run."""
from __future__ import annotations

import numpy as np
import pytest

import cl2c
from conftest import run_pocl

SOURCE = """
kernel void k(global int *o, global const uchar *in) {
    int a[(uchar)-1 - 250];           /* 5 ints */
    char b[(char)300];                /* 44 chars */
    o[0] = sizeof(a); o[1] = sizeof(b);
    for (int i = 0; i < 4; ++i) {
        switch (in[i]) {
        case (uchar)-1: o[2 + i] = 1; break;
        case (char)300: o[2 + i] = 2; break;
        case (ushort)65537: o[2 + i] = 3; break;
        default: o[2 + i] = 4;
        }
    }
}"""


def _ours_and_pocl(src: str, size: int, inputs: np.ndarray, outputs: int):
    """Kernel k of ``src`` over ``size`` work-items through cl2c and through PoCL."""
    ours, theirs = np.zeros(outputs, np.int32), np.zeros(outputs, np.int32)
    cl2c.Program(src).build().k((size,), None, ours, inputs)
    run_pocl(src, "k", (size,), None, theirs, inputs)
    return ours, theirs


def test_casts_fold_to_the_values_their_types_hold():
    ours, theirs = _ours_and_pocl(SOURCE, 1, np.array([255, 44, 1, 7], np.uint8), 6)
    np.testing.assert_array_equal(ours, [20, 44, 1, 2, 3, 4])
    np.testing.assert_array_equal(ours, theirs)


@pytest.mark.parametrize("body, at, message", [
    ("switch (o[1]) { case 3: o[0] = 1; break; case 1 + 2: o[0] = 2; }", "1 + 2",
     "duplicate case value '3'"),
    ("switch ((uchar)o[1]) { case (uchar)-1: o[0] = 1; break; case 255: o[0] = 2; }", "255",
     "duplicate case value '255'"),
    ("switch ((uint)o[1]) { case -1: o[0] = 1; break; case 0xffffffffu: o[0] = 2; }",
     "0xffffffffu", "duplicate case value '4294967295'"),
    ("switch (o[1]) { default: o[0] = 1; break; case 1: default: o[0] = 2; }",
     "default: o[0] = 2", "multiple default labels in one switch"),
])
def test_duplicate_labels_are_errors(body, at, message):
    # (the C compiler refused cl2c's C before: "a cl2c bug")
    source = f"kernel void k(global int *o) {{ {body} }}\n"
    column = source.index(at) + 1
    with pytest.raises(cl2c.BuildError) as e:
        cl2c.Program(source).build()
    assert f"<kernel>:1:{column}: error: {message}" in str(e.value), str(e.value)
    assert "previous case defined here" in str(e.value)
    with pytest.raises(Exception, match="duplicate case value|multiple default labels"):
        run_pocl(source, "k", (1,), None, np.zeros(2, np.int32))


ENUMS = """
enum Mode { ADD, SUB = 4, MUL };
kernel void k(global int *o, global const int *in) {
    size_t g = get_global_id(0);
    enum Mode m = (enum Mode)in[g];     /* (cl2c crashed on an enum local: no 'signed') */
    enum Mode first = ADD;
    switch (m) {
    case ADD: o[g] = 10; break;
    case SUB: o[g] = 20 + first; break;
    case MUL: o[g] = 30; break;
    default: o[g] = (int)m;
    }
}"""


def test_enum_locals_and_switches_as_pocl():
    ours, theirs = _ours_and_pocl(ENUMS, 4, np.array([0, 4, 5, 7], np.int32), 4)
    np.testing.assert_array_equal(ours, [10, 20, 30, 7])
    np.testing.assert_array_equal(ours, theirs)


OCTAL = """
kernel void k(global int *o, global const uchar *in) {
    int i = get_global_id(0);
    int acc = 0;
    for (int k = 0; k < 010; k++)          /* octal 8 */
        acc += in[i * 010 + k];            /* a stride of 8, octal */
    o[i] = acc + (i << 01) + (0x10 >> 02);
}"""


@pytest.mark.parametrize("options", ["", "-cl2c-check"])
def test_octal_and_hex_constants_where_the_passes_read_them(options):
    """Constants as loop bounds, strides and shift counts in octal and hex: the
    passes that read their values took '010' for ten or failed on it ('invalid literal
    for int() with base 0', an internal error: the fuzzer's `#define DIM 003`)."""
    inputs = np.arange(8 * 64, dtype=np.uint8) % 251
    o = np.zeros(64, np.int32)
    cl2c.Program(OCTAL, options=options).build().k((64,), None, o, inputs)
    want = inputs.reshape(64, 8).astype(np.int32).sum(axis=1) + 2 * np.arange(64) + 4
    assert np.array_equal(o, want)
