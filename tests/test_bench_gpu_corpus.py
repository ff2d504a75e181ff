"""`bench/bench.py --corpus gpu --quick`: every kernel of the GPU-style corpus runs
through cl2c and its hand-written C at tiny sizes, and both outputs agree with
NumPy's (a correctness pass only: one repetition, no PoCL or Intel). On one thread: the
Guide's shortest paths race between work-groups as printed (phase 1's plain updates),
and a lost update that nothing repairs would differ from NumPy's costs."""
import json
import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "bench"))
from gpu_cases import CORPUS_CLASSES  # noqa: E402


def test_gpu_corpus_quick(tmp_path):
    out = tmp_path / "bench-gpu.json"
    env = dict(os.environ, PYTHONPATH=os.pathsep.join(
        filter(None, [str(ROOT), os.environ.get("PYTHONPATH")])))
    proc = subprocess.run(
        [sys.executable, str(ROOT / "bench" / "bench.py"), "--corpus", "gpu", "--quick",
         "--no-pocl", "--no-intel", "--no-plot", "--reps", "1", "--threads", "1",
         "--json", str(out),
         "--out-dir", str(tmp_path)],
        capture_output=True, text=True, timeout=300, env=env)
    assert proc.returncode == 0, proc.stdout[-3000:] + proc.stderr[-3000:]
    rows = json.loads(out.read_text())["rows"]

    assert {row["class"] for row in rows} == set(CORPUS_CLASSES)
    assert sum(row["class"] == "lecture" for row in rows) == 7   # every version printed
    for row in rows:
        assert row["reference"] == "NumPy", row["kernel"]
        for label in ("cl2c", "hand C"):
            res = row["results"][label]
            assert res.get("output_ok") is True, (row["kernel"], label, res)
            assert res["median_ms"] > 0
