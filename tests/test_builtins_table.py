"""The builtin table is the truth (issue 9): every row of ``cl2c/builtins.py``, called
with every concrete type its patterns admit, is accepted by sema and translates to C
whose runtime functions exist.

The cases come from the table itself, read in the pattern language its docstring
defines (``T`` over the row's family, ``S``, ``U``, ``I``, ``R``, ``K``, ``D``, the free
width of ``Tn`` / ``Un``, pointer patterns and their address spaces, fixed type names),
so a new row is checked without touching this file. A case is one line of OpenCL C that
calls the builtin with arguments of exactly those types; the lines of a row make one
function (a kernel, for a row that reads the work-item context or synchronises), and the
rows are checked in a few batches, each one translation unit that
``cc -fsyntax-only -Werror=implicit-function-declaration`` compiles. A batch that fails
is taken apart: sema's diagnostics and the C compiler's errors go back to their case by
line (the emitted C keeps ``#line``) or by the runtime function they name, and what
cannot be placed is bisected, so that a failure names the row and the types.

half is checked under ``#pragma OPENCL EXTENSION cl_khr_fp16 : enable``, the OpenCL C
2.0 functions (``work_group_*``, the C11 atomics) under ``-cl-std=CL2.0``, and the rows that read the
work-item context or synchronise the group under every schedule, since those lower to
other runtime functions in each. The load and store builtins sema knows by name
(``vloadn``, ``vstoren``, ``vload_half``...; no rows) are checked the same way, over the
element types and widths of ``cl2c/types.py``.
"""
from __future__ import annotations

import os
import re
import subprocess
import tempfile
from dataclasses import dataclass

import pytest

import cl2c
from cl2c import builtins as bi
from cl2c import types as ty
from cl2c.diagnostics import BuildError
from cl2c.language_version import CL1_2, LanguageVersion
from cl2c.options import parse_options
from cl2c.resources import runtime_include_dir

SOURCE_NAME = "t.cl"
# the integer type of a size and signedness (the U, K and D patterns)
INTEGER_OF = {(t.size, t.signed): t for t in (ty.CHAR, ty.UCHAR, ty.SHORT, ty.USHORT, ty.INT,
                                              ty.UINT, ty.LONG, ty.ULONG)}
# The pointer a case passes for each address space: a cast of the kernel's parameters,
# or the address of a private variable. A pattern that names no space is tested with
# private memory; one that names several, with the first an OpenCL C 1.2 kernel has.
SPACE_BASE = {"global": "g", "local": "l", "constant": "c"}
ANY_SPACE = "private"
# the schedules a row that reads the work-item context or synchronises is checked under
# ("auto" is loops for a kernel without barriers and regions for one with them)
SCHEDULES = ("auto", "regions", "fibers")


class PatternError(Exception):
    """The test cannot read a pattern of the table: a row outside the pattern language."""


@dataclass(frozen=True)
class Case:
    """One row called with one concrete generic type (and free width), under a
    schedule."""

    row_index: int
    generic: ty.Type | None
    n: int | None = None
    schedule: str = "auto"

    @property
    def row(self) -> bi.Builtin:
        return bi.TABLE[self.row_index]

    @property
    def group(self) -> str:
        return f"row{self.row_index}"

    @property
    def in_kernel(self) -> bool:
        return self.row.workitem or self.row.sync

    def options(self) -> str:
        # a row of a later OpenCL C than 1.2 (work_group_*, ctz) under its version
        std = f"-cl-std={self.row.since.name} " if self.row.since > CL1_2 else ""
        return f"{std}-cl2c-schedule={self.schedule}"

    def runtime_names(self) -> tuple:
        return (self.row.runtime_name(self.generic, self.n),)

    def describe(self) -> str:
        r = self.row
        sig = f"{r.name}({', '.join(r.params)}) -> {r.ret}"
        at = f"T={self.generic}" if self.generic is not None else "no T"
        if self.n is not None:
            at += f", n={self.n}"
        if self.schedule != "auto":
            at += f", schedule {self.schedule}"
        return f"row {self.row_index} [{sig}, family {r.family}] with {at}"

    def line(self) -> str:
        return case_line(self)


@dataclass(frozen=True)
class NamedCase:
    """A builtin sema resolves by its name, not by a row: one call, written out."""

    call: str           # "vload4" ...
    types: str          # what it is called with, for the report
    text: str           # the line

    group = "named"
    in_kernel = False

    def options(self) -> str:
        return "-cl2c-schedule=auto"

    def runtime_names(self) -> tuple:
        return ()

    def describe(self) -> str:
        return f"{self.call} with {self.types}"

    def line(self) -> str:
        return self.text


# ---- the pattern language of cl2c/builtins.py ------------------------------------------

def value_type(pat: str, t: ty.Type | None, n: int | None) -> ty.Type:
    """The concrete type of value pattern ``pat`` for generic type ``t``, free width n."""
    if pat.startswith("atomic "):           # atomic T: the atomic type of T
        value = value_type(pat.split()[1], t, n)
        if value not in ty.ATOMIC_VALUES:
            raise PatternError(f"no atomic type of {value}")
        return ty.Atomic(value)
    base = bi.free_width_base(pat)
    if base is not None:
        if n is None:
            raise PatternError(f"'{pat}' without a free width")
        return ty.Vector(ty.scalar_of(value_type(base, t, None)), n)
    if pat in ("T", "S", "R", "U", "I", "K", "M", "D"):
        if t is None:
            raise PatternError(f"'{pat}' in a row without a family")
        w, e = ty.width(t), ty.scalar_of(t)
        if pat == "T":
            return t
        if pat in ("S", "R"):
            return e
        if pat == "I":
            return ty.vector_of(ty.INT, w)
        if pat in ("K", "M") and w == 1:      # (M: a select's mask, here its signed form)
            return ty.INT
        key = {"U": (e.size, False), "K": (e.size, True), "M": (e.size, True),
               "D": (2 * e.size, e.signed)}[pat]
        if key not in INTEGER_OF:
            raise PatternError(f"'{pat}' has no type for {t}")
        return ty.vector_of(INTEGER_OF[key], w)
    named = ty.named_type(pat)
    if named is None:
        raise PatternError(f"unknown pattern '{pat}'")
    return named


def pointer_pattern(pat: str) -> tuple:
    """(const, address space to test, pointee pattern) of ``[const] [a|b] [atomic] X*``
    (the pointee pattern of ``atomic T*`` is ``atomic T``)."""
    *quals, base = pat[:-1].split()
    if "atomic" in quals:
        quals.remove("atomic")
        base = "atomic " + base
    spaces = [q for q in quals if q != "const"]
    if len(spaces) > 1 or any(not set(s.split("|")) <= set(ty.ADDRESS_SPACES)
                              for s in spaces):
        raise PatternError(f"unknown pointer pattern '{pat}'")
    allowed = spaces[0].split("|") if spaces else [ANY_SPACE]
    space = next((s for s in allowed if s != "generic"), allowed[0])
    return "const" in quals, space, base


def pointer_argument(k: int, space: str, pointee: ty.Type, const: bool, decls: list) -> str:
    q = "const " if const else ""
    if space == "private":
        init = "0" if isinstance(pointee, ty.Opaque) else f"*(global {pointee} *)g"
        decls.append(f"{q}{pointee} p{k} = {init};")
        return f"&p{k}"
    if space in SPACE_BASE:
        return f"({q}{space} {pointee} *){SPACE_BASE[space]}"
    raise PatternError(f"no way to pass a {space} pointer")


def image_parameter(t: ty.Image) -> str:
    """The parameter of every function of a unit that passes an image of type t."""
    return f"{t.access}_{t.name.removesuffix('_t')}"


def image_parameters(cl_std: LanguageVersion) -> str:
    """Every image type (and access qualifier the version has) and a sampler, as the
    parameters of each function of a unit: what image functions' cases pass."""
    access = ty.IMAGE_ACCESS if cl_std.read_write_images else ty.IMAGE_ACCESS[:2]
    images = [ty.Image(name, a) for name in ty.IMAGE_KINDS for a in access]
    return ", ".join([f"{t} {image_parameter(t)}" for t in images] + ["sampler_t smp"])


def value_argument(k: int, vt: ty.Type, decls: list, fixed: bool = False) -> str:
    if isinstance(vt, ty.Opaque):           # event_t: 0, "no event" (spec 6.12.10)
        return "0"
    if isinstance(vt, ty.Image):
        return image_parameter(vt)
    if isinstance(vt, ty.Sampler):
        return "smp"
    if fixed:
        # a parameter of a fixed type (a dimension, fence flags, a work-item's id) gets
        # a constant: what the work-group functions need to be uniform in the group
        return f"({vt})0"
    decls.append(f"{vt} a{k} = *(global {vt} *)g;")
    return f"a{k}"


def cases_of(row_index: int) -> list[Case]:
    """Every concrete generic type (and free width) row ``row_index`` admits, under each
    schedule that lowers it differently."""
    row = bi.TABLE[row_index]
    family = bi.FAMILIES[row.family]
    schedules = SCHEDULES if (row.workitem or row.sync) else ("auto",)
    if not family:
        return [Case(row_index, None, None, s) for s in schedules]
    free = any(bi.free_width_base(p) for p in (*row.params, row.ret))
    widths = sorted(bi.family_widths(row.family)) if free else [None]
    return [Case(row_index, t, n, s) for s in schedules for t in family for n in widths]


def case_line(case: Case) -> str:
    """One line of OpenCL C that calls the case's row with exactly its types."""
    row, t, n = case.row, case.generic, case.n
    decls, args = [], []
    for k, pat in enumerate(row.params):
        if pat.endswith("*"):
            const, space, base = pointer_pattern(pat)
            try:
                args.append(pointer_argument(k, space, value_type(base, t, n), const, decls))
            except PatternError as e:
                raise PatternError(f"'{pat}': {e}") from None
        else:
            fixed = ty.named_type(pat) is not None
            args.append(value_argument(k, value_type(pat, t, n), decls, fixed))
    call = f"{row.name}({', '.join(args)})"
    rt = value_type(row.ret, t, n)
    if rt.is_void or isinstance(rt, ty.Opaque):
        stmt = f"{call};"
    else:
        stmt = f"*(global {rt} *)g = {call};"
    return "{ " + " ".join(decls + [stmt]) + " }"


# ---- the load and store functions (spec 6.12.7), which have no rows -------------------

def named_cases() -> list[NamedCase]:
    out = []
    widths = ty.VECTOR_WIDTHS
    for e in ty.VECTOR_ELEMENTS:
        for n in widths:
            for space in ("global", "local", "constant", "private"):
                decls: list = []
                p = pointer_argument(1, space, e, True, decls)
                text = f"{{ {' '.join(decls)} *(global {e}{n} *)g = vload{n}(0, {p}); }}"
                out.append(NamedCase(f"vload{n}", f"const {space} {e}*", text))
            for space in ("global", "local", "private"):
                decls = []
                p = pointer_argument(2, space, e, False, decls)
                text = (f"{{ {e}{n} a0 = *(global {e}{n} *)g; {' '.join(decls)} "
                        f"vstore{n}(a0, 0, {p}); }}")
                out.append(NamedCase(f"vstore{n}", f"{e}{n}, {space} {e}*", text))
    # vload_half[n], vloada_half[n], vstore[a]_half[n][_rte|_rtz|_rtp|_rtn]: float[n] and
    # double[n] data to and from half in memory; vloada/vstorea have vector widths only
    for aligned in ("", "a"):
        for n in ((1,) if not aligned else ()) + widths:
            suffix = "" if n == 1 else str(n)
            ft = ty.vector_of(ty.FLOAT, n)
            for space in ("global", "local", "constant", "private"):
                decls = []
                p = pointer_argument(1, space, ty.HALF, True, decls)
                name = f"vload{aligned}_half{suffix}"
                text = f"{{ {' '.join(decls)} *(global {ft} *)g = {name}(0, {p}); }}"
                out.append(NamedCase(name, f"const {space} half*", text))
            for data in (ty.FLOAT, ty.DOUBLE):
                dt = ty.vector_of(data, n)
                for mode in ("", "_rte", "_rtz", "_rtp", "_rtn"):
                    name = f"vstore{aligned}_half{suffix}{mode}"
                    for space in ("global", "local", "private"):
                        decls = []
                        p = pointer_argument(2, space, ty.HALF, False, decls)
                        text = (f"{{ {dt} a0 = *(global {dt} *)g; {' '.join(decls)} "
                                f"{name}(a0, 0, {p}); }}")
                        out.append(NamedCase(name, f"{dt}, {space} half*", text))
    return out


# ---- translating and compiling, failures taken back to their cases ---------------------

def program(cases: list) -> tuple[str, dict]:
    """The source of one translation unit, a function per row, a line per case, and a
    kernel that calls the functions; and the case of each line. The rows that read the
    work-item context or synchronise are kernels themselves, as the schedules treat
    those (the others are functions: lowering does less with them, and so is faster)."""
    lines = ["#pragma OPENCL EXTENSION cl_khr_fp16 : enable"]
    by_line: dict = {}
    groups: dict[str, list] = {}
    for c in cases:
        groups.setdefault(c.group, []).append(c)
    cl_std = parse_options(cases[0].options()).cl_std if cases else CL1_2
    params = "global uchar *g, local uchar *l, constant uchar *c, " + image_parameters(cl_std)
    arguments = ", ".join(p.split()[-1].lstrip("*") for p in params.split(", "))
    functions = []
    for name, group in groups.items():
        kernel = any(c.in_kernel for c in group)
        lines.append(f"{'kernel' if kernel else ''} void {name}({params}) {{")
        if not kernel:
            functions.append(name)
        for c in group:
            lines.append(c.line())
            by_line[len(lines)] = c
        lines.append("}")
    if functions:
        lines.append(f"kernel void calls({params}) {{")
        lines += [f"{f}({arguments});" for f in functions]
        lines.append("}")
    return "\n".join(lines) + "\n", by_line


_ERROR = re.compile(r"^(?P<file>[^:\n]+):(?P<line>\d+):(?:\d+:)? (?:fatal )?error: "
                    r"(?P<msg>.*)$", re.M)


def compile_c(c_source: str, cc: str) -> str:
    """The C compiler's complaints about ``c_source`` ("" when it compiles)."""
    with tempfile.TemporaryDirectory(prefix="cl2c-table-") as d:
        path = os.path.join(d, "t.c")
        with open(path, "w", encoding="utf-8") as f:
            f.write(c_source)
        res = subprocess.run(
            [cc, "-std=c11", "-fopenmp", "-O0", "-fsyntax-only",
             "-Werror=implicit-function-declaration", "-Wall",
             "-I", str(runtime_include_dir()), path],
            capture_output=True, text=True, env={**os.environ, "LC_ALL": "C"})
    if res.returncode == 0:
        return ""
    return res.stderr or f"{cc} exited with {res.returncode}"


def attempt(cases: list, cc: str) -> tuple[dict, str | None]:
    """Translate and compile ``cases`` as one unit: (errors of the cases they could be
    taken back to, the errors that could not or None). Both empty: all is well."""
    options = {c.options() for c in cases}
    assert len(options) == 1, "one translation unit, one set of options"
    src, by_line = program(cases)
    try:
        tr = cl2c.translate(src, SOURCE_NAME, options.pop())
    except BuildError as e:
        mapped: dict = {}
        for d in e.diagnostics:
            if d.severity == "error" and d.file == SOURCE_NAME and d.line in by_line:
                mapped.setdefault(by_line[d.line], []).append(f"cl2c: {d.message}")
        return mapped, (None if mapped else f"cl2c: {e}")
    errors = compile_c(tr.c_source, cc)
    if not errors:
        return {}, None
    names = {name: c for c in cases for name in c.runtime_names()}
    mapped, unmapped = {}, []
    for m in _ERROR.finditer(errors):
        case = by_line.get(int(m["line"])) if os.path.basename(m["file"]) == SOURCE_NAME \
            else None
        if case is None:
            case = next((names[w] for w in re.findall(r"\bcl2c_\w+", m["msg"])
                         if w in names), None)
        if case is None:
            unmapped.append(m.group(0))
        else:
            mapped.setdefault(case, []).append(f"{cc}: {m['msg']}")
    if mapped:
        return mapped, None
    return {}, "\n".join(unmapped) or errors


def find_failures(cases: list, cc: str) -> dict:
    """The cases that do not translate or do not compile, each with its errors."""
    failures: dict = {}
    pending = []
    for c in cases:                   # a case the test cannot even write down
        try:
            c.line()
            pending.append(c)
        except PatternError as e:
            failures[c] = [f"pattern: {e}"]
    while pending:
        mapped, unmapped = attempt(pending, cc)
        if mapped:
            failures.update(mapped)
            pending = [c for c in pending if c not in mapped]
            continue
        if unmapped is not None:
            if len(pending) == 1:
                failures[pending[0]] = [unmapped]
            else:                     # bisect what the errors do not say
                half = len(pending) // 2
                failures.update(find_failures(pending[:half], cc))
                failures.update(find_failures(pending[half:], cc))
        break
    return failures


def report(failures: dict) -> str:
    out = []
    for c in sorted(failures, key=lambda c: c.describe()):
        out.append(c.describe())
        out += ["    " + line for msg in failures[c] for line in msg.splitlines()[:6]]
    return f"{len(failures)} builtin/type combination(s) fail:\n" + "\n".join(out)


# ---- the batches -----------------------------------------------------------------------

# Rows whose cases fail for a cause outside the table and the runtime headers: row name ->
# the cause. Their batches are strict xfails: once the cause is gone, the entry must go.
XFAIL: dict[str, str] = {}
N_BATCHES = 16


def batches() -> list:
    """pytest params: every case, whole rows together, in about N_BATCHES batches of one
    set of options; the rows of XFAIL in batches of their own."""
    row_cases = [c for i in range(len(bi.TABLE)) for c in cases_of(i)]
    cases = row_cases + named_cases()
    target = max(1, len(cases) // N_BATCHES)
    by_key: dict = {}
    for c in cases:
        xfail = XFAIL.get(c.row.name) if isinstance(c, Case) else None
        by_key.setdefault((c.options(), xfail), {}).setdefault(c.group, []).append(c)
    params = []
    for (_, xfail), groups in by_key.items():
        marks = [pytest.mark.xfail(reason=xfail, strict=True)] if xfail else []
        cur: list = []
        for group in groups.values():
            cur += group
            if len(cur) >= target:
                params.append(pytest.param(cur, marks=marks, id=_batch_id(cur)))
                cur = []
        if cur:
            params.append(pytest.param(cur, marks=marks, id=_batch_id(cur)))
    return params


def _batch_id(cases: list) -> str:
    def label(c):
        return c.call if isinstance(c, NamedCase) else f"{c.row_index}:{c.row.name}"
    sched = cases[0].options().rsplit("=", 1)[1]
    return f"{label(cases[0])}..{label(cases[-1])}" + ("" if sched == "auto" else f"-{sched}")


BATCHES = batches()


def test_every_row_is_checked():
    """Each row of the table has cases, a family the table defines, and a generic
    pattern exactly when it has a family."""
    covered = {c.row_index for b in BATCHES for c in b.values[0] if isinstance(c, Case)}
    assert covered == set(range(len(bi.TABLE)))
    assert set(XFAIL) <= set(bi.BY_NAME), "an XFAIL entry names no row"
    generic = ("T", "S", "R", "U", "I", "K", "M", "D", "Tn", "Un")
    for i, row in enumerate(bi.TABLE):
        assert row.family in bi.FAMILIES, f"row {i} ({row.name}): unknown family"
        uses_t = any(p.rstrip("*").split()[-1] in generic for p in (*row.params, row.ret))
        assert uses_t == bool(bi.FAMILIES[row.family]), (
            f"row {i} ({row.name}): a generic pattern needs a family, a family a "
            f"generic pattern")


@pytest.mark.parametrize("cases", BATCHES)
def test_builtins_translate_and_compile_for_every_type(cases, cc):
    failures = find_failures(cases, cc)
    assert not failures, report(failures)


# ---- the checker can fail ------------------------------------------------------------

def _with_row(monkeypatch, row: bi.Builtin) -> int:
    """Put ``row`` into the table (of this process), as if builtins.py had it."""
    table = list(bi.TABLE) + [row]
    by_name = {k: list(v) for k, v in bi.BY_NAME.items()}
    by_name.setdefault(row.name, []).append(row)
    monkeypatch.setattr(bi, "TABLE", table)
    monkeypatch.setattr(bi, "BY_NAME", by_name)
    return len(table) - 1


def test_a_row_without_its_runtime_function_fails(monkeypatch, cc):
    """A row whose runtime function no header defines is reported for each type, in a
    translation unit with rows that are fine: here a row on the floats whose scalar
    functions do not exist (the runtime's macros build the vector ones from them)."""
    index = _with_row(monkeypatch, bi.Builtin("no_such_builtin", ("T",), "T", "F"))
    cases = cases_of(index)
    assert len(cases) == 3 * 6         # half, float, double: scalars and 5 widths
    fine = cases_of(bi.TABLE.index(bi.BY_NAME["fabs"][0]))
    failures = find_failures(fine + cases, cc)
    assert set(failures) == set(cases), report(failures)
    text = report(failures)
    assert "no_such_builtin(T) -> T, family F] with T=float4\n" in text
    assert "implicit declaration of function 'cl2c_no_such_builtin_float'" in text


def test_a_row_sema_refuses_fails(monkeypatch, cc):
    """A row whose patterns admit calls sema does not match is reported with sema's
    diagnostic (here T is decided by no argument; the runtime function exists)."""
    index = _with_row(monkeypatch, bi.Builtin("no_such_popcount", ("int",), "T", "I",
                                              c_name="cl2c_popcount_{T}"))
    failures = find_failures(cases_of(index), cc)
    assert len(failures) == len(bi.FAMILIES["I"]), report(failures)
    assert all("cl2c: no matching function for call to 'no_such_popcount(" in m[0]
               for m in failures.values()), report(failures)


def test_a_row_outside_the_pattern_language_fails(monkeypatch, cc):
    index = _with_row(monkeypatch, bi.Builtin("no_such_popcount", ("T", "Q"), "T", "I"))
    failures = find_failures(cases_of(index), cc)
    assert len(failures) == len(bi.FAMILIES["I"])
    assert all("unknown pattern 'Q'" in m[0] for m in failures.values())


# ---- where the table is narrower or wider than the spec (1.13) ------------------------
# Each needs a change outside the table and the runtime headers; strict, so that the
# change that closes one makes its test pass and the mark go.

def _translate_and_compile(src: str, options: str, cc: str) -> str:
    """The errors of translating and compiling ``src`` ("" for none)."""
    try:
        tr = cl2c.translate(src, SOURCE_NAME, options)
    except BuildError as e:
        return str(e)
    return compile_c(tr.c_source, cc)


@pytest.mark.xfail(strict=True, reason=(
    "spec 6.13.15 admits half (cl_khr_fp16) in the work-group functions; family W has "
    "no half, since workgroup/builders/ (_collective_ctype) knows no C type for it"))
@pytest.mark.parametrize("schedule", SCHEDULES)
def test_work_group_functions_take_half(schedule, cc):
    src = ("#pragma OPENCL EXTENSION cl_khr_fp16 : enable\n"
           "kernel void k(global half *p) {\n"
           "  half x = p[get_local_id(0)];\n"
           "  p[0] = work_group_reduce_add(x) + work_group_scan_inclusive_max(x) +\n"
           "         work_group_broadcast(x, (size_t)0);\n"
           "}\n")
    errors = _translate_and_compile(src, f"-cl-std=CL2.0 -cl2c-schedule={schedule}", cc)
    assert not errors, errors


def test_select_takes_unsigned_masks(cc):
    """spec 6.12.6: select(gentype, gentype, ugentype) too (the CTS's select_ulong_ulong);
    a vector mask's elements choose by their top bit, an unsigned one's as a signed
    one's. Against NumPy."""
    import numpy as np
    src = ("kernel void k(global int4 *p, global uint4 *m, global float8 *f,\n"
           "              global uint8 *n, global ulong2 *u, global ulong2 *um) {\n"
           "  p[0] = select(p[0], p[1], m[0]);\n"
           "  f[0] = select(f[0], f[1], n[0]);\n"
           "  u[0] = select(u[0], u[1], um[0]);\n"
           "}\n")
    errors = _translate_and_compile(src, "", cc)
    assert not errors, errors
    r = np.random.default_rng(6)
    p, f = r.integers(-9, 9, (2, 4), np.int32), r.random((2, 8), np.float32)
    u = r.integers(0, 2 ** 63, (2, 2), np.uint64)
    m = np.array([0, 1, 0x80000000, 0xFFFFFFFF], np.uint32)
    n = np.tile(m, 2)
    um = np.array([2 ** 63, 2 ** 63 - 1], np.uint64)
    want = [np.where(m >> 31, p[1], p[0]), np.where(n >> 31, f[1], f[0]),
            np.where(um >> 63, u[1], u[0])]
    cl2c.Program(src, filename=SOURCE_NAME).build().k((1,), None, p, m, f, n, u, um)
    for got, expected in zip((p[0], f[0], u[0]), want):
        np.testing.assert_array_equal(got, expected)


@pytest.mark.parametrize("call", ["fast_length(d)", "fast_distance(d, d)",
                                  "fast_normalize(d).x"])
def test_fast_geometric_functions_take_float_only(call):
    # spec 6.12.5 and clang's headers: float and floatn alone (a double4 converts to
    # no float4; a scalar double converts to float, as to any overload's only type)
    src = f"kernel void k(global double4 *p, global double *r) {{ double4 d = p[0]; " \
          f"r[0] = {call}; }}\n"
    with pytest.raises(BuildError, match="no matching function"):
        cl2c.translate(src, SOURCE_NAME)


def test_half_and_native_functions_take_float_only():
    """spec 6.12.2, table 9: the half_ and native_ functions are float ones."""
    cl2c.translate("kernel void k(global float4 *p) { p[0] = native_sqrt(p[0]) + "
                   "half_divide(p[1], p[2]); }\n", SOURCE_NAME)
    # (a scalar double converts to float, the only scalar type these take: as in clang)
    for t, call in (("double2", "native_sqrt(p[0])"), ("double2", "half_divide(p[0], p[1])"),
                    ("half4", "native_exp(p[0])")):
        src = ("#pragma OPENCL EXTENSION cl_khr_fp16 : enable\n"
               f"kernel void k(global {t} *p) {{ p[0] = {call}; }}\n")
        with pytest.raises(BuildError, match="no matching function"):
            cl2c.translate(src, SOURCE_NAME)
