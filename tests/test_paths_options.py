"""File names and options a C compiler takes in its stride: dependency files that Make
reads back with '$', '#' and spaces in the names, file names holding a quote or a
newline in the #line directives, a $CC with arguments, a kernel's own #pragma omp."""
from __future__ import annotations

import shutil
import subprocess

import pytest

import cl2c
from test_cli import CLI, cl2c_cli, compile_c

KERNEL = 'kernel void k(global int *p) { p[get_global_id(0)] = VALUE; }\n'


@pytest.mark.skipif(shutil.which("make") is None, reason="no make")
def test_dependency_file_names_make_reads_twice(tmp_path):
    odd = tmp_path / "in c$#lude"
    odd.mkdir()
    (odd / "val ue$x#.h").write_text("#define VALUE 7\n")
    (tmp_path / "k$ #.cl").write_text('#include "val ue$x#.h"\n' + KERNEL)
    cli = " ".join(CLI)
    (tmp_path / "Makefile").write_text(
        "all: k.c\n"
        f"k.c: k$$\\ \\#.cl\n"
        f"\t{cli} 'k$$ #.cl' -I 'in c$$#lude' -o k.c -MD -MF k.d\n"
        "-include k.d\n")

    def make():
        res = subprocess.run(["make"], cwd=tmp_path, capture_output=True, text=True,
                             timeout=120)
        assert res.returncode == 0, res.stdout + res.stderr
        return res.stdout

    assert "cl2c" in make()
    depfile = (tmp_path / "k.d").read_text()
    assert "val\\ ue$$x\\#.h" in depfile and "k$$\\ \\#.cl" in depfile, depfile
    assert "cl2c" not in make(), "the second make has nothing to do"
    import os
    import time
    header = odd / "val ue$x#.h"
    later = time.time() + 5
    os.utime(header, (later, later))
    assert "cl2c" in make(), "a changed header translates again"


@pytest.mark.parametrize("name", ['quo"te.cl', "new\nline.cl", "back\\slash.cl"])
def test_odd_file_names_keep_line_directives_valid(tmp_path, name, cc):
    (tmp_path / name).write_text(KERNEL.replace("VALUE", "1"))
    res = cl2c_cli(name, "-o", "out.c", cwd=tmp_path)
    assert res.returncode == 0, res.stderr
    compile_c(cc, tmp_path / "out.c", tmp_path, ["-Wall", "-Wextra", "-Werror"])
    # diagnostics name the file as it is, with its line and the caret
    (tmp_path / name).write_text("kernel void k(global int *p) { p[0] = 1 }\n")
    res = cl2c_cli(name, "-o", "out.c", cwd=tmp_path)
    assert res.returncode == 1
    assert res.stderr.startswith(f"{name}:1:41: error: "), res.stderr
    assert res.stderr.splitlines()[-1] == " " * 40 + "^", res.stderr


def test_odd_output_name_in_line_directive(tmp_path, cc):
    (tmp_path / "k.cl").write_text(KERNEL.replace("VALUE", "1"))
    res = cl2c_cli("k.cl", "-o", 'o"ut.c', cwd=tmp_path)
    assert res.returncode == 0, res.stderr
    assert '#line' in (tmp_path / 'o"ut.c').read_text()
    compile_c(cc, tmp_path / 'o"ut.c', tmp_path, ["-Wall", "-Wextra", "-Werror"])


def test_compiler_with_arguments(tmp_path, monkeypatch, cc):
    import numpy as np
    monkeypatch.setenv("CC", f"{cc} -m64")
    monkeypatch.setenv("CL2C_NO_CACHE", "1")
    prg = cl2c.Program(KERNEL.replace("VALUE", "5")).build()
    out = np.zeros(4, np.int32)
    prg.k((4,), None, out)
    assert out.tolist() == [5] * 4
    (tmp_path / "k.cl").write_text(KERNEL.replace("VALUE", "5"))
    res = cl2c_cli("--shared", "k.cl", "-o", "libk.so", cwd=tmp_path)
    assert res.returncode == 0, res.stderr


def test_shared_library_to_standard_output_is_refused(tmp_path):
    (tmp_path / "k.cl").write_text(KERNEL.replace("VALUE", "5"))
    res = cl2c_cli("--shared", "k.cl", "-o", "-", cwd=tmp_path)
    assert res.returncode == 2 and "standard output" in res.stderr
    assert not (tmp_path / "-").exists()


def test_a_kernels_pragma_omp_is_dropped_with_a_warning(tmp_path, cc):
    source = ("#pragma omp declare simd\nint f(int x) { return x; }\n"
              "kernel void k(global int *p) {\n"
              "  #pragma omp parallel for\n"
              "  for (int i = 0; i < 4; i++) p[i] = f(i);\n"
              "  #pragma unroll n\n"
              "  for (int i = 0; i < 4; i++) p[i] += i;\n}\n")
    (tmp_path / "omp.cl").write_text(source)
    res = cl2c_cli("omp.cl", "-o", "omp.c", cwd=tmp_path)
    assert res.returncode == 0, res.stderr
    warnings = [line for line in res.stderr.splitlines() if ": warning: " in line]
    assert warnings == [
        "omp.cl:1:9: warning: '#pragma omp' ignored: cl2c runs the work-items with OpenMP "
        "itself",
        "omp.cl:4:11: warning: '#pragma omp' ignored: cl2c runs the work-items with OpenMP "
        "itself",
        "omp.cl:6:11: warning: '#pragma unroll' takes an integer constant; pragma ignored"]
    c = (tmp_path / "omp.c").read_text()
    pragmas = [line.strip() for line in c.split("int cl2c_kernel_k")[0].splitlines()
               if line.strip().startswith("#pragma")]
    assert all(p == "#pragma omp simd" or p.startswith(("#pragma GCC diagnostic",
                                                           "#pragma clang diagnostic"))
               for p in pragmas), pragmas                      # lowering's own
    compile_c(cc, tmp_path / "omp.c", tmp_path, ["-Wall", "-Wextra", "-Werror"])
    res = cl2c_cli("omp.cl", "-o", "omp.c", "-Werror", cwd=tmp_path)
    assert res.returncode == 1
