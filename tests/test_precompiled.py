"""The runtime's header precompiled for GCC in the kernel cache (cl2c/precompiled.py):
made in the background once the cache holds a few libraries, then taken by GCC in the next builds'
compiles (it says so under -H), and a damaged one costs nothing but itself."""
from __future__ import annotations

import shlex
import subprocess
import time

import numpy as np
import pytest

import cl2c
from cl2c import precompiled
from cl2c.cache import host_target

pytestmark = pytest.mark.skipif(not host_target().gcc,
                                reason="only GCC looks for a precompiled header (.gch) "
                                       "beside an included one; the C compiler here is not GCC")

WAIT_S = 120


def _kernel(n: int) -> str:
    return f"kernel void k{n}(global float *a) {{ a[get_global_id(0)] *= {n}; }}"


def _run(prg, n):
    a = np.ones(16, np.float32)
    getattr(prg, f"k{n}")((16,), None, a)
    np.testing.assert_array_equal(a, np.full(16, n, np.float32))


@pytest.fixture
def logged(tmp_path, monkeypatch):
    """An empty cache of this test's own, and a C compiler that logs its commands."""
    log = tmp_path / "calls"
    wrapper = tmp_path / "logging-cc"
    cc = " ".join(shlex.quote(c) for c in host_target().cc)
    wrapper.write_text(f'#!/bin/sh\necho "$*" >> "{log}"\nexec {cc} "$@"\n')
    wrapper.chmod(0o755)
    monkeypatch.setenv("CC", str(wrapper))
    monkeypatch.setenv("CL2C_CACHE_DIR", str(tmp_path / "cache"))
    monkeypatch.setenv("CL2C_TIER", "fast")
    monkeypatch.delenv("CL2C_NO_CACHE", raising=False)
    monkeypatch.setattr(precompiled, "IN_USE", 1)       # from the second build on
    _run(cl2c.Program(_kernel(1)).build(), 1)
    return tmp_path / "cache", log


def _wait_for_header(cache):
    deadline = time.monotonic() + WAIT_S
    while not list(cache.glob("pch-*/cl2c/cl2c.h.gch")):
        assert time.monotonic() < deadline, "the precompiled header was never made"
        time.sleep(0.1)
    return list(cache.glob("pch-*"))[0]


def _kernels_compile(log) -> list[str]:
    """The last compile of a kernels' file (not a header's)."""
    lines = [line for line in log.read_text().splitlines()
             if " -shared " in line and "c-header" not in line]
    return shlex.split(lines[-1])


def test_the_next_builds_compile_with_the_precompiled_header(logged):
    cache, log = logged
    _run(cl2c.Program(_kernel(2)).build(), 2)
    first = _kernels_compile(log)
    assert not any("pch-" in arg for arg in first)      # none yet: not waited for
    folder = _wait_for_header(cache)
    _run(cl2c.Program(_kernel(3)).build(), 3)
    command = _kernels_compile(log)
    assert f"-I{folder}" in command
    # GCC marks a precompiled header it uses with "!" under -H (and an invalid one "x")
    # its file was in a build folder that is gone; the cache keeps the generated C
    source = next(i for i, arg in enumerate(command) if arg.endswith(".c"))
    command[source] = str(cache / command[source].rsplit("/", 1)[1])
    out = command.index("-o")
    probe = [*host_target().cc, *command[:out], "-H", "-o", "/dev/null", *command[out + 2:]]
    said = subprocess.run(probe, capture_output=True, text=True).stderr
    assert f"! {folder}/cl2c/cl2c.h.gch" in said, said[:2000]


def test_a_damaged_precompiled_header_costs_nothing_but_itself(logged):
    cache, _ = logged
    _run(cl2c.Program(_kernel(4)).build(), 4)
    folder = _wait_for_header(cache)
    gch = folder / "cl2c" / "cl2c.h.gch"
    data = bytearray(gch.read_bytes())
    data[len(data) // 2:len(data) // 2 + 4096] = b"\xa5" * 4096
    gch.write_bytes(bytes(data))
    _run(cl2c.Program(_kernel(5)).build(), 5)
    # GCC stops at it (the build then compiles without it, and removes it) or reads the
    # header instead
    gch.parent.mkdir(parents=True, exist_ok=True)
    gch.write_bytes(b"not a precompiled header")
    _run(cl2c.Program(_kernel(6)).build(), 6)


def test_a_throwaway_cache_gets_no_precompiled_header(tmp_path, monkeypatch):
    monkeypatch.setenv("CL2C_CACHE_DIR", str(tmp_path / "cache"))
    monkeypatch.setenv("CL2C_TIER", "fast")
    monkeypatch.delenv("CL2C_NO_CACHE", raising=False)
    for n in range(2, 2 + precompiled.IN_USE):
        _run(cl2c.Program(_kernel(n)).build(), n)
    assert not list((tmp_path / "cache").glob("pch-*"))
    _run(cl2c.Program(_kernel(99)).build(), 99)     # in a cache of IN_USE libraries
    assert list((tmp_path / "cache").glob("pch-*"))
