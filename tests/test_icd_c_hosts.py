"""C host programs (tests/icd_hosts/*.c) on the cl2c platform through the system's ICD
loader (Debian's ocl-icd: libOpenCL and its headers), checking their own results; and the
same under ThreadSanitizer and AddressSanitizer, with the platform library built with the
sanitizer too (four threads enqueue on queues of one context)."""
from __future__ import annotations

import ctypes.util
import shutil
import subprocess
from pathlib import Path

import pytest

from cl2c.platform import library
from icd_helpers import icd_environment

HOSTS = Path(__file__).parent / "icd_hosts"


def _requirements() -> str:
    if not Path("/usr/include/CL/cl.h").is_file():
        pytest.skip("no OpenCL headers (Debian's opencl-c-headers)")
    if ctypes.util.find_library("OpenCL") is None:
        pytest.skip("no ICD loader (Debian's ocl-icd-libopencl1, ocl-icd-opencl-dev)")
    cc = shutil.which("gcc") or shutil.which("cc")
    if cc is None:
        pytest.skip("no C compiler")
    return cc


def _compile(cc: str, source: Path, out: Path, flags: list[str]) -> None:
    proc = subprocess.run([cc, "-std=c11", "-O1", "-g", "-Wall", "-Wextra", "-Werror",
                           "-pthread", *flags, str(source), "-lOpenCL", "-lm", "-o", str(out)],
                          capture_output=True, text=True)
    assert proc.returncode == 0, proc.stderr[-3000:]


@pytest.mark.parametrize("version", [None, "3.0"])
@pytest.mark.parametrize("host", sorted(p.name for p in HOSTS.glob("*.c")))
def test_c_host_program(host, version, tmp_path):
    cc = _requirements()
    exe = tmp_path / "host"
    _compile(cc, HOSTS / host, exe, [])
    proc = subprocess.run([str(exe)], env=icd_environment(version), capture_output=True,
                          text=True, timeout=120)
    assert proc.returncode == 0 and proc.stdout.strip() == "ok", proc.stdout + proc.stderr


@pytest.mark.parametrize("sanitizer", ["thread", "address,undefined"])
def test_c_host_program_sanitized(sanitizer, tmp_path):
    cc = _requirements()
    flags = [f"-fsanitize={sanitizer}", "-fno-omit-frame-pointer"]
    written = library.sources()
    src = tmp_path / "src"
    src.mkdir()
    library.write_files({**written, **library.generated(written)}, src)
    lib = tmp_path / library.LIBRARY
    proc = subprocess.run([cc, "-std=c11", "-O1", "-g", "-fPIC", "-shared",
                           "-fvisibility=hidden", "-pthread", *flags, f"-I{src}",
                           *sorted(map(str, src.glob("*.c"))), "-o", str(lib)],
                          capture_output=True, text=True)
    if proc.returncode != 0:
        pytest.skip(f"the compiler cannot build with -fsanitize={sanitizer}: "
                    f"{proc.stderr[-300:]}")
    (tmp_path / library.ICD_FILE).write_text(f"{lib}\n")
    exe = tmp_path / "host"
    _compile(cc, HOSTS / "buffers_events.c", exe, flags)
    env = dict(icd_environment(), OCL_ICD_VENDORS=str(tmp_path),
               TSAN_OPTIONS="halt_on_error=1", ASAN_OPTIONS="detect_leaks=1")
    proc = subprocess.run([str(exe)], env=env, capture_output=True, text=True, timeout=300)
    assert proc.returncode == 0 and proc.stdout.strip() == "ok", \
        proc.stdout[-2000:] + proc.stderr[-4000:]
