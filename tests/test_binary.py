"""Program binaries (cl2c/binary.py): one serialised form for Program.to_bytes, pickles and
the build service; loaded with no compiler and no translation; refused when damaged."""
from __future__ import annotations

import ctypes
import json
import os
import pickle
import struct
import subprocess
import sys
import textwrap
from pathlib import Path

import numpy as np
import pytest

import cl2c
from cl2c import binary, loader
from cl2c.binary import BinaryError, ProgramBinary

SOURCE = """
#define SCALE 3.0f
__kernel void saxpy(__global float *y, __global const float *x, float a) {
    size_t i = get_global_id(0);
    y[i] = a * x[i] + y[i];
}
__kernel void group_sums(__global const float4 *x, __global float *out, __local float *tmp) {
    size_t l = get_local_id(0);
    float4 v = x[get_global_id(0)];
    tmp[l] = (v.x + v.y + v.z + v.w) * SCALE;
    barrier(CLK_LOCAL_MEM_FENCE);
    if (l == 0) {
        float s = 0.0f;
        for (size_t j = 0; j < get_local_size(0); j++)
            s += tmp[j];
        out[get_group_id(0)] = s;
    }
}
"""
OPTIONS = "-DUNUSED=1 -cl-fast-relaxed-math"
ROOT = Path(cl2c.__file__).resolve().parent.parent

# What a worker runs on the program it gets (pickled or as a binary file): both kernels,
# compared with NumPy; then it pickles the program again and runs that copy, and reports
# whether anything of the translator was imported and how long the load took.
WORKER = textwrap.dedent("""
    import json, pickle, sys, time
    import numpy as np
    import cl2c
    data = open(sys.argv[2], "rb").read()
    start = time.perf_counter()
    prg = pickle.loads(data) if sys.argv[1] == "pickle" else cl2c.Program.from_bytes(data)
    seconds = time.perf_counter() - start
    def check(prg):
        rng = np.random.default_rng(1)
        x = rng.standard_normal(256).astype(np.float32)
        y = rng.standard_normal(256).astype(np.float32)
        want = np.float32(2.5) * x + y
        prg.saxpy((256,), None, y, x, np.float32(2.5))
        v = rng.standard_normal((64, 4)).astype(np.float32)
        out = np.zeros(4, np.float32)
        prg.group_sums((64,), (16,), v, out, cl2c.LocalMemory(16 * 4))
        sums = (v.reshape(4, 16, 4).sum(axis=(1, 2)) * 3).astype(np.float32)
        return bool(np.allclose(y, want, rtol=1e-5, atol=1e-5)) and \\
            bool(np.allclose(out, sums, rtol=1e-4, atol=1e-4))
    first = check(prg)
    again = check(pickle.loads(pickle.dumps(prg)))
    translator = sorted(m for m in sys.modules
                        if m.split(".")[0] in ("pycparser", "pycparserext", "jinja2")
                        or m in ("cl2c.pipeline", "cl2c.parse", "cl2c.preprocess"))
    print(json.dumps({"ok": first and again, "translator": translator, "seconds": seconds,
                      "options": prg.options, "filename": prg.filename,
                      "kernels": prg.kernel_names}))
""")


def _without_compiler(tmp_path: Path) -> dict:
    """An environment with no C compiler to find: PATH an empty folder, $CC a missing
    program, a fresh kernel cache."""
    empty = tmp_path / "empty-path"
    empty.mkdir(exist_ok=True)
    env = dict(os.environ, PATH=str(empty), CC="/nonexistent/cc",
               CL2C_CACHE_DIR=str(tmp_path / "worker-cache"), PYTHONPATH=str(ROOT))
    env.pop("CL2C_NO_CACHE", None)
    return env


def _run_worker(tmp_path: Path, mode: str, data: bytes) -> dict:
    path = tmp_path / f"program.{mode}"
    path.write_bytes(data)
    proc = subprocess.run([sys.executable, "-c", WORKER, mode, str(path)],
                          env=_without_compiler(tmp_path), capture_output=True, text=True,
                          timeout=120)
    assert proc.returncode == 0, proc.stderr
    return json.loads(proc.stdout.splitlines()[-1])


@pytest.fixture(scope="module")
def built():
    return cl2c.Program(SOURCE, OPTIONS, filename="sums.cl").build()


@pytest.fixture(scope="module")
def data(built):
    return built.to_bytes()


def test_layout(data):
    magic, version, header, size = struct.unpack_from("<8sIIQ", data)
    assert (magic, version, header) == (b"CL2CBIN\0", binary.FORMAT_VERSION, 64)
    assert size == len(data) - 64
    b = ProgramBinary.decode(data)
    assert b.source == SOURCE and b.options == OPTIONS and b.filename == "sums.cl"
    assert b.info["kernels"] == "saxpy group_sums" and list(b.libraries) == ["extension"]
    assert "cl2c_argv_saxpy" in b.c_source
    assert [k["name"] for k in b.kernels] == ["saxpy", "group_sums"]


def test_round_trip_without_compiler(tmp_path, data):
    result = _run_worker(tmp_path, "binary", data)
    assert result["ok"] and result["translator"] == []
    assert result["options"] == OPTIONS and result["filename"] == "sums.cl"
    assert result["kernels"] == ["saxpy", "group_sums"]


def test_pickle_without_compiler(tmp_path, built):
    result = _run_worker(tmp_path, "pickle", pickle.dumps(built))
    assert result["ok"] and result["translator"] == []


def test_pickled_kernels_share_their_program(built):
    saxpy, sums = pickle.loads(pickle.dumps((built.saxpy, built.group_sums)))
    assert saxpy.program is sums.program and saxpy.name == "saxpy"
    y = np.zeros(4, np.float32)
    saxpy((4,), None, y, np.ones(4, np.float32), np.float32(5))
    assert (y == 5).all()


def test_pickle_unbuilt():
    prg = pickle.loads(pickle.dumps(cl2c.Program(SOURCE, ["-DUNUSED=1"], "sums.cl",
                                                 strict_buffers=True)))
    assert (prg.source, prg.options, prg.filename, prg.strict_buffers) == \
        (SOURCE, "-DUNUSED=1", "sums.cl", True)
    with pytest.raises(RuntimeError, match="not built"):
        prg.kernel_names
    x = np.ones(8, np.float32)
    y = np.zeros(8, np.float32)
    prg.build().saxpy((8,), None, y, x, np.float32(2))
    assert (y == 2).all()


def test_loaded_program_keeps_what_it_was(built, data):
    prg = cl2c.Program.from_bytes(data)
    assert prg.c_source == built.c_source and prg.kernel_names == built.kernel_names
    assert prg.to_bytes() == data


def _refused(data, reason):
    with pytest.raises(BinaryError) as info:
        cl2c.Program.from_bytes(data)
    assert info.value.reason == reason, str(info.value)
    return str(info.value)


@pytest.mark.parametrize("where", [0, 9, 20, 40, 64, 70, -1000, -1])
def test_flipped_byte_refused(data, where):
    damaged = bytearray(data)
    damaged[where] ^= 0x20
    reason = "format" if 0 <= where < 12 else "damaged"    # the magic, format version
    _refused(bytes(damaged), reason)


@pytest.mark.parametrize("keep", [0, 5, 30, 63, 64, 100, -1])
def test_truncated_refused(data, keep):
    message = _refused(data[:keep], "format" if 0 <= keep < 8 else "damaged")
    assert "magic" in message if 0 <= keep < 8 else "truncated" in message


def test_extended_refused(data):
    assert "truncated or extended" in _refused(data + b"\0", "damaged")


def test_wrong_magic_refused(data):
    assert "not a cl2c program binary" in _refused(b"\x7fELF" + data[4:], "format")
    _refused(b"", "format")
    with pytest.raises(BinaryError, match="bytes, not str"):
        cl2c.Program.from_bytes("CL2CBIN")


def test_other_format_version_refused(data):
    other = data[:8] + struct.pack("<I", binary.FORMAT_VERSION + 1) + data[12:]
    assert f"format version {binary.FORMAT_VERSION + 1}" in _refused(other, "format")


def _altered(data, **info):
    b = ProgramBinary.decode(data)
    b.info.update(info)
    return b.encode()


def test_other_cl2c_refused_and_rebuilt_by_pickles(data):
    other = _altered(data, cl2c="0.0.1")
    assert "cl2c 0.0.1" in _refused(other, "version")
    _refused(_altered(data, translator="0" * 64), "version")
    _refused(_altered(data, runtime="0" * 64), "version")
    # a pickle rebuilds from the source where a compiler is (here)
    with pytest.warns(binary.BinaryRebuildWarning, match="cl2c 0.0.1"):
        prg = loader.restore_program(other)
    y = np.zeros(4, np.float32)
    prg.saxpy((4,), None, y, np.ones(4, np.float32), np.float32(3))
    assert (y == 3).all()


def test_other_target_refused(data):
    assert "avx9000" in _refused(_altered(data, cpu_flags=ProgramBinary.decode(data)
                                          .info["cpu_flags"] + " avx9000"), "target")
    _refused(_altered(data, machine="riscv128"), "target")
    # a flag that says where a CPU runs, not what it executes, is no reason
    cl2c.Program.from_bytes(_altered(data, cpu_flags=ProgramBinary.decode(data)
                                     .info["cpu_flags"] + " hypervisor"))


def test_another_pythons_binary_loads(data):
    """A program's library is a plain shared library: a binary that another Python
    made (format 1 named its extension ABI) loads and runs here."""
    prg = cl2c.Program.from_bytes(_altered(data, python_abi=".cpython-99-x.so"))
    y = np.zeros(4, np.float32)
    prg.saxpy((4,), None, y, np.ones(4, np.float32), np.float32(2))
    assert (y == 2).all()


def test_forged_module_name_refused(data):
    assert "module name" in _refused(_altered(data, module="os"), "damaged")


def test_rebuild_without_compiler_says_both(tmp_path, data):
    path = tmp_path / "other.bin"
    path.write_bytes(_altered(data, cl2c="0.0.1"))
    code = ("import sys, cl2c.binary, cl2c.loader as b\n"
            "try:\n    b.restore_program(open(sys.argv[1], 'rb').read())\n"
            "except cl2c.binary.BinaryError as e:\n    print(e.reason, e); sys.exit(7)\n")
    proc = subprocess.run([sys.executable, "-c", code, str(path)], capture_output=True,
                          text=True, env=_without_compiler(tmp_path), timeout=120)
    assert proc.returncode == 7, proc.stderr
    assert proc.stdout.startswith("version program binary made by cl2c 0.0.1")
    assert "no C compiler ('/nonexistent/cc' is not found)" in proc.stdout


# ---- the build service -----------------------------------------------------------------

def _service(tmp_path, source: str, *args):
    src = tmp_path / "prog.cl"
    src.write_text(source)
    out, log = tmp_path / "prog.bin", tmp_path / "prog.log"
    proc = subprocess.run([sys.executable, "-m", "cl2c.build_service", "--source", str(src),
                           "--output", str(out), "--log", str(log), *args],
                          capture_output=True, text=True, timeout=300,
                          env=dict(os.environ, PYTHONPATH=str(ROOT)))
    return proc, out, log.read_text() if log.exists() else None


def test_service_syntax_error(tmp_path):
    bad = "__kernel void k(__global int *a) {\n    a[get_global_id(0)] = 1 +;\n}\n"
    proc, out, log = _service(tmp_path, bad, "--filename", "bad.cl")
    assert proc.returncode == 1, proc.stderr
    assert "bad.cl:2:30: error:" in log and not out.exists()
    assert proc.stdout == ""


def test_service_bad_option(tmp_path):
    proc, out, log = _service(tmp_path, SOURCE, "--options=-no-such-option")
    assert proc.returncode == 4 and "-no-such-option" in log and not out.exists()


def test_service_usage_errors(tmp_path):
    proc = subprocess.run([sys.executable, "-m", "cl2c.build_service", "--source",
                           str(tmp_path / "missing.cl"), "--output", str(tmp_path / "x")],
                          capture_output=True, text=True, env=dict(os.environ,
                                                                   PYTHONPATH=str(ROOT)))
    assert proc.returncode == 2 and "cannot read" in proc.stderr
    proc = subprocess.run([sys.executable, "-m", "cl2c.build_service"], capture_output=True,
                          text=True, env=dict(os.environ, PYTHONPATH=str(ROOT)))
    assert proc.returncode == 2 and "required" in proc.stderr


def test_service_builds_a_binary_that_loads(tmp_path):
    proc, out, log = _service(tmp_path, SOURCE, f"--options={OPTIONS}", "--library", "both")
    assert proc.returncode == 0, log
    data = out.read_bytes()
    b = ProgramBinary.decode(data)
    assert sorted(b.libraries) == ["extension", "shared"] and b.options == OPTIONS
    assert b.libraries["shared"] == b.libraries["extension"]    # one compile serves both
    # the shared library, as the platform loads it: the C entry points and program info
    lib_path = tmp_path / "prog.so"
    lib_path.write_bytes(b.libraries["shared"])
    lib = ctypes.CDLL(str(lib_path))
    for name in ("cl2c_argv_saxpy", "cl2c_kernel_group_sums", b.info["program_symbol"]):
        assert getattr(lib, name)
    # the extension, as a worker with no compiler loads it
    result = _run_worker(tmp_path, "binary", data)
    assert result["ok"] and result["translator"] == []


def test_service_shared_only_is_refused_by_python(tmp_path):
    proc, out, log = _service(tmp_path, SOURCE, "--portable")
    assert proc.returncode == 0, log
    b = ProgramBinary.decode(out.read_bytes())
    assert list(b.libraries) == ["shared"] and b.info["native"] == "0"
    message = _refused(out.read_bytes(), "library")
    assert "no extension library" in message


def test_service_facts_match_what_binaries_say(data):
    proc = subprocess.run([sys.executable, "-m", "cl2c.build_service", "--facts"],
                          capture_output=True, text=True, timeout=120,
                          env=dict(os.environ, PYTHONPATH=str(ROOT)))
    assert proc.returncode == 0, proc.stderr
    facts = dict(line.split("=", 1) for line in proc.stdout.splitlines())
    info = ProgramBinary.decode(data).info
    assert facts["format"] == str(binary.FORMAT_VERSION)
    for key in ("cl2c", "translator", "runtime", "machine", "system"):
        assert facts[key] == info[key], key
    assert set(info["cpu_flags"].split()) <= set(facts["cpu_flags"].split())


def test_service_warnings_from_stdin(tmp_path):
    source = "#warning careful\n__kernel void k(__global int *a) { a[0] = 1; }\n"
    cmd = [sys.executable, "-m", "cl2c.build_service", "--source", "-", "--filename",
           "w.cl", "--output", str(tmp_path / "w.bin")]
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    proc = subprocess.run(cmd, input=source, capture_output=True, text=True, env=env,
                          timeout=300)
    # no --log: the log is on stderr, and the binary keeps it as its build log
    assert proc.returncode == 0 and proc.stdout == ""
    assert proc.stderr.startswith("w.cl:1:1: warning: #warning careful"), proc.stderr
    assert ProgramBinary.decode((tmp_path / "w.bin").read_bytes()).build_log.startswith(
        "w.cl:1:1: warning: #warning careful")
    proc = subprocess.run(cmd[:-2] + ["--output", str(tmp_path / "e.bin"), "--options=-Werror"],
                          input=source, capture_output=True, text=True, env=env, timeout=300)
    assert proc.returncode == 1 and "w.cl:1:1: error: #warning careful" in proc.stderr
    assert not (tmp_path / "e.bin").exists()


def test_c_reads_a_binary_with_the_generated_definitions(tmp_path, cc):
    """The platform's side: C that knows the format from binary.c_definitions() alone
    finds the shared library and refuses a binary of another cl2c or format."""
    (tmp_path / "cl2c_binary.h").write_text(binary.c_definitions())
    exe = tmp_path / "reader"
    subprocess.run([cc, "-std=c11", "-Wall", "-Wextra", "-Werror", f"-I{tmp_path}",
                    str(Path(__file__).parent / "c" / "binary_reader.c"), "-o", str(exe)],
                   check=True, capture_output=True, text=True)
    proc, out, log = _service(tmp_path, SOURCE)
    assert proc.returncode == 0, log
    data = out.read_bytes()
    b = ProgramBinary.decode(data)

    def read(blob: bytes):
        path = tmp_path / "in.bin"
        path.write_bytes(blob)
        r = subprocess.run([str(exe), str(path)], capture_output=True, text=True)
        return r.returncode, r.stdout.split("\n")

    status, lines = read(data)
    assert status == 0, lines
    assert lines[:3] == [f"program_symbol {b.info['program_symbol']}",
                         "kernels saxpy group_sums", f"shared {len(b.libraries['shared'])}"]
    assert read(data[:-1]) == (1, ["refused truncated", ""])
    assert read(b"\x7fELF" + data[4:]) == (1, ["refused magic", ""])
    assert read(data[:8] + struct.pack("<I", binary.FORMAT_VERSION + 1) + data[12:]) == \
        (1, ["refused format", ""])
    assert read(_altered(data, translator="0" * 64)) == (1, ["refused translator", ""])


def test_program_globals_start_afresh():
    src = """global int counter = 5;
    kernel void bump(global int *out) { out[0] = counter; counter += 1; }"""
    prg = cl2c.Program(src, "-cl-std=CL2.0").build()
    out = np.zeros(1, np.int32)
    prg.bump((1,), (1,), out)
    copy = pickle.loads(pickle.dumps(prg))
    copy.bump((1,), (1,), out)
    assert out[0] == 5                 # its own variables, from their initial values
    prg.bump((1,), (1,), out)
    assert out[0] == 6
