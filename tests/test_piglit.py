"""piglit's OpenCL corpus through cl2c: one test per file, stricter than piglit.

The corpus comes from Debian's piglit package, fetched once per machine (see
``piglit/corpus.py``). A file passes when its program builds (or fails to build, if it
says so) and every ``[test]`` section's outputs check out (see ``piglit/runner.py``).
The device is cl2c's model of OpenCL C 1.2 (PoCL's version here), and of 2.0 for the
files that need a 2.0 device (``clc_version_min: 20``); ``CL2C_PIGLIT_CLC=20`` (or 30)
runs every file on that device instead. Files whose requirements the device does not
meet (another vendor's device, cl_khr_fp16 where the C compiler has no _Float16) are
skipped with the reason; the image files run (their image and sampler arguments become
cl2c.Image and cl2c.Sampler).

``piglit/known_failures.txt`` lists every file expected to fail, with the reason. A listed
file that passes fails the run (remove it from the list), and so does an unlisted file
that fails.
"""
from __future__ import annotations

import os
from pathlib import Path

import pytest

from piglit import runner
from piglit.corpus import CorpusUnavailable, corpus_root, list_tests

KNOWN_FAILURES = Path(__file__).parent / "piglit" / "known_failures.txt"
# The device of every file, when set (runner.DEVICE_CLC_VERSIONS); else the file's own.
CLC = int(os.environ["CL2C_PIGLIT_CLC"]) if os.environ.get("CL2C_PIGLIT_CLC") else None


def known_failures() -> dict[str, str]:
    """{relative path: reason} from known_failures.txt (``path: reason`` lines, ``#``
    comments)."""
    out = {}
    for line in KNOWN_FAILURES.read_text(encoding="utf-8").splitlines():
        line = line.split("#", 1)[0].strip() if line.lstrip().startswith("#") else line.strip()
        if not line:
            continue
        path, _, reason = line.partition(": ")
        out[path.strip()] = reason.strip()
    return out


def _corpus():
    try:
        root = corpus_root()
        return root, list_tests(root), None
    except CorpusUnavailable as e:
        return None, [], str(e)


ROOT, FILES, UNAVAILABLE = _corpus()


@pytest.mark.skipif(UNAVAILABLE is not None, reason=f"piglit corpus: {UNAVAILABLE}")
@pytest.mark.parametrize("rel", FILES or ["<no corpus>"])
def test_piglit(rel):
    known = known_failures()
    result = runner.run_file(ROOT, rel, CLC)
    if result.status == "skip":
        pytest.skip(result.message)
    if rel in known:
        if result.status == "pass":
            pytest.fail(f"{rel} passes now: remove it from tests/piglit/known_failures.txt "
                        f"(listed as: {known[rel]})")
        pytest.xfail(f"{known[rel]} [{result.message.splitlines()[0][:300]}]")
    if result.status == "fail":
        pytest.fail(f"{rel}: {result.message}", pytrace=False)


@pytest.mark.skipif(UNAVAILABLE is not None, reason=f"piglit corpus: {UNAVAILABLE}")
def test_known_failures_name_corpus_files():
    stale = sorted(set(known_failures()) - set(FILES))
    assert not stale, f"known_failures.txt names files that are not in the corpus: {stale}"


@pytest.mark.skipif(UNAVAILABLE is not None, reason=f"piglit corpus: {UNAVAILABLE}")
def test_wrong_expectations_are_wrong():
    """Every corrected expectation names a real sub-test whose written value differs from
    the spec's (or is declared implementation-defined)."""
    count = 0
    for rel, tests in runner.WRONG_EXPECTATIONS.items():
        cfg, _, _ = runner.load(ROOT / rel)
        by_name = {t.name: t for t in cfg.tests}
        for name, fixes in tests.items():
            assert name in by_name, f"{rel} has no test '{name}'"
            count += 1
            outs = {a.index: a for a in by_name[name].args_out}
            for (index, k), (value, _) in fixes.items():
                arg = outs[index]
                written = runner.components(arg, runner.encode(arg))[k]
                if value is not None:
                    spec = runner.parse_float(value)
                    assert not (written == spec), f"{rel} '{name}' [{k}] is right already"
    assert count == 26


def test_config_parser():
    cfg = runner.parse_config("""
[config]
name: demo        # a comment
kernel_name: add
dimensions: 1
global_size: 4 0 0
local_size: NULL
[test]
arg_in: 0 buffer int3[2] 1 2 3 \\
                         4 5 6
arg_in: 1 float2 0x1p-1 -inf
arg_out: 2 buffer float[2] repeat nan tolerance 2 ulp
arg_out: 3 buffer float[1] 1 tolerance 0.5
""")
    test = cfg.tests[0]
    assert cfg.kernel_name == "add" and test.local_size is None and test.global_size[0] == 4
    a, b = test.args_in
    data = runner.encode(a).view("int32")
    assert list(data) == [1, 2, 3, 0, 4, 5, 6, 0]          # a 3-vector takes 4 slots
    assert list(runner.encode(b).view("float32")) == [0.5, float("-inf")]
    c, d = test.args_out
    assert c.tolerance == runner.Tolerance(2, True)
    assert d.tolerance == runner.Tolerance(0.5, False)     # stricter: absolute, not bits
    assert runner.check_value(float("nan"), float("nan"), c)
    assert not runner.check_value(1.0, float("nan"), c)     # piglit would accept this


def test_files_run_on_the_device_they_need():
    """OpenCL C 1.2 (PoCL's) by default, 2.0 for a file that needs it, and built for it."""
    cfg = runner.parse_config("[config]\nclc_version_min: 20\nkernel_name: k\n")
    assert runner.device_version(cfg) == 20 and runner.requirements(cfg) is None
    assert "-cl-std=CL2.0" in runner.build_options(cfg, Path("/"))
    assert "needs OpenCL C 2.0" in runner.requirements(cfg, 12)
    old = runner.parse_config("[config]\nclc_version_max: 12\nkernel_name: k\n")
    assert runner.device_version(old) == 12
    assert "-cl-std=CL1.2" in runner.build_options(old, Path("/"), 30)
    assert "-cl-std=CL3.0" in runner.build_options(cfg, Path("/"), 30)
