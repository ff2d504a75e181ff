"""A sample of PyOpenCL's own test suite on the cl2c platform (pyopencl_suite.py fetches
it; `make test-pyopencl` runs the whole files), both with PyOpenCL's binary cache and with
PYOPENCL_NO_CACHE=1; and the known-failures list's form."""
from __future__ import annotations

import pytest

import pyopencl_suite as suite

# Areas of the host API PyOpenCL reaches, with few kernel builds (a cold run's cost is
# builds, 6-10 s each on 2 busy cores; and with its cache on, PyOpenCL appends a unique
# `pyopencl_defeat_cache_<uuid>` to each source it builds, so cl2c's program cache never
# serves that mode): info queries, sub-buffers, vector and NULL arguments, user events and
# callbacks, rect copies, an elementwise kernel, compile and link, image formats. No
# reduction or scan: their sources #include PyOpenCL's headers (pyopencl-complex.h), whose
# cold builds took 50-65 s each.
SAMPLE = (
    "test_wrapper.py::test_compile_link",
    "test_wrapper.py::test_nonempty_supported_image_formats",
    "test_wrapper.py::test_sub_buffers",
    "test_wrapper.py::test_vector_args",
    "test_wrapper.py::test_user_event",
    "test_wrapper.py::test_event_set_callback",
    "test_wrapper.py::test_set_arg_none",
    "test_enqueue_copy.py::test_enqueue_copy_rect_2d",
    "test_array.py::test_addition_array",
)


@pytest.fixture(scope="module")
def suite_root():
    pytest.importorskip("pyopencl", reason="PyOpenCL is not installed")
    try:
        return suite.suite_root()
    except suite.SuiteUnavailable as e:
        pytest.skip(f"PyOpenCL's test suite is unavailable: {e}")


@pytest.mark.parametrize("mode", suite.MODES)
def test_pyopencl_sample_on_cl2c(suite_root, mode):
    result = suite.run(list(SAMPLE), mode, timeout=900)
    verdict = suite.judge(result, suite.known_failures(mode))
    assert result.outcomes, result.output[-4000:]
    assert verdict.ok, suite.describe(result, verdict)
    # every entry of the sample ran and passed (a skip is no pass)
    for entry in SAMPLE:
        outcomes = [o for i, o in result.outcomes.items() if i.startswith(entry)]
        assert outcomes and set(outcomes) == {"passed"}, (entry, outcomes)


def test_known_failures_name_a_test_of_the_full_run_and_a_cause():
    known = suite.known_failures()
    lines = [l for l in suite.KNOWN_FAILURES.read_text(encoding="utf-8").splitlines()
             if l.strip() and not l.startswith("#")]
    assert len(known) == len(lines), "a test is listed twice"
    for test_id, cause in known.items():
        assert test_id.split("::")[0] in suite.FULL_FILES, test_id
        assert "::test_" in test_id and cause, test_id


def test_judge_fails_on_new_failures_and_unexpected_passes():
    known = {"test_a.py::test_x[ctx]": "a cause", "test_a.py::test_y[ctx]": "a cause"}
    result = suite.Result(outcomes={"test_a.py::test_x[ctx]": "failed",
                                    "test_a.py::test_y[ctx]": "passed",
                                    "test_a.py::test_z[ctx]": "failed",
                                    "test_a.py::test_w[ctx]": "skipped"})
    verdict = suite.judge(result, known)
    assert verdict.new_failures == ["test_a.py::test_z[ctx]"]
    assert verdict.unexpected_passes == ["test_a.py::test_y[ctx]"]
    assert verdict.known_failed == 1 and not verdict.ok
    assert suite.judge(suite.Result(outcomes={"test_a.py::test_x[ctx]": "failed"}),
                       known).ok


def test_test_ids_name_the_context_factory_ctx():
    raw = ("test_array.py::test_sum[<context factory for <pyopencl.Device "
           "'cl2c (C11 + OpenMP on the host CPU)' on 'cl2c'>>-float32]")
    assert suite.normalised_id(raw) == "test_array.py::test_sum[ctx-float32]"


def test_driver_version_changes_with_what_binaries_must_match(monkeypatch):
    # PyOpenCL keys its binary cache by the driver version: a cl2c that would refuse
    # another's binaries must not share its key
    from cl2c import binary
    from cl2c.platform import device_facts
    from icd_helpers import run_pyopencl
    reported = run_pyopencl("out(device.driver_version)")
    assert reported == device_facts.driver_version()
    facts = binary.required_facts()
    monkeypatch.setattr(binary, "required_facts",
                        lambda: {**facts, "translator": facts["translator"] + "x"})
    assert device_facts.driver_version() != reported
    monkeypatch.setattr(binary, "required_facts",
                        lambda: {**facts, "cpu_flags": facts["cpu_flags"] + " x"})
    assert device_facts.driver_version() == reported
