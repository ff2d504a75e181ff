"""The work-group function as data.

A kernel's work-group function is a list of items: statements run once per group
(``Once``), uniform ifs and loops around items (``GroupIf``, ``GroupLoop``, in
workgroup/builders/plan.py, where the schedule builds them), and loops over the group's
work-items (``WorkItemLoop``). The schedules build it, the passes read and change it,
and write.py prints it: the work-item loop is written there and nowhere else.
"""
from __future__ import annotations

from dataclasses import dataclass, field


@dataclass
class WorkItemLoop:
    """A loop over the work-items of a group: local id 0 innermost, from ``first``
    (None: 0) to ``end`` (None: the group's size), inside loops over the rows (local ids 1
    and 2) unless the group is one row. ``body``: C statements of one work-item."""
    body: list
    counter: str = "int"       # C type of the local id 0 (int keeps ids affine in it)
    sizes: tuple = ()          # C expressions (text) of the group's three sizes
    first: object = None
    end: object = None
    rows: bool = True          # loops over local ids 1 and 2 around it
    row_first: object = None   # the rows (local ids 1) it runs: [row_first, row_end)
    row_end: object = None     # (None: the group's; builders/splits.py)
    row_items: list = field(default_factory=list)  # declarations before it, per row
    row_guard: object = None   # a test of the row around it (the guard's terms that do
                               # not depend on local id 0)
    simd: bool = True          # ``omp simd``: its work-items may run in lanes
    edge: bool = False         # the few work-items beside a split's middle (splits.py)
    index: bool = True         # declares the local linear id (names.INDEX)
    checked: bool = False      # checking builds: says which work-item runs
    skips_done: bool = False   # work-items that returned skip it
    end_label: str | None = None  # a label at the end of the body (a nested return)
    ways: int = 1              # work-items an iteration, interleaved (interleaving.py)
    interleaved: list | None = None  # the body of ``ways`` work-items, interleaved
    lanes: list | None = None  # the loop run in blocks of lanes in lock-step (lockstep.py):
                               # C statements in its place
    steps: list | None = None  # bodies of the work-items of a step of len(steps), the rest
                               # one at a time running steps[0] (counters.py)
    versions: "Versions | None" = None  # a fast version beside it (check_versions.py)
    after: list = field(default_factory=list)  # C statements after it in each row


@dataclass
class Versions:
    """A checked work-item loop and its fast version (check_versions.py): ``test``, C
    statements that set names.CHECK_FAST; ``fast``, the body unchecked; ``marks``, what
    runs after the fast loop of each row, or ``nest_marks`` once after the nest."""
    test: list
    fast: list
    marks: list
    nest_marks: list = field(default_factory=list)   # what runs after the whole fast
                                                     # nest (its marks for all rows)


@dataclass
class Region:
    """Statements every work-item runs, one after the other, between two cuts."""
    stmts: list = field(default_factory=list)
    returns: bool = False


@dataclass
class Once:
    """A statement that runs once per group (uniform declarations and updates)."""
    node: object


@dataclass
class Block:
    """Items in a C block of their own (declarations that end with them)."""
    items: list


@dataclass
class GroupIf:
    node: object          # the If; its branches are replaced by ``then`` and ``other``
    then: list
    other: list
    brackets: list = field(default_factory=list)  # ("then" or "other", Tile): a tile that
                          # a loop around holds, copied out before that branch and in after


@dataclass
class Tile:
    """Register tiles of a uniform loop around one work-item loop (workgroup/passes/tiling.py):
    tiles of ``rows`` x ``cols`` work-items run the whole loop at a time, the values of
    ``arrays`` ({per-work-item array: element C type}) in a local array of the tile."""
    rows: int
    cols: object               # names.TILE_COLS, or 16 where groups are 16 wide
    arrays: dict
    row_items: list            # the row's declarations that a tile's row runs
    known: bool = False        # every group is whole tiles: no test, no other path
    bounded: bool = False      # the work-item loop has bounds other than the group's
    held: bool = False         # a loop around holds the group's one tile (GroupLoop.holds)
    narrower: int = 0          # columns of the tiles of groups narrower than ``cols``
                               # (groups of one row: the lecture's V6, 8 wide); 0: none
    panels: int = 0            # loads its rows share, copied into panels once per column
                               # of tiles (workgroup/panels.py); 0: none


@dataclass
class GroupLoop:
    node: object          # For, While or DoWhile; its body is replaced by ``body``
    body: list
    tile: Tile | None = None   # its work-items run in register tiles
    holds: Tile | None = None  # the group's one tile stays in registers through it


@dataclass
class Collective:
    """``result = work_group_<op>(arg)``: the argument is stored per work-item in
    a region, the operation runs once, the result is read after it."""
    name: str             # runtime name, e.g. cl2c_work_group_reduce_add_int
    ctype: str            # C type of the value
    result: str           # variable that receives the result
    decl: object          # its Decl (type), initializer removed
    arg: object
    extra: list           # broadcast coordinates (uniform)
    coord: object = None


def all_items(items):
    """Every item of a group-level structure, nested ones included, in order."""
    for it in items:
        yield it
        if isinstance(it, GroupIf):
            yield from all_items(it.then)
            yield from all_items(it.other)
        elif isinstance(it, GroupLoop):
            yield from all_items(it.body)
        elif isinstance(it, Block):
            yield from all_items(it.items)


@dataclass
class GroupFunction:
    """A kernel's work-group function: its definition (write.py gives it its body), the
    declarations at its top, and its items."""
    func: object               # the FuncDef
    prologue: list             # C declarations: sizes, per-work-item storage
    items: list
    item_arrays: dict = field(default_factory=dict)   # {name: C type of its elements}
                               # of the per-work-item arrays in the prologue whose
                               # work-item's element is ``X[cl2c_i]`` (tiling.py's tiles)


def work_item_loops(items):
    """The work-item loops among ``items``, nested ones included, in order."""
    return (it for it in all_items(items) if isinstance(it, WorkItemLoop))


def item_lists(items, top: bool = True):
    """(list, top) for ``items`` and each list of items nested in it (an if's branches,
    a loop's body); ``top`` for the function's own."""
    yield items, top
    for it in items:
        if isinstance(it, GroupIf):
            yield from item_lists(it.then, False)
            yield from item_lists(it.other, False)
        elif isinstance(it, GroupLoop):
            yield from item_lists(it.body, False)
        elif isinstance(it, Block):
            yield from item_lists(it.items, False)


def c_parts(items):
    """(C node, inside) for each piece of C in ``items``, nested ones included:
    ``inside`` where a work-item runs it (a work-item loop's body), not the group."""
    for it in items:
        if isinstance(it, Once):
            yield it.node, False
        elif isinstance(it, GroupIf):
            yield it.node.cond, False
            yield from c_parts(it.then)
            yield from c_parts(it.other)
        elif isinstance(it, GroupLoop):
            for name in ("init", "cond", "next"):
                part = getattr(it.node, name, None)
                if part is not None:
                    yield part, False
            yield from c_parts(it.body)
        elif isinstance(it, Block):
            yield from c_parts(it.items)
        elif isinstance(it, WorkItemLoop):
            for part in [*it.row_items, it.row_guard, it.first, it.end, *it.after]:
                if part is not None:
                    yield part, False
            for part in [*it.body, *(it.interleaved or ()), *(it.lanes or ()),
                         *(s for step in it.steps or () for s in step),
                         *(it.versions.fast if it.versions else ())]:
                yield part, True
