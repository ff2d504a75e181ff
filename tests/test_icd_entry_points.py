"""The platform library's description of the host API (cl2c/platform/entry_points.py,
cl_types.py) held to Khronos' headers as Debian ships them (opencl-c-headers), and the
C generated from it: warning-free under gcc and clang, exporting only what the ICD
loader looks up by name."""
from __future__ import annotations

import re
import shutil
import subprocess
from pathlib import Path

import pytest

from cl2c.platform import cl_types, generate, library
from cl2c.platform.entry_points import entry_points

ICD_HEADER = Path("/usr/include/CL/cl_icd.h")
needs_header = pytest.mark.skipif(not ICD_HEADER.is_file(),
                                  reason="no CL/cl_icd.h (Debian's opencl-c-headers)")
# What the Khronos headers need defined for every slot's typedef to be a function type.
_KHRONOS_PRELUDE = "#define CL_TARGET_OPENCL_VERSION 300\n" + "".join(
    f"#define CL_USE_DEPRECATED_OPENCL_{v}_APIS\n" for v in ("1_0", "1_1", "1_2", "2_0"))


def _cc() -> str:
    cc = shutil.which("gcc") or shutil.which("cc")
    if cc is None:
        pytest.skip("no C compiler")
    return cc


def test_the_table_has_150_slots_the_last_opencl_31s():
    slots = entry_points()
    assert len(slots) == 150
    assert len({e.name for e in slots}) == 150
    assert [e.index for e in slots] == list(range(150))
    assert slots[-1].signature() == (
        "cl_int clGetKernelSuggestedLocalWorkSize(cl_command_queue command_queue, "
        "cl_kernel kernel, cl_uint work_dim, const size_t *global_work_offset, "
        "const size_t *global_work_size, size_t *suggested_local_work_size)")


@needs_header
def test_slot_order_is_the_headers():
    text = re.sub(r"/\*.*?\*/", "", ICD_HEADER.read_text(), flags=re.S)
    body = re.search(r"struct _cl_icd_dispatch\s*\{(.*?)\}", text, re.S).group(1)
    header_slots = re.findall(r"cl_api_\w+\s+(\w+)\s*;", body)
    assert len(header_slots) == 149
    assert [e.name for e in entry_points()][:149] == header_slots


def _function_typedefs(cc: str) -> set[str]:
    """The slots whose typedef is a function pointer on this system (the Windows-only
    ones are plain void * outside Windows)."""
    pre = subprocess.run([cc, "-E", "-x", "c", "-"], input=_KHRONOS_PRELUDE +
                         "#include <CL/cl_icd.h>\n", capture_output=True, text=True,
                         check=True).stdout
    return set(re.findall(r"\(\s*\*\s*cl_api_(\w+)\s*\)", pre))


@needs_header
def test_prototypes_are_the_headers(tmp_path):
    """Each generated entry point assigned to the header's pointer type of its slot:
    a different return type or parameter fails the compile."""
    cc = _cc()
    (tmp_path / "cl2c_entry_points.h").write_text(generate.entry_points_header())
    typed = _function_typedefs(cc)
    checks = [f"cl_api_{e.name} slot_{e.index} = cl2c_{e.name};"
              for e in entry_points() if e.name in typed]
    assert len(checks) >= 125          # all but the Windows-only slots
    (tmp_path / "check.c").write_text(
        _KHRONOS_PRELUDE + "#include <CL/cl_icd.h>\n#define CL2C_KHRONOS_TYPES 1\n"
        '#include "cl2c_entry_points.h"\n' + "\n".join(checks) + "\n")
    proc = subprocess.run([cc, "-std=c11", "-Wall", "-Wextra", "-Werror", "-c", "check.c",
                           "-o", "check.o"], cwd=tmp_path, capture_output=True, text=True)
    assert proc.returncode == 0, proc.stderr[-3000:]


@needs_header
def test_constants_are_the_headers(tmp_path):
    cc = _cc()
    asserts = "".join(f'_Static_assert(({v}) == ({k}), "{k}");\n'
                      for k, v in cl_types.CONSTANTS.items())
    (tmp_path / "c.c").write_text(_KHRONOS_PRELUDE + "#include <CL/cl.h>\n"
                                  "#include <CL/cl_ext.h>\n" + asserts)
    proc = subprocess.run([cc, "-std=c11", "-c", "c.c", "-o", "c.o"], cwd=tmp_path,
                          capture_output=True, text=True)
    assert proc.returncode == 0, proc.stderr[-3000:]


def test_stubs_are_the_entry_points_not_written():
    written = library.sources()
    done = generate.implemented(written)
    assert {"clGetPlatformIDs", "clGetDeviceInfo"} <= done
    stubs = set(re.findall(r"CL2C_API\((cl\w+)\)\s*\(", generate.dispatch_source(done)))
    assert stubs == {e.name for e in entry_points()} - done


@pytest.mark.parametrize("compiler", ["gcc", "clang"])
def test_library_builds_without_warnings(compiler, tmp_path):
    if shutil.which(compiler) is None:
        pytest.skip(f"no {compiler}")
    written = library.sources()
    files = {**written, **library.generated(written)}
    library.write_files(files, tmp_path)
    out = tmp_path / "lib.so"
    cmd = [compiler, "-std=c11", "-O2", "-fPIC", "-shared", "-fvisibility=hidden",
           "-pthread", "-Wall", "-Wextra", "-Werror", f"-I{tmp_path}",
           *sorted(str(tmp_path / n) for n in files if n.endswith(".c")), "-o", str(out)]
    proc = subprocess.run(cmd, capture_output=True, text=True)
    assert proc.returncode == 0, proc.stderr[-4000:]
    if shutil.which("nm"):
        exported = subprocess.run(["nm", "-D", "--defined-only", str(out)],
                                  capture_output=True, text=True).stdout
        names = {line.split()[-1] for line in exported.splitlines() if " T " in line}
        assert names == {"clIcdGetPlatformIDsKHR", "clGetExtensionFunctionAddress",
                         "clGetPlatformInfo"}


def test_the_library_needs_no_opencl_headers():
    written = library.sources()
    for name, text in {**written, **library.generated(written)}.items():
        assert "<CL/" not in text and '"CL/' not in text, name
