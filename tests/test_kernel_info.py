"""What a kernel says about itself from Python: its work-group limits (the same answers
as the OpenCL platform's clGetKernelWorkGroupInfo, through PyOpenCL), its schedule and
why, and the package's type hints."""
from __future__ import annotations

from pathlib import Path

import pytest

import cl2c
from icd_helpers import run_pyopencl

SOURCE = """
__kernel __attribute__((reqd_work_group_size(16, 4, 1)))
void fixed(__global float *a) { a[get_global_id(0)] += 1.0f; }

__kernel void reduce(__global const float *in, __global float *out, __local float *tmp)
{
    size_t lid = get_local_id(0);
    tmp[lid] = in[get_global_id(0)];
    barrier(CLK_LOCAL_MEM_FENCE);
    for (size_t s = get_local_size(0) / 2; s > 0; s >>= 1) {
        if (lid < s)
            tmp[lid] += tmp[lid + s];
        barrier(CLK_LOCAL_MEM_FENCE);
    }
    if (lid == 0)
        out[get_group_id(0)] = tmp[0];
}
"""


@pytest.mark.parametrize("version", ["1.2", "3.0"])
def test_work_group_info_is_the_platforms(version):
    std = "-cl-std=CL3.0" if version == "3.0" else ""
    prg = cl2c.Program(SOURCE, std).build()
    ours = {name: prg.kernel(name).work_group_info() for name in ("fixed", "reduce")}
    theirs = run_pyopencl(f"""
        ctx = cl.Context([device])
        prg = cl.Program(ctx, {SOURCE!r}).build({std!r})
        info = cl.kernel_work_group_info
        out({{k: [getattr(prg, k).get_work_group_info(info.WORK_GROUP_SIZE, device),
                  list(getattr(prg, k).get_work_group_info(info.COMPILE_WORK_GROUP_SIZE,
                                                            device)),
                  getattr(prg, k).get_work_group_info(
                      info.PREFERRED_WORK_GROUP_SIZE_MULTIPLE, device)]
             for k in ("fixed", "reduce")}})
        """, version=version)
    for name, info in ours.items():
        assert [info.max_size, list(info.compile_size), info.preferred_multiple] == \
            theirs[name], name
    assert ours["fixed"].max_size == 64 and ours["fixed"].compile_size == (16, 4, 1)
    assert ours["reduce"].max_size == prg.device.max_work_group_size


def test_a_kernel_says_its_schedule_and_why():
    prg = cl2c.Program(SOURCE).build()
    knl = prg.kernel("reduce")
    assert knl.schedule == "regions"
    assert "barriers" in knl.schedule_reason
    # the C's header comment says the same
    assert f"reduce: {knl.schedule} ({knl.schedule_reason})" in prg.c_source
    forced = cl2c.Program(SOURCE, "-cl2c-schedule=fibers").build().kernel("reduce")
    assert forced.schedule == "fibers" and "forced" in forced.schedule_reason


def test_the_package_has_type_hints():
    assert (Path(cl2c.__file__).parent / "py.typed").is_file()
