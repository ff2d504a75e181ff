"""The fuzzer's worker: reads cases (JSON lines) on stdin, translates each and writes its
outcome (a JSON line) on stdout. Run by runner.py, which times each case out."""
from __future__ import annotations

import json
import sys
import traceback


def outcome(case: dict) -> dict:
    from cl2c import BuildError, translate
    from cl2c.options import parse_options
    from cl2c.source_text import decode
    try:
        parse_options(case["options"])
    except BuildError:        # options a seed gets wrong on purpose (piglit's build/fail)
        return {"status": "bad options"}
    try:
        data = case["text"].encode("utf-8", errors="surrogateescape")
        text = decode(data, case["name"])
        translation = translate(text, case["name"], case["options"])
        if case.get("compile"):
            return _compiled(translation.c_source)
        return {"status": "ok"}
    except BuildError as e:
        unpositioned = [str(d) for d in e.diagnostics
                        if not (d.file and d.line is not None and d.column)]
        return {"status": "diagnosed", "unpositioned": unpositioned,
                "first": str(e.diagnostics[0]) if e.diagnostics else ""}
    except BaseException as e:   # noqa: BLE001 (what the fuzzer looks for)
        return {"status": "internal",
                "error": "".join(traceback.format_exception_only(type(e), e)).strip(),
                "traceback": traceback.format_exc()[-3000:]}


def _compiled(c_source: str) -> dict:
    """ok, or c_error: the C compiler rejects what cl2c accepted."""
    import os
    import subprocess
    import tempfile
    from cl2c.resources import runtime_include_dir
    with tempfile.TemporaryDirectory() as tmp:
        path = os.path.join(tmp, "k.c")
        with open(path, "w", encoding="utf-8") as f:
            f.write(c_source)
        res = subprocess.run([os.environ.get("CC", "cc"), "-std=c11", "-fopenmp",
                              "-fsyntax-only", "-w", "-Werror=implicit-function-declaration",
                              "-I", str(runtime_include_dir()), path],
                             capture_output=True, text=True)
    if res.returncode == 0:
        return {"status": "ok"}
    errors = [line for line in res.stderr.splitlines() if "error" in line]
    return {"status": "c_error", "error": "\n".join(errors[:3]) or res.stderr[-500:]}


def main() -> None:
    import warnings
    warnings.simplefilter("ignore")            # BuildWarning: a mutant's warnings
    for line in sys.stdin:
        result = outcome(json.loads(line))
        sys.stdout.write(json.dumps(result) + "\n")
        sys.stdout.flush()


if __name__ == "__main__":
    main()
