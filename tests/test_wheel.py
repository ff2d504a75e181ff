"""Kernels compiled ahead of time: setup(cl2c_modules=...) and cl2c.load().

The slow test builds cl2c's wheel and the example package's wheel
(examples/python_package), installs both into a fresh virtual environment, hides
the C compiler and runs the kernels there, comparing with NumPy. The fresh
environment gets cl2c and the example only from their wheels; third-party
dependencies (numpy, cffi, setuptools, pip) come from the running environment
through a .pth file, so that the test needs no network and no downloads.
"""
from __future__ import annotations

import dataclasses
import json
import os
import shutil
import subprocess
import sys
import sysconfig
from pathlib import Path

import pytest

import cl2c
from cl2c import aot

ROOT = Path(__file__).resolve().parent.parent
EXAMPLE = ROOT / "examples" / "python_package"
CC = os.environ.get("CC", "cc")


# ---- the kernel description (fast: translation only) -----------------------------------

DESCRIBED = r"""
typedef struct Node { float4 v; __global struct Node *next; int tag[3]; } Node;
typedef struct { float4 v; int tag[3]; } Leaf;      /* by value: no pointer (6.9) */
typedef struct { Leaf first; char c; } Outer;
typedef union { int i; float f; } U;
enum Mode { MODE_A, MODE_B };
__kernel __attribute__((reqd_work_group_size(2, 2, 1)))
void k(__global Node *nodes, __constant float2 *c, __local uchar *l, U u, enum Mode m,
       long8 w, __global const void *raw, Outer o, __global Outer *os)
{
    nodes[0].tag[0] = u.i + (int)m + (int)w.s0 + (int)c[0].x + o.c + os[0].c;
    l[0] = 1;
}
__kernel void plain(__global float *x) { x[0] = 1.0f; }
"""


def test_kernel_description_round_trips_through_json():
    tr = cl2c.translate(DESCRIBED, "described.cl")
    meta = json.loads(json.dumps(aot.metadata(tr)))
    assert meta["format"] == aot.FORMAT and meta["cl2c"] == cl2c.__version__
    loaded = aot.kernels_from_metadata(meta)
    assert [k.name for k in loaded] == ["k", "plain"]
    assert loaded[0].reqd_work_group_size == (2, 2, 1)
    assert loaded[1].reqd_work_group_size is None
    from cl2c import types as ty
    for model, meta_k in zip(tr.kernels, loaded):
        assert len(model.args) == len(meta_k.args)
        for p, q in zip(model.args, meta_k.args):
            assert (p.name, p.kind, p.space, p.const, p.written, p.type_name) == \
                   (q.name, q.kind, q.space, q.const, q.written, q.type_name)
            assert str(p.type) == str(q.type)
            for a, b in ((p.type, q.type),) + (
                    ((p.type.pointee, q.type.pointee),) if isinstance(p.type, ty.Pointer)
                    else ()):
                # What marshalling reads: sizes and alignments (struct layouts included).
                assert (ty.type_size(a), ty.type_align(a)) == (ty.type_size(b), ty.type_align(b))
                assert type(a) is type(b)
    # The struct with a pointer to itself keeps its layout: 16 + 8 + 12 -> 48.
    nodes = loaded[0].args[0].type.pointee
    assert ty.type_size(nodes) == 48 and ty.type_align(nodes) == 16


def test_load_reports_what_is_wrong():
    with pytest.raises(ImportError, match=r"no module named 'cl2c_no_such_kernels'.*"
                                          r"cl2c_modules"):
        cl2c.load("cl2c_no_such_kernels")
    with pytest.raises(aot.LoadError, match="module 'json' holds no compiled kernels"):
        cl2c.load("json")


def test_setup_keyword_reports_bad_entries(tmp_path, monkeypatch):
    from setuptools import Distribution
    from setuptools.errors import CompileError, SetupError

    from cl2c.setuptools_hook import _spec, cl2c_modules, generate
    monkeypatch.chdir(tmp_path)
    with pytest.raises(SetupError, match="must be of the form 'path/to/file.cl:package.module'"):
        cl2c_modules(Distribution(), "cl2c_modules", ["kernels.cl"])
    with pytest.raises(SetupError, match="'missing.cl' does not name a file"):
        cl2c_modules(Distribution(), "cl2c_modules", "missing.cl:pkg.kernels")
    (tmp_path / "bad.cl").write_text("__kernel void k(__global float *x) {\n  x[0] = y;\n}\n")
    with pytest.raises(SetupError, match="'pkg.1x' is not a module name"):
        _spec("bad.cl:pkg.1x")

    dist = Distribution()
    cl2c_modules(dist, "cl2c_modules", [{"source": "bad.cl", "module": "pkg.kernels",
                                         "options": "-DN=4"}])
    (ext,) = dist.ext_modules
    assert ext.name == "pkg.kernels" and "-fopenmp" in ext.extra_compile_args
    assert not any(f.startswith("-march") for f in ext.extra_compile_args)
    # A kernel that does not translate: the compiler's kind of message, no traceback.
    with pytest.raises(CompileError, match=r"cannot translate bad.cl for module pkg.kernels"
                                           r":\nbad.cl:2:\d+: error: .*'y'"):
        generate(ext._cl2c_spec, str(tmp_path / "build"))


# ---- the wheel, in a fresh virtual environment without a compiler ----------------------

def _run(cmd, env, cwd=None):
    proc = subprocess.run([str(c) for c in cmd], capture_output=True, text=True, env=env,
                          cwd=cwd, timeout=600)
    assert proc.returncode == 0, f"{cmd}\n{proc.stdout}\n{proc.stderr}"
    return proc


def _copy_sources(dest: Path) -> None:
    """What cl2c's wheel is built from, without build leftovers."""
    dest.mkdir()
    ignore = shutil.ignore_patterns("__pycache__", "*.egg-info", "build", "*.so", "*.o")
    for name in ("pyproject.toml", "README.md"):
        shutil.copy2(ROOT / name, dest / name)
    for name in ("cl2c", "templates", "clruntime"):
        shutil.copytree(ROOT / name, dest / name, ignore=ignore)


CHECK = r"""
import dataclasses, json, os, shutil, sys
import numpy as np

# No C compiler anywhere on PATH.
for cc in ("cc", "gcc", "clang", "c99"):
    assert shutil.which(cc) is None, f"{cc} is on PATH: {shutil.which(cc)}"
import cl2c, cl2c_demo
for module in (cl2c, cl2c_demo):       # from the wheels, not from the checkout
    assert module.__file__.startswith(sys.prefix), module.__file__

rng = np.random.default_rng(5)
x = rng.standard_normal(1000).astype(np.float32)
y = rng.standard_normal(1000).astype(np.float32)
want = 2.5 * x + y
np.testing.assert_allclose(cl2c_demo.saxpy(2.5, x, y), want, rtol=1e-6)

v = rng.standard_normal(64).astype(np.float32)
want = 3.0 * v - 1.0
np.testing.assert_allclose(cl2c_demo.affine(v, 3.0, -1.0), want, rtol=1e-6)

a = rng.integers(-1000, 1000, size=(6, 12), dtype=np.int32)
np.testing.assert_array_equal(cl2c_demo.scaled_grid(a, 7), a * 7 + 8)

prg = cl2c.load("cl2c_demo.kernels")
assert isinstance(prg, cl2c.Program) and isinstance(prg.saxpy, cl2c.Kernel)
try:                                   # the launch checks of a built program
    prg.scaled_grid((12, 6), (3, 2), a, a.copy(), cl2c.LocalMemory(24), 1)
    raise AssertionError("a launch against reqd_work_group_size was accepted")
except cl2c.LaunchError as e:
    assert "work-group size" in str(e), e
try:
    prg.saxpy(4, None, np.zeros(6, np.uint8), np.zeros(4, np.float32), 1.0)
    raise AssertionError("6 bytes were accepted for float*")
except cl2c.KernelArgError as e:
    assert "not a whole number of float elements" in str(e), e
try:
    prg.saxpy(4, None, np.zeros(4, np.float64), np.zeros(4, np.float32), 1.0)
    raise AssertionError("a float64 array was accepted for float*")
except cl2c.KernelArgError as e:
    assert "a float64 array for `float*`" in str(e), e
prg.strict_buffers = True
try:
    prg.saxpy(4, None, np.zeros(4, np.float64), np.zeros(4, np.float32), 1.0)
    raise AssertionError("a float64 array was accepted for float* in strict mode")
except cl2c.KernelArgError as e:
    assert "expected dtype float32" in str(e), e

# It pickles as its module's name (and its strictness), and comes back the same.
import pickle
again = pickle.loads(pickle.dumps(prg))
assert again.strict_buffers is True and again.kernel_names == prg.kernel_names
out = np.zeros(4, np.float32)
again.saxpy(4, None, np.ones(4, np.float32), out, 2.0)
assert (out == 2).all(), out

# Neither the translator nor a compiler driver was imported.
for name in ("cl2c.pipeline", "cl2c.build", "pycparser", "pcpp", "setuptools"):
    assert name not in sys.modules, name
print(json.dumps({k.name: {"args": [dataclasses.asdict(a) for a in k.arg_info],
                           "reqd": k.reqd_work_group_size}
                  for k in prg.all_kernels()}))
"""


@pytest.mark.skipif(shutil.which(CC) is None,
                    reason=f"needs a C compiler ('{CC}' is not on PATH) to build the wheel")
def test_example_wheel_runs_in_a_fresh_venv_without_a_compiler(tmp_path):
    try:
        import setuptools
        if tuple(int(n) for n in setuptools.__version__.split(".")[:2]) < (70, 1):
            import wheel  # noqa: F401  (bdist_wheel of older setuptools)
    except ImportError as e:
        pytest.skip(f"building wheels without isolation needs setuptools (and wheel before "
                    f"setuptools 70.1): {e}; pip install '.[test]' installs them")
    build_env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
    build_env["PIP_DISABLE_PIP_VERSION_CHECK"] = "1"
    pip_opts = ["--no-deps", "--no-build-isolation", "--no-index", "--no-cache-dir", "-q"]
    wheels = tmp_path / "wheels"

    # cl2c's own wheel, from a copy of this checkout (an in-tree build would
    # leave build/ and *.egg-info behind).
    _copy_sources(tmp_path / "cl2c-src")
    _run([sys.executable, "-m", "pip", "wheel", *pip_opts, "-w", wheels,
          tmp_path / "cl2c-src"], build_env)

    # A fresh venv: cl2c from its wheel; numpy, cffi, setuptools and pip from
    # the running environment, after the venv's own site-packages.
    venv = tmp_path / "venv"
    _run([sys.executable, "-m", "venv", "--without-pip", venv], build_env)
    python = venv / "bin" / "python"
    purelib = _run([python, "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"],
                   build_env).stdout.strip()
    ours = {sysconfig.get_paths()["purelib"], sysconfig.get_paths()["platlib"]}
    (Path(purelib) / "_cl2c_test_dependencies.pth").write_text("\n".join(sorted(ours)) + "\n")
    install = [python, "-m", "pip", "install", "--ignore-installed", *pip_opts]
    _run([*install, *wheels.glob("cl2c-*.whl")], build_env)

    # The example's wheel, built by the venv's cl2c (its cl2c_modules keyword).
    shutil.copytree(EXAMPLE, tmp_path / "pkg", ignore=shutil.ignore_patterns("build", "*.so"))
    _run([python, "-m", "pip", "wheel", *pip_opts, "-w", wheels, tmp_path / "pkg"], build_env)
    (demo_wheel,) = wheels.glob("cl2c_demo-*.whl")
    assert not demo_wheel.name.endswith("-none-any.whl")    # it carries compiled code
    _run([*install, demo_wheel], build_env)

    # Run with no compiler on PATH, CC unset and an empty kernel cache.
    cache = tmp_path / "cache"
    cache.mkdir()
    run_env = {"PATH": str(venv / "bin"), "HOME": str(tmp_path), "OMP_NUM_THREADS": "2",
               "CL2C_CACHE_DIR": str(cache)}
    if "LD_LIBRARY_PATH" in os.environ:
        run_env["LD_LIBRARY_PATH"] = os.environ["LD_LIBRARY_PATH"]
    (tmp_path / "check.py").write_text(CHECK)
    out = _run([python, tmp_path / "check.py"], run_env, cwd=tmp_path).stdout
    loaded = json.loads(out.strip().splitlines()[-1])
    assert not any(cache.iterdir()), "the run compiled something into the kernel cache"

    # The same kernels as Program(...).build() makes from the .cl file.
    built = cl2c.Program.from_file(EXAMPLE / "cl2c_demo" / "kernels.cl").build()
    assert list(loaded) == built.kernel_names
    for k in built.all_kernels():
        assert loaded[k.name]["args"] == [dataclasses.asdict(a) for a in k.arg_info], k.name
        reqd = k.reqd_work_group_size
        assert loaded[k.name]["reqd"] == (list(reqd) if reqd else None), k.name


def test_every_package_is_installed():
    """pyproject.toml names cl2c's packages one by one: a new package folder missing
    there works from the source tree and is absent from every install."""
    import re
    root = Path(__file__).resolve().parent.parent
    block = re.search(r"^packages = \[(.*?)\]", (root / "pyproject.toml").read_text(),
                      re.S | re.M).group(1)
    listed = set(re.findall(r'"([\w.]+)"', block))
    found = {".".join(p.parent.relative_to(root).parts)
             for p in (root / "cl2c").rglob("__init__.py")}
    assert found - listed == set(), "packages missing from pyproject.toml"
