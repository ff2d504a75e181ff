"""OpenCL kernels over Dask arrays: one launch split into chunks of whole work-groups along
the NDRange's slowest dimension (``work_dim - 1``), each chunk a Dask task that launches
the part of the NDRange it owns (``Kernel.__call__``'s ``groups=`` and ``rebase=``), the
kernel unmodified (docs/guides/dask.md). An optional extra: ``pip install cl2c[dask]``.

Every buffer argument has a role, given by wrapping it (``rows``, ``groups``, ``whole``,
``summed``) or by default; an output to be created is ``empty(shape, dtype)``. The result
is a tuple of lazy Dask arrays, one per argument the kernel writes, in argument order.
"""
from __future__ import annotations

import dataclasses
import threading
from dataclasses import dataclass

import numpy as np

try:
    import dask
    import dask.array as da
    from dask.highlevelgraph import HighLevelGraph
except ImportError as e:           # pragma: no cover - the message is the point
    raise ImportError("cl2c.dask needs Dask: pip install 'cl2c[dask]' (or dask[array])") \
        from e

from .loader import Kernel

__all__ = ["map_kernel", "rows", "groups", "whole", "summed", "empty", "SplitError"]

BOUNDARIES = ("none", "periodic", "reflect", "nearest")
# how the copies of a summed argument combine (_summed_copy: what each copy starts as)
OPERATORS = {"add": np.add, "min": np.minimum, "max": np.maximum}


@dataclass(frozen=True)
class empty:
    """An output to be created, of this shape and dtype (zeroed where a chunk makes it)."""
    shape: tuple
    dtype: object = np.float32

    def __post_init__(self):
        shape = (self.shape,) if isinstance(self.shape, (int, np.integer)) else self.shape
        object.__setattr__(self, "shape", tuple(int(s) for s in shape))
        object.__setattr__(self, "dtype", np.dtype(self.dtype))

    @property
    def ndim(self):
        return len(self.shape)


@dataclass(frozen=True)
class _Role:
    """An array argument and how it is split: see rows, groups, whole, summed."""
    kind: str
    array: object
    halo: int = 0
    boundary: object = "none"
    op: str = "add"


def rows(a, halo: int = 0, boundary="none") -> _Role:
    """Split with the NDRange: the leading extent of ``a`` is the slowest global size, or a
    multiple of it (that many array rows a row of work-items). ``halo`` rows on each side
    come from the neighbouring chunks; at the array's edges ``boundary`` says what, as
    Dask's ``map_overlap``: "none" (the chunk's block is cut there: the kernel guards its
    edges as in a whole launch), "periodic", "reflect", "nearest" or a constant."""
    return _Role("rows", a, halo, boundary)


def groups(a) -> _Role:
    """One row per work-group along the split dimension (per-group partial results)."""
    return _Role("groups", a)


def whole(a) -> _Role:
    """The same array for every chunk, read-only (coefficients, lookup tables)."""
    return _Role("whole", a)


def summed(a, op: str = "add") -> _Role:
    """Each chunk writes into its own copy, and the copies are combined with ``op``: "add"
    (copies start zeroed, and are added to ``a``: a histogram's bins, a counter), "min"
    or "max" (copies start as ``a``)."""
    return _Role("summed", a, op=op)


class SplitError(ValueError):
    """What cannot be split correctly: the message names the argument."""


def map_kernel(kernel: Kernel, global_size, local_size, *args, chunks=None,
               threads: int | None = None) -> tuple:
    """Launch ``kernel`` over the NDRange ``global_size`` in chunks of whole work-groups
    along its slowest dimension, lazily: a tuple of Dask arrays, one per argument the
    kernel writes, in argument order (NumPy inputs are never written in place).

    ``chunks``: the work-items of the split dimension per chunk (an int, or a tuple that
    sums to the global size), each a multiple of the local size; by default the chunking
    of the first ``rows`` argument (a Dask array's, or Dask's automatic one for a NumPy
    array), rounded to whole work-groups. ``local_size=None``: the groups cl2c picks for
    the whole launch. ``threads``: the OpenMP threads of each chunk's launch; by default
    a distributed worker's OpenMP setting (Dask's nanny gives worker processes
    ``OMP_NUM_THREADS=1``: one thread per task, as many tasks at once as the worker has
    threads), one on Dask's local threaded scheduler (a task per core at once), and all
    of them on the synchronous scheduler (one task at a time)."""
    if not isinstance(kernel, Kernel):
        raise TypeError(f"map_kernel takes a cl2c kernel (program.name), not "
                        f"{type(kernel).__name__}")
    gs = (int(global_size),) if isinstance(global_size, (int, np.integer)) \
        else tuple(int(g) for g in global_size)
    local, counts = kernel.work_groups(gs, local_size)
    dim = len(gs) - 1
    plan = _Plan(kernel, gs, local, counts[dim], threads)
    if len(args) != kernel.num_args:
        names = ", ".join(a.name for a in kernel.arg_info)
        raise TypeError(f"kernel '{kernel.name}' takes {kernel.num_args} argument(s) "
                        f"({names}), {len(args)} given")
    specs = [plan.spec(i, a) for i, a in enumerate(args)]
    plan.cut(chunks, specs)
    for s in specs:
        plan.check_halo(s)
    return plan.graph(specs)


@dataclass
class _Spec:
    """One argument of a launch: its role, the array (None for values) and what a chunk
    makes of it."""
    index: int
    name: str
    kind: str                 # "value", or a role: rows, groups, whole, summed
    value: object = None      # the array (NumPy, Dask or empty), or the value
    writes: bool = False
    per_row: int = 1          # array rows per row of work-items (rows)
    halo: int = 0
    boundary: object = "none"
    op: str = "add"


class _Plan:
    def __init__(self, kernel, gs, local, num_groups, threads):
        self.kernel, self.gs, self.local, self.num_groups = kernel, gs, local, num_groups
        self.dim = len(gs) - 1
        self.items = gs[self.dim]              # work-items of the split dimension
        self.group = local[self.dim]           # of them a work-group
        if threads is not None and (not isinstance(threads, int) or threads < 1):
            raise ValueError(f"threads must be a positive int, not {threads!r}")
        self.threads = threads

    def where(self, i) -> str:
        a = self.kernel.arg_info[i]
        return f"kernel '{self.kernel.name}' argument {i} '{a.name}' ({a.type_name})"

    # ---- roles ---------------------------------------------------------------------
    def spec(self, i, arg) -> _Spec:
        info = self.kernel.arg_info[i]
        if info.kind != "buffer":
            if isinstance(arg, (_Role, empty)):
                raise SplitError(f"{self.where(i)}: only __global and __constant buffers take "
                               f"a role or empty(); this one is a {info.kind}")
            if info.kind == "image" and info.writes:
                raise SplitError(f"{self.where(i)}: an image the kernel writes cannot be "
                               f"split (pass a buffer)")
            return _Spec(i, info.name, "value", arg)
        role = arg if isinstance(arg, _Role) else self.default_role(i, arg)
        if role is None:
            return _Spec(i, info.name, "value", arg)        # a null buffer
        a = role.array
        if not isinstance(a, (np.ndarray, da.Array, empty)):
            raise SplitError(f"{self.where(i)}: expected a NumPy or Dask array or "
                           f"cl2c.dask.empty(shape, dtype), not {type(a).__name__}")
        if a.ndim == 0:
            raise SplitError(f"{self.where(i)}: a 0-d array is not a buffer")
        s = _Spec(i, info.name, role.kind, a, bool(info.writes), halo=role.halo,
                  boundary=role.boundary, op=role.op)
        lead = a.shape[0]
        if role.kind == "rows":
            if lead % self.items or lead == 0:
                raise SplitError(f"{self.where(i)}: a rows argument's leading extent ({lead}) "
                               f"must be the slowest global size ({self.items}) or a "
                               f"multiple of it")
            s.per_row = lead // self.items
            if not isinstance(role.halo, (int, np.integer)) or role.halo < 0:
                raise SplitError(f"{self.where(i)}: halo must be an int >= 0, not "
                               f"{role.halo!r}")
            if not (role.boundary in BOUNDARIES or
                    isinstance(role.boundary, (int, float, np.number))):
                raise SplitError(f"{self.where(i)}: boundary must be one of "
                               f"{', '.join(BOUNDARIES)} or a number, not {role.boundary!r}")
        elif role.halo:
            raise SplitError(f"{self.where(i)}: only rows arguments take a halo")
        if role.kind == "groups" and lead != self.num_groups:
            raise SplitError(f"{self.where(i)}: a groups argument has one row per work-group "
                           f"of dimension {self.dim} ({self.num_groups}), not {lead}")
        if role.kind == "whole" and s.writes:
            raise SplitError(f"{self.where(i)}: the kernel writes it, but a whole argument is "
                           f"the same array for every chunk, read-only (make it "
                           f"rows, groups or summed)")
        if role.kind == "whole" and isinstance(a, empty):
            raise SplitError(f"{self.where(i)}: empty() is an output, not a whole argument")
        if role.kind == "summed" and role.op not in OPERATORS:
            raise SplitError(f"{self.where(i)}: op must be one of {', '.join(OPERATORS)}, "
                           f"not {role.op!r}")
        return s

    def default_role(self, i, a):
        """rows for an array whose leading extent is the slowest global size; whole for
        another NumPy array; None passes a null buffer."""
        if a is None:
            return None
        if isinstance(a, (list, tuple)) or np.isscalar(a):
            raise SplitError(f"{self.where(i)}: expected an array, not {type(a).__name__}")
        if isinstance(a, (np.ndarray, da.Array, empty)) and a.ndim and \
                a.shape[0] == self.items:
            return rows(a)
        if isinstance(a, np.ndarray):
            return whole(a)
        raise SplitError(f"{self.where(i)}: its leading extent ({a.shape[0] if a.ndim else 0})"
                       f" is not the slowest global size ({self.items}); wrap it in "
                       f"cl2c.dask.rows, groups, whole or summed")

    # ---- chunks --------------------------------------------------------------------
    def cut(self, chunks, specs):
        """self.bounds: the work-items [start, stop) of the split dimension, per chunk."""
        g, n = self.group, self.items
        if chunks is None:
            bounds = self.default_bounds(specs)
        else:
            sizes = chunks if isinstance(chunks, (tuple, list)) else None
            if sizes is None:
                if not isinstance(chunks, (int, np.integer)) or chunks <= 0:
                    raise SplitError(f"chunks must be a positive int or a tuple of them, not "
                                   f"{chunks!r}")
                sizes = [min(int(chunks), n - s) for s in range(0, n, int(chunks))]
            if sum(sizes) != n or any(not isinstance(s, (int, np.integer)) or s <= 0
                                      for s in sizes):
                raise SplitError(f"chunks {tuple(chunks) if sizes is chunks else chunks} must "
                               f"be positive and sum to the slowest global size ({n})")
            bounds = np.concatenate([[0], np.cumsum(sizes)]).tolist()
            for start, stop in zip(bounds, bounds[1:]):
                if start % g or (stop % g and stop != n):
                    raise SplitError(f"the local size {g} (dimension {self.dim}) does not "
                                   f"divide the chunk of work-items {start}..{stop - 1} "
                                   f"(chunks={chunks!r})")
        self.bounds = list(zip(bounds, bounds[1:]))

    def default_bounds(self, specs) -> list:
        first = next((s for s in specs if s.kind == "rows" and not isinstance(s.value, empty)),
                     None)
        n, g = self.items, self.group
        if first is None:
            return [0, n]
        a = first.value
        lead = a.chunks[0] if isinstance(a, da.Array) else \
            da.core.normalize_chunks("auto", a.shape, dtype=a.dtype)[0]
        edges = np.cumsum(lead)[:-1] // first.per_row
        cuts = sorted({int(round(e / g)) * g for e in edges} - {0} - {n})
        return [0, *[c for c in cuts if c < n], n]

    def check_halo(self, s):
        if s.kind != "rows" or not s.halo:
            return
        smallest = min(stop - start for start, stop in self.bounds) * s.per_row
        if s.halo > smallest:
            raise SplitError(f"{self.where(s.index)}: a halo of {s.halo} rows is deeper than "
                           f"a chunk ({smallest} rows; give larger chunks)")

    # ---- the graph -----------------------------------------------------------------
    def graph(self, specs) -> tuple:
        program = self.kernel.program
        token = dask.base.tokenize(program.source, program.options, program.filename,
                                   program._module.__name__, self.kernel.name, self.gs,
                                   self.local, self.bounds, self.threads,
                                   [_token_of(s) for s in specs])
        name = f"cl2c-{self.kernel.name}-{token}"
        layer, deps = {}, []
        kernel_key = (f"{name}-kernel",)
        layer[kernel_key] = self.kernel
        inputs = [self.blocks_of(s, deps) for s in specs]
        outputs = [s for s in specs if s.writes and s.kind != "value"]
        recipe = _Recipe(self.gs, self.local, self.dim, self.group, self.threads,
                         tuple(_ArgRecipe.of(s, self.items) for s in specs),
                         tuple(s.index for s in outputs))
        # one written array split with the launch: the chunks' tasks are its blocks (a
        # task less a chunk); otherwise each block picks its array from its chunk's tuple
        single = len(outputs) == 1 and outputs[0].kind != "summed"
        if single:
            s = outputs[0]
            name = f"{name}-{s.index}-{s.name}"
            recipe = dataclasses.replace(recipe, single=True)
        zeros = (0,) * (outputs[0].value.ndim - 1) if single else ()
        for c, (start, stop) in enumerate(self.bounds):
            blocks = [b(c) if callable(b) else b for b in inputs]
            layer[(name, c, *zeros)] = (_launch_chunk, kernel_key, recipe, c, start, stop,
                                        *blocks)
        results = []
        for j, s in enumerate(outputs):
            out = name if single else f"{name}-{s.index}-{s.name}"
            tail = tuple(s.value.shape[1:])
            zeros = (0,) * len(tail)
            if s.kind == "summed":
                base = inputs[s.index]
                layer[(out, 0, *zeros)] = (_combine, s.op, base,
                                           [(_pick, (name, c), j)
                                            for c in range(len(self.bounds))])
                chunks = ((s.value.shape[0],), *((t,) for t in tail))
            else:
                for c in range(len(self.bounds)):
                    if not single:
                        layer[(out, c, *zeros)] = (_pick, (name, c), j)
                chunks = (tuple(self.lead_rows(s, start, stop)
                                for start, stop in self.bounds), *((t,) for t in tail))
            graph = HighLevelGraph.from_collections(out, dict(layer), dependencies=deps)
            results.append(da.Array(graph, out, chunks, dtype=s.value.dtype))
        return tuple(results)

    def lead_rows(self, s, start, stop) -> int:
        if s.kind == "groups":
            return -(-stop // self.group) - start // self.group
        return (stop - start) * s.per_row

    def blocks_of(self, s, deps):
        """What chunk c's task takes for argument s: a value, a graph key, or a function
        of c that gives the key of its block."""
        if s.kind == "value" or isinstance(s.value, empty):
            return s.value
        a = s.value
        if s.kind in ("whole", "summed"):
            x = da.asarray(a).rechunk(-1) if isinstance(a, da.Array) else \
                da.from_array(a, chunks=-1)
            deps.append(x)
            return (x.name, *(0,) * x.ndim)
        lead = tuple(self.lead_rows(s, start, stop) for start, stop in self.bounds)
        blocks = (lead, *(-1,) * (a.ndim - 1))
        x = a.rechunk(blocks) if isinstance(a, da.Array) else da.from_array(a, chunks=blocks)
        if s.halo:
            depth = {0: s.halo, **{d: 0 for d in range(1, x.ndim)}}
            bound = {0: s.boundary, **{d: "none" for d in range(1, x.ndim)}}
            x = da.overlap.overlap(x, depth=depth, boundary=bound)
        deps.append(x)
        return lambda c, name=x.name, rest=(0,) * (x.ndim - 1): (name, c, *rest)


def _token_of(s: _Spec):
    v = s.value
    if isinstance(v, da.Array):
        v = v.name
    return (s.kind, v, s.halo, s.boundary, s.op)


@dataclass(frozen=True)
class _ArgRecipe:
    """What a chunk's task does with one argument."""
    kind: str
    writes: bool = False
    per_row: int = 1
    halo: int = 0
    padded: bool = False          # the array's edges have halos too (boundary not "none")
    rows: int = 0                 # its leading extent
    shape: tuple = ()             # of an empty() (its dtype below)
    dtype: object = None
    op: str = "add"

    @classmethod
    def of(cls, s: _Spec, items: int) -> "_ArgRecipe":
        if s.kind == "value":
            return cls("value")
        v = s.value
        return cls(s.kind, s.writes, s.per_row, s.halo, s.boundary != "none", v.shape[0],
                   v.shape if isinstance(v, empty) else (), np.dtype(v.dtype), s.op)


@dataclass(frozen=True)
class _Recipe:
    global_size: tuple
    local_size: tuple
    dim: int
    group: int
    threads: int | None
    args: tuple
    outputs: tuple            # indices of the written arguments, in order
    single: bool = False      # return the one written array, not a tuple


def _launch_chunk(kernel, recipe: _Recipe, c: int, start: int, stop: int, *blocks):
    """One chunk's task: the arguments' blocks made ready (written ones copied, outputs
    created), the part of the launch run, the written blocks returned (halos trimmed)."""
    g = recipe.group
    first_group, end_group = start // g, -(-stop // g)
    args, rebase, trims = [], {}, {}
    for i, (r, block) in enumerate(zip(recipe.args, blocks)):
        if r.kind == "value":
            args.append(block)
            continue
        if r.kind == "rows":
            top = r.halo if (r.padded or start > 0) else 0
            own = (stop - start) * r.per_row
            if r.shape:                      # empty(): made here, halos and all
                bottom = r.halo if (r.padded or stop * r.per_row < r.rows) else 0
                block = np.zeros((top + own + bottom, *r.shape[1:]), r.dtype)
            first_row = start * r.per_row - top
            trims[i] = (top, top + own)
        elif r.kind == "groups":
            if r.shape:
                block = np.zeros((end_group - first_group, *r.shape[1:]), r.dtype)
            first_row = first_group
        elif r.kind == "summed":
            block = _summed_copy(r, block)
            first_row = 0
        else:
            first_row = 0
        if r.writes and not r.shape and r.kind != "summed":
            block = np.array(block, order="C")       # never written in place
        else:
            block = np.ascontiguousarray(block)
        if first_row:
            rebase[i] = first_row * (block[0].nbytes if block.ndim else 0)
        args.append(block)
    with _threads(kernel, _share(recipe.threads)):
        kernel(recipe.global_size, recipe.local_size, *args,
               groups=range(first_group, end_group), rebase=rebase)
    out = []
    for i in recipe.outputs:
        a = args[i]
        if i in trims:
            a = a[trims[i][0]:trims[i][1]]
        out.append(a)
    return out[0] if recipe.single else tuple(out)


def _summed_copy(r: _ArgRecipe, block):
    if r.op == "add":
        return np.zeros(r.shape or block.shape, r.dtype)
    if not r.shape:
        return np.array(block, order="C")
    dt = np.dtype(r.dtype)          # an empty() combined by min or max: the identity
    info = np.finfo(dt) if dt.kind == "f" else np.iinfo(dt)
    return np.full(r.shape, info.max if r.op == "min" else info.min, dt)


def _combine(op: str, base, parts):
    """A summed argument: the chunks' copies combined (added to the argument's value)."""
    total = parts[0].copy()
    for p in parts[1:]:
        OPERATORS[op](total, p, out=total)
    if op == "add" and isinstance(base, np.ndarray):
        total += base
    elif op != "add" and isinstance(base, np.ndarray):
        OPERATORS[op](total, base, out=total)
    return total


def _pick(results, j):
    return results[j]


def _share(threads):
    """The OpenMP threads of a chunk's launch: those asked for; in a distributed worker,
    OpenMP's own (OMP_NUM_THREADS, which Dask's nanny sets to 1); in a thread pool of
    Dask's local threaded scheduler, which runs a task per core at once, one; on the
    main thread (the synchronous scheduler), OpenMP's own."""
    if threads is not None or threading.current_thread() is threading.main_thread():
        return threads
    try:
        from distributed import get_worker
        get_worker()
    except (ImportError, ValueError):
        return 1
    return None


class _threads:
    """The calling thread's launches on ``n`` OpenMP threads while it lasts (None: as
    they are)."""

    def __init__(self, kernel, n):
        self.lib = kernel.program._module.lib if n else None
        self.n = n

    def __enter__(self):
        if self.lib is not None:
            self.before = self.lib.cl2c_loader_threads(self.n)

    def __exit__(self, *exc):
        if self.lib is not None:
            self.lib.cl2c_loader_threads(self.before)
