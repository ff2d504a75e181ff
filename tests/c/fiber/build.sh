#!/bin/sh
# Builds the fiber runtime tests into OUTDIR (default: ./build-fiber), one binary per
# context-switch back end:
#   fiber_test            the hand-written switch of this architecture (x86-64, AArch64)
#   fiber_test_ucontext   the portable getcontext/makecontext/swapcontext fallback
#   fiber_test_fpu        x86-64/AArch64 switch that also saves MXCSR and the x87 control word
# Then: OUTDIR/fiber_test            runs the tests ("N passed, N failed" at the end)
#       OUTDIR/fiber_test bench      prints ns per switch and per work-item per barrier
# CC (default cc) and EXTRA_CFLAGS are taken from the environment.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
inc="$here/../../../clruntime/include"
out=${1:-build-fiber}
cc=${CC:-cc}
mkdir -p "$out"
flags="-std=c11 -O2 -Wall -Wextra -Werror -fopenmp -I$inc ${EXTRA_CFLAGS:-}"
# fiber_tu2.c stands for a second generated file: it includes <stdio.h> before the runtime,
# so it needs the POSIX declarations asked for on the command line.
build() {
    name=$1
    shift
    $cc $flags "$@" -c "$here/fiber_test.c" -o "$out/$name.main.o"
    $cc $flags -D_GNU_SOURCE "$@" -c "$here/fiber_tu2.c" -o "$out/$name.tu2.o"
    $cc -fopenmp ${EXTRA_CFLAGS:-} "$out/$name.main.o" "$out/$name.tu2.o" -o "$out/$name"
}
build fiber_test
build fiber_test_ucontext -DCL2C_FIBER_UCONTEXT
build fiber_test_fpu -DCL2C_FIBER_SAVE_FPU_CONTROL
