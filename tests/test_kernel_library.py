"""A program's library as the loader opens and calls it (cl2c/kernel_library.py)."""
from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import numpy as np

import cl2c
from cl2c import kernel_library
from cl2c.resources import runtime_include_dir

PACKAGE = Path(kernel_library.__file__).resolve().parent


def test_the_abi_module_is_what_host_h_gives(tmp_path):
    """cl2c/_abi.py is generated from cl2c_range in host.h: written again, it is the
    same file (else: python -m cl2c.kernel_library cl2c/_abi.py)."""
    fresh = tmp_path / "_abi.py"
    kernel_library.generate(str(fresh))
    assert fresh.read_text() == (PACKAGE / "_abi.py").read_text()


def test_the_ffi_lays_out_the_range_as_the_c_compiler_does():
    """The offsets the loader packs a launch's range at, against the C compiler's."""
    ffi = kernel_library.ffi()
    fields = ("work_dim", "global_size", "local_size", "global_offset", "globals",
              "group_first", "group_count")
    # the compiler's view, from a C file of the runtime's header
    src = runtime_include_dir()
    probe = "#include <stddef.h>\n#include <stdio.h>\n#include <cl2c/host.h>\nint main(void){" + \
        "printf(\"%zu\", sizeof(cl2c_range));" + \
        "".join(f"printf(\" %zu\", offsetof(cl2c_range, {f}));" for f in fields) + "}"
    exe = Path(os.environ.get("TMPDIR", "/tmp")) / f"cl2c-range-{os.getpid()}"
    c = exe.with_suffix(".c")
    c.write_text(probe)
    try:
        subprocess.run(["cc", "-std=c11", "-fopenmp", f"-I{src}", str(c), "-o", str(exe)],
                       check=True, capture_output=True)
        got = [int(x) for x in subprocess.run([str(exe)], capture_output=True, text=True,
                                              check=True).stdout.split()]
    finally:
        for p in (c, exe):
            p.unlink(missing_ok=True)
    assert got == [ffi.sizeof("cl2c_range")] + [ffi.offsetof("cl2c_range", f) for f in fields]


def test_programs_of_one_process_each_run_their_own_library():
    """Libraries loaded one after the other, each kernel named k: each program runs its
    own (dlopen answers a path it opened before with that library, whatever file is
    there now)."""
    programs = [cl2c.Program(f"kernel void k(global int *a) {{ a[get_global_id(0)] = {i}; }}")
                .build() for i in range(5)]
    for i, prg in enumerate(programs):
        a = np.full(8, -1, np.int32)
        prg.k((8,), None, a)
        assert (a == i).all(), (i, a)
    assert len({id(p._module) for p in programs}) == 5


HIT = """
import json, sys, cl2c
src = "kernel void k(global float *a) { a[get_global_id(0)] *= 2.0f; }"
cl2c.Program(src).build()
import numpy as np
a = np.ones(4, np.float32)
cl2c.Program(src).build().k((4,), None, a)
print(json.dumps({"parser": sorted(m for m in sys.modules if m.split(".")[0] in
                  ("pycparser", "pycparserext", "jinja2")), "a": a.tolist()}))
"""


def test_a_cache_hit_parses_no_c(tmp_path):
    """A new process that finds its program in the cache imports no C parser: neither
    the translator's nor cffi's (the loader's FFI is generated ahead, cl2c/_abi.py)."""
    env = dict(os.environ, CL2C_CACHE_DIR=str(tmp_path), PYTHONPATH=str(PACKAGE.parent),
               CL2C_TIER="optimised")
    subprocess.run([sys.executable, "-c", HIT], env=env, check=True, capture_output=True)
    out = subprocess.run([sys.executable, "-c", HIT], env=env, check=True,
                         capture_output=True, text=True).stdout
    result = json.loads(out)
    assert result == {"parser": [], "a": [2.0] * 4}
