"""The runtime compiled ahead in the kernel cache (cl2c/precompiled.py): its out-of-line
code as an object, compiled by a cache's first build beside its kernels' file, and its
header precompiled for GCC, made in the background once the cache holds a few libraries;
the next builds link the object (their kernels still run, fault and wait at barriers as
before) and GCC takes the header (it says so under -H); a damaged one costs nothing but
itself."""
from __future__ import annotations

import shlex
import subprocess
import sys
import time

import numpy as np
import pytest

import cl2c
from cl2c import cachedir, precompiled
from cl2c.cache import host_target
from cl2c.target import RUNTIME_LINKED, RUNTIME_OBJECT
from compiler_log import logging_compiler

gcc_only = pytest.mark.skipif(not host_target().gcc,
                              reason="only GCC looks for a precompiled header (.gch) beside "
                                     "an included one; the C compiler here is not GCC")

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
    log = logging_compiler(tmp_path, monkeypatch)
    monkeypatch.setenv("CL2C_CACHE_DIR", str(tmp_path / "cache"))
    monkeypatch.setenv("CL2C_TIER", "fast")
    monkeypatch.delenv("CL2C_NO_CACHE", raising=False)
    monkeypatch.setattr(precompiled, "IN_USE", 1)       # from the second build on
    _run(cl2c.Program(_kernel(1)).build(), 1)
    return tmp_path / "cache", log


def _wait_for(cache, made="cl2c/cl2c.h.gch"):
    """The folder of what the cache compiled ahead, once ``made`` is there."""
    deadline = time.monotonic() + WAIT_S
    while not list(cache.glob(f"runtime-*/{made}")):
        assert time.monotonic() < deadline, f"{made} was never made"
        time.sleep(0.1)
    return list(cache.glob("runtime-*"))[0]


def _compiles(log) -> list[list[str]]:
    """The compiles of kernels' files (not a header's nor the runtime's), in order."""
    commands = [shlex.split(line) for line in log.read_text().splitlines()]
    return [c for c in commands if any(a.endswith(".c") for a in c)]


def _kernels_compile(log) -> list[str]:
    """The last compile of a kernels' file."""
    return _compiles(log)[-1]


def _beside(command) -> bool:
    """Whether a kernels' file was compiled beside a new runtime object (to an object of
    its own, linked after), not linking the cache's."""
    return "-c" in command and RUNTIME_LINKED in command


def test_the_first_build_compiles_the_runtime_beside_its_kernels(logged):
    cache, log = logged
    commands = [shlex.split(line) for line in log.read_text().splitlines()
                if "-dumpversion" not in line and "-E" not in line.split()]
    first = _compiles(log)
    assert len(first) == 1 and _beside(first[0]), commands
    runtime = [c for c in commands if RUNTIME_OBJECT in c]
    assert len(runtime) == 1 and "-c" in runtime[0], commands
    # the two at once (both before the link), then the link of their objects
    link = [c for c in commands if "-shared" in c]
    assert len(link) == 1 and commands.index(link[0]) > commands.index(runtime[0]), commands
    objects = [a for a in link[0] if a.endswith(".o")]
    assert [o.rsplit("/", 1)[1] for o in objects] == \
        [first[0][first[0].index("-o") + 1].rsplit("/", 1)[1], precompiled.OBJECT]
    folder = cache / list(cache.glob("runtime-*"))[0].name
    kept = cachedir.read_verified(folder / precompiled.OBJECT)
    assert kept is not None and kept[:4] == b"\x7fELF"
    # the next build compiles its kernels' file once, linking the kept object
    _run(cl2c.Program(_kernel(2)).build(), 2)
    command = _kernels_compile(log)
    assert not _beside(command) and RUNTIME_LINKED in command and "-shared" in command
    assert any(a.endswith(f"/{precompiled.OBJECT}") for a in command)
    assert len([line for line in log.read_text().splitlines()
                if RUNTIME_OBJECT in line]) == 1          # compiled once


def test_the_platforms_builds_link_the_kept_object_too(logged, tmp_path):
    """The OpenCL platform's programs (python -m cl2c.build_service: a plain shared
    library) link the cache's runtime object as the loader's libraries do; they compiled
    the runtime's out-of-line code, most of a small program's object, every time."""
    cache, log = logged
    (tmp_path / "k7.cl").write_text(_kernel(7))
    subprocess.run([sys.executable, "-m", "cl2c.build_service", "--source",
                    str(tmp_path / "k7.cl"), "--output", str(tmp_path / "k7.bin")],
                   check=True, timeout=300)
    command = _kernels_compile(log)
    assert (tmp_path / "k7.bin").stat().st_size > 0
    assert not _beside(command) and RUNTIME_LINKED in command and "-shared" in command
    assert any(a.endswith(f"/{precompiled.OBJECT}") for a in command)


@gcc_only
def test_the_next_builds_compile_with_the_precompiled_header(logged):
    cache, log = logged
    _run(cl2c.Program(_kernel(2)).build(), 2)
    second = _kernels_compile(log)
    assert RUNTIME_LINKED in second                         # the object, kept
    assert not any(a.startswith(f"-I{cache}/runtime-") for a in second)  # no header yet
    folder = _wait_for(cache)
    _run(cl2c.Program(_kernel(3)).build(), 3)
    command = _kernels_compile(log)
    assert f"-I{folder}" in command and RUNTIME_LINKED in command
    assert any(arg.endswith(f"/{precompiled.OBJECT}") for arg in command)
    # GCC marks a precompiled header it uses with "!" under -H (and an invalid one "x")
    # its file was in a build folder that is gone; the cache keeps the generated C
    source = next(i for i, arg in enumerate(command) if arg.endswith(".c"))
    command[source] = str(cache / command[source].rsplit("/", 1)[1])
    out = command.index("-o")
    probe = [*host_target().cc, *(a for a in command[:out] if a != "-shared"
                                  and not a.endswith(f"/{precompiled.OBJECT}")),
             "-fsyntax-only", "-H"]
    said = subprocess.run(probe, capture_output=True, text=True).stderr
    assert f"! {folder}/cl2c/cl2c.h.gch" in said, said[:2000]


@gcc_only
def test_a_damaged_precompiled_header_costs_nothing_but_itself(logged):
    cache, _ = logged
    _run(cl2c.Program(_kernel(4)).build(), 4)
    folder = _wait_for(cache)
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
        assert list((tmp_path / "cache").glob(f"runtime-*/{precompiled.OBJECT}"))
    assert not list((tmp_path / "cache").glob("runtime-*/cl2c"))
    _run(cl2c.Program(_kernel(99)).build(), 99)     # in a cache of IN_USE libraries
    if host_target().gcc:
        _wait_for(tmp_path / "cache")


LINKED = r"""
import numpy as np
import cl2c
src = '''
__kernel void wild(__global int *a, long far)
{
    size_t i = get_global_id(0);
    if (i == 100)
        a[far] = 1;
    else
        a[i] = 2;
}
__kernel void sums(__global const float *x, __global float *out, __local float *t)
{
    size_t l = get_local_id(0), n = get_local_size(0);
    t[l] = x[get_global_id(0)];
    for (size_t s = n / 2; s > 0; s /= 2) {
        barrier(CLK_LOCAL_MEM_FENCE);
        if (l < s)
            t[l] += t[l + s];
    }
    barrier(CLK_LOCAL_MEM_FENCE);
    if (l == 0)
        out[get_group_id(0)] = t[0];
}
'''
for options in ("", "-cl2c-schedule=fibers"):
    prg = cl2c.Program(src, options=options).build()
    x = np.arange(1024, dtype=np.float32)
    out = np.zeros(16, np.float32)
    prg.sums((1024,), (64,), x, out, cl2c.LocalMemory(64 * 4))
    print("sums", options, bool((out == x.reshape(16, 64).sum(axis=1)).all()))
    a = np.zeros(1024, np.int32)
    try:
        prg.wild((1024,), (64,), a, 1 << 44)
        print("no error")
    except cl2c.LaunchError as e:
        print("wild", options, e)
"""


def test_libraries_that_link_the_runtime_run_fault_and_wait_as_before(logged):
    """The fault guard and the fibers compiled once into the object: a fault of a kernel
    is still its LaunchError (with the work-item under fibers), barriers still wait."""
    cache, log = logged
    _run(cl2c.Program(_kernel(7)).build(), 7)
    _wait_for(cache, precompiled.OBJECT)
    res = subprocess.run([sys.executable, "-c", LINKED], capture_output=True, text=True,
                         timeout=300)
    assert res.returncode == 0, res.stderr
    assert RUNTIME_LINKED in _kernels_compile(log)          # the last build linked it
    lines = res.stdout.splitlines()
    assert lines[0] == "sums  True" and lines[2] == "sums -cl2c-schedule=fibers True", lines
    assert lines[1].startswith("wild  kernel 'wild': SIGSEGV"), lines
    assert lines[3].startswith("wild -cl2c-schedule=fibers kernel 'wild': SIGSEGV"), lines
    assert "work-item with local id (36,0,0)" in lines[3], lines


def test_a_damaged_runtime_object_costs_nothing_but_itself(logged):
    cache, log = logged
    folder = _wait_for(cache, precompiled.OBJECT)
    obj = folder / precompiled.OBJECT
    data = bytearray(obj.read_bytes())
    data[len(data) // 2] ^= 0xff
    obj.write_bytes(bytes(data))                # its checksum no longer matches
    with pytest.warns(Warning, match="is corrupt"):
        _run(cl2c.Program(_kernel(9)).build(), 9)
    assert _beside(_kernels_compile(log))       # not linked: a new one compiled beside
    assert obj.read_bytes() != bytes(data)      # and kept
    _run(cl2c.Program(_kernel(10)).build(), 10)
    assert RUNTIME_LINKED in _kernels_compile(log) and not _beside(_kernels_compile(log))
    # one that matches its checksum and does not link: that build compiles a new one
    # beside its kernels' file, which replaces it
    garbage = b"not an object"
    cachedir.write_verified(obj, garbage)
    _run(cl2c.Program(_kernel(11)).build(), 11)
    assert _beside(_kernels_compile(log))
    assert cachedir.read_verified(obj) not in (None, garbage)


def test_a_runtime_object_the_compiler_refuses_is_not_tried_again(tmp_path, monkeypatch):
    """A compiler that cannot make the runtime's object: the build goes the header-only
    way, and the next builds in that cache go there at once (no second failure each)."""
    log = logging_compiler(tmp_path, monkeypatch, refuse=RUNTIME_OBJECT)
    monkeypatch.setenv("CL2C_CACHE_DIR", str(tmp_path / "cache"))
    monkeypatch.setenv("CL2C_TIER", "fast")
    monkeypatch.delenv("CL2C_NO_CACHE", raising=False)
    _run(cl2c.Program(_kernel(12)).build(), 12)
    tried = log.read_text().count(RUNTIME_OBJECT)
    assert tried == 1 and RUNTIME_LINKED not in _kernels_compile(log)
    assert list((tmp_path / "cache").glob(f"runtime-*/{precompiled.REFUSED}"))
    _run(cl2c.Program(_kernel(13)).build(), 13)
    assert log.read_text().count(RUNTIME_OBJECT) == tried
    # one kernels' file a build: the first's compile of the object, started while it
    # translated (precompiled.start_early), had failed before its kernels compiled
    assert len(_compiles(log)) == 2 and RUNTIME_LINKED not in _kernels_compile(log)
