"""Build options, as OpenCL's ``clBuildProgram`` takes them and as the CLI passes them."""
from __future__ import annotations

import os
import shlex
from dataclasses import dataclass, field

from .diagnostics import BuildError, Diagnostic
from .language_version import CL1_2, VERSIONS, LanguageVersion

# Options of the OpenCL spec (5.8.4) that change nothing for cl2c, accepted so
# that build strings written for other implementations work unchanged.
_ACCEPTED_FLAGS = {
    "-cl-mad-enable", "-cl-no-signed-zeros", "-cl-unsafe-math-optimizations",
    "-cl-finite-math-only", "-cl-fast-relaxed-math", "-cl-single-precision-constant",
    "-cl-denorms-are-zero", "-cl-fp32-correctly-rounded-divide-sqrt", "-cl-kernel-arg-info",
    "-cl-strict-aliasing", "-cl-uniform-work-group-size", "-cl-no-subgroup-ifp",
    # debug information (2.0); the linker's options (5.8.5), which clBuildProgram
    # takes too: a program is always one executable here
    "-g", "-create-library", "-enable-link-options",
}


@dataclass
class Options:
    defines: dict[str, str] = field(default_factory=dict)
    include_dirs: list[str] = field(default_factory=list)
    cl_std: LanguageVersion = CL1_2
    schedule: str = "auto"
    flags: list[str] = field(default_factory=list)
    check_barriers: bool = False   # fibers that report barrier divergence
    check: str = ""                # checking mode (-cl2c-check): "stop" or "collect"
    sanitize: tuple = ()           # the C compiler's sanitizers (-cl2c-sanitize=...)
    fiber_stack: int = 0           # bytes per work-item fiber; 0: the runtime's default
    optimise: bool = True          # False with -cl-opt-disable: the C compiled at -O0
    warnings: str = "show"         # "none" with -w, "error" with -Werror (clBuildProgram)
    # extensions and 3.0 features the device is asked not to offer (-cl-ext=-name)
    removed_extensions: tuple[str, ...] = ()

    @property
    def cl_std_name(self) -> str:
        return self.cl_std.name

    @property
    def device_version(self) -> LanguageVersion:
        """The OpenCL version of the device a build models (__OPENCL_VERSION__)."""
        return self.cl_std.device_version

    def key(self) -> str:
        """A stable text for cache keys."""
        defs = ";".join(f"{k}={v}" for k, v in sorted(self.defines.items()))
        return f"D[{defs}] I[{';'.join(self.include_dirs)}] std={self.cl_std.number} " \
               f"sched={self.schedule} check={int(self.check_barriers)}{self.check} " \
               f"sanitize={','.join(self.sanitize)} " \
               f"stack={self.fiber_stack} warnings={self.warnings} " \
               f"{'' if self.optimise else 'unoptimised '}" \
               f"flags={' '.join(sorted(self.flags))}" + \
               (f" ext-={','.join(sorted(self.removed_extensions))}"
                if self.removed_extensions else "")


def _fail(message: str) -> BuildError:
    return BuildError([Diagnostic("error", message)])


def parse_options(text: str | list[str] | None) -> Options:
    """Parse an options string such as ``"-DN=4 -I include -cl-std=CL2.0"``."""
    opts = Options()
    env_sched = os.environ.get("CL2C_SCHEDULE")
    if env_sched:
        opts.schedule = _schedule(env_sched)
    if os.environ.get("CL2C_CHECK_BARRIERS", "") not in ("", "0"):
        opts.check_barriers = True
    env_check = os.environ.get("CL2C_CHECK", "")
    if env_check not in ("", "0"):
        opts.check = _check_mode(env_check if env_check != "1" else "stop", "CL2C_CHECK")
    if not text:
        return opts
    words = shlex.split(text) if isinstance(text, str) else list(text)
    it = iter(words)
    for w in it:
        if w.startswith("-D"):
            spec = w[2:] or next(it, "")
            if not spec:
                raise _fail("missing macro name after '-D'")
            name, _, value = spec.partition("=")
            opts.defines[name] = value if "=" in spec else "1"
        elif w.startswith("-I"):
            path = w[2:] or next(it, "")
            if not path:
                raise _fail("missing directory after '-I'")
            opts.include_dirs.append(path)
        elif w.startswith("-cl-std="):
            std = w.split("=", 1)[1]
            if std not in VERSIONS:
                raise _fail(f"invalid value '{std}' in '{w}' "
                            f"(expected one of {', '.join(VERSIONS)})")
            opts.cl_std = VERSIONS[std]
        elif w.startswith("-cl-ext="):
            opts.removed_extensions += _removed_extensions(w)
        elif w.startswith("-cl2c-schedule="):
            opts.schedule = _schedule(w.split("=", 1)[1])
        elif w == "-cl2c-check-barriers":
            opts.check_barriers = True
        elif w == "-cl2c-check":
            opts.check = "stop"
        elif w.startswith("-cl2c-check="):
            opts.check = _check_mode(w.split("=", 1)[1], w)
        elif w.startswith("-cl2c-sanitize="):
            opts.sanitize = _sanitizers(w.split("=", 1)[1], w)
        elif w.startswith("-cl2c-fiber-stack="):
            opts.fiber_stack = _size(w.split("=", 1)[1], w)
        elif w == "-cl-opt-disable":
            opts.optimise = False
        elif w == "-w":
            opts.warnings = "none"
        elif w == "-Werror":
            opts.warnings = "error"
        elif w in _ACCEPTED_FLAGS:
            opts.flags.append(w)
        else:
            raise _fail(f"unknown build option '{w}'")
    return opts


def _removed_extensions(word: str) -> tuple[str, ...]:
    """clang's ``-cl-ext=-cl_khr_fp64,-__opencl_c_fp64``: the extensions and features
    the device is not to offer. Adding one cl2c does not offer (``+name``) is refused;
    ``+name`` of an offered one changes nothing."""
    from .target import EXTENSIONS, FEATURES
    known = set(EXTENSIONS) | set(FEATURES) | {"cl_khr_fp16"}
    removed = []
    for item in word.split("=", 1)[1].split(","):
        sign, name = item[:1], item[1:]
        if sign not in "+-" or not sign or name not in known:
            raise _fail(f"invalid item '{item}' in '{word}' (expected -name or +name of "
                        f"an extension or feature cl2c offers)")
        if sign == "-":
            removed.append(name)
    return tuple(removed)


SANITIZERS = ("address", "undefined", "thread")


def _sanitizers(text: str, where: str) -> tuple:
    names = tuple(dict.fromkeys(n.strip() for n in text.split(",") if n.strip()))
    bad = [n for n in names if n not in SANITIZERS]
    if bad or not names:
        raise _fail(f"invalid sanitizer '{bad[0] if bad else text}' in '{where}' "
                    f"(expected a list of {', '.join(SANITIZERS)})")
    if "address" in names and "thread" in names:
        raise _fail(f"'{where}': the address and thread sanitizers cannot be combined")
    return names


def _check_mode(mode: str, where: str) -> str:
    if mode not in ("stop", "collect"):
        raise _fail(f"invalid checking mode '{mode}' in '{where}' (expected stop or collect)")
    return mode


def _schedule(name: str) -> str:
    from .workgroup.schedules import names
    if name not in names():
        raise _fail(f"invalid schedule '{name}' (expected one of {', '.join(names())})")
    return name


def _size(text: str, word: str) -> int:
    """Bytes from ``65536``, ``64K`` or ``1M``."""
    units = {"": 1, "K": 1024, "M": 1024 * 1024}
    number, unit = text.rstrip("KkMm"), text[len(text.rstrip("KkMm")):].upper()
    if not number.isdigit() or unit not in units or int(number) == 0:
        raise _fail(f"invalid size in '{word}' (expected bytes, or a number with K or M)")
    return int(number) * units[unit]
