"""The target (cl2c/target.py): translating runs no compiler, one compile path, and a C
compile failure of generated code is a BuildError naming the kernel."""
from __future__ import annotations

import dataclasses
import json
import os
import subprocess
import sys

import pytest

import cl2c
from cl2c import build
from cl2c.setuptools_hook import portable_flags
from cl2c.target import Target

HALF = ("#pragma OPENCL EXTENSION cl_khr_fp16 : enable\n"
        "kernel void k(global half *a) { a[0] = a[0] * a[1]; }\n")

NO_COMPILER_SCRIPT = r"""
import os, sys
import cl2c, cl2c.preprocess, cl2c.pipeline, cl2c.build, cl2c.cache, cl2c.loader
import cl2c.cli, cl2c.setuptools_hook, cl2c.aot, cl2c.target
assert "cl_khr_fp16" in cl2c.target.Target.assumed().extensions
tr = cl2c.translate(open("h.cl").read(), "h.cl")
assert "cl_khr_fp16" in tr.preprocessed.text or "#error" in tr.c_source
cl2c.pipeline.run_preprocessor("kernel void k(global int *a) {}", "p.cl")
cl2c.cli.main(["h.cl", "-o", "h.c", "-H", "h.h", "-MD"], standalone_mode=False)
cl2c.cli.main(["h.cl", "-E", "-o", "h.i"], standalone_mode=False)
assert not os.path.exists(os.environ["MARK"]), open(os.environ["MARK"]).read()
cl2c.target.Target.host()       # the control: probing does call the compiler
assert os.path.exists(os.environ["MARK"])
print("ok")
"""


def test_importing_and_translating_run_no_compiler(tmp_path):
    """Importing any cl2c module, translating, and the CLI's C (not --shared) call no C
    compiler: every compiler name on PATH and $CC is a script that records a call."""
    fake = tmp_path / "bin"
    fake.mkdir()
    mark = tmp_path / "called"
    for name in ("cc", "gcc", "clang", "x86_64-linux-gnu-gcc", "aarch64-linux-gnu-gcc"):
        script = fake / name
        script.write_text(f'#!/bin/sh\necho "$0 $*" >> "{mark}"\nexit 1\n')
        script.chmod(0o755)
    (tmp_path / "h.cl").write_text(HALF)
    env = dict(os.environ, PATH=f"{fake}{os.pathsep}{os.environ.get('PATH', '')}",
               CC=str(fake / "cc"), MARK=str(mark), CL2C_NO_CACHE="1")
    res = subprocess.run([sys.executable, "-c", NO_COMPILER_SCRIPT], cwd=tmp_path, env=env,
                         capture_output=True, text=True, timeout=120)
    assert res.returncode == 0 and res.stdout.strip() == "ok", res.stdout + res.stderr
    assert (tmp_path / "h.c").exists()


def test_extensions_follow_the_target():
    """cl_khr_fp16 is offered exactly where the target has _Float16: without it the kernel's
    #ifdef sees no cl_khr_fp16 and its pragma is an unsupported extension."""
    assert "cl_khr_fp16" in Target(has_float16=True).extensions
    assert "cl_khr_fp16" not in Target(has_float16=False).extensions
    probe = "#ifdef cl_khr_fp16\nkernel void with(global int *a) {}\n#else\n" \
            "kernel void without(global int *a) {}\n#endif\n"
    assert [k.name for k in cl2c.translate(probe, "p.cl").kernels] == ["with"]
    tr = cl2c.translate(probe, "p.cl", target=Target(has_float16=False))
    assert [k.name for k in tr.kernels] == ["without"]
    with pytest.raises(cl2c.BuildError, match="cl_khr_fp16"):
        cl2c.translate(HALF, "h.cl", target=Target(has_float16=False))
    assert "#error" in cl2c.translate(HALF, "h.cl").c_source     # assumed: C checks it


def test_flags_and_identity():
    native, portable = Target(), Target(native=False)
    assert "-march=native" in native.compile_flags()
    assert not any(f.startswith("-march") for f in portable.compile_flags())
    assert "-Werror=implicit-function-declaration" in portable.compile_flags()
    assert portable_flags() == (portable.compile_flags(), portable.link_flags())
    ids = {t.identity() for t in (native, portable, Target(cc=("clang",)),
                                  Target(env_cflags=("-DX=1",)), Target(env_ldflags=("-L/x",)),
                                  Target(version="gcc 13"), Target(has_float16=False))}
    assert len(ids) == 7
    cmd = Target(cc=("gcc", "-m64"), env_cflags=("-DX=1",), env_ldflags=("-L/x",)) \
        .shared_library_command("k.c", "k.so", ["/inc"])
    assert cmd[:3] == ["gcc", "-m64", "-DX=1"] and "-L/x" in cmd and "-shared" in cmd


def test_wide_vectors_where_the_cpu_has_avx512():
    """Native code for a CPU with AVX-512 prefers 512-bit vectors (GCC tunes Intel's Xeons
    for 256), as the probe reads -march=native's macros; portable code does not, nor code
    whose $CFLAGS choose a width."""
    wide, flag = Target(avx512=True), "-mprefer-vector-width=512"
    assert flag in wide.compile_flags() and flag not in Target().compile_flags()
    assert flag not in wide.portable().compile_flags()
    chosen = dataclasses.replace(wide, env_cflags=("-mprefer-vector-width=256",))
    assert flag not in chosen.compile_flags()
    host = Target.host()
    macros = subprocess.run([*host.cc, *host.env_cflags, "-march=native", "-dM", "-E", "-x",
                             "c", os.devnull], capture_output=True, text=True).stdout
    assert host.avx512 == ("__AVX512F__" in macros)
    assert not Target.host(native=False).avx512


def test_host_target_reads_the_environment(monkeypatch):
    monkeypatch.setenv("CFLAGS", "-DCL2C_TEST_X=1")
    monkeypatch.setenv("CPPFLAGS", "-DCL2C_TEST_Y=1")
    monkeypatch.setenv("LDFLAGS", "-L/nowhere")
    t = Target.assumed()
    assert t.env_cflags == ("-DCL2C_TEST_Y=1", "-DCL2C_TEST_X=1")
    assert t.env_ldflags == ("-L/nowhere",)
    monkeypatch.setenv("CC", "my-cc --flag")
    assert Target.assumed().cc == ("my-cc", "--flag")


UNDECLARED = """
int cl2c_argv_k(const cl2c_range *range, void *const *args)
{
    (void)range; (void)args;
    return cl2c_no_such_runtime_function(1);
}
"""

UNDEFINED = """
int cl2c_declared_never_defined(int);
int cl2c_argv_k(const cl2c_range *range, void *const *args)
{
    (void)range; (void)args;
    return cl2c_declared_never_defined(1);
}
"""


@pytest.mark.parametrize("c_body,stage", [(UNDECLARED, "C compiler failed"),
                                          (UNDEFINED, "does not load")],
                         ids=["undeclared", "undefined"])
def test_generated_c_that_fails_is_a_build_error(c_body, stage, cc, monkeypatch, tmp_path):
    """A call C has no declaration for fails the compile (-Werror=implicit-function-
    declaration), one to a function never defined fails at load: both a BuildError
    naming the file and the kernel, never an ImportError."""
    monkeypatch.setenv("CL2C_CACHE_DIR", str(tmp_path))
    source = "#include <cl2c/cl2c.h>\n" + c_body + f"/* {stage} */\n"
    with pytest.raises(cl2c.BuildError) as info:
        build.build_extension(source, ["k"], "broken.cl")
    (d,) = info.value.diagnostics
    assert d.file == "broken.cl" and "kernel 'k'" in d.message and stage in d.message, str(d)
    if c_body is UNDECLARED:
        assert "cl2c_no_such_runtime_function" in d.message


def test_build_uses_the_targets_compiler(cc, monkeypatch, tmp_path):
    """A target given explicitly is the one that compiles (distutils is told its $CC for
    the build, and the environment is put back)."""
    import dataclasses
    import shutil
    log = tmp_path / "calls"
    wrapper = tmp_path / "other-cc"
    wrapper.write_text(f'#!/bin/sh\necho "$*" >> "{log}"\nexec "{shutil.which(cc)}" "$@"\n')
    wrapper.chmod(0o755)
    monkeypatch.setenv("CL2C_CACHE_DIR", str(tmp_path / "cache"))
    before = os.environ.get("CC")
    target = dataclasses.replace(Target.host(native=False), cc=(str(wrapper),))
    tr = cl2c.translate("kernel void k(global int *a) { a[0] = 42; }", "k.cl", target=target)
    module, hit = build.build_extension(tr.c_source, ["k"], "k.cl", target)
    assert not hit and hasattr(module.lib, "cl2c_argv_k")
    assert " -shared " in log.read_text() and "-march=native" not in log.read_text()
    assert os.environ.get("CC") == before


@pytest.mark.optimised      # without the option: -O3 at once, as CL2C_TIER=optimised builds
def test_opt_disable_compiles_at_O0_and_computes_the_same(monkeypatch, tmp_path):
    """-cl-opt-disable: the C at -O0 (a program of its own in the cache), the same
    results; without it -O3. The compiler is a wrapper that logs its arguments."""
    import numpy as np
    log = tmp_path / "calls"
    wrapper = tmp_path / "logging-cc"
    cc = Target.host().cc
    wrapper.write_text(f'#!/bin/sh\necho "$*" >> "{log}"\nexec {" ".join(cc)} "$@"\n')
    wrapper.chmod(0o755)
    monkeypatch.setenv("CC", str(wrapper))
    monkeypatch.setenv("CL2C_CACHE_DIR", str(tmp_path / "cache"))
    src = "kernel void k(global float *a) { size_t i = get_global_id(0); a[i] = a[i] * 3 - i; }"
    results = {}
    for options in ("", "-cl-opt-disable"):
        a = np.arange(64, dtype=np.float32)
        prg = cl2c.Program(src, options).build()
        assert not prg.from_cache
        prg.k((64,), None, a)
        results[options] = a
        compile_line = [c for c in log.read_text().splitlines() if " -shared " in c][-1]
        assert (" -O0 " in compile_line) == bool(options)
        assert (" -O3 " in compile_line) != bool(options)
    np.testing.assert_array_equal(results[""], results["-cl-opt-disable"])
    np.testing.assert_array_equal(results[""], np.arange(64, dtype=np.float32) * 2)


HIT_SCRIPT = r"""
import cl2c
prg = cl2c.Program("kernel void k(global int *a) { a[get_global_id(0)] += 1; }").build()
print("hit" if prg.from_cache else "built")
"""


def test_a_cache_hit_in_a_new_process_runs_no_compiler(tmp_path):
    """The compiler's probe is remembered in the cache: a second process that finds the
    kernel there runs no compiler at all; a changed compiler is probed again."""
    import shutil
    real = shutil.which(os.environ.get("CC", "cc").split()[0]) or shutil.which("gcc")
    fake = tmp_path / "bin"
    fake.mkdir()
    mark = tmp_path / "called"
    wrapper = fake / "cc"
    wrapper.write_text(f'#!/bin/sh\necho "$*" >> "{mark}"\nexec "{real}" "$@"\n')
    wrapper.chmod(0o755)
    env = dict(os.environ, CC=str(wrapper), CL2C_CACHE_DIR=str(tmp_path / "cache"))
    env.pop("CL2C_NO_CACHE", None)

    def run() -> str:
        res = subprocess.run([sys.executable, "-c", HIT_SCRIPT], cwd=tmp_path, env=env,
                             capture_output=True, text=True, timeout=300)
        assert res.returncode == 0, res.stdout + res.stderr
        return res.stdout.strip()

    assert run() == "built" and mark.exists()
    mark.unlink()
    assert run() == "hit"
    assert not mark.exists(), mark.read_text()
    # an upgraded compiler (another file) is probed again
    wrapper.write_text(wrapper.read_text() + "# upgraded\n")
    run()
    assert mark.exists() and "--version" in mark.read_text()


REMEMBERED_SCRIPT = r"""
import dataclasses, json
from cl2c import cache
print(json.dumps(dataclasses.asdict(cache.host_target())))
"""


def test_the_remembered_probe_is_the_probe(tmp_path):
    """Every field the probe decides comes back from the cache in a new process (fast_fma
    once did not: every process after the first had FP_FAST_FMAF undefined), and a probe
    file with fewer fields, as an older cl2c wrote, is probed again and replaced."""
    from cl2c import cache
    env = dict(os.environ, CL2C_CACHE_DIR=str(tmp_path))
    env.pop("CL2C_NO_CACHE", None)

    def remembered() -> dict:
        res = subprocess.run([sys.executable, "-c", REMEMBERED_SCRIPT], env=env,
                             capture_output=True, text=True, timeout=120)
        assert res.returncode == 0, res.stdout + res.stderr
        return json.loads(res.stdout)

    probed = json.loads(json.dumps(dataclasses.asdict(Target.host())))
    assert remembered() == probed                     # probed, and written
    assert remembered() == probed                     # read back
    (path,) = tmp_path.rglob("probe_*.json")
    older = {k: probed[k] for k in ("native", "has_float16", "version", "cpu")}
    cache._write_sealed(path, json.dumps(older).encode())
    assert remembered() == probed
    assert sorted(json.loads(cache._read_sealed(path))) == sorted(cache._PROBED)


def test_gcc_only_flags_follow_the_probe():
    """GCC's flags against its miscompilations (tests/compiler_bugs/) go to GCC only:
    clang refuses them. The probe tells the two apart by their macros."""
    flag = "-fno-tree-loop-distribute-patterns"
    assert flag in Target(gcc=True).compile_flags() and flag not in Target().compile_flags()
    host = Target.host()
    assert host.gcc == ("Free Software Foundation" in host.version)     # GCC's --version


def test_a_probe_runs_what_was_asked_meanwhile_and_a_remembered_one_does_not(
        monkeypatch, tmp_path):
    """A build's translator imports run while a new cache probes the compiler (such a
    cache holds nothing built by it); a failure there is left to the caller's own import."""
    from cl2c import cache
    monkeypatch.setenv("CL2C_CACHE_DIR", str(tmp_path / "cache"))
    monkeypatch.delenv("CL2C_NO_CACHE", raising=False)
    ran = []

    def failing():
        ran.append("probing")
        raise ImportError("left to the caller")
    probed = cache.host_target(meanwhile=failing)
    assert ran == ["probing"]
    remembered = cache.host_target(meanwhile=lambda: ran.append("remembered"))
    assert ran == ["probing"] and remembered == probed
