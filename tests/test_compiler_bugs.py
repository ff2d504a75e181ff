"""Miscompilations found in the C compilers cl2c drives, each as a small C program of
the shape cl2c emits (tests/compiler_bugs/): compiled with the flags cl2c compiles
kernels with, it must compute the right answer, which is what cl2c's flags (target.py)
are chosen to ensure. The kernels that met each bug are tested where their feature is
(test_check_private_init.py for the first)."""
from __future__ import annotations

import subprocess
from pathlib import Path

import pytest

from cl2c.cache import host_target

pytestmark = pytest.mark.optimised      # what the optimiser makes of cl2c's C

PROGRAMS = sorted((Path(__file__).parent / "compiler_bugs").glob("*.c"))


@pytest.mark.parametrize("program", PROGRAMS, ids=[p.stem for p in PROGRAMS])
def test_right_answer_with_cl2c_flags(program, tmp_path):
    target = host_target()
    exe = tmp_path / program.stem
    flags = [f for f in target.compile_flags() if f != "-Werror=implicit-function-declaration"]
    subprocess.run([*target.cc, *target.env_cflags, *flags, str(program), "-o", str(exe),
                    *target.env_ldflags, *target.link_flags()], check=True)
    run = subprocess.run([str(exe)], capture_output=True, text=True, timeout=60)
    assert run.returncode == 0, f"{program.name} under {target.version.splitlines()[0]}: " \
                                f"{run.stdout}{run.stderr}"
