"""Checking mode on the cl2c platform: reads of __global memory that nothing wrote.

A buffer made without host data holds nothing until the host writes, fills, copies or
maps it for writing, or a kernel writes it; the platform follows which bytes hold data
and a checking build reports a read of the others, with the argument and the offset.
Each case runs a launch and reads what it left on stderr; the silent cases' results are
compared with NumPy too. One child process, one checking build (and one normal one)."""
from __future__ import annotations

import numpy as np
import pytest

from icd_helpers import run_pyopencl

_SCRIPT = r"""
import os, tempfile
ctx = cl.Context([device])
queue = cl.CommandQueue(ctx)
mf = cl.mem_flags
SRC = '''
__kernel void copy(__global const int *in, __global int *out)
{ out[get_global_id(0)] = in[get_global_id(0)]; }
__kernel void evens(__global int *out)
{ if (get_global_id(0) % 2 == 0) out[get_global_id(0)] = 1; }
__kernel void bump(__global int *p) { p[get_global_id(0)] += 1; }
__kernel void tile(__global const int *in, __global int *out, __local int *t)
{
    size_t l = get_local_id(0);
    t[l] = in[get_global_id(0)];
    barrier(CLK_LOCAL_MEM_FENCE);
    out[get_global_id(0)] = t[get_local_size(0) - 1 - l];
}
__kernel void neighbours(__global int *p, __global int *out)
{
    size_t i = get_global_id(0);
    p[i] = (int)i;
    barrier(CLK_GLOBAL_MEM_FENCE);
    out[i] = p[(i + 1) % get_global_size(0)];
}
'''
prg = cl.Program(ctx, SRC).build(options=["-cl2c-check"])
plain = cl.Program(ctx, SRC).build()
kernels = {name: cl.Kernel(prg, name) for name in ("copy", "evens", "bump", "tile", "neighbours")}
log = tempfile.TemporaryFile()
os.dup2(log.fileno(), 2)
results, outputs = {}, {}
def case(name, kernel, *args, local=None):
    import sys
    print("== " + name, file=sys.stderr, flush=True)
    try:
        kernels[kernel](queue, (16,), local, *args).wait()
        results[name] = "ok"
    except cl.Error:
        results[name] = "failed"
def fresh(flags=mf.READ_WRITE):
    return cl.Buffer(ctx, flags, 64)
def read(buf):
    a = np.empty(16, np.int32)
    cl.enqueue_copy(queue, a, buf)
    return a.tolist()
ints = np.arange(16, dtype=np.int32)
out_buf = fresh()

# -- reads of bytes nothing wrote
partial = fresh(mf.READ_ONLY)
cl.enqueue_copy(queue, partial, ints[:15])
case("host wrote 15 of 16", "copy", partial, out_buf)
evens = fresh()
case("a kernel wrote the evens", "evens", evens)
case("then all are read", "copy", evens, out_buf)
case("an update of a fresh buffer", "bump", fresh())
halves = fresh()
kernels["evens"](queue, (16,), None, halves).wait()
copied = fresh()
cl.enqueue_copy(queue, copied, halves)
case("a copy of a half-written buffer", "copy", copied, out_buf)
shifted = fresh()
cl.enqueue_copy(queue, shifted, halves, src_offset=4, byte_count=60)
case("a copy of it shifted by an element", "copy", shifted, out_buf)
parent = cl.Buffer(ctx, mf.READ_WRITE, 256)
cl.enqueue_copy(queue, parent, np.zeros(32, np.int32))
tail = parent.get_sub_region(128, 64)
case("a sub-buffer past what the host wrote", "copy", tail, out_buf)
case("through __local memory", "tile", partial, out_buf, cl.LocalMemory(64), local=(16,))

# -- bytes that something wrote: silent
two = fresh()
cl.enqueue_copy(queue, two, ints[:8])
cl.enqueue_copy(queue, two, ints[8:], dst_offset=32)
case("written in two parts", "copy", two, out_buf); outputs["written in two parts"] = read(out_buf)
filled = fresh()
cl.enqueue_fill_buffer(queue, filled, np.int32(7), 0, 64)
case("filled", "copy", filled, out_buf); outputs["filled"] = read(out_buf)
mapped = fresh()
a, _ = cl.enqueue_map_buffer(queue, mapped, cl.map_flags.WRITE, 0, (16,), np.int32)
a[:] = ints * 2
del a
case("mapped for writing", "copy", mapped, out_buf); outputs["mapped for writing"] = read(out_buf)
whole = fresh()
cl.enqueue_copy(queue, whole, filled)
case("a copy of a whole buffer", "copy", whole, out_buf)
by_plain = fresh()
plain.evens(queue, (16,), None, by_plain)
plain.evens(queue, (16,), None, by_plain)
case("written by a normal build's kernel", "copy", by_plain, out_buf)
first = fresh()
kernels["copy"](queue, (16,), None, filled, first).wait()
case("written by an earlier checked launch", "copy", first, out_buf)
p, q = fresh(), fresh()
case("written before a barrier in the launch", "neighbours", p, q, local=(16,))
outputs["written before a barrier in the launch"] = read(q)
rect = fresh()
cl.enqueue_copy(queue, rect, ints.reshape(4, 4), buffer_origin=(0, 0), host_origin=(0, 0),
                region=(16, 4), buffer_pitches=(16,), host_pitches=(16,))
case("written as a rect", "copy", rect, out_buf); outputs["written as a rect"] = read(out_buf)
given = cl.Buffer(ctx, mf.READ_ONLY | mf.COPY_HOST_PTR, hostbuf=ints)
case("made with host data", "copy", given, out_buf)
head = parent.get_sub_region(0, 64)
case("a sub-buffer the host wrote", "copy", head, out_buf)
queue.finish()
log.seek(0)
text = log.read().decode()
logs = {}
for part in text.split("== ")[1:]:
    name, _, rest = part.partition("\n")
    logs[name] = rest
out(dict(results=results, logs=logs, outputs=outputs))
"""

# case: (argument, offset, work-item's global id) of the read reported first
FOUND = {
    "host wrote 15 of 16": ("in", 60, 15),
    "then all are read": ("in", 4, 1),
    "an update of a fresh buffer": ("p", 0, 0),
    "a copy of a half-written buffer": ("in", 4, 1),
    "a copy of it shifted by an element": ("in", 0, 0),
    "a sub-buffer past what the host wrote": ("in", 0, 0),
    "through __local memory": ("in", 60, 15),
}
SILENT = ["a kernel wrote the evens", "written in two parts", "filled", "mapped for writing",
          "a copy of a whole buffer", "written by a normal build's kernel",
          "written by an earlier checked launch", "written before a barrier in the launch",
          "written as a rect", "made with host data", "a sub-buffer the host wrote"]
EXPECTED = {
    "written in two parts": list(range(16)),
    "filled": [7] * 16,
    "mapped for writing": [2 * i for i in range(16)],
    "written before a barrier in the launch": [(i + 1) % 16 for i in range(16)],
    "written as a rect": list(range(16)),
}


@pytest.fixture(scope="module")
def run():
    return run_pyopencl(_SCRIPT, timeout=300)


@pytest.mark.parametrize("case", sorted(FOUND))
def test_a_read_of_bytes_nothing_wrote_is_found(run, case):
    name, offset, gid = FOUND[case]
    assert run["results"][case] == "failed", run["logs"][case]
    log = run["logs"][case]
    assert f"read of uninitialized __global memory: '{name}' at offset {offset}, which " \
           "neither the host nor a kernel wrote" in log, log
    assert f"global id ({gid},0,0)" in log, log


@pytest.mark.parametrize("case", SILENT)
def test_bytes_something_wrote_read_without_a_finding(run, case):
    assert run["results"][case] == "ok", run["logs"][case]
    assert "uninitialized" not in run["logs"][case], run["logs"][case]
    if case in EXPECTED:
        assert run["outputs"][case] == EXPECTED[case]
