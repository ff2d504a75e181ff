"""The platform's warm build service (clruntime/platform/service.c): a host's builds go
to one `python -m cl2c.build_service --serve` child, kept between them; one that dies
(killed between builds, or with a build) is replaced; a changed environment gets a new
one; CL2C_ICD_WARM_BUILDS=0 starts a child for each build, as before. Every build's
kernel runs and gives its own result, and a program that does not build still gets its
diagnostics in the log. And the service's side (build_service --serve): an answer for
each request, the last one marked as it retires, and an end when idle."""
from __future__ import annotations

from icd_helpers import run_pyopencl

_HOST = r"""
import os, signal
ctx = cl.Context([device])
queue = cl.CommandQueue(ctx)
def build_and_run(n):
    prg = cl.Program(ctx, f"kernel void k(global int *a) {{ a[get_global_id(0)] = {n}; }}")
    prg.build()
    a = np.zeros(8, np.int32)
    buf = cl.Buffer(ctx, cl.mem_flags.READ_WRITE, a.nbytes)
    prg.k(queue, (8,), None, buf)
    cl.enqueue_copy(queue, a, buf)
    return a.tolist() == [n] * 8
seen, ok = [], []
for n in (11, 12):
    ok.append(build_and_run(n))
    seen.append(children())
for pid in seen[-1]:
    os.kill(pid, signal.SIGKILL)            # killed between builds
ok.append(build_and_run(13))
seen.append(children())
os.environ["CL2C_WARM_TEST"] = "changed"    # what the cache key reads may have changed
ok.append(build_and_run(14))
seen.append(children())
try:
    cl.Program(ctx, "kernel void bad(global int *a) { a[0] = undeclared; }").build()
    log = ""
except cl.RuntimeError as e:
    log = str(e)
out({"ok": ok, "children": seen, "log": log})
"""


def test_a_hosts_builds_share_one_warm_service():
    result = run_pyopencl(_HOST, env={"PYOPENCL_NO_CACHE": "1"})
    assert result["ok"] == [True] * 4
    first, second, after_kill, after_env = result["children"]
    assert len(first) == 1 and second == first           # one service, kept
    assert len(after_kill) == 1 and after_kill != first  # replaced when it died
    assert len(after_env) == 1 and after_env != after_kill
    assert "error" in result["log"] and "undeclared" in result["log"]


def test_warm_builds_turned_off_leave_no_child():
    result = run_pyopencl(_HOST, env={"PYOPENCL_NO_CACHE": "1",
                                      "CL2C_ICD_WARM_BUILDS": "0"})
    assert result["ok"] == [True] * 4
    assert result["children"] == [[], [], [], []]
    assert "undeclared" in result["log"]


def _service(limit: int, idle_s: float):
    """A --serve service with its standard input one end of a socket pair: (process,
    the other end)."""
    import socket
    import subprocess
    import sys
    host, child = socket.socketpair()
    code = ("import sys\nfrom cl2c import build_service as b\n"
            f"b.SERVE_IDLE_S = {idle_s}\nsys.exit(b.serve(limit={limit}))")
    proc = subprocess.Popen([sys.executable, "-c", code], stdin=child.fileno())
    child.close()
    return proc, host


def _request(sock, cwd, err, *args) -> int:
    body = b"\0".join(str(f).encode() for f in (cwd, err, *args))
    sock.sendall(len(body).to_bytes(4, "little") + body)
    answer = b""
    while len(answer) < 4:
        chunk = sock.recv(4 - len(answer))
        assert chunk, "the service ended without an answer"
        answer += chunk
    return int.from_bytes(answer, "little")


def test_the_service_answers_each_request_and_retires(tmp_path):
    from cl2c import build_service
    (tmp_path / "k.cl").write_text("kernel void k(global int *a) { a[0] = 1; }\n")
    (tmp_path / "bad.cl").write_text("kernel void k(global int *a) { a[0] = q; }\n")
    proc, sock = _service(limit=2, idle_s=60)
    built = _request(sock, tmp_path, tmp_path / "err1", "--source", "k.cl", "--output",
                     "k.bin", f"--log={tmp_path / 'log1'}")
    assert built == build_service.BUILT and (tmp_path / "k.bin").stat().st_size > 0
    failed = _request(sock, tmp_path, tmp_path / "err2", "--source", "bad.cl", "--output",
                      "bad.bin", f"--log={tmp_path / 'log2'}")
    # the second of two: the build's status, and the service says it ends
    assert failed == build_service.FAILED | build_service.RETIRING
    assert "undeclared identifier 'q'" in (tmp_path / "log2").read_text()
    assert proc.wait(timeout=60) == 0


def test_an_idle_service_ends(tmp_path):
    proc, sock = _service(limit=10, idle_s=0.5)
    assert proc.wait(timeout=60) == 0 and sock.recv(1) == b""
