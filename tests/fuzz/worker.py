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
        translate(text, case["name"], case["options"])
        return {"status": "ok"}
    except BuildError as e:
        unpositioned = [str(d) for d in e.diagnostics
                        if not (d.file and d.line and d.column)]
        return {"status": "diagnosed", "unpositioned": unpositioned,
                "first": str(e.diagnostics[0]) if e.diagnostics else ""}
    except BaseException as e:   # noqa: BLE001 (what the fuzzer looks for)
        return {"status": "internal",
                "error": "".join(traceback.format_exception_only(type(e), e)).strip(),
                "traceback": traceback.format_exc()[-3000:]}


def main() -> None:
    import warnings
    warnings.simplefilter("ignore")            # BuildWarning: a mutant's warnings
    for line in sys.stdin:
        result = outcome(json.loads(line))
        sys.stdout.write(json.dumps(result) + "\n")
        sys.stdout.flush()


if __name__ == "__main__":
    main()
