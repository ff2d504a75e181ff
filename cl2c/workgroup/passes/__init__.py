"""The passes on the work-group function's IR, each taking a GroupFunction and writing its
decision into it: lock-step, unrolling, check versions, tiling, counters; and interleaving,
which makes a kernel's interleaved twin."""
