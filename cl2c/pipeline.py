"""The whole translation, stage by stage: preprocess -> parse -> sema -> lower ->
work-group -> emit.

Each stage lives in its own module; this one only strings them together and
turns stage failures into :class:`BuildError` with positioned diagnostics.
Translating runs no C compiler: the target (which decides cl_khr_fp16) is given, and
without one it is :meth:`Target.assumed`, which probes nothing.
"""
from __future__ import annotations

from dataclasses import dataclass

from pycparser.c_parser import Coord

from . import reserved_names
from . import sema as sema_stage
from .deep_stack import deep_stack
from .diagnostics import BuildError, Diagnostic, Reporter, SourceMap, UnsupportedError
from .emit.render import Emitted, emit
from .lower import LoweredProgram, lower
from .options import Options, parse_options
from .parse import parse
from .preprocess import Preprocessed, preprocess
from .target import Target
from .timing import StageTimes
from .workgroup.launch_plan import LaunchOptions
from .workgroup.stage import plan_launches


@dataclass
class Translation:
    source_name: str
    options: Options
    preprocessed: Preprocessed
    program: LoweredProgram
    emitted: Emitted
    sources: SourceMap
    warnings: str = ""             # the build's warnings, rendered ("" for none)
    target: Target | None = None   # what it was translated for
    times: StageTimes | None = None  # how long each stage took

    @property
    def c_source(self) -> str:
        return self.emitted.source

    @property
    def kernels(self):
        return self.program.kernels


@deep_stack
def run_preprocessor(text: str, source_name: str, options: Options | str | None = None,
                     target: Target | None = None):
    opts = options if isinstance(options, Options) else parse_options(options)
    reporter = Reporter(SourceMap(), opts.warnings)
    pre = preprocess(text, source_name, opts, reporter, target or Target.assumed())
    reporter.check()
    return pre, reporter


@deep_stack
def analyze(text: str, source_name: str = "<kernel>", options=None,
            target: Target | None = None, times: StageTimes | None = None,
            headers: dict[str, str] | None = None):
    """Preprocess, parse and type-check; returns (module, preprocessed, reporter, options).
    ``headers``: embedded headers by include name (clCompileProgram's)."""
    times = times or StageTimes()
    opts = options if isinstance(options, Options) else parse_options(options)
    target = target or Target.assumed()
    reporter = Reporter(SourceMap(), opts.warnings)
    with times.stage("preprocess"):
        pre = preprocess(text, source_name, opts, reporter, target, headers)
    reporter.check()
    module = analyze_preprocessed(pre, source_name, reporter, opts, target, times)
    return module, pre, reporter, opts


def analyze_preprocessed(pre: Preprocessed, source_name: str, reporter: Reporter,
                         opts: Options, target: Target, times: StageTimes,
                         expect_kernels: bool = True, linking: bool = False):
    """Parse and type-check preprocessed text (one unit's, or several units' together:
    ``linking``, link.py); the typed module. ``expect_kernels``: warn where there are
    none (a compiled object's helpers need none)."""
    with times.stage("parse"):
        ast = parse(pre.text, source_name, reporter, opts.cl_std)
    reporter.check()
    with times.stage("sema"):
        spelled = reserved_names.respell(ast, reporter)
        extensions = target.extensions_for(opts.cl_std, opts.removed_extensions)
        module = sema_stage.analyze(ast, reporter, opts.cl_std, extensions, linking)
        reserved_names.restore(reporter, spelled)
    # (an empty file): nothing to launch; after an error, a kernel may be what failed
    if expect_kernels and not module.kernels and not reporter.failed:
        reporter.warning("no kernels in this program (no function is declared __kernel)",
                         _first_function(module, source_name) or Coord(source_name, 1, 1))
    reporter.check()
    return module


def _first_function(module, source_name: str):
    """Where the file's first function is defined: where a missing __kernel would go."""
    return next((f.node.coord for f in module.functions.values()
                 if f.node.coord is not None and f.node.coord.file == source_name), None)


@deep_stack
def translate(text: str, source_name: str = "<kernel>", options=None,
              output_name: str = "kernel.c", line_directives: bool = True,
              target: Target | None = None, times: StageTimes | None = None) -> Translation:
    """OpenCL C source text to C source text for ``target``; raises BuildError on bad input.
    ``times`` collects each stage's time."""
    target = target or Target.assumed()
    times = times or StageTimes()
    module, pre, reporter, opts = analyze(text, source_name, options, target, times)
    from .sema.defined import check_defined
    check_defined(module, reporter, linked=False)
    return lower_and_emit(module, pre, reporter, opts, source_name, output_name,
                          line_directives, target, times)


def lower_and_emit(module, pre: Preprocessed, reporter: Reporter, opts: Options,
                   source_name: str, output_name: str, line_directives: bool,
                   target: Target, times: StageTimes) -> Translation:
    """The translation of an analysed module: lowered, scheduled and emitted as C."""
    try:
        program = lower(module, times, check=opts.check,
                        uniform_groups=not opts.cl_std.non_uniform_work_groups)
        program = plan_launches(program, launch_options(opts), times)
    except UnsupportedError as e:
        from .diagnostics import at
        diag = at(e.coord, "error", str(e)) if e.coord else Diagnostic("error", str(e),
                                                                        source_name)
        raise BuildError([diag], reporter.sources) from None
    with times.stage("emit"):
        emitted = emit(program, source_name, output_name, opts.cl_std, line_directives)
    return Translation(source_name, opts, pre, program, emitted, reporter.sources,
                       reporter.warnings_text(), target, times)


def launch_options(opts: Options) -> LaunchOptions:
    """What the build options ask of every kernel's launch."""
    return LaunchOptions(opts.schedule, opts.check, opts.check_barriers, opts.fiber_stack,
                         "address" in opts.sanitize,
                         not opts.cl_std.non_uniform_work_groups)
