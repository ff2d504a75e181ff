"""-cl-std as a value (cl2c/language_version.py): its names, its order, what each version
has, and the forms that outlive a build (cache keys, the device model) as they were."""
from __future__ import annotations

import numpy as np
import pytest

import cl2c
from cl2c.diagnostics import BuildError
from cl2c.language_version import CL1_0, CL1_2, CL2_0, CL3_0, VERSIONS
from cl2c.options import parse_options


@pytest.mark.parametrize("name,number", [("CL1.0", 100), ("CL1.1", 110), ("CL1.2", 120),
                                         ("CL2.0", 200), ("CL3.0", 300)])
def test_each_name_parses_to_its_version(name, number):
    version = parse_options(f"-cl-std={name}").cl_std
    assert version is VERSIONS[name] and version.name == name and version.number == number
    assert str(version) == name and version.dotted == name.removeprefix("CL")


def test_the_default_is_1_2_and_versions_are_ordered():
    assert parse_options("").cl_std == CL1_2
    assert CL1_0 < CL1_2 < CL2_0 < CL3_0 and max(CL2_0, CL3_0) is CL3_0


def test_an_unknown_version_is_refused():
    with pytest.raises(BuildError, match="CL1.0, CL1.1, CL1.2, CL2.0, CL3.0"):
        parse_options("-cl-std=CL2.1")


def test_features_come_with_their_version():
    features = ("generic_address_space", "program_scope_variables", "atomic_types",
                "read_write_images", "non_uniform_work_groups")
    for name in features:
        assert [getattr(v, name) for v in (CL1_0, CL1_2, CL2_0, CL3_0)] == [0, 0, 1, 1], name
    assert [v.feature_macros for v in (CL1_2, CL2_0, CL3_0)] == [False, False, True]
    assert [v.device_version for v in (CL1_0, CL1_2, CL2_0, CL3_0)] == [CL1_2, CL1_2, CL2_0,
                                                                         CL3_0]


@pytest.mark.parametrize("name,number", [("CL1.2", 120), ("CL2.0", 200), ("CL3.0", 300)])
def test_cache_keys_and_the_device_keep_their_form(name, number):
    assert f" std={number} " in parse_options(f"-cl-std={name}").key()
    device = cl2c.device(f"-cl-std={name}")
    assert device.opencl_c_version.startswith(f"OpenCL C {name[2:]} cl2c ")
    assert bool(device.features) == (name == "CL3.0")
    assert ("cl_khr_subgroups" in device.extensions) == (name != "CL1.2")


def test_the_version_macros_are_numbers():
    src = ("__kernel void k(__global int *o) { o[0] = __OPENCL_C_VERSION__; "
           "o[1] = __OPENCL_VERSION__; }")
    for name, want in (("CL1.1", [110, 120]), ("CL2.0", [200, 200]), ("CL3.0", [300, 300])):
        out = np.zeros(2, np.int32)
        cl2c.Program(src, options=f"-cl-std={name}").build().k((1,), None, out)
        assert out.tolist() == want, name
