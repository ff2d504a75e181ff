"""Kernel identifiers that the C library also declares (emit/c_names.py).

tests/kernels/c_library_names.cl names helpers index, read, j0 and time, a constant y1,
a typedef FILE with fields stdout and errno, locals malloc, errno and stdin, kernels div
and write, and a helper index_cl that the renaming must step around. It must build
under every schedule, give PoCL's results, and keep the kernels' names for the host.
"""
from __future__ import annotations

import numpy as np
import pytest

import cl2c
from conftest import kernel_source

SOURCE = kernel_source("c_library_names.cl")
FILE_DTYPE = np.dtype([("stdout", np.int32), ("errno", np.float32)])


def _run(runner, *, pocl: bool):
    out1 = np.zeros(4, np.int32)
    f = np.zeros(1, FILE_DTYPE)
    f["stdout"], f["errno"] = 5, 7.0
    out2 = np.zeros(8, np.int32)
    local = cl2c.LocalMemory(16)
    if pocl:
        runner(SOURCE, "div", (4,), None, out1, f, np.int32(9))
        runner(SOURCE, "write", (8,), (4,), out2, local)
    else:
        runner.div((4,), None, out1, f, np.int32(9))
        runner.write((8,), (4,), out2, local)
    return out1, out2


@pytest.mark.parametrize("schedule", ["auto", "fibers", "regions"])
def test_library_names_build_and_match_pocl(schedule, pocl):
    opts = "" if schedule == "auto" else f"-cl2c-schedule={schedule}"
    if schedule == "regions":       # div has no barrier: regions only for write
        prg = cl2c.Program(SOURCE.replace("kernel void div", "void div_unused"), opts,
                           filename="c_library_names.cl").build()
        assert prg.kernel_names == ["write", "skeleton_names"]
        got = np.zeros(8, np.int32)
        prg.write((8,), (4,), got, cl2c.LocalMemory(16))
        assert list(got) == [3, 2, 1, 0, 3, 2, 1, 0]
        return
    prg = cl2c.Program(SOURCE, opts, filename="c_library_names.cl").build()
    assert prg.kernel_names == ["div", "write", "skeleton_names"]
    got = _run(prg, pocl=False)
    want = _run(pocl, pocl=True)
    for g, w in zip(got, want):
        assert list(g) == list(w)
    assert list(got[0]) == [136] * 4


# size_t and ptrdiff_t are no OpenCL C keywords (spec 6.1.9 reserves the vector and other
# built-in types' names): a parameter and a variable may take them, shadowing the types.
# The C names them size_t_cl, ptrdiff_t_cl; the emitted C's own size_t stays a type.
TYPE_NAMED = """
kernel void k(global int *size_t, global float *out, local int *scratch)
{
    int tid = get_global_id(0);
    int ptrdiff_t = size_t[tid] * 2;
    scratch[get_local_id(0)] = ptrdiff_t;
    barrier(CLK_LOCAL_MEM_FENCE);
    out[tid] = scratch[get_local_size(0) - 1 - get_local_id(0)] + size_t[0];
}
"""


@pytest.mark.parametrize("schedule", ["auto", "fibers", "regions"])
def test_variables_named_like_c_types(schedule, pocl):
    opts = "" if schedule == "auto" else f"-cl2c-schedule={schedule}"
    prg = cl2c.Program(TYPE_NAMED, opts).build()
    x = np.arange(16, dtype=np.int32) * 3 - 7
    got, want = np.zeros(16, np.float32), np.zeros(16, np.float32)
    prg.k((16,), (8,), x, got, cl2c.LocalMemory(32))
    pocl(TYPE_NAMED, "k", (16,), (8,), x, want, cl2c.LocalMemory(32))
    np.testing.assert_array_equal(got, want)
    np.testing.assert_array_equal(got, 2 * x.reshape(2, 8)[:, ::-1].ravel() + x[0])


@pytest.mark.parametrize("schedule", ["auto", "fibers", "regions"])
def test_parameters_named_like_skeleton_locals(schedule, pocl):
    """status, group, range, l0, local_block, failed, args, threads: names the entry
    function's skeleton must not take from the kernel."""
    opts = "" if schedule == "auto" else f"-cl2c-schedule={schedule}"
    src = SOURCE.replace("kernel void div", "void div_unused")
    prg = cl2c.Program(src, opts, filename="c_library_names.cl").build()
    results = []
    for run in (prg.skeleton_names, None):
        status, group = np.zeros(16, np.int32), np.zeros(16, np.int32)
        args = (status, group, np.int32(1), np.int32(2), cl2c.LocalMemory(32), np.int32(3),
                np.int32(4), np.int32(5))
        if run is None:
            pocl(src, "skeleton_names", (16,), (8,), *args)
        else:
            run((16,), (8,), *args)
        results.append((list(status), list(group)))
    assert results[0] == results[1]
    assert results[0][0] == [15 + i for i in range(16)]


def test_only_clashing_names_change():
    c = cl2c.translate(SOURCE, "c_library_names.cl").c_source
    for renamed in ("y1_cl", "FILE_cl", "stdout_cl", "errno_cl", "index_cl2(", "read_cl(",
                    "j0_cl(", "time_cl(", "malloc_cl", "stdin_cl", "random_cl"):
        assert renamed in c, renamed
    assert "int index_cl(int a)" in c                 # the user's own index_cl stays
    assert "int cl2c_kernel_div(" in c and '"div"' in c
    assert "static CL2C_ALWAYS_INLINE void div_cl(" in c
    assert " l = " in c or "int l" in c               # other names keep their spelling
