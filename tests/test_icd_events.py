"""Queues and events on the cl2c platform through PyOpenCL: an enqueue returns before
its command runs, user events hold commands back without blocking the host, failures
travel along wait lists, callbacks, markers, barriers, profiling times, and objects that
stay alive while a queued command uses them."""
from __future__ import annotations

import pytest

from icd_helpers import run_pyopencl


@pytest.fixture(params=[None, "3.0"], ids=["1.2", "3.0"])
def version(request):
    """Both versions the platform serves (3.0: PyOpenCL creates its queues with
    clCreateCommandQueueWithProperties)."""
    return request.param

_SETUP = """
import threading, time
ctx = cl.Context([device])
mf = cl.mem_flags
st = cl.command_execution_status
"""


@pytest.mark.parametrize("out_of_order", [False, True])
def test_user_event_holds_a_command_back(out_of_order, version):
    result = run_pyopencl(_SETUP + f"""
props = cl.command_queue_properties.OUT_OF_ORDER_EXEC_MODE_ENABLE if {out_of_order} else 0
queue = cl.CommandQueue(ctx, properties=props)
gate = cl.UserEvent(ctx)
host = np.zeros(256, np.int32)
buf = cl.Buffer(ctx, mf.READ_WRITE | mf.COPY_HOST_PTR, hostbuf=np.arange(256, dtype=np.int32))
t0 = time.perf_counter()
read = cl.enqueue_copy(queue, host, buf, is_blocking=False, wait_for=[gate])
fill = cl.enqueue_fill_buffer(queue, buf, np.int32(-1), 0, 1024)   # after the read
returned = time.perf_counter() - t0
time.sleep(0.2)
waiting = (read.command_execution_status, fill.command_execution_status, int(host.sum()))
gate.set_status(st.COMPLETE)
fill.wait()
back = np.empty(256, np.int32); cl.enqueue_copy(queue, back, buf)
out(dict(returned_fast=returned < 0.1, waiting=[int(waiting[0]), int(waiting[1]), waiting[2]],
         read=host.tolist() == list(range(256)), filled=bool((back == -1).all()),
         status=int(read.command_execution_status),
         type=int(read.command_type), user_type=int(gate.command_type)))
""", version)
    assert result == {"returned_fast": True, "waiting": [2, 2, 0], "read": True,
                      "filled": True, "status": 0,
                      "type": 0x11F3, "user_type": 0x1204}   # READ_BUFFER, USER


def test_a_failed_user_event_fails_what_waits_for_it(version):
    result = run_pyopencl(_SETUP + """
queue = cl.CommandQueue(ctx)
gate = cl.UserEvent(ctx)
buf = cl.Buffer(ctx, mf.READ_WRITE, 64)
fill = cl.enqueue_fill_buffer(queue, buf, np.uint8(1), 0, 64, wait_for=[gate])
marker = cl.enqueue_marker(queue, wait_for=[fill])
gate.set_status(-1234)
queue.finish()
try:
    cl.enqueue_copy(queue, np.empty(64, np.uint8), buf, wait_for=[fill])   # blocking
    blocking = "no error"
except cl.Error as e:
    blocking = e.code
try:
    gate.set_status(st.COMPLETE)
    again = "no error"
except cl.Error as e:
    again = e.code
out(dict(gate=int(gate.command_execution_status), fill=int(fill.command_execution_status),
         marker=int(marker.command_execution_status), blocking=blocking, again=again))
""", version)
    assert result == {"gate": -1234, "fill": -14, "marker": -14, "blocking": -14,
                      "again": -59}   # EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST, INVALID_OPERATION


def test_callbacks_markers_barriers_and_profiling(version):
    result = run_pyopencl(_SETUP + """
queue = cl.CommandQueue(ctx, properties=cl.command_queue_properties.PROFILING_ENABLE)
gate = cl.UserEvent(ctx)
seen = []
done = threading.Event()
buf = cl.Buffer(ctx, mf.READ_WRITE, 1 << 20)
fill = cl.enqueue_fill_buffer(queue, buf, np.float32(2), 0, 1 << 20, wait_for=[gate])
fill.set_callback(st.COMPLETE, lambda status: (seen.append(("complete", status)), done.set()))
running = threading.Event()
fill.set_callback(st.RUNNING, lambda status: (seen.append(("running", status)), running.set()))
barrier = cl.enqueue_barrier(queue)
marker = cl.enqueue_marker(queue)
gate.set_status(st.COMPLETE)
marker.wait()
done.wait(5)
running.wait(5)
p = fill.profile
times = [p.queued, p.submit, p.start, p.end]
late = []
late_done = threading.Event()
# already complete: called at once (PyOpenCL hands it to a thread of its own)
fill.set_callback(st.COMPLETE, lambda status: (late.append(status), late_done.set()))
late_done.wait(5)
try:
    gate.profile.start
    user_profile = "available"
except cl.Error as e:
    user_profile = e.code
out(dict(seen=sorted(seen), ordered=times == sorted(times) and times[0] > 0, late=late,
         barrier=int(barrier.command_type), marker=int(marker.command_type),
         user_profile=user_profile))
""", version)
    assert result == {"seen": [["complete", 0], ["running", 1]], "ordered": True,
                      "late": [0], "barrier": 0x1205, "marker": 0x11FE,
                      "user_profile": -7}    # PROFILING_INFO_NOT_AVAILABLE


def test_released_objects_live_while_a_queued_command_uses_them(version):
    """The host drops its buffer, queue and context while a fill waits on a user event;
    the fill still runs, into memory that is still there (a destructor callback tells
    when the buffer goes: after the command, not before)."""
    result = run_pyopencl(_SETUP + """
import ctypes, gc
queue = cl.CommandQueue(ctx)
gate = cl.UserEvent(ctx)
host = np.zeros(1024, np.uint8)
buf = cl.Buffer(ctx, mf.READ_WRITE | mf.USE_HOST_PTR, hostbuf=host)
freed = threading.Event()
order = []
buf_refs_before = buf.reference_count
fill = cl.enqueue_fill_buffer(queue, buf, np.uint8(9), 0, 1024, wait_for=[gate])
held = buf.reference_count
del buf, queue
gc.collect()
time.sleep(0.1)
order.append("released")
gate.set_status(st.COMPLETE)
fill.wait()
order.append("ran")
out(dict(held=held > buf_refs_before, filled=bool((host == 9).all()), order=order,
         context=fill.context.int_ptr == ctx.int_ptr))
""", version)
    assert result == {"held": True, "filled": True, "order": ["released", "ran"],
                      "context": True}


def test_wait_for_events_from_another_thread(version):
    """clWaitForEvents returns when another thread completes the user event."""
    result = run_pyopencl(_SETUP + """
queue = cl.CommandQueue(ctx)
gate = cl.UserEvent(ctx)
buf = cl.Buffer(ctx, mf.READ_WRITE, 4096)
events = [cl.enqueue_fill_buffer(queue, buf, np.uint8(i), 0, 4096, wait_for=[gate])
          for i in range(20)]
threading.Timer(0.1, lambda: gate.set_status(st.COMPLETE)).start()
t0 = time.perf_counter()
cl.wait_for_events(events)
waited = time.perf_counter() - t0
back = np.empty(4096, np.uint8); cl.enqueue_copy(queue, back, buf)
out(dict(waited=waited >= 0.05, last=int(back[0]),
         statuses=sorted({int(e.command_execution_status) for e in events})))
""", version)
    assert result == {"waited": True, "last": 19, "statuses": [0]}


def test_after_fork_the_child_makes_its_own_queues(version):
    """A child of fork() has none of its parent's worker threads: the queues it
    inherits refuse commands (CL_INVALID_COMMAND_QUEUE) instead of hanging, and the
    queues it makes work; the parent's go on working."""
    result = run_pyopencl(_SETUP + """
import os
queue = cl.CommandQueue(ctx)
buf = cl.Buffer(ctx, mf.READ_WRITE, 64)
cl.enqueue_fill_buffer(queue, buf, np.uint8(1), 0, 64).wait()
read, write = os.pipe()
pid = os.fork()
if pid == 0:
    codes = []
    try:
        cl.enqueue_fill_buffer(queue, buf, np.uint8(2), 0, 64)
        codes.append("no error")
    except cl.Error as e:
        codes.append(e.code)
    own = cl.CommandQueue(ctx)
    cl.enqueue_fill_buffer(own, buf, np.uint8(3), 0, 64)
    back = np.empty(64, np.uint8); cl.enqueue_copy(own, back, buf)
    codes.append(int(back[0]))
    os.write(write, json.dumps(codes).encode())
    os._exit(0)
os.waitpid(pid, 0)
child = json.loads(os.read(read, 1000))
back = np.empty(64, np.uint8); cl.enqueue_copy(queue, back, buf)
out(dict(child=child, parent=int(back[0])))
""", version)
    assert result == {"child": [-36, 3], "parent": 1}
