"""The OpenCL C version a program is built for (``-cl-std=``), as a value with the
features that version brings, so that no code compares version numbers.

Every version from OpenCL C 2.0 on has 2.0's core features (cl2c offers all of 3.0's
optional features under 3.0: target.FEATURES), so each predicate is "from version X on".
"""
from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, order=True)
class LanguageVersion:
    number: int     # __OPENCL_C_VERSION__: 120 for OpenCL C 1.2

    @property
    def name(self) -> str:
        """As -cl-std= spells it: ``CL2.0``."""
        return f"CL{self.dotted}"

    @property
    def major(self) -> int:
        return self.number // 100

    @property
    def minor(self) -> int:
        return self.number // 10 % 10

    @property
    def dotted(self) -> str:
        """``2.0``."""
        return f"{self.major}.{self.minor}"

    def __str__(self) -> str:
        return self.name

    @property
    def device_version(self) -> LanguageVersion:
        """The OpenCL version of the device a build models (__OPENCL_VERSION__): 1.2 for
        OpenCL C 1.x, else this version."""
        return max(self, CL1_2)

    # ---- what the version has (OpenCL C spec 6.x; "2.0": from 2.0 on) ----
    @property
    def generic_address_space(self) -> bool:
        """The generic address space (6.5.5): the ``generic`` keyword, unqualified pointers
        in it, casts between address spaces, to_global/to_local/to_private/get_fence."""
        return self >= CL2_0

    @property
    def program_scope_variables(self) -> bool:
        """Program-scope and function-scope static variables in __global (6.5), not only
        in __constant."""
        return self >= CL2_0

    @property
    def atomic_types(self) -> bool:
        """The C11 atomic types (atomic_int, ...) and ATOMIC_VAR_INIT (6.13.11)."""
        return self >= CL2_0

    @property
    def read_write_images(self) -> bool:
        """The read_write access qualifier on images (6.7)."""
        return self >= CL2_0

    @property
    def non_uniform_work_groups(self) -> bool:
        """A global size that the local size need not divide (the last group smaller)."""
        return self >= CL2_0

    @property
    def feature_macros(self) -> bool:
        """The optional features and their __opencl_c_* macros (3.0, 6.2.1)."""
        return self >= CL3_0


CL1_0 = LanguageVersion(100)
CL1_1 = LanguageVersion(110)
CL1_2 = LanguageVersion(120)
CL2_0 = LanguageVersion(200)
CL3_0 = LanguageVersion(300)

# -cl-std= names, in order
VERSIONS = {v.name: v for v in (CL1_0, CL1_1, CL1_2, CL2_0, CL3_0)}
