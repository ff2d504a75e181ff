"""The launch plan (cl2c/workgroup/launch_plan.py): lowering's contract with emission,
made once per kernel and frozen; the templates print what it says and name no schedule."""
from __future__ import annotations

import dataclasses
import re

import pytest

import cl2c
from cl2c.workgroup import schedules
from cl2c.resources import templates_dir
from conftest import KERNELS_DIR


def _plans(name: str, options: str = "") -> dict:
    src = (KERNELS_DIR / name).read_text()
    t = cl2c.translate(src, name, options)
    return {k.name: k.plan for k in t.kernels}, t.c_source


def _entry(c: str, kernel: str) -> str:
    """The C of ``kernel``'s entry point."""
    start = c.index(f"int cl2c_kernel_{kernel}(const cl2c_range")
    return c[start:c.index("\n}\n", start)]


def test_the_model_and_its_plan_are_frozen():
    t = cl2c.translate((KERNELS_DIR / "saxpy.cl").read_text(), "saxpy.cl")
    k = t.kernels[0]
    with pytest.raises(dataclasses.FrozenInstanceError):
        k.plan = None
    with pytest.raises(dataclasses.FrozenInstanceError):
        k.plan.dynamic = True
    assert k.interface.schedule == k.plan.schedule.name


def test_the_entry_does_what_the_plan_says():
    """Each decision of the plan, against the entry's C: dynamic sharing, regrouping with
    the tiles' rows, serial launches, the fibers' stacks and checks, the guard's bounds
    on the live work-items."""
    for options in ("", "-cl2c-schedule=regions", "-cl2c-schedule=fibers"):
        for name in ("lockstep.cl", "tiling.cl", "barriers.cl", "saxpy.cl"):
            try:
                plans, c = _plans(name, options)
            except cl2c.BuildError:
                continue                    # (a schedule that refuses the file's kernels)
            for kernel, plan in plans.items():
                entry = _entry(c, kernel)
                assert ("cl2c_taken" in entry) == plan.dynamic, (name, kernel, options)
                assert ("cl2c_regroup_part(" in entry) == (plan.regroup is not None)
                if plan.regroup is not None:
                    live = "cl2c_live" if plan.live else "NULL"
                    assert f"cl2c_max_threads(), {plan.regroup.tile_rows}, " \
                        f"{plan.regroup.tile_cols}, {int(plan.regroup.streams)}, " \
                        f"cl2c_from, cl2c_to, {live});" in entry
                assert entry.count("cl2c_live_below(") == len(plan.live)
                assert (f"<= {plan.serial_items} ||" in entry) == (plan.serial_items > 0)
                assert plan.item_function == (f"static CL2C_ALWAYS_INLINE void {kernel}("
                                              in c)
                for f in plan.group_functions:
                    assert f" {f.decl.name}(" in c
    plans, c = _plans("lockstep.cl")
    assert any(p.dynamic and p.schedule is schedules.REGIONS for p in plans.values())
    plans, c = _plans("tiling.cl")
    assert any(p.regroup is not None and p.regroup.tile_rows for p in plans.values())
    plans, c = _plans("barriers.cl", "-cl2c-check-barriers -cl2c-fiber-stack=65536")
    for kernel, plan in plans.items():
        assert plan.fiber_checks and plan.fiber_stack == 65536
        if plan.schedule is schedules.FIBERS:
            assert "cl2c_grp.local_size[2], 65536, 1);" in c


def test_templates_name_no_schedule():
    """A template may read what a schedule is (the plan's entry, its properties), never
    which one by name."""
    names = "|".join(schedules.SCHEDULES)
    tag = re.compile(r"\{[{%](.*?)[}%]\}", re.S)
    for path in sorted(templates_dir().glob("*.j2")):
        for expression in tag.findall(path.read_text()):
            assert not re.search(rf"""['"]({names})['"]""", expression), \
                (path.name, expression)
