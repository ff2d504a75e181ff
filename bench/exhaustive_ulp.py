"""Exhaustive accuracy of cl2c's own float math functions: all 2^32 inputs (opt-in, slow).

    python bench/exhaustive_ulp.py                 # all six functions, on every CPU
    python bench/exhaustive_ulp.py exp2 -j 2 --scalar --cc clang
    python bench/exhaustive_ulp.py log --cc "gcc -mno-fma -mno-avx512f"   # as without fma

Each function of clruntime's math.h runs on every float, in a `#pragma omp simd` loop
built with cl2c's own flags (so the vector code is what is measured; --scalar builds
without vectorisation, for the scalar code), against the C library's double function
on the widened input (within an ulp of double: exact enough at float's scale). Errors
are in ulps of float as section 2.4 of the spec defines them (tests/ulp_reference.py's
ulp_error: the spacing below a power of two, that of the largest value past overflow).
Prints, per function, the worst error, where, and how many inputs are over 0.5 and
over 1 ulp; fails (exit 1) where one is over the spec's bound. A function takes one
to two minutes of a CPU. Not part of `make test`.
"""
from __future__ import annotations

import argparse
import os
import shlex
import struct
import subprocess
import sys
import tempfile
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "tests"))

from cl2c.target import Target  # noqa: E402
import ulp_bounds  # noqa: E402

# name: the C library's double function for the reference
FUNCTIONS = {"exp": "exp", "log": "log", "exp2": "exp2", "log2": "log2",
             "exp10": "exp10", "log10": "log10"}

HARNESS = r"""
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include "cl2c/cl2c.h"

static double spacing(double ref) {      /* ulp_reference.ulp_error's, for float */
    if (ref == 0) return 0x1p-149;
    int e = ilogb(ref);
    if (fabs(ref) == ldexp(1, e)) e--;
    e = e < -126 ? -126 : e > 127 ? 127 : e;
    return ldexp(1, e - 23);
}
static double ulp_error(float got, double ref) {
    if (isnan(got) || isnan(ref)) return isnan(got) && isnan(ref) ? 0 : INFINITY;
    const double max = 0x1.fffffep127, top = 0x1p104;
    int overflows = fabs(ref) >= max + top / 2, same = !signbit(got) == !signbit(ref);
    if (overflows && isinf(got) && same) return 0;
    if (isinf(ref)) return INFINITY;
    double g = isinf(got) ? copysign(0x1p128, got) : got;
    return fabs(g - ref) / (overflows ? top : spacing(ref));
}
int main(int argc, char **argv) {
    (void)argc;
    uint64_t lo = strtoull(argv[1], 0, 0), hi = strtoull(argv[2], 0, 0);
    double worst = 0;
    uint32_t worst_at = 0;
    unsigned long over_half = 0, over_one = 0;
    enum { B = 4096 };
    static float in[B], out[B];
    for (uint64_t u0 = lo; u0 <= hi; u0 += B) {
        for (int i = 0; i < B; i++) {
            uint32_t u = (uint32_t)(u0 + i);
            memcpy(&in[i], &u, 4);
        }
        #pragma omp simd
        for (int i = 0; i < B; i++) out[i] = cl2c_FUNC_float(in[i]);
        for (int i = 0; i < B && u0 + i <= hi; i++) {
            double e = ulp_error(out[i], REF((double)in[i]));
            over_half += e > 0.5;
            over_one += e > 1;
            if (e > worst) { worst = e; worst_at = (uint32_t)(u0 + i); }
        }
    }
    printf("%.17g %u %lu %lu\n", worst, worst_at, over_half, over_one);
    return 0;
}
"""


def build(func: str, ref: str, scalar: bool, cc: list[str], tmp: Path) -> Path:
    src, exe = tmp / f"{func}.c", tmp / func
    src.write_text(HARNESS.replace("FUNC", func).replace("REF", ref))
    flags = [f for f in Target.host().compile_flags() if f != "-fopenmp"]
    flags += ["-fno-tree-vectorize", "-fno-openmp-simd"] if scalar else ["-fopenmp-simd"]
    subprocess.run([*cc, *flags, f"-I{ROOT / 'clruntime' / 'include'}", str(src),
                    "-o", str(exe), "-lm"], check=True)
    return exe


def run(exe: Path, jobs: int, lo: int, hi: int) -> tuple[float, int, int, int]:
    step = (hi - lo + 1) // jobs
    ranges = [(lo + i * step, hi if i == jobs - 1 else lo + (i + 1) * step - 1)
              for i in range(jobs)]
    with ThreadPoolExecutor(jobs) as pool:
        outs = list(pool.map(lambda r: subprocess.run(
            [str(exe), str(r[0]), str(r[1])], check=True, capture_output=True,
            text=True).stdout.split(), ranges))
    worst = max(outs, key=lambda o: float(o[0]))
    return (float(worst[0]), int(worst[1]), sum(int(o[2]) for o in outs),
            sum(int(o[3]) for o in outs))


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("functions", nargs="*", help=f"of {', '.join(FUNCTIONS)} (all)")
    ap.add_argument("-j", type=int, default=os.cpu_count() or 1, help="processes")
    ap.add_argument("--range", nargs=2, metavar=("LO", "HI"), type=lambda v: int(v, 0),
                    help="only the inputs of these bits (a quick look)")
    ap.add_argument("--scalar", action="store_true", help="the scalar code, not the vector")
    ap.add_argument("--cc", default="gcc", help="the compiler and flags of its own "
                    "(gcc; 'gcc -mno-fma -mno-avx512f': math.h's code for CPUs without fma)")
    args = ap.parse_args()
    if set(args.functions) - set(FUNCTIONS):
        ap.error(f"not one of cl2c's own functions: {sorted(set(args.functions) - set(FUNCTIONS))}")
    failed = False
    with tempfile.TemporaryDirectory() as tmp:
        for func in args.functions or list(FUNCTIONS):
            exe = build(func, FUNCTIONS[func], args.scalar, shlex.split(args.cc), Path(tmp))
            worst, at, half, one = run(exe, args.j, *(args.range or (0, (1 << 32) - 1)))
            x = struct.unpack("<f", struct.pack("<I", at))[0]
            bound = ulp_bounds.BOUNDS[func][1]
            failed |= worst > bound
            print(f"{func:<6} worst {worst:.4f} ulp at {x!r} ({float.hex(x)}), bound {bound}; "
                  f"> 0.5 ulp: {half}, > 1 ulp: {one}"
                  f"{'  OVER THE BOUND' if worst > bound else ''}", flush=True)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
