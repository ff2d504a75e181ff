"""A part of a launch (``kernel(..., groups=range(a, b), rebase={...})``, cl2c_range's
group_first and group_count): work-groups [a, b) of the slowest dimension run, seeing the
whole launch. Differential: parts stitched together equal the whole launch, for a kernel
that uses get_global_size as its pitch, a grid-stride loop, a reduction with a barrier and
__local memory, kernels cl2c regroups (1-D, 2-D, register tiles), and checking mode; a
rebased buffer is a chunk of its own."""
from __future__ import annotations

import numpy as np
import pytest

import cl2c

SOURCE = r"""
kernel void pitch(global float *out) {          /* sees its groups: not regrouped */
    size_t x = get_global_id(0), y = get_global_id(1);
    out[y * get_global_size(0) + x] = y * 1000 + x + get_num_groups(1) * 0.5f
                                      + get_group_id(1) * 0.25f;
}
kernel void stride(global int *out, int n) {
    for (size_t i = get_global_id(0); i < n; i += get_global_size(0))
        out[i] += (int)i + 1;
}
kernel void blind2(global float *out, global const float *a) {   /* regrouped */
    size_t i = get_global_id(1) * get_global_size(0) + get_global_id(0);
    out[i] = a[i] * 2 + get_global_id(1);
}
kernel void blind1(global float *out) {
    size_t i = get_global_id(0);
    out[i] = i * 3.0f;
}
kernel void partial_sums(global const float *a, global float *sums, local float *s) {
    size_t l = get_local_id(0);
    s[l] = a[get_global_id(0)];
    barrier(CLK_LOCAL_MEM_FENCE);
    for (size_t k = get_local_size(0) / 2; k > 0; k /= 2) {
        if (l < k) s[l] += s[l + k];
        barrier(CLK_LOCAL_MEM_FENCE);
    }
    if (l == 0) sums[get_group_id(0)] = s[0];
}
kernel void matmul(global const float *A, global const float *B, global float *C, int n) {
    int col = get_global_id(0), row = get_global_id(1);
    float acc = 0;
    for (int k = 0; k < n; ++k) acc += A[row * n + k] * B[k * n + col];
    C[row * n + col] = acc;
}
"""


@pytest.fixture(scope="module")
def prg():
    return cl2c.Program(SOURCE).build()


def in_parts(run, bounds):
    for a, b in zip(bounds, bounds[1:]):
        run(range(a, b))


def test_pitch_2d_parts_and_rebased_chunks(prg):
    w, h = 64, 48
    whole = np.zeros((h, w), np.float32)
    prg.pitch((w, h), (16, 4), whole)
    parts = np.zeros_like(whole)
    in_parts(lambda g: prg.pitch((w, h), (16, 4), parts, groups=g), [0, 3, 7, 12])
    np.testing.assert_array_equal(parts, whole)
    # each part into memory of its own: rows [4a, 4b) at the chunk's start
    chunks = []
    for a, b in [(0, 3), (3, 7), (7, 12)]:
        chunk = np.zeros(((b - a) * 4, w), np.float32)
        prg.pitch((w, h), (16, 4), chunk, groups=range(a, b), rebase={"out": a * 4 * w * 4})
        chunks.append(chunk)
    np.testing.assert_array_equal(np.concatenate(chunks), whole)


def test_grid_stride_loop(prg):
    n = 1000
    whole, parts = np.zeros(n, np.int32), np.zeros(n, np.int32)
    prg.stride(256, 64, whole, n)
    in_parts(lambda g: prg.stride(256, 64, parts, n, groups=g), [0, 1, 3, 4])
    np.testing.assert_array_equal(parts, whole)
    assert whole[999] == 1000


def test_barrier_and_local_memory(prg):
    x = np.random.default_rng(1).random(4096, dtype=np.float32)
    whole, parts = np.zeros(16, np.float32), np.zeros(16, np.float32)
    prg.partial_sums(4096, 256, x, whole, cl2c.LocalMemory(1024))
    in_parts(lambda g: prg.partial_sums(4096, 256, x, parts, cl2c.LocalMemory(1024), groups=g),
             [0, 5, 16])
    np.testing.assert_array_equal(parts, whole)
    np.testing.assert_allclose(whole, x.reshape(16, 256).sum(axis=1), rtol=1e-5)


def test_regrouped_1d_part_runs_exactly_its_items(prg):
    n = 100000
    whole = np.zeros(n, np.float32)
    prg.blind1(n, None, whole)
    _, (groups,) = prg.blind1.work_groups(n)
    parts = np.zeros(n, np.float32)
    in_parts(lambda g: prg.blind1(n, None, parts, groups=g), [0, 3, 5, groups])
    np.testing.assert_array_equal(parts, whole)
    # groups of 1000 items: parts that start and end inside what cl2c would cut
    one = np.zeros(n, np.float32)
    prg.blind1(n, 1000, one, groups=range(17, 33))
    expect = np.zeros(n, np.float32)
    expect[17000:33000] = np.arange(17000, 33000) * 3.0
    np.testing.assert_array_equal(one, expect)


def test_regrouped_2d_rebased_rows(prg):
    w, h = 64, 48
    a = np.random.default_rng(2).random((h, w), dtype=np.float32)
    whole = np.zeros_like(a)
    prg.blind2((w, h), None, whole, a)
    (_, rows), (_, groups) = prg.blind2.work_groups((w, h), (8, 3))
    assert groups == 16
    out = np.zeros_like(a)
    for g in range(0, groups, 5):
        stop = min(g + 5, groups)
        chunk = np.zeros(((stop - g) * rows, w), np.float32)
        at = g * rows * w * 4
        prg.blind2((w, h), (8, 3), chunk, a[g * rows:stop * rows], groups=range(g, stop),
                   rebase={0: at, 1: at})
        out[g * rows:stop * rows] = chunk
    np.testing.assert_array_equal(out, whole)


def test_register_tiles_and_checking_mode(prg):
    n = 96
    rng = np.random.default_rng(3)
    A, B = rng.random((n, n), dtype=np.float32), rng.random((n, n), dtype=np.float32)
    whole = np.zeros((n, n), np.float32)
    prg.matmul((n, n), None, A, B, whole, n)
    assert "register tiles" in prg.matmul.schedule_reason
    part = np.zeros((n, n), np.float32)
    prg.matmul((n, n), (32, 3), A, B, part, n, groups=range(5, 11))      # rows 15..32
    np.testing.assert_array_equal(part[15:33], whole[15:33])
    assert not part[:15].any() and not part[33:].any()
    checked = cl2c.Program(SOURCE, "-cl2c-check").build()
    # the chunks lie at the end of arrays of their own, so that the rebased pointer (15
    # rows before a chunk) is in memory of C's: the checks tell buffers apart by their
    # addresses, and one rebased into another's would be taken for that one
    chunk = np.zeros((33, n), np.float32)[15:]
    checked.matmul((n, n), (32, 3), A, B, chunk, n, groups=range(5, 11),
                   rebase={"C": 15 * n * 4})
    np.testing.assert_array_equal(chunk, whole[15:33])
    short = np.zeros((32, n), np.float32)[15:]    # a row short: the checks see it
    with pytest.raises(cl2c.LaunchError, match="out-of-bounds write .* 'C'"):
        checked.matmul((n, n), (32, 3), A, B, short, n, groups=range(5, 11),
                       rebase={"C": 15 * n * 4})


def test_work_groups(prg):
    assert prg.pitch.work_groups((64, 48), (16, 4)) == ((16, 4), (4, 12))
    assert prg.partial_sums.work_groups(4096) == ((256,), (16,))


@pytest.mark.parametrize("groups, rebase, message", [
    (range(5, 5), None, "groups must be a range or slice"),
    (range(0, 8, 2), None, "groups must be a range or slice"),
    ((0, 2), None, "groups must be a range or slice"),
    (None, {"nope": 4}, "rebase names 'nope'"),
    (None, {"n": 4}, "rebase names 'n'"),
    (None, {"out": "4"}, "argument .out. .* rebase offset"),
    (None, [4], "rebase must be a dict"),
])
def test_refusals(prg, groups, rebase, message):
    out = np.zeros(1000, np.int32)
    with pytest.raises(cl2c.KernelArgError, match=message):
        prg.stride(256, 64, out, 1000, groups=groups, rebase=rebase)


def test_part_outside_the_launch(prg):
    out = np.zeros(1000, np.int32)
    with pytest.raises(cl2c.LaunchError, match=r"not all among the launch's 4 work-groups"):
        prg.stride(256, 64, out, 1000, groups=range(3, 5))


MAIN_C = r"""
#include <stdio.h>
#include "parts.h"

int main(void) {
    enum { W = 16, H = 12 };
    float whole[H][W] = {{0}}, parts[H][W] = {{0}}, chunk[4][W] = {{0}};
    cl2c_range r = cl2c_range_2d(W, H, 4, 2);
    if (cl2c_kernel_pitch(&r, &whole[0][0]) != CL2C_SUCCESS) return 1;
    for (size_t g = 0; g < H / 2; g += 2) {          /* three parts of two groups */
        cl2c_range p = cl2c_range_part(r, g, 2);
        if (cl2c_kernel_pitch(&p, &parts[0][0]) != CL2C_SUCCESS) return 2;
    }
    cl2c_range p = cl2c_range_part(r, 2, 2);          /* rows 4..7, into a chunk of its own */
    if (cl2c_kernel_pitch(&p, &chunk[0][0] - 4 * W) != CL2C_SUCCESS) return 3;
    cl2c_range outside = cl2c_range_part(r, 5, 2);
    int refused = cl2c_kernel_pitch(&outside, &parts[0][0]);
    char msg[200];
    cl2c_check_launch(cl2c_find_kernel(&cl2c_program_parts, "pitch"), &outside, NULL, msg,
                      sizeof msg);
    int same = 1;
    for (int y = 0; y < H; ++y)
        for (int x = 0; x < W; ++x)
            same &= whole[y][x] == parts[y][x] && (y < 4 || y >= 8 || chunk[y - 4][x] == whole[y][x]);
    printf("%d %d %s\n", same, refused == CL2C_INVALID_VALUE, msg);
    return 0;
}
"""


def test_from_c(tmp_path, cc):
    """cl2c_range_part in a C program: parts equal the whole launch; a part outside it is
    CL2C_INVALID_VALUE, and cl2c_check_launch says why (-Wall -Wextra -Werror)."""
    import subprocess
    import sys
    from cl2c.resources import runtime_include_dir
    (tmp_path / "parts.cl").write_text(SOURCE)
    subprocess.run([sys.executable, "-m", "cl2c.cli", str(tmp_path / "parts.cl"), "-o",
                    str(tmp_path / "parts.c"), "-H", str(tmp_path / "parts.h")], check=True)
    (tmp_path / "main.c").write_text(MAIN_C)
    exe = tmp_path / "main"
    subprocess.run([cc, "-std=c11", "-O1", "-fopenmp", "-Wall", "-Wextra", "-Werror",
                    "-I", str(runtime_include_dir()), str(tmp_path / "parts.c"),
                    str(tmp_path / "main.c"), "-o", str(exe), "-lm"], check=True)
    run = subprocess.run([str(exe)], capture_output=True, text=True, check=True)
    assert run.stdout.startswith("1 1 kernel 'pitch': the part's work-groups 5 to 6 are "
                                 "not all among the launch's 6 in dimension 1"), run.stdout


FIBERS_3D = r"""
kernel void sums(global const float *a, global float *out, local float *s) {
    size_t l = get_local_id(0);
    s[l] = a[get_global_id(0)];
    barrier(CLK_LOCAL_MEM_FENCE);
    if (l == 0) {
        float t = 0;
        for (size_t k = 0; k < get_local_size(0); ++k) t += s[k];
        out[get_group_id(0)] = t;
    }
}
kernel void cube(global uint *out) {
    size_t x = get_global_id(0), y = get_global_id(1), z = get_global_id(2);
    out[(z * get_global_size(1) + y) * get_global_size(0) + x] =
        (uint)(x + 100 * y + 10000 * z + 1000000 * get_group_id(2));
}
"""


def test_fibers_schedule_and_3d():
    prg = cl2c.Program(FIBERS_3D, "-cl2c-schedule=fibers").build()
    assert prg.sums.schedule == "fibers"
    x = np.arange(512, dtype=np.float32)
    whole, parts = np.zeros(8, np.float32), np.zeros(8, np.float32)
    prg.sums(512, 64, x, whole, cl2c.LocalMemory(256))
    in_parts(lambda g: prg.sums(512, 64, x, parts, cl2c.LocalMemory(256), groups=g),
             [0, 3, 8])
    np.testing.assert_array_equal(parts, whole)
    whole, parts = np.zeros((12, 6, 8), np.uint32), np.zeros((12, 6, 8), np.uint32)
    prg.cube((8, 6, 12), (4, 3, 2), whole)
    in_parts(lambda g: prg.cube((8, 6, 12), (4, 3, 2), parts, groups=g), [0, 1, 4, 6])
    np.testing.assert_array_equal(parts, whole)
    assert whole[11, 5, 7] == 7 + 500 + 110000 + 5000000
