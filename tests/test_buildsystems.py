"""Kernels inside other people's builds: one program (examples/signal: main.c and
kernels/) built with CMake (examples/cmake_program, both generators), Make
(examples/make_program) and Meson (examples/meson_program).

Each test copies the build example and examples/signal side by side into a
temporary folder, builds it with a ``cl2c`` command that runs this checkout's cl2c,
runs the program and checks its output, builds again (nothing to do), touches the
header a kernel #includes (only that kernel is translated again), then edits the
header and sees the new result.
"""
from __future__ import annotations

import os
import re
import shlex
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

import cl2c

ROOT = Path(__file__).resolve().parent.parent
EXAMPLES = ROOT / "examples"
# The sources the three build examples share; their build files name ../signal.
SIGNAL = "signal"
CC = os.environ.get("CC", "cc")
# A venv's tools (meson and ninja from the test extra) when it is not activated.
VENV_BIN = str(Path(sys.executable).parent)

needs_cc = pytest.mark.skipif(shutil.which(CC) is None,
                              reason=f"needs a C compiler ('{CC}' is not on PATH)")


@pytest.fixture(scope="module")
def env(tmp_path_factory):
    """Environment whose PATH starts with a `cl2c` command for this checkout's cl2c."""
    bin_dir = tmp_path_factory.mktemp("cl2c-bin")
    package_parent = Path(cl2c.__file__).resolve().parent.parent
    script = bin_dir / "cl2c"
    script.write_text("#!/bin/sh\n"
                      f"PYTHONPATH={shlex.quote(str(package_parent))}"
                      '${PYTHONPATH:+:$PYTHONPATH} '
                      f'exec {shlex.quote(sys.executable)} -m cl2c.cli "$@"\n')
    script.chmod(0o755)
    path = os.pathsep.join([str(bin_dir), os.environ.get("PATH", ""), VENV_BIN])
    return dict(os.environ, PATH=path, OMP_NUM_THREADS="2")


def _tool(name: str, env: dict) -> str | None:
    return shutil.which(name, path=env["PATH"])


def _run(cmd, env, cwd=None, check=True) -> subprocess.CompletedProcess:
    proc = subprocess.run([str(c) for c in cmd], capture_output=True, text=True, env=env,
                          cwd=cwd, timeout=300)
    if check:
        assert proc.returncode == 0, (f"{shlex.join(map(str, cmd))} failed:\n"
                                      f"{proc.stdout}\n{proc.stderr}")
    return proc


def _copy_example(name: str, tmp_path: Path) -> tuple[Path, Path]:
    """Copy examples/NAME and the shared examples/signal side by side into ``tmp_path``
    (the build files refer to ../signal); return both copies."""
    src, sources = tmp_path / name, tmp_path / SIGNAL
    for copy in (src, sources):
        shutil.copytree(EXAMPLES / copy.name, copy,
                        ignore=shutil.ignore_patterns("build*", "*.o"))
    return src, sources


def check_signal(out: str, weight_sum: int) -> None:
    """The output of examples/signal/main.c."""
    lines = out.splitlines()
    assert lines[0] == "OpenMP threads: 2", out            # OMP_NUM_THREADS
    assert lines[1] == ("kernel saxpy(__global const float* x, __global float* y, "
                        "const float a) from saxpy.cl"), out
    assert lines[2] == ("kernel smooth(__global const int* in, __global int* out, "
                        "const int n) from smooth.cl"), out
    assert lines[3] == "saxpy: 1000 elements OK", out
    w = weight_sum
    assert lines[4] == (f"smooth: out[0..4] = 1 {w} {2 * w} {3 * w} {4 * w}, "
                        f"weight sum {w}: OK"), out
    assert lines[5].startswith("invalid launch rejected: invalid work-group size"), out
    assert ("(error -54): kernel 'saxpy': local size 7 does not divide global size 1000 "
            "in dimension 0") in lines[5], out
    assert lines[6] == "all OK", out


def _make_newer(path: Path, than: Path) -> None:
    """Give ``path`` an mtime newer than every file under ``than``."""
    newest = max(p.stat().st_mtime_ns for p in than.rglob("*") if p.is_file())
    stamp = max(path.stat().st_mtime_ns, newest + 10_000_000)
    os.utime(path, ns=(stamp, stamp))


def exercise(build, run, build_dir: Path, generated: Path, program: Path, sources: Path):
    """Build, run, rebuild after touching and after editing the shared
    ``sources``/kernels/weights.h (the copy of examples/signal the build uses)."""
    build()
    check_signal(run(), 4)

    def stamps():
        return {p: p.stat().st_mtime_ns for p in
                (generated / "saxpy.c", generated / "smooth.c", program)}

    before = stamps()
    build()
    assert stamps() == before, "a second build did work"

    header = sources / "kernels" / "weights.h"
    _make_newer(header, build_dir)
    build()
    after = stamps()
    assert after[generated / "smooth.c"] > before[generated / "smooth.c"], \
        "touching weights.h did not translate smooth.cl again"
    assert after[generated / "saxpy.c"] == before[generated / "saxpy.c"], \
        "touching weights.h translated saxpy.cl, which does not include it"
    assert after[program] > before[program]

    header.write_text(header.read_text().replace("CENTER_WEIGHT 2", "CENTER_WEIGHT 3"))
    _make_newer(header, build_dir)
    build()
    check_signal(run(), 5)


# ---- the kernels' C compiled as Program.build compiles it -----------------------------

def _kernel_commands(commands_json: Path) -> list[list[str]]:
    """The compile commands of the generated saxpy.c and smooth.c, from a
    compile_commands.json."""
    import json
    entries = json.loads(commands_json.read_text())
    got = [shlex.split(e["command"]) if "command" in e else e["arguments"] for e in entries
           if Path(e["file"]).name in ("saxpy.c", "smooth.c")]
    assert len(got) == 2, entries
    return got


def assert_compiled_as_the_python_route(commands: list[list[str]], env, native: bool):
    """Each command has every flag of `cl2c --cflags` (-O3, vector math, ...), -O3 the
    last -O (whatever the build type put before it), -march=native only if native."""
    kind = "native" if native else "portable"
    flags = shlex.split(_run(["cl2c", f"--cflags={kind}"], dict(env, CC=CC)).stdout)
    assert "-O3" in flags and "-DCL2C_VECTOR_MATH" in flags and \
        ("-march=native" in flags) == native, flags
    for cmd in commands:
        missing = [f for f in flags if f not in cmd and f != "-fopenmp"]
        assert not missing, (missing, cmd)
        assert [f for f in cmd if f.startswith("-O")][-1] == "-O3", cmd
        assert ("-march=native" in cmd) == native, cmd


@needs_cc
@pytest.mark.parametrize("build_type", [None, "Debug"])
@pytest.mark.parametrize("native", [True, False])
def test_cmake_compiles_kernels_optimised(build_type, native, env, tmp_path):
    cmake = _tool("cmake", env)
    if cmake is None:
        pytest.skip("cmake is not installed")
    src, _ = _copy_example("cmake_program", tmp_path)
    build_dir = tmp_path / "build"
    cmakedir = _run(["cl2c", "--cmakedir"], env).stdout.strip()
    options = [f"-DCMAKE_BUILD_TYPE={build_type}"] if build_type else []
    options += [] if native else ["-DCL2C_NATIVE=OFF"]
    _run([cmake, "-S", src, "-B", build_dir, "-G", "Unix Makefiles",
          f"-DCMAKE_C_COMPILER={shutil.which(CC)}", f"-Dcl2c_DIR={cmakedir}",
          "-DCMAKE_EXPORT_COMPILE_COMMANDS=ON", *options], env)
    assert_compiled_as_the_python_route(
        _kernel_commands(build_dir / "compile_commands.json"), env, native)


@needs_cc
@pytest.mark.parametrize("native", [True, False])
def test_make_compiles_kernels_optimised(native, env, tmp_path):
    make = _tool("make", env)
    if make is None:
        pytest.skip("make is not installed")
    src, _ = _copy_example("make_program", tmp_path)
    out = _run([make, "-n", "-C", src, f"CC={CC}", f"CL2C_NATIVE={int(native)}"], env).stdout
    commands = [shlex.split(line) for line in out.splitlines()
                if re.search(r"-c -o build/(saxpy|smooth)\.o", line)]
    assert len(commands) == 2, out
    assert_compiled_as_the_python_route(commands, env, native)


@needs_cc
@pytest.mark.parametrize("native", [True, False])
def test_meson_compiles_kernels_optimised(native, env, tmp_path):
    meson = _meson(env)
    src, _ = _copy_example("meson_program", tmp_path)
    build_dir = tmp_path / "build"
    _run([meson, "setup", build_dir, src, f"-Dcl2c_native={str(native).lower()}"],
         dict(env, CC=CC))
    assert_compiled_as_the_python_route(
        _kernel_commands(build_dir / "compile_commands.json"), env, native)


# ---- CMake ------------------------------------------------------------------------------

def test_cmakedir_holds_the_package(env):
    out = _run([sys.executable, "-m", "cl2c.cli", "--cmakedir"], env).stdout.strip()
    cmakedir = Path(out)
    for name in ("cl2cConfig.cmake", "cl2cConfigVersion.cmake", "Findcl2c.cmake",
                 "cl2c.cmake"):
        assert (cmakedir / name).is_file(), name
    # The `cmake.module` / `cmake.root` entry points name this package; build
    # backends take its folder with importlib.resources, as scikit-build-core does.
    # (Only an installed cl2c has it: a source checkout maps clruntime/ at install.)
    import importlib
    import importlib.resources
    try:
        package = importlib.import_module("cl2c.clruntime.cmake")
    except ModuleNotFoundError:
        package = None
    if package is not None:
        folder = importlib.resources.files(package)
        assert Path(str(folder)).resolve() == cmakedir.resolve()
    try:
        import tomllib
    except ImportError:       # Python 3.10
        return
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    for group in ("cmake.module", "cmake.root"):
        assert project["entry-points"][group] == {"cl2c": "cl2c.clruntime.cmake"}


@needs_cc
@pytest.mark.parametrize("generator,tool", [("Unix Makefiles", "make"), ("Ninja", "ninja")])
def test_cmake_example(generator, tool, env, tmp_path):
    cmake = _tool("cmake", env)
    if cmake is None:
        pytest.skip("cmake is not installed")
    if _tool(tool, env) is None:
        pytest.skip(f"{tool} is not installed (needed by the {generator} generator)")
    src, sources = _copy_example("cmake_program", tmp_path)
    build_dir = tmp_path / "build"
    cmakedir = _run(["cl2c", "--cmakedir"], env).stdout.strip()
    _run([cmake, "-S", src, "-B", build_dir, "-G", generator, f"-Dcl2c_DIR={cmakedir}"], env)
    exercise(build=lambda: _run([cmake, "--build", build_dir], env),
             run=lambda: _run([build_dir / "signal"], env).stdout,
             build_dir=build_dir, generated=build_dir / "cl2c" / "signal",
             program=build_dir / "signal", sources=sources)


@needs_cc
def test_cmake_module_mode_and_clear_errors(env, tmp_path):
    cmake = _tool("cmake", env)
    if cmake is None:
        pytest.skip("cmake is not installed")
    cmakedir = _run(["cl2c", "--cmakedir"], env).stdout.strip()
    project = tmp_path / "project"
    project.mkdir()
    (project / "main.c").write_text("int main(void) { return 0; }\n")

    # Module mode (Findcl2c.cmake on CMAKE_MODULE_PATH, as scikit-build-core's
    # cmake.module entry point sets it), and a missing kernel file.
    (project / "CMakeLists.txt").write_text(
        "cmake_minimum_required(VERSION 3.20)\n"
        "project(p LANGUAGES C)\n"
        "find_package(cl2c REQUIRED)\n"
        'message(STATUS "cl2c version ${cl2c_VERSION}")\n'
        "add_executable(app main.c)\n"
        "cl2c_add_kernels(app kernels/missing.cl)\n")
    proc = _run([cmake, "-S", project, "-B", tmp_path / "b1",
                 f"-DCMAKE_MODULE_PATH={cmakedir}"], env, check=False)
    out = proc.stdout + proc.stderr
    assert proc.returncode != 0, out
    assert f"cl2c version {cl2c.__version__}" in out, out
    assert "cl2c_add_kernels(app): no such file:" in out and "kernels/missing.cl" in out, out

    # Config mode asks for a version: a newer major one is refused, by version.
    (project / "CMakeLists.txt").write_text(
        "cmake_minimum_required(VERSION 3.20)\n"
        "project(p LANGUAGES C)\n"
        "find_package(cl2c 99 CONFIG REQUIRED)\n")
    proc = _run([cmake, "-S", project, "-B", tmp_path / "b2", f"-Dcl2c_DIR={cmakedir}"],
                env, check=False)
    out = proc.stdout + proc.stderr
    assert proc.returncode != 0, out
    assert re.search(rf"version:?\s+{re.escape(cl2c.__version__)}", out), out


# ---- Make -------------------------------------------------------------------------------

@needs_cc
def test_make_example(env, tmp_path):
    make = _tool("make", env)
    if make is None:
        pytest.skip("make is not installed")
    src, sources = _copy_example("make_program", tmp_path)
    build_dir = src / "build"
    exercise(build=lambda: _run([make, "-C", src], env),
             run=lambda: _run([build_dir / "signal"], env).stdout,
             build_dir=build_dir, generated=build_dir, program=build_dir / "signal",
             sources=sources)


# ---- Meson ------------------------------------------------------------------------------

def _meson(env) -> str:
    """meson's path, where it and ninja are installed; else the test is skipped."""
    meson = _tool("meson", env)
    if meson is None:
        pytest.skip("meson is not installed (the test extra installs it: pip install '.[test]')")
    if _tool("ninja", env) is None:
        pytest.skip("ninja is not installed (the test extra installs it: pip install '.[test]')")
    return meson


@needs_cc
def test_meson_example(env, tmp_path):
    meson = _meson(env)
    src, sources = _copy_example("meson_program", tmp_path)
    build_dir = tmp_path / "build"
    _run([meson, "setup", build_dir, src], env)
    exercise(build=lambda: _run([meson, "compile", "-C", build_dir], env),
             run=lambda: _run([build_dir / "signal"], env).stdout,
             build_dir=build_dir, generated=build_dir, program=build_dir / "signal",
             sources=sources)
