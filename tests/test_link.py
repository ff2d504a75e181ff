"""Separate compilation (cl2c/link.py, the build service's --compile and --link): compiled
objects keep their source, embedded headers and options; a link translates the units
together, each preprocessed alone. The linked binaries are loaded as cl2c.Program and
their kernels' results checked against NumPy."""
from __future__ import annotations

import numpy as np
import pytest

import cl2c
from cl2c import build_service
from cl2c.binary import ProgramBinary
from cl2c.diagnostics import BuildError
from cl2c.link import Unit, check_unit, translate_units
from cl2c.target import Target

KERNEL = ('#include "h/my.h"\n'
          "float scaled(float x);\n"
          "__kernel void k(__global float *a)\n"
          "{\n"
          "    size_t i = get_global_id(0);\n"
          "    a[i] = scaled(a[i]) + ADD;\n"
          "}\n")
HEADERS = {"h/my.h": '#include "inner.h"\n#define ADD (1.0f + INNER)\n',
           "h/inner.h": "#define INNER 2.0f\n"}
HELPER = "float scaled(float x) { return FACTOR * x; }\n"


def _headers_file(path, headers):
    path.write_bytes(b"".join(f"{n}\0{t}\0".encode() for n, t in headers.items()))
    return path


def _service(*args) -> int:
    return build_service.run([str(a) for a in args])


def test_embedded_headers_nested_and_named_in_diagnostics():
    assert check_unit(Unit(KERNEL, headers=HEADERS), Target.assumed()) == ("", [])
    broken = dict(HEADERS, **{"h/inner.h": "float f(void) { return undeclared; }\n"
                                           "#define INNER 2.0f\n"})
    with pytest.raises(BuildError) as e:
        check_unit(Unit(KERNEL, headers=broken), Target.assumed())
    assert "h/inner.h:1:24: error: use of undeclared identifier 'undeclared'" in \
        e.value.render()
    with pytest.raises(BuildError) as e:
        check_unit(Unit(KERNEL), Target.assumed())
    assert "'h/my.h' file not found" in e.value.render()


def test_units_are_preprocessed_alone():
    """Each unit's -D is its own: FACTOR of the helper's options is unknown to the kernel
    unit, whose ADD the helper never sees."""
    units = [Unit(KERNEL, "", headers=HEADERS), Unit(HELPER, "-DFACTOR=3")]
    tr = translate_units(units, "", Target.assumed())
    assert [k.name for k in tr.kernels] == ["k"]
    with pytest.raises(BuildError) as e:
        translate_units([Unit(KERNEL, "-DFACTOR=3", headers=HEADERS), Unit(HELPER)], "",
                        Target.assumed())
    assert "program2.cl:1:" in e.value.render() and "FACTOR" in e.value.render()


def test_undefined_and_twice_defined_functions_are_link_errors():
    with pytest.raises(BuildError) as e:
        translate_units([Unit(KERNEL, headers=HEADERS)], "", Target.assumed())
    assert "program.cl:6:12: error: undefined function 'scaled'" in e.value.render()
    with pytest.raises(BuildError) as e:
        translate_units([Unit(KERNEL, headers=HEADERS), Unit(HELPER, "-DFACTOR=1"),
                         Unit(HELPER, "-DFACTOR=2")], "", Target.assumed())
    assert "program3.cl:1:7: error: redefinition of 'scaled'" in e.value.render()


def test_service_compiles_links_and_the_program_runs(tmp_path):
    (tmp_path / "k.cl").write_text(KERNEL)
    (tmp_path / "h.cl").write_text(HELPER)
    headers = _headers_file(tmp_path / "headers", HEADERS)
    assert _service("--compile", "--source", tmp_path / "k.cl", "--headers", headers,
                    "--output", tmp_path / "k.obj", "--filename", "program.cl") == 0
    assert _service("--compile", "--source", tmp_path / "h.cl", "--options=-DFACTOR=3",
                    "--output", tmp_path / "h.obj") == 0
    obj = ProgramBinary.decode((tmp_path / "k.obj").read_bytes())
    assert obj.info["kind"] == "object" and not obj.libraries and obj.source == KERNEL
    assert {n: t for n, t in obj.units[0]["headers"]} == HEADERS
    # a library of the helper, then the kernel linked with it
    assert _service("--link", tmp_path / "h.obj", "--options=-create-library",
                    "--output", tmp_path / "h.lib") == 0
    assert ProgramBinary.decode((tmp_path / "h.lib").read_bytes()).info["kind"] == "library"
    assert _service("--link", tmp_path / "k.obj", tmp_path / "h.lib", "--library", "both",
                    "--output", tmp_path / "prog.bin") == 0
    prg = cl2c.Program.from_bytes((tmp_path / "prog.bin").read_bytes())
    a = np.arange(16, dtype=np.float32)
    want = a * 3 + 3
    prg.k(a.shape, None, a)
    np.testing.assert_array_equal(a, want)


def test_service_link_refuses_what_is_not_an_object(tmp_path):
    (tmp_path / "k.cl").write_text("__kernel void k(__global int *p) { p[0] = 1; }\n")
    assert _service("--source", tmp_path / "k.cl", "--output", tmp_path / "k.bin") == 0
    log = tmp_path / "log"
    assert _service("--link", tmp_path / "k.bin", "--output", tmp_path / "x.bin",
                    "--log", log) == build_service.FAILED
    assert "not a compiled object or a library" in log.read_text()
    assert _service("--link", tmp_path / "k.bin", "--output", tmp_path / "x.bin",
                    "--options=-no-such-option", "--log", log) == build_service.BAD_OPTIONS


def test_a_header_two_units_include_is_given_once(tmp_path):
    """A struct, a __constant table and an inline function of a header both units
    include are one in the linked program; the result against the reference."""
    header = {"c.h": "#ifndef C_H\n#define C_H\nstruct pair { int a; };\n"
                     "constant int table[2] = {1, 2};\n"
                     "inline int helper(int x) { return x + 1; }\n#endif\n"}
    units = [Unit('#include "c.h"\n'
                  'int get(struct pair p) { return helper(p.a) + table[1]; }\n', headers=header),
             Unit('#include "c.h"\nint get(struct pair p);\n__kernel void k(__global int *o)'
                  ' { struct pair p = {o[0]}; o[0] = get(p) * helper(0); }\n', headers=header)]
    from cl2c.binary import link_binary
    data, _ = link_binary(units, "", ("extension",))
    o = np.array([3], np.int32)
    cl2c.Program.from_bytes(data).k((1,), None, o)
    assert o[0] == (3 + 1 + 2) * 1
    # what differs between the units is not merged: a redefinition, as in C
    other = {"c.h": header["c.h"].replace("{1, 2}", "{1, 3}")}
    with pytest.raises(BuildError) as e:
        translate_units([units[0], Unit(units[1].source, headers=other)], "",
                        Target.assumed())
    assert "redefinition" in e.value.render()


def test_units_that_define_a_struct_alike_link(tmp_path):
    """Each unit's types are its own (the CTS's two_file_regular_struct_access): two
    units that define the same struct, one of them a __constant of it that the other
    reads through an extern declaration, link as one program."""
    body = "{float x, y; struct inner {int n;} in; struct bar *self;}"
    units = [Unit(f"constant struct bar {body} foo = {{1.5f, 2.5f, {{7}}, 0}};\n"),
             Unit(f"extern constant struct bar{body} foo;\n"
                  "struct bar access_foo() { return foo; }\n"
                  "__kernel void k(__global float *o)\n"
                  "{ struct bar b = access_foo(); o[0] = b.x + b.y * b.in.n; }\n")]
    from cl2c.binary import link_binary
    data, _ = link_binary(units, "", ("extension",))
    o = np.zeros(1, np.float32)
    cl2c.Program.from_bytes(data).k((1,), None, o)
    assert o[0] == 1.5 + 2.5 * 7
    # another body for the tag is refused, and the message says why
    other = Unit(units[1].source.replace("float x, y;", "float x, y, z;"))
    with pytest.raises(BuildError) as e:
        translate_units([units[0], other], "", Target.assumed())
    assert "program2.cl:1:24: error: redefinition of 'struct bar' with another body" in \
        e.value.render()


ANONYMOUS_TYPEDEFS = [
    ("pair_t", "typedef struct { int a; struct { float f; } in; } pair_t;\n",
     "return p.a * 2 + (int)p.in.f;", "pair_t p = {o[0], {4.0f}};", 5, 5 * 2 + 4),
    # (a pointer to an anonymous struct declared in place: refused before)
    ("node_t", "typedef struct { struct { int a; } *p; int n; } node_t;\n",
     "return p.n + (p.p ? p.p->a : 5);", "node_t p; p.n = o[0]; p.p = 0;", 3, 3 + 5),
]


@pytest.mark.parametrize("name, body, get, make, given, expected", ANONYMOUS_TYPEDEFS,
                         ids=["a struct in it", "a pointer to a struct"])
def test_units_that_typedef_an_anonymous_struct_alike_link(name, body, get, make, given,
                                                           expected):
    """A typedef of an anonymous struct that two units write alike (no header: each unit
    its own text, so the link's header stretches do not merge them) names one type in
    the linked program; another body under the name is refused, saying why."""
    units = [Unit(body + f"int get({name} p) {{ {get} }}\n"),
             Unit(body + f"int get({name} p);\n__kernel void k(__global int *o)"
                  f" {{ {make} o[0] = get(p); }}\n")]
    from cl2c.binary import link_binary
    data, _ = link_binary(units, "", ("extension",))
    o = np.array([given], np.int32)
    cl2c.Program.from_bytes(data).k((1,), None, o)
    assert o[0] == expected
    other = Unit(units[1].source.replace("int a;", "long a;", 1))
    with pytest.raises(BuildError) as e:
        translate_units([units[0], other], "", Target.assumed())
    column = other.source.index(name) + 1          # (its typedef on the first line)
    assert f"program2.cl:1:{column}: error: typedef redefinition of '{name}' with another " \
           "type" in e.value.render()


def test_extern_variables_of_a_program():
    """An extern declaration of a variable that the program defines (later, or in
    another unit) reads the definition; one that nothing defines is an error where it
    is read, and fine where nothing reads it (a compiled object's may name an
    incomplete struct: the CTS's simple_extern_compile_only)."""
    assert check_unit(Unit("extern constant struct bar bart;\n"), Target.assumed()) == \
        ("", [])
    reads = ("extern constant float foo;\nfloat twice() { return 2 * foo; }\n"
             "__kernel void k(__global float *o) { o[0] = twice(); }\n")
    o = np.zeros(1, np.float32)
    cl2c.Program(reads + "constant float foo = 1.25f;\n").build().k((1,), None, o)
    assert o[0] == 2.5
    with pytest.raises(BuildError) as e:
        cl2c.translate(reads)
    assert "<kernel>:2:28: error: undefined variable 'foo': declared extern, but the " \
        "program does not define it" in e.value.render()
    with pytest.raises(BuildError) as e:
        translate_units([Unit(reads)], "", Target.assumed())
    assert "no unit of the link defines it" in e.value.render()
    unread = "extern constant struct bar bart;\n__kernel void k(__global float *o) {}\n"
    assert [k.name for k in cl2c.translate(unread).kernels] == ["k"]


def test_a_compiled_object_holds_the_files_it_included(tmp_path):
    """clCompileProgram reads the #included files: the object embeds them, so that the
    link reads none (the CTS's execute_after_included_header_link removes the header
    between compile and link); a nested include keeps its folder."""
    (tmp_path / "inc" / "sub").mkdir(parents=True)
    (tmp_path / "inc" / "value.h").write_text('#include "sub/more.h"\n#define VALUE (2 + MORE)\n')
    (tmp_path / "inc" / "sub" / "more.h").write_text('#include "most.h"\n#define MORE (3 * MOST)\n')
    (tmp_path / "inc" / "sub" / "most.h").write_text("#define MOST 5\n")
    (tmp_path / "k.cl").write_text('#include "value.h"\n'
                                   "__kernel void k(__global int *o) { o[0] = VALUE; }\n")
    assert _service("--compile", "--source", tmp_path / "k.cl", "--output", tmp_path / "k.obj",
                    f"--options=-I {tmp_path / 'inc'}") == 0
    obj = ProgramBinary.decode((tmp_path / "k.obj").read_bytes())
    assert sorted(n for n, _ in obj.units[0]["headers"]) == \
        ["inc/sub/more.h", "inc/sub/most.h", "inc/value.h", "sub/more.h", "sub/most.h",
         "value.h"]   # (k.cl's folder is on the include path too)
    for header in ("value.h", "sub/more.h", "sub/most.h"):
        (tmp_path / "inc" / header).unlink()
    assert _service("--link", tmp_path / "k.obj", "--library", "both",
                    "--output", tmp_path / "prog.bin") == 0
    o = np.zeros(1, np.int32)
    cl2c.Program.from_bytes((tmp_path / "prog.bin").read_bytes()).k((1,), None, o)
    assert o[0] == 2 + 3 * 5
