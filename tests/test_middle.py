"""The translator's middle as issue 9 shapes it: a typed tree, facts read from nodes,
literals decoded by C's rules, output that depends on the input only, no import cycle."""
from __future__ import annotations

import ast
import copy
import os
import subprocess
import sys
from pathlib import Path

import pytest

import cl2c
from cl2c import literals
from cl2c import types as ty
from cl2c.diagnostics import Reporter, SourceMap
from cl2c.workgroup import schedules
from cl2c.parse import parse
from cl2c.sema import analyze
from cl2c.typed_ast import FACTS, is_typed
from conftest import KERNELS_DIR
from package_sources import source_modules

PACKAGE = Path(cl2c.__file__).parent


def _module(src: str):
    reporter = Reporter(SourceMap())
    tree = parse(src, "t.cl", reporter)
    return analyze(tree, reporter), tree


def _walk(node):
    yield node
    for _, child in node.children():
        yield from _walk(child)


# ---- a node knows its type ------------------------------------------------------------

def test_every_expression_knows_its_type_and_calls_their_row():
    module, tree = _module("""
        kernel void k(global float4 *v, global int *n) {
            float4 a = v[0].wzyx * 2.0f;
            n[get_global_id(0)] = convert_int(a.x) + (int)vec_step(a);
        }""")
    nodes = list(_walk(tree))
    assert all(is_typed(n) for n in nodes)
    swizzle = next(n for n in nodes if type(n).__name__ == "StructRef" and n.field.name == "wzyx")
    assert swizzle.ty == ty.Vector(ty.FLOAT, 4) and swizzle.components == [3, 2, 1, 0]
    call = next(n for n in nodes if type(n).__name__ == "FuncCall" and
                n.name.name == "get_global_id")
    assert call.ty == ty.SIZE_T and call.call.row.workitem and not call.call.row.group_uniform
    decl = next(n for n in nodes if type(n).__name__ == "Decl" and n.name == "a")
    assert decl.ty == ty.Vector(ty.FLOAT, 4) and decl.space == "private"
    param = next(n for n in nodes if type(n).__name__ == "Decl" and n.name == "v")
    assert param.ty == ty.Pointer(ty.Vector(ty.FLOAT, 4), "global")


def test_a_copied_tree_keeps_its_facts():
    _, tree = _module("kernel void k(global int *p) { p[0] = p[1] + 2; }")
    clone = copy.deepcopy(tree)
    for a, b in zip(_walk(tree), _walk(clone)):
        assert type(a) is type(b)
        for name in FACTS:
            assert getattr(a, name) == getattr(b, name)
    add = next(n for n in _walk(clone) if type(n).__name__ == "BinaryOp")
    assert add.ty == ty.INT


def test_builtin_rows_say_what_the_work_group_passes_ask():
    from cl2c import builtins as bi
    row = lambda name: bi.BY_NAME[name][0]                      # noqa: E731
    assert row("get_group_id").group_uniform and row("get_local_size").group_uniform
    assert not row("get_local_id").group_uniform
    assert row("barrier").sync and not row("barrier").pure
    assert not row("atomic_add").pure and not row("fract").pure       # pointer parameters
    assert not row("mem_fence").pure and row("sqrt").pure


def test_builtin_rows_say_which_have_effects():
    # what writes through a pointer parameter, synchronises, fences or writes an image
    # has effects; what only reads (through a const pointer, an image) has none
    from cl2c import builtins as bi
    rows = [r for name in ("atomic_inc", "atom_add", "atomic_fetch_add", "fract", "sincos",
                           "remquo", "frexp", "lgamma_r", "async_work_group_copy",
                           "async_work_group_strided_copy", "barrier", "work_group_reduce_add",
                           "mem_fence", "write_imagef", "wait_group_events")
            for r in bi.BY_NAME[name]]
    assert all(r.has_effects for r in rows), [r for r in rows if not r.has_effects]
    rows = [r for name in ("sqrt", "dot", "get_local_id", "read_imagef", "prefetch",
                           "get_image_width", "shuffle")
            for r in bi.BY_NAME[name]]
    assert not any(r.has_effects for r in rows), [r for r in rows if r.has_effects]


# ---- schedules ----------------------------------------------------------------------

def test_options_and_cli_take_the_schedules_of_the_registry():
    from cl2c.cli import main
    from cl2c.options import parse_options
    assert schedules.names() == ("auto",) + tuple(schedules.SCHEDULES)
    for name in schedules.SCHEDULES:
        assert parse_options(f"-cl2c-schedule={name}").schedule == name
    choice = next(p for p in main.params if p.name == "schedule").type
    assert tuple(choice.choices) == schedules.names()
    with pytest.raises(cl2c.BuildError, match="expected one of auto, loops"):
        parse_options("-cl2c-schedule=threads")


def test_a_regions_kernel_has_no_dead_work_item_function():
    src = (KERNELS_DIR / "barriers.cl").read_text()
    c = cl2c.translate(src, "barriers.cl", "-cl2c-schedule=regions").c_source
    for k in ("reverse_local", "tree_reduce"):
        if f"{k}__group(" in c:
            assert f"the work of one work-item. */\nstatic CL2C_ALWAYS_INLINE void {k}(" not in c
    assert '#line 1 ""' not in c and "CL2C_UNUSED void" not in c


# ---- literals --------------------------------------------------------------------------

CHARS = [r"'a'", r"'\n'", r"'\0'", r"'\x41'", r"'\101'", r"'\''", r"'\\'", r"'\xff'",
         r"'\377'", r"'\t'", r"'\?'", r"'\v'", r"'ab'"]
STRINGS = [r'"ab"', r'"a\n"', r'"\x41\102c"', r'"" "x" "yz"', r'"\0\0"', r'"q\"q"']
INTEGERS = ["0", "7", "010", "0x1F", "0XffU", "0b101", "123UL", "4294967295u", "0777L"]


def test_literals_are_decoded_as_gcc_decodes_them(tmp_path, cc):
    """Each constant through literals.py and through the C compiler (signed char)."""
    body = "".join(f'printf("%d\\n", (int){c});\n' for c in CHARS)
    body += "".join(f'printf("%d\\n", (int)sizeof({s}) - 1);\n' for s in STRINGS)
    body += "".join(f'printf("%llu\\n", (unsigned long long){i});\n' for i in INTEGERS)
    src = tmp_path / "lit.c"
    src.write_text("#include <stdio.h>\nint main(void) {\n" + body + "return 0;\n}\n")
    exe = tmp_path / "lit"
    subprocess.run([cc, "-fsigned-char", "-w", str(src), "-o", str(exe)], check=True)
    want = subprocess.run([str(exe)], capture_output=True, text=True, check=True).stdout.split()
    got = [literals.char_value(c) for c in CHARS] + \
        [literals.string_length(s) for s in STRINGS] + \
        [literals.integer_value(i) for i in INTEGERS]
    assert [int(w) for w in want] == got


def test_a_char_constant_sizes_an_array_by_c_rules():
    # '\xff' is -1 in a signed char: -1 + 2 == 1 element
    module, tree = _module("kernel void k(global int *p) { int a['\\xff' + 2]; p[0] = "
                           "sizeof(a); }")
    decl = next(n for n in _walk(tree) if type(n).__name__ == "Decl" and n.name == "a")
    assert decl.ty == ty.Array(ty.INT, 1)


# ---- the same input, the same output ----------------------------------------------------

def test_translation_does_not_depend_on_hash_seeds(tmp_path):
    """Set iteration order changes with PYTHONHASHSEED: the emitted C must not."""
    script = (
        "import sys, hashlib, cl2c\n"
        "h = hashlib.sha256()\n"
        "for path in sys.argv[1:]:\n"
        "    opts = '-DDIM=64 -cl-std=CL2.0' if 'matmul' in path or 'collectives' in path else None\n"
        "    for s in ('', ' -cl2c-schedule=regions', ' -cl2c-schedule=fibers'):\n"
        "        try:\n"
        "            o = ((opts or '') + s).strip() or None\n"
        "            h.update(cl2c.translate(open(path).read(), path, o).c_source.encode())\n"
        "        except cl2c.BuildError as e:\n"
        "            h.update(str(e).encode())\n"
        "print(h.hexdigest())\n")
    kernels = [str(p) for p in sorted(KERNELS_DIR.glob("*.cl"))]
    # the three seeds' translations at once: 80 CPU seconds, on as many cores as there are
    runs = [subprocess.Popen([sys.executable, "-c", script, *kernels], text=True,
                             env=dict(os.environ, PYTHONHASHSEED=seed),
                             stdout=subprocess.PIPE, stderr=subprocess.PIPE)
            for seed in ("1", "2", "12345")]
    digests = set()
    for run in runs:
        out, err = run.communicate()
        assert run.returncode == 0, err
        digests.add(out.strip())
    assert len(digests) == 1


# ---- imports -----------------------------------------------------------------------------

def _import_graph() -> dict[str, set]:
    mods = {}
    for p in source_modules(PACKAGE):
        parts = list(p.relative_to(PACKAGE.parent).with_suffix("").parts)
        if parts[-1] == "__init__":
            parts = parts[:-1]
        mods[".".join(parts)] = p
    graph = {m: set() for m in mods}
    for m, p in mods.items():
        base = m.split(".") if p.name == "__init__.py" else m.split(".")[:-1]
        for node in ast.walk(ast.parse(p.read_text())):       # function-level ones too
            if isinstance(node, ast.ImportFrom):
                up = base[:len(base) - node.level + 1] if node.level else []
                prefix = ".".join(up + ([node.module] if node.module else []))
                targets = [f"{prefix}.{a.name}" for a in node.names] + [prefix]
            elif isinstance(node, ast.Import):
                targets = [a.name for a in node.names]
            else:
                continue
            for t in targets:
                while t and t not in mods and "." in t:
                    t = t.rsplit(".", 1)[0]
                while t in mods:       # importing a.b.c runs a.b's __init__ first
                    if t != m and not m.startswith(t + "."):
                        graph[m].add(t)
                    t = t.rsplit(".", 1)[0] if "." in t else ""
    return graph


def test_no_import_cycle_lazy_imports_included():
    graph = _import_graph()
    state: dict[str, int] = {}

    def visit(m, path):
        state[m] = 1
        for n in sorted(graph[m]):
            if state.get(n) == 1:
                pytest.fail("import cycle: " + " -> ".join(path[path.index(n):] + [n]))
            if n not in state:
                visit(n, path + [n])
        state[m] = 2

    for m in sorted(graph):
        if m not in state:
            visit(m, [m])
