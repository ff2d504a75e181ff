"""The Python loader: argument checking and marshalling, launch errors, metadata."""
from __future__ import annotations

import json
import os
import subprocess
import sys

import numpy as np
import pytest

import cl2c
from cl2c import cltypes
from conftest import kernel_path, kernel_source

PAIR = np.dtype([("a", np.int32), ("b", np.float32), ("c", np.int8)], align=True)


@pytest.fixture(scope="module")
def prg():
    return cl2c.Program.from_file(kernel_path("loader.cl")).build()


@pytest.fixture(scope="module")
def strict():
    """The same kernels with buffers that take only arrays of the pointee's dtype."""
    return cl2c.Program.from_file(kernel_path("loader.cl"), strict_buffers=True).build()


def _f32(n, seed=0):
    return np.random.default_rng(seed).standard_normal(n).astype(np.float32)


def test_kernel_names(prg):
    assert set(prg.kernel_names) == {"scale", "nullcheck", "_private", "vec4", "small_args",
                                     "with_local"}


def test_scale_runs(prg):
    x = _f32(64)
    out = np.zeros(64, np.float32)
    prg.scale(64, None, out, x, 3.0, 60)
    np.testing.assert_array_equal(out[:60], x[:60] * np.float32(3))
    np.testing.assert_array_equal(out[60:], 0)


def test_profile_times_the_launch(prg):
    """profile=True: the launch's start and end (perf_counter_ns), between the times
    around the call; the results as without it."""
    import time
    x = _f32(1 << 16)
    out = np.zeros_like(x)
    before = time.perf_counter_ns()
    times = prg.scale(x.size, None, out, x, 2.0, x.size, profile=True)
    after = time.perf_counter_ns()
    assert isinstance(times, cl2c.LaunchTimes)
    assert before <= times.start <= times.end <= after
    assert times.seconds == (times.end - times.start) * 1e-9
    np.testing.assert_array_equal(out, x * np.float32(2))
    assert prg.scale(x.size, None, out, x, 2.0, x.size) is None


def _assert_names(err, kernel, arg):
    msg = str(err.value)
    assert f"'{kernel}'" in msg and arg in msg, msg


def test_wrong_dtype(strict):
    out = np.zeros(8, np.float64)
    with pytest.raises(cl2c.KernelArgError, match="expected dtype float32, got float64") as err:
        strict.scale(8, None, out, _f32(8), 1.0, 8)
    _assert_names(err, "scale", "out")
    assert isinstance(err.value, TypeError) and isinstance(err.value, ValueError)


def test_wrong_dtype_int_for_float(strict):
    with pytest.raises(cl2c.KernelArgError) as err:
        strict.scale(8, None, np.zeros(8, np.float32), np.zeros(8, np.int32), 1.0, 8)
    _assert_names(err, "scale", "in")


def test_other_numbers_reinterpreted_only_when_asked():
    """strict_buffers=False: as PyOpenCL's buffers, bytes are bytes whatever the array's
    dtype, with a warning at the caller's line; by default, an error."""
    loose = cl2c.Program.from_file(kernel_path("loader.cl"), strict_buffers=False).build()
    x = _f32(8)
    out = np.zeros(8, np.float64)              # 64 bytes: 16 floats
    with pytest.warns(cl2c.BufferWarning, match="its bytes are reinterpreted") as record:
        loose.scale(8, None, out, x.view(np.int32), 3.0, 8)
    assert {w.filename for w in record} == {__file__}
    messages = sorted(str(w.message) for w in record)
    assert "'in' (float*): an int32 array for `float*`" in messages[0], messages
    assert "'out' (float*): a float64 array for `float*`" in messages[1], messages
    np.testing.assert_array_equal(out.view(np.float32)[:8], x * np.float32(3))
    np.testing.assert_array_equal(out.view(np.float32)[8:], 0)
    default = cl2c.Program.from_file(kernel_path("loader.cl")).build()
    with pytest.raises(cl2c.KernelArgError, match="pass out.astype"):
        default.scale(8, None, out, x, 3.0, 8)


def test_non_contiguous(prg):
    x = _f32(16)[::2]
    with pytest.raises(cl2c.KernelArgError) as err:
        prg.scale(8, None, np.zeros(8, np.float32), x, 1.0, 8)
    _assert_names(err, "scale", "in")
    assert "contiguous" in str(err.value)


def test_read_only_array_for_written_pointer(prg):
    out = np.zeros(8, np.float32)
    out.setflags(write=False)
    with pytest.raises(cl2c.KernelArgError) as err:
        prg.scale(8, None, out, _f32(8), 1.0, 8)
    _assert_names(err, "scale", "out")
    assert np.all(out == 0)


def test_read_only_array_for_const_pointer_is_fine(prg):
    x = _f32(8)
    x.setflags(write=False)
    out = np.zeros(8, np.float32)
    prg.scale(8, None, out, x, 2.0, 8)
    np.testing.assert_array_equal(out, x * np.float32(2))


def test_wrong_arg_count(prg):
    with pytest.raises(cl2c.KernelArgError) as err:
        prg.scale(8, None, np.zeros(8, np.float32), _f32(8), 1.0)
    assert "'scale'" in str(err.value) and "4" in str(err.value)


def test_int_out_of_range(prg):
    with pytest.raises(cl2c.KernelArgError) as err:
        prg.scale(8, None, np.zeros(8, np.float32), _f32(8), 1.0, 2**31)
    _assert_names(err, "scale", "n")
    with pytest.raises(cl2c.KernelArgError):
        prg.small_args(1, None, np.zeros(6, np.int64), 128, 0, 0, 0, 0, 0.0)
    with pytest.raises(cl2c.KernelArgError):
        prg.small_args(1, None, np.zeros(6, np.int64), 0, -1, 0, 0, 0, 0.0)
    with pytest.raises(cl2c.KernelArgError):
        prg.small_args(1, None, np.zeros(6, np.int64), 0, 0, 0, 2**32, 0, 0.0)


def test_non_integer_float_for_int(prg):
    with pytest.raises(cl2c.KernelArgError) as err:
        prg.scale(8, None, np.zeros(8, np.float32), _f32(8), 1.0, 2.5)
    _assert_names(err, "scale", "n")


def test_scalar_extremes(prg):
    out = np.zeros(6, np.int64)
    prg.small_args(1, None, out, -128, 255, -32768, 2**32 - 1, -2**63, 1.25)
    assert out.tolist() == [-128, 255, -32768, 2**32 - 1, -2**63, 2]


def test_local_size_not_dividing_global(prg):
    with pytest.raises(cl2c.LaunchError) as err:
        prg._private((10,), (3,), np.zeros(10, np.int32))
    assert err.value.code == -54
    assert "_private" in str(err.value)


def test_local_size_wrong_dims(prg):
    with pytest.raises(cl2c.KernelArgError):
        prg._private((10,), (5, 1), np.zeros(10, np.int32))


def test_null_pointer(prg):
    flag = np.zeros(4, np.int32)
    prg.nullcheck(4, None, None, flag)
    assert flag.tolist() == [1, 1, 1, 1]
    p = np.zeros(4, np.int32)
    prg.nullcheck(4, None, p, flag)
    assert flag.tolist() == [2, 2, 2, 2]
    assert p.tolist() == [7, 7, 7, 7]


def test_underscore_private_kernel_as_attribute(prg):
    p = np.zeros(5, np.int32)
    prg._private(5, None, p)
    assert p.tolist() == [42, 43, 44, 45, 46]
    assert prg.kernel("_private") is prg._private or prg.kernel("_private").name == "_private"


def test_unknown_kernel_attribute(prg):
    with pytest.raises(AttributeError):
        prg.no_such_kernel


def test_arg_info(prg):
    info = prg.scale.arg_info
    assert [a.name for a in info] == ["out", "in", "k", "n"]
    assert [a.kind for a in info] == ["buffer", "buffer", "value", "value"]
    assert info[0].address_space == "global" and info[0].writes is True
    assert info[1].address_space == "global" and info[1].writes is False
    assert info[0].type_name.replace(" ", "") == "float*"
    assert "float" in info[1].type_name
    assert info[2].type_name == "float" and info[3].type_name == "int"
    assert info[2].address_space == "private"
    wl = prg.with_local.arg_info
    assert [a.kind for a in wl] == ["buffer", "local", "buffer"]
    assert [a.address_space for a in wl] == ["global", "local", "constant"]
    assert wl[0].writes is True and wl[2].writes is False
    v4 = prg.vec4.arg_info
    assert v4[1].type_name == "float4" and v4[1].kind == "value"
    assert v4[2].kind == "value" and "Pair" in v4[2].type_name
    assert v4[3].kind == "buffer" and v4[3].writes is True


def test_local_memory_and_constant(prg):
    p = np.arange(16, dtype=np.int32)
    c = np.array([100], np.int32)
    prg.with_local(16, 8, p, cl2c.LocalMemory(8 * 4), c)
    assert p.tolist() == list(range(100, 116))
    with pytest.raises(cl2c.KernelArgError) as err:
        prg.with_local(16, 8, p, np.zeros(8, np.int32), c)
    _assert_names(err, "with_local", "tmp")


def _vec4_expect(v, add, pair):
    return v * np.float32(pair["b"]) + np.asarray(add, np.float32) + np.float32(pair["a"])


@pytest.mark.parametrize("form", ["float32", "cltypes"])
def test_float4_buffer_forms(prg, form):
    n = 10
    base = _f32(4 * n, 3).reshape(n, 4)
    add = cltypes.make_float4(1.0, 2.0, 3.0, 4.0)
    pair = np.array((5, 0.5, 9), dtype=PAIR)[()]
    prs = np.zeros(n, PAIR)
    prs["a"] = np.arange(n)
    prs["b"] = 1.5
    if form == "float32":
        v = base.copy().reshape(-1)
    else:
        v = np.zeros(n, cltypes.float4)
        v.view(np.float32).reshape(n, 4)[:] = base
    prg.vec4(n, None, v, add, pair, prs)
    got = v.view(np.float32).reshape(n, 4)
    expect = base * np.float32(0.5) + np.array([1, 2, 3, 4], np.float32) + np.float32(5)
    np.testing.assert_array_equal(got, expect)
    assert prs["a"].tolist() == [i + 5 for i in range(n)]
    assert prs["b"].tolist() == [3.0] * n
    assert prs["c"].tolist() == [9] * n


def test_float4_by_value_as_tuple_and_struct_as_bytes(prg):
    n = 3
    v = np.ones(4 * n, np.float32)
    pair = np.array((1, 2.0, 3), dtype=PAIR)
    prs = np.zeros(n, PAIR)
    prg.vec4(n, None, v, (0.0, 0.5, -1.0, 10.0), pair.tobytes(), prs)
    np.testing.assert_array_equal(v.reshape(n, 4), np.tile([3.0, 3.5, 2.0, 13.0], (n, 1)))
    assert prs["c"].tolist() == [3] * n


def test_float4_buffer_bad_length(prg):
    with pytest.raises(cl2c.KernelArgError) as err:
        prg.vec4(1, None, np.ones(6, np.float32), (0, 0, 0, 0),
                 np.zeros((), PAIR)[()], np.zeros(1, PAIR))
    _assert_names(err, "vec4", "v")


def test_vector_by_value_wrong_length(prg):
    with pytest.raises(cl2c.KernelArgError) as err:
        prg.vec4(1, None, np.ones(4, np.float32), (1.0, 2.0, 3.0),
                 np.zeros((), PAIR)[()], np.zeros(1, PAIR))
    _assert_names(err, "vec4", "add")


def test_struct_by_value_wrong_size(prg):
    with pytest.raises(cl2c.KernelArgError) as err:
        prg.vec4(1, None, np.ones(4, np.float32), (1.0, 2.0, 3.0, 4.0), b"\0" * 5,
                 np.zeros(1, PAIR))
    _assert_names(err, "vec4", "pr")


def test_build_error_diagnostics():
    src = ("__kernel void k(__global int *p)\n"
           "{\n"
           "    p[0] = 1;\n"
           "    p[1] = nope;\n"
           "}\n")
    with pytest.raises(cl2c.BuildError) as err:
        cl2c.Program(src, filename="bad.cl").build()
    diags = err.value.diagnostics
    assert diags and diags[0].severity == "error"
    assert diags[0].line == 4
    assert diags[0].column == len("    p[1] = ") + 1
    assert "bad.cl:4:" in str(err.value)
    assert "nope" in str(err.value)


def test_build_error_syntax_line():
    src = "__kernel void k(__global int *p)\n{\n    p[0] = ;\n}\n"
    with pytest.raises(cl2c.BuildError) as err:
        cl2c.Program(src, filename="syn.cl").build()
    assert err.value.diagnostics[0].line == 3
    assert str(err.value).startswith("syn.cl:3:")


def test_build_error_not_supported_yet():
    src = ("__kernel void k(__global int4 *p)\n{\n"
           "    int4 a[1] = {(int4)((int2)(1), p[p[0].x++].xy)};\n    p[1] = a[0];\n}\n")
    with pytest.raises(cl2c.BuildError) as err:
        cl2c.Program(src).build()
    assert "side effects is not supported yet" in str(err.value)
    assert err.value.diagnostics[0].line == 3


def test_options_defines():
    src = "__kernel void k(__global int *p) { p[get_global_id(0)] = VALUE * 2; }"
    p = np.zeros(3, np.int32)
    cl2c.Program(src, options="-DVALUE=21").build().k(3, None, p)
    assert p.tolist() == [42, 42, 42]
    prg = cl2c.Program(src)
    with pytest.raises(cl2c.BuildError):
        prg.build()


def test_c_source_and_metadata(prg):
    assert "scale" in prg.c_source
    assert prg.from_cache in (True, False)
    assert prg.build_seconds is not None and prg.build_seconds >= 0


def test_unbuilt_program():
    prg = cl2c.Program(kernel_source("hello.cl"))
    with pytest.raises(RuntimeError):
        prg.kernel_names


AFFINITY_SCRIPT = r"""
import json, os, threading
import numpy as np
import cl2c
before = sorted(os.sched_getaffinity(0))
prg = cl2c.Program("__kernel void k(__global int *a) { a[get_global_id(0)] += 1; }").build()
a = np.zeros(4096, np.int32)
prg.k((4096,), None, a)
seen = []
t = threading.Thread(target=lambda: seen.append(sorted(os.sched_getaffinity(0))))
t.start()
t.join()
print(json.dumps({"before": before, "after": sorted(os.sched_getaffinity(0)),
                  "thread": seen[0], "ok": bool((a == 1).all())}))
"""


@pytest.mark.skipif(not hasattr(os, "sched_getaffinity") or len(os.sched_getaffinity(0)) < 2,
                    reason="needs CPU affinity and two CPUs to see a binding")
@pytest.mark.parametrize("bind", ["close", "spread", "true"])
def test_loading_keeps_the_affinity_of_the_callers_threads(bind, tmp_path):
    """OMP_PROC_BIND makes libgomp bind the thread that loads it; cl2c gives that thread
    its CPUs back, so threads the program starts later do not inherit the pin."""
    env = dict(os.environ, OMP_PROC_BIND=bind, OMP_PLACES="cores",
               CL2C_CACHE_DIR=str(tmp_path))
    res = subprocess.run([sys.executable, "-c", AFFINITY_SCRIPT], env=env,
                         capture_output=True, text=True, timeout=300)
    assert res.returncode == 0, res.stderr
    out = json.loads(res.stdout.strip().splitlines()[-1])
    assert out["ok"]
    assert out["after"] == out["before"] and out["thread"] == out["before"]


@pytest.mark.parametrize("size", ["64", (64.5,), 64.0, True, (2 ** 64,), [None], b"64"])
def test_launch_sizes_are_checked(size):
    prg = cl2c.Program("__kernel void k(__global int *a) { a[get_global_id(0)] = 1; }").build()
    a = np.zeros(64, np.int32)
    with pytest.raises(cl2c.KernelArgError, match="kernel 'k': global size"):
        prg.k(size, None, a)
    assert not a.any()
    prg.k(np.array([64]), None, a)           # NumPy integers are sizes
    assert a.all()


@pytest.mark.parametrize("value", ["64", b"64", "1.5"])
def test_a_string_is_no_number(value):
    prg = cl2c.Program("__kernel void k(__global float *a, int n, float x) "
                       "{ a[0] = n + x; }").build()
    a = np.zeros(1, np.float32)
    with pytest.raises(cl2c.KernelArgError, match="argument 'n' \\(int\\): expected a number"):
        prg.k((1,), None, a, value, 1.0)
    with pytest.raises(cl2c.KernelArgError, match="argument 'x' \\(float\\): expected a number"):
        prg.k((1,), None, a, 1, value)


OMP_SCRIPT = r"""
import os
import numpy as np
import cl2c
prg = cl2c.Program("__kernel void k(__global int *a) { a[get_global_id(0)] = 1; }").build()
a = np.zeros(1024, np.int32)
prg.k(1024, 256, a)
print("after load:", os.environ.get("OMP_WAIT_POLICY"), bool(a.all()))
"""


@pytest.mark.parametrize("setting, spin, after", [
    ({"CL2C_WAIT": "sleep"}, "0", "None"), ({"CL2C_WAIT": "spin"}, "1000", "None"),
    ({"OMP_WAIT_POLICY": "active"}, "30000000000", "active"),
    ({"GOMP_SPINCOUNT": "300000", "CL2C_WAIT": "sleep"}, "300000", "None")])
def test_openmp_threads_wait_as_cl2c_chooses_unless_told(setting, spin, after):
    """Where the user set neither OMP_WAIT_POLICY nor GOMP_SPINCOUNT, cl2c has libgomp's
    threads sleep at once or spin briefly first (CL2C_WAIT; by default as the machine's
    load says), and leaves the environment as it was (libgomp prints the spin count it
    chose with OMP_DISPLAY_ENV=verbose); the user's own setting wins."""
    env = {k: v for k, v in os.environ.items()
           if k not in ("OMP_WAIT_POLICY", "GOMP_SPINCOUNT", "CL2C_WAIT")}
    env.update(setting, OMP_DISPLAY_ENV="verbose")
    res = subprocess.run([sys.executable, "-c", OMP_SCRIPT], env=env, capture_output=True,
                         text=True, timeout=300)
    assert res.returncode == 0, res.stderr
    assert f"after load: {after} True" in res.stdout
    shown = [line.split("=", 1)[1].strip(" '") for line in res.stderr.splitlines()
             if line.strip().startswith("GOMP_SPINCOUNT =")]
    assert shown == [spin], res.stderr


@pytest.mark.parametrize("load, cpus, threads, spins", [
    (1.0, 16, 16, True), (0.2, 2, 2, True), (3.0, 16, 16, False), (12.0, 2, 2, False),
    (12.0, 16, 4, True), (1.0, 2, 4, False)])
def test_the_wait_is_a_short_spin_only_where_cores_are_free(load, cpus, threads, spins):
    from cl2c.threads import SHORT_SPIN, SLEEP, choose_wait
    assert choose_wait(load, cpus, threads) == (SHORT_SPIN if spins else SLEEP)


@pytest.mark.parametrize("average, text, load", [
    (3.43, "3.43 1.66 0.66 1/214 3198", 0),        # a job that ended: only us runnable
    (12.5, "12.50 12.1 11.9 13/300 99", 12),       # busy now
    (0.4, "0.40 0.3 0.2 6/300 99", 0.4),           # a burst: the average is lower
    (2.0, "", 2.0), (2.0, "garbage", 2.0)])         # no /proc: the average
def test_the_load_is_what_runs_now_at_most(average, text, load):
    from cl2c.threads import load_besides_us
    assert load_besides_us(average, text) == load


ALL_FEATURES = ("__opencl_c_fp64", "__opencl_c_int64", "__opencl_c_generic_address_space",
                "__opencl_c_program_scope_global_variables", "__opencl_c_images",
                "__opencl_c_work_group_collective_functions", "__opencl_c_pipes",
                "__opencl_c_subgroups", "__opencl_c_device_enqueue",
                "__opencl_c_atomic_order_seq_cst", "cl_khr_fp64", "cl_khr_fp16",
                "cl_khr_int64_base_atomics", "cl_khr_gl_sharing", "cl_khr_3d_image_writes")


@pytest.mark.parametrize("std, version", [(None, "1.2"), ("CL1.2", "1.2"), ("CL2.0", "2.0"),
                                          ("CL3.0", "3.0")])
def test_the_device_reports_what_kernels_see(std, version):
    """Program.device and cl2c.device(): the version -cl-std= asks for, and exactly the
    extensions and 3.0 features whose macros a kernel of that version finds defined."""
    options = f"-cl-std={std}" if std else None
    checks = "".join(f"#ifdef {name}\n    seen[{i}] = 1;\n#endif\n"
                     for i, name in enumerate(ALL_FEATURES))
    src = (f"__kernel void k(__global int *seen, __global int *version)\n{{\n{checks}"
           f"    version[0] = __OPENCL_VERSION__; version[1] = __OPENCL_C_VERSION__;\n}}\n")
    prg = cl2c.Program(src, options=options).build()
    seen, ver = np.zeros(len(ALL_FEATURES), np.int32), np.zeros(2, np.int32)
    prg.k(1, None, seen, ver)
    device = prg.device
    assert device == cl2c.device(options)
    assert device.opencl_c_version.startswith(f"OpenCL C {version} ")
    assert device.version.startswith(f"OpenCL {version} ")
    assert ver.tolist() == [int(version.replace(".", "")) * 10] * 2
    defined = {name for name, s in zip(ALL_FEATURES, seen) if s}
    assert defined == {n for n in ALL_FEATURES
                       if n in device.extensions or n in device.features}
    assert "cl_khr_fp64" in device.extensions
    assert bool(device.features) == (version == "3.0")
    assert device.extensions_string.split() == list(device.extensions)


def test_a_cl30_kernel_uses_its_features():
    src = """
    __global int counter = 40;                              // program scope global
    int twice(int *p) { return *p * 2; }                    // a generic pointer
    __kernel void k(__global int *out)
    {
        __local int l;
        l = 1;
        barrier(CLK_LOCAL_MEM_FENCE);
        out[get_global_id(0)] = twice(&l) + counter + work_group_reduce_add(1);
    }"""
    out = np.zeros(8, np.int32)
    cl2c.Program(src, options="-cl-std=CL3.0").build().k(8, 4, out)
    assert out.tolist() == [2 + 40 + 4] * 8
    with pytest.raises(cl2c.BuildError):
        cl2c.Program(src, options="-cl-std=CL1.2").build()


def test_pyopencl_queue_first_gets_a_hint(prg, pocl):
    """A PyOpenCL user passes the queue first, as PyOpenCL's kernels take it: the error
    says that cl2c's kernels take none, and where an unchanged PyOpenCL program runs."""
    from conftest import _pocl_context
    _, _, queue = _pocl_context()
    out = np.zeros(8, np.float32)
    with pytest.raises(cl2c.KernelArgError, match="CommandQueue is PyOpenCL's: cl2c needs "
                       r"no queue.*kernel\(global_size, local_size, \*args\).*cl2c --icd") \
            as err:
        prg.scale(queue, (8,), None, out, _f32(8), 1.0, 8)
    _assert_names(err, "scale", "global size")
