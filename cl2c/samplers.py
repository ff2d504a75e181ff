"""The value of a sampler expression, where the translation can know it: int constants
or'ed (the CLK_* macros expand to them), or a program-scope constant sampler initialised
so. The image twins ask it for a read's filter (workgroup/builders/image_twins.py),
checking builds for a read's addressing mode (checking/accesses.py)."""
from __future__ import annotations

from pycparser import c_ast

from . import literals
from . import types as ty
from .image_formats import SAMPLER_FLAGS
from .typed_ast import fact

# the bits of the addressing mode (CLK_ADDRESS_NONE is 0)
ADDRESS_BITS = SAMPLER_FLAGS["CLK_ADDRESS_CLAMP_TO_EDGE"] | SAMPLER_FLAGS["CLK_ADDRESS_CLAMP"] | \
    SAMPLER_FLAGS["CLK_ADDRESS_REPEAT"] | SAMPLER_FLAGS["CLK_ADDRESS_MIRRORED_REPEAT"]


def sampler_flags(e) -> int | None:
    """The CLK_* flags of sampler expression ``e``, or None where they are not known."""
    if isinstance(e, c_ast.ID):
        symbol = fact(e, "symbol")
        if symbol is None or not symbol.program or not symbol.const or \
                symbol.type != ty.SAMPLER_T or not isinstance(symbol.node, c_ast.Decl):
            return None
        return sampler_flags(symbol.node.init)
    if isinstance(e, c_ast.Constant) and e.type == "int":
        return literals.integer_value(e.value)
    if isinstance(e, c_ast.BinaryOp) and e.op == "|":
        a, b = sampler_flags(e.left), sampler_flags(e.right)
        return None if a is None or b is None else a | b
    return None
