"""A program's unoptimised C compiled as one file per group of kernels at once
(cl2c/split_compile.py): the library computes what the one file's does, the kernels
share the program's __global variables and the runtime's state across the files, and a
part that does not compile falls back to the one file."""
import os

import numpy as np
import pytest

import cl2c
from cl2c import build, split_compile
from cl2c.options import parse_options
from cl2c.pipeline import translate
from compiler_log import logging_compiler

# Four kernels sharing a __constant table, a helper and a program-scope __global
# variable (OpenCL C 2.0), one with __local memory and barriers.
SOURCE = r"""
__constant int weights[4] = {1, 3, 5, 7};
global int calls = 40;

int weigh(int x) { return x * weights[x & 3]; }

kernel void scale(global int *out, global const int *in)
{
    size_t i = get_global_id(0);
    out[i] = weigh(in[i]) + SALT;
}

kernel void group_sums(global const int *in, global int *sums, local int *scratch)
{
    size_t l = get_local_id(0), n = get_local_size(0);
    scratch[l] = weigh(in[get_global_id(0)]);
    for (size_t s = n / 2; s > 0; s /= 2) {
        barrier(CLK_LOCAL_MEM_FENCE);
        if (l < s)
            scratch[l] += scratch[l + s];
    }
    if (l == 0)
        sums[get_group_id(0)] = scratch[0];
}

kernel void count(void)
{
    if (get_global_id(0) == 0)
        calls += 2;
}

kernel void read_count(global int *out)
{
    out[get_global_id(0)] = calls + (int)get_global_id(0);
}
"""
N, LOCAL = 1024, 64


def _weigh(x):
    return x * np.array([1, 3, 5, 7])[x & 3]


def _run(prg, salt, calls=40):
    """Runs the four kernels and checks them; ``calls``: the __global variable's value
    before (a program's, kept across its launches and its libraries)."""
    rng = np.random.default_rng(7)
    data = rng.integers(-1000, 1000, N, dtype=np.int32)
    out = np.zeros(N, np.int32)
    prg.scale((N,), None, out, data)
    np.testing.assert_array_equal(out, _weigh(data) + salt)
    sums = np.zeros(N // LOCAL, np.int32)
    prg.group_sums((N,), (LOCAL,), data, sums, cl2c.LocalMemory(4 * LOCAL))
    np.testing.assert_array_equal(sums, _weigh(data).reshape(-1, LOCAL).sum(axis=1))
    prg.count((8,), None)
    prg.count((8,), None)
    seen = np.zeros(16, np.int32)
    prg.read_count((16,), None, seen)
    np.testing.assert_array_equal(seen, calls + 4 + np.arange(16))


@pytest.fixture
def compiles(monkeypatch, tmp_path):
    """The builds' compiler runs (each a list of commands run at once), in a cache of
    the test's own, with the program compiled in three parts."""
    monkeypatch.setenv("CL2C_CACHE_DIR", str(tmp_path / "cache"))
    monkeypatch.delenv("CL2C_NO_CACHE", raising=False)
    monkeypatch.setenv("CL2C_COMPILE_PARTS", "3")
    runs = []
    real = build._run_compiler

    def spy(what, commands):
        runs.append(commands)
        return real(what, commands)
    monkeypatch.setattr(build, "_run_compiler", spy)
    return runs


def _program(salt, extra=""):
    return cl2c.Program(SOURCE, options=f"-cl-std=CL2.0 -cl-opt-disable -DSALT={salt}{extra}")


def _parts_compiled(run) -> int:
    return sum(1 for cmd in run if any(a.endswith(".c") and ".part" in a for a in cmd))


def test_parts_compute_what_the_one_file_computes(compiles):
    salt = int.from_bytes(os.urandom(3), "little")
    prg = _program(salt).build()
    # an empty cache: the runtime's object compiled while the program translated
    # (precompiled.start_early), then the three parts at once, then the link
    assert [len(run) for run in compiles] == [3, 1]
    assert _parts_compiled(compiles[0]) == 3
    _run(prg, salt)

    compiles.clear()            # the cache has the runtime's object now: the parts alone
    prg = _program(salt + 1).build()
    assert [len(run) for run in compiles] == [3, 1]
    _run(prg, salt + 1)


def test_a_part_that_fails_falls_back_to_one_file(compiles, monkeypatch, tmp_path):
    real = split_compile.units
    monkeypatch.setattr(split_compile, "units", lambda parts, count, tail: [
        text + "\n#error a broken part\n" for text in real(parts, count, tail)])
    salt = int.from_bytes(os.urandom(3), "little")
    prg = _program(salt).build()
    assert _parts_compiled(compiles[0]) == 3
    _run(prg, salt)
    # the runtime's object was not what failed: the cache keeps it, and links it still
    cache = tmp_path / "cache"
    assert list(cache.glob("runtime-*/runtime.o")) and not list(cache.glob("runtime-*/refused"))
    compiles.clear()
    prg = _program(salt + 1).build()
    assert len(compiles[0]) == 3            # three parts again (no runtime's object)
    _run(prg, salt + 1)


def test_checked_and_one_kernel_builds_compile_one_file(compiles, monkeypatch):
    salt = int.from_bytes(os.urandom(3), "little")
    for source, options in (
            (SOURCE, "-cl-std=CL2.0 -cl-opt-disable -cl2c-check"),
            ("kernel void one(global int *a) { a[0] = SALT; }", "-cl-opt-disable")):
        compiles.clear()
        cl2c.Program(source, options=f"{options} -DSALT={salt}").build()
        assert compiles and not any(_parts_compiled(run) for run in compiles), options


def test_an_optimised_build_compiles_in_parts(compiles, monkeypatch):
    monkeypatch.setenv("CL2C_TIER", "optimised")
    salt = int.from_bytes(os.urandom(3), "little")
    prg = cl2c.Program(SOURCE, options=f"-cl-std=CL2.0 -DSALT={salt}").build()
    assert prg.tier == "optimised"
    assert [len(run) for run in compiles] == [3, 1] and "-O3" in compiles[0][0]
    _run(prg, salt)


def test_the_optimised_tier_compiles_in_parts_in_its_own_process(monkeypatch, tmp_path):
    """CL2C_TIER=auto: the fast tier, then the optimised library from the background
    process, each compiled in parts (seen by a compiler that logs its commands)."""
    log = logging_compiler(tmp_path, monkeypatch)
    monkeypatch.setenv("CL2C_CACHE_DIR", str(tmp_path / "cache"))
    monkeypatch.setenv("CL2C_TIER", "auto")
    monkeypatch.setenv("CL2C_COMPILE_PARTS", "2")
    monkeypatch.delenv("CL2C_NO_CACHE", raising=False)
    salt = int.from_bytes(os.urandom(3), "little")
    prg = cl2c.Program(SOURCE, options=f"-cl-std=CL2.0 -DSALT={salt}").build()
    assert prg.tier == "fast"
    _run(prg, salt)
    prg.wait_optimised()
    assert prg.tier == "optimised"
    _run(prg, salt, calls=44)           # the optimised library takes the variable over
    parts = [line.split() for line in log.read_text().splitlines()
             if ".part" in line and "-c" in line.split()]
    for level in ("-O0", "-O3"):
        assert sum(level in words for words in parts) == 2, level


@pytest.mark.parametrize("kernels,cores,parts", [
    (6, 2, 1), (6, 3, 1), (6, 4, 2), (6, 16, 6), (1, 16, 1), (3, 64, 3)])
def test_part_count_takes_half_the_cores_at_most_one_a_kernel(kernels, cores, parts,
                                                               monkeypatch):
    monkeypatch.delenv("CL2C_COMPILE_PARTS", raising=False)
    assert split_compile.part_count(kernels, cores) == parts
    monkeypatch.setenv("CL2C_COMPILE_PARTS", "1")
    assert split_compile.part_count(kernels, cores) == 1
    monkeypatch.setenv("CL2C_COMPILE_PARTS", "5")
    assert split_compile.part_count(kernels, cores) == min(kernels, 5)


def test_the_parts_put_together_are_the_source_and_their_lines_its_own():
    tr = translate(SOURCE, "split.cl", parse_options("-cl-std=CL2.0 -DSALT=1"))
    parts = tr.emitted.parts
    prelude = "".join(text for _, _, text in parts.prelude)
    assert prelude + "".join(parts.entries) + parts.metadata == tr.c_source
    lines = tr.c_source.split("\n")
    pieces = [*parts.prelude, *zip(parts.first_lines, [*parts.entries, parts.metadata])]
    for *_, first, piece in pieces:
        assert lines[first - 1] == piece.split("\n", 1)[0]
    assert parts.line_name == "kernel.c"
    assert parts.declarations.count("int cl2c_argv_") == 4
    # each work-group function belongs to its kernel's part alone
    owned = [(owner, text) for owner, _, text in parts.prelude if owner is not None]
    assert {owner for owner, _ in owned} == {0, 1, 2, 3}
    units = split_compile.units(parts, 3, "/* tail */\n")
    assert len(units) == 3 and units[-1].endswith(parts.metadata + "/* tail */\n")
    assert sum(u.count("int cl2c_kernel_") for u in units) == 4
    for unit, kernels in zip(units, ({0}, {1}, {2, 3})):
        assert all((text in unit) == (owner in kernels) for owner, text in owned)
    assert translate(SOURCE, "split.cl",
                     parse_options("-cl-std=CL2.0 -DSALT=1 -cl2c-check")).emitted.parts is None
