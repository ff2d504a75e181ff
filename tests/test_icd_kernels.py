"""Kernels on the cl2c platform from unmodified PyOpenCL code, checked against NumPy: a
program's kernel with buffers and scalars, pyopencl.array arithmetic, an
ElementwiseKernel and a ReductionKernel; built from source (PYOPENCL_NO_CACHE=1) and
through PyOpenCL's binary cache, which on a platform other than PoCL keeps
CL_PROGRAM_BINARIES and builds again with clCreateProgramWithBinary."""
from __future__ import annotations

import importlib.util
import os
import warnings

import pytest

from icd_helpers import run_pyopencl, run_pyopencl_on_pocl

_KERNELS = r"""
import logging
import pyopencl.array as cla
from pyopencl.elementwise import ElementwiseKernel
said = {"hit": 0, "from source": 0}
class Count(logging.Handler):          # what PyOpenCL's binary cache did
    def emit(self, record):
        text = record.getMessage()
        said["hit"] += "binary cache hit" in text
        said["from source"] += "start building program from source" in text
logging.getLogger("pyopencl").addHandler(Count())
logging.getLogger("pyopencl").setLevel(logging.DEBUG)
ctx = cl.Context([device])
queue = cl.CommandQueue(ctx)
rng = np.random.default_rng(7)
a = rng.random(5000).astype(np.float32)
b = rng.random(5000).astype(np.float32)
mf = cl.mem_flags
src = '''
__kernel void axpb(__global const float *a, __global const float *b, __global float *c,
                   float s, int shift)
{
    int i = get_global_id(0);
    c[i] = a[i] + s * b[i] + shift;
}
'''
prg = cl.Program(ctx, src).build()
A = cl.Buffer(ctx, mf.READ_ONLY | mf.COPY_HOST_PTR, hostbuf=a)
B = cl.Buffer(ctx, mf.READ_ONLY | mf.COPY_HOST_PTR, hostbuf=b)
C = cl.Buffer(ctx, mf.WRITE_ONLY, a.nbytes)
prg.axpb(queue, a.shape, None, A, B, C, np.float32(2.5), np.int32(3))
c = np.empty_like(a)
cl.enqueue_copy(queue, c, C)
result = {"kernel": float(np.abs(c - (a + np.float32(2.5) * b + 3)).max())}
x, y = cla.to_device(queue, a), cla.to_device(queue, b)
result["array"] = float(np.abs((x * 2 + y).get() - (a * 2 + b)).max())
lin = ElementwiseKernel(ctx, "float *x, float *y, float k", "y[i] = k * x[i] + 1", "lin")
z = cla.empty_like(x)
lin(x, z, np.float32(3))
result["elementwise"] = float(np.abs(z.get() - (3 * a + 1)).max())
if MAKO and REDUCTION:                 # PyOpenCL writes reductions with Mako
    from pyopencl.reduction import ReductionKernel
    sumsq = ReductionKernel(ctx, np.float32, neutral="0", reduce_expr="a+b",
                            map_expr="x[i]*x[i]", arguments="__global float *x")
    want = float((a.astype(np.float64) ** 2).sum())
    result["reduction"] = abs(float(sumsq(x).get()) - want) / want
result["said"] = said
out(result)
"""


def _run(env, reduction=True):
    mako = importlib.util.find_spec("mako") is not None
    return run_pyopencl(f"MAKO = {mako}\nREDUCTION = {reduction}\n" + _KERNELS, env=env,
                        timeout=300)


def _check(result, reduction=True):
    assert result["kernel"] < 1e-6          # a + s * b may be contracted into an fma
    assert result["array"] == 0.0
    assert result["elementwise"] < 1e-6
    if not reduction:
        assert "reduction" not in result
    elif importlib.util.find_spec("mako") is not None:
        assert result["reduction"] < 1e-5
    else:
        warnings.warn("PyOpenCL's ReductionKernel needs Mako (the test extra installs "
                      "it): the reduction was not checked")


def test_pyopencl_kernels_from_source():
    _check(_run({"PYOPENCL_NO_CACHE": "1"}))


def test_pyopencl_kernels_through_its_binary_cache(tmp_path):
    env = {"XDG_CACHE_HOME": str(tmp_path), "PYOPENCL_NO_CACHE": "0"}
    first = _run(env, reduction=False)      # builds, keeps CL_PROGRAM_BINARIES
    assert first["said"]["from source"] >= 3 and first["said"]["hit"] == 0
    again = _run(env, reduction=False)      # clCreateProgramWithBinary from them
    assert again["said"] == {"hit": first["said"]["from source"], "from source": 0}
    _check(first, reduction=False)
    _check(again, reduction=False)


_BINARIES = r"""
from cl2c.binary import ProgramBinary
ctx = cl.Context([device])
queue = cl.CommandQueue(ctx)
src = "__kernel void twice(__global int *x) { x[get_global_id(0)] *= 2; }"
built = cl.Program(ctx, src).build()
binary = built.get_info(cl.program_info.BINARIES)[0]

def load(data):
    try:
        prg = cl.Program(ctx, [device], [data]).build()
    except cl.Error as e:
        return e.code
    x = np.arange(8, dtype=np.int32)
    buf = cl.Buffer(ctx, cl.mem_flags.COPY_HOST_PTR, hostbuf=x)
    prg.twice(queue, x.shape, None, buf)
    cl.enqueue_copy(queue, x, buf)
    return x.tolist()

decoded = ProgramBinary.decode(binary)
decoded.info["translator"] = "0" * 64          # another cl2c's, digest intact
damaged = bytearray(binary)
damaged[len(damaged) // 2] ^= 0x40
out({"intact": load(binary), "damaged": load(bytes(damaged)),
     "other_version": load(decoded.encode()), "truncated": load(binary[:100]),
     "not_a_binary": load(b"\x7fELF" + bytes(100)),
     "binary_type": int(built.get_build_info(device, cl.program_build_info.BINARY_TYPE)),
     "log": built.get_build_info(device, cl.program_build_info.LOG)})
"""


@pytest.mark.parametrize("cl2c_cache", ["on", "off"])
def test_program_binaries_checked_in_c(cl2c_cache):
    env = {"PYOPENCL_NO_CACHE": "1", "CL2C_NO_CACHE": "1" if cl2c_cache == "off" else "0"}
    result = run_pyopencl(_BINARIES, env=env)
    assert result == {"intact": [0, 2, 4, 6, 8, 10, 12, 14], "damaged": -42,
                      "other_version": -42, "truncated": -42, "not_a_binary": -42,
                      "binary_type": 4,     # CL_INVALID_BINARY; CL_PROGRAM_BINARY_TYPE_EXECUTABLE
                      "log": ""}


_BY_VALUE = r"""
import pyopencl.cltypes as ct
ctx = cl.Context([device])
queue = cl.CommandQueue(ctx)
prg = cl.Program(ctx, '''
typedef struct { char c; double d; short s; } odd;
__kernel void k(__global double *out, float3 v, char c, short s, long l, double d, odd o,
                uchar2 u)
{
    out[0] = v.x + v.y * 10 + v.z * 100; out[1] = c; out[2] = s; out[3] = l; out[4] = d;
    out[5] = o.c + o.d + o.s; out[6] = u.x + u.y * 256;
}''').build()
out_buf = cl.Buffer(ctx, cl.mem_flags.READ_WRITE, 7 * 8)
odd = np.dtype([("c", np.int8), ("d", np.float64), ("s", np.int16)], align=True)
o = np.zeros(1, odd)
o["c"], o["d"], o["s"] = 3, 0.5, 7
knl = prg.k
knl(queue, (1,), None, out_buf, ct.make_float3(1, 2, 3), np.int8(-4), np.int16(300),
    np.int64(1 << 40), np.float64(2.25), o[0], ct.make_uchar2(1, 2))
r = np.empty(7)
cl.enqueue_copy(queue, r, out_buf)
try:
    knl.set_arg(2, np.int32(1))               # an int where a char goes
    wrong_size = 0
except cl.Error as e:
    wrong_size = e.code
out({"values": r.tolist(), "wrong_size": wrong_size,
     "names": [knl.get_arg_info(i, cl.kernel_arg_info.NAME) for i in range(8)]})
"""


def test_by_value_arguments_vectors_and_structs():
    result = run_pyopencl(_BY_VALUE, env={"PYOPENCL_NO_CACHE": "1"})
    assert result["values"] == [321.0, -4.0, 300.0, float(1 << 40), 2.25, 10.5, 513.0]
    assert result["wrong_size"] == -51          # CL_INVALID_ARG_SIZE
    assert result["names"] == ["out", "v", "c", "s", "l", "d", "o", "u"]


_FAULT = r"""
ctx = cl.Context([device])
queue = cl.CommandQueue(ctx)
knl = cl.Program(ctx, "__kernel void k(__global int *p) { p[get_global_id(0)] = 1; }").build().k
knl.set_arg(0, None)                           # a NULL buffer the kernel writes through
event = cl.enqueue_nd_range_kernel(queue, knl, (64,), None)
try:
    event.wait()
    waited = 0
except cl.Error as e:
    waited = e.code
buf = cl.Buffer(ctx, cl.mem_flags.READ_WRITE, 64 * 4)
knl.set_arg(0, buf)
cl.enqueue_nd_range_kernel(queue, knl, (64,), None).wait()
x = np.zeros(64, np.int32)
cl.enqueue_copy(queue, x, buf)
out({"waited": waited, "status": event.command_execution_status, "after": int(x.sum())})
"""


def test_a_faulting_kernel_fails_its_event_not_the_host():
    result = run_pyopencl(_FAULT, env={"PYOPENCL_NO_CACHE": "1"})
    # CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST from the wait; the event's status is
    # cl2c's CL2C_KERNEL_FAULT (host.h); the queue goes on
    assert result == {"waited": -14, "status": -1101, "after": 64}


def test_python_finds_the_platforms_cache_entry(tmp_path):
    """program_cache.key is the key build.c computes: the entry a build leaves is where
    Python says."""
    import uuid

    from cl2c.platform import icd_folder, program_cache
    source = f"__kernel void k(__global int *p) {{ p[0] = 1; }} // {uuid.uuid4()}\n"
    options = run_pyopencl(f"""
ctx = cl.Context([device])
prg = cl.Program(ctx, {source!r}).build(options="-DX=1")
out(prg.get_build_info(device, cl.program_build_info.OPTIONS))
""", env={"PYOPENCL_NO_CACHE": "1"})
    assert "-DX=1" in options            # with what PyOpenCL adds
    assert program_cache.entry(icd_folder().parent, source, options).is_file()
    assert not program_cache.entry(icd_folder().parent, source, "").exists()


_LOCAL_MEM_SIZES = r"""
src = '''
__kernel void tile(__global const float *in, __global float *out) {
    __local float t[64];
    __local int first;
    size_t l = get_local_id(0);
    t[l] = in[get_global_id(0)];
    if (l == 0) first = (int)in[get_group_id(0)];
    barrier(CLK_LOCAL_MEM_FENCE);
    out[get_global_id(0)] = t[(l + 1) % 64] + first;
}
__kernel void mixed(__global const float *in, __global float *out, __local float *scratch) {
    __local double acc[8];
    size_t l = get_local_id(0);
    scratch[l] = in[get_global_id(0)];
    if (l < 8) acc[l] = in[l];
    barrier(CLK_LOCAL_MEM_FENCE);
    out[get_global_id(0)] = scratch[(l + 1) % get_local_size(0)] + (float)acc[l % 8];
}
__kernel void none(__global float *out) { out[get_global_id(0)] = 1; }
'''
ctx = cl.Context([device])
prg = cl.Program(ctx, src).build()
size = lambda k: k.get_work_group_info(cl.kernel_work_group_info.LOCAL_MEM_SIZE, device)
result = {k.function_name: size(k) for k in prg.all_kernels()}
mixed = cl.Kernel(prg, "mixed")          # (PyOpenCL keeps a kernel's first answer)
mixed.set_arg(2, cl.LocalMemory(100))
result["mixed, 100 bytes set"] = size(mixed)
out(result)
"""


def test_kernel_local_mem_size_counts_kernel_scope_locals_as_pocl():
    mine = run_pyopencl(_LOCAL_MEM_SIZES)
    # the kernel-scope __local variables, and an argument's bytes once set
    assert mine == {"tile": 64 * 4 + 4, "mixed": 8 * 8, "none": 0,
                    "mixed, 100 bytes set": 100 + 8 * 8}
    assert mine == run_pyopencl_on_pocl(_LOCAL_MEM_SIZES)


_FAILED_BUILDS = r"""
ctx = cl.Context([device])
def attempt(make, options, step="_build"):
    prg = make()
    try:
        getattr(prg, step)(options=options.encode())
        code = 0
    except cl.Error as e:
        code = e.code
    return {"code": code, "log": prg.get_build_info(device, cl.program_build_info.LOG)}
result = {"bad source": attempt(lambda: cl._cl._Program(ctx, SOURCE), ""),
          "bad options": attempt(lambda: cl._cl._Program(ctx, GOOD), "-cl-no-such-option"),
          "bad compile": attempt(lambda: cl._cl._Program(ctx, HELPER), "", "compile")}
try:
    caller = cl._cl._Program(ctx, CALLER)
    caller.compile(b"")
    cl._cl._Program.link(ctx, [caller], b"")
    result["bad link"] = {"code": 0}
except cl.Error as e:
    result["bad link"] = {"code": e.code}
    # PyOpenCL 2024-2025 releases a failed link's program once more as its error goes
    # (PoCL survives that, any ICD that frees the program may not): keep the error, and
    # leave without tearing down
    kept = e
result["translators"] = children()     # none where every answer came from the cache
out(result)
import os
sys.stdout.flush()
os._exit(0)
"""


def test_a_failed_build_fails_again_at_once_from_the_cache(tmp_path):
    """The second process to build (or compile, or link) a program that does not build
    fails from the cache, starting no translator, with the first one's error code and
    log; a failure of the machine's (no C compiler) is not kept."""
    import uuid

    from cl2c.platform import icd_folder, program_cache
    tag = uuid.uuid4()
    source = f"__kernel void k(__global int *p) {{ p[0] = q; }} // {tag}\n"
    good = f"__kernel void k(__global int *p) {{ p[0] = 1; }} // {tag}\n"
    caller = f"int f(int); __kernel void k(__global int *p) {{ p[0] = f(1); }} // {tag}\n"
    helper = f"int f(int x) {{ return x + q; }} // {tag}\n"
    script = f"SOURCE, GOOD, CALLER, HELPER = {source!r}, {good!r}, {caller!r}, " \
        f"{helper!r}\n" + _FAILED_BUILDS
    first, again = run_pyopencl(script), run_pyopencl(script)
    assert first["bad source"]["code"] == again["bad source"]["code"] == -11
    assert "program.cl:1:43: error: use of undeclared identifier 'q'" in \
        first["bad source"]["log"]
    assert first["bad options"]["code"] == again["bad options"]["code"] == -43
    assert "-cl-no-such-option" in first["bad options"]["log"]
    assert first["bad link"]["code"] == again["bad link"]["code"] == -17   # LINK_PROGRAM_FAILURE
    assert first["bad compile"]["code"] == again["bad compile"]["code"] == -15   # COMPILE_
    assert "program.cl:1:27: error: use of undeclared identifier 'q'" in \
        first["bad compile"]["log"]
    for what in ("bad source", "bad options", "bad compile"):
        assert again[what]["log"] == first[what]["log"]
    # the first process ran the translator (its warm build service is still there), the
    # second had every answer from the cache
    assert len(first["translators"]) == 1 and again["translators"] == [], (first, again)
    kept = program_cache.failure_entry(icd_folder().parent, source, "")
    assert kept.is_file()
    # the machine's failure is not the program's: not kept, and the log says why
    other = f"__kernel void k(__global int *p) {{ p[0] = 2; }} // {uuid.uuid4()}\n"
    log = run_pyopencl(f"""
ctx = cl.Context([device])
prg = cl._cl._Program(ctx, {other!r})
try:
    prg._build(options=b"")
except cl.Error as e:
    assert e.code == -11, e.code
out(prg.get_build_info(device, cl.program_build_info.LOG))
""", env={"CC": str(tmp_path / "no-such-cc")})
    assert "cannot run the C compiler" in log
    assert not program_cache.failure_entry(icd_folder().parent, other, "", environment={
        **os.environ, "CC": str(tmp_path / "no-such-cc")}).exists()
    # nor one that reads files: the header may be mended
    included = f'#include "{tmp_path}/missing.h"\n{other}'
    run_pyopencl(f"""
prg = cl._cl._Program(cl.Context([device]), {included!r})
try:
    prg._build(options=b"")
except cl.Error as e:
    out(e.code)
""")
    assert program_cache.entry(icd_folder().parent, included, "").parent.is_dir()
    assert not program_cache.failure_entry(icd_folder().parent, included, "").exists()


_TYPE_QUALIFIERS = r"""
ctx = cl.Context([device])
prg = cl.Program(ctx, '''
__kernel void k(__global const float *in, __constant float *table, __local const int *tmp,
                const int n, __global float *out, volatile __global int *v,
                __global int *restrict r, const __global float *restrict volatile cr,
                __local volatile int *lv) { out[0] = in[0] + table[0] + tmp[0] + n; }
__attribute__((vec_type_hint(double2))) __attribute__((reqd_work_group_size(1, 2 ,1)))
__attribute__((work_group_size_hint(4,1,1)))
kernel void attributed() {}
typedef float4 f4;
kernel __attribute__((vec_type_hint(f4))) __attribute__((reqd_work_group_size(8u, 1, 1)))
void typedef_hint() {}
kernel void plain() {}
''').build(options=["-cl-kernel-arg-info"])
def attributes(kernel):
    # white space aside, as the CTS compares them; PoCL wraps each in the
    # __attribute__((...)) that the spec says is not told
    text = kernel.get_info(cl.kernel_info.ATTRIBUTES)
    words = text.replace(" (", "(").replace(", ", ",").replace(" )", ")").split()
    return sorted(w[len("__attribute__(("):-2] if w.startswith("__attribute__((") else w
                  for w in words)
out(dict(qualifiers=[prg.k.get_arg_info(i, cl.kernel_arg_info.TYPE_QUALIFIER)
                     for i in range(9)],
         attributes={k.function_name: attributes(k) for k in prg.all_kernels()}))
"""


def test_type_qualifiers_and_attributes_of_kernels_as_pocl():
    # const and volatile are a pointee's, restrict the pointer's own: a const value's
    # and a volatile pointer's are not told (the CTS's get_kernel_arg_info); the
    # attributes as written, sizes folded and a typedef's type named by its own name
    mine = run_pyopencl(_TYPE_QUALIFIERS)
    # CL_KERNEL_ARG_TYPE_CONST 1, RESTRICT 2, VOLATILE 4
    assert mine["qualifiers"] == [1, 1, 1, 0, 0, 4, 2, 3, 4]
    assert mine["attributes"] == {
        "k": [], "plain": [],
        "attributed": ["reqd_work_group_size(1,2,1)", "vec_type_hint(double2)",
                       "work_group_size_hint(4,1,1)"],
        "typedef_hint": ["reqd_work_group_size(8,1,1)", "vec_type_hint(float4)"]}
    assert mine == run_pyopencl_on_pocl(_TYPE_QUALIFIERS)


_CHECKED = r"""
import os, tempfile
ctx = cl.Context([device])
queue = cl.CommandQueue(ctx)
prg = cl.Program(ctx, '''
__kernel void k(__global int *p, __global const int *in, int shift)
{ p[get_global_id(0) + shift] = in[get_global_id(0)]; }
__kernel void poke(__global int *p) { p[0] = 1; }
''').build(options=["-cl2c-check"])
mf = cl.mem_flags
out_buf = cl.Buffer(ctx, mf.READ_WRITE, 16 * 4)
in_buf = cl.Buffer(ctx, mf.READ_ONLY | mf.COPY_HOST_PTR, hostbuf=np.arange(16, dtype=np.int32))
# the findings go to stderr (no context callback): read them back from a file
log = tempfile.TemporaryFile()
os.dup2(log.fileno(), 2)
def launch(kernel, *args):
    try:
        kernel(queue, (16,), None, *args).wait()
        return "ok"
    except cl.Error as e:
        return "failed"
results = [launch(prg.k, out_buf, in_buf, np.int32(0)),
           launch(prg.k, out_buf, in_buf, np.int32(1)),
           launch(prg.poke, in_buf)]
log.seek(0)
out(dict(results=results, log=log.read().decode()))
"""


def test_a_checking_build_checks_the_buffers_of_its_launches():
    """-cl2c-check through the platform: each launch tells the kernel its buffers'
    sizes (and which are read-only), so an access past the end or a write to a
    CL_MEM_READ_ONLY buffer is found, and the launch fails (checking's "stop" mode)."""
    result = run_pyopencl(_CHECKED)
    assert result["results"] == ["ok", "failed", "failed"], result
    log = result["log"]
    assert "out-of-bounds write of 4 bytes at offset 64 of __global 'p' (64 bytes)" in log
    assert "kernel 'poke'" in log and "read-only" in log, log


def test_the_cache_key_names_the_python_as_the_library_does(monkeypatch):
    """The Python that builds is one text in the key, however the interpreter was named:
    a test run as ``../.venv/bin/python`` made the library hash the path with ``..``
    and Python the one without, so program_cache.entry pointed past the entry."""
    import os
    import sys

    from cl2c.platform import generate, program_cache
    real = program_cache.key("__kernel void k(void) {}")
    here = os.path.dirname(sys.executable)
    monkeypatch.setattr(sys, "executable", os.path.join(
        here, "..", os.path.basename(here), os.path.basename(sys.executable)))
    assert program_cache.key("__kernel void k(void) {}") == real
    assert f'"{os.path.abspath(sys.executable)}"' in generate.build_facts_header()


_WIDE_VALUES = r"""
ctx = cl.Context([device])
queue = cl.CommandQueue(ctx)
prg = cl.Program(ctx, '''
#pragma OPENCL EXTENSION cl_khr_fp64 : enable
__kernel void k(char c, long4 a, int i, double8 d, short s, long16 e, __global long *out)
{
    vstore4(a, 0, out);
    vstore8(convert_long8(d), 0, out + 4);
    vstore16(e, 0, out + 12);
    out[28] = c + i + s;
}''').build()
out_buf = cl.Buffer(ctx, cl.mem_flags.WRITE_ONLY, 29 * 8)
a = np.arange(1, 5, dtype=np.int64)
d = np.arange(10, 18, dtype=np.float64)
e = np.arange(100, 116, dtype=np.int64)
k = prg.k
k.set_arg(0, np.int8(1))
k.set_arg(1, a.tobytes())
k.set_arg(2, np.int32(20))
k.set_arg(3, d.tobytes())
k.set_arg(4, np.int16(300))
k.set_arg(5, e.tobytes())
k.set_arg(6, out_buf)
cl.enqueue_nd_range_kernel(queue, k, (1,), None)
got = np.empty(29, np.int64)
cl.enqueue_copy(queue, got, out_buf)
out(got.tolist())
"""


def test_wide_vectors_by_value_after_narrow_arguments():
    """By-value vectors of 32, 64 and 128 bytes among narrower arguments: their C reads
    them with aligned loads of their width, so the platform keeps each value at its
    type's alignment (it kept 16: the CTS's basic/vector_swizzle died on a long4)."""
    got = run_pyopencl(_WIDE_VALUES)
    assert got == [1, 2, 3, 4, *range(10, 18), *range(100, 116), 321]
