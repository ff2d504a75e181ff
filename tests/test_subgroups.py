"""cl_khr_subgroups under -cl-std=CL2.0, where a sub-group is the whole work-group
(README): every function against a NumPy reference, for 1D and 2D groups, under the
regions and fibers schedules. (The PoCL here builds no sub-group functions; the opt-in
test against Intel's runtime, whose sub-groups are SIMD-width slices, holds both to the
reference for their own sub-group size.)"""
from __future__ import annotations

import numpy as np
import pytest

import cl2c

SOURCE = (__import__("pathlib").Path(__file__).parent / "kernels" / "subgroups.cl")


def reference(local):
    n = int(np.prod(local))
    x = np.arange(n) * 3 - 7
    ints = [x.sum(), None, x[5 % n], int((x > -8).all()), int((x > 100).any()), n, 100, n]
    rows = []
    for lid in range(n):
        row = list(ints)
        row[1] = x[:lid + 1].max()
        rows.append(row)
    exclusive = np.concatenate([[0.0], np.cumsum(x)[:-1]]).astype(np.float32)
    inclusive_min = np.minimum.accumulate(x)
    return np.array(rows, np.int32), exclusive, inclusive_min


@pytest.mark.parametrize("schedule", ["auto", "fibers"])
@pytest.mark.parametrize("gsize, local", [((64,), (16,)), ((8, 4), (4, 2))])
def test_subgroup_functions(schedule, gsize, local):
    options = "-cl-std=CL2.0" + ("" if schedule == "auto" else f" -cl2c-schedule={schedule}")
    prg = cl2c.Program(SOURCE.read_text(), options).build()
    items = int(np.prod(gsize))
    ints = np.zeros((items, 8), np.int32)
    floats = np.zeros(items, np.float32)
    mins = np.zeros(items, np.int32)
    prg.sg(gsize, local, ints, floats, mins)
    want_ints, want_exclusive, want_min = reference(local)
    # the kernel writes by local linear id within each group: compare group by group
    groups = items // int(np.prod(local))
    lin = _local_linear_ids(gsize, local)
    for g in range(groups):
        rows = lin[1] == g
        np.testing.assert_array_equal(ints[rows], want_ints[lin[0][rows]])
        np.testing.assert_array_equal(floats[rows], want_exclusive[lin[0][rows]])
        np.testing.assert_array_equal(mins[rows], want_min[lin[0][rows]])


def _local_linear_ids(gsize, local):
    """(local linear id, group linear id) of each global linear id."""
    gs = list(gsize) + [1] * (2 - len(gsize))
    ls = list(local) + [1] * (2 - len(local))
    y, x = np.meshgrid(np.arange(gs[1]), np.arange(gs[0]), indexing="ij")
    lid = (y % ls[1]) * ls[0] + x % ls[0]
    gid = (y // ls[1]) * (gs[0] // ls[0]) + x // ls[0]
    return lid.ravel(), gid.ravel()


def test_only_from_opencl_c_2_0():
    src = "kernel void k(global uint *o) { o[0] = get_sub_group_size(); }"
    with pytest.raises(cl2c.BuildError, match=r"get_sub_group_size\(\) is an OpenCL C 2.0 "
                                              "function: build with -cl-std=CL2.0"):
        cl2c.Program(src).build()
    macro = "kernel void k(global int *o) {\n#ifdef cl_khr_subgroups\no[0] = 1;\n#endif\n}"
    for options, want in (("", 0), ("-cl-std=CL2.0", 1)):
        out = np.zeros(1, np.int32)
        cl2c.Program(macro, options).build().k(1, None, out)
        assert out[0] == want, options


def reference_for(sub_group_ids):
    """reference() for the sub-groups a run formed: ``sub_group_ids[lid]`` is the
    sub-group of local linear id lid; a sub-group's local ids follow the local linear
    ids of its work-items. Rows by local linear id."""
    n = len(sub_group_ids)
    rows, exclusive, mins = [], [], []
    for lid in range(n):
        members = [k for k in range(n) if sub_group_ids[k] == sub_group_ids[lid]]
        count, rank = len(members), members.index(lid)
        x = np.arange(count) * 3 - 7
        rows.append([x.sum(), x[:rank + 1].max(), x[5 % count], int((x > -8).all()),
                     int((x > 100).any()), count,
                     len(set(sub_group_ids)) * 100 + sub_group_ids[lid], None])
        exclusive.append(x[:rank].sum())
        mins.append(x[:rank + 1].min())
    return rows, np.array(exclusive, np.float32), np.array(mins, np.int32)


@pytest.mark.intel
@pytest.mark.parametrize("gsize, local", [((64,), (16,)), ((8, 4), (4, 2)), ((96,), (48,))])
def test_subgroup_functions_against_intel(gsize, local):
    """Intel's CPU runtime makes sub-groups of its SIMD width (rows of dimension 0 in
    2D groups): its results and cl2c's each match the reference for the sub-groups
    the run formed (cl2c's: the work-group)."""
    from conftest import run_intel
    items = int(np.prod(gsize))

    def args():
        return [np.zeros((items, 8), np.int32), np.zeros(items, np.float32),
                np.zeros(items, np.int32)]
    ours = args()
    cl2c.Program(SOURCE.read_text(), "-cl-std=CL2.0").build().sg(gsize, local, *ours)
    [theirs] = run_intel(SOURCE.read_text(), [("sg", gsize, local, args())], "-cl-std=CL2.0")
    lin = _local_linear_ids(gsize, local)
    n = int(np.prod(local))
    for name, (ints, floats, mins) in (("cl2c", ours), ("Intel", theirs)):
        for g in range(items // n):
            rows = np.flatnonzero(lin[1] == g)
            rows = rows[np.argsort(lin[0][rows])]            # by local linear id
            got = ints[rows]
            want_rows, want_exclusive, want_min = reference_for(list(got[:, 6] % 100))
            want = np.array([r[:7] + [got[0, 7]] for r in want_rows], np.int32)
            np.testing.assert_array_equal(got, want, f"{name}, group {g}")
            np.testing.assert_array_equal(floats[rows], want_exclusive, name)
            np.testing.assert_array_equal(mins[rows], want_min, name)
            assert got[:, 5].max() <= got[0, 7], f"{name}: a sub-group over the maximum"
    # cl2c's sub-group is the work-group
    assert (ours[0][:, 5] == n).all() and (ours[0][:, 7] == n).all()
