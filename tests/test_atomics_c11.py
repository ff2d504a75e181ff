"""The C11 atomics and the generic address space functions of OpenCL C 2.0 (issue 11):
tests/kernels/atomics_c11.cl through cl2c (under CL2.0 and CL3.0, and each schedule
where a kernel has barriers) and through PoCL, which builds them under -cl-std=CL3.0
(in a child process: run_pocl_isolated). tests/kernels/generic_spaces.cl (to_global,
to_local, to_private, get_fence) has exact expectations: this PoCL builds no kernel
that calls them.

Results must be exact. Where contention decides what each work-item gets back, the
check is what every order must give, as in test_atomics.py: the final value of a
commutative operation, and that the old values chain from each cell's first value to
its last (check_chained).
"""
from __future__ import annotations

import numpy as np
import pytest

import cl2c
from conftest import PoclCrashed, kernel_path, kernel_source, run_pocl_isolated
from test_atomics import apply, check_chained, fold, random_values

SOURCE = kernel_source("atomics_c11.cl")
POCL_OPTIONS = "-cl-std=CL3.0"
STDS = ("CL2.0", "CL3.0")
SCHEDULES = ("auto", "regions", "fibers")
FETCH_OPS = ("add", "sub", "or", "xor", "and", "min", "max")
FETCH_TYPES = {"int": np.int32, "uint": np.uint32, "long": np.int64, "ulong": np.uint64}


def rng(salt: int):
    return np.random.default_rng(20261124 + salt)


_programs: dict = {}


def program(std: str = "CL2.0", schedule: str = "auto", path: str = "atomics_c11.cl"):
    key = (std, schedule, path)
    if key not in _programs:
        _programs[key] = cl2c.Program.from_file(
            kernel_path(path), options=f"-cl-std={std} -cl2c-schedule={schedule}").build()
    return _programs[key]


def pocl(launches: list) -> list:
    """The arguments after PoCL ran ``launches`` [(kernel, global, local, [args])]."""
    try:
        return run_pocl_isolated(SOURCE, launches, POCL_OPTIONS)
    except PoclCrashed as e:
        pytest.skip(str(e))


# ---- fetch_<op>: every function, contended, exact ---------------------------------------
@pytest.mark.parametrize("std", STDS)
@pytest.mark.parametrize("tname", FETCH_TYPES)
@pytest.mark.parametrize("op", FETCH_OPS)
def test_fetch_op_contended(op, tname, std):
    """4096 work-items in 64 groups on 3 cells: each cell ends at the fold of its
    operands, and the old values returned chain (no read-modify-write overlapped)."""
    dtype = FETCH_TYPES[tname]
    n, local, ncells = 4096, 64, 3
    r = rng(FETCH_OPS.index(op) * 10 + list(FETCH_TYPES).index(tname))
    cells0 = random_values(r, dtype, ncells)
    v = random_values(r, dtype, n)
    cells, olds = cells0.copy(), np.zeros(n, dtype)
    program(std).kernel(f"fetch_{op}_{tname}")(n, local, cells, v, olds, np.uint32(ncells))
    for c in range(ncells):
        np.testing.assert_array_equal(cells[c], fold(op, cells0[c], v[c::ncells]))
    check_chained(op, cells0, cells, v, None, olds)


@pytest.mark.parametrize("tname", FETCH_TYPES)
def test_fetch_ops_against_pocl(tname):
    """Each fetch_<op> with no two work-items on one cell: the old values and the cells
    equal PoCL's, and NumPy's."""
    dtype = FETCH_TYPES[tname]
    n, local = 1024, 64
    r = rng(50 + list(FETCH_TYPES).index(tname))
    launches, expected = [], []
    for op in FETCH_OPS:
        cells0, v = random_values(r, dtype, n), random_values(r, dtype, n)
        launches.append((f"fetch_{op}_{tname}", (n,), (local,),
                         [cells0.copy(), v, np.zeros(n, dtype), np.uint32(n)]))
        expected.append((apply(op, cells0, v, None), cells0))
    ref = pocl(launches)
    for (name, _, _, args), (cells_ref, olds_ref), pocl_args in zip(launches, expected, ref):
        cells, v, olds, ncells = args
        program().kernel(name)(n, local, cells, v, olds, ncells)
        np.testing.assert_array_equal(cells, cells_ref, err_msg=name)
        np.testing.assert_array_equal(olds, olds_ref, err_msg=name)
        np.testing.assert_array_equal(cells, pocl_args[0], err_msg=f"{name}: PoCL")
        np.testing.assert_array_equal(olds, pocl_args[2], err_msg=f"{name}: PoCL")


def test_one_counter_many_groups():
    """fetch_add by 1 from 256 groups: the counter is exact and every old value from 0
    to n - 1 comes back once."""
    n, local = 256 * 64, 64
    counter, ones, olds = np.zeros(1, np.int32), np.ones(n, np.int32), np.zeros(n, np.int32)
    program().fetch_add_int(n, local, counter, ones, olds, np.uint32(1))
    assert counter[0] == n
    np.testing.assert_array_equal(np.sort(olds), np.arange(n, dtype=np.int32))


# ---- exchange, load, store, compare_exchange --------------------------------------------
@pytest.mark.parametrize("kernel,dtype", [("exchange_int", np.int32),
                                          ("exchange_float", np.float32)])
def test_exchange_chains(kernel, dtype):
    n, local, ncells = 4096, 64, 2
    r = rng(60)
    cells0 = r.integers(0, 1000, ncells).astype(dtype)
    v = r.integers(1000, 10 ** 6, n).astype(dtype)          # all distinct from cells0
    cells, olds = cells0.copy(), np.zeros(n, dtype)
    program().kernel(kernel)(n, local, cells, v, olds, np.uint32(ncells))
    for c in range(ncells):
        before = np.sort(np.concatenate([olds[c::ncells], cells[c:c + 1]]))
        after = np.sort(np.concatenate([v[c::ncells], cells0[c:c + 1]]))
        np.testing.assert_array_equal(before, after)
    ref = pocl([(kernel, (n,), (local,), [cells0.copy(), v, np.zeros(n, dtype),
                                          np.uint32(ncells)])])[0]
    for c in range(ncells):       # PoCL's run chains the same values
        np.testing.assert_array_equal(np.sort(np.concatenate([olds[c::ncells], cells[c:c + 1]])),
                                      np.sort(np.concatenate([ref[2][c::ncells], ref[0][c:c + 1]])))


def test_load_store_init():
    n = 256
    a, seen = np.full(n, 7, np.int64), np.zeros(n, np.int64)
    program("CL3.0").load_store(n, 64, a, seen)
    i = np.arange(n, dtype=np.int64)
    want = np.where(i % 2 == 1, -i, 3 * i)
    np.testing.assert_array_equal(a, want)
    np.testing.assert_array_equal(seen, want)


@pytest.mark.parametrize("kernel,dtype,nsums", [("float_sum_cas", np.float32, 1),
                                                ("float_sum_cas", np.float32, 7),
                                                ("long_sum_cas", np.int64, 3)])
def test_sum_by_compare_exchange_loop(kernel, dtype, nsums):
    """A read-modify-write built from compare_exchange (weak for the float, strong with
    orders and a scope for the long): small integer values, so any order sums exactly."""
    n, local = 128 * 64, 64
    r = rng(70 + nsums)
    v = r.integers(-50, 100, n).astype(dtype)
    sums = np.zeros(nsums, dtype)
    program().kernel(kernel)(n, local, sums, v, np.uint32(nsums))
    np.testing.assert_array_equal(sums, [v[k::nsums].sum(dtype=np.float64)
                                         for k in range(nsums)])
    ref = pocl([(kernel, (n,), (local,), [np.zeros(nsums, dtype), v, np.uint32(nsums)])])
    np.testing.assert_array_equal(sums, ref[0][0])


def test_compare_exchange_strong_outcome():
    """Success exactly when the cell holds the expected value; on failure, the
    expected value becomes the cell's."""
    n = 512
    r = rng(80)
    cells0 = r.integers(0, 4, n).astype(np.uint32)
    expect = r.integers(0, 4, n).astype(np.uint32)
    desired = r.integers(100, 200, n).astype(np.uint32)
    cells, seen, won = cells0.copy(), np.zeros(n, np.uint32), np.zeros(n, np.int32)
    program().compare_exchange_once(n, 64, cells, expect, desired, seen, won)
    hit = cells0 == expect
    assert 0 < hit.sum() < n
    np.testing.assert_array_equal(won, hit.astype(np.int32))
    np.testing.assert_array_equal(cells, np.where(hit, desired, cells0))
    np.testing.assert_array_equal(seen, cells0)


# ---- atomic_flag: a spinlock across work-groups --------------------------------------
@pytest.mark.parametrize("schedule", SCHEDULES)
def test_spinlock_with_atomic_flag(schedule):
    """Every work-item takes the lock, counts in plain memory and releases it: the
    count is exact, and no two work-items were ever inside at once."""
    n, local = 512 * 16, 16
    lock, plain = np.zeros(1, np.int32), np.zeros(1, np.int32)
    inside, overlaps = np.zeros(1, np.int32), np.zeros(1, np.int32)
    program("CL2.0", schedule).spinlock(n, local, lock, plain, inside, overlaps)
    assert (plain[0], overlaps[0], lock[0], inside[0]) == (n, 0, 0, 0)


# ---- __local atomics, with barriers, under every schedule -------------------------------
@pytest.mark.parametrize("schedule", SCHEDULES)
@pytest.mark.parametrize("std", STDS)
def test_local_atomics(schedule, std):
    groups, local = 64, 32
    n = groups * local
    r = rng(90)
    v = r.integers(-1000, 1000, n).astype(np.int32)
    out, olds = np.zeros(4 * groups, np.int32), np.zeros(n, np.int32)
    program(std, schedule).local_atomics(n, local, v, out, olds, cl2c.LocalMemory(4))
    per = v.reshape(groups, local)
    bits = [np.bitwise_or.reduce(np.left_shift(np.uint32(1), (g & 31).astype(np.uint32)))
            for g in per]
    want = np.stack([per.sum(1), per.max(1), np.array(bits).view(np.int32),
                     np.full(groups, local)], 1).astype(np.int32).ravel()
    np.testing.assert_array_equal(out, want)
    # each group's old values are its running sums, in some order
    for g in range(groups):
        check_chained("add", np.zeros(1, np.int32), out[4 * g:4 * g + 1], per[g], None,
                      olds[g * local:(g + 1) * local])
    if schedule == "auto" and std == "CL2.0":
        ref = pocl([("local_atomics", (n,), (local,),
                     [v, np.zeros(4 * groups, np.int32), np.zeros(n, np.int32),
                      cl2c.LocalMemory(4)])])[0]
        np.testing.assert_array_equal(out, ref[1])


def test_generic_pointer_to_global_atomic():
    n = 64 * 64
    counter = np.zeros(1, np.int32)
    program().generic_count(n, 64, counter)
    assert counter[0] == n


# ---- to_global, to_local, to_private, get_fence -----------------------------------------
GLOBAL, LOCAL, PRIVATE, LOCAL_FENCE, GLOBAL_FENCE = 1, 2, 4, 8, 16


@pytest.mark.parametrize("schedule", SCHEDULES)
def test_address_space_functions(schedule):
    """Each place's pointer comes back from its own to_ function only (NULL from the
    others), and get_fence says LOCAL for __local memory; NULL is in no space."""
    n, local = 128, 16
    prg = program("CL2.0", schedule, "generic_spaces.cl")
    g, out = np.zeros(n, np.int32), np.full(8 * n, -1, np.int32)
    prg.spaces(n, local, g, cl2c.LocalMemory(4 * local), out)
    want = [GLOBAL | GLOBAL_FENCE, LOCAL | LOCAL_FENCE, LOCAL | LOCAL_FENCE,
            PRIVATE | GLOBAL_FENCE, PRIVATE | GLOBAL_FENCE, PRIVATE | GLOBAL_FENCE,
            PRIVATE | GLOBAL_FENCE, GLOBAL_FENCE]
    np.testing.assert_array_equal(out.reshape(n, 8), np.tile(want, (n, 1)))


def test_to_global_result_is_a_global_pointer():
    n = 256
    g = np.arange(n, dtype=np.int32)
    program("CL3.0", "auto", "generic_spaces.cl").through_to_global(n, 64, g)
    np.testing.assert_array_equal(g, np.arange(n) + 1)


# ---- what the compiler says ---------------------------------------------------------------
def translate(src: str, options: str = "-cl-std=CL2.0"):
    return cl2c.translate(src, "t.cl", options)


def error_of(src: str, options: str = "-cl-std=CL2.0") -> str:
    with pytest.raises(cl2c.BuildError) as e:
        translate(src, options)
    return str(e.value)


@pytest.mark.parametrize("src,where,message", [
    ("kernel void k(read_only pipe int p) { }\n", "t.cl:1:25:", "pipes"),
    ("kernel void k(global int *o) {\n  int v;\n  read_pipe(o, &v);\n}\n", "t.cl:3:3:",
     "pipes"),
    ("kernel void k(global int *o) {\n  void (^b)(void) = ^{ o[0] = 1; };\n}\n", "t.cl:2:9:",
     "blocks"),
    ("kernel void k(global int *o) {\n  int x = o[0] ^ o[1];\n  o[2] = ^{ return 1; }();\n}\n",
     "t.cl:3:10:", "blocks"),
    ("kernel void k(global int *o) {\n  queue_t q = get_default_queue();\n}\n", "t.cl:2:3:",
     "device-side enqueue"),
    ("kernel void k(global int *o) {\n  enqueue_kernel(0, 0, 0);\n}\n", "t.cl:2:3:",
     "device-side enqueue"),
])
def test_unsupported_features_are_positioned_errors(src, where, message):
    text = error_of(src)
    assert f"{where} error:" in text and message in text and "not supported" in text, text


@pytest.mark.parametrize("body,message", [
    ("*c = 1;", "read and written only by the atomic functions"),
    ("int x = *c + 1;", "read and written only by the atomic functions"),
    ("(*c)++;", "read and written only by the atomic functions"),
    ("atomic_fetch_add(f, 1.0f);", "no matching function for call to 'atomic_fetch_add"),
    ("atomic_fetch_add((constant atomic_int *)0, 1);", "no matching function"),
    ("atomic_add(c, 1);", "no matching function for call to 'atomic_add"),
    ("atomic_store(c, 1, memory_scope_all_devices);", "undeclared identifier "
     "'memory_scope_all_devices'"),
])
def test_misused_atomics_are_errors(body, message):
    src = (f"kernel void k(global atomic_int *c, global atomic_float *f) {{\n  {body}\n}}\n")
    assert message in error_of(src)


# ---- the 64-bit atomic types need their extensions (spec 6.13.11.6) -------------------
NO_FP64 = "-cl-std=CL2.0 -cl-ext=-cl_khr_fp64"
NO_INT64_ATOMICS = "-cl-std=CL2.0 -cl-ext=-cl_khr_int64_extended_atomics"
_DOUBLE_ATOMIC = ("cl_khr_fp64, cl_khr_int64_base_atomics and "
                  "cl_khr_int64_extended_atomics support")


@pytest.mark.parametrize("src,options,where,message", [
    ("kernel void k(global atomic_double *p) {\n  atomic_store(p, 1.0);\n}\n", NO_FP64,
     "t.cl:1:22:", f"use of type 'atomic_double' requires {_DOUBLE_ATOMIC}"),
    ("kernel void k(global int *p) {\n  atomic_exchange((global atomic_double *)p, 2.0);\n}\n",
     "-cl-std=CL3.0 -cl-ext=-__opencl_c_fp64", "t.cl:2:27:",
     f"use of type 'atomic_double' requires {_DOUBLE_ATOMIC}"),
    ("typedef atomic_double counter_t;\n", NO_INT64_ATOMICS, "t.cl:1:9:",
     f"use of type 'atomic_double' requires {_DOUBLE_ATOMIC}"),
    ("kernel void k(global atomic_long *p) { }\n", NO_INT64_ATOMICS, "t.cl:1:22:",
     "use of type 'atomic_long' requires cl_khr_int64_base_atomics and "
     "cl_khr_int64_extended_atomics support"),
    ("kernel void k(global atomic_size_t *p) { }\n", NO_INT64_ATOMICS, "t.cl:1:22:",
     "use of type 'atomic_size_t' requires cl_khr_int64_base_atomics"),
    ("kernel void k(global float *p) {\n  double d = p[0];\n}\n", NO_FP64, "t.cl:2:3:",
     "use of type 'double' requires cl_khr_fp64 support"),
    ("kernel void k(global double4 *p) { }\n", "-cl-ext=-cl_khr_fp64", "t.cl:1:22:",
     "use of type 'double4' requires cl_khr_fp64 support"),
    ("kernel void k(global atomic_double *p, global double *o) {\n"
     "  o[0] = atomic_fetch_add(p, 1.0);\n}\n", "-cl-std=CL2.0", "t.cl:2:10:",
     "no matching function for call to 'atomic_fetch_add(__global atomic_double *, "
     "double)': atomic_fetch_ operations on 'atomic_double' are cl_ext_float_atomics, which cl2c "
     "does not offer"),
])
def test_double_and_64_bit_atomics_need_their_extensions(src, options, where, message):
    """atomic_double needs double and the 64-bit atomics, atomic_long and the atomics of
    64-bit size_t the latter, double itself cl_khr_fp64: an error at the type's use on a
    device without them (-cl-ext=-name, clang's option), none where they are offered."""
    text = error_of(src, options)
    assert f"{where} error: {message}" in text, text


def test_the_device_without_fp64():
    dev = cl2c.device("-cl-std=CL3.0 -cl-ext=-cl_khr_fp64")
    assert "cl_khr_fp64" not in dev.extensions and "__opencl_c_fp64" not in dev.features
    assert "cl_khr_int64_base_atomics" in dev.extensions
    src = ("kernel void k(global int *o) {\n#if defined(cl_khr_fp64) || "
           "defined(__opencl_c_fp64)\n  o[0] = 1;\n#endif\n}\n")
    for options, want in (("-cl-std=CL3.0", 1), ("-cl-std=CL3.0 -cl-ext=-__opencl_c_fp64", 0)):
        out = np.zeros(1, np.int32)
        cl2c.Program(src, options).build().k(1, None, out)
        assert out[0] == want, options
    translate("kernel void k(global atomic_double *p) { atomic_store(p, 1.0); }\n")
    # a double constant is a float one there, with clang's warning
    src = "kernel void k(global float *o) {\n  o[0] = o[0] * 0.1 + 0x1p-2;\n}\n"
    with pytest.warns(cl2c.BuildWarning):
        prg = cl2c.Program(src, "-cl-ext=-cl_khr_fp64").build()
    assert ("<kernel>:2:17: warning: double precision constant requires cl_khr_fp64, "
            "casting to single precision") in prg.build_log
    o = np.array([3.0], np.float32)
    prg.k(1, None, o)
    assert o[0] == np.float32(3.0) * np.float32(0.1) + np.float32(0.25)
    with pytest.raises(cl2c.BuildError, match="invalid item '-cl_khr_fp65'"):
        cl2c.device("-cl-ext=-cl_khr_fp65")


def test_atomics_are_opencl_c_2_0():
    assert "'atomic_int' is an OpenCL C 2.0 type" in error_of(
        "kernel void k(global atomic_int *c) { }\n", "")
    assert "atomic_fetch_add() is an OpenCL C 2.0 function" in error_of(
        "kernel void k(global int *c) { atomic_fetch_add(c, 1); }\n", "")
    assert "undeclared identifier 'memory_order_relaxed'" in error_of(
        "kernel void k(global int *c) { c[0] = memory_order_relaxed; }\n", "")
    # sub_group and all_devices scopes are OpenCL C 3.0's
    translate("kernel void k(global atomic_int *c) {\n  atomic_store_explicit(c, 1, "
              "memory_order_release, memory_scope_all_devices);\n}\n", "-cl-std=CL3.0")


def test_opencl_c_3_0_feature_macros():
    """Under CL3.0 each feature of cl2c's table is defined, as the version; under CL2.0
    none is."""
    from cl2c.target import FEATURES as OPENCL_C_FEATURES
    checks = "".join(f"#ifndef {f}\n#error {f} missing\n#endif\n" for f in OPENCL_C_FEATURES)
    src = (checks + "#if __OPENCL_C_VERSION__ != 300 || __OPENCL_VERSION__ != 300\n"
           "#error version\n#endif\n#ifdef __opencl_c_pipes\n#error pipes\n#endif\n"
           "kernel void k(global int *o) { o[0] = 1; }\n")
    translate(src, "-cl-std=CL3.0")
    assert f"{OPENCL_C_FEATURES[0]} missing" in error_of(checks, "-cl-std=CL2.0")
    assert {"__opencl_c_atomic_order_seq_cst", "__opencl_c_atomic_scope_device",
            "__opencl_c_atomic_scope_all_devices", "__opencl_c_generic_address_space",
            "__opencl_c_atomic_order_acq_rel"} <= set(OPENCL_C_FEATURES)


def test_atomic_int_takes_int32_buffers():
    """An atomic_int has an int's size and alignment: an int32 array fits it; in strict
    mode only that dtype does; a buffer of no whole number of ints never does."""
    prg = program()
    counter = np.zeros(1, np.int32)
    prg.generic_count(64, 64, counter)
    assert counter[0] > 0
    with pytest.raises(cl2c.KernelArgError, match="4 bytes"):
        prg.generic_count(64, 64, np.zeros(6, np.uint8))
    strict = cl2c.Program.from_file(kernel_path("atomics_c11.cl"), options="-cl-std=CL2.0",
                                    strict_buffers=True).build()
    with pytest.raises(cl2c.KernelArgError, match="int32"):
        strict.generic_count(64, 64, np.zeros(1, np.int64))


POINTER_CONVERSIONS = [
    ("int *p = g; global int *q = (global int *)p;", True),      # generic to named
    ("local int l[2]; int *p = (int *)l; p = &l[1];", True),     # named to generic
    ("local int *l = (local int *)g;", False),                   # named to another
    ("int *p = g; constant int *c = (constant int *)p;", False),  # generic to __constant
    ("int *p = g; local int *l = p;", False),                    # implicit generic to named
]


@pytest.mark.parametrize("cast,ok", POINTER_CONVERSIONS)
def test_pointer_conversions_of_opencl_c_2_0(cast, ok):
    """Spec 6.5.5: to and from the generic address space only, and an implicit
    conversion only to it."""
    src = f"kernel void k(global int *g) {{\n  {cast}\n}}\n"
    if ok:
        translate(src)
    else:
        assert "changes the address space of the pointer" in error_of(src)


# ---- against Intel's OpenCL CPU runtime (opt-in: make test-intel) -----------------------
INTEL_OPTIONS = "-cl-std=CL3.0"


def intel(launches: list, path: str = "atomics_c11.cl") -> list:
    from conftest import run_intel
    return run_intel(kernel_source(path), launches, INTEL_OPTIONS)


@pytest.mark.intel
@pytest.mark.parametrize("schedule", SCHEDULES)
def test_address_space_functions_against_intel(schedule):
    """to_global, to_local, to_private and get_fence, which this PoCL does not build.
    Intel's CPU runtime gives every generic pointer back from all three to_ functions
    and says CLK_GLOBAL_MEM_FENCE for every one (its memory is flat; the spec wants NULL
    from the functions of the other spaces, and the local fence for __local memory:
    test_address_space_functions holds cl2c to that). So what the two must agree on:
    each place's pointer comes back from its own space's function, NULL from none, and
    a pointer to_global gives back stores to the buffer."""
    n, local = 128, 16

    def args():
        return [np.zeros(n, np.int32), cl2c.LocalMemory(4 * local),
                np.full(8 * n, -1, np.int32)]
    ours = args()
    program("CL3.0", schedule, "generic_spaces.cl").spaces(n, local, *ours)
    [theirs] = intel([("spaces", (n,), (local,), args())], "generic_spaces.cl")
    own = np.array([GLOBAL, LOCAL, LOCAL, PRIVATE, PRIVATE, PRIVATE, PRIVATE, 0])
    for name, out in (("cl2c", ours[2]), ("Intel", theirs[2])):
        bits = out.reshape(n, 8)
        np.testing.assert_array_equal(bits & own, np.broadcast_to(own, bits.shape), name)
        assert not (bits & 64).any(), f"{name}: a to_ function returned another pointer"
        np.testing.assert_array_equal(bits[:, 7], GLOBAL_FENCE, name)   # NULL
    g = np.arange(n, dtype=np.int32)
    program("CL3.0", schedule, "generic_spaces.cl").through_to_global(n, 64, g)
    [[their_g]] = intel([("through_to_global", (n,), (64,), [np.arange(n, dtype=np.int32)])],
                        "generic_spaces.cl")
    np.testing.assert_array_equal(g, their_g)


@pytest.mark.intel
def test_atomics_same_as_intel():
    """Every kernel of atomics_c11.cl whose result does not depend on the order of
    contending work-items (or, where it does, on what every order gives): Intel's
    results, where PoCL has no atomic_flag, no generic pointers to atomics."""
    n, local = 1024, 64
    r = rng(500)
    launches, checks = [], []

    def add(name, gsize, lsize, args, compare):
        launches.append((name, (gsize,), (lsize,), args))
        checks.append(compare)
    for tname, dtype in FETCH_TYPES.items():
        for op in FETCH_OPS:      # one work-item per cell: exact old values and cells
            cells0, v = random_values(r, dtype, n), random_values(r, dtype, n)
            add(f"fetch_{op}_{tname}", n, local,
                [cells0, v, np.zeros(n, dtype), np.uint32(n)], (0, 2))
    a = np.full(256, 7, np.int64)
    add("load_store", 256, 64, [a, np.zeros(256, np.int64)], (0, 1))
    cells0 = r.integers(0, 4, 512).astype(np.uint32)
    add("compare_exchange_once", 512, 64,
        [cells0, r.integers(0, 4, 512).astype(np.uint32),
         r.integers(100, 200, 512).astype(np.uint32), np.zeros(512, np.uint32),
         np.zeros(512, np.int32)], (0, 3, 4))
    add("spinlock", 64 * 16, 16, [np.zeros(1, np.int32) for _ in range(4)], (0, 1, 2, 3))
    add("generic_count", 64 * 64, 64, [np.zeros(1, np.int32)], (0,))
    v = r.integers(-50, 100, 128 * 64)
    add("float_sum_cas", 128 * 64, 64,
        [np.zeros(7, np.float32), v.astype(np.float32), np.uint32(7)], (0,))
    add("long_sum_cas", 128 * 64, 64,
        [np.zeros(3, np.int64), v.astype(np.int64), np.uint32(3)], (0,))
    v = r.integers(-1000, 1000, 64 * 32).astype(np.int32)
    add("local_atomics", 64 * 32, 32, [v, np.zeros(4 * 64, np.int32),
                                       np.zeros(64 * 32, np.int32), cl2c.LocalMemory(4)], (1,))
    import copy
    theirs = intel(copy.deepcopy(launches))
    prg = program("CL3.0")
    for (name, gsize, lsize, args), their, compare in zip(launches, theirs, checks):
        prg.kernel(name)(gsize, lsize, *args)
        for k in compare:
            np.testing.assert_array_equal(args[k], their[k], err_msg=f"{name} argument {k}")


@pytest.mark.intel
@pytest.mark.parametrize("src,ok", [
    *((f"kernel void k(global int *g) {{\n  {cast}\n}}\n", ok)
      for cast, ok in POINTER_CONVERSIONS),
    ("constant int c = 1;\nglobal constant int *global x = &c;\n"
     "kernel void k(global int *o) { o[0] = *x; }\n", False),
    ("constant int c = 1;\nconstant int *global x = &c;\n"
     "kernel void k(global int *o) { o[0] = *x; }\n", True),
    ("kernel void k(global atomic_int *c) {\n  *c = 1;\n}\n", False),
    ("kernel void k(global atomic_double *p, global double *o) {\n"
     "  o[0] = atomic_exchange(p, 1.0);\n}\n", True),
])
def test_what_builds_as_on_intel(src, ok):
    """Intel's compiler and cl2c accept and refuse the same OpenCL C 2.0 programs:
    pointer conversions between address spaces, two address spaces on one type,
    atomic objects used as plain ones. (Not atomic_fetch_add on atomic_double: Intel
    offers cl_ext_float_atomics, cl2c does not.)"""
    from conftest import intel_build_error
    theirs = intel_build_error(src, "-cl-std=CL2.0")
    assert (theirs is None) == ok, theirs
    if ok:
        translate(src)
    else:
        error_of(src)
