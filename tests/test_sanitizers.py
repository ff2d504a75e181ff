"""-cl2c-sanitize=address,undefined,thread: kernels built with the C compiler's
sanitizers report at the .cl line. From Python the address and thread sanitizers'
runtimes must be preloaded (python -m cl2c.sanitizers): each test runs its launch in a
child process so started."""
from __future__ import annotations

import os
import shutil
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

import cl2c
from cl2c.resources import runtime_include_dir
from cl2c.sanitizers import loaded, runtime_library

ROOT = Path(__file__).resolve().parent.parent
CC = os.environ.get("CC", "cc")


def have(name: str) -> str | None:
    """Why sanitizer ``name`` cannot be tested here, or None."""
    if shutil.which(CC.split()[0]) is None:
        return "no C compiler"
    if name != "undefined" and runtime_library(name, tuple(CC.split())) is None:
        return f"{CC} has no {name} sanitizer runtime"
    probe = subprocess.run([*CC.split(), f"-fsanitize={name}", "-x", "c", "-", "-o",
                            os.devnull], input="int main(void){return 0;}",
                           capture_output=True, text=True)
    return None if probe.returncode == 0 else f"{CC} cannot link -fsanitize={name}"


def run_python(tmp_path: Path, sanitizer: str, kernel: str, launch: str, name="k.cl"):
    """Run a launch of ``kernel`` built with ``sanitizer`` in a child Python that has the
    runtime preloaded; returns (exit status, stderr)."""
    cl = tmp_path / name
    cl.write_text(textwrap.dedent(kernel))
    script = tmp_path / "run.py"
    script.write_text(textwrap.dedent(f"""\
        import numpy as np, cl2c
        prg = cl2c.Program.from_file({str(cl)!r}, options="-cl2c-sanitize={sanitizer}").build()
        """) + textwrap.dedent(launch) + "\nprint('finished')\n")
    env = dict(os.environ, PYTHONPATH=os.pathsep.join(
        filter(None, [str(ROOT), os.environ.get("PYTHONPATH")])))
    proc = subprocess.run([sys.executable, "-m", "cl2c.sanitizers", sanitizer, str(script)],
                          capture_output=True, text=True, env=env, timeout=300, cwd=tmp_path)
    return proc.returncode, proc.stdout + proc.stderr


def test_options():
    from cl2c.options import parse_options
    assert parse_options("-cl2c-sanitize=address,undefined").sanitize == ("address",
                                                                         "undefined")
    for bad in ("-cl2c-sanitize=memory", "-cl2c-sanitize=address,thread"):
        with pytest.raises(cl2c.BuildError):
            parse_options(bad)


@pytest.mark.skipif(loaded("address"), reason="this process has the runtime")
def test_without_the_runtime_a_clear_error():
    if have("address"):
        pytest.skip(have("address"))
    with pytest.raises(cl2c.BuildError, match="python -m cl2c.sanitizers address"):
        cl2c.Program("__kernel void k(__global int *a) { a[0] = 1; }",
                     options="-cl2c-sanitize=address").build()


def test_address_global(tmp_path):
    if have("address"):
        pytest.skip(have("address"))
    rc, err = run_python(tmp_path, "address", """
        __kernel void k(__global float *a, int n) {
            int i = get_global_id(0);
            a[i + n] = 1.0f;
        }""", """
        prg.k((64,), (16,), np.zeros(64, np.float32), np.int32(1))
        """)
    assert rc != 0 and "AddressSanitizer: heap-buffer-overflow" in err, err[-3000:]
    assert f"{tmp_path / 'k.cl'}:4" in err, err[-3000:]


def test_address_local_and_fibers(tmp_path):
    """__local memory has red zones; a kernel on fibers switches stacks cleanly."""
    if have("address"):
        pytest.skip(have("address"))
    kernel = """
        __kernel void k(__global float *out, int n) {
            __local float t[16];
            int l = get_local_id(0);
            for (int r = 0; r < l % 2 + 1; ++r)
                barrier(CLK_LOCAL_MEM_FENCE);
            t[l + n] = 1.0f;
            barrier(CLK_LOCAL_MEM_FENCE);
            out[get_global_id(0)] = t[l];
        }"""
    rc, err = run_python(tmp_path, "address", kernel.replace("l % 2 + 1", "1"), """
        out = np.zeros(32, np.float32)
        prg.k((32,), (16,), out, np.int32(0))
        assert (out == 1).all()
        """)
    assert rc == 0 and "finished" in err, err[-3000:]
    rc, err = run_python(tmp_path, "address", kernel.replace("l % 2 + 1", "1"), """
        prg.k((32,), (16,), np.zeros(32, np.float32), np.int32(1))
        """)
    assert "AddressSanitizer" in err and f"{tmp_path / 'k.cl'}:7" in err, err[-3000:]


def test_address_fibers_no_false_reports(tmp_path):
    if have("address"):
        pytest.skip(have("address"))
    rc, err = run_python(tmp_path, "address", """
        __kernel void k(__global int *out) {
            __local int t[64];
            int l = get_local_id(0);
            t[l] = l;
            for (int r = 0; r < get_group_id(0) + 1; ++r)
                if (r < 8) barrier(CLK_LOCAL_MEM_FENCE);
            out[get_global_id(0)] = t[63 - l];
        }""", """
        out = np.zeros(256, np.int32)
        prg.k((256,), (64,), out)
        assert list(out[:64]) == list(range(63, -1, -1))
        """)
    assert rc == 0 and "finished" in err and "Sanitizer" not in err, err[-3000:]


def test_undefined(tmp_path):
    if have("undefined"):
        pytest.skip(have("undefined"))
    rc, err = run_python(tmp_path, "undefined", """
        __kernel void k(__global int *a, int big) {
            int i = get_global_id(0);
            a[i] = big + i;
        }""", """
        a = np.zeros(4, np.int32)
        prg.k((4,), None, a, np.int32(2**31 - 2))
        """)
    assert "runtime error: signed integer overflow" in err, err[-3000:]
    assert f"{tmp_path / 'k.cl'}:4" in err, err[-3000:]


def test_thread(tmp_path):
    if have("thread"):
        pytest.skip(have("thread"))
    rc, err = run_python(tmp_path, "thread", """
        __kernel void k(__global int *a) {
            a[0] += get_global_id(0);
        }""", """
        import os
        a = np.zeros(1, np.int32)
        for _ in range(20):
            prg.k((4096,), (64,), a)
        """)
    assert "finished" in err or "ThreadSanitizer" in err, err[-3000:]
    if "ThreadSanitizer: data race" in err:
        assert f"{tmp_path / 'k.cl'}:3" in err, err[-3000:]


def test_from_c(tmp_path):
    if have("address"):
        pytest.skip(have("address"))
    src = """__kernel void k(__global float *a, int n) {
    a[get_global_id(0) + n] = 1.0f;
}
"""
    (tmp_path / "k.cl").write_text(src)
    t = cl2c.translate(src, str(tmp_path / "k.cl"), options="-cl2c-sanitize=address",
                       output_name="k.c")
    (tmp_path / "k.c").write_text(t.c_source)
    (tmp_path / "k.h").write_text(t.emitted.header)
    (tmp_path / "main.c").write_text("""#include <stdlib.h>
#include "k.h"
int main(void) {
    float *a = calloc(64, sizeof *a);
    cl2c_range r = cl2c_range_1d(64, 16);
    int status = cl2c_kernel_k(&r, a, 1);
    free(a);
    return status;
}
""")
    subprocess.run([*CC.split(), "-std=c11", "-g", "-fsanitize=address", "-fopenmp",
                    f"-I{runtime_include_dir()}", "main.c", "k.c", "-o", "main", "-lm"],
                   cwd=tmp_path, check=True)
    proc = subprocess.run(["./main"], cwd=tmp_path, capture_output=True, text=True)
    assert proc.returncode != 0 and "heap-buffer-overflow" in proc.stderr
    assert f"{tmp_path / 'k.cl'}:2" in proc.stderr, proc.stderr[-3000:]


def test_cli_shared(tmp_path):
    if have("undefined"):
        pytest.skip(have("undefined"))
    from click.testing import CliRunner
    from cl2c.cli import main
    (tmp_path / "k.cl").write_text("__kernel void k(__global int *a) { a[0] += 1; }")
    out = tmp_path / "k.so"
    result = CliRunner().invoke(main, [str(tmp_path / "k.cl"), "--shared",
                                       "--sanitize=undefined", "-o", str(out)])
    assert result.exit_code == 0, result.output
    nm = subprocess.run(["nm", "-D", str(out)], capture_output=True, text=True).stdout
    assert "__ubsan" in nm
