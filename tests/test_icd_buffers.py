"""Buffers on the cl2c platform through PyOpenCL: every creation flag, sub-buffers, and
the transfers (read, write, copy, fill, the rect forms, map and unmap), checked against
NumPy. Each test runs in a child process with OCL_ICD_VENDORS naming cl2c's folder."""
from __future__ import annotations

import pytest

from icd_helpers import run_pyopencl, run_pyopencl_on_pocl


@pytest.fixture(params=[None, "3.0"], ids=["1.2", "3.0"])
def version(request):
    """Both versions the platform serves (3.0: PyOpenCL creates its queues with
    clCreateCommandQueueWithProperties)."""
    return request.param

_SETUP = """
ctx = cl.Context([device])
queue = cl.CommandQueue(ctx)
mf = cl.mem_flags
rng = np.random.default_rng(7)
"""


def test_copy_host_ptr_write_copy_read(version):
    assert run_pyopencl(_SETUP + """
a = rng.standard_normal(4099).astype(np.float32)
b = rng.standard_normal(4099).astype(np.float32)
src = cl.Buffer(ctx, mf.READ_ONLY | mf.COPY_HOST_PTR, hostbuf=a)
a[:] = 0                                   # a copy was taken at creation
dst = cl.Buffer(ctx, mf.READ_WRITE, b.nbytes)
cl.enqueue_copy(queue, dst, b)             # write
cl.enqueue_copy(queue, dst, src, byte_count=400, src_offset=40, dst_offset=4)
back = np.empty_like(b)
cl.enqueue_copy(queue, back, dst)          # read, blocking
original = np.empty_like(a)
cl.enqueue_copy(queue, original, src)
expect = b.copy()
expect[1:101] = original[10:110]
out(dict(copied=bool((back == expect).all()), kept=bool((original != 0).all())))
""", version) == {"copied": True, "kept": True}


def test_use_host_ptr_is_the_hosts_memory(version):
    """CL_MEM_USE_HOST_PTR without a copy: a fill shows in the host's array, and a map
    returns the host's own address."""
    assert run_pyopencl(_SETUP + """
host = np.zeros(1024, np.int32)
buf = cl.Buffer(ctx, mf.READ_WRITE | mf.USE_HOST_PTR, hostbuf=host)
cl.enqueue_fill_buffer(queue, buf, np.int32(7), 64, 256).wait()
mapped, _ = cl.enqueue_map_buffer(queue, buf, cl.map_flags.READ, 128, (16,), np.int32)
same_address = mapped.__array_interface__["data"][0] == host.ctypes.data + 128
seen = mapped.copy()
mapped.base.release(queue)
queue.finish()
out(dict(filled=host[16:80].tolist() == [7] * 64, rest=int(host[:16].sum() + host[80:].sum()),
         address=bool(same_address), mapped=seen.tolist() == [7] * 16,
         host_ptr=buf.get_host_array((1024,), np.int32).ctypes.data == host.ctypes.data))
""", version) == {"filled": True, "rest": 0, "address": True, "mapped": True, "host_ptr": True}



def test_use_host_ptr_misaligned_for_the_kernel():
    """A CL_MEM_USE_HOST_PTR buffer keeps the host's pointer, which may start anywhere;
    a kernel reads it through a float16 * (its parameter's type, or a cast of a float *)
    with 64-byte vector loads. Each such launch is right at every offset from a 128-byte
    boundary, NumPy the reference (PoCL 3.1 dies of SIGSEGV on these), and what the
    kernel wrote is in the host's array; a buffer passed twice is one buffer."""
    assert run_pyopencl(_SETUP + """
src = '''
__kernel void vectors(__global float16 *a, __global const float16 *b) {
    size_t i = get_global_id(0);
    a[i] += b[i] * 2.0f;
}
__kernel void cast(__global float *a) {
    size_t i = get_global_id(0);
    ((__global float16 *)a)[i] *= 3.0f;
}
__kernel void twice(__global float *a, __global const float *same) {
    size_t i = get_global_id(0);
    ((__global float16 *)a)[i] += ((__global const float16 *)same)[i];
}
'''
prg = cl.Program(ctx, src).build()
n = 16 * 4096
results = {}
for offset in (0, 4, 16, 48):
    def placed(values):
        raw = np.empty(values.nbytes + 256, np.uint8)
        start = -raw.ctypes.data % 128 + offset
        view = raw[start:start + values.nbytes].view(np.float32)
        view[:] = values
        return view
    a0, b0 = rng.standard_normal(n).astype(np.float32), rng.standard_normal(n).astype(np.float32)
    a, b = placed(a0), placed(b0)
    use = mf.READ_WRITE | mf.USE_HOST_PTR
    abuf, bbuf = cl.Buffer(ctx, use, hostbuf=a), cl.Buffer(ctx, use, hostbuf=b)
    events = [prg.vectors(queue, (n // 16,), None, abuf, bbuf)]
    events.append(prg.cast(queue, (n // 16,), None, abuf))
    events.append(prg.twice(queue, (n // 16,), None, abuf, abuf))
    queue.finish()
    expect = (a0 + b0 * np.float32(2)) * np.float32(3)
    expect = expect + expect
    results[offset] = dict(status=[e.command_execution_status for e in events],
                           host=bool(np.array_equal(a, expect)),
                           b_kept=bool(np.array_equal(b, b0)))
out(results)
""") == {str(o): {"status": [0, 0, 0], "host": True, "b_kept": True} for o in (0, 4, 16, 48)}

def test_alloc_host_ptr_and_map_write(version):
    assert run_pyopencl(_SETUP + """
buf = cl.Buffer(ctx, mf.READ_WRITE | mf.ALLOC_HOST_PTR, 4096)
mapped, _ = cl.enqueue_map_buffer(queue, buf, cl.map_flags.WRITE, 0, (1024,), np.float32)
mapped[:] = np.arange(1024, dtype=np.float32) * 0.5
count = buf.get_info(cl.mem_info.MAP_COUNT)
mapped.base.release(queue)
queue.finish()
back = np.empty(1024, np.float32)
cl.enqueue_copy(queue, back, buf)
out(dict(ok=bool((back == np.arange(1024, dtype=np.float32) * 0.5).all()), count=count,
         after=buf.get_info(cl.mem_info.MAP_COUNT)))
""", version) == {"ok": True, "count": 1, "after": 0}


def test_sub_buffers_share_their_buffers_storage(version):
    assert run_pyopencl(_SETUP + """
data = np.arange(1024, dtype=np.uint8)
parent = cl.Buffer(ctx, mf.READ_WRITE | mf.COPY_HOST_PTR, hostbuf=data)
sub = parent.get_sub_region(256, 128)
part = np.empty(128, np.uint8)
cl.enqueue_copy(queue, part, sub)
cl.enqueue_copy(queue, sub, np.full(128, 255, np.uint8))
whole = np.empty(1024, np.uint8)
cl.enqueue_copy(queue, whole, parent)
expect = data.copy(); expect[256:384] = 255
errors = []
for origin, size in ((100, 16), (1024, 128), (896, 256)):
    try:
        parent.get_sub_region(origin, size)
        errors.append("none")
    except cl.Error as e:
        errors.append(e.code)
out(dict(read=part.tolist() == data[256:384].tolist(), written=whole.tolist() == expect.tolist(),
         offset=sub.get_info(cl.mem_info.OFFSET), size=sub.size,
         parent=sub.get_info(cl.mem_info.ASSOCIATED_MEMOBJECT).int_ptr == parent.int_ptr,
         errors=errors))
""", version) == {"read": True, "written": True, "offset": 256, "size": 128, "parent": True,
         "errors": [-13, -30, -30]}   # MISALIGNED_SUB_BUFFER_OFFSET, INVALID_VALUE x2


def test_fill_every_pattern_size(version):
    result = run_pyopencl(_SETUP + """
results = {}
for dtype, value in ((np.uint8, 0xAB), (np.uint16, 0xBEEF), (np.float32, 1.5),
                     (np.float64, -2.25)):
    buf = cl.Buffer(ctx, mf.READ_WRITE | mf.COPY_HOST_PTR, hostbuf=np.zeros(64, dtype))
    size = np.dtype(dtype).itemsize
    cl.enqueue_fill_buffer(queue, buf, dtype(value), 8 * size, 40 * size)
    back = np.empty(64, dtype); cl.enqueue_copy(queue, back, buf)
    expect = np.zeros(64, dtype); expect[8:48] = value
    results[np.dtype(dtype).name] = bool((back == expect).all())
vec = np.array([1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16], np.int64)
buf = cl.Buffer(ctx, mf.READ_WRITE, 128 * 4)
cl.enqueue_fill_buffer(queue, buf, vec, 0, 128 * 4)       # a 128-byte pattern
back = np.empty(64, np.int64); cl.enqueue_copy(queue, back, buf)
results["long16"] = bool((back == np.tile(vec, 4)).all())
out(results)
""", version)
    assert result == {"uint8": True, "uint16": True, "float32": True, "float64": True,
                      "long16": True}


def test_rect_read_write_copy_match_numpy_slices(version):
    assert run_pyopencl(_SETUP + """
shape = (6, 10, 12)                      # z, y, x of float32 elements
a = rng.standard_normal(shape).astype(np.float32)
buf = cl.Buffer(ctx, mf.READ_WRITE | mf.COPY_HOST_PTR, hostbuf=a)
# read a 3x4x5 block at (z, y, x) = (1, 2, 3) into a dense host array
block = np.zeros((3, 4, 5), np.float32)
cl.enqueue_copy(queue, block, buf, buffer_origin=(3 * 4, 2, 1), host_origin=(0, 0, 0),
                region=(5 * 4, 4, 3), buffer_pitches=(12 * 4, 12 * 10 * 4))
read_ok = bool((block == a[1:4, 2:6, 3:8]).all())
# write it back elsewhere: (z, y, x) = (2, 5, 6)
cl.enqueue_copy(queue, buf, block, buffer_origin=(6 * 4, 5, 2), host_origin=(0, 0, 0),
                region=(5 * 4, 4, 3), buffer_pitches=(12 * 4, 12 * 10 * 4))
# copy a block buffer to buffer: (0, 0, 0) of buf to (1, 1, 1) of other
other = cl.Buffer(ctx, mf.READ_WRITE, a.nbytes)
cl.enqueue_fill_buffer(queue, other, np.float32(0), 0, a.nbytes)
cl.enqueue_copy(queue, other, buf, src_origin=(0, 0, 0), dst_origin=(4, 1, 1),
                region=(2 * 4, 3, 2), src_pitches=(48, 480), dst_pitches=(48, 480))
whole = np.empty_like(a); cl.enqueue_copy(queue, whole, buf)
copied = np.empty_like(a); cl.enqueue_copy(queue, copied, other)
expect = a.copy(); expect[2:5, 5:9, 6:11] = a[1:4, 2:6, 3:8]
expect_other = np.zeros_like(a); expect_other[1:3, 1:4, 1:3] = expect[0:2, 0:3, 0:2]
out(dict(read=read_ok, written=bool((whole == expect).all()),
         copied=bool((copied == expect_other).all())))
""", version) == {"read": True, "written": True, "copied": True}


_COPY_WITHIN = _SETUP + """
a = rng.integers(0, 256, (6, 8, 16), dtype=np.uint8)      # z, y, x
buf = cl.Buffer(ctx, mf.READ_WRITE | mf.COPY_HOST_PTR, hostbuf=a)
# the bytes the two rects span overlap, but their columns (1..4, 9..12) do not
cl.enqueue_copy(queue, buf, buf, src_origin=(1, 0, 1), dst_origin=(9, 2, 0),
                region=(4, 5, 3), src_pitches=(16, 128), dst_pitches=(16, 128))
whole = np.empty_like(a); cl.enqueue_copy(queue, whole, buf)
expect = a.copy(); expect[0:3, 2:7, 9:13] = a[1:4, 0:5, 1:5]
try:                                     # these overlap
    cl.enqueue_copy(queue, buf, buf, src_origin=(0, 0, 0), dst_origin=(2, 1, 0),
                    region=(4, 4, 2), src_pitches=(16, 128), dst_pitches=(16, 128))
    overlap = 0
except cl.Error as e:
    overlap = e.code
queue.finish()
out(dict(copied=bool((whole == expect).all()), overlap=overlap))
"""


def test_copy_rect_within_a_buffer_between_interleaved_rects(version):
    """A copy within one buffer whose rects' byte spans overlap but whose bytes do not
    is done (the CTS's basic/bufferreadwriterect makes such copies), as on PoCL; rects
    that share bytes are CL_MEM_COPY_OVERLAP."""
    result = run_pyopencl(_COPY_WITHIN, version)
    assert result == {"copied": True, "overlap": -8}
    assert run_pyopencl_on_pocl(_COPY_WITHIN) == result
