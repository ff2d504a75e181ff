"""The fuzzer's seeds (the project's kernels and piglit's) and their mutants."""
from __future__ import annotations

import random
import re
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
PROJECT_DIRS = ("tests/kernels", "bench", "examples")


@dataclass
class Seed:
    name: str          # the file name diagnostics must carry
    text: str
    options: str = ""


@dataclass
class Case:
    name: str          # the seed's file name (where diagnostics point)
    text: str
    options: str
    label: str         # seed and mutation, to reproduce it


def project_seeds() -> list[Seed]:
    out = []
    for d in PROJECT_DIRS:
        for path in sorted((ROOT / d).rglob("*.cl")):
            # (not what builds and examples write: the sample would change with them)
            if {"build", "out"} & set(path.relative_to(ROOT).parts):
                continue
            text = path.read_text(encoding="utf-8", errors="replace")
            options = "-cl-std=CL2.0" if "CL2.0" in text or "atomic_int" in text else ""
            out.append(Seed(str(path.relative_to(ROOT)), text, options))
    return out


def piglit_seeds() -> list[Seed]:
    """piglit's programs with their build options; [] where the corpus is unavailable."""
    import sys
    sys.path.insert(0, str(ROOT / "tests"))
    try:
        from piglit import runner
        from piglit.corpus import CorpusUnavailable, corpus_root, list_tests
        try:
            root = corpus_root()
        except CorpusUnavailable:
            return []
        out = []
        for rel in list_tests(root):
            try:
                cfg, text, name = runner.load(root / rel)
            except Exception:          # a file piglit's runner cannot read: not a seed
                continue
            if text:
                out.append(Seed(str(Path(name).relative_to(root)) if name.startswith(
                    str(root)) else name, text, runner.build_options(cfg, root)))
        return out
    finally:
        sys.path.pop(0)


# ---- mutations ---------------------------------------------------------------------------
_TOKEN = re.compile(r"0[xX][0-9a-fA-F]+[uUlL]*|\d+(?:\.\d*)?(?:[eE][-+]?\d+)?[uUlLfFhH]*|"
                    r"\w+|\"(?:[^\"\\\n]|\\.)*\"|'(?:[^'\\\n]|\\.)*'|//|/\*|\*/|"
                    r"<<=|>>=|->|\+\+|--|<<|>>|<=|>=|==|!=|&&|\|\||[-+*/%&|^]=|\S", re.S)
_INSERTS = [
    "{", "}", "(", ")", "[", "]", ";", ",", "*", "&", "#", "##", "\\", "\"", "'", "/*", "*/",
    "//", "?", ":", "=", "...", "int", "void", "float4", "__global", "__local", "__constant",
    "__kernel", "struct", "union", "enum", "typedef", "static", "const", "volatile",
    "return", "goto", "break", "continue", "switch", "case 1:", "default:", "if", "else",
    "for", "while", "do", "sizeof", "vec_step", "barrier(CLK_LOCAL_MEM_FENCE);",
    "get_global_id(0)", "0", "-1", "0x7fffffff", "2147483648", "18446744073709551615",
    "99999999999999999999999", "1e999", "0x1p99999", "1.0f", "'\\777'", "\"\\x\"",
    "#define X X X", "#if", "#endif", "#else", "#include", "#pragma omp parallel",
    "#pragma OPENCL EXTENSION cl_khr_fp16 : enable", "#error bad", "#warning odd",
    "#line 0", "__attribute__((", "__attribute__((reqd_work_group_size(0,0,0)))",
    ".xyzw", ".s0123456789abcdef", "->x", "(float4)(", "(int2)(1,2,3)", "\xff",
    "\u00e9", "\x00", "\t", "\n", "cl2c_r", "cl2c_wi", "CL2C_G", "range", "args",
]


_NUMBERS = ["0", "1", "-1", "3", "7", "16", "255", "256", "4096", "65536", "0x7fffffff",
            "0x80000000", "2147483647", "4294967295u", "-2147483648", "0xffffffffffffffff",
            "9223372036854775807L", "1.5f", "0.0", "-0.0f", "1e38f", "1e-45f", "0x1p-149f",
            "1e308", "'a'", "1u", "1ul"]
_TYPES = ["int", "uint", "char", "uchar", "short", "ushort", "long", "ulong", "float",
          "double", "half", "bool", "size_t", "int2", "int3", "int4", "int8", "int16",
          "float2", "float3", "float4", "float8", "float16", "uchar4", "long2", "double2",
          "void", "event_t", "atomic_int"]
_OPERATORS = ["+", "-", "*", "/", "%", "<<", ">>", "&", "|", "^", "&&", "||", "<", ">",
              "<=", ">=", "==", "!=", "=", "+=", "-=", "*=", "/=", "%=", "<<=", ">>=",
              "&=", "|=", "^=", "++", "--", "!", "~", ",", "?", ":", ".", "->"]


def _kind(token: str) -> str:
    if token[:1].isdigit() or token[:1] == "." and token[1:2].isdigit():
        return "number"
    if token[:1].isalpha() or token[:1] == "_":
        return "word"
    if token[:1] in "\"'":
        return "literal"
    return "operator"


def _tokens(text: str) -> list[tuple[int, int]]:
    return [(m.start(), m.end()) for m in _TOKEN.finditer(text)]


def mutate(text: str, rng: random.Random) -> tuple[str, str]:
    """One edit of ``text``: (the new text, what was done)."""
    toks = _tokens(text)
    if not toks:
        return text + rng.choice(_INSERTS), "append"
    kind = rng.choice(["delete", "delete", "insert", "insert", "duplicate", "swap",
                       "replace", "lines", "truncate", "byte", "nest",
                       "same kind", "same kind", "same kind", "same kind"])
    a, b = toks[rng.randrange(len(toks))]
    if kind == "same kind":
        # a token for another of its kind: the program still parses, more often than
        # not, and sema and lowering meet it
        kinds = [(c, d) for c, d in toks if _kind(text[c:d]) == _kind(text[a:b])]
        c, d = kinds[rng.randrange(len(kinds))]
        word = text[c:d]
        if _kind(word) == "number" and rng.random() < 0.5:
            word = rng.choice(_NUMBERS)
        elif _kind(word) == "word" and rng.random() < 0.3:
            word = rng.choice(_TYPES)
        elif _kind(word) == "operator" and rng.random() < 0.5:
            word = rng.choice(_OPERATORS)
        return text[:a] + word + text[b:], f"same kind {a}: {word!r}"
    if kind == "delete":
        n = rng.choice([1, 1, 1, 2, 5])
        k = rng.randrange(len(toks))
        end = toks[min(k + n, len(toks)) - 1][1]
        return text[:toks[k][0]] + text[end:], f"delete {n} at {toks[k][0]}"
    if kind == "insert":
        word = rng.choice(_INSERTS)
        return text[:a] + " " + word + " " + text[a:], f"insert {word!r} at {a}"
    if kind == "duplicate":
        return text[:b] + " " + text[a:b] + text[b:], f"duplicate at {a}"
    if kind == "swap":
        c, d = toks[rng.randrange(len(toks))]
        if c < a:
            (a, b), (c, d) = (c, d), (a, b)
        if c < b:
            return text, "swap (none)"
        return text[:a] + text[c:d] + text[b:c] + text[a:b] + text[d:], f"swap {a} {c}"
    if kind == "replace":
        c, d = toks[rng.randrange(len(toks))]
        return text[:a] + text[c:d] + text[b:], f"replace {a} with {c}"
    if kind == "lines":
        lines = text.split("\n")
        i = rng.randrange(len(lines))
        j = rng.randrange(len(lines))
        op = rng.choice(["drop", "copy", "move"])
        if op == "drop":
            del lines[i]
        elif op == "copy":
            lines.insert(j, lines[i])
        else:
            lines.insert(j, lines.pop(i))
        return "\n".join(lines), f"line {op} {i} {j}"
    if kind == "truncate":
        return text[:a], f"truncate at {a}"
    if kind == "byte":
        data = bytearray(text.encode("utf-8", errors="surrogateescape"))
        i = rng.randrange(len(data))
        data[i] = rng.randrange(256)
        return data.decode("utf-8", errors="surrogateescape"), f"byte {i}"
    # nest: an expression or a statement wrapped many times over
    n = rng.choice([50, 300, 3000])
    wrap = rng.choice([("(", ")"), ("{", "}"), ("-", ""), ("!", "")])
    return text[:a] + wrap[0] * n + text[a:b] + wrap[1] * n + text[b:], f"nest {n} at {a}"


def mutants(seed: Seed, count: int, rng: random.Random) -> list[Case]:
    out = []
    for k in range(count):
        text, done = seed.text, []
        for _ in range(rng.choice([1, 1, 2, 3])):
            text, what = mutate(text, rng)
            done.append(what)
        out.append(Case(seed.name, text, seed.options, f"{seed.name} #{k}: {'; '.join(done)}"))
    return out
