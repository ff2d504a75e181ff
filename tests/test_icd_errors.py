"""Bad arguments to the cl2c platform give the spec's error codes, never a crash: called
through Debian's ICD loader with ctypes (handles of the wrong kind, NULLs, sizes past a
buffer, entry points not implemented yet), and through PyOpenCL."""
from __future__ import annotations

import ctypes.util
import json
import subprocess
import sys

import pytest

from cl2c import images
from icd_helpers import icd_environment, run_pyopencl

_CTYPES_CHILD = r"""
import ctypes, json
cl = ctypes.CDLL(LIBRARY)
P = ctypes.c_void_p
size_t, cl_int, cl_uint = ctypes.c_size_t, ctypes.c_int32, ctypes.c_uint32
err = cl_int()
n = cl_uint()
platforms = (P * 4)()
assert cl.clGetPlatformIDs(4, platforms, ctypes.byref(n)) == 0 and n.value == 1
platform = P(platforms[0])
device = P()
assert cl.clGetDeviceIDs(platform, ctypes.c_uint64(2), 1, ctypes.byref(device), None) == 0
cl.clCreateContext.restype = P
ctx = P(cl.clCreateContext(None, 1, ctypes.byref(device), None, None, ctypes.byref(err)))
assert err.value == 0
cl.clCreateCommandQueue.restype = P
queue = P(cl.clCreateCommandQueue(ctx, device, ctypes.c_uint64(0), ctypes.byref(err)))
cl.clCreateBuffer.restype = P
buf = P(cl.clCreateBuffer(ctx, ctypes.c_uint64(1), size_t(256), None, ctypes.byref(err)))
cl.clCreateUserEvent.restype = P
user = P(cl.clCreateUserEvent(ctx, ctypes.byref(err)))
host = ctypes.create_string_buffer(512)
codes = {}
codes["read_queue_is_a_buffer"] = cl.clEnqueueReadBuffer(buf, buf, 1, size_t(0), size_t(16), host, 0, None, None)
codes["read_buffer_is_a_queue"] = cl.clEnqueueReadBuffer(queue, queue, 1, size_t(0), size_t(16), host, 0, None, None)
codes["read_past_the_end"] = cl.clEnqueueReadBuffer(queue, buf, 1, size_t(250), size_t(16), host, 0, None, None)
codes["read_into_null"] = cl.clEnqueueReadBuffer(queue, buf, 1, size_t(0), size_t(16), None, 0, None, None)
codes["wait_list_count_without_list"] = cl.clEnqueueReadBuffer(queue, buf, 1, size_t(0), size_t(16), host, 2, None, None)
bad_list = (P * 1)(buf.value)
codes["wait_list_of_a_buffer"] = cl.clEnqueueReadBuffer(queue, buf, 1, size_t(0), size_t(16), host, 1, bad_list, None)
codes["mem_info_of_a_queue"] = cl.clGetMemObjectInfo(queue, cl_uint(0x1102), size_t(8), host, None)
codes["context_info_of_a_queue"] = cl.clGetContextInfo(queue, cl_uint(0x1080), size_t(4), host, None)
codes["retain_event_of_a_buffer"] = cl.clRetainEvent(buf)
codes["device_info_unknown"] = cl.clGetDeviceInfo(device, cl_uint(0xFFFF), size_t(8), host, None)
codes["platform_info_too_small"] = cl.clGetPlatformInfo(platform, cl_uint(0x0902), size_t(2), host, None)
codes["wait_for_no_events"] = cl.clWaitForEvents(0, None)
codes["user_status_of_a_queue_event"] = cl.clSetUserEventStatus(buf, 0)
codes["user_status_positive"] = cl.clSetUserEventStatus(user, 5)
cl.clCreateBuffer(queue, ctypes.c_uint64(1), size_t(16), None, ctypes.byref(err))
codes["buffer_in_a_queue"] = err.value
cl.clCreateBuffer(ctx, ctypes.c_uint64(1), size_t(0), None, ctypes.byref(err))
codes["buffer_of_size_zero"] = err.value
cl.clCreateBuffer(ctx, ctypes.c_uint64(1 | 8), size_t(16), None, ctypes.byref(err))
codes["use_host_ptr_without_one"] = err.value
cl.clCreateBuffer(ctx, ctypes.c_uint64(1 | 2), size_t(16), None, ctypes.byref(err))
codes["two_access_flags"] = err.value
cl.clCreateProgramWithSource.restype = P
src = ctypes.c_char_p(b"kernel void k() {}")
program = cl.clCreateProgramWithSource(ctx, 1, ctypes.byref(src), None, ctypes.byref(err))
codes["program_from_source"] = [err.value, program is not None]
assert cl.clReleaseProgram(ctypes.c_void_p(program)) == 0
codes["fill_pattern_of_3_bytes"] = cl.clEnqueueFillBuffer(queue, buf, host, size_t(3), size_t(0), size_t(12), 0, None, None)
codes["copy_onto_itself"] = cl.clEnqueueCopyBuffer(queue, buf, buf, size_t(0), size_t(8), size_t(16), 0, None, None)
cl.clEnqueueMapBuffer.restype = P
mapped = cl.clEnqueueMapBuffer(queue, buf, 1, ctypes.c_uint64(1), size_t(0), size_t(64), 0, None, None, ctypes.byref(err))
codes["unmap_a_pointer_never_mapped"] = cl.clEnqueueUnmapMemObject(queue, buf, ctypes.c_void_p(mapped + 8), 0, None, None)
codes["unmap"] = cl.clEnqueueUnmapMemObject(queue, buf, ctypes.c_void_p(mapped), 0, None, None)
codes["unmap_twice"] = cl.clEnqueueUnmapMemObject(queue, buf, ctypes.c_void_p(mapped), 0, None, None)
cl.clEnqueueMapBuffer(queue, buf, 1, ctypes.c_uint64(1), size_t(8), size_t(0), 0, None, None, ctypes.byref(err))
codes["map_nothing"] = err.value
formats = cl_uint(99)
codes["image_formats"] = [cl.clGetSupportedImageFormats(ctx, ctypes.c_uint64(1), cl_uint(0x10F1), 0, None, ctypes.byref(formats)), formats.value]
codes["image_formats_of_a_buffer_type"] = cl.clGetSupportedImageFormats(ctx, ctypes.c_uint64(1), cl_uint(0x10F0), 0, None, ctypes.byref(formats))
cl.clCreateImage2D.restype = P
fmt = (cl_uint * 2)(0x10B5, 0x10DE)
cl.clCreateImage2D(ctx, ctypes.c_uint64(1), fmt, size_t(0), size_t(4), size_t(0), None, ctypes.byref(err))
codes["image_2d_of_width_0"] = err.value
origin = (size_t * 3)(0, 0, 0)
huge = (size_t * 3)(16, 1 << 62, 8)
codes["rect_region_wraps_around"] = cl.clEnqueueReadBufferRect(queue, buf, 1, origin, origin, huge, size_t(16), size_t(0), size_t(0), size_t(0), host, 0, None, None)
codes["queue_of_a_context"] = cl.clFinish(ctx)
codes["finish"] = cl.clFinish(queue)
# released twice, or used once released: the spec's code for a bad handle, not a crash
# (a released object's memory stays the platform's)
cl.clCreateSampler.restype = P
sampler = P(cl.clCreateSampler(ctx, 1, cl_uint(0x1130), cl_uint(0x1140), ctypes.byref(err)))
program = P(cl.clCreateProgramWithSource(ctx, 1, ctypes.byref(src), None, ctypes.byref(err)))
assert cl.clBuildProgram(program, 0, None, None, None, None) == 0
cl.clCreateKernel.restype = P
kernel = P(cl.clCreateKernel(program, b"k", ctypes.byref(err)))
releases = ((kernel, cl.clReleaseKernel), (program, cl.clReleaseProgram),
            (sampler, cl.clReleaseSampler), (buf, cl.clReleaseMemObject),
            (user, cl.clReleaseEvent), (queue, cl.clReleaseCommandQueue))
codes["released_twice"] = [[release(obj), release(obj)] for obj, release in releases]
assert cl.clReleaseContext(ctx) == 0
# (a context alone: the one above may still be held by its queue's worker)
alone = P(cl.clCreateContext(None, 1, ctypes.byref(device), None, None, ctypes.byref(err)))
codes["context_released_twice"] = [cl.clReleaseContext(alone), cl.clReleaseContext(alone)]
codes["retain_released_program"] = cl.clRetainProgram(program)
codes["mem_info_of_released_buffer"] = cl.clGetMemObjectInfo(buf, cl_uint(0x1102), size_t(8), host, None)
print("RESULT " + json.dumps(codes))
"""


def test_bad_arguments_through_the_system_loader():
    library = ctypes.util.find_library("OpenCL")
    if library is None:
        pytest.skip("no ICD loader (Debian's ocl-icd-libopencl1)")
    code = f"LIBRARY = {library!r}\n" + _CTYPES_CHILD
    proc = subprocess.run([sys.executable, "-c", code], env=icd_environment(),
                          capture_output=True, text=True, timeout=120)
    assert proc.returncode == 0, proc.stderr[-4000:]
    codes = json.loads(proc.stdout.split("RESULT ", 1)[1])
    assert codes == {
        "read_queue_is_a_buffer": -36,          # CL_INVALID_COMMAND_QUEUE
        "read_buffer_is_a_queue": -38,          # CL_INVALID_MEM_OBJECT
        "read_past_the_end": -30,               # CL_INVALID_VALUE
        "read_into_null": -30,
        "wait_list_count_without_list": -57,    # CL_INVALID_EVENT_WAIT_LIST
        "wait_list_of_a_buffer": -57,
        "mem_info_of_a_queue": -38,
        "context_info_of_a_queue": -34,         # CL_INVALID_CONTEXT
        "retain_event_of_a_buffer": -58,        # CL_INVALID_EVENT
        "device_info_unknown": -30,
        "platform_info_too_small": -30,
        "wait_for_no_events": -30,
        "user_status_of_a_queue_event": -58,
        "user_status_positive": -30,
        "buffer_in_a_queue": -34,
        "buffer_of_size_zero": -61,             # CL_INVALID_BUFFER_SIZE
        "use_host_ptr_without_one": -37,        # CL_INVALID_HOST_PTR
        "two_access_flags": -30,
        "program_from_source": [0, True],
        "fill_pattern_of_3_bytes": -30,
        "copy_onto_itself": -8,                 # CL_MEM_COPY_OVERLAP
        "unmap_a_pointer_never_mapped": -30,
        "unmap": 0,
        "unmap_twice": -30,
        "map_nothing": -30,
        "image_formats": [0, len(images.spec_formats(12))],   # every 1.2 format is 2D's
        "image_formats_of_a_buffer_type": -30,
        "image_2d_of_width_0": -40,             # CL_INVALID_IMAGE_SIZE (1.1's form)
        "rect_region_wraps_around": -30,
        "queue_of_a_context": -36,
        "finish": 0,
        # kernel, program, sampler, buffer, event, queue
        "released_twice": [[0, -48], [0, -44], [0, -41], [0, -38], [0, -58], [0, -36]],
        "context_released_twice": [0, -34],
        "retain_released_program": -44,
        "mem_info_of_released_buffer": -38,
    }


def test_bad_arguments_through_pyopencl():
    codes = run_pyopencl("""
ctx = cl.Context([device])
queue = cl.CommandQueue(ctx)
mf = cl.mem_flags
def code(f):
    try:
        f()
        return "no error"
    except cl.Error as e:
        return e.code
buf = cl.Buffer(ctx, mf.READ_WRITE, 64)
ro = cl.Buffer(ctx, mf.READ_WRITE | mf.HOST_READ_ONLY, 64)
out(dict(
    read_past_end=code(lambda: cl.enqueue_copy(queue, np.empty(32, np.uint8), buf,
                                               src_offset=40)),
    write_host_read_only=code(lambda: cl.enqueue_copy(queue, ro, np.zeros(64, np.uint8))),
    alloc_and_use=code(lambda: cl.Buffer(ctx, mf.USE_HOST_PTR | mf.ALLOC_HOST_PTR,
                                         hostbuf=np.zeros(4))),
    overlap=code(lambda: cl.enqueue_copy(queue, buf, buf, byte_count=16, src_offset=0,
                                         dst_offset=8)),
    sub_of_sub=code(lambda: buf.get_sub_region(0, 32).get_sub_region(0, 16)),
    queue_properties=code(lambda: cl.CommandQueue(ctx, properties=1 << 10)),
))
""")
    assert codes == {"read_past_end": -30, "write_host_read_only": -59, "alloc_and_use": -30,
                     "overlap": -8, "sub_of_sub": -38, "queue_properties": -30}


def test_failed_link_released_twice_by_pyopencl():
    """PyOpenCL releases the program of a failed clLinkProgram twice (its error object
    holds it, and is copied); PoCL survives that, so must the platform: the second
    release finds a released program and says so."""
    codes = run_pyopencl("""
ctx = cl.Context([device])
calls = cl.Program(ctx, "void helper(global int *p);\\n"
                        "kernel void k(global int *p) { helper(p); }").compile()
other = cl.Program(ctx, "int unrelated(int x) { return x + 1; }").compile()
codes = []
for attempt in range(2):
    try:
        cl.link_program(ctx, [calls, other])
        codes.append("linked")
    except cl.Error as e:
        codes.append(e.code)
import gc
gc.collect()
out(codes)
""")
    assert codes == [-17, -17]                 # CL_LINK_PROGRAM_FAILURE, and no crash
