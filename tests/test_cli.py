"""The ``cl2c`` command line, run as ``python -m cl2c.cli``."""
from __future__ import annotations

import os
import re
import stat
import subprocess
import sys
import threading

import pytest

from cl2c.resources import runtime_include_dir
from conftest import kernel_source

CLI = [sys.executable, "-m", "cl2c.cli"]

HELLO = kernel_source("hello.cl")


def cl2c_cli(*args, cwd, input=None):
    return subprocess.run([*CLI, *map(str, args)], cwd=cwd, capture_output=True, text=True,
                          input=input, timeout=120)


def compile_c(cc, c_file, tmp_path, extra=()):
    cmd = [cc, "-std=c11", "-fopenmp", "-I", str(runtime_include_dir()), "-c", str(c_file),
           "-o", str(tmp_path / (c_file.stem + ".o")), *extra]
    res = subprocess.run(cmd, capture_output=True, text=True)
    assert res.returncode == 0, res.stderr


@pytest.fixture
def hello_cl(tmp_path):
    p = tmp_path / "hello.cl"
    p.write_text(HELLO)
    return p


def test_output_file_compiles(tmp_path, hello_cl, cc):
    res = cl2c_cli("hello.cl", "-o", "out.c", cwd=tmp_path)
    assert res.returncode == 0, res.stderr
    out = tmp_path / "out.c"
    assert "hello_kernel" in out.read_text()
    compile_c(cc, out, tmp_path)


def test_default_output_name(tmp_path, hello_cl):
    res = cl2c_cli("hello.cl", cwd=tmp_path)
    assert res.returncode == 0, res.stderr
    assert (tmp_path / "hello.c").exists()


def test_preprocess_only(tmp_path):
    (tmp_path / "inc.h").write_text("#define FROM_HEADER 99\nint in_header = 1;\n")
    (tmp_path / "pp.cl").write_text(
        '#include "inc.h"\n'
        "int version = __OPENCL_VERSION__;\n"
        "#ifdef CL_VERSION_1_2\nint has12 = CL_VERSION_1_2;\n#endif\n"
        "#ifdef __ENDIAN_LITTLE__\nint little = __ENDIAN_LITTLE__;\n#endif\n"
        "int user = USER_MACRO;\n"
        "int hdr = FROM_HEADER;\n")
    res = cl2c_cli("-E", "-DUSER_MACRO=12345", "pp.cl", cwd=tmp_path)
    assert res.returncode == 0, res.stderr
    out = res.stdout
    assert "int user = 12345;" in out
    assert "int hdr = 99;" in out
    assert "int version = 120;" in out or "int version = 200;" in out or \
        "int version = 300;" in out, out
    assert "int has12 = 120;" in out
    assert "int little = 1;" in out
    assert "USER_MACRO" not in out and "FROM_HEADER" not in out
    # line markers, as a C preprocessor writes them
    assert any(line.startswith(("#line", "# ")) and "pp.cl" in line
               for line in out.splitlines()), out
    lines = out.splitlines()
    markers = [i for i, line in enumerate(lines) if line.startswith(("#line", "# "))]
    assert any("inc.h" in lines[i] for i in markers), out
    # after the header, a marker leads back to pp.cl before 'int version'
    version_at = next(i for i, line in enumerate(lines) if line.startswith("int version"))
    last = max(i for i in markers if i < version_at)
    assert "pp.cl" in lines[last], out


def test_preprocess_to_file(tmp_path):
    (tmp_path / "k.cl").write_text("#define TWO 2\nint x = TWO;\n")
    res = cl2c_cli("-E", "k.cl", "-o", "k.i", cwd=tmp_path)
    assert res.returncode == 0, res.stderr
    assert "int x = 2;" in (tmp_path / "k.i").read_text()


def test_preprocess_only_writes_its_output_even_with_syntax_only(tmp_path):
    (tmp_path / "k.cl").write_text("#define TWO 2\nint x = TWO;\n")
    res = cl2c_cli("-E", "-fsyntax-only", "k.cl", "-o", "k.i", cwd=tmp_path)
    assert res.returncode == 0, res.stderr
    assert "int x = 2;" in (tmp_path / "k.i").read_text()


def test_depfile_lists_included_header(tmp_path):
    inc = tmp_path / "include"
    inc.mkdir()
    (inc / "helpers.h").write_text("static int add1(int x) { return x + 1; }\n")
    (tmp_path / "k.cl").write_text(
        '#include "helpers.h"\n'
        "__kernel void k(__global int *p) { p[get_global_id(0)] = add1(3); }\n")
    res = cl2c_cli("k.cl", "-I", "include", "-o", "k.c", "-MD", "-MF", "k.d", cwd=tmp_path)
    assert res.returncode == 0, res.stderr
    dep = (tmp_path / "k.d").read_text()
    target, _, prereqs = dep.partition(":")
    assert "k.c" in target
    assert "k.cl" in prereqs
    assert "helpers.h" in prereqs
    assert (tmp_path / "k.c").exists()


def test_syntax_only_writes_nothing(tmp_path, hello_cl):
    before = set(tmp_path.iterdir())
    res = cl2c_cli("-fsyntax-only", "hello.cl", cwd=tmp_path)
    assert res.returncode == 0, res.stderr
    assert res.stdout == ""
    assert set(tmp_path.iterdir()) == before


def test_syntax_only_reports_errors(tmp_path):
    (tmp_path / "bad.cl").write_text("__kernel void k(__global int *p) { p[0] = q; }\n")
    res = cl2c_cli("-fsyntax-only", "bad.cl", cwd=tmp_path)
    assert res.returncode == 1
    assert "bad.cl:1:" in res.stderr


WARNS = ("#pragma OPENCL EXTENSION made_up_extension : enable\n"
         "__kernel void k(__global int *p) { p[0] = 1; }\n")


@pytest.mark.parametrize("option, rc, shown", [("", 0, "warning"), ("-w", 0, None),
                                                ("-Werror", 1, "error")])
def test_warnings_shown_silenced_or_errors(tmp_path, option, rc, shown):
    (tmp_path / "w.cl").write_text(WARNS)
    res = cl2c_cli("w.cl", *([option] if option else []), cwd=tmp_path)
    assert res.returncode == rc, res.stderr
    if shown is None:
        assert res.stderr == ""
    else:
        assert f"w.cl:1:9: {shown}: unsupported OpenCL extension 'made_up_extension'" \
            in res.stderr
    assert (tmp_path / "w.c").exists() == (rc == 0)


def test_werror_in_an_options_string(tmp_path):
    (tmp_path / "w.cl").write_text(WARNS)
    res = cl2c_cli("w.cl", "--options", "-DX=1 -Werror", cwd=tmp_path)
    assert res.returncode == 1 and "[-Werror]" in res.stderr


def test_warnings_reach_python(tmp_path):
    import cl2c
    with pytest.warns(cl2c.BuildWarning, match="made_up_extension"):
        prg = cl2c.Program(WARNS, filename="w.cl").build()
    assert prg.build_log.startswith("w.cl:1:9: warning:")
    assert cl2c.Program(WARNS, "-w").build().build_log == ""
    with pytest.raises(cl2c.BuildError, match=r"w.cl:1:9: error: .*\[-Werror\]"):
        cl2c.Program(WARNS, "-Werror", filename="w.cl").build()


def test_stdin_to_stdout(tmp_path, cc):
    res = cl2c_cli("-", "-o", "-", cwd=tmp_path, input=HELLO)
    assert res.returncode == 0, res.stderr
    assert "hello_kernel" in res.stdout
    assert list(tmp_path.iterdir()) == []
    c_file = tmp_path / "stdin.c"
    c_file.write_text(res.stdout)
    compile_c(cc, c_file, tmp_path)


def _assert_diagnostic(res, where):
    assert res.returncode == 1, (res.returncode, res.stderr)
    assert "Traceback" not in res.stderr, res.stderr
    lines = res.stderr.splitlines()
    hits = [i for i, line in enumerate(lines) if line.startswith(where) and ": error:" in line]
    assert hits, res.stderr
    rest = lines[hits[0] + 1:]
    assert any(line.strip() == "^" or line.rstrip().endswith("^") for line in rest[:3]), \
        res.stderr
    return res.stderr


def test_syntax_error(tmp_path):
    (tmp_path / "syn.cl").write_text(
        "__kernel void k(__global int *p)\n"
        "{\n"
        "    p[0] = 1 +* ;\n"
        "}\n")
    res = cl2c_cli("syn.cl", "-o", "syn.c", cwd=tmp_path)
    _assert_diagnostic(res, "syn.cl:3:")
    assert not (tmp_path / "syn.c").exists()


def test_undeclared_identifier(tmp_path):
    (tmp_path / "und.cl").write_text(
        "__kernel void k(__global int *p)\n"
        "{\n"
        "    int i = get_global_id(0);\n"
        "    p[i] = undeclared_thing + 1;\n"
        "}\n")
    res = cl2c_cli("und.cl", "-o", "und.c", cwd=tmp_path)
    err = _assert_diagnostic(res, "und.cl:4:")
    assert "undeclared_thing" in err
    # the column points at the identifier
    col = int(err.split("und.cl:4:")[1].split(":")[0])
    assert col == len("    p[i] = ") + 1, err


def test_not_supported_yet(tmp_path):
    (tmp_path / "gt.cl").write_text(
        "__kernel void k(__global int4 *p)\n"
        "{\n"
        "    int i = 0;\n"
        "    int4 a[1] = {(int4)((int2)(1), p[i++].xy)};\n"   # (in braces: no temporary)
        "    p[0] = a[0];\n"
        "}\n")
    res = cl2c_cli("gt.cl", "-o", "gt.c", cwd=tmp_path)
    err = _assert_diagnostic(res, "gt.cl:4:")
    assert "side effects is not supported yet" in err


def test_loops_schedule_refuses_barriers(tmp_path):
    (tmp_path / "bar.cl").write_text(
        "__kernel void k(__global int *p, __local int *tmp)\n"
        "{\n"
        "    tmp[get_local_id(0)] = p[get_global_id(0)];\n"
        "    barrier(CLK_LOCAL_MEM_FENCE);\n"
        "    p[get_global_id(0)] = tmp[0];\n"
        "}\n")
    res = cl2c_cli("--schedule", "loops", "bar.cl", "-o", "bar.c", cwd=tmp_path)
    assert res.returncode == 1 and "Traceback" not in res.stderr
    assert "kernel 'k' has barriers: the 'loops' schedule cannot run it" in res.stderr
    res = cl2c_cli("bar.cl", "-o", "bar.c", cwd=tmp_path)
    assert res.returncode == 0, res.stderr
    assert " *   k: regions (" in (tmp_path / "bar.c").read_text()


def test_unknown_option_is_usage_error(tmp_path, hello_cl):
    res = cl2c_cli("--no-such-option", "hello.cl", cwd=tmp_path)
    assert res.returncode == 2
    assert "Traceback" not in res.stderr


def test_missing_input_file(tmp_path):
    res = cl2c_cli("nope.cl", cwd=tmp_path)
    assert res.returncode != 0
    assert "Traceback" not in res.stderr
    assert "nope.cl" in res.stderr


def test_shared_library(tmp_path, hello_cl, cc):
    res = cl2c_cli("--shared", "hello.cl", "-o", "libhello.so", cwd=tmp_path)
    assert res.returncode == 0, res.stderr
    lib = tmp_path / "libhello.so"
    assert lib.read_bytes()[:4] == b"\x7fELF"
    import ctypes
    so = ctypes.CDLL(str(lib))
    assert hasattr(so, "cl2c_kernel_hello_kernel")


MAIN_C = r"""
#include <stdio.h>
#include "hello.h"

int main(void)
{
    enum { N = 1000 };
    static float a[N], b[N], r[N];
    for (int i = 0; i < N; i++) { a[i] = (float)i; b[i] = 0.5f * (float)i; r[i] = -1.0f; }
    cl2c_range range = {0};
    range.work_dim = 1;
    range.global_size[0] = N;
    range.local_size[0] = 100;
    int status = cl2c_kernel_hello_kernel(&range, a, b, r);
    if (status != 0) { printf("status %d: %s\n", status, cl2c_error_string(status)); return 1; }
    for (int i = 0; i < N; i++)
        if (r[i] != 1.5f * (float)i) { printf("r[%d] = %g\n", i, r[i]); return 1; }
    printf("ok\n");
    return 0;
}
"""


def test_header_with_c_main(tmp_path, hello_cl, cc):
    res = cl2c_cli("hello.cl", "-o", "hello.c", "-H", "hello.h", cwd=tmp_path)
    assert res.returncode == 0, res.stderr
    (tmp_path / "main.c").write_text(MAIN_C)
    exe = tmp_path / "hello_main"
    cmd = [cc, "-std=c11", "-fopenmp", "-Wall", "-Wextra", "-Werror",
           "-I", str(runtime_include_dir()), "-I", str(tmp_path),
           str(tmp_path / "main.c"), str(tmp_path / "hello.c"), "-o", str(exe), "-lm"]
    build = subprocess.run(cmd, capture_output=True, text=True)
    assert build.returncode == 0, build.stderr
    run = subprocess.run([str(exe)], capture_output=True, text=True, timeout=60)
    assert run.returncode == 0 and run.stdout.strip() == "ok", run.stdout + run.stderr


def test_includedir_flag(tmp_path):
    res = cl2c_cli("--includedir", cwd=tmp_path)
    assert res.returncode == 0
    assert res.stdout.strip() == str(runtime_include_dir())


@pytest.mark.parametrize("kind", ["", "=native", "=portable"])
def test_cflags_are_those_program_build_uses(tmp_path, kind):
    """For build systems (CMake's cl2c_add_kernels, Make, Meson): the very flags of the
    Python route, for $CC."""
    from cl2c.target import Target
    res = cl2c_cli(f"--cflags{kind}", cwd=tmp_path)
    assert res.returncode == 0, res.stderr
    native = kind != "=portable"
    assert res.stdout.split() == Target.host(native=native).compile_flags()
    assert ("-march=native" in res.stdout.split()) == native and "-O3" in res.stdout


SHARED_TYPE = "typedef struct {{ float x, y; }} point;\n" \
              "__kernel void {name}(__global point *p) {{ p[0].x += p[0].y; }}\n"


def test_headers_of_two_files_with_one_shared_type(tmp_path, cc):
    """Two .cl files that define the same type (from one shared .h, say): one C file may
    include both generated headers; two different definitions of a name still clash."""
    for name in ("a", "b"):
        (tmp_path / f"{name}.cl").write_text(SHARED_TYPE.format(name=name))
        res = cl2c_cli(f"{name}.cl", "-H", f"{name}.h", cwd=tmp_path)
        assert res.returncode == 0, res.stderr
    (tmp_path / "main.c").write_text('#include "a.h"\n#include "b.h"\n'
                                     "int main(void) { point p = {1, 2}; (void)p; return 0; }\n")
    compile_c(cc, tmp_path / "main.c", tmp_path, ["-Wall", "-Wextra", "-Werror"])
    (tmp_path / "b.cl").write_text(SHARED_TYPE.format(name="b").replace("float x", "int x"))
    assert cl2c_cli("b.cl", "-H", "b.h", cwd=tmp_path).returncode == 0
    with pytest.raises(AssertionError, match="point"):
        compile_c(cc, tmp_path / "main.c", tmp_path)


STAGES = ("preprocess", "parse", "sema", "lower: expressions", "work-group: schedules", "emit")


def test_time_reports_each_stage(tmp_path):
    (tmp_path / "h.cl").write_text(HELLO)
    res = cl2c_cli("h.cl", "-o", "h.c", "--time", cwd=tmp_path)
    assert res.returncode == 0, res.stderr
    assert res.stderr.startswith("cl2c: time report for h.cl")
    for stage in STAGES + ("write", "total"):
        assert any(line.split("  ")[1].strip() == stage
                   for line in res.stderr.splitlines()[1:]), (stage, res.stderr)
    assert (tmp_path / "h.c").exists()


def test_time_from_python(tmp_path):
    script = ("import cl2c\n"
              "cl2c.Program(open('h.cl').read(), filename='h.cl').build()\n"
              "cl2c.Program(open('h.cl').read(), filename='h.cl').build()\n")
    (tmp_path / "h.cl").write_text(HELLO)
    env = dict(os.environ, CL2C_TIME="1", CL2C_CACHE_DIR=str(tmp_path / "cache"))
    res = subprocess.run([sys.executable, "-c", script], cwd=tmp_path, env=env,
                         capture_output=True, text=True, timeout=300)
    assert res.returncode == 0, res.stderr
    first, second = res.stderr.split("cl2c: time report for ")[1:]
    assert first.startswith("h.cl\n") and "C compile and load" in first
    assert all(s in first for s in STAGES)
    # the second build of the same source is a cache hit: no stage of translation
    assert second.startswith("h.cl (from the cache)") and "parse" not in second


# ---- outputs as a C compiler writes them ----------------------------------------------

def test_output_into_a_device_is_written_not_replaced(tmp_path):
    """`-o /dev/null` as root once replaced /dev/null with a regular file: a device of
    our own (the null device's numbers) stands in for it."""
    if os.geteuid() != 0:
        pytest.skip("making a device node needs root")
    (tmp_path / "h.cl").write_text(HELLO)
    dev = tmp_path / "null"
    os.mknod(dev, 0o666 | stat.S_IFCHR, os.makedev(1, 3))
    res = cl2c_cli("h.cl", "-o", str(dev), cwd=tmp_path)
    assert res.returncode == 0, res.stderr
    assert stat.S_ISCHR(os.stat(dev).st_mode)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["h.cl", "null"]


def test_output_into_a_fifo(tmp_path):
    (tmp_path / "h.cl").write_text(HELLO)
    fifo = tmp_path / "pipe"
    os.mkfifo(fifo)
    got = []
    reader = threading.Thread(target=lambda: got.append(fifo.read_text()))
    reader.start()
    res = cl2c_cli("h.cl", "-o", str(fifo), cwd=tmp_path)
    reader.join(timeout=60)
    assert res.returncode == 0, res.stderr
    assert "hello_kernel" in got[0]
    assert stat.S_ISFIFO(os.stat(fifo).st_mode)


def test_output_through_a_symlink(tmp_path):
    (tmp_path / "h.cl").write_text(HELLO)
    (tmp_path / "real").mkdir()
    target = tmp_path / "real" / "out.c"
    target.write_text("old")
    link = tmp_path / "link.c"
    link.symlink_to(target)
    res = cl2c_cli("h.cl", "-o", "link.c", cwd=tmp_path)
    assert res.returncode == 0, res.stderr
    assert link.is_symlink() and "hello_kernel" in target.read_text()
    assert sorted(p.name for p in (tmp_path / "real").iterdir()) == ["out.c"]


@pytest.mark.parametrize("where", ["missing/out.c", "adir"])
def test_unwritable_output_is_an_error_and_leaves_nothing(tmp_path, where):
    (tmp_path / "h.cl").write_text(HELLO)
    (tmp_path / "adir").mkdir()
    res = cl2c_cli("h.cl", "-o", where, cwd=tmp_path)
    assert res.returncode == 1
    assert res.stderr.startswith(f"cl2c: error: cannot write '{where}'"), res.stderr
    assert "Traceback" not in res.stderr and "internal error" not in res.stderr
    left = [p for p in tmp_path.rglob("*") if p.name.startswith(".cl2c-")]
    assert left == []


@pytest.mark.parametrize("args", [["-o", "k.cl"], ["-o", "k.c", "-H", "k.cl"],
                                  ["-o", "k.c", "-MD", "-MF", "k.cl"], ["-o", "./k.cl"],
                                  ["-o", "hard.c"], ["-o", "link.c"], ["--shared", "-o", "k.cl"],
                                  ["-E", "-o", "k.cl"]])
def test_an_output_that_is_the_input_is_refused(tmp_path, args):
    """As gcc refuses it: the same file by any name (a hard or symbolic link too), and the
    kernel source is left as it was."""
    src = tmp_path / "k.cl"
    src.write_text(HELLO)
    os.link(src, tmp_path / "hard.c")
    (tmp_path / "link.c").symlink_to(src)
    res = cl2c_cli("k.cl", *args, cwd=tmp_path)
    assert res.returncode == 1, res.stderr
    assert "is the input file 'k.cl'" in res.stderr and "Traceback" not in res.stderr
    assert src.read_text() == HELLO
    assert sorted(p.name for p in tmp_path.iterdir()) == ["hard.c", "k.cl", "link.c"]


def test_a_default_output_that_is_the_input_is_refused(tmp_path):
    (tmp_path / "k.c").write_text(HELLO)      # cl2c k.c would write k.c
    res = cl2c_cli("k.c", cwd=tmp_path)
    assert res.returncode == 1 and "is the input file 'k.c'" in res.stderr, res.stderr
    assert (tmp_path / "k.c").read_text() == HELLO


@pytest.mark.parametrize("args", [["-o", "k.c", "-H", "./k.c"], ["-o", "k.c", "-MD", "-MF", "k.c"],
                                  ["-o", "k.c", "-H", "k.h", "-MD", "-MF", "k.h"]])
def test_two_outputs_that_are_one_file_are_refused(tmp_path, args):
    (tmp_path / "k.cl").write_text(HELLO)
    res = cl2c_cli("k.cl", *args, cwd=tmp_path)
    assert res.returncode == 1 and "is also the" in res.stderr, res.stderr
    assert sorted(p.name for p in tmp_path.iterdir()) == ["k.cl"]


@pytest.mark.parametrize("args,why", [
    (["-H", "missing/k.h"], "there is no directory 'missing'"),
    (["-MD", "-MF", "file.txt/k.d"], "'file.txt' is not a directory"),
    (["-H", "adir"], "it is a directory"),
])
def test_a_failing_output_writes_none_of_them(tmp_path, args, why):
    """All outputs or none: the .c is neither made nor replaced when the header or the
    dependency file cannot be written."""
    (tmp_path / "k.cl").write_text(HELLO)
    (tmp_path / "file.txt").write_text("")
    (tmp_path / "adir").mkdir()
    (tmp_path / "old.c").write_text("old")
    for out in ("new.c", "old.c"):
        res = cl2c_cli("k.cl", "-o", out, *args, cwd=tmp_path)
        assert res.returncode == 1
        assert res.stderr == f"cl2c: error: cannot write '{args[-1]}': {why}\n"
    assert not (tmp_path / "new.c").exists() and (tmp_path / "old.c").read_text() == "old"
    assert not [p for p in tmp_path.rglob(".cl2c-*")]


@pytest.mark.parametrize("where,why", [("file.txt/k.so", "'file.txt' is not a directory"),
                                       ("missing/k.so", "there is no directory 'missing'")])
def test_a_shared_library_that_cannot_be_written_says_why(tmp_path, where, why):
    """Not "the C compiler failed (a cl2c bug)": the user's mistake, named."""
    (tmp_path / "k.cl").write_text(HELLO)
    (tmp_path / "file.txt").write_text("")
    res = cl2c_cli("k.cl", "--shared", "-o", where, cwd=tmp_path)
    assert res.returncode == 1
    assert res.stderr == f"cl2c: error: cannot write '{where}': {why}\n"


def test_all_outputs_of_a_shared_library_build(tmp_path):
    """--shared with a header and a dependency file: each written, the library
    executable as a linker makes it."""
    (tmp_path / "k.cl").write_text(HELLO)
    res = cl2c_cli("k.cl", "--shared", "-o", "k.so", "-H", "k.h", "-MD", cwd=tmp_path)
    assert res.returncode == 0, res.stderr
    assert (tmp_path / "k.so").read_bytes()[:4] == b"\x7fELF"
    assert os.stat(tmp_path / "k.so").st_mode & 0o100
    assert "cl2c_kernel_hello_kernel" in (tmp_path / "k.h").read_text()
    assert (tmp_path / "k.d").read_text().startswith("k.so: k.cl")


def test_shared_library_to_stdout_is_refused(tmp_path):
    (tmp_path / "h.cl").write_text(HELLO)
    res = cl2c_cli("h.cl", "--shared", "-o", "-", cwd=tmp_path)
    assert res.returncode == 2 and "standard output" in res.stderr
    assert not (tmp_path / "-").exists()


# ---- a program without kernels ---------------------------------------------------------

NO_KERNELS = "warning: no kernels in this program (no function is declared __kernel)"


@pytest.mark.parametrize("source,where", [
    ("", "e.cl:1:1"), ("\n// nothing yet\n", "e.cl:1:1"),
    ("// helpers\nint helper(int x) { return x + 1; }\nint g(void) { return 2; }\n",
     "e.cl:2:5")])
def test_a_program_without_kernels_warns(tmp_path, source, where):
    """An empty file (or one of helpers only) builds a program with nothing to launch:
    a warning from the command line and from Python, at the first function where there
    is one, else at the file's start (with -Werror, the error; positioned, as every error
    is: fuzzer seed 7704 found it without a line); -w silences it."""
    import cl2c
    (tmp_path / "e.cl").write_text(source)
    res = cl2c_cli("e.cl", "-o", "e.c", cwd=tmp_path)
    assert res.returncode == 0 and \
        res.stderr.splitlines()[0] == f"{where}: {NO_KERNELS}", res.stderr
    if where != "e.cl:1:1":
        assert res.stderr.splitlines()[1:] == ["int helper(int x) { return x + 1; }",
                                               "    ^"], res.stderr
    failed = cl2c_cli("e.cl", "-Werror", "-o", "e.c", cwd=tmp_path)
    assert failed.returncode == 1 and failed.stderr.startswith(
        f"{where}: error: no kernels in this program"), failed.stderr
    with pytest.warns(cl2c.BuildWarning, match=re.escape(NO_KERNELS)):
        prg = cl2c.Program(source, filename="e.cl").build()
    assert prg.build_log.splitlines()[0] == f"{where}: {NO_KERNELS}"
    assert cl2c.Program(source, "-w").build().build_log == ""


# ---- bytes that are not UTF-8 --------------------------------------------------------

def test_latin1_in_comments_is_accepted(tmp_path):
    (tmp_path / "h.h").write_bytes(b"/* (c) Jos\xe9 M\xfcller */\n#define SCALE 2\n")
    (tmp_path / "k.cl").write_bytes(b'#include "h.h"\n// caf\xe9\n'
                                    b"__kernel void k(__global int *a) /* \xff */"
                                    b" { a[0] *= SCALE; }\n")
    res = cl2c_cli("k.cl", "-o", "k.c", cwd=tmp_path)
    assert res.returncode == 0, res.stderr
    assert "a[0] *= 2" in (tmp_path / "k.c").read_text(encoding="utf-8")


@pytest.mark.parametrize("where", ["k.cl", "h.h"])
def test_a_byte_that_is_not_utf8_is_a_positioned_error(tmp_path, where):
    bad = b"int f(int x) { return x + 1; } \xe9\n"
    (tmp_path / "h.h").write_bytes(bad if where == "h.h" else b"#define SCALE 2\n")
    (tmp_path / "k.cl").write_bytes(b'#include "h.h"\n' +
                                    (bad if where == "k.cl" else b"") +
                                    b"__kernel void k(__global int *a) { a[0] = 1; }\n")
    res = cl2c_cli("k.cl", "-o", "k.c", cwd=tmp_path)
    assert res.returncode == 1 and "Traceback" not in res.stderr
    line = 2 if where == "k.cl" else 1
    first = res.stderr.splitlines()[0]
    assert first.endswith(f"{where}:{line}:32: error: invalid UTF-8 byte 0xe9 (OpenCL C "
                          f"source is UTF-8)"), res.stderr
    assert res.stderr.splitlines()[2].endswith("^")


def test_from_file_reports_bytes_that_are_not_utf8(tmp_path):
    import cl2c
    path = tmp_path / "k.cl"
    path.write_bytes(b"__kernel void k(__global int *a) { a[0] = '\xfe'; }\n")
    with pytest.raises(cl2c.BuildError, match=r"k.cl:1:44: error: invalid UTF-8 byte 0xfe"):
        cl2c.Program.from_file(path)


# ---- a byte-order mark and CRLF line ends (what Windows editors write) ---------------

BOM = b"\xef\xbb\xbf"
BOM_KERNEL = (b"kernel void k(global int *o) {\r\n"
              b"    o[get_global_id(0)] = 7 * (int)get_global_id(0);\r\n}\r\n")


def test_bom_and_crlf_file_builds_and_runs(tmp_path):
    import numpy as np

    import cl2c
    (tmp_path / "h.h").write_bytes(BOM + b"#define SEVEN 7\r\n")
    (tmp_path / "k.cl").write_bytes(BOM + b'#include "h.h"\r\n' +
                                    BOM_KERNEL.replace(b"7 *", b"SEVEN *"))
    res = cl2c_cli("k.cl", "-o", "k.c", cwd=tmp_path)
    assert res.returncode == 0 and not res.stderr, res.stderr
    for prg in (cl2c.Program.from_file(tmp_path / "k.cl").build(),
                cl2c.Program((BOM + BOM_KERNEL).decode()).build()):   # a str with one
        out = np.zeros(5, np.int32)
        prg.k((5,), None, out)
        assert out.tolist() == [0, 7, 14, 21, 28]


@pytest.mark.parametrize("where", ["k.cl", "h.h"])
def test_columns_on_line_one_after_a_bom(tmp_path, where):
    """The column counts from after the mark, and the caret stands under the name in
    the quoted line (which has no mark)."""
    bad = b"kernel void k(global int *o) { o[0] = x; }\r\n"
    (tmp_path / "h.h").write_bytes(BOM + (bad if where == "h.h" else b"\r\n"))
    (tmp_path / "k.cl").write_bytes(BOM + (bad if where == "k.cl" else b'#include "h.h"\n'))
    res = cl2c_cli("k.cl", "-fsyntax-only", cwd=tmp_path)
    assert res.returncode == 1, res.stderr
    first, quoted, caret = res.stderr.splitlines()[:3]
    assert first.endswith(f"{where}:1:39: error: use of undeclared identifier 'x'"), first
    assert quoted == bad.decode().rstrip() and caret == " " * 38 + "^"


# ---- #error and #warning ---------------------------------------------------------------

ERROR_SRC = "#ifndef SIZE\n#error SIZE is not set\n#endif\n" + HELLO
WARN_SRC = "  #warning this kernel is slow\n" + HELLO


def test_error_directive_stops_the_build(tmp_path):
    (tmp_path / "e.cl").write_text(ERROR_SRC)
    res = cl2c_cli("e.cl", "-o", "e.c", cwd=tmp_path)
    _assert_diagnostic(res, "e.cl:2:1")
    assert "error: #error SIZE is not set" in res.stderr
    assert not (tmp_path / "e.c").exists()
    assert cl2c_cli("e.cl", "-o", "e.c", "-DSIZE=4", cwd=tmp_path).returncode == 0


def test_warning_directive_is_a_warning(tmp_path):
    import cl2c
    with pytest.warns(cl2c.BuildWarning, match="this kernel is slow"):
        prg = cl2c.Program(WARN_SRC, filename="w.cl").build()
    assert prg.build_log.startswith("w.cl:1:3: warning: #warning this kernel is slow")
    assert cl2c.Program(WARN_SRC, "-w", filename="w.cl").build().build_log == ""
    with pytest.raises(cl2c.BuildError, match=r"w.cl:1:3: error: #warning this kernel is "
                                              r"slow \[-Werror\]"):
        cl2c.Program(WARN_SRC, "-Werror", filename="w.cl").build()


def test_an_include_loop_is_an_error(tmp_path):
    (tmp_path / "k.cl").write_text('#include "loop.h"\n' + HELLO)
    (tmp_path / "loop.h").write_text('#include "loop.h"\n')
    res = cl2c_cli("k.cl", "-o", "k.c", cwd=tmp_path)       # once: a translation without end
    _assert_diagnostic(res, "loop.h:1:1")
    assert "#include nested too deeply (more than 200 levels)" in res.stderr


def test_a_header_including_itself_twice_ends(tmp_path):
    # each level doubles: 2^200 inclusions without a bound on their number
    (tmp_path / "k.cl").write_text('#include "twice.h"\n' + HELLO)
    (tmp_path / "twice.h").write_text('#include "twice.h"\n#include "twice.h"\n')
    res = cl2c_cli("k.cl", "-o", "k.c", cwd=tmp_path)
    _assert_diagnostic(res, "twice.h:1:1")
    assert "more than 10,000 #includes in one translation unit" in res.stderr
    assert res.stderr.count("nested too deeply") == 1
    assert "2 errors generated" in res.stderr


def test_preprocessing_has_a_time_bound(monkeypatch):
    import cl2c
    from cl2c import preprocess
    monkeypatch.setattr(preprocess, "MAX_SECONDS", 0.0)
    src = "#define ONE(x) x + x\n" + "int f(int x) { return ONE(x); }\n" + HELLO
    with pytest.raises(cl2c.BuildError, match=r"preprocessing took longer than 0 seconds"):
        cl2c.Program(src, filename="slow.cl").build()


def test_deep_but_finite_includes(tmp_path):
    for i in range(150):
        (tmp_path / f"h{i}.h").write_text(f'#include "h{i + 1}.h"\n' if i < 149 else
                                          "#define DEPTH 150\n")
    (tmp_path / "k.cl").write_text('#include "h0.h"\n'
                                   "__kernel void k(__global int *a) { a[0] = DEPTH; }\n")
    res = cl2c_cli("k.cl", "-o", "k.c", cwd=tmp_path)
    assert res.returncode == 0, res.stderr
    assert "a[0] = 150" in (tmp_path / "k.c").read_text()


def test_cl_ext_models_a_device_without_an_extension(tmp_path):
    (tmp_path / "d.cl").write_text("kernel void k(global double *p) { p[0] = 1.0; }\n")
    assert cl2c_cli("d.cl", "-fsyntax-only", cwd=tmp_path).returncode == 0
    res = cl2c_cli("d.cl", "-fsyntax-only", "-cl-ext=-cl_khr_fp64", cwd=tmp_path)
    assert res.returncode == 1
    assert "d.cl:1:22: error: use of type 'double' requires cl_khr_fp64 support" in res.stderr


def test_python_m_cl2c(tmp_path):
    """``python -m cl2c`` is the ``cl2c`` command (an environment whose scripts are not on
    the PATH)."""
    (tmp_path / "hello.cl").write_text(HELLO)
    res = subprocess.run([sys.executable, "-m", "cl2c", "hello.cl", "-o", "out.c"],
                         cwd=tmp_path, capture_output=True, text=True, timeout=120)
    assert res.returncode == 0, res.stderr
    assert "cl2c_kernel_hello_kernel" in (tmp_path / "out.c").read_text()
