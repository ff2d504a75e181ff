"""The C that cl2c writes compiles with no warning under GCC and clang at -O3 with
-Wall -Wextra, as a user who builds it into their own program would compile it. The
kernels are those that warned once: the classic tiled matmul without
reqd_work_group_size (GCC proved its 32-column tiles out of bounds) and `omp simd`
loops that clang cannot vectorise (calls, atomics; -Wpass-failed, on by default), and
unread_shapes.cl's: program-scope __constant variables nothing emitted reads (unused
static consts), kernels that read no work-item id (an interleaved copy's unused ids), an id that only
its guard reads (the regions schedule makes the guard its loop's bounds),
which still compute what PoCL does; the tiled matmul with reqd_work_group_size,
whose register tiles carry `#pragma clang loop` hints that GCC must not warn of; and the
naive matmul, whose tiles fill and read panels (workgroup/panels.py)."""
from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import numpy as np
import pytest

import cl2c
from cl2c.resources import runtime_include_dir
from conftest import kernel_source, run_pocl

BENCH = Path(__file__).resolve().parent.parent / "bench" / "kernels"
FILES = [("tests", "barriers.cl"), ("tests", "atomics.cl"), ("tests", "fission.cl"),
         ("tests", "unread_shapes.cl"),
         ("bench", "nbody.cl"), ("bench", "blackscholes.cl"), ("bench", "image_blur.cl"),
         ("bench", "tiled.cl"), ("bench", "matmul.cl")]


@pytest.mark.parametrize("compiler", ["gcc", "clang"])
@pytest.mark.parametrize("where,name", FILES)
@pytest.mark.parametrize("options", ["", "-cl2c-schedule=fibers"])
def test_no_warnings(compiler, where, name, options, tmp_path):
    if shutil.which(compiler) is None:
        pytest.skip(f"{compiler} is not installed (CI's .ci/run installs clang)")
    source = kernel_source(name) if where == "tests" else (BENCH / name).read_text()
    c_file = tmp_path / name.replace(".cl", ".c")
    c_file.write_text(cl2c.translate(source, name, options).c_source)
    proc = subprocess.run([compiler, "-std=c11", "-O3", "-fopenmp", "-Wall", "-Wextra",
                           f"-I{runtime_include_dir()}", "-c", str(c_file), "-o",
                           str(tmp_path / "k.o")], capture_output=True, text=True)
    assert proc.returncode == 0 and "warning:" not in proc.stderr, proc.stderr


# unread_shapes.cl's kernels: name, global size, local size, scalar arguments; 256
# work-items a launch without a local size are rows long enough to be interleaved
UNREAD_LAUNCHES = [("constants", 64, 16, ()), ("local_ids", 64, 16, ()),
                   ("local_ids_loop", 64, 16, (np.uint32(9),)),
                   ("group_ids", 64, 8, ()), ("group_ids_loop", 64, 8, (np.uint32(9),)),
                   ("no_ids", 256, None, (np.uint32(5),)),
                   ("no_ids_loop", 256, None, (np.uint32(5), np.uint32(9))),
                   ("sizes_only", 256, None, ()),
                   ("guard_only_id", 64, 16, (np.int32(50),))]


@pytest.mark.parametrize("options", ["", "-cl2c-schedule=regions", "-cl2c-schedule=fibers"])
@pytest.mark.parametrize("name,gsize,lsize,scalars", UNREAD_LAUNCHES,
                         ids=[x[0] for x in UNREAD_LAUNCHES])
def test_unread_shapes_as_pocl(name, gsize, lsize, scalars, options):
    source = kernel_source("unread_shapes.cl")
    ours, theirs = np.zeros(64, np.uint32), np.zeros(64, np.uint32)
    getattr(cl2c.Program(source, options).build(), name)(gsize, lsize, ours, *scalars)
    run_pocl(source, name, gsize, lsize, theirs, *scalars)
    assert theirs.any()
    np.testing.assert_array_equal(ours, theirs)
