"""`bench/bench.py --quick` runs every kernel class through cl2c, PoCL and the hand C,
and every output agrees with NumPy's (or cl2c's)."""
import importlib.util
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

pytestmark = pytest.mark.optimised      # what the optimiser makes of cl2c's C

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "bench"))
from cases import CLASSES  # noqa: E402


def test_bench_quick(tmp_path):
    if importlib.util.find_spec("pyopencl") is None:
        pytest.skip("pyopencl is not installed: the bench races cl2c against PoCL")
    out = tmp_path / "bench.json"
    env = dict(os.environ, PYTHONPATH=os.pathsep.join(
        filter(None, [str(ROOT), os.environ.get("PYTHONPATH")])))
    proc = subprocess.run(
        [sys.executable, str(ROOT / "bench" / "bench.py"), "--quick", "--no-intel",
         "--no-plot", "--reps", "2", "--json", str(out), "--out-dir", str(tmp_path)],
        capture_output=True, text=True, timeout=240, env=env)
    assert proc.returncode == 0, proc.stdout[-3000:] + proc.stderr[-3000:]
    results = json.loads(out.read_text())
    # a run may be committed (docs/data): the repository's files relative, no machine's paths
    assert str(tmp_path) not in out.read_text() and str(ROOT) not in out.read_text()

    assert {row["class"] for row in results["rows"]} == set(CLASSES)
    stencil_locals = {row["local"] for row in results["rows"] if row["class"] == "stencil"}
    assert stencil_locals == {"None", "16x16", "8x8"}
    for row in results["rows"]:
        res = row["results"]
        for label in ("cl2c", "hand C"):
            assert res[label].get("median_ms", 0) > 0, (row["kernel"], label, res[label])
            assert len(res[label]["samples_ms"]) == 2
        mismatches = {label: r.get("output_problem", r.get("error"))
                      for label, r in res.items() if r.get("output_ok") is False or "error" in r}
        assert not mismatches, (row["kernel"], row["local"], mismatches)
    # the hand C is checked against NumPy wherever NumPy gives the reference
    assert all(row["results"]["hand C"]["output_ok"] is True
               for row in results["rows"] if row["reference"] == "NumPy")
    assert "disabled with --no-intel" in results["skipped"]["Intel"]
