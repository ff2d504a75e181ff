"""The on-disk kernel cache, seen from fresh processes."""
from __future__ import annotations

import json
import os
import subprocess
import sys
import time

BUILD_SCRIPT = r"""
import json, os, sys, time
import numpy as np
import cl2c
go = os.environ.get("CL2C_TEST_GO")
if go:                                   # start building only when told to
    deadline = time.time() + 60
    while not os.path.exists(go) and time.time() < deadline:
        time.sleep(0.005)
src = '''
__kernel void cache_probe(__global const int *a, __global int *b, int k)
{
    size_t i = get_global_id(0);
    b[i] = a[i] * k + (int)i + SALT;
}
'''
salt = int(sys.argv[1])
prg = cl2c.Program(src, options=f"-DSALT={salt}").build()
a = np.arange(100, dtype=np.int32)
b = np.zeros(100, np.int32)
prg.cache_probe((100,), None, a, b, 3)
ok = bool((b == a * 3 + np.arange(100) + salt).all())
print(json.dumps({"from_cache": prg.from_cache, "build_seconds": prg.build_seconds, "ok": ok}))
"""


def _env(cache_dir, **extra):
    env = dict(os.environ)
    env.pop("CL2C_NO_CACHE", None)
    env["CL2C_CACHE_DIR"] = str(cache_dir)
    env.update(extra)
    return env


def _build(cache_dir, salt=1, **extra):
    res = subprocess.run([sys.executable, "-c", BUILD_SCRIPT, str(salt)], capture_output=True,
                         text=True, env=_env(cache_dir, **extra), timeout=120)
    assert res.returncode == 0, res.stderr
    return json.loads(res.stdout.strip().splitlines()[-1])


def test_second_process_loads_from_cache(tmp_path):
    first = _build(tmp_path)
    second = _build(tmp_path)
    print(f"\ncold build: {first['build_seconds']:.3f} s (from_cache={first['from_cache']}), "
          f"warm build: {second['build_seconds']:.3f} s (from_cache={second['from_cache']})")
    assert first["ok"] and second["ok"]
    assert first["from_cache"] is False
    assert second["from_cache"] is True
    assert any(tmp_path.iterdir()), "nothing was written to CL2C_CACHE_DIR"


def test_different_options_are_a_different_entry(tmp_path):
    assert _build(tmp_path, salt=1)["from_cache"] is False
    assert _build(tmp_path, salt=2)["from_cache"] is False
    assert _build(tmp_path, salt=2)["from_cache"] is True


def test_no_cache_env(tmp_path):
    first = _build(tmp_path, CL2C_NO_CACHE="1")
    second = _build(tmp_path, CL2C_NO_CACHE="1")
    assert first["ok"] and second["ok"]
    assert first["from_cache"] is False
    assert second["from_cache"] is False


def test_concurrent_builds_of_a_new_kernel(tmp_path):
    go = tmp_path / "go"
    cache = tmp_path / "cache"
    procs = [subprocess.Popen([sys.executable, "-c", BUILD_SCRIPT, "7"], stdout=subprocess.PIPE,
                              stderr=subprocess.PIPE, text=True,
                              env=_env(cache, CL2C_TEST_GO=str(go)))
             for _ in range(2)]
    time.sleep(1.0)                      # both have imported cl2c and wait for the signal
    go.touch()
    results = []
    for p in procs:
        out, err = p.communicate(timeout=120)
        assert p.returncode == 0, err
        results.append(json.loads(out.strip().splitlines()[-1]))
    print(f"\nconcurrent builds: {results}")
    assert all(r["ok"] for r in results)
    # and the entry they made is usable afterwards
    assert _build(cache, salt=7)["from_cache"] is True


def test_compiler_flags_from_the_environment_are_in_the_key(tmp_path):
    """$CFLAGS and $LDFLAGS reach the compile (distutils reads them), so they are in the
    key: a change rebuilds, the same environment again hits."""
    cache = tmp_path / "cache"
    assert _build(cache, salt=3)["from_cache"] is False
    assert _build(cache, salt=3)["from_cache"] is True
    assert _build(cache, salt=3, CFLAGS="-DCL2C_TEST_X=1")["from_cache"] is False
    assert _build(cache, salt=3, CFLAGS="-DCL2C_TEST_X=1")["from_cache"] is True
    assert _build(cache, salt=3, LDFLAGS="-L/nowhere")["from_cache"] is False
    assert _build(cache, salt=3)["from_cache"] is True


def test_compiler_from_the_environment_is_in_the_key(tmp_path, cc):
    """$CC, here a wrapper that runs the usual compiler and records each call: another
    compiler is another entry, and that entry is built by it."""
    import shutil
    real = shutil.which(cc)
    log = tmp_path / "calls"
    wrapper = tmp_path / "my-cc"
    wrapper.write_text(f'#!/bin/sh\necho "$*" >> "{log}"\nexec "{real}" "$@"\n')
    wrapper.chmod(0o755)
    cache = tmp_path / "cache"
    assert _build(cache, salt=4)["from_cache"] is False
    assert not log.exists()
    first = _build(cache, salt=4, CC=str(wrapper))
    assert first["ok"] and first["from_cache"] is False
    assert any(" -shared " in line and "-march=native" in line
               for line in log.read_text().splitlines()), log.read_text()
    assert _build(cache, salt=4, CC=str(wrapper))["from_cache"] is True
    assert _build(cache, salt=4)["from_cache"] is True


INCLUDE_SCRIPT = r"""
import json, sys
import numpy as np
import cl2c
src = '#include "step.h"\n' \
      '__kernel void inc(__global int *b) { b[get_global_id(0)] += STEP; }\n'
prg = cl2c.Program(src, options=["-I", sys.argv[1]], filename=sys.argv[2]).build()
translated = "cl2c.pipeline" in sys.modules      # the translator was imported
b = np.zeros(8, np.int32)
prg.inc((8,), None, b)
out = {"from_cache": prg.from_cache, "translated": translated, "value": int(b[0])}
if len(sys.argv) > 3:
    out["has_c"] = "inc" in prg.c_source
print(json.dumps(out))
"""


def _include_build(cache_dir, include_dir, *extra):
    res = subprocess.run([sys.executable, "-c", INCLUDE_SCRIPT, str(include_dir), "k.cl",
                          *extra], capture_output=True, text=True, env=_env(cache_dir),
                         timeout=120)
    assert res.returncode == 0, res.stderr
    return json.loads(res.stdout.strip().splitlines()[-1])


def test_a_cache_hit_needs_no_translation_until_an_included_file_changes(tmp_path):
    inc = tmp_path / "inc"
    inc.mkdir()
    (inc / "step.h").write_text("#define STEP 3\n")
    cache_dir = tmp_path / "cache"
    first = _include_build(cache_dir, inc)
    assert first == {"from_cache": False, "translated": True, "value": 3}
    # a new process: the module straight from the cache, the translator not even imported
    assert _include_build(cache_dir, inc) == {"from_cache": True, "translated": False,
                                              "value": 3}
    # the C source is still there to read (translated on demand)
    assert _include_build(cache_dir, inc, "c")["has_c"] is True
    (inc / "step.h").write_text("#define STEP 5\n")
    changed = _include_build(cache_dir, inc)
    assert changed["translated"] is True and changed["value"] == 5
    assert _include_build(cache_dir, inc) == {"from_cache": True, "translated": False,
                                              "value": 5}


LOCKER = """
import sys, time
from pathlib import Path
from cl2c import cachedir
with cachedir.locked(Path(sys.argv[1])):
    print(time.time(), flush=True)
"""


def test_the_build_lock_holds_another_process_until_released(tmp_path):
    """cachedir.locked (flock): a second process takes the lock only once the first has
    let it go; a lock file that cannot be made is no lock, not an error."""
    from cl2c import cachedir
    lock = tmp_path / "entry.lock"
    with cachedir.locked(lock):
        child = subprocess.Popen([sys.executable, "-c", LOCKER, str(lock)],
                                 stdout=subprocess.PIPE, text=True,
                                 env=dict(os.environ, PYTHONPATH=os.pathsep.join(sys.path)))
        time.sleep(1.0)
        released = time.time()
    taken = float(child.communicate(timeout=60)[0])
    assert child.returncode == 0 and taken >= released
    with cachedir.locked(tmp_path / "missing" / "entry.lock"):
        pass
