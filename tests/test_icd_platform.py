"""The platform library as the ICD loaders see it: `cl2c --icd`'s folder, clinfo
through Debian's loader, and PyOpenCL through the loader its wheel bundles; what they
read of the platform and device is the device model's (cl2c.device())."""
from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

import cl2c
from cl2c import device_model
from cl2c.platform import device_facts, library
from icd_helpers import icd_environment, run_pyopencl


def test_cl2c_icd_prints_the_folder_with_one_icd_file(tmp_path):
    # a cache of its own: this test damages the library it built
    env = dict(os.environ, CL2C_CACHE_DIR=str(tmp_path))
    proc = subprocess.run([sys.executable, "-m", "cl2c.cli", "--icd"], env=env,
                          capture_output=True, text=True, timeout=600)
    assert proc.returncode == 0, proc.stderr
    folder = proc.stdout.strip()
    assert os.path.isabs(folder)
    icd_files = [n for n in os.listdir(folder) if n.endswith(".icd")]
    assert icd_files == ["cl2c.icd"]
    with open(os.path.join(folder, "cl2c.icd")) as f:
        named = f.read().strip()
    assert named == os.path.join(folder, library.LIBRARY) and os.path.isfile(named)
    # built once: the second call finds it
    again = subprocess.run([sys.executable, "-m", "cl2c.cli", "--icd"], env=env,
                           capture_output=True, text=True, timeout=120)
    assert again.stdout.strip() == folder
    # a library that is not the one built is built again (warned), in the same place
    with open(named, "r+b") as f:
        f.seek(100)
        byte = f.read(1)
        f.seek(100)
        f.write(bytes([byte[0] ^ 0xFF]))
    rebuilt = subprocess.run([sys.executable, "-m", "cl2c.cli", "--icd"], env=env,
                             capture_output=True, text=True, timeout=600)
    assert rebuilt.stdout.strip() == folder
    assert "corrupt" in rebuilt.stderr
    assert library._complete(Path(folder))


def test_cl2c_icd_without_a_compiler_says_so(tmp_path):
    env = dict(os.environ, CL2C_CACHE_DIR=str(tmp_path), CC=str(tmp_path / "no-such-cc"))
    proc = subprocess.run([sys.executable, "-m", "cl2c.cli", "--icd"], env=env,
                          capture_output=True, text=True, timeout=120)
    assert proc.returncode == 2 and proc.stdout == ""
    assert proc.stderr.startswith("cl2c: error: building the platform library needs a C "
                                  "compiler")
    assert "Traceback" not in proc.stderr


@pytest.mark.parametrize("version", [None, "3.0"])
def test_clinfo_lists_the_platform_and_device(version):
    if shutil.which("clinfo") is None:
        pytest.skip("no clinfo (Debian's clinfo package)")
    proc = subprocess.run(["clinfo"], env=icd_environment(version), capture_output=True,
                          text=True, timeout=120)
    assert proc.returncode == 0, proc.stderr
    text = proc.stdout
    expected = device_facts.devices()["30" if version else "12"]
    assert "Number of platforms                               1" in text
    lines = {}
    for line in text.splitlines():
        m = re.match(r"\s*(\S.*?)\s{2,}(\S.*)$", line)
        if m:
            lines.setdefault(m[1], m[2])
    assert lines["Platform Name"] == "cl2c"
    assert lines["Device Name"] == expected.name
    assert lines["Device Version"] == expected.version
    assert lines["Device Extensions"] == expected.extensions_string
    assert "cl_khr_icd" in lines["Platform Extensions"]
    # cl_khr_image2d_from_buffer's alignments, in pixels (clinfo says bytes for the base)
    assert lines["Pitch alignment for 2D image buffers"] == "1 pixels"
    assert lines["Base address alignment for 2D image buffers"] == "1 bytes"
    # clinfo builds a kernel to ask CL_KERNEL_PREFERRED_WORK_GROUP_SIZE_MULTIPLE
    assert lines["Preferred work group size multiple (kernel)"] == "8"
    errors = [l for l in text.splitlines() if re.search(r"error -?\d+|CL_INVALID|Invalid", l)]
    assert errors == []


_INFO = """
out(dict(platform=dict(name=platform.name, vendor=platform.vendor, version=platform.version,
                       extensions=platform.extensions, profile=platform.profile),
         name=device.name, version=device.version, c_version=device.opencl_c_version,
         extensions=device.extensions.split(), type=int(device.type),
         compute_units=device.max_compute_units, group=device.max_work_group_size,
         item_sizes=list(device.max_work_item_sizes), local=device.local_mem_size,
         global_mem=device.global_mem_size, max_alloc=device.max_mem_alloc_size,
         align=device.mem_base_addr_align, wide_float=device.preferred_vector_width_float,
         numeric=device.numeric_version if device.version.startswith("OpenCL 3") else 0,
         features=[f.name for f in device.opencl_c_features]
                  if device.version.startswith("OpenCL 3") else []))
"""


@pytest.mark.parametrize("version", [None, "3.0"])
def test_pyopencl_sees_the_device_model(version):
    info = run_pyopencl(_INFO, version)
    model = device_facts.devices()["30" if version else "12"]
    assert info["platform"]["name"] == "cl2c"
    assert "cl_khr_icd" in info["platform"]["extensions"].split()
    assert info["platform"]["version"].startswith("OpenCL 3.0" if version else "OpenCL 1.2")
    assert info["name"] == model.name == cl2c.device().name
    assert info["version"] == model.version
    assert info["extensions"] == list(model.extensions)
    assert info["features"] == list(model.features)
    assert info["c_version"] == cl2c.device("-cl-std=CL1.2").opencl_c_version
    assert info["type"] == 2                     # CL_DEVICE_TYPE_CPU
    assert info["compute_units"] == (int(os.environ["OMP_NUM_THREADS"])
                                     if os.environ.get("OMP_NUM_THREADS", "").isdigit()
                                     else len(os.sched_getaffinity(0)))
    assert info["group"] == model.max_work_group_size
    assert info["item_sizes"] == [model.max_work_group_size] * 3
    assert info["local"] == model.local_mem_size
    assert info["global_mem"] == os.sysconf("SC_PHYS_PAGES") * os.sysconf("SC_PAGE_SIZE")
    assert info["max_alloc"] >= max(info["global_mem"] // 4, 128 << 20)
    assert info["wide_float"] == device_model.VECTOR_WIDTHS["float"]
    if version:
        assert info["numeric"] == 3 << 22


def test_the_3_0_device_offers_the_image_features():
    features = device_facts.devices()["30"].features
    assert "__opencl_c_fp64" in features
    assert {"__opencl_c_images", "__opencl_c_read_write_images",
            "__opencl_c_3d_image_writes"} <= set(features)
