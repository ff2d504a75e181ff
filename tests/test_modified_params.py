"""Kernels that modify their parameters, under every schedule that runs them.

A parameter is a private of each work-item (spec 6.5). Schedules that run a
work-group as one C function must still give each work-item its own copy: a
pointer parameter moved before a barrier once ran with one copy per group
under ``regions`` (wrong results, then out-of-bounds writes). Each kernel runs
with small and large groups and is compared exactly with NumPy.
"""
from __future__ import annotations

import numpy as np
import pytest

import cl2c
from conftest import kernel_path

BARRIER_SCHEDULES = ("auto", "regions", "fibers")
LOCAL_SIZES = (1, 8, 256)


def _program(schedule: str):
    options = "" if schedule == "auto" else f"-cl2c-schedule={schedule}"
    return cl2c.Program.from_file(kernel_path("modified_params.cl"), options=options).build()


@pytest.fixture(scope="module", params=BARRIER_SCHEDULES)
def prg(request):
    return _program(request.param)


@pytest.mark.parametrize("ls", LOCAL_SIZES)
def test_pointer_moved_uniformly_before_barrier(prg, ls):
    groups = 5
    data = np.arange(groups * ls, dtype=np.int32) * 3 + 1
    out = np.full(groups * ls + 16, -7, np.int32)      # room to catch overruns
    prg.reverse_blocks((groups * ls,), (ls,), data, cl2c.LocalMemory(ls * 4), out)
    want = data.reshape(groups, ls)[:, ::-1].ravel()
    np.testing.assert_array_equal(out[:groups * ls], want)
    np.testing.assert_array_equal(out[groups * ls:], -7)


@pytest.mark.parametrize("ls", LOCAL_SIZES)
def test_pointer_moved_per_work_item_across_barrier(prg, ls):
    groups = 3
    data = np.random.default_rng(ls).integers(-1000, 1000, groups * ls).astype(np.int32)
    want = np.roll(data.reshape(groups, ls), -1, axis=1).ravel()
    prg.rotate_items((groups * ls,), (ls,), data, cl2c.LocalMemory(ls * 4))
    np.testing.assert_array_equal(data, want)


@pytest.mark.parametrize("ls", LOCAL_SIZES)
@pytest.mark.parametrize("rounds", [0, 3])
def test_scalars_modified_uniformly_and_per_work_item(prg, ls, rounds):
    groups, scale, offset = 2, 3, 100
    out = np.zeros(groups * ls, np.int32)
    prg.scalars((groups * ls,), (ls,), out, cl2c.LocalMemory(ls * 4), np.int32(scale),
                np.int32(offset), np.int32(rounds))
    t = np.arange(ls)
    aux = offset + t
    acc = sum(aux[(t + r) % ls] for r in range(rounds)) if rounds else np.zeros(ls, int)
    want = np.tile(acc * scale * 2 + offset + t, groups)
    np.testing.assert_array_equal(out, want)


@pytest.mark.parametrize("ls", LOCAL_SIZES)
def test_parameters_changed_by_component_and_through_address(prg, ls):
    groups, k = 2, 40
    v = np.array((1, 2, 3, 4), np.int32).view(cl2c.cltypes.int4)[0]
    out = np.zeros((groups * ls, 4), np.int32)
    prg.through_address((groups * ls,), (ls,), out, cl2c.LocalMemory(ls * 4), v, np.int32(k))
    t = np.arange(ls)
    want = np.stack([k + (ls - 1 - t), 2 + t, np.full(ls, 3), 4 + k + t], axis=1)
    np.testing.assert_array_equal(out, np.tile(want, (groups, 1)))


# No barrier: parameters walked per work-item in a uniform loop (a kernel the
# default schedule may turn into a work-group function).
STRIDED_SUM = """
kernel void strided_sum(global const int *in, global int *out, int n, int stride)
{
    in += get_global_id(0);
    int acc = 0;
    for (int i = 0; i < n; ++i) {
        acc += *in;
        in += stride;
    }
    n = acc;
    out[get_global_id(0)] = n;
}
"""


@pytest.mark.parametrize("schedule", ("auto", "loops", "regions", "fibers"))
@pytest.mark.parametrize("local", [(16,), None])
def test_barrier_free_kernel_walks_its_parameters(schedule, local):
    options = "" if schedule == "auto" else f"-cl2c-schedule={schedule}"
    p = cl2c.Program(STRIDED_SUM, options=options).build()
    gsize, n = 64, 5
    data = np.random.default_rng(7).integers(-50, 50, gsize * n).astype(np.int32)
    out = np.zeros(gsize, np.int32)
    p.strided_sum((gsize,), local, data, out, np.int32(n), np.int32(gsize))
    np.testing.assert_array_equal(out, data.reshape(n, gsize).sum(0))
