"""The work-group stage: how the work-items of one group run, with the work-group
function as data.

- ``stage.py``: the stage's entry (``plan_launches``), after lowering;
- ``schedules.py``: the schedules' registry and the one policy that picks one;
- ``builders/``: the schedules' builders of the work-group function (regions, loops);
- ``ir.py``: its IR (``GroupFunction``, ``Once``, ``GroupIf``, ``GroupLoop``,
  ``WorkItemLoop``, ...);
- ``passes/``: IR to IR (lock-step, unrolling, check versions, tiling, counters), and
  interleaving's twin functions;
- ``write.py`` (with ``tiles.py``): the one writer that prints it as C; ``tiles.py``'s
  subscripts summed in ``ptrdiff_t`` (``wide_subscripts.py``) for clang;
- ``names.py``: every C name the stage generates;
- ``launch_plan.py``: what was decided, for emission.
"""
