"""Derivative rules of ``ragged_dot_general`` (``lax/ragged_dot.py``): bilinear in lhs and rhs; transposed
in the noncontracting mode, as JAX 0.10.2.
"""

from __future__ import annotations

import numpy as np

from jaxle_core import lax
from jaxle_core.ad.jvp import Zero, jvp_rules, tangent_aval
from jaxle_core.ad.rule_helpers import as_operand_dtype, dot_transpose_first, full_like, remaining_dims
from jaxle_core.ad.transpose import is_undefined, transpose_rules
from jaxle_core.avals import get_aval
from jaxle_core.lax.ragged_dot import (
    RaggedDotDimensionNumbers,
    RaggedMode,
    ragged_dot_general,
    ragged_dot_general_p,
    ragged_mode,
)


def _ragged_dot_general_jvp(primals, tangents, **params):
    """Bilinear in lhs and rhs; unlike dot_general's, JAX's rule fills a missing term with zeros and adds with
    ``add``."""
    lhs, rhs, group_sizes = primals
    t_lhs, t_rhs, _ = tangents
    ans = ragged_dot_general_p.bind(lhs, rhs, group_sizes, **params)
    if type(t_lhs) is Zero and type(t_rhs) is Zero:
        return ans, Zero(tangent_aval(get_aval(ans)))
    lhs_term = full_like(ans, 0) if type(t_lhs) is Zero else ragged_dot_general_p.bind(t_lhs, rhs, group_sizes,
                                                                                       **params)
    rhs_term = full_like(ans, 0) if type(t_rhs) is Zero else ragged_dot_general_p.bind(lhs, t_rhs, group_sizes,
                                                                                       **params)
    return ans, lax.add(lhs_term, rhs_term)


jvp_rules[ragged_dot_general_p] = _ragged_dot_general_jvp


def _ragged_dot_general_transpose(ct, lhs, rhs, group_sizes, *, ragged_dot_dimension_numbers, **params):
    """The noncontracting mode only, as JAX: the lhs cotangent is again noncontracting (``ct`` ragged where the
    lhs was), the rhs's is contracting (the groups become the leading dimension)."""
    numbers = ragged_dot_dimension_numbers
    mode = ragged_mode(numbers)
    if mode is not RaggedMode.RAGGED_NONCONTRACTING:
        side = "x" if is_undefined(lhs) else "y"
        raise NotImplementedError(f"Unimplemented grad_{side}_dims for ragged dot general in mode {mode.name}.")
    (lhs_contract, rhs_contract), (lhs_batch, rhs_batch) = numbers.dot_dimension_numbers
    (ragged,), (group,) = numbers.lhs_ragged_dimensions, numbers.rhs_group_dimensions
    if is_undefined(lhs):
        lhs_free = remaining_dims(lhs.aval.ndim, lhs_contract, lhs_batch)
        ct_ragged = len(lhs_batch) + lhs_free.index(ragged)

        def contract(x, y, dims, sharding):  # typed by ragged_dot's own rule
            return ragged_dot_general(x, y, group_sizes, RaggedDotDimensionNumbers(dims, (ct_ragged,), (group,)),
                                      **params)

        return [dot_transpose_first(ct, lhs.aval, rhs, (lhs_contract, rhs_contract), (lhs_batch, rhs_batch),
                                    True, contract, (group,)), None, None]
    lhs_ndim = len(get_aval(lhs).shape)
    lhs_free = remaining_dims(lhs_ndim, lhs_contract, lhs_batch)
    ct_lhs_free = tuple(range(len(lhs_batch), len(lhs_batch) + len(lhs_free)))
    dims = ((tuple(lhs_free), ct_lhs_free), (tuple(lhs_batch), tuple(range(len(lhs_batch)))))
    product = ragged_dot_general(lhs, ct, group_sizes, RaggedDotDimensionNumbers(dims, (ragged,), ()), **params)
    # product: groups, batch, lhs's contracting dimensions (ascending), rhs's free ones.
    rhs_free = remaining_dims(rhs.aval.ndim, rhs_contract, rhs_batch, (group,))
    layout = [group, *rhs_batch, *(rhs_contract[i] for i in np.argsort(lhs_contract)), *rhs_free]
    return [None, as_operand_dtype(lax.transpose(product, tuple(int(i) for i in np.argsort(layout))), rhs.aval), None]


transpose_rules[ragged_dot_general_p] = _ragged_dot_general_transpose
