"""Stage 6: compile the emitted C into a shared library, and load it (kernel_library.py).

The library exports, per kernel, ``cl2c_argv_<name>(range, args)``, which
takes its arguments as an array of pointers to values. That one signature
serves every kernel, so the loader's declarations never depend on user types.
The compiler and its flags come from a :class:`~cl2c.target.Target`; this module also
builds ``cl2c --shared``'s plain shared libraries from the same flags.
"""
from __future__ import annotations

import contextlib
import os
import shlex
import shutil
import tempfile
from pathlib import Path

from . import cache, cachedir, precompiled
from .diagnostics import BuildError, Diagnostic, ToolchainError
from .kernel_library import EXPORTED, LOADER_FUNCTIONS, Library, open_library, range_struct
from .resources import runtime_include_dir
from .target import Target
from .threads import affinity_kept, omp_defaults

_FAILED = "the C compiler failed on the translation"


def cdef_for(kernel_names: list[str]) -> str:
    """What cffi declares of a compiled package's extension module (aot.py): the range,
    the error strings, the program's __global variables (extension_source) and one argv
    entry point per kernel."""
    return (range_struct() + "\n" +
            "".join(f"{ret}{'' if ret.endswith('*') else ' '}{name}({params});\n"
                    for ret, name, params in LOADER_FUNCTIONS) +
            "".join(f"int cl2c_argv_{n}(const cl2c_range *range, void *const *args);\n"
                    for n in kernel_names))


# The size and initializer of a program's __global variables (OpenCL C 2.0), for the
# loader, which gives each Program an instance: the generated file defines CL2C_G and
# cl2c_globals_init where it has such variables.
_GLOBALS_FOR_LOADER = """
#ifdef CL2C_G
static size_t cl2c_globals_size(void) { return sizeof(struct cl2c_globals); }
#else
static size_t cl2c_globals_size(void) { return 0; }
static void cl2c_globals_init(void *storage) { (void)storage; }
#endif
#ifdef CL2C_CHECKING
static int cl2c_loader_checking(void) { return 1; }
static void cl2c_loader_check_sizes(const size_t *s, unsigned n) { cl2c_check_sizes(s, n); }
static const char *cl2c_loader_check_findings(void) { return cl2c_check_findings(); }
static size_t cl2c_loader_check_idle_bytes(void) { return cl2c_check_idle_bytes(); }
static void cl2c_loader_check_trim(void) { cl2c_check_trim(); }
#else
static int cl2c_loader_checking(void) { return 0; }
static void cl2c_loader_check_sizes(const size_t *s, unsigned n) { (void)s; (void)n; }
static const char *cl2c_loader_check_findings(void) { return ""; }
static size_t cl2c_loader_check_idle_bytes(void) { return 0; }
static void cl2c_loader_check_trim(void) { }
#endif
/* The local size that a launch of r resolves to, into local[3] (cl2c_range_resolve: the
 * groups cl2c picks where r asks for none), and its status. */
static int cl2c_loader_local_size(const cl2c_range *r, const size_t *reqd, int non_uniform,
                                  size_t *local) {
    cl2c_workitem nd;
    int status = cl2c_range_resolve(r, reqd, non_uniform, &nd);
    for (int d = 0; d < 3; ++d)
        local[d] = status == CL2C_SUCCESS ? nd.enqueued_local_size[d] : 0;
    return status;
}
/* The calling thread's launches from now on run on n OpenMP threads (n > 0); returns
 * how many they ran on before (cl2c.dask: a worker's share). */
static int cl2c_loader_threads(int n) {
    int before = cl2c_max_threads();
    cl2c_set_num_threads(n);
    return before;
}
/* In a child of fork(): libgomp's threads are not there, and the calling thread, if it had
 * run a parallel region, would wait for them forever at its next one; its launches run on
 * it alone. (LLVM's libomp, clang's, starts its threads again by itself.) */
static void cl2c_loader_after_fork(void) {
#if defined(_OPENMP) && !defined(__clang__)
    cl2c_set_num_threads(1);
#endif
}
"""


def extension_source(c_source: str) -> str:
    """The C source of a program's extension module: the generated file and what the
    loader needs beside it."""
    return c_source + _GLOBALS_FOR_LOADER


# The loader's functions are static in the kernels' file (the runtime's, and
# _GLOBALS_FOR_LOADER's): the library exports each under a name of its own.
def _exports() -> str:
    """The kernels' file's exports of LOADER_FUNCTIONS, for the loader."""
    lines = ["\n/* What the Python loader calls (cl2c/build.py). */"]
    for ret, name, params in LOADER_FUNCTIONS:
        args = ", ".join(p.rsplit(" ", 1)[1].lstrip("*") for p in params.split(", ")
                         if p != "void")
        call = f"{name}({args});" if ret == "void" else f"return {name}({args});"
        lines.append(f"{ret}{'' if ret.endswith('*') else ' '}{EXPORTED}{name}({params}) "
                     f"{{ {call} }}")
    return "\n".join(lines) + "\n"


class _Subject:
    """What a build is of, for its errors: the file and its kernels."""

    def __init__(self, source_name: str, kernel_names: list[str]):
        self.source_name = source_name
        names = ", ".join(f"'{n}'" for n in kernel_names) or "none"
        self.kernels = f"kernel{'s' if len(kernel_names) != 1 else ''} {names}"

    def error(self, what: str, detail: str, bug: bool = True) -> ToolchainError:
        why = " (a cl2c bug; please report it with the kernel)" if bug else ""
        return ToolchainError([Diagnostic("error", f"{what} of {self.kernels}{why}: {detail}",
                                      self.source_name)])


def build_extension(c_source: str, kernel_names: list[str], source_name: str = "<kernel>",
                    target: Target | None = None, parts=None):
    """The loaded library (a kernel_library.Library) of ``c_source``, built for ``target``
    (the host's compiler by default) or taken from the cache. ``parts``: the emitter's
    cut of ``c_source`` (split_compile.CompileParts), for a compile in parts where it pays
    (split_compile.py). Returns (library, cache_hit)."""
    target = target or Target.host()
    what = _Subject(source_name, kernel_names)
    module_name = module_name_for(c_source, kernel_names, target)
    root = cache.usable_root() if cache.cache_enabled() else None
    if root is None:
        with tempfile.TemporaryDirectory(prefix="cl2c-") as tmp:
            built = _compile(_extension_text(c_source), module_name, Path(tmp), what,
                             target, None)     # (no runtime object to link: one file)
            return _load(module_name, built.read_bytes(), what, bool(target.sanitize)), False
    final = cache_path(root, module_name)
    named = bool(target.sanitize)
    module = _load_entry(module_name, final, what, named)
    if module is not None:
        return module, True
    with cachedir.locked(root / f"{module_name}.lock"):
        module = _load_entry(module_name, final, what, named)
        if module is not None:
            return module, True
        cachedir.remove_stale(root)
        with _build_directory(root) as tmp:
            data = _compile(_extension_text(c_source), module_name, tmp, what, target,
                            root, _units(parts, target)).read_bytes()
        module = _load(module_name, data, what, named)   # only what loads is cached
        if cachedir.write_verified(final, data):
            cachedir.write_atomic(root / f"{module_name}.c", c_source.encode())
    return module, False


def module_name_for(c_source: str, kernel_names: list[str], target: Target) -> str:
    """The name of the library of ``c_source`` built for ``target``: its cache key."""
    return f"_cl2c_{cache.key(c_source, target.identity(), _LAYOUT + ' '.join(kernel_names))}"


# What the key says of a library beyond its C: how it is laid out for the loader.
_LAYOUT = "a plain library, the loader's functions exported; kernels: "


def cache_path(root: Path, module_name: str) -> Path:
    """Where the cache in ``root`` keeps the library of ``module_name``."""
    return root / f"{module_name}{_suffix()}"


def load_built(module_name: str, source_name: str, kernel_names: list[str],
               named: bool = False):
    """The library ``module_name`` from the cache, if it is there, intact and loads
    (else None: the caller builds it again)."""
    root = cache.usable_root()
    if root is None:
        return None
    return _load_entry(module_name, cache_path(root, module_name),
                       _Subject(source_name, kernel_names), named)


def _load_entry(module_name: str, path: Path, what: _Subject, named: bool = False):
    """The library of cache entry ``path``, or None where it is missing or bad."""
    if module_name in _loaded:
        return _loaded[module_name]
    data = cachedir.read_verified(path)
    if data is None:
        return None
    try:
        return _load(module_name, data, what, named)
    except BuildError:          # it was verified, yet does not load: build it afresh
        return None


@contextlib.contextmanager
def _build_directory(root: Path):
    """A temporary directory to compile in, in the cache (named for this process, so that
    the next build removes it if this one is killed), else the system's."""
    try:
        tmp = tempfile.mkdtemp(prefix=cachedir.temp_prefix("build"), dir=root)
    except OSError:
        tmp = tempfile.mkdtemp(prefix="cl2c-")
    try:
        yield Path(tmp)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


def build_shared_library(c_source: str, target: Target, source_name: str,
                         kernel_names: list[str]) -> bytes:
    """The bytes of a plain shared library of the kernels' C entry points (the OpenCL
    platform's programs, ``cl2c --shared``), built in a directory of its own: where it
    goes is the caller's business, and the caller's errors. It links the runtime's
    object from the cache as the loader's libraries do (_compile): the platform's first
    build of a small program compiled the runtime's out-of-line code each time."""
    what = _Subject(source_name, kernel_names)
    root = cache.usable_root() if cache.cache_enabled() else None
    with (_build_directory(root) if root is not None
          else tempfile.TemporaryDirectory(prefix="cl2c-")) as tmp:
        return _compile(c_source, "kernel", Path(tmp), what, target, root).read_bytes()


def _extension_text(c_source: str) -> str:
    """The file of a library for the Python loader: the kernels and its exports."""
    return extension_source(c_source) + _exports()


def _units(parts, target: Target) -> list[str] | None:
    """The files to compile a loader's library of ``parts`` in at once, or None for
    one (split_compile.py says when)."""
    if parts is None or target.sanitize:
        return None
    from . import split_compile
    count = split_compile.part_count(len(parts.entries))
    if count < 2:
        return None
    return split_compile.units(parts, count, _GLOBALS_FOR_LOADER + _exports())


def _suffix() -> str:
    return ".so"


def _compile(text: str, module_name: str, tmpdir: Path, what: _Subject, target: Target,
             root: Path | None, units: list[str] | None = None) -> Path:
    """Build the library of C file ``text``: the compiler compiles and links it itself
    (cffi's ``compile`` is not used: setuptools' import and Python's own CFLAGS, ``-g``
    above all, took 0.15-0.25 s of a six-kernel file's 1.5 s cold build on Zen 5, and a
    kernel needs neither). It links the runtime's object and takes its header
    precompiled where cache ``root`` has them (precompiled.py); where it has no object
    yet, a second compiler process compiles one beside the kernels' file, which the
    cache keeps; with no cache, or where the linked way failed and the header-only way
    did not, the header-only way. ``units``: the same program as files to compile at
    once where the runtime's object links (split_compile.py); where that fails, one
    file."""
    kernels = tmpdir / f"{module_name}.c"
    kernels.write_text(text)
    out = tmpdir / f"{module_name}{_suffix()}"
    includes = [str(runtime_include_dir())]
    ahead = precompiled.ahead(root, target)
    if ahead is not None:
        runtime = tmpdir / precompiled.OBJECT      # the bytes verified, not the cache's file
        runtime.write_bytes(ahead.runtime_object)
        include = ([str(ahead.include)] if ahead.include else []) + includes
        if units and _linked(_unit_files(units, kernels), out, include, target, what,
                             runtime):
            return _built(out, what)            # (else one file)
        try:
            _run_compiler(what, [target.shared_library_command(
                str(kernels), str(out), include, str(runtime))])
            return _built(out, what)
        except ToolchainError:
            precompiled.discard(ahead)          # and once more with a new one
    beside = root is not None and precompiled.worth_trying(root, target)
    if beside and _compile_beside_runtime(kernels, out, includes, tmpdir, target, root, what,
                                          units):
        return _built(out, what)
    _run_compiler(what, [target.shared_library_command(str(kernels), str(out), includes)])
    if beside:                  # the kernels compile: what failed is the linked way
        precompiled.refuse(root, target)
    return _built(out, what)


def _compile_beside_runtime(kernels: Path, out: Path, includes: list[str], tmpdir: Path,
                            target: Target, root: Path, what: _Subject,
                            units: list[str] | None = None) -> bool:
    """Compile the kernels' file (its ``units``, else the file) and the runtime's object
    at once, where no compile of it started early (precompiled.start_early), link them
    into ``out`` and keep the object in cache ``root``; False where the file's way fails
    (the header-only compile then says what a failure of the kernels' file is)."""
    runtime = tmpdir / precompiled.OBJECT
    runtime.unlink(missing_ok=True)     # (the cache's, where it did not link)
    early = precompiled.early_object(root, target)
    if early is False:                  # its compile, started early, failed
        return False
    if early is not True:               # compiled while the translation ran
        runtime.write_bytes(early)
    header = str(Path(includes[0]) / precompiled.HEADER)
    for sources in ([_unit_files(units, kernels)] if units else []) + [[kernels]]:
        also = [] if runtime.is_file() else \
            [target.runtime_object_command(header, str(runtime), includes)]
        if _linked(sources, out, includes, target, what, runtime, also):
            precompiled.keep(root, target, runtime.read_bytes())
            return True
        runtime.unlink(missing_ok=True)     # (compiled again with the file)
    return False


def _linked(sources: list[Path], out: Path, includes: list[str], target: Target,
            what: _Subject, runtime: Path, also: list[list[str]] = ()) -> bool:
    """Compile ``sources`` at once (and the commands ``also`` beside them) and link their
    objects with the runtime's object into ``out``; False where any step fails."""
    objects = [source.with_suffix(".o") for source in sources]
    try:
        _run_compiler(what, [*(target.kernels_object_command(str(s), str(o), includes)
                               for s, o in zip(sources, objects)), *also])
        _run_compiler(what, [target.link_command([*map(str, objects), str(runtime)],
                                                 str(out))])
    except ToolchainError:
        return False
    return True


def _unit_files(units: list[str], beside: Path) -> list[Path]:
    """``units`` written beside ``beside``, a file each."""
    files = []
    for i, text in enumerate(units):
        path = beside.with_name(f"{beside.stem}.part{i}.c")
        path.write_text(text)
        files.append(path)
    return files


def _built(out: Path, what: _Subject) -> Path:
    if not out.is_file():
        raise what.error(_FAILED, f"the compiler wrote no {out.name}")
    return out


def _run_compiler(what: _Subject, commands: list[list[str]]) -> None:
    """Run the compiler ``commands`` at once (each a process: they are independent), and
    wait for all; the first that fails is the build's error."""
    import subprocess           # here: loading from the cache compiles nothing
    procs = []
    try:
        for cmd in commands:
            procs.append((cmd, subprocess.Popen(cmd, stdin=subprocess.DEVNULL,
                                                stdout=subprocess.PIPE,
                                                stderr=subprocess.STDOUT, text=True)))
    except OSError as e:
        for _, proc in procs:
            proc.kill()
            proc.wait()
        raise what.error("cannot run the C compiler for the translation",
                         f"{shlex.join(commands[len(procs)])}: {e}", bug=False) from None
    failed = None
    for cmd, proc in procs:
        output, _ = proc.communicate()
        if proc.returncode != 0 and failed is None:
            failed = (cmd, output)
    if failed is not None:
        cmd, output = failed
        raise what.error(_FAILED, f"{shlex.join(cmd)}\n{output[-4000:]}")


# The libraries this process loaded, by name; and the paths it opened them by: dlopen
# takes a path it opened before for that library, though another file is there now (an
# anonymous memory file's, whose number came free).
_loaded: dict[str, Library] = {}
_opened_paths: set[str] = set()


def _load(module_name: str, data: bytes, what: _Subject, named: bool = False) -> Library:
    """Load library ``module_name`` from its bytes, through a private copy (an anonymous
    memory file where there is one): what was verified is what runs, whatever happens to
    the cache's file afterwards. ``named``: a file that stays while the process runs,
    for sanitizers' symbolizers to read (-cl2c-sanitize)."""
    if module_name in _loaded:
        return _loaded[module_name]
    error = None
    images = ([_memory_image] if hasattr(os, "memfd_create") and os.path.isdir("/proc/self/fd")
              else []) + [_file_image]        # the file where memory files may not run code
    if named:
        images = [_kept_image]
    for image in images:
        try:
            with image(module_name, data) as path:
                library = Library(module_name, _open(path), data)
            break
        except OSError as e:            # an undefined symbol at dlopen: a cl2c bug
            error = error or e
    else:
        raise what.error("the compiled translation does not load", str(error)) from None
    _loaded[module_name] = library
    return library


def load_image(module_name: str, data: bytes, source_name: str, kernel_names: list[str],
               named: bool = False):
    """The library ``module_name`` from its bytes (a program binary's), through the same
    private copy as a cache entry: no compiler. BuildError where it does not load."""
    return _load(module_name, data, _Subject(source_name, kernel_names), named)


def image_of(module) -> bytes:
    """The bytes of a loaded library (or of the extension module that cl2c.load
    imported)."""
    data = getattr(module, "_cl2c_image", None)
    if data is None:                # loaded from a file of its own (cl2c.load's modules)
        with open(module.__file__, "rb") as f:
            data = f.read()
    return data


def _open(path: str):
    """The handle of the library at ``path``; OSError where it does not load, or where
    dlopen would answer with a library it opened before."""
    if path in _opened_paths:
        raise OSError(f"{path} was opened before")
    with affinity_kept(), omp_defaults():      # (libgomp starts with the first library)
        handle = open_library(path)
    _opened_paths.add(path)
    return handle


@contextlib.contextmanager
def _memory_image(module_name: str, data: bytes):
    fd = os.memfd_create(module_name, getattr(os, "MFD_CLOEXEC", 0))
    try:
        path = f"/proc/self/fd/{fd}"
        if path in _opened_paths:       # (_open would refuse it: no copy for nothing)
            raise OSError(f"{path} was opened before")
        _write_all(fd, data)
        yield path
    finally:
        os.close(fd)            # the mapping stays


@contextlib.contextmanager
def _file_image(module_name: str, data: bytes):
    fd, path = tempfile.mkstemp(prefix=f"{module_name}-", suffix=_suffix())
    try:
        _write_all(fd, data)
        os.close(fd)
        fd = -1
        yield path
    finally:
        if fd >= 0:
            os.close(fd)
        os.unlink(path)         # POSIX keeps the mapping


@contextlib.contextmanager
def _kept_image(module_name: str, data: bytes):
    import atexit
    # a sanitizer's report ends the process before atexit: the copies of processes that
    # are gone go first
    tmp = Path(tempfile.gettempdir())
    cachedir.remove_stale(tmp, kinds=("image",), legacy=False)
    fd, path = tempfile.mkstemp(prefix=f"{cachedir.temp_prefix('image')}{module_name}-",
                                suffix=_suffix(), dir=tmp)
    with os.fdopen(fd, "wb") as f:
        f.write(data)
    atexit.register(lambda: os.path.exists(path) and os.unlink(path))
    yield path


def _write_all(fd: int, data: bytes) -> None:
    view = memoryview(data)
    while view:
        view = view[os.write(fd, view):]
