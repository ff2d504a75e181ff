"""The ``cl2c`` command: a compiler driver from .cl to .c (or to a shared library).

Exit codes as compilers use them: 0 success, 1 an error in the input kernel,
2 a usage error or a failure of cl2c itself.

Emitting C runs no compiler: the C is for whatever compiles it later, so the target
is :meth:`Target.assumed` (cl_khr_fp16 offered; C that computes in half then stops a
compiler without _Float16 with an #error). ``--shared`` compiles here, for the host's
probed target, as ``Program.build`` does.
"""
from __future__ import annotations

import os
import shlex
import sys

import click

from .workgroup.schedules import names as schedule_names
from .version import __version__
from .diagnostics import BuildError, render
from .options import parse_options
from .outputs import OutputError, Outputs
from .pipeline import run_preprocessor, translate
from .resources import runtime_include_dir
from .source_text import decode, read_source
from .target import Target
from .timing import StageTimes


def _depfile(target: str, source: str, deps: list[str]) -> str:
    def esc(p):     # as gcc -MD writes a name Make reads: space, '#' and '$'
        return p.replace(" ", "\\ ").replace("#", "\\#").replace("$", "$$")
    lines = [f"{esc(target)}: {esc(source)}" + "".join(f" \\\n  {esc(d)}" for d in deps)]
    lines += [f"{esc(d)}:" for d in deps]   # like -MP: a deleted header breaks no build
    return "\n".join(lines) + "\n"


def _fail(diags, sources=None) -> None:
    for d in diags:
        click.echo(render(d, sources), err=True)
    n = sum(1 for d in diags if d.severity == "error")
    if n > 1:
        click.echo(f"{n} errors generated.", err=True)


@click.command(context_settings={"help_option_names": ["-h", "--help"],
                                 "ignore_unknown_options": False})
@click.argument("source", required=False, metavar="FILE.cl")
@click.option("-o", "output", metavar="FILE", help="Output file ('-' for stdout). Default: "
              "FILE.c next to the input (or FILE.so with --shared).")
@click.option("-D", "defines", multiple=True, metavar="NAME[=VALUE]", help="Define a macro.")
@click.option("-I", "includes", multiple=True, metavar="DIR", help="Add an include directory.")
@click.option("-cl-std", "cl_std", metavar="CLX.Y", help="OpenCL C version: CL1.2, CL2.0 or CL3.0.")
@click.option("-cl-ext", "cl_ext", multiple=True, metavar="-NAME[,...]",
              help="Model a device without these extensions or features (-cl_khr_fp64).")
@click.option("-E", "preprocess_only", is_flag=True, help="Preprocess only.")
@click.option("-w", "no_warnings", is_flag=True, help="Show no warnings.")
@click.option("-Werror", "werror", is_flag=True, help="Make every warning an error.")
@click.option("-fsyntax-only", "syntax_only", is_flag=True, help="Check the kernel, write nothing.")
@click.option("-H", "--header", "header", metavar="FILE",
              help="Also write a C header declaring the kernels' entry points.")
@click.option("-MD", "make_deps", is_flag=True, help="Write a Make dependency file.")
@click.option("-MF", "depfile", metavar="FILE", help="Dependency file name (default OUT.d).")
@click.option("-MT", "dep_target", metavar="TARGET", help="Target named in the dependency file.")
@click.option("--shared", is_flag=True, help="Build a shared library (needs a C compiler).")
@click.option("--schedule", type=click.Choice(schedule_names()),
              default=None, help="Force a work-group schedule.")
@click.option("--check", "check", flag_value="stop", default=None,
              help="Checking mode: bounds, races, uninitialized __local reads, division "
                   "by zero, barrier divergence (-cl2c-check).")
@click.option("--check-collect", "check", flag_value="collect",
              help="Checking mode that reports every finding after the launch "
                   "(-cl2c-check=collect).")
@click.option("--sanitize", metavar="LIST",
              help="With --shared: build with the C compiler's sanitizers "
                   "(-cl2c-sanitize=address,undefined,thread).")
@click.option("--options", "extra_options", metavar="'OPTS'",
              help="An OpenCL build-option string, as clBuildProgram takes it.")
@click.option("--no-line-directives", is_flag=True, help="Leave out #line directives.")
@click.option("--time", "time_report", is_flag=True,
              help="Print the time of each stage (as -ftime-report) on standard error.")
@click.option("--cflags", type=click.Choice(["native", "portable"]), is_flag=False,
              flag_value="native", default=None, metavar="[=native|portable]",
              help="Print the flags that Program.build compiles kernels with, for $CC (for "
                   "a build system's kernel sources; 'portable': for any CPU of the "
                   "architecture, not -march=native).")
@click.option("--cmakedir", is_flag=True, help="Print the folder of cl2c's CMake module.")
@click.option("--includedir", is_flag=True, help="Print the folder of the runtime headers.")
@click.option("--icd", is_flag=True,
              help="Print the folder to put in OCL_ICD_VENDORS to run OpenCL hosts on cl2c "
                   "(builds the platform library first where it is not built yet).")
@click.version_option(__version__, "--version", prog_name="cl2c")
def main(source, output, defines, includes, cl_std, cl_ext, no_warnings, werror,
         preprocess_only, syntax_only, header,
         make_deps, depfile, dep_target, shared, schedule, check, sanitize, extra_options,
         no_line_directives, time_report, cflags, cmakedir, includedir, icd):
    """Translate an OpenCL C kernel file to C11 + OpenMP."""
    if cflags:
        click.echo(shlex.join(Target.host(native=cflags == "native").compile_flags()))
        return
    if includedir:
        click.echo(str(runtime_include_dir()))
        return
    if icd:
        _print_icd_folder()
        return
    if cmakedir:
        click.echo(str(runtime_include_dir().parent / "cmake"))
        return
    if source is None:
        raise click.UsageError("no input file (give FILE.cl, or '-' for standard input)")
    words = []
    for d in defines:
        words.append(f"-D{d}")
    for i in includes:
        words.append(f"-I{i}")
    if cl_std:
        words.append(f"-cl-std={cl_std}")
    words += [f"-cl-ext={e}" for e in cl_ext]
    if schedule:
        words.append(f"-cl2c-schedule={schedule}")
    if check:
        words.append("-cl2c-check" if check == "stop" else f"-cl2c-check={check}")
    if sanitize:
        words.append(f"-cl2c-sanitize={sanitize}")
    words += ["-w"] * no_warnings + ["-Werror"] * werror
    try:
        options = parse_options(shlex.split(extra_options or "") + words)
    except BuildError as e:
        raise click.UsageError(e.render().replace("cl2c: error: ", "")) from None
    try:
        if source == "-":
            text, name = decode(sys.stdin.buffer.read(), "<stdin>"), "<stdin>"
        else:
            text, name = read_source(source), source
    except OSError as e:
        click.echo(f"cl2c: error: {source}: {e.strerror}", err=True)
        sys.exit(1)
    except BuildError as e:
        _fail(e.diagnostics, e.sources)
        sys.exit(1)
    default_out = "-" if source == "-" else os.path.splitext(source)[0] + \
        (".so" if shared else ".c")
    out = output or default_out
    compiles = shared and not (syntax_only or preprocess_only)
    if compiles and out == "-":
        raise click.UsageError("a shared library cannot go to standard output: give -o FILE")
    cc_target = Target.host() if compiles else Target.assumed()
    main_out = (output or "-") if preprocess_only else out
    dep_path = None
    if make_deps or depfile:
        dep_path = depfile or (os.path.splitext(out)[0] + ".d" if out != "-" else "kernel.d")
    outputs = Outputs(source)
    try:
        if preprocess_only or not syntax_only:
            outputs.claim(main_out, "the output file")
            if header and not preprocess_only:
                outputs.claim(header, "the header")
        if dep_path:
            outputs.claim(dep_path, "the dependency file")
        if preprocess_only:
            pre, _ = run_preprocessor(text, name, options, cc_target)
            outputs.stage(main_out, pre.text)
            deps = pre.dependencies
        else:
            c_name = os.path.basename(out) if out != "-" else "kernel.c"
            times = StageTimes()
            tr = translate(text, name, options, output_name=c_name,
                           line_directives=not no_line_directives, target=cc_target,
                           times=times)
            deps = tr.preprocessed.dependencies
            if tr.warnings:
                click.echo(tr.warnings, err=True)
            if not syntax_only:
                with times.stage("C compile" if shared else "write"):
                    if shared:
                        outputs.stage(out, _build_shared(tr), executable=True)
                    else:
                        outputs.stage(out, tr.c_source)
                if header:
                    outputs.stage(header, tr.emitted.header)
            if time_report:
                click.echo(times.report(name), err=True)
        if dep_path:
            target = dep_target or (out if out != "-" else "-")
            outputs.stage(dep_path, _depfile(target, name, deps))
        outputs.commit()
    except BuildError as e:
        _fail(e.diagnostics, e.sources)
        sys.exit(1)
    except OutputError as e:
        click.echo(f"cl2c: error: {e}", err=True)
        sys.exit(1)
    finally:
        outputs.discard()


def _print_icd_folder() -> None:
    from .platform.library import IcdBuildError, icd_folder
    try:
        click.echo(str(icd_folder()))
    except IcdBuildError as e:
        click.echo(f"cl2c: error: {e}", err=True)
        sys.exit(2)


def _build_shared(tr) -> bytes:
    from .build import build_shared_library
    target = tr.target.for_options(tr.options)
    try:
        return build_shared_library(tr.c_source, target, tr.source_name,
                                    [k.name for k in tr.kernels])
    except BuildError as e:   # cl2c's failure, not the kernel's: exit 2
        _fail(e.diagnostics)
        sys.exit(2)


def entry() -> None:
    """Console-script entry: never a traceback for a user's mistake."""
    try:
        main(standalone_mode=True)
    except KeyboardInterrupt:
        sys.exit(130)
    except Exception as e:  # a bug in cl2c, not the user's mistake
        if os.environ.get("CL2C_DEBUG"):
            raise
        click.echo(f"cl2c: internal error: {type(e).__name__}: {e}\n"
                   f"cl2c: this is a bug in cl2c; please report it with the kernel "
                   f"(CL2C_DEBUG=1 shows the traceback)", err=True)
        sys.exit(2)


if __name__ == "__main__":
    entry()
