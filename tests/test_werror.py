"""Every kernel under tests/kernels/ translates to C that compiles warning-free with
``cc -std=c11 -fopenmp -Wall -Wextra -Werror``, and with clang where it is installed
(clang warns about things GCC does not, such as unused static inline functions)."""
from __future__ import annotations

import glob
import re
import shutil
import subprocess

import pytest

import cl2c
from cl2c.resources import runtime_include_dir
from cl2c.target import RUNTIME_LINKED, RUNTIME_OBJECT
from conftest import KERNELS_DIR

KERNELS = sorted(KERNELS_DIR.glob("*.cl"))
# options a kernel needs to translate (the matrix kernels take DIM from the command line)
OPTIONS = {"matmul.cl": "-DDIM=64", "collectives.cl": "-cl-std=CL2.0",
           "program_globals.cl": "-cl-std=CL2.0", "subgroups.cl": "-cl-std=CL2.0",
           "atomics_c11.cl": "-cl-std=CL2.0", "generic_spaces.cl": "-cl-std=CL2.0"}


def test_kernels_found():
    assert len(KERNELS) >= 6


def find_clang() -> str | None:
    """``clang``, else the newest versioned one: Debian and Ubuntu install ``clang-15``
    and the like, or only ``/usr/lib/llvm-15/bin/clang``."""
    if shutil.which("clang"):
        return "clang"
    found = [(int(v), path) for v in range(30, 10, -1) if (path := shutil.which(f"clang-{v}"))]
    for path in glob.glob("/usr/lib/llvm-*/bin/clang"):
        m = re.search(r"llvm-(\d+)", path)
        if m:
            found.append((int(m.group(1)), path))
    return max(found)[1] if found else None


@pytest.fixture(params=["cc", "clang"])
def compiler(request, cc):
    if request.param == "cc":
        return cc
    clang = find_clang()
    if clang is None:
        pytest.skip("clang is not installed (optional: a second compiler's warnings)")
    probe = subprocess.run([clang, "-fopenmp", "-E", "-x", "c", "-"], input="#include <omp.h>\n",
                           capture_output=True, text=True)
    if probe.returncode != 0:
        pytest.skip(f"{clang} has no OpenMP headers (Debian: libomp-dev)")
    return clang


@pytest.mark.parametrize("path", KERNELS, ids=lambda p: p.name)
def test_generated_c_compiles_without_warnings(path, tmp_path, compiler):
    cc = compiler
    tr = cl2c.translate(path.read_text(encoding="utf-8"), str(path), OPTIONS.get(path.name))
    c_file = tmp_path / (path.stem + ".c")
    c_file.write_text(tr.c_source, encoding="utf-8")
    cmd = [cc, "-std=c11", "-fopenmp", "-Wall", "-Wextra", "-Werror",
           "-I", str(runtime_include_dir()), "-c", str(c_file), "-o", str(tmp_path / "k.o")]
    res = subprocess.run(cmd, capture_output=True, text=True)
    assert res.returncode == 0 and not res.stderr.strip(), (
        f"{' '.join(cmd)}\n{res.stderr}")


@pytest.mark.parametrize("schedule", ["regions", "fibers"])
def test_schedules_compile_without_warnings(schedule, tmp_path, compiler):
    """The barrier kernels under each schedule."""
    cc = compiler
    path = KERNELS_DIR / "barriers.cl"
    tr = cl2c.translate(path.read_text(encoding="utf-8"), str(path),
                        f"-cl2c-schedule={schedule}")
    c_file = tmp_path / "barriers.c"
    c_file.write_text(tr.c_source, encoding="utf-8")
    cmd = [cc, "-std=c11", "-fopenmp", "-Wall", "-Wextra", "-Werror",
           "-I", str(runtime_include_dir()), "-c", str(c_file), "-o", str(tmp_path / "k.o")]
    res = subprocess.run(cmd, capture_output=True, text=True)
    assert res.returncode == 0 and not res.stderr.strip(), f"{' '.join(cmd)}\n{res.stderr}"


@pytest.mark.parametrize("path", KERNELS, ids=lambda p: p.name)
def test_checking_builds_compile_without_warnings(path, tmp_path, cc):
    """Checking mode's instrumented C (-cl2c-check), optimised and linking the runtime's
    object as the loader builds it (the object's own warnings: the test below)."""
    opts = " ".join(filter(None, [OPTIONS.get(path.name), "-cl2c-check"]))
    tr = cl2c.translate(path.read_text(encoding="utf-8"), str(path), opts)
    c_file = tmp_path / (path.stem + ".c")
    c_file.write_text(tr.c_source, encoding="utf-8")
    cmd = [cc, "-std=c11", "-O2", "-fopenmp", "-Wall", "-Wextra", "-Werror", RUNTIME_LINKED,
           "-I", str(runtime_include_dir()), "-c", str(c_file), "-o", str(tmp_path / "k.o")]
    res = subprocess.run(cmd, capture_output=True, text=True)
    assert res.returncode == 0 and not res.stderr.strip(), f"{' '.join(cmd)}\n{res.stderr}"


@pytest.mark.parametrize("schedule,level", [("regions", "-O0"), ("fibers", "-O0"),
                                            ("fibers", "-O3")])
def test_the_runtime_compiled_apart_compiles_without_warnings(schedule, level, tmp_path,
                                                              compiler):
    """The Python loader's way (clruntime's linkage.h): the runtime's out-of-line code as
    an object of its own, and a kernels' file that links it; the library they make
    leaves nothing of the runtime undefined."""
    cc = compiler
    include = runtime_include_dir()
    path = KERNELS_DIR / "barriers.cl"
    tr = cl2c.translate(path.read_text(encoding="utf-8"), str(path),
                        f"-cl2c-schedule={schedule}")
    c_file = tmp_path / "barriers.c"
    c_file.write_text(tr.c_source, encoding="utf-8")
    flags = [cc, "-std=c11", level, "-fopenmp", "-fPIC", "-Wall", "-Wextra", "-Werror", "-I",
             str(include)]
    for cmd in ([*flags, RUNTIME_OBJECT, "-x", "c", "-c", str(include / "cl2c" / "cl2c.h"),
                 "-o", str(tmp_path / "runtime.o")],
                [*flags, RUNTIME_LINKED, "-c", str(c_file), "-o", str(tmp_path / "k.o")],
                [cc, "-shared", "-fopenmp", "-Wl,--no-undefined", str(tmp_path / "k.o"),
                 str(tmp_path / "runtime.o"), "-o", str(tmp_path / "k.so"), "-lm"]):
        res = subprocess.run(cmd, capture_output=True, text=True)
        assert res.returncode == 0 and not res.stderr.strip(), f"{' '.join(cmd)}\n{res.stderr}"
