"""A cold build's two tiers (cl2c/tiers.py): the kernels run at once on the fast library
(-O0), and on the optimised one (-O3) from a launch after its build in the background is
done; the optimised library lands in the cache even where the script ended first."""
from __future__ import annotations

import dataclasses
import hashlib
import os
import subprocess
import sys
import time
from pathlib import Path

import numpy as np
import pytest

import cl2c
from cl2c import tiers
from cl2c.binary import ProgramBinary, compile_binary
from cl2c.cache import host_target

ROOT = Path(__file__).resolve().parent.parent

# A program-scope variable (OpenCL C 2.0) that every launch counts in: the two tiers'
# libraries share its storage, so the count goes on across the change of library.
SOURCE = """
global int launches = 0;
kernel void saxpy(global float *y, global const float *x, float a, global int *count) {
    size_t i = get_global_id(0);
    y[i] = a * x[i] + y[i];
    if (i == 0)
        *count = ++launches;
}
"""
OPTIONS = "-cl-std=CL2.0"
WAIT_S = 180        # for an -O3 compile on a busy 2-core machine


@pytest.fixture
def cold(tmp_path, monkeypatch):
    """An empty kernel cache of this test's own, and tiers as users get them."""
    monkeypatch.setenv("CL2C_CACHE_DIR", str(tmp_path / "cache"))
    monkeypatch.setenv("CL2C_TIER", "auto")
    monkeypatch.delenv("CL2C_NO_CACHE", raising=False)
    monkeypatch.delenv("CL2C_CHECK", raising=False)
    return tmp_path / "cache"


def _launch(prg, y, x, count):
    prg.saxpy((y.size,), None, y, x, np.float32(2), count)


def test_a_cold_build_runs_fast_then_on_the_optimised_library(cold):
    prg = cl2c.Program(SOURCE, OPTIONS).build()
    assert prg.tier == "fast" and prg._upgrade is not None
    n = 1000
    x = np.arange(n, dtype=np.float32)
    y = np.zeros(n, np.float32)
    count = np.zeros(1, np.int32)
    launches = 0
    fast_module = prg._module
    deadline = time.monotonic() + WAIT_S
    while prg.tier == "fast":
        assert time.monotonic() < deadline, "the optimised build never finished"
        _launch(prg, y, x, count)
        launches += 1
        time.sleep(0.02)
    assert prg._module is not fast_module
    for _ in range(3):                      # on the optimised library
        _launch(prg, y, x, count)
        launches += 1
    assert count[0] == launches             # one program-scope variable throughout
    np.testing.assert_array_equal(y, np.float32(2 * launches) * x)
    again = cl2c.Program(SOURCE, OPTIONS).build()   # the optimised library, cached
    assert again.tier == "optimised" and again.from_cache and again._upgrade is None


def test_the_optimised_build_outlives_the_script_that_started_it(cold):
    script = ("import cl2c, sys; p = cl2c.Program(sys.argv[1], sys.argv[2]).build(); "
              "print(p.tier, p.from_cache)")
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    first = subprocess.run([sys.executable, "-c", script, SOURCE, OPTIONS], env=env,
                           capture_output=True, text=True, timeout=WAIT_S)
    assert first.returncode == 0, first.stderr
    assert first.stdout.split() == ["fast", "False"]
    deadline = time.monotonic() + WAIT_S
    # the fast and the optimised library, each with its checksum
    while len(list(cold.glob("_cl2c_*.so"))) < 2:
        assert time.monotonic() < deadline, "the optimised build never landed"
        time.sleep(0.1)
    time.sleep(0.5)                         # its manifest is written after the library
    second = subprocess.run([sys.executable, "-c", script, SOURCE, OPTIONS], env=env,
                            capture_output=True, text=True, timeout=WAIT_S)
    assert second.stdout.split() == ["optimised", "True"], second.stderr


def test_a_binary_carries_the_optimised_library(cold):
    prg = cl2c.Program(SOURCE, OPTIONS).build()
    assert prg.tier == "fast"
    data = prg.to_bytes()                   # waits for the optimised build
    assert prg.tier == "optimised"
    loaded = cl2c.Program.from_bytes(data)
    assert loaded._module.__name__ == prg._module.__name__
    y, x, count = np.ones(8, np.float32), np.ones(8, np.float32), np.zeros(1, np.int32)
    _launch(loaded, y, x, count)
    np.testing.assert_array_equal(y, np.full(8, 3, np.float32))


@pytest.mark.parametrize("tier, options, expected", [
    ("optimised", OPTIONS, "optimised"),           # waits for -O3
    ("fast", OPTIONS, "fast"),                     # -O0 for good
    ("auto", OPTIONS + " -cl-opt-disable", "fast"),   # asked to be unoptimised
    ("auto", OPTIONS + " -cl2c-check", "optimised"),  # checking builds are not tiered
])
def test_builds_that_are_not_tiered(cold, monkeypatch, tier, options, expected):
    monkeypatch.setenv("CL2C_TIER", tier)
    prg = cl2c.Program(SOURCE, options).build()
    assert prg.tier == expected and prg._upgrade is None
    y, x, count = np.ones(8, np.float32), np.ones(8, np.float32), np.zeros(1, np.int32)
    _launch(prg, y, x, count)
    np.testing.assert_array_equal(y, np.full(8, 3, np.float32))


def test_an_embedded_python_waits_for_the_optimised_library(cold, monkeypatch):
    monkeypatch.setattr(sys, "executable", "/usr/bin/blender")    # not a Python to start
    prg = cl2c.Program(SOURCE, OPTIONS).build()
    assert prg.tier == "optimised" and prg._upgrade is None


def test_an_unknown_tier_is_warned_about(monkeypatch):
    monkeypatch.setenv("CL2C_TIER", "quick")
    with pytest.warns(UserWarning, match="CL2C_TIER='quick' is none of auto, fast, "
                                         "optimised"):
        assert tiers.mode() == tiers.AUTO


def test_a_failed_optimised_build_leaves_the_fast_tier_running(cold, tmp_path,
                                                              monkeypatch):
    cc = tmp_path / "cc-without-O3"
    cc.write_text('#!/bin/sh\ncase " $* " in *" -O3 "*) echo "no -O3 here" >&2; exit 1;; '
                  'esac\nexec cc "$@"\n')
    cc.chmod(0o755)
    monkeypatch.setenv("CC", str(cc))
    prg = cl2c.Program(SOURCE, OPTIONS).build()
    assert prg.tier == "fast"
    with pytest.warns(cl2c.BuildWarning, match="(?s)the optimised build failed.*no -O3 here"):
        prg.wait_optimised()
    assert prg.tier == "fast" and prg._upgrade is None
    y, x, count = np.ones(8, np.float32), np.ones(8, np.float32), np.zeros(1, np.int32)
    _launch(prg, y, x, count)
    np.testing.assert_array_equal(y, np.full(8, 3, np.float32))


@pytest.mark.parametrize("tier", ["fast", "optimised"])
def test_the_platforms_binaries_are_optimised_but_under_fast(cold, monkeypatch, tier):
    """The build service (the OpenCL platform's builds) is not tiered: -O3, or -O0 where
    CL2C_TIER=fast asks for it (the test suite)."""
    monkeypatch.setenv("CL2C_TIER", tier)
    data, _ = compile_binary("kernel void k(global int *a) { *a = 1; }",
                             libraries=("shared",))
    level = dataclasses.replace(host_target(), optimise=tier != "fast")
    assert ProgramBinary.decode(data).info["target"] == \
        hashlib.sha256(level.identity().encode()).hexdigest()[:32]
