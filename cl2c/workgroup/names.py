"""The C names the work-group function is written with, defined once: the writer
prints them and the passes that read the printed C import them from here."""
from __future__ import annotations

LOCAL_ID = ("cl2c_l0", "cl2c_l1", "cl2c_l2")      # a work-item loop's local ids
LOCAL_SIZE = ("cl2c_ls0", "cl2c_ls1", "cl2c_ls2")  # the group's sizes (regions schedule)
INDEX = "cl2c_i"          # the local linear id inside a work-item loop
COUNT = "cl2c_nwi"        # work-items in the group
FIRST, END = "cl2c_lo", "cl2c_hi"   # a bounded work-item loop's first local id 0 and end
MID_LO, MID_HI = "cl2c_mid_lo", "cl2c_mid_hi"  # a split region's middle (builders/splits.py)
MID_ROWS = ("cl2c_mid1_lo", "cl2c_mid1_hi")    # its middle rows, split along local id 1
DONE = "cl2c_done"        # per work-item: it returned, later regions skip it
NEXT = "cl2c_next"        # label prefix: the end of a region's body (a nested return)
SCRATCH = "cl2c_mem"      # the group's per-work-item storage, taken array by array
COLLECTIVE = "cl2c_wg"    # prefix of a work-group function's per-work-item buffer
GROUP = "cl2c_grp"        # the group's work-item context (cl2c_workitem)
GROUP_POINTER = "cl2c_wg"  # its pointer, the loops schedule's parameter
CHECK_THREAD = "cl2c_ck_t"  # checking builds: the thread's checking state
CHECK_FENCES = "cl2c_ck_fences"  # checking builds: a barrier's fences, just before it
CHECK_ITEM = "cl2c_ck_item"  # checking builds: which work-item runs (check.h)
CHECK_FAST = "cl2c_ck_fast"  # checking builds: a checked loop runs its fast version
CHECK_PIXEL = "CL2C_CK_PIXEL"  # checking builds: an image access's coordinate, checked
CHECK_WITHIN = "CL2C_CK_WITHIN"  # an index its operands' types keep in bounds (check.h)
WAY_BLOCK = "CL2C_WAY_BLOCK"  # interleaved work-items: a way's block (workitem.h)
BLOCKS = "cl2c_blocks"    # interleaved: whole blocks of ways in the loop
BLOCK = "cl2c_b"          # interleaved, lock-step: the local id 0 of a block's first
                          # work-item
LANE = "cl2c_k"           # lock-step: a lane's index in its block
UNUSED = "CL2C_UNUSED"    # a declaration that may go unread
TILE_COLS = "CL2C_TILE_COLS"  # register tiles: work-items of a tile's row (regions.h)
TILE_ORIGIN = ("cl2c_t0", "cl2c_t1")  # register tiles: the tile's first local ids 0 and 1
TILE_ROW, TILE_COL = "cl2c_r", "cl2c_c"  # register tiles: a work-item's place in its tile
TILE_FULL = "cl2c_full"   # register tiles: every work-item of the tile runs it
TILE_FROM, TILE_TO = "cl2c_from", "cl2c_to"  # a partial tile's local ids 0
TILE_SUFFIX = "__tile"    # a per-work-item array's values in a tile: X__tile
PANELS = "cl2c_pb"        # register tiles: a column of tiles' panel block (panels.py)
PANEL = "cl2c_panel"      # its panel of a load: cl2c_panel0, ...
PANEL_VALUE = "cl2c_pv"   # the first tile's value of that load: cl2c_pv0, ...
PANEL_STEP = "cl2c_step"  # the tiled loop's step, a panel's row
PANEL_STEPS = "cl2c_steps"  # the tiled loop's steps, each panel's rows
PANEL_FAR = "cl2c_far"    # the panels' loads lie far apart: panels pay
ELEMENT_SUFFIX = "__element"  # a loop's one element of argument X, held: X__element
                          # (loop_dimension.py)

LOCALS = "cl2c_locals"    # the group's kernel-scope __local variables, a struct
                          # (lower/workitems.py moves them there)


def way_id(way: int) -> str:
    """The local id 0 of way ``way``'s work-item (the first's is LOCAL_ID[0])."""
    return f"{LOCAL_ID[0]}_{way}"

L0, L1, L2 = LOCAL_ID
LS0, LS1, LS2 = LOCAL_SIZE

# regions.h's helpers that narrow a split region's middle range [MID_LO, MID_HI) to where
# a comparison with the local id has a known value (builders/splits.py)
MID_FROM, MID_BELOW, MID_BESIDES = "cl2c_mid_from", "cl2c_mid_below", "cl2c_mid_besides"

# clang's hint that a loop stays a loop, not fully unrolled (tiles.py's register tiles)
CLANG_KEEP_LOOP = "clang loop unroll(disable)"
