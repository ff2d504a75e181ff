"""What a built program uses must be defined in it: checked after a build's analysis
(pipeline.py) and after a link (link.py), which both import it."""
from __future__ import annotations

from ..diagnostics import Reporter


def check_defined(module, reporter: Reporter, linked: bool) -> None:
    """What a built program uses must be defined in it (the C linker's 'undefined
    reference', said at the first use): a variable read through an ``extern``
    declaration, and (``linked``: a program of units that may each call what another
    defines) a function it calls."""
    nowhere = "no unit of the link defines it" if linked else "the program does not " \
        "define it"
    defined = {node.name for kind, node in module.program_scope
               if kind == "variable" and "extern" not in (node.storage or [])}
    for name, use in module.extern_uses.items():
        if name not in defined:
            reporter.error(f"undefined variable '{name}': declared extern, but {nowhere}",
                           use.coord)
    for info in module.functions.values() if linked else ():
        for callee in sorted(info.callees - set(module.functions)):
            call = info.call_sites.get(callee)
            reporter.error(f"undefined function '{callee}': declared, but {nowhere}",
                           call.coord if call is not None else None)
    reporter.check()
