"""OpenCL's error codes and cl2c's own: the one table, and the C header made from it.

The runtime's C (clruntime's ``cl2c/errors.h``, which ``host.h`` and ``fiber.h`` include),
the Python loader and the OpenCL platform library all take their codes from here. Each
code has OpenCL's name less its ``CL_`` (C spells it ``CL2C_<name>``), its value, and what
it means where cl2c returns it: the text of ``cl2c_error_string()``, which is what a failed
launch reports.

The header is generated and committed (it ships with the other runtime headers, and plain C
programs include it without Python). Regenerate it after changing the table::

    python -m cl2c.error_codes

(tests/test_error_codes.py fails while the committed header differs from the table).
"""
from __future__ import annotations

import sys
from pathlib import Path
from typing import NamedTuple


class ErrorCode(NamedTuple):
    name: str       # OpenCL's name less "CL_" (cl2c's own: a name OpenCL does not use)
    value: int
    meaning: str    # what cl2c_error_string() says


# OpenCL's codes (CL/cl.h, OpenCL 3.0, and the ICD loader's CL_PLATFORM_NOT_FOUND_KHR).
# Where cl2c's runtime returns one, its meaning says in which case.
OPENCL = (
    ErrorCode("SUCCESS", 0, "success"),
    ErrorCode("DEVICE_NOT_FOUND", -1, "device not found"),
    ErrorCode("DEVICE_NOT_AVAILABLE", -2, "device not available"),
    ErrorCode("COMPILER_NOT_AVAILABLE", -3, "compiler not available"),
    ErrorCode("MEM_OBJECT_ALLOCATION_FAILURE", -4, "memory object allocation failure"),
    ErrorCode("OUT_OF_RESOURCES", -5,
              "out of resources (the fibers schedule could not allocate its work-item stacks)"),
    ErrorCode("OUT_OF_HOST_MEMORY", -6, "out of host memory"),
    ErrorCode("PROFILING_INFO_NOT_AVAILABLE", -7, "profiling information not available"),
    ErrorCode("MEM_COPY_OVERLAP", -8, "memory copy overlap"),
    ErrorCode("IMAGE_FORMAT_MISMATCH", -9, "image format mismatch"),
    ErrorCode("IMAGE_FORMAT_NOT_SUPPORTED", -10, "image format not supported"),
    ErrorCode("BUILD_PROGRAM_FAILURE", -11, "program build failure"),
    ErrorCode("MAP_FAILURE", -12, "map failure"),
    ErrorCode("MISALIGNED_SUB_BUFFER_OFFSET", -13, "misaligned sub-buffer offset"),
    ErrorCode("EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST", -14,
              "an event in the wait list failed"),
    ErrorCode("COMPILE_PROGRAM_FAILURE", -15, "program compile failure"),
    ErrorCode("LINKER_NOT_AVAILABLE", -16, "linker not available"),
    ErrorCode("LINK_PROGRAM_FAILURE", -17, "program link failure"),
    ErrorCode("DEVICE_PARTITION_FAILED", -18, "device partition failed"),
    ErrorCode("KERNEL_ARG_INFO_NOT_AVAILABLE", -19, "kernel argument information not available"),
    ErrorCode("INVALID_VALUE", -30, "invalid value (a NULL range?)"),
    ErrorCode("INVALID_DEVICE_TYPE", -31, "invalid device type"),
    ErrorCode("INVALID_PLATFORM", -32, "invalid platform"),
    ErrorCode("INVALID_DEVICE", -33, "invalid device"),
    ErrorCode("INVALID_CONTEXT", -34, "invalid context"),
    ErrorCode("INVALID_QUEUE_PROPERTIES", -35, "invalid queue properties"),
    ErrorCode("INVALID_COMMAND_QUEUE", -36, "invalid command queue"),
    ErrorCode("INVALID_HOST_PTR", -37, "invalid host pointer"),
    ErrorCode("INVALID_MEM_OBJECT", -38, "invalid memory object"),
    ErrorCode("INVALID_IMAGE_FORMAT_DESCRIPTOR", -39,
              "invalid image format descriptor (an unknown channel order or type)"),
    ErrorCode("INVALID_IMAGE_SIZE", -40, "invalid image size (a size of 0)"),
    ErrorCode("INVALID_SAMPLER", -41, "invalid sampler"),
    ErrorCode("INVALID_BINARY", -42, "invalid binary"),
    ErrorCode("INVALID_BUILD_OPTIONS", -43, "invalid build options"),
    ErrorCode("INVALID_PROGRAM", -44, "invalid program"),
    ErrorCode("INVALID_PROGRAM_EXECUTABLE", -45, "invalid program executable"),
    ErrorCode("INVALID_KERNEL_NAME", -46, "invalid kernel name"),
    ErrorCode("INVALID_KERNEL_DEFINITION", -47, "invalid kernel definition"),
    ErrorCode("INVALID_KERNEL", -48, "invalid kernel (NULL kernel information)"),
    ErrorCode("INVALID_ARG_INDEX", -49, "invalid argument index"),
    ErrorCode("INVALID_ARG_VALUE", -50, "invalid argument value (a null buffer?)"),
    ErrorCode("INVALID_ARG_SIZE", -51, "invalid argument size (a __local argument of 0 bytes?)"),
    ErrorCode("INVALID_KERNEL_ARGS", -52, "kernel arguments not set"),
    ErrorCode("INVALID_WORK_DIMENSION", -53, "work_dim must be 1, 2 or 3"),
    ErrorCode("INVALID_WORK_GROUP_SIZE", -54,
              "invalid work-group size (it must divide the global size under OpenCL 1.2, "
              "match reqd_work_group_size, and hold at most 4096 work-items)"),
    ErrorCode("INVALID_WORK_ITEM_SIZE", -55, "a local size is zero"),
    ErrorCode("INVALID_GLOBAL_OFFSET", -56, "global offset plus global size overflows"),
    ErrorCode("INVALID_EVENT_WAIT_LIST", -57, "invalid event wait list"),
    ErrorCode("INVALID_EVENT", -58, "invalid event"),
    ErrorCode("INVALID_OPERATION", -59,
              "invalid operation (a launch of the fibers schedule from inside a work-item)"),
    ErrorCode("INVALID_GL_OBJECT", -60, "invalid OpenGL object"),
    ErrorCode("INVALID_BUFFER_SIZE", -61, "invalid buffer size"),
    ErrorCode("INVALID_MIP_LEVEL", -62, "invalid mip-map level"),
    ErrorCode("INVALID_GLOBAL_WORK_SIZE", -63, "a global size is zero"),
    ErrorCode("INVALID_PROPERTY", -64, "invalid property"),
    ErrorCode("INVALID_IMAGE_DESCRIPTOR", -65, "invalid image descriptor"),
    ErrorCode("INVALID_COMPILER_OPTIONS", -66, "invalid compiler options"),
    ErrorCode("INVALID_LINKER_OPTIONS", -67, "invalid linker options"),
    ErrorCode("INVALID_DEVICE_PARTITION_COUNT", -68, "invalid device partition count"),
    ErrorCode("INVALID_PIPE_SIZE", -69, "invalid pipe size"),
    ErrorCode("INVALID_DEVICE_QUEUE", -70, "invalid device queue"),
    ErrorCode("INVALID_SPEC_ID", -71, "invalid specialization constant id"),
    ErrorCode("MAX_SIZE_RESTRICTION_EXCEEDED", -72, "maximum size restriction exceeded"),
    ErrorCode("PLATFORM_NOT_FOUND_KHR", -1001, "no OpenCL platform found"),
)

# cl2c's own: a launch that failed while it ran (the calling thread's last error,
# cl2c_fiber_last_error, says which work-group and why).
OWN = (
    ErrorCode("BARRIER_DIVERGENCE", -1100,
              "barrier divergence: the work-items of a group disagreed on their barriers"),
    ErrorCode("KERNEL_FAULT", -1101,
              "the kernel faulted (SIGSEGV, SIGBUS or SIGFPE) and the launch stopped"),
    ErrorCode("INTERRUPTED", -1102,
              "interrupted (SIGINT): the launch stopped between work-groups"),
    ErrorCode("CHECK_FAILED", -1103, "checking mode (-cl2c-check) found a bug in the kernel"),
)

CODES = OPENCL + OWN
_BY_NAME = {c.name: c for c in CODES}


def value(name: str) -> int:
    """The value of the code called ``name`` (OpenCL's name less ``CL_``)."""
    return _BY_NAME[name].value


# (the header's place in the runtime's headers)
HEADER = Path(__file__).resolve().parent.parent / "clruntime" / "include" / "cl2c" / "errors.h"


def _c_strings(text: str, width: int = 76) -> list[str]:
    """``text`` as C string literals of at most about ``width`` characters, to be
    concatenated (cut after spaces, so the text is unchanged)."""
    assert text.isascii() and '"' not in text and "\\" not in text, text
    pieces, line = [], ""
    for word in text.split(" "):
        if line and len(line) + len(word) > width:
            pieces.append(line)
            line = ""
        line += word + " "
    pieces.append(line[:-1])
    return [f'"{piece}"' for piece in pieces]


def header_text() -> str:
    """The C header: a macro per code and cl2c_error_string(); plain C99, no includes."""
    lines = [
        "/* cl2c/errors.h: OpenCL's error codes and cl2c's own, and what each means.",
        " *",
        " * GENERATED from cl2c/error_codes.py by `python -m cl2c.error_codes`: do not edit.",
        " * Plain C99, needing no other header (host.h, fiber.h and the platform library",
        " * include it). Each code is OpenCL's value under the name CL2C_<name less CL_>. */",
        "#ifndef CL2C_ERRORS_H",
        "#define CL2C_ERRORS_H",
        "",
        "/* OpenCL's codes */",
    ]
    width = max(len(c.name) for c in CODES) + len("#define CL2C_ ")
    for c in OPENCL:
        lines.append(f"#define CL2C_{c.name}".ljust(width) + (f" ({c.value})" if c.value else " 0"))
    lines += ["", "/* cl2c's own: a launch that failed while it ran (the calling thread's last",
              " * error, cl2c_fiber_last_error, says which work-group and why) */"]
    for c in OWN:
        lines.append(f"#define CL2C_{c.name}".ljust(width) + f" ({c.value})")
    lines += ["", "/* What a code means where cl2c returns it; \"unknown error\" for others. */",
              "static inline const char *cl2c_error_string(int code) {",
              "    switch (code) {"]
    for c in CODES:
        first, *rest = _c_strings(c.meaning)
        lines += [f"    case CL2C_{c.name}:", f"        return {first}"]
        lines += [f"               {piece}" for piece in rest]
        lines[-1] += ";"
    lines += ['    default:', '        return "unknown error";', "    }", "}", "",
              "#endif /* CL2C_ERRORS_H */", ""]
    return "\n".join(lines)


def main(argv: list[str]) -> int:
    target = Path(argv[0]) if argv else HEADER
    target.write_text(header_text())
    print(f"wrote {target}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
