"""Runs cases through worker processes, each case under a timeout; a worker that dies or
hangs is reported (crash, hang) and replaced."""
from __future__ import annotations

import json
import os
import queue
import select
import subprocess
import sys
import threading
from collections import Counter
from dataclasses import dataclass, field

from .corpus import ROOT, Case

TIMEOUT_S = 30.0


@dataclass
class Report:
    cases: int = 0
    counts: Counter = field(default_factory=Counter)   # ok, diagnosed, internal, crash, hang
    problems: list = field(default_factory=list)        # (label, what)

    @property
    def failures(self) -> list:
        return self.problems


class _Worker:
    def __init__(self):
        env = dict(os.environ)
        env["PYTHONPATH"] = os.pathsep.join(
            p for p in (str(ROOT / "tests"), env.get("PYTHONPATH", "")) if p)
        self.proc = subprocess.Popen([sys.executable, "-m", "fuzz.worker"], cwd=ROOT, env=env,
                                     stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                     stderr=subprocess.DEVNULL, text=True)

    def run(self, case: Case, timeout: float, compile_c: bool = False) -> dict:
        try:
            self.proc.stdin.write(json.dumps({"name": case.name, "text": case.text,
                                              "options": case.options,
                                              "compile": compile_c}) + "\n")
            self.proc.stdin.flush()
        except (BrokenPipeError, OSError):
            return {"status": "crash", "error": f"worker gone (exit {self.proc.poll()})"}
        ready, _, _ = select.select([self.proc.stdout], [], [], timeout)
        if not ready:
            self.proc.kill()
            self.proc.wait()
            return {"status": "hang", "error": f"no answer in {timeout:.0f} s"}
        line = self.proc.stdout.readline()
        if not line:
            code = self.proc.wait()
            return {"status": "crash", "error": f"worker died (exit {code})"}
        return json.loads(line)

    @property
    def alive(self) -> bool:
        return self.proc.poll() is None

    def close(self):
        if self.alive:
            self.proc.stdin.close()
            try:
                self.proc.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()


def run(cases: list[Case], jobs: int = 2, timeout: float = TIMEOUT_S,
        progress=None, compile_c: bool = False) -> Report:
    """Each case translated (and its C compiled, with ``compile_c``) under ``timeout``."""
    report = Report(len(cases))
    todo: queue.Queue = queue.Queue()
    for c in cases:
        todo.put(c)
    lock = threading.Lock()

    def slot():
        worker = _Worker()
        try:
            while True:
                try:
                    case = todo.get_nowait()
                except queue.Empty:
                    return
                result = worker.run(case, timeout, compile_c)
                if not worker.alive:
                    worker = _Worker()
                status = result["status"]
                with lock:
                    report.counts[status] += 1
                    if status in ("internal", "crash", "hang", "c_error"):
                        report.problems.append((case, f"{status}: {result.get('error')}",
                                                result.get("traceback", "")))
                    elif status == "diagnosed" and result["unpositioned"]:
                        report.counts["unpositioned"] += 1
                        report.problems.append((case, "unpositioned: " +
                                                "; ".join(result["unpositioned"][:3]), ""))
                    if progress:
                        progress(report)
        finally:
            worker.close()

    threads = [threading.Thread(target=slot) for _ in range(max(1, jobs))]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    return report
