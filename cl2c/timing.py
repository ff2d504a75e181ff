"""Where a build's time goes, stage by stage (``cl2c --time``, ``CL2C_TIME=1``), as
compilers' ``-ftime-report`` shows it."""
from __future__ import annotations

import contextlib
import os
import time


def timing_wanted() -> bool:
    """Whether ``CL2C_TIME`` asks for the reports: a build's stages, a cache hit's, a
    kernel's first launch."""
    return os.environ.get("CL2C_TIME", "") not in ("", "0")


class StageTimes:
    def __init__(self):
        self.stages: list[tuple[str, float]] = []     # (stage, seconds), in order

    @contextlib.contextmanager
    def stage(self, name: str):
        start = time.perf_counter()
        try:
            yield
        finally:
            self.stages.append((name, time.perf_counter() - start))

    def report(self, title: str) -> str:
        total = sum(s for _, s in self.stages) or 1e-12
        width = max([len(n) for n, _ in self.stages] + [5])
        lines = [f"cl2c: time report for {title}"]
        lines += [f"  {name:<{width}}  {1e3 * s:9.2f} ms  {100 * s / total:5.1f}%"
                  for name, s in self.stages]
        lines.append(f"  {'total':<{width}}  {1e3 * total:9.2f} ms")
        return "\n".join(lines)
