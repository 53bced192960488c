"""Derivative rules of ``dot_general`` (``lax/dot.py``): bilinear, each operand's cotangent a contraction of
the output's cotangent with the other operand, as JAX 0.10.2 emits it.
"""

from __future__ import annotations

from jaxle_core import lax
from jaxle_core.ad.rule_helpers import defbilinear, dot_transpose_first
from jaxle_core.ad.transpose import is_undefined, transpose_rules
from jaxle_core.lax.dot import dot_general_p

defbilinear(dot_general_p)


def _dot_general_transpose(ct, lhs, rhs, *, dimension_numbers, precision, preferred_element_type, out_sharding):
    (lhs_contract, rhs_contract), (lhs_batch, rhs_batch) = dimension_numbers

    def contract(x, y, dims, sharding):
        return lax.dot_general(x, y, dims, precision=precision, preferred_element_type=preferred_element_type,
                               out_sharding=sharding)

    if is_undefined(lhs):
        return [dot_transpose_first(ct, lhs.aval, rhs, (lhs_contract, rhs_contract), (lhs_batch, rhs_batch),
                                    True, contract), None]
    return [None, dot_transpose_first(ct, rhs.aval, lhs, (rhs_contract, lhs_contract), (rhs_batch, lhs_batch),
                                      False, contract)]


transpose_rules[dot_general_p] = _dot_general_transpose
