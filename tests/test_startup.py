"""What a new process pays before its first kernel runs: ``import cl2c`` imports neither
NumPy nor the translator, a cache hit translates nothing and reads none of cl2c's own
files, and CL2C_TIME says where a hit's and a first launch's time goes (issue 38;
bench/startup.py has the figures)."""
from __future__ import annotations

import hashlib
import json
import os
import subprocess
import sys
import time
from pathlib import Path

from cl2c import cache
from cl2c.resources import runtime_dir, templates_dir

HEAVY = ("numpy", "pycparser", "pycparserext", "jinja2", "cffi")
TRANSLATOR = ("pycparser", "pycparserext", "jinja2", "pcpp", "cl2c.pipeline", "cl2c.sema",
              "cl2c.lower", "cl2c.emit", "cl2c.parse", "cl2c.preprocess")
BUILDING = ("cffi", "subprocess", "filelock")     # what a compile needs, a hit does not


def _run(script: str, cache_dir: Path, **env) -> subprocess.CompletedProcess:
    full_env = dict(os.environ, CL2C_CACHE_DIR=str(cache_dir), **env)
    full_env.pop("CL2C_NO_CACHE", None)
    res = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True,
                         env=full_env, timeout=300)
    assert res.returncode == 0, res.stderr
    return res


def test_import_cl2c_imports_neither_numpy_nor_the_translator(tmp_path):
    res = _run("import sys, json, cl2c\nprint(json.dumps(sorted(sys.modules)))", tmp_path)
    modules = set(json.loads(res.stdout))
    assert not {m for m in modules if m.split(".")[0] in HEAVY}
    assert {m for m in modules if m.startswith("cl2c.")} == {"cl2c.version"}


def test_the_build_service_translates_and_compiles_without_numpy(tmp_path):
    """What the OpenCL platform starts for each build (python -m cl2c.build_service):
    NumPy's import was a fifth of a small program's first build, and nothing there
    needs it (images' and launches' tables live apart from the modules that use it)."""
    (tmp_path / "k.cl").write_text("kernel void add(global const float *a, global float *b)"
                                   " { b[get_global_id(0)] = a[0]; }\n")
    script = ("import json, runpy, sys\n"
              f"sys.argv = ['build_service', '--source', {str(tmp_path / 'k.cl')!r}, "
              f"'--output', {str(tmp_path / 'k.bin')!r}]\n"
              "try:\n    runpy.run_module('cl2c.build_service', run_name='__main__')\n"
              "except SystemExit as e:\n    assert not e.code, e.code\n"
              "print(json.dumps(sorted(sys.modules)))")
    modules = set(json.loads(_run(script, tmp_path).stdout.splitlines()[-1]))
    assert (tmp_path / "k.bin").stat().st_size > 0
    assert "cl2c.pipeline" in modules and "numpy" not in modules


HIT_SCRIPT = r"""
import json, sys
import numpy as np
before = set(sys.modules)          # (what NumPy imports is not cl2c's doing)
import cl2c
src = '''
__kernel void triad(__global float *a, __global const float *b, __global const float *c,
                    float s)
{
    size_t i = get_global_id(0);
    a[i] = b[i] + s * c[i];
}
'''
prg = cl2c.Program(src).build()
b, c = np.arange(64, dtype=np.float32), np.full(64, 0.5, np.float32)
a = np.zeros(64, np.float32)
prg.triad((64,), None, a, b, c, np.float32(3))
print(json.dumps({"from_cache": prg.from_cache, "ok": bool((a == b + 3 * c).all()),
                  "modules": sorted(set(sys.modules) - before)}))
"""


def test_a_cache_hit_in_a_new_process_translates_nothing_and_says_where_its_time_goes(
        tmp_path):
    first = json.loads(_run(HIT_SCRIPT, tmp_path).stdout)
    assert first["ok"] and first["from_cache"] is False
    res = _run(HIT_SCRIPT, tmp_path, CL2C_TIME="1")
    second = json.loads(res.stdout)
    assert second["ok"] and second["from_cache"] is True
    translator = [m for m in second["modules"] if m.startswith(TRANSLATOR)]
    assert translator == []
    assert not set(BUILDING) & set(second["modules"])
    hit, launch = res.stderr.split("cl2c: time report for ")[1:]
    assert hit.startswith("<kernel> (from the cache)")
    for stage in ("compiler probe (remembered)", "digests of cl2c's files", "cache key",
                  "manifest and included files", "library (verified, loaded)",
                  "kernels' argument tables", "total"):
        assert f"  {stage}  " in hit, (stage, hit)
    assert launch.startswith("the first launch of kernel 'triad'")
    assert "kernel (C;" in launch and "total" in launch
    assert res.stderr.count("time report") == 2     # the second launch reports nothing


def _plain_digest(bases, suffixes, skip_top=()) -> str:
    """The digests' definition, as binaries and the platform library record them: the
    sha256 of each file's path and contents, in path order."""
    h = hashlib.sha256()
    for base in bases:
        for path in sorted(base.rglob("*")):
            rel = path.relative_to(base)
            if path.is_file() and path.suffix in suffixes and rel.parts[0] not in skip_top:
                h.update(str(rel).encode())
                h.update(path.read_bytes())
    return h.hexdigest()


def test_remembered_digests_are_the_digests_of_the_files(tmp_path, monkeypatch):
    monkeypatch.setenv("CL2C_CACHE_DIR", str(tmp_path))
    monkeypatch.delenv("CL2C_NO_CACHE", raising=False)
    translator = _plain_digest([Path(cache.__file__).parent, templates_dir()], (".py", ".j2"))
    runtime = _plain_digest([runtime_dir()], (".h", ".c"), skip_top=("platform",))
    for _ in range(2):              # computed, then remembered
        cache.translator_digest.cache_clear()
        cache.runtime_digest.cache_clear()
        assert cache.translator_digest() == translator
        assert cache.runtime_digest() == runtime
    assert len(list(tmp_path.glob("digest_*.json"))) == 2


def test_a_file_changed_under_the_same_size_and_mtime_is_hashed_again(tmp_path, monkeypatch):
    monkeypatch.setenv("CL2C_CACHE_DIR", str(tmp_path / "cache"))
    monkeypatch.delenv("CL2C_NO_CACHE", raising=False)
    tree = tmp_path / "tree"
    (tree / "sub").mkdir(parents=True)
    (tree / "a.h").write_text("#define A 1\n")
    header = tree / "sub" / "b.h"
    header.write_text("#define B 2\n")
    files = cache._tree_files(tree, (".h",))
    before = cache._remembered_digest("test", files)
    assert before == _plain_digest([tree], (".h",))
    assert cache._remembered_digest("test", files) == before      # remembered
    st = os.stat(header)
    time.sleep(0.01)
    header.write_text("#define B 3\n")            # same size; mtime set back below
    os.utime(header, ns=(st.st_atime_ns, st.st_mtime_ns))
    after = cache._remembered_digest("test", cache._tree_files(tree, (".h",)))
    assert after != before and after == _plain_digest([tree], (".h",))


INCLUDE_SCRIPT = r"""
import json, sys
import numpy as np
import cl2c
src = sys.argv[1]
prg = cl2c.Program(src).build()
out = np.zeros(1, np.int32)
prg.value((1,), None, out)
print(json.dumps({"from_cache": prg.from_cache, "value": int(out[0]),
                  "translated": "cl2c.pipeline" in sys.modules}))
"""


def _value_in(folder: Path, src: str, cache_dir: Path) -> dict:
    env = dict(os.environ, CL2C_CACHE_DIR=str(cache_dir))
    env.pop("CL2C_NO_CACHE", None)
    res = subprocess.run([sys.executable, "-c", INCLUDE_SCRIPT, src], cwd=folder, env=env,
                         capture_output=True, text=True, timeout=300)
    assert res.returncode == 0, res.stderr
    return json.loads(res.stdout)


def test_the_working_directory_keys_only_sources_that_include(tmp_path):
    cache_dir = tmp_path / "cache"
    one, two = tmp_path / "one", tmp_path / "two"
    for folder, value in ((one, 3), (two, 5)):
        folder.mkdir()
        (folder / "value.h").write_text(f"#define VALUE {value}\n")
    plain = "__kernel void value(__global int *out) { out[0] = 7; }"
    assert _value_in(one, plain, cache_dir)["translated"] is True
    # the same source from another folder: a hit, nothing translated
    assert _value_in(two, plain, cache_dir) == {"from_cache": True, "value": 7,
                                                "translated": False}
    # a relative #include means another file in another folder: never the other's entry
    including = ('#include "value.h"\n'
                 "__kernel void value(__global int *out) { out[0] = VALUE; }")
    assert _value_in(one, including, cache_dir)["value"] == 3
    assert _value_in(two, including, cache_dir)["value"] == 5
    assert _value_in(one, including, cache_dir) == {"from_cache": True, "value": 3,
                                                    "translated": False}


def test_the_default_compiler_is_pythons(monkeypatch):
    """target_environment reads sysconfig's CC without working out every variable."""
    import sysconfig

    from cl2c.target import _python_cc, target_environment
    assert _python_cc() == (sysconfig.get_config_var("CC") or "")
    monkeypatch.delenv("CC", raising=False)
    assert " ".join(target_environment()[0]) == " ".join((_python_cc() or "cc").split())


def test_cold_build_times_installed_trees_with_their_stages(tmp_path):
    """bench/cold_build.py builds in a folder of no package (an installed tree, not the
    checkout it runs from, is what it times) and reads the stages CL2C_TIME prints."""
    root = Path(__file__).resolve().parent.parent
    tree = tmp_path / "tree"
    tree.mkdir()
    (tree / "cl2c").symlink_to(root / "cl2c")
    (tmp_path / "k.cl").write_text("kernel void k(global int *a) { a[0] = 1; }\n")
    out = tmp_path / "cold.json"
    proc = subprocess.run([sys.executable, str(root / "bench" / "cold_build.py"),
                           str(tmp_path / "k.cl"), "--tree", f"only={tree}", "--rounds", "1",
                           "--json", str(out)], capture_output=True, text=True, cwd=root,
                          timeout=300)
    assert proc.returncode == 0, proc.stderr
    [sample] = json.loads(out.read_text())["trees"]["only"]
    assert sample["cl2c"] == str(tree / "cl2c")
    assert 0 < sample["C compile and load"] < sample["total"] <= sample["build"]
