"""A guard on a group's linear local id (``tid = ly * lsx + lx; if (tid < n)``, the way
GPU kernels clear and copy out their __local memory) becomes the bounds of each row's
work-item loop (workgroup/builders/bounds.py, row_bounds), so that the loop is a
contiguous run the compiler vectorises. The bounds hold for one row only: each kernel
runs under the regions schedule and under fibers, which runs it as written, one
work-item at a time, and must store the same values for every local size, limit and
form of guard (before a barrier, in a uniform loop around the work-item loops, as the
OpenCL Programming Guide's histogram has it, and with the linear id of three
dimensions).
"""
from __future__ import annotations

import numpy as np
import pytest

import cl2c

TIDS = {
    "2d": "get_local_id(1) * get_local_size(0) + get_local_id(0)",
    "3d": "(get_local_id(2) * get_local_size(1) + get_local_id(1)) * get_local_size(0)"
          " + get_local_id(0)",
}
TYPES = ["int", "uint", "size_t"]
GUARDS = ["tid < n", "tid <= n", "tid >= n", "tid + 3 < n", "n > tid"]

SOURCE = """
kernel void once_{name}(global int *out, int n) {{
    local int tmp[96];
    {t} tid = {tid};
    tmp[tid % 96] = -1;
    barrier(CLK_LOCAL_MEM_FENCE);
    if ({guard}) {{
        tmp[tid % 96] = (int)tid + 1;
        if (get_local_id(0) == 1)       /* a split of the row's loop, elsewhere */
            tmp[tid % 96] += 1000;
    }}
    barrier(CLK_LOCAL_MEM_FENCE);
    out[get_global_id(0) + get_global_size(0) * (get_global_id(1)
        + get_global_size(1) * get_global_id(2))] = tmp[tid % 96];
}}

kernel void strided_{name}(global int *out, int n) {{
    local int tmp[96];
    int size = (int)(get_local_size(0) * get_local_size(1) * get_local_size(2));
    {t} tid = {tid};
    int group = (int)(get_group_id(0) + get_num_groups(0) * (get_group_id(1)
        + get_num_groups(1) * get_group_id(2)));
    int j = 96, indx = 0;
    do {{
        if (tid < j)
            tmp[indx + tid] = indx + (int)tid + n;
        j -= size;
        indx += size;
    }} while (j > 0);
    barrier(CLK_LOCAL_MEM_FENCE);
    j = 96;
    indx = 0;
    do {{
        if (tid < j && {guard})
            out[group * 96 + indx + tid] = tmp[indx + tid];
        j -= size;
        indx += size;
    }} while (j > 0);
}}
"""


def _kernels():
    return [(f"{dims}_{t.replace('_', '')}_{g}", dims, t, guard)
            for dims in TIDS for t in TYPES for g, guard in enumerate(GUARDS)]


def _source():
    return "".join(SOURCE.format(name=name, t=t, tid=TIDS[dims], guard=guard)
                   for name, dims, t, guard in _kernels())


LAUNCHES = {"2d": [((32, 8), (16, 4)), ((15, 6), (5, 3)), ((8, 8), (8, 8))],
            "3d": [((8, 4, 4), (4, 2, 2)), ((6, 3, 4), (3, 3, 2))]}
LIMITS = [-2, 0, 7, 40, 200]


@pytest.fixture(scope="module")
def programs(tmp_path_factory):
    import os
    os.environ.setdefault("CL2C_CACHE_DIR", str(tmp_path_factory.mktemp("cache")))
    src = _source()
    return (cl2c.Program(src).build(options="-cl2c-schedule=regions"),
            cl2c.Program(src).build(options="-cl2c-schedule=fibers -cl-opt-disable"))


def test_row_bounds_store_what_the_kernel_stores(programs):
    regions, fibers = programs
    wrong = []
    for name, dims, t, guard in _kernels():
        for gs, ls in LAUNCHES[dims]:
            groups = int(np.prod([g // w for g, w in zip(gs, ls)]))
            for n in LIMITS:
                for kind, size in (("once", int(np.prod(gs))), ("strided", groups * 96)):
                    got = np.full(size, 7, np.int32)
                    want = got.copy()
                    getattr(regions, f"{kind}_{name}")(gs, ls, got, np.int32(n))
                    getattr(fibers, f"{kind}_{name}")(gs, ls, want, np.int32(n))
                    if not np.array_equal(got, want):
                        wrong.append(f"{kind} {t} tid ({dims}), {guard}, n={n}, "
                                     f"local {ls}: {int((got != want).sum())} of {size} "
                                     f"differ")
    assert not wrong, "\n".join(wrong[:20])


def test_linear_id_guards_become_row_bounds():
    """The Guide's clear and copy-out loops run as bounded rows, not as a test a
    work-item (the histogram's partial kernel: 24 -> 19 ms on one thread)."""
    src = SOURCE.format(name="k", t="int", tid=TIDS["2d"], guard="tid < n")
    c = cl2c.translate(src, options="-cl2c-schedule=regions").emitted.source
    strided = c[c.index("void strided_k__group"):]
    assert strided.count("cl2c_bound_hi") == 3     # the clear's, both of the copy-out's
    assert "if (tid < j" not in strided
