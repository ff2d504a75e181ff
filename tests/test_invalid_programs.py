"""Input cl2c must refuse, each with a diagnostic at file:line:col and a caret, never an
exception of Python's, a translation left for the C compiler to reject, or minutes of
work: preprocessing bounded in time and size, and invalid OpenCL C (issue 12)."""
from __future__ import annotations

import os
import time

import numpy as np
import pytest

import cl2c
from cl2c.preprocess import MAX_EXPANDED_TOKENS


def _error(source: str, options: str = "", name: str = "bad.cl") -> str:
    """The rendered diagnostics of a source that must not translate."""
    with pytest.raises(cl2c.BuildError) as info:
        cl2c.translate(source, name, options)
    return str(info.value)


def _at(rendered: str, line: int, column: int, message: str) -> None:
    first = rendered.splitlines()[0]
    assert first.startswith(f"bad.cl:{line}:{column}: error: "), rendered
    assert message in first, rendered
    assert rendered.splitlines()[2] == " " * (column - 1) + "^", rendered


# ---- preprocessing, bounded ---------------------------------------------------------------
def test_macro_bomb_stops_early_at_its_use():
    lines = ["#define A0 x"] + [f"#define A{i} A{i - 1} A{i - 1}" for i in range(1, 41)]
    source = "\n".join(lines) + "\nkernel void k(global int *p) { int x = 1; p[0] = A40; }\n"
    start = time.process_time()
    rendered = _error(source)
    assert time.process_time() - start < 10
    _at(rendered, 42, 50, f"more than {MAX_EXPANDED_TOKENS:,} tokens")


def test_function_like_macro_bomb():
    source = ("#define F(x) x x x x\n"
              "kernel void k(global int *p) { int x = 1; p[0] = F(F(F(F(F(F(F(F(F(F(F(x)))))))))));"
              " }\n")
    start = time.process_time()
    rendered = _error(source)
    assert time.process_time() - start < 10
    _at(rendered, 2, 50, "macro expansion too large")


@pytest.mark.parametrize("device", ["/dev/zero", "/dev/null", "/dev/urandom"])
def test_include_of_a_device_is_refused(device):
    if not os.path.exists(device):
        pytest.skip(f"no {device}")
    rendered = _error(f'#include "{device}"\nkernel void k(global int *p) {{ p[0] = 1; }}\n')
    _at(rendered, 1, 1, f"cannot #include '{device}': not a regular file")


def test_include_of_a_directory_is_not_found(tmp_path):
    (tmp_path / "d").mkdir()
    rendered = _error('#include "d"\nkernel void k(global int *p) { p[0] = 1; }\n',
                      name=str(tmp_path / "bad.cl"))
    # the file as named, or relative to the working directory where that is shorter
    assert "bad.cl:1:" in rendered and "'d' file not found" in rendered


def test_huge_source_is_refused(tmp_path):
    from cl2c.source_text import MAX_SOURCE_BYTES, read_source
    big = tmp_path / "big.cl"
    with open(big, "wb") as f:
        f.truncate(MAX_SOURCE_BYTES + 1)
    with pytest.raises(cl2c.BuildError, match="larger than"):
        read_source(str(big))
    rendered = _error('#include "big.cl"\nkernel void k(global int *p) { p[0] = 1; }\n',
                      name=str(tmp_path / "bad.cl"))
    assert "larger than" in rendered


def test_error_directive_stops_the_build():
    _at(_error("  #error stop here\nkernel void k(global int *p) { p[0] = 1; }\n"),
        1, 3, "#error stop here")


def test_warning_directive_obeys_werror_and_reaches_the_build_log():
    source = "#warning careful\nkernel void k(global int *p) { p[0] = 1; }\n"
    _at(_error(source, "-Werror"), 1, 1, "#warning careful [-Werror]")
    with pytest.warns(cl2c.BuildWarning):
        prg = cl2c.Program(source, filename="w.cl").build()
    assert prg.build_log.startswith("w.cl:1:1: warning: #warning careful")
    assert cl2c.Program(source, "-w").build().build_log == ""


def test_unterminated_comment_and_truncated_file():
    _at(_error("kernel void k(global int *p) {\n  p[0] = 1; /* no end\n}\n"), 2, 13,
        "unterminated /* comment")
    _at(_error("kernel void k(global int *p) { p[0] = 1"), 1, 40, "unexpected end of file")


def test_a_syntax_error_in_an_included_file_names_that_file(tmp_path):
    # the parser reads ahead past the end of the header: the position is the token's,
    # file included
    (tmp_path / "inc.h").write_text("int f(int x) {\n  return x +;\n}\n")
    rendered = _error('#include "inc.h"\nkernel void k(global int *p) { p[0] = f(1); }\n',
                      name=str(tmp_path / "bad.cl"))
    first, line, caret = rendered.splitlines()[:3]
    assert first.endswith("inc.h:2:13: error: expected expression before ';'"), rendered
    assert line == "  return x +;" and caret == " " * 12 + "^", rendered


def test_a_struct_defined_twice_is_an_error_with_a_note_at_the_first():
    rendered = _error("struct S { int a; };\n\nstruct S { float b; };\n"
                      "kernel void k(global int *p) { p[0] = 1; }\n")
    _at(rendered, 3, 8, "redefinition of 'struct S'")
    assert rendered.splitlines()[3:6] == [
        "bad.cl:1:8: note: previous definition is here", "struct S { int a; };",
        "       ^"], rendered
    _at(_error("typedef union U { int a; } U;\nunion U { int b; };\n"), 2, 7,
        "redefinition of 'union U'")


def test_a_typedef_redefined_as_another_type_is_an_error():
    # C11 6.7p3, as clang; the same type again is allowed (and an inner scope's hides)
    rendered = _error("typedef int T;\ntypedef float T;\n"
                      "kernel void k(global int *p) { p[0] = 1; }\n")
    _at(rendered, 2, 15, "typedef redefinition with different types ('float' vs 'int')")
    assert rendered.splitlines()[3] == "bad.cl:1:13: note: previous definition is here"
    _at(_error("typedef struct { int a; } T;\ntypedef struct { int a; } T;\n"), 2, 27,
        "(each anonymous struct or union is a type of its own)")
    cl2c.translate("typedef int T;\ntypedef int T;\nkernel void k(global int *p) {\n"
                   "  typedef float T; T x = 1.5f; p[0] = x; }\n", "ok.cl")


def test_one_struct_for_several_declarators_and_an_inner_scope_are_no_redefinition():
    # each declarator gets the parser's own copy of the one body; an inner scope's struct
    # hides the outer one (C11 6.2.1p4)
    p = np.zeros(1, np.int32)
    cl2c.Program("constant struct S { int a; } x = {1}, y = {2};\n"
                  "kernel void k(global int *p) {\n"
                  "  struct S { float q; } w, v; w.q = 3; v.q = 4;\n"
                  "  p[0] = x.a + y.a + (int)(w.q + v.q); }\n").build().k((1,), None, p)
    assert p[0] == 1 + 2 + 7


# ---- invalid OpenCL C ----------------------------------------------------------------------
INVALID = [
    # (source, line, column, message)
    ("f(int x) { return x; }\nkernel void k(global int *p) { p[0] = f(1); }\n", 1, 1,
     "type specifier missing (OpenCL C has no implicit int)"),
    ("kernel void k(global int *p) {\n  const x = 2; p[0] = x; }\n", 2, 3,
     "type specifier missing"),
    ("void f(const n) {}\nkernel void k(global int *p) { p[0] = 1; }\n", 1, 8,
     "type specifier missing"),
    # a declaration with K&R's parameter names (a fuzz mutant's `TYPE ret atom_dec(mem)`)
    ("kernel void k(global long *mem) { long dec(mem); mem[0] = 1; }\n", 1, 44,
     "type specifier missing for parameter 'mem'"),
    ("kernel void k(global int *p) { int x = p; p[0] = x; }\n", 1, 40,
     "incompatible pointer to integer conversion initializing 'int' from '__global int *'"),
    ("kernel void k(global int *p) { long x; x = p; p[0] = x; }\n", 1, 40,
     "incompatible pointer to integer conversion assigning to 'long'"),
    ("int f(global int *p) { return p; }\nkernel void k(global int *p) { p[0] = f(p); }\n",
     1, 31, "incompatible pointer to integer conversion returning 'int'"),
    ("kernel void k(global int *p) { global int *q = 5; p[0] = *q; }\n", 1, 48,
     "incompatible integer to pointer conversion initializing"),
    ("kernel void k(global long *p) { p[0] = 99999999999999999999999; }\n", 1, 40,
     "integer literal is too large to be represented in any integer type"),
    ("kernel void k(global ulong *p) { p[0] = 0x1ffffffffffffffffUL; }\n", 1, 41,
     "integer literal is too large"),
    ("int f(int n) { return n ? n * f(n - 1) : 1; }\n"
     "kernel void k(global int *p) { p[0] = f(3); }\n", 1, 31,
     "recursion is not allowed in OpenCL C: 'f' calls itself"),
    ("int g(int n);\nint h(int n) { return g(n); }\nint g(int n) { return n ? h(n - 1) : 0; }\n"
     "kernel void k(global int *p) { p[0] = g(2); }\n", 3, 27,
     "recursion is not allowed in OpenCL C: 'h' -> 'g' -> 'h'"),
    ("kernel void k(global int *p) { int a[-1]; a[0] = 1; p[0] = a[0]; }\n", 1, 39,
     "array has a negative size (-1)"),
    ("kernel void k(global int *p) { int a[2 - 5]; p[0] = a[0]; }\n", 1, 38,
     "array has a negative size (-3)"),
    # clang's limit (a size in bits that 64 bits hold); GCC refused the C (fuzzer)
    ("kernel void k(global int *p) { local int t[0xffffffffffffffff]; p[0] = t[1]; }\n",
     1, 44, "array is too large (18446744073709551615 elements)"),
    ("kernel void k(global int *p) { int t[0x0fffffffffffffff]; p[0] = t[1]; }\n", 1, 38,
     "array is too large (1152921504606846975 elements)"),
    ("struct S { int a; struct S s; };\nkernel void k(global int *p) { struct S v; v.a = 1; "
     "p[0] = v.a; }\n", 1, 28, "field 's' has incomplete type 'struct S' (a struct cannot "
                              "contain itself)"),
    ("struct T;\nkernel void k(global int *p) { struct T v; p[0] = 1; }\n", 2, 41,
     "variable 'v' has incomplete type 'struct T'"),
    ("struct T;\nstruct U { struct T t[2]; };\nkernel void k(global int *p) { p[0] = 1; }\n",
     2, 21, "array has incomplete element type 'struct T'"),
    # found by `make fuzz FUZZ_FLAGS=--compile`: left to the C compiler before
    ("kernel void k(global int *p) { size_t g = barrier(0); p[0] = g; }\n", 1, 43,
     "initializing 'size_t' with an expression of incompatible type 'void'"),
    ("kernel void k(global int *p) { int g; g = barrier(0); p[0] = g; }\n", 1, 39,
     "assigning to 'int' from incompatible type 'void'"),
    ("int r(void) { return barrier(0); }\nkernel void k(global int *p) { p[0] = r(); }\n",
     1, 22, "returning 'void' from a function with result type 'int'"),
    ("void h(int x) {}\nkernel void k(global int *p) { h(barrier(0)); p[0] = 1; }\n", 2, 34,
     "passing 'void' to parameter of incompatible type 'int'"),
    ("kernel void k(global int *p) { int a[]; a[0] = 1; p[0] = a[0]; }\n", 1, 36,
     "definition of variable 'a' with array type needs an explicit size or an initializer"),
    ("typedef typedef int t;\nkernel void k(global int *p) { p[0] = 1; }\n", 1, 21,
     "duplicate 'typedef' declaration specifier"),
    ("kernel void k(global int *p) { static extern int q; p[0] = 1; }\n", 1, 50,
     "cannot combine with previous 'static' declaration specifier"),
    ("kernel void in(global int *in) { in[0] = 1; }\n", 1, 27,
     "parameter 'in' has the name of its kernel"),
    # found by `make fuzz FUZZ_FLAGS=--compile` (piglit's store kernels, mutated): the C
    # compiler's errors, or an internal error, before
    ("kernel void k(global int *p) {\n  p[0] = 1; break; }\n", 2, 13,
     "'break' statement not in loop or switch statement"),
    ("kernel void k(global int *p) {\n  switch (p[0]) { case 0: break; }\n  continue; }\n",
     3, 3, "'continue' statement not in loop statement"),
    ("kernel void k(global int *p) {\n  for (;;) { default: p[0] = 1; } }\n", 2, 14,
     "'default' statement not in switch statement"),
    ("kernel void k(global int *p) {\n  if (p[0]) { case 1: p[0] = 1; } }\n", 2, 15,
     "'case' statement not in switch statement"),
    # C99, OpenCL C's base: a label labels a statement (clang rejects these; found by
    # the random programs of test_programs_random.py, which PoCL would not build)
    ("kernel void k(global int *p) {\n  switch (p[0]) { case 1:\n    int x = 2; p[0] = x; "
     "} }\n", 3, 9, "a label can only be part of a statement and a declaration is not a "
     "statement"),
    ("kernel void k(global int *p) {\n  again: int y = p[0]; if (y) goto again; }\n", 2, 14,
     "a label can only be part of a statement and a declaration is not a statement"),
    ("kernel void k(global int *p) {\n  if (p[0]) { p[0] = 1; end: } }\n", 2, 25,
     "label at end of compound statement: expected statement"),
    ("kernel void k(global int *p) {\n  switch (p[0]) { case 0: p[0] = 1; default: } }\n",
     2, 37, "label at end of compound statement: expected statement"),
    ("kernel void k(global int *p, global typedef int *q) { p[0] = 1; }\n", 1, 49,
     "invalid storage class specifier 'typedef' in a function's parameter"),
    ("void f(static int a) {}\nkernel void k(global int *p) { f(1); p[0] = 1; }\n", 1, 19,
     "invalid storage class specifier 'static' in a function's parameter"),
    ("float f(float a) { return a; }\n"
     "kernel void k(global float *p) { float3 v = 1.0f; p[0] = f(v); }\n", 2, 60,
     "passing 'float3' to parameter of incompatible type 'float'"),
    ("kernel void k(global float *p) { float3 v = 1.0f; float x = v; p[0] = x; }\n", 1, 61,
     "initializing 'float' with an expression of incompatible type 'float3'"),
    ("float f(float3 a) { return a; }\nkernel void k(global float *p) { p[0] = f(1.0f); }\n",
     1, 28, "returning 'float3' from a function with incompatible result type 'float'"),
    ("kernel void k(global void *p) { p[0] = 1; }\n", 1, 33,
     "subscript of pointer to incomplete type 'void'"),
    ("kernel void k(global void *p) { *p = 1; }\n", 1, 34,
     "incomplete type 'void' is not assignable"),
    ("kernel void k(global void *p) { (*p)++; }\n", 1, 35,
     "cannot increment value of type 'void'"),
    ("#define A 1\nkernel void k(global int *p) { p[0] = A; }\n#define\n", 3, 1,
     "malformed preprocessing directive"),
    ("kernel void k(global int *p) {\n  int union x; p[0] = 1; }\n", 2, 13,
     "Invalid declaration"),
    ("void g(void) {}\nkernel void k(global int *p) { p[0] = g; }\n", 2, 39,
     "function 'g' used as a value (OpenCL C has no function pointers)"),
    ("kernel void k(global float4 *p, global half *h) { p[0] = (0, h); }\n", 1, 51,
     "assigning to 'float4' from incompatible type '__global half *'"),
    ("kernel void k(global long *p) { p[0] = 1 && vstore4((long4)0, 0, p); }\n", 1, 40,
     "invalid operands to binary expression ('int' and 'void')"),
    ("kernel void k(global ushort2 *p) { int3 a = 1; ushort2 v = { a, 2 }; p[0] = v; }\n",
     1, 62, "initializing 'ushort' with an expression of incompatible type 'int3'"),
    ("kernel void k(global long *p) { p[0] = !vstore4((long4)0, 0, p); }\n", 1, 41,
     "invalid argument type 'void' to unary expression"),
    ("void f { int i = 0; }\nkernel void k(global int *p) { p[0] = 1; }\n", 1, 6,
     "expected '(' after the name of function 'f'"),
    # found by `make fuzz FUZZ_FLAGS=--compile` with seeds 17 and 18
    ("kernel void k(global long *p) { & atom_xor(p, 1L); }\n", 1, 35,
     "cannot take the address of an rvalue of type 'long'"),
    ("kernel void k(global int *p) { int __local g = 1; p[0] = g; }\n", 1, 48,
     "'__local' variable 'g' cannot have an initializer (OpenCL C 6.5.2)"),
    ("kernel void k(global int *p, float) { p[0] = 1; }\n", 1, 30,
     "parameter of type 'float': its name is omitted"),
    ("kernel void k(global int *p, global union u *q) { p[0] = q[0].a; }\n", 1, 58,
     "subscript of pointer to incomplete type 'union u'"),
    ("struct S { int a; };\nkernel void k(global int *p) { struct S s = { 1 }; p[0] = s; }\n",
     2, 52, "assigning to 'int' from incompatible type 'struct S'"),
    # the program's one kernel refused: no "no kernels in this program" warning after it
    ("kernel int k(global int *p) { return 1; }\n", 1, 12, "kernel 'k' must return void"),
    # what pycparser fails on with an exception of its own (AttributeError) is a syntax
    # error at the last token it read (found by the fuzzer)
    ("kernel void k(global float *a, const float enum s) { a[0] = s; }\n", 1, 49,
     "syntax error before 's'"),
    # a designator naming no member: at the designator (the fuzzer found it unpositioned)
    ("struct In { int a[2]; };\nstruct S { int x; struct In in; };\n"
     "kernel void k(global int *out) {\n    struct S t = {.inn.a[1] = 7, 5};\n"
     "    out[0] = t.x;\n}\n", 4, 20, "no member named 'inn' in 'struct S'"),
    # a cast to a function type (a vector literal's type with a `()` after it, as the
    # fuzzer wrote it): C refuses it
    ("kernel void k(global int4 *io, int4 ia) {\n    io[0] = (int4())(ia);\n}\n", 2, 13,
     "used type 'int4 ()' where arithmetic or pointer type is required"),
    # a cast of a void value (the fuzzer's `(int) barrier(...)`), of a struct, to a struct
    # (C99 6.5.4: a cast to other than void takes and makes scalars): C refuses them
    ("kernel void k(global int *o) {\n    o[0] = (int) barrier(CLK_LOCAL_MEM_FENCE);\n}\n",
     2, 18, "operand of type 'void' where arithmetic or pointer type is required"),
    ("struct S { int a; };\nkernel void k(global int *o) {\n    struct S s = {1};\n"
     "    o[0] = (int)s;\n}\n", 4, 17,
     "operand of type 'struct S' where arithmetic or pointer type is required"),
    ("struct S { int a; };\nkernel void k(global int *o) {\n"
     "    struct S s = (struct S)o[0];\n    o[0] = s.a;\n}\n", 3, 18,
     "used type 'struct S' where arithmetic or pointer type is required"),
    # casts between a pointer and a floating or vector type (C99 6.5.4; the fuzzer's
    # `(float)a` of a buffer, seed 7688): C refuses them; clang's words and places
    ("kernel void k(global const float *a, global float *o) {\n    o[0] = (float)a;\n}\n",
     2, 19, "pointer cannot be cast to type 'float'"),
    ("kernel void k(global float *o) {\n    global float *p = (global float *)1.5f;\n"
     "    o[0] = *p;\n}\n", 2, 39, "operand of type 'float' cannot be cast to a pointer type"),
    ("kernel void k(global const float *a, global int *o) {\n    int4 v = (int4)a;\n"
     "    o[0] = v.x;\n}\n", 2, 14,
     "invalid conversion between vector type 'int4' and scalar type '__global float const *'"),
    ("kernel void k(global float *o) {\n    global float *p = (global float *)(long2)(1);\n"
     "    o[0] = *p;\n}\n", 2, 23,
     "invalid conversion between vector type 'long2' and scalar type '__global float *'"),
    # an enum only declared, or never (the fuzzer's `(enum uint)x`, seed 7689), is an
    # incomplete type: no cast to it, no variable of it, no sizeof (clang's words)
    ("kernel void k(global uint *o) {\n    o[0] = (enum uint)get_global_id(0);\n}\n",
     2, 12, "cast to incomplete type 'enum uint'"),
    ("enum E;\nkernel void k(global uint *o) {\n    enum E e;\n    o[0] = 1;\n}\n", 3, 12,
     "variable 'e' has incomplete type 'enum E'"),
    ("enum E;\nkernel void k(global uint *o) {\n    o[0] = sizeof(enum E);\n}\n", 3, 12,
     "invalid application of 'sizeof' to an incomplete type 'enum E'"),
    # a __local variable outside a kernel's outermost scope (OpenCL C 6.5.2): one a group,
    # where the C had made it a private variable, each work-item its own (a barrier in
    # between read the others' writes as zeros); clang's words
    ("void g(global int *o) {\n    local int x;\n    x = 1;\n    o[0] = x;\n}\n"
     "kernel void k(global int *o) { g(o); }\n", 2, 15,
     "non-kernel function variable cannot be declared in local address space"),
    ("kernel void k(global int *o) {\n    if (o[0]) {\n        local int x;\n"
     "        x = 1;\n        o[0] = x;\n    }\n}\n", 3, 19,
     "variables in the local address space can only be declared in the outermost scope "
     "of a kernel function"),
    # OpenCL C 6.9: no bit-fields; sizeof(void) is GNU C's (1), not OpenCL C's
    ("struct S { int a : 3; };\nkernel void k(global int *o) {\n    struct S s;\n"
     "    s.a = 1;\n    o[0] = s.a;\n}\n", 1, 16, "bit-fields are not supported in OpenCL"),
    ("kernel void k(global int *o) {\n    o[0] = sizeof(void);\n}\n", 2, 12,
     "invalid application of 'sizeof' to a void type"),
    # kernel parameters whose size or meaning the host does not share (OpenCL C 6.9 a, k):
    # they compiled; clang's words and places
    ("kernel void k(global int *o, bool b) {\n    o[0] = b;\n}\n", 1, 35,
     "'bool' cannot be used as the type of a kernel parameter"),
    ("kernel void k(global int *o,\n              size_t n) {\n    o[0] = n;\n}\n", 2, 22,
     "'size_t' cannot be used as the type of a kernel parameter"),
    ("kernel void k(global int *o, event_t e) {\n    o[0] = 1;\n}\n", 1, 38,
     "'event_t' cannot be used as the type of a kernel parameter"),
    ("struct P { global int *p; };\nkernel void k(struct P s) {\n    *s.p = 1;\n}\n", 2, 24,
     "struct kernel parameters may not contain pointers"),
    ("struct Q { int a; uintptr_t at[2]; };\nkernel void k(global int *o, struct Q q) {\n"
     "    o[0] = q.a;\n}\n", 2, 39,
     "'struct Q' cannot be used as the type of a kernel parameter"),
    # an event_t, a sampler_t to or from another type (the fuzzer's char2 into an event_t,
    # seed 7693, a mutant of piglit's vload-char-local.cl): the C holds them as integers,
    # and converted or refused them
    ("kernel void k(global int *o) {\n    event_t e;\n    e = (char2)(1);\n    o[0] = 1;\n}\n",
     3, 5, "assigning to 'event_t' from incompatible type 'char2'"),
    ("kernel void k(global int *o) {\n    event_t e = 0;\n    o[0] = e;\n}\n", 3, 5,
     "assigning to 'int' from incompatible type 'event_t'"),
    ("kernel void k(global uint *o, sampler_t s) {\n    o[0] = s;\n}\n", 2, 5,
     "assigning to 'uint' from incompatible type 'sampler_t'"),
    # what OpenCL C 6.9 (a, b) says of images, samplers and events: no members, no return
    # values, no casts to or from other types ((event_t)0 stays: no event); and OpenCL
    # C 1.2's pointers keep their address space under a cast (6.5); clang's words
    ("struct S { sampler_t s; int a; };\nkernel void k(global int *o) {\n    o[0] = 1;\n}\n",
     1, 22, "the 'sampler_t' type cannot be used to declare a structure or union field"),
    ("read_only image2d_t g(read_only image2d_t im) { return im; }\n"
     "kernel void k(global int *o) {\n    o[0] = 1;\n}\n", 1, 21,
     "declaring function return value of type 'read_only image2d_t' is not allowed"),
    ("kernel void k(read_only image2d_t im, global long *o) {\n    o[0] = (long)im;\n}\n",
     2, 18, "operand of type 'read_only image2d_t' where arithmetic or pointer type is "
     "required"),
    ("kernel void k(global int *o) {\n    sampler_t s = (sampler_t)0;\n    o[0] = 1;\n}\n",
     2, 19, "used type 'sampler_t' where arithmetic or pointer type is required"),
    ("static kernel void k(global int *o) {\n    o[0] = 1;\n}\n", 1, 20,
     "kernel functions cannot be declared static"),
    ("kernel void k(constant int *c) {\n    *(global int *)c = 1;\n}\n", 2, 6,
     "casting '__constant int const *' to type '__global int *' changes address space of "
     "pointer"),
    # a vector or a struct where a pointer goes (the fuzzer's `bump(*&v)`, seed 7694, a
    # mutant of tests/kernels/soa.cl): the C compiler refused it
    ("void bump(float4 *p) { p->x += 1.0f; }\nkernel void k(global float4 *o) {\n"
     "    float4 v = o[0];\n    bump(v);\n    o[0] = v;\n}\n", 4, 10,
     "passing 'float4' to parameter of incompatible type '__private float4 *'"),
    ("struct S { int a; };\nkernel void k(global int *o) {\n    struct S s = {1};\n"
     "    global int *p = s;\n    o[0] = *p;\n}\n", 4, 21,
     "initializing '__global int *' with an expression of incompatible type 'struct S'"),
    # a sampler is set once, and no pointer points to one or to an image (6.9, 6.12.14)
    ("kernel void k(read_only image2d_t im, global float4 *o, sampler_t s) {\n"
     "    sampler_t t = s;\n    t = s;\n    o[0] = read_imagef(im, t, (int2)(0));\n}\n",
     3, 5, "invalid operands to binary expression ('sampler_t' and 'sampler_t')"),
    ("kernel void k(global int *o) {\n    sampler_t *s;\n    o[0] = 1;\n}\n", 2, 15,
     "pointer to type 'sampler_t' is invalid in OpenCL"),
    # `static` in a local array's brackets (C: only a parameter's outermost array)
    ("kernel void k(global float *o) {\n    float a[4], b[static 4];\n    o[0] = 1;\n}\n",
     2, 17, "'static' in an array declarator outside a function parameter's outermost array"),
    # an array of arrays of no length (the fuzzer's `float a[3][]`)
    ("kernel void k(global float *o) {\n    float a[3][];\n    o[0] = 1;\n}\n", 2, 11,
     "array has incomplete element type"),
    # sizeof a struct never defined (the fuzzer's `struct long2`): C refuses it
    ("kernel void k(global int *o) {\n    o[0] = sizeof(struct long2);\n}\n", 2, 12,
     "invalid application of 'sizeof' to an incomplete type 'struct long2'"),
    # a pointer compared with a float: C refuses it (it reached the C compiler)
    ("kernel void k(global float *last, global int *out, float limit) {\n"
     "    out[0] = last > limit;\n}\n", 2, 14,
     "invalid operands to binary expression ('__global float *' and 'float')"),
    # a line of the body before its brace: K&R's parameter declarations, which C refuses
    # after a prototype (it reached the C compiler, found by the fuzzer)
    ("kernel void k(global int *p)\n    int i = get_global_id(0);\n{\n    p[0] = 1;\n}\n",
     2, 9, "declarations between the parameters and the body of function 'k'"),
    # const members: C refuses the assignment, so it reached the C compiler as a cl2c bug
    ("typedef struct { int *const q; const int n; } S;\n"
     "kernel void k(global int *p) { S s = {p, 1}; s.n = 2; p[0] = s.n; }\n",
     2, 46, "cannot assign to non-static data member 'n' with const-qualified type"),
    ("typedef struct { int *const q; } S;\n"
     "kernel void k(global int *p) { S s = {p}; s.q = 0; p[0] = 1; }\n",
     2, 43, "cannot assign to non-static data member 'q' with const-qualified type"),
    ("typedef struct { int a; struct { const int n; } in[2]; } S;\n"
     "kernel void k(global int *p) { S s = {1, {{2}, {3}}}; s.in[1].n++; p[0] = s.a; }\n",
     2, 55, "cannot assign to non-static data member 'n' with const-qualified type"),
    ("typedef struct { const int n; } S;\n"
     "kernel void k(global S *p) { p->n += 1; }\n",
     2, 30, "cannot assign to non-static data member 'n' with const-qualified type"),
    ("typedef struct { int a; struct { const int n; } in; } S;\n"
     "kernel void k(global S *p) { S s = p[0]; p[1] = s; }\n",
     2, 42, "cannot assign to a value of type 'struct <anonymous>' with const-qualified "
     "member 'n'"),
    # OpenCL 1.x atomics take __global and __local pointers only: on a private variable
    # it compiled, a plain read-modify-write, where clang finds no overload
    ("kernel void k(global int *o) {\n    int x = 0;\n    atomic_inc(&x);\n    o[0] = x;\n}\n",
     3, 5, "no matching function for call to 'atomic_inc(__private int *)'"),
    # fuzzer seed 7704 (piglit's scalar-operators.cl): translated, and GCC refused the C
    ("kernel void k(global int *p) { int a = 1; p[0] = ~(&a); }\n", 1, 53,
     "invalid argument type '__private int *' to unary expression"),
    # fuzzer seed 7705: C's errors before
    ("kernel void k(global int *p) { p[0] = \"\\x\"[0]; }\n", 1, 39,
     "\\x used with no following hex digits"),
    ("kernel void k(global uint *p) {\n    __local static uint c;\n    p[0] = c;\n}\n", 2, 25,
     "variables in function scope cannot be declared static"),
    # fuzzer seed 7706: a compound literal's diagnostics had no position
    ("struct In { int a; };\n"
     "kernel void k(global int *p) { struct In lit = (struct i){1}; p[0] = lit.a; }\n", 2, 56,
     "variable has incomplete type 'struct i'"),
    ("struct In { int a; };\nstruct S { int b; };\n"
     "kernel void k(global int *p) { struct In lit = (struct S){1}; p[0] = lit.a; }\n", 3, 56,
     "initializing 'struct In' with an expression of incompatible type 'struct S'"),
]


@pytest.mark.parametrize("source,line,column,message", INVALID,
                         ids=[m[:40] for *_, m in INVALID])
def test_invalid_opencl_is_diagnosed(source, line, column, message):
    rendered = _error(source)
    _at(rendered, line, column, message)
    assert "errors generated" not in rendered and len(rendered.splitlines()) == 3, \
        f"one error, no cascade:\n{rendered}"


@pytest.mark.parametrize("statement, column, message", [
    ("int x = y;", 11, "use of undeclared identifier 'y'"),
    ("int x = ' 1;", 11, "Unmatched '"),
])
def test_an_error_on_the_line_numbered_0_says_line_0(statement, column, message):
    """`#line 0` (GNU C's, which GCC and clang take) numbers the next line 0: an error
    there names line 0, as GCC's do, with no source line to quote (fuzzer seed 7709:
    such an error had no position at all)."""
    rendered = _error(f"kernel void k(global int *o)\n{{\n#line 0\n  {statement}\n}}\n")
    assert rendered.startswith(f"bad.cl:0:{column}: error: {message}"), rendered


def test_legacy_atomics_take_no_generic_pointer():
    """OpenCL C 2.0's generic pointers reach the C11 atomics, not the 1.x ones (clang
    declares those for __global and __local pointers only)."""
    source = ("void f(int *p) { atomic_add(p, 2); }\n"
              "kernel void k(global int *o) { f(o); }\n")
    _at(_error(source, "-cl-std=CL2.0"), 1, 18,
        "no matching function for call to 'atomic_add(__generic int *, int)'")


@pytest.mark.parametrize("declaration", [
    "global int *p __attribute__((nosvm))", "global int * __attribute__((aligned(16))) p"])
def test_attributes_on_address_space_declarators(declaration):
    """A declarator with an attribute is pycparserext's TypeDeclExt: its address space
    was left in the C (`unknown type name 'global'`)."""
    source = (f"kernel void k({declaration}) {{\n"
              "    local int x[4] __attribute__((aligned(16)));\n"
              "    x[get_local_id(0)] = get_local_id(0);\n"
              "    barrier(CLK_LOCAL_MEM_FENCE);\n"
              "    p[get_global_id(0)] = x[3 - get_local_id(0)];\n}\n")
    import numpy as np
    out = np.zeros(8, np.int32)
    cl2c.Program(source).build().k((8,), (4,), out)
    assert list(out) == [3, 2, 1, 0] * 2


def test_unknown_attributes_warn_where_they_are():
    """pycparserext drops a parameter's or declarator's attributes: one cl2c does not
    know is reported (as clang's -Wunknown-attributes does), once, at its name; those it
    knows (OpenCL C's, and GCC's and clang's that change no result) stay silent."""
    source = ("kernel __attribute__((work_group_size_hint(8, 1, 1)))\n"
              "void k(global int *p __attribute__((__aligned__(16))),\n"
              "       int n __attribute__((bogus)), int m __attribute__((lanes(4)))) {\n"
              "  __attribute__((unused)) int x = 1;\n"
              "  p[get_global_id(0)] = n + m;\n}\n")
    t = cl2c.translate(source, "at.cl")
    warnings = [w for w in t.warnings.splitlines() if ": warning: " in w]
    assert warnings == ["at.cl:3:29: warning: unknown attribute 'bogus' ignored",
                        "at.cl:3:59: warning: unknown attribute 'lanes' ignored"], t.warnings
    rendered = _error(source.replace("at.cl", "bad.cl"), "-Werror")
    _at(rendered, 3, 29, "unknown attribute 'bogus' ignored [-Werror]")


def test_enums_declared_ahead_of_their_enumerators():
    """`enum E;` (a GNU extension clang accepts) names a type that its definition later
    completes: a pointer to it before, its values after, a typedef of it."""
    source = """
    enum E;
    typedef enum E T;
    int first(enum E *p);
    enum E { A, B = 5 };
    int first(enum E *p) { return p[0]; }
    kernel void k(global int *o) {
        T t = B;
        enum E e[2] = {A, B};
        o[0] = t + (enum E)1 + sizeof(enum E) + first(&e[1]);
    }
    """
    out = np.zeros(1, np.int32)
    cl2c.Program(source).build().k(1, None, out)
    assert out[0] == 5 + 1 + 4 + 5


def test_pointer_conversions_that_stay_valid():
    source = """
    kernel void k(global int *p, global float *f) {
        global int *q = 0;              /* a null pointer constant */
        global int *r = (global int *)0;
        bool b = p;                     /* a pointer tests as a truth value */
        size_t n = (size_t)p;           /* an explicit cast */
        global int *m = (global int *)(long)n;    /* and back, through an integer */
        if (q == 0 && b && m == p) p[0] = (int)(n & 1) + (r == 0);
        f[0] = 18446744073709551615UL == 0xffffffffffffffffUL;
    }
    """
    cl2c.translate(source, "ok.cl")


# ---- the generated code's names --------------------------------------------------------------
COLLIDING = """
int CL2C_G(int x) { return x; }
typedef int cl2c_range;
typedef int args;
struct cl2c_workitem { int cl2c_x; };
int cl2c_wi(int cl2c_locals) { return cl2c_locals; }
int k__group(int a__b) { return a__b + 1; }
kernel void k(global int *p, int range, int wi, local int *cl2c_ls0, local int *x,
              int x_bytes, args a)
{
    int cl2c_lid0 = 1;
    int lid = get_local_id(0);
    cl2c_ls0[lid] = lid;
    x[lid] = x_bytes;
    barrier(CLK_LOCAL_MEM_FENCE);
    struct cl2c_workitem w;
    w.cl2c_x = 1;
    p[get_global_id(0)] = range + wi + cl2c_lid0 + CL2C_G(1) + cl2c_wi(2) + cl2c_ls0[3]
                          + k__group(a) + w.cl2c_x + x[0];
}
kernel void k2(global int *p)
{
    int cl2c_i = 1, cl2c_nwi = 2, cl2c_g0 = 3, cl2c_r = 4;
    p[get_global_id(0)] = cl2c_i + cl2c_nwi + cl2c_g0 + cl2c_r;
}
"""


@pytest.mark.parametrize("schedule", ["auto", "fibers"])
def test_identifiers_of_the_generated_code_are_the_users_too(schedule):
    import numpy as np
    opts = "" if schedule == "auto" else f"-cl2c-schedule={schedule}"
    prg = cl2c.Program(COLLIDING, opts, filename="names.cl").build()
    out = np.zeros(8, np.int32)
    prg.k((8,), (4,), out, np.int32(100), np.int32(20), cl2c.LocalMemory(16),
          cl2c.LocalMemory(16), np.int32(7), np.int32(5))
    # 100 + 20 + 1 + 1 + 2 + 3 + 6 + 1 + 7
    assert out.tolist() == [141] * 8
    prg.k2((4,), None, out)
    assert out[:4].tolist() == [10] * 4


def test_renamed_identifiers_keep_their_spelling_in_diagnostics():
    rendered = _error("kernel void k(global int *p) { int cl2c_x = 1; p[0] = cl2c_x + cl2c_y; }\n")
    _at(rendered, 1, 64, "use of undeclared identifier 'cl2c_y'")
    rendered = _error("struct S__x { int a; };\n"
                      "kernel void k(global int *p) { struct S__x s; s.b = 1; }\n")
    assert "S__x" in rendered and "S_uu_x" not in rendered, rendered


def test_a_kernel_named_as_generated_code_is_an_error():
    _at(_error("kernel void cl2c_k(global int *p) { p[0] = 1; }\n"), 1, 13,
        "kernel name 'cl2c_k' is reserved")


def test_kernel_names_with_double_underscores():
    import numpy as np
    prg = cl2c.Program("kernel void test__Kernel(global int *p) {"
                       " p[get_global_id(0)] = 3; }\n").build()
    out = np.zeros(4, np.int32)
    prg.test__Kernel((4,), None, out)
    assert out.tolist() == [3] * 4
    _at(_error("kernel void k(global int *p) { p[0] = 1; }\n"
               "kernel void k__group(global int *p) { p[0] = 1; }\n"), 2, 13,
        "kernel name 'k__group' is reserved")


def test_floating_constants_out_of_range_warn_and_emit_quiet_c(tmp_path, cc):
    """clang warns (its -Wliteral-range) and takes infinity or zero; so does cl2c, and
    the C it emits says so in a way the C compiler does not warn about again."""
    import subprocess
    from cl2c.resources import runtime_include_dir
    source = ("kernel void k(global float *p, global double *d) {\n"
              "  p[0] = 1e39f; p[1] = 0x1p128f; p[2] = 1e-50f; p[3] = 3.40282356e38f;\n"
              "  d[0] = 1e999; d[1] = 1e-999; d[2] = 0x1p99999; d[3] = 1.0e-320;\n}\n")
    t = cl2c.translate(source, "fl.cl")
    assert [w.split(": warning: ")[0] for w in t.warnings.splitlines()
            if ": warning: " in w] == ["fl.cl:2:10", "fl.cl:2:24", "fl.cl:2:41",
                                       "fl.cl:3:10", "fl.cl:3:24", "fl.cl:3:39"], t.warnings
    c = tmp_path / "fl.c"
    c.write_text(t.c_source)
    res = subprocess.run([cc, "-std=c11", "-fopenmp", "-Wall", "-Wextra", "-Werror", "-c",
                          "-I", str(runtime_include_dir()), str(c), "-o",
                          str(tmp_path / "fl.o")], capture_output=True, text=True)
    assert res.returncode == 0, res.stderr
    with pytest.raises(cl2c.BuildError, match=r"fl.cl:2:10: error: magnitude"):
        cl2c.translate(source, "fl.cl", "-Werror")


@pytest.mark.parametrize("directive,line", [
    ("#if", 1), ("#if !", 1), ("#if ! defined", 1), ("#if !defined(", 1),
    ("#define A 1\n#if", 2), ("#if 0\n#elif", 2)])
def test_an_if_cut_short_is_an_error_with_its_line(directive, line):
    """(pcpp raised an IndexError on '#if !' first in a file, and reported an empty
    '#if' with no line; the fuzz corpus found them)"""
    source = directive + "\n#endif\nkernel void k(global int *p) { p[0] = 1; }\n"
    with pytest.raises(cl2c.BuildError) as e:
        cl2c.translate(source, "if.cl")
    assert f"if.cl:{line}:1: error: Could not evaluate expression" in str(e.value), \
        str(e.value)


def test_break_and_continue_where_they_belong():
    source = ("kernel void k(global int *p) {\n"
              "  for (int i = 0; i < 4; ++i) {\n"
              "    switch (p[i]) { case 1: continue; default: break; }\n"
              "    do { if (p[i] > 2) break; } while (0);\n"
              "    p[i] += 1;\n"
              "  }\n"
              "}\n")
    cl2c.translate(source, "ok.cl")


def test_an_empty_pragma_means_nothing():
    """(pcpp raised an IndexError on one; the fuzz corpus found it)"""
    cl2c.translate("kernel void k(global int *p) {\n#pragma\n  p[0] = 1;\n}\n  #  pragma  \n",
                   "p.cl")


def test_an_if_with_no_expression():
    """pcpp reports an #if with nothing to evaluate at no place ('unknown', line 0):
    it is the directive's."""
    _at(_error("kernel void k(global int *o) {\n#if // nothing\n    o[0] = 1;\n#endif\n}\n"),
        2, 1, "#if with no expression")


def test_static_in_a_parameters_array_stays_c():
    """`a[static 4]` where C allows it, a function parameter's outermost array: it
    builds and runs (the check above is for other arrays only)."""
    prg = cl2c.Program("float first(const float a[static 4]) { return a[0] + a[3]; }\n"
                       "kernel void k(global float *o) {\n"
                       "    float v[4] = {1, 2, 3, 4};\n    o[0] = first(v);\n}\n").build()
    out = np.zeros(1, np.float32)
    prg.k((1,), None, out)
    assert out[0] == 5


def test_a_multi_character_constant_is_gccs_int_with_clangs_warning():
    """'ab' is an int (GCC's value, 0x6162), with clang's warning; it had been an internal
    error (an integer constant to pycparser, read as digits)."""
    src = "kernel void k(global int *p) { p[0] = 'ab'; p[1] = '\\\\x'; p[2] = '\\xff'; }\n"
    with pytest.warns(cl2c.BuildWarning, match="multi-character character constant"):
        prg = cl2c.Program(src).build()
    out = np.zeros(3, np.int32)
    prg.k((1,), None, out)
    assert out.tolist() == [0x6162, 0x5C78, -1]
