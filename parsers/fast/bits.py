"""Bit operations for the compiled passes that numba does not offer as functions.

``trailing_zeros`` is the processor's own instruction (``tzcnt``) through
LLVM's ``cttz``: where a pass finds a byte by its bit in a 64-bit word (the
line pass's ``\\n`` bytes, ``parsers.fast.text``), it names the bit in one
step instead of a multiplication and a table lookup.

>>> import numba, numpy as np
>>> @numba.njit
... def lowest(x):
...     return trailing_zeros(x)
>>> lowest(np.uint64(8)), lowest(np.uint64(1 << 63)), lowest(np.uint64(0b1010000))
(3, 63, 4)
"""

from __future__ import annotations

from llvmlite import ir
from numba.core import types
from numba.extending import intrinsic


@intrinsic
def trailing_zeros(typingctx, word):
    """The number of zero bits below the lowest set bit of ``word`` (a ``uint64``; not 0)."""
    signature = types.int64(types.uint64)

    def codegen(context, builder, sig, args):
        zero_is_undefined = ir.Constant(ir.IntType(1), 1)
        return builder.cttz(args[0], zero_is_undefined)

    return signature, codegen
