"""The processes cl2c starts run the cl2c that started them, whatever the working
directory holds: the platform's build service, the optimised tier's build, the
precompiled header's job (cl2c/resources.py's module_command). `python -m` puts the
working directory first on sys.path, and a cl2c/ there (a checkout's, where `make run`
runs) won over the installed one: the platform then refused, as another cl2c's, the
binaries its own builds had made, and PyOpenCL's binary cache failed on them."""
from __future__ import annotations

import os
import subprocess
import sys
import time
import uuid
from pathlib import Path

import cl2c
from cl2c.resources import module_command

from icd_helpers import run_pyopencl

# the package under test's folder, for a child's PYTHONPATH
PACKAGE_PARENT = str(Path(cl2c.__file__).resolve().parent.parent)
WAIT_S = 180        # an -O3 compile on a busy 2-core machine


def decoy(folder: Path) -> Path:
    """``folder`` with a cl2c package of its own that cannot be imported."""
    (folder / "cl2c").mkdir(parents=True)
    (folder / "cl2c" / "__init__.py").write_text(
        'raise ImportError("the cl2c of the working directory, not the one under test")\n')
    return folder


def test_a_module_of_this_package_runs_from_any_folder(tmp_path):
    ran = subprocess.run(module_command("cl2c", "--version"), cwd=decoy(tmp_path),
                         capture_output=True, text=True, timeout=60)
    assert ran.returncode == 0, ran.stderr
    assert cl2c.__version__ in ran.stdout
    # (what `python -m` does there)
    wrong = subprocess.run([sys.executable, "-m", "cl2c", "--version"], cwd=tmp_path,
                           capture_output=True, text=True, timeout=60)
    assert "the cl2c of the working directory" in wrong.stderr


def test_the_platform_builds_with_its_own_cl2c(tmp_path):
    # a source no cache has seen: the build service runs
    source = (f"__kernel void twice(__global float *a) {{ /* {uuid.uuid4()} */\n"
              f"    a[get_global_id(0)] *= 2.0f; }}")
    got = run_pyopencl(f"""
ctx = cl.Context([device])
queue = cl.CommandQueue(ctx)
a = np.arange(16, dtype=np.float32)
buf = cl.Buffer(ctx, cl.mem_flags.READ_WRITE | cl.mem_flags.COPY_HOST_PTR, hostbuf=a)
prg = cl.Program(ctx, {source!r}).build()
prg.twice(queue, (16,), None, buf)
cl.enqueue_copy(queue, a, buf)
out(a.tolist())
""", env={"CL2C_CACHE_DIR": str(tmp_path / "cache")}, cwd=decoy(tmp_path / "work"))
    assert got == [2.0 * i for i in range(16)]


def test_the_optimised_tier_is_built_by_its_own_cl2c(tmp_path):
    cache = tmp_path / "cache"
    script = tmp_path / "script" / "build.py"       # (not in the working directory)
    script.parent.mkdir()
    script.write_text("import cl2c\n"
                      "p = cl2c.Program('__kernel void k(__global int *a) "
                      "{ a[get_global_id(0)] = 1; }').build()\n"
                      "print(p.tier)\n")
    env = dict(os.environ, CL2C_CACHE_DIR=str(cache), CL2C_TIER="auto",
               PYTHONPATH=PACKAGE_PARENT)
    env.pop("CL2C_NO_CACHE", None)
    first = subprocess.run([sys.executable, str(script)], cwd=decoy(tmp_path / "work"),
                           env=env, capture_output=True, text=True, timeout=WAIT_S)
    assert first.returncode == 0 and first.stdout.split() == ["fast"], first.stderr
    deadline = time.monotonic() + WAIT_S
    while len(list(cache.glob("_cl2c_*.so"))) < 2:     # the fast and the optimised
        assert time.monotonic() < deadline, "the optimised build never landed"
        time.sleep(0.1)
