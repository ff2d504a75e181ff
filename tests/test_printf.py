"""printf (OpenCL C 6.12.13) against PoCL and against C99's printf, line for line.

printf writes to the C runtime's stdout, which is not Python's sys.stdout, so each side
runs in a subprocess whose standard output is captured: one cl2c build and one PoCL
build of a generated program (every scalar integer type with d i o u x X c and their
length modifiers, floats and doubles with f F e E g G a A, vectors of every width and
element size with hh h hl l, string literals with %s, %%, flags, field widths and
precisions, return values), then its kernels one after another, with a line printed from
Python before each launch: cl2c's output must come between those lines, which checks
that a launch flushes Python's stdout before it and C's after it. Where several
work-items print, their lines are compared sorted (the spec leaves their order open),
and each must be whole: the output of two calls never interleaves.

The reference is PoCL's output, except where this PoCL (3.0) is wrong, where it is C99's
printf (the C library's, through ctypes, with a vector conversion written out as one
conversion per component joined by ','; that it agrees with PoCL everywhere else is
checked too). PoCL is wrong on: double arguments (it prints them as floats: 0.1 as
0.10000000149011612, 1e300 as inf), vectors of 64 bytes or more (garbage), and %s with
both a field width and a precision ("%5.1s" of "xyz" prints " ", not "    x"). PoCL and
C99 agree on %a and %A for floats.
"""
from __future__ import annotations

import ctypes
import json
import math
import os
import re
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import pytest

import cl2c
from cl2c.resources import runtime_include_dir

INTS = {  # type: (length modifier, values)
    "char": ("hh", [-128, -1, 0, 1, 65, 127]),
    "uchar": ("hh", [0, 1, 65, 200, 255]),
    "short": ("h", [-32768, -1, 0, 7, 32767]),
    "ushort": ("h", [0, 1, 40000, 65535]),
    "int": ("", [-2 ** 31, -1, 0, 42, 2 ** 31 - 1]),
    "uint": ("", [0, 1, 3000000000, 2 ** 32 - 1]),
    "long": ("l", [-2 ** 63, -1, 0, 1234567890123, 2 ** 63 - 1]),
    "ulong": ("l", [0, 1, 2 ** 64 - 1]),
}
FLOATS = [0.0, -0.0, 1.0, 1.5, 0.1, -2.5e-3, 123456.789, 1e30, 1.17549435e-38, 1e-40,
          3.40282347e38, math.inf, -math.inf, math.nan]
DOUBLES = [0.1, -1e300, 5e-324, 1.7976931348623157e308, 2.0 / 3, 1.0]
FLOAT_FORMATS = ["%f %F %e %E %g %G %a %A", "%.0f|%#.0f|%10.3f|%-12.2e|%+g|% G|%010.4f",
                 "%.10g|%#g|%.3a|%.0A|%#.0a|%-+14.5E|%.0e"]
WIDTHS = (2, 3, 4, 8, 16)
VECTOR_INTS = {"char": "hh", "uchar": "hh", "short": "h", "ushort": "h", "int": "hl",
               "uint": "hl", "long": "l", "ulong": "l"}
SIZES = {"char": 1, "uchar": 1, "short": 2, "ushort": 2, "int": 4, "uint": 4, "long": 8,
         "ulong": 8, "float": 4, "double": 8}

# Where this PoCL's printf is wrong (see the docstring): C99 is the reference there.
POCL_DOUBLES = "PoCL prints double arguments as floats"
POCL_WIDE_VECTORS = "PoCL prints vectors of 64 bytes or more wrong"
POCL_STRING_WIDTH = "PoCL ignores the precision of %s when a field width is given"


@dataclass
class Line:
    """One printf call (or a few) whose output the reference can give: ``fmt`` and
    ``args`` as C99's printf would take them (vectors as lists of components)."""
    call: str
    fmt: str
    args: list
    pocl_wrong: str = ""        # why PoCL's output is not the reference here


def c_string(text: str) -> str:
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"').replace("\n", "\\n") + '"'


def c_value(t: str, v) -> str:
    """``v`` as an OpenCL C expression of type ``t``, exactly."""
    if t in ("float", "double"):
        if math.isnan(v):
            return "NAN" if t == "float" else "(double)NAN"
        if math.isinf(v):
            inf = "INFINITY" if t == "float" else "(double)INFINITY"
            return inf if v > 0 else "-" + inf
        if t == "float":
            return repr(float(np.float32(v))) + "f"
        return repr(v)
    if t == "long" and v == -2 ** 63:
        return "(long)(-9223372036854775807L - 1)"
    return f"({t}){v}{'UL' if t == 'ulong' else 'L' if t == 'long' else ''}"


def printf_line(fmt: str, typed_args: list, pocl_wrong: str = "") -> Line:
    """A printf of ``fmt`` with arguments given as (OpenCL type, value)."""
    exprs, values = [], []
    for t, v in typed_args:
        if isinstance(v, list):
            exprs.append(f"(({t}{len(v)})({', '.join(c_value(t, x) for x in v)}))")
        elif t == "string":
            exprs.append(c_string(v))
        else:
            exprs.append(c_value(t, v))
        if t == "float":
            v = [float(np.float32(x)) for x in v] if isinstance(v, list) \
                else float(np.float32(v))
        values.append(v)
    call = f"printf({', '.join([c_string(fmt)] + exprs)});"
    return Line(call, fmt, values, pocl_wrong)


def _ints() -> list[Line]:
    lines = []
    for t, (m, values) in INTS.items():
        signed = not t.startswith("u")
        for v in values:
            convs = (["d", "i"] if signed else []) + ["o", "u", "x", "X"]
            fmt = f"{t} " + " ".join(f"%{m}{c}" for c in convs) + "\n"
            lines.append(printf_line(fmt, [(t, v)] * len(convs)))
            # flags, widths and precisions (a precision of 0 prints no digit for 0)
            fmt = f"%5{m}d|%-6{m}u|%06{m}d|%+{m}d|% {m}d|%.3{m}d|%#{m}o|%#{m}x|%#{m}X|" \
                  f"%.0{m}d|%8.3{m}x\n"
            lines.append(printf_line(fmt, [(t, v)] * 11))
    # without a length modifier char and short print promoted; with one, converted back
    lines.append(printf_line("%d %u %x %hhd %hhu %hd %hx\n", [
        ("char", -5), ("uchar", 250), ("short", -2), ("int", 300), ("int", 300),
        ("int", 70000), ("int", 70000)]))
    lines.append(printf_line("%c%c%c|%3c|%-3c|\n", [("int", 72), ("char", 105),
                                                    ("uchar", 33), ("int", 65), ("int", 66)]))
    return lines


def _floats(t: str) -> list[Line]:
    values = FLOATS if t == "float" else DOUBLES
    return [printf_line(f"{t} %s: {fmt}\n", [("string", repr(v))] + [(t, v)] * fmt.count("%"),
                        POCL_DOUBLES if t == "double" else "")
            for fmt in FLOAT_FORMATS for v in values] + \
        [printf_line("%lf %lg\n", [("double", 0.5), ("float", 0.25)], POCL_DOUBLES)]


def _vectors() -> list[Line]:
    lines = []
    for n in WIDTHS:
        for t, m in VECTOR_INTS.items():
            signed = not t.startswith("u")
            v = [k * 37 - 100 if signed else k * 61 for k in range(n)]
            conv = "d" if signed else "u"
            fmt = f"{t}{n} %v{n}{m}{conv} %v{n}{m}x %#v{n}{m}o %5v{n}{m}i|\n"
            wrong = POCL_WIDE_VECTORS if SIZES[t] * n >= 64 else ""
            lines.append(printf_line(fmt, [(t, v)] * 4, wrong))
        for t, m in (("float", "hl"), ("double", "l")):
            v = [k * 1.25 - 3 for k in range(n)]
            fmt = f"{t}{n} %v{n}{m}f %.2v{n}{m}e %v{n}{m}g %+.1v{n}{m}a %-7.1v{n}{m}F|\n"
            wrong = POCL_WIDE_VECTORS if SIZES[t] * n >= 64 else ""
            lines.append(printf_line(fmt, [(t, v)] * 5, wrong))
    return lines


def _strings() -> list[Line]:
    return [
        printf_line("%s|%10s|%-10s|%.3s|\n", [("string", "hello"), ("string", "right"),
                                              ("string", "left"), ("string", "abcdef")]),
        printf_line("%5.1s|%-4.2s|\n", [("string", "xyz"), ("string", "xyz")],
                    POCL_STRING_WIDTH),
        printf_line("%s\n", [("string", "this is a test string\n")]),
        printf_line("100%% sure, %%d is not a conversion; %c%c\n", [("int", 111),
                                                                      ("int", 107)]),
        printf_line("no conversions\n", []),
        printf_line("%s and %s\n", [("string", "one"), ("string", "two")]),
        Line(r'printf("tab\there \\ \"quoted\" \x41\102 " "concatenated %d\n", 7);',
             'tab\there \\ "quoted" AB concatenated %d\n', [7]),
        Line('int r = printf("returns "); printf("%d\\n", r);', "returns %d\n", [0]),
    ]


LINES = {"ints": _ints(), "floats": _floats("float"), "doubles": _floats("double"),
         "vectors": _vectors(), "strings": _strings()}


# ---- C99's printf, the reference where PoCL is wrong --------------------------------------
_VECTOR_SPEC = re.compile(r"%([-+ #0]*[0-9]*(?:\.[0-9]*)?)v([0-9]+)(hh|hl|h|l)([a-zA-Z])")
_C_SPEC = re.compile(r"%[-+ #0]*[0-9]*(?:\.[0-9]*)?(hh|h|l)?([a-zA-Z%])")
_libc = ctypes.CDLL(None)


def c99(line: Line) -> str:
    """What C99's printf prints for ``line``: a vector conversion becomes one
    conversion per component, joined by ','."""
    def per_component(m):
        spec, n, length, conv = m.groups()
        length = "" if length == "hl" or conv in "fFeEgGaA" else length
        return ",".join([f"%{spec}{length}{conv}"] * int(n))

    fmt = _VECTOR_SPEC.sub(per_component, line.fmt)
    values = [x for v in line.args for x in (v if isinstance(v, list) else [v])]
    args = []
    for m in _C_SPEC.finditer(fmt):
        length, conv = m.groups()
        if conv == "%":
            continue
        v = values[len(args)]
        if conv in "fFeEgGaA":
            args.append(ctypes.c_double(v))
        elif conv == "s":
            args.append(ctypes.c_char_p(v.encode()))
        elif length == "l":
            args.append((ctypes.c_long if conv in "di" else ctypes.c_ulong)(v))
        else:
            args.append((ctypes.c_int if conv in "dic" else ctypes.c_uint)(v))
    assert len(args) == len(values), line.call
    buf = ctypes.create_string_buffer(4096)
    n = _libc.snprintf(buf, len(buf), fmt.encode(), *args)
    assert 0 <= n < len(buf), line.call
    return buf.value.decode()


def _kernel(name: str, lines: list[str]) -> str:
    body = "\n".join("    " + line for line in lines)
    return f"kernel void {name}(void)\n{{\n{body}\n}}\n"


# Several work-items, three schedules (barrier-free loops; regions: the barrier at the
# top level; fibers: the barrier under control flow that is not provably uniform), and a
# helper function that prints. A uniform printf still prints once per work-item.
MANY = r"""
void shout(int x) { printf("helper %d\n", x); }

kernel void many(void)     /* a size_t id: the loops schedule (an int one: regions) */
{
    size_t g = get_global_id(0);
    printf("item %d of group %d: %v2hld %s\n", (int)g, (int)get_group_id(0),
           (int2)((int)g, -(int)g), "ok");
    shout((int)g * 2);
}

kernel void regions(void)
{
    int r = printf("group %d before\n", (int)get_group_id(0));
    barrier(CLK_LOCAL_MEM_FENCE);
    printf("item %d after, %d\n", (int)get_global_id(0), r);
}

kernel void fibers(global const int *n)
{
    for (int i = 0; i < n[get_local_id(0) % 2]; i++) {
        if (i < 0)          /* never; a continue keeps the loop on fibers */
            continue;
        printf("item %d round %d\n", (int)get_global_id(0), i);
        barrier(CLK_LOCAL_MEM_FENCE);
    }
}
"""

SPEC_EXAMPLES = r"""
kernel void spec_examples(void)
{
    float4 f = (float4)(1.0f, 2.0f, 3.0f, 4.0f);
    uchar4 uc = (uchar4)(0xFA, 0xFB, 0xFC, 0xFD);
    printf("f4 = %2.2v4hlf\n", f);
    printf("uc = %#v4hhx\n", uc);
}
"""


def program() -> str:
    return "#pragma OPENCL EXTENSION cl_khr_fp64 : enable\n" + "\n".join(
        [_kernel(name, [line.call for line in lines]) for name, lines in LINES.items()] +
        [MANY, SPEC_EXAMPLES])


# (kernel, global size, local size); "fibers" takes a buffer of two round counts
RUNS = [(name, 1, 1) for name in LINES] + [("many", 64, 8), ("regions", 8, 4),
                                            ("fibers", 4, 4), ("spec_examples", 1, 1)]
MARK = "@@ launch "

_RUNNER = r"""
import json, sys
import numpy as np
job = json.loads(sys.stdin.read())
rounds = np.array([2, 2], np.int32)
if job["impl"] == "cl2c":
    import cl2c
    prg = cl2c.Program(job["source"]).build()
    for name, g, l in job["runs"]:
        print(job["mark"] + name)        # no flush: the launch must flush it
        args = [rounds] if name == "fibers" else []
        getattr(prg, name)((g,), (l,), *args)
    print(job["mark"] + "end")
else:
    import ctypes
    import pyopencl as cl
    from opencl_platforms import building_device
    devices = [d for p in cl.get_platforms() for d in p.get_devices()]
    devices = [d for d in devices if "portable" in d.platform.name.lower()] or devices
    ctx = cl.Context([building_device(cl, devices)[0]])
    queue = cl.CommandQueue(ctx)
    prg = cl.Program(ctx, job["source"]).build()
    libc = ctypes.CDLL(None)
    buf = cl.Buffer(ctx, cl.mem_flags.READ_ONLY | cl.mem_flags.COPY_HOST_PTR, hostbuf=rounds)
    for name, g, l in job["runs"]:
        print(job["mark"] + name, flush=True)
        args = [buf] if name == "fibers" else []
        getattr(prg, name)(queue, (g,), (l,), *args)
        queue.finish()
        libc.fflush(None)
    print(job["mark"] + "end", flush=True)
"""


def _run(impl: str, source: str) -> dict[str, list[str]]:
    """The lines each kernel printed, by kernel, from a subprocess running ``impl``."""
    job = json.dumps({"impl": impl, "source": source, "runs": RUNS, "mark": MARK})
    # Python's stdout buffered, as it is by default on a pipe
    env = {k: v for k, v in os.environ.items() if k != "PYTHONUNBUFFERED"}
    env["PYTHONPATH"] = os.pathsep.join([str(Path(cl2c.__file__).resolve().parent.parent),
                                         str(Path(__file__).resolve().parent.parent / "bench")])
    res = subprocess.run([sys.executable, "-c", _RUNNER], input=job, capture_output=True,
                         text=True, timeout=300, env=env)
    assert res.returncode == 0, f"{impl} run failed:\n{res.stderr[-3000:]}"
    out: dict[str, list[str]] = {}
    current = None
    for line in res.stdout.splitlines():
        if line.startswith(MARK):
            current = line[len(MARK):]
            out[current] = []
        else:
            assert current is not None, f"{impl} printed before the first launch: {line!r}"
            out[current].append(line)
    assert list(out) == [r[0] for r in RUNS] + ["end"], f"launches out of order: {list(out)}"
    assert out["end"] == [], f"{impl} printed after the last launch: {out['end']}"
    return out


@pytest.fixture(scope="module")
def cl2c_out():
    return _run("cl2c", program())


@pytest.fixture(scope="module")
def pocl_out(pocl):
    return _run("pocl", program())


def _reference(kernel: str, pocl_lines: list[str]) -> list[tuple[str, Line]]:
    """The reference output of a generated kernel, line by line, with the call that
    prints each: PoCL's, or C99's where PoCL is wrong."""
    out, at = [], 0
    for line in LINES[kernel]:
        text = c99(line)
        n = text.count("\n")
        ref = text.split("\n")[:n] if line.pocl_wrong else pocl_lines[at:at + n]
        out += [(r, line) for r in ref]
        at += n
    assert at == len(pocl_lines), f"PoCL printed {len(pocl_lines)} lines for {kernel}, not {at}"
    return out


@pytest.mark.parametrize("kernel", list(LINES))
def test_generated_kernels(cl2c_out, pocl_out, kernel):
    got = cl2c_out[kernel]
    ref = _reference(kernel, pocl_out[kernel])
    for i, (a, (b, line)) in enumerate(zip(got, ref)):
        why = f" (reference C99: {line.pocl_wrong})" if line.pocl_wrong else ""
        assert a == b, f"{kernel} line {i + 1}, from {line.call}:\ncl2c {a!r}\nwant {b!r}{why}"
    assert len(got) == len(ref), f"{kernel}: {len(got)} lines, want {len(ref)}"


def test_c99_reference_agrees_with_pocl(pocl_out):
    """Where PoCL is right, C99's printf (the other reference) prints the same."""
    for kernel, lines in LINES.items():
        at = 0
        for line in lines:
            text = c99(line)
            n = text.count("\n")
            if not line.pocl_wrong:
                assert text.split("\n")[:n] == pocl_out[kernel][at:at + n], line.call
            at += n


@pytest.mark.parametrize("kernel", [r[0] for r in RUNS if r[0] not in LINES])
def test_work_items(cl2c_out, pocl_out, kernel):
    """Kernels run by several work-items (their lines sorted), on each schedule."""
    got, ref = sorted(cl2c_out[kernel]), sorted(pocl_out[kernel])
    assert ref, f"PoCL printed nothing for {kernel}"
    assert got == ref


def test_spec_examples(cl2c_out):
    """The output the spec gives for its examples (6.12.13)."""
    assert cl2c_out["spec_examples"] == ["f4 = 1.00,2.00,3.00,4.00", "uc = 0xfa,0xfb,0xfc,0xfd"]


def test_schedules():
    """The kernels that print from several work-items run on the schedules meant."""
    c = cl2c.translate(program()).c_source
    header = c.split("*/", 1)[0]
    for kernel, schedule in (("many", "loops"), ("regions", "regions"),
                             ("fibers", "fibers")):
        assert f" {kernel}: {schedule}" in header, header


def test_generated_c_compiles_without_warnings(tmp_path, cc):
    """Every argument reaches the runtime as the type it reads (no -Wformat: the
    formats are built at run time)."""
    c_file = tmp_path / "printf.c"
    c_file.write_text(cl2c.translate(program()).c_source)
    cmd = [cc, "-std=c11", "-fopenmp", "-Wall", "-Wextra", "-Werror", "-I",
           str(runtime_include_dir()), "-c", str(c_file), "-o", str(tmp_path / "p.o")]
    res = subprocess.run(cmd, capture_output=True, text=True)
    assert res.returncode == 0 and not res.stderr.strip(), res.stderr


# ---- diagnostics ------------------------------------------------------------------------
HEAD = "kernel void k(global char *s, float x, int4 i4, long l, global int *p)\n{\n"
ERRORS = [
    # (statement, column of the error, words of the message)
    ('printf(s);', 12, "must be a string literal"),
    ('printf("%v4f\\n", x);', 13, "needs a length modifier"),
    ('printf("a %v5hld\\n", i4);', 15, "must be 2, 3, 4, 8 or 16"),
    ('printf("%hld\\n", 1);', 13, "'hl' needs a vector specifier"),
    ('printf("%*d\\n", 1, 2);', 13, "no '*'"),
    ('printf("%.*f\\n", 1, x);', 13, "no '*'"),
    ('printf("%zu\\n", l);', 13, "reserved"),
    ('printf("%lld\\n", l);', 13, "reserved"),
    ('printf("%n\\n", p);', 13, "reserved"),
    ('printf("%y\\n", 1);', 13, "invalid conversion specifier 'y'"),
    ('printf("%lc\\n", 65);', 13, "does not apply to '%c'"),
    ('printf("%v4hls\\n", i4);', 13, "does not apply to '%s'"),
    ('printf("%hf\\n", x);', 13, "only with a vector specifier"),
    ('printf("%5%\\n");', 13, "'%%'"),
    ('printf("50%");', 15, "incomplete"),
    ('printf("%v4hlf\\n", i4);', 24, "'float4', not 'int4'"),
    ('printf("%v2hld\\n", i4);', 24, "'int2', not 'int4'"),
    ('printf("%v4hd\\n", i4);', 23, "'short4', not 'int4'"),
    ('printf("%v4hf\\n", i4);', 23, "expects an argument of type 'half4'"),
    ('printf("%d\\n", i4);', 20, "scalar argument"),
    ('printf("%d\\n", x);', 20, "'int', not 'float'"),
    ('printf("%f\\n", 1);', 20, "'double', not 'int'"),
    ('printf("%v4hld\\n", 1);', 24, "'int4', not 'int'"),
    ('printf("%s\\n", s);', 20, "string literal"),
    ('printf("%p\\n", 1);', 20, "pointer"),
    ('printf("%d %d\\n", 1);', 5, "'%d' has no argument"),
]


@pytest.mark.parametrize("stmt,column,words", ERRORS, ids=[e[0] for e in ERRORS])
def test_format_errors(stmt, column, words):
    """Errors at the conversion (in the format) or at the argument, as file:3:COL."""
    with pytest.raises(cl2c.BuildError) as err:
        cl2c.translate(HEAD + "    " + stmt + "\n}\n", "bad.cl")
    d = err.value.diagnostics[0]
    assert (d.file, d.line, d.column) == ("bad.cl", 3, column), str(err.value)
    assert words in d.message, str(err.value)


def test_format_warnings():
    """Where C compilers warn and the value still converts: an integer of another
    width than the conversion's, and arguments the format does not use."""
    from cl2c.pipeline import analyze
    src = HEAD + '    printf("%d %lu\\n", l, 1, 2);\n}\n'
    _, _, reporter, _ = analyze(src, "w.cl")
    warnings = [(d.column, d.message) for d in reporter.diagnostics]
    assert [c for c, _ in warnings] == [24, 27, 30], warnings
    assert "'int', but the argument has type 'long'" in warnings[0][1]
    assert "'ulong', but the argument has type 'int'" in warnings[1][1]
    assert "more arguments than the format" in warnings[2][1]
