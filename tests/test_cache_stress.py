"""The kernel cache under concurrency and damage: processes build one kernel at once,
round after round, while another process truncates, flips bytes of and deletes the
cache's files; every result must be right and no process may fail.

The small version runs with the suite; ``make check-stress`` runs the full one
(CL2C_STRESS=1; CL2C_STRESS_PROCESSES and CL2C_STRESS_ROUNDS, default 8 and 20).
"""
from __future__ import annotations

import json
import os
import random
import subprocess
import sys
import time
from pathlib import Path

import pytest

WORKER = r"""
import json, os, sys, time
import numpy as np
import cl2c
go, salt = sys.argv[1], int(sys.argv[2])
open(f"{go}.ready.{os.getpid()}", "w").close()
while not os.path.exists(go):
    time.sleep(0.002)
src = '''
__kernel void stress(__global const int *a, __global int *b, int k)
{
    size_t i = get_global_id(0);
    b[i] = a[i] * k + (a[i] >> 3) - SALT;
}
'''
prg = cl2c.Program(src, options=f"-DSALT={salt}").build()
a = np.arange(-500, 500, dtype=np.int32)
b = np.zeros_like(a)
prg.stress((a.size,), None, a, b, 7)
ok = bool((b == a * 7 + (a >> 3) - salt).all())
print(json.dumps({"ok": ok, "from_cache": prg.from_cache}))
"""

CORRUPTER = r"""
import os, random, sys, time
root, stop, seed, period = sys.argv[1], sys.argv[2], int(sys.argv[3]), float(sys.argv[4])
rng = random.Random(seed)
done = {"truncate": 0, "flip": 0, "delete": 0}
while not os.path.exists(stop):
    names = [n for n in os.listdir(root)
             if n.startswith(("_cl2c_", "src_")) and not n.endswith(".lock")]
    if names:
        path = os.path.join(root, rng.choice(names))
        action = rng.choice(sorted(done))
        try:
            if action == "delete":
                os.unlink(path)
            else:
                with open(path, "r+b") as f:
                    size = os.fstat(f.fileno()).st_size
                    if size and action == "truncate":
                        f.truncate(rng.randrange(size))
                    elif size:
                        at = rng.randrange(size)
                        f.seek(at)
                        byte = f.read(1)
                        f.seek(at)
                        f.write(bytes([byte[0] ^ 0xFF]))
            done[action] += 1
        except (OSError, IndexError):
            pass                    # gone or shrunk under us: a race we do not mind
    time.sleep(rng.uniform(0, 2 * period))
print(" ".join(f"{k}={v}" for k, v in done.items()))
"""


def _damage(cache_dir: Path, round_: int) -> None:
    """Each round starts with one entry file damaged, each kind in turn."""
    files = sorted(p for p in cache_dir.iterdir()
                   if p.name.startswith(("_cl2c_", "src_")) and p.suffix not in (".lock", ".c"))
    if not files:
        return
    path = files[round_ % len(files)]
    data = path.read_bytes()
    kind = round_ % 3
    if kind == 0:
        path.write_bytes(data[:len(data) // 3])
    elif kind == 1 and data:
        at = len(data) // 2
        path.write_bytes(data[:at] + bytes([data[at] ^ 0x55]) + data[at + 1:])
    else:
        path.unlink()


def _round(tmp_path: Path, cache_dir: Path, round_: int, processes: int, salt: int):
    go = tmp_path / f"go{round_}"
    env = dict(os.environ, CL2C_CACHE_DIR=str(cache_dir))
    env.pop("CL2C_NO_CACHE", None)
    workers = [subprocess.Popen([sys.executable, "-c", WORKER, str(go), str(salt)],
                                env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                                text=True) for _ in range(processes)]
    deadline = time.time() + 120
    while len(list(tmp_path.glob(f"go{round_}.ready.*"))) < processes and \
            time.time() < deadline and all(w.poll() is None for w in workers):
        time.sleep(0.01)
    go.touch()                               # all at once
    results = []
    for w in workers:
        out, err = w.communicate(timeout=600)
        assert w.returncode == 0, f"round {round_}: a worker failed:\n{err}"
        assert "Traceback" not in err, err
        results.append(json.loads(out.strip().splitlines()[-1]))
    assert all(r["ok"] for r in results), f"round {round_}: a wrong result: {results}"
    return results


def run_stress(tmp_path: Path, processes: int, rounds: int, period: float) -> dict:
    cache_dir = tmp_path / "cache"
    cache_dir.mkdir(mode=0o700)
    salt = random.randrange(1 << 20)         # a kernel no earlier run has cached
    stop = tmp_path / "stop"
    corrupter = subprocess.Popen([sys.executable, "-c", CORRUPTER, str(cache_dir), str(stop),
                                  str(salt), str(period)], stdout=subprocess.PIPE, text=True)
    start = time.perf_counter()
    hits = misses = 0
    try:
        for r in range(rounds):
            if r:
                _damage(cache_dir, r)
            results = _round(tmp_path, cache_dir, r, processes, salt)
            hits += sum(res["from_cache"] for res in results)
            misses += sum(not res["from_cache"] for res in results)
    finally:
        stop.touch()
        damage = corrupter.communicate(timeout=60)[0].strip()
    seconds = time.perf_counter() - start
    # and, the damage over, the cache ends usable
    final = _round(tmp_path, cache_dir, rounds, 1, salt)
    assert final[0]["ok"]
    counts = {k: int(v) for k, v in (kv.split("=") for kv in damage.split())}
    summary = {"processes": processes, "rounds": rounds, "seconds": round(seconds, 1),
               "hits": hits, "rebuilds": misses, "corrupter": counts}
    print(f"\ncache stress: {summary}")
    assert sum(counts.values()) > 0, "the corrupter damaged nothing: the test proves nothing"
    return summary


def test_cache_survives_concurrent_builds_and_damage_small(tmp_path):
    run_stress(tmp_path, processes=4, rounds=3, period=0.05)


@pytest.mark.skipif(os.environ.get("CL2C_STRESS", "") in ("", "0"),
                    reason="the full stress test is opt-in: make check-stress (CL2C_STRESS=1)")
def test_cache_survives_concurrent_builds_and_damage_full(tmp_path):
    run_stress(tmp_path, processes=int(os.environ.get("CL2C_STRESS_PROCESSES", "8")),
               rounds=int(os.environ.get("CL2C_STRESS_ROUNDS", "20")), period=0.05)
