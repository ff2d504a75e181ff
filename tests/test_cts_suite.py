"""tests/cts_suite.py (``make test-cts``), without the CTS: a stand-in suite executable
that speaks the CTS harness's protocol (``-list``, one test a run, the results JSON of
CL_CONFORMANCE_RESULTS_FILENAME) and passes, fails, skips, crashes or hangs as told."""
from __future__ import annotations

import json
import os
import stat

import cts_suite

# The harness's -list output, and a run of one test: what it does is the test's name.
_SUITE = r"""#!/bin/sh
if [ "$1" = "-list" ]; then
    printf 'Usage: test_fake [<test name>*]\n\t<test name>\tOne or more of\n'
    printf 'Test names:\n\tgood\n\tbad\n\tskipped\n\tcrashes\n\thangs\n\tquick_one\n\tskips_failures\n'
    exit 0
fi
result() { printf '{\n\t"cmd": "fake",\n\t"results": {\n\t\t"%s": "%s"\n\t}\n}\n' "$1" "$2" \
    > "$CL_CONFORMANCE_RESULTS_FILENAME"; }
case "$1" in
    good|quick_one) result "$1" pass; echo "$1 passed"; exit 0 ;;
    bad) result bad fail; echo "bad FAILED"; exit 1 ;;
    skipped) result skipped skip; exit 0 ;;
    skips_failures) result skips_failures skip; echo "FAILED 3 of 9 sub-tests."; exit 0 ;;
    crashes) kill -SEGV $$ ;;
    hangs) sleep 30 ;;
esac
"""


def _fake(tmp_path, suite="fake"):
    exe = tmp_path / "test_conformance" / suite / f"test_{suite}"
    exe.parent.mkdir(parents=True)
    exe.write_text(_SUITE)
    exe.chmod(exe.stat().st_mode | stat.S_IXUSR)
    return exe


def test_each_test_runs_alone_and_a_crash_or_hang_costs_only_itself(tmp_path):
    _fake(tmp_path)
    tails = {}
    result = cts_suite.run_suite(tmp_path, "fake", dict(os.environ), jobs=2, timeout=2,
                                 tails=tails)
    assert result.outcomes == {"good": "pass", "bad": "fail", "skipped": "skip",
                               "crashes": "crash", "hangs": "timeout", "quick_one": "pass",
                               "skips_failures": "fail"}
    assert "bad FAILED" in tails["fake/bad"] and "fake/good" not in tails
    table = cts_suite.markdown([result], "# CTS")
    assert "| fake | 7 | 2 | 2 | 1 | 1 | 1 |" in table
    assert "`bad` (fail), `crashes` (crash), `hangs` (timeout), `skips_failures` (fail)" \
        in table
    assert "- **fake** passed: `good`, `quick_one`" in table
    assert "- **fake** skipped: `skipped`" in table
    # runs saved with --json make the same table
    saved = tmp_path / "fake.json"
    saved.write_text(json.dumps({"suites": {"fake": result.outcomes},
                                 "seconds": {"fake": result.seconds}}))
    assert cts_suite.markdown(cts_suite.saved_results([saved]), "# CTS") == table


def test_a_suite_without_a_list_runs_whole(tmp_path, monkeypatch):
    exe = _fake(tmp_path)
    exe.write_text("#!/bin/sh\nprintf '{\"results\": {\"a\": \"pass\", \"b\": \"fail\"}}' "
                   "> \"$CL_CONFORMANCE_RESULTS_FILENAME\"\necho b FAILED\n")
    monkeypatch.setattr(cts_suite, "WHOLE_SUITES", {"fake"})
    tails = {}
    result = cts_suite.run_suite(tmp_path, "fake", dict(os.environ), 1, 5, tails)
    assert result.outcomes == {"a": "pass", "b": "fail"} and "b FAILED" in tails["fake"]


def test_quick_suites_run_their_quick_tests(tmp_path, monkeypatch):
    monkeypatch.setitem(cts_suite.SUITE_TESTS, "fake", "quick_")
    assert cts_suite.test_names(_fake(tmp_path), "fake") == ["quick_one"]


def test_math_brute_force_lists_its_functions(tmp_path):
    # its tests are the functions that -p prints; -list would print its usage
    exe = tmp_path / "test_conformance" / "math_brute_force" / "test_bruteforce"
    exe.parent.mkdir(parents=True)
    exe.write_text("#!/bin/sh\n[ \"$1\" = -p ] || { echo 'options:'; exit 1; }\n"
                   "printf '\\n./test_bruteforce\\t-p\\nMath function names:\\n"
                   "\\tacos\\n\\tfma\\n\\n'\n")
    exe.chmod(exe.stat().st_mode | stat.S_IXUSR)
    assert cts_suite.test_names(exe, "math_brute_force") == ["acos", "fma"]


def test_without_a_checkout_it_says_what_to_give(capsys, tmp_path, monkeypatch):
    monkeypatch.delenv("CTS_DIR", raising=False)
    assert cts_suite.main([]) == 2
    assert "CTS_DIR=<a checkout of" in capsys.readouterr().err
    assert cts_suite.main(["--cts-dir", str(tmp_path)]) == 2
    assert "not an OpenCL-CTS checkout" in capsys.readouterr().err
