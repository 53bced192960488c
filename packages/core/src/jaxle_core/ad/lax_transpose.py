"""Transpose rules of the linear lax primitives: arithmetic, complex parts, shape changes, contractions.

Each rule receives the output's cotangent and the operands (``UndefinedPrimal``
for the linear ones) and returns one cotangent per operand, ``None`` for the
operands it is not linear in. The equations match those JAX 0.10.2 emits.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

import numpy as np

from jaxle_core import dtypes, lax
from jaxle_core.ad.jvp import add_any_p
from jaxle_core.ad.rule_helpers import full_like
from jaxle_core.ad.transpose import is_undefined, transpose_rules
from jaxle_core.avals import ShapedArray, get_aval
from jaxle_core.lax import elementwise as ew
from jaxle_core.lax import reductions as red
from jaxle_core.lax import structural as st
from jaxle_core.lax.dot import dot_general_p
from jaxle_core.lax.ragged_dot import (
    RaggedDotDimensionNumbers,
    RaggedMode,
    ragged_dot_general,
    ragged_dot_general_p,
    ragged_mode,
)


def unbroadcast(aval: ShapedArray, ct: Any) -> Any:
    """``ct`` summed back to ``aval``'s shape over the dimensions an elementwise operation broadcast."""
    shape = get_aval(ct).shape
    if shape == aval.shape:
        return ct
    if not aval.shape:
        return lax.reduce_sum(ct, tuple(range(len(shape))))
    summed = tuple(i for i, (a, c) in enumerate(zip(aval.shape, shape)) if a != c)
    return lax.reshape(lax.reduce_sum(ct, summed), aval.shape)


# ---------------------------------------------------------------- arithmetic


def _add_transpose(ct, x, y):
    return [unbroadcast(x.aval, ct) if is_undefined(x) else None,
            unbroadcast(y.aval, ct) if is_undefined(y) else None]


def _sub_transpose(ct, x, y):
    return [unbroadcast(x.aval, ct) if is_undefined(x) else None,
            unbroadcast(y.aval, lax.neg(ct)) if is_undefined(y) else None]


def _mul_transpose(ct, x, y, *, out_dtype):
    if is_undefined(x) and is_undefined(y):
        raise NotImplementedError("a product of two linear values is not linear")
    if is_undefined(x):
        dtype = None if out_dtype is None else x.aval.dtype
        return [unbroadcast(x.aval, lax.mul(ct, y, out_dtype=dtype)), None]
    dtype = None if out_dtype is None else y.aval.dtype
    return [None, unbroadcast(y.aval, lax.mul(x, ct, out_dtype=dtype))]


def _div_transpose(ct, x, y):
    return [unbroadcast(x.aval, lax.div(ct, y)), None]


transpose_rules[add_any_p] = lambda ct, x, y: [ct, ct]
transpose_rules[ew.add_p] = _add_transpose
transpose_rules[ew.sub_p] = _sub_transpose
transpose_rules[ew.mul_p] = _mul_transpose
transpose_rules[ew.div_p] = _div_transpose
transpose_rules[ew.neg_p] = lambda ct, x: [lax.neg(ct)]

# ---------------------------------------------------------------- complex parts


def _zero_scalar(ct: Any) -> Any:
    return np.zeros((), get_aval(ct).dtype)[()]


transpose_rules[ew.real_p] = lambda ct, x: [lax.complex(ct, _zero_scalar(ct))]
transpose_rules[ew.imag_p] = lambda ct, x: [lax.complex(_zero_scalar(ct), lax.neg(ct))]


def _complex_transpose(ct, x, y):
    return [lax.real(ct) if is_undefined(x) else None, lax.imag(lax.neg(ct)) if is_undefined(y) else None]


def _conj_transpose(ct, x, *, input_dtype):
    return [lax.conj(ct) if dtypes.issubdtype(input_dtype, np.complexfloating) else lax.real(ct)]


transpose_rules[ew.complex_p] = _complex_transpose
transpose_rules[ew.conj_p] = _conj_transpose

# ---------------------------------------------------------------- conversion and identity-like


def _convert_element_type_transpose(ct, x, **params):
    # A complex cotangent of a real operand is converted directly (keeping its real part), as JAX does.
    aval = x.aval
    return [st.convert_element_type_p.bind(ct, new_dtype=aval.dtype, weak_type=aval.weak_type, sharding=None)]


transpose_rules[st.convert_element_type_p] = _convert_element_type_transpose
transpose_rules[st.reduce_precision_p] = lambda ct, x, **params: [st.reduce_precision_p.bind(ct, **params)]

# ---------------------------------------------------------------- shapes


def _reduce_sum_transpose(ct, x, *, axes, out_sharding):
    # JAX computes the kept dimensions with NumPy, and its jaxprs print them as np.int64.
    kept = tuple(np.int64(i) for i in range(len(x.aval.shape)) if i not in axes)
    return [st.broadcast_in_dim_p.bind(ct, shape=x.aval.shape, broadcast_dimensions=kept, sharding=None)]


def _broadcast_in_dim_transpose(ct, x, *, shape, broadcast_dimensions, sharding):
    expanded = tuple(i for i, d in enumerate(x.aval.shape) if d == 1 and shape[broadcast_dimensions[i]] != 1)
    new_dims = [i for i in range(len(shape)) if i not in broadcast_dimensions]
    summed = tuple(sorted(new_dims + [broadcast_dimensions[i] for i in expanded]))
    reduced = lax.reduce_sum(ct, summed) if summed else ct
    # The kept dimensions come out in output order; permuted ``broadcast_dimensions`` need them put back in
    # operand order. (JAX 0.10.2 skips this and rejects the cotangent's shape; see docs/core.md.)
    kept_out_dims = [d for i, d in enumerate(broadcast_dimensions) if i not in expanded]
    order = tuple(int(i) for i in np.argsort(np.argsort(kept_out_dims)))
    if order != tuple(range(len(order))):
        reduced = lax.transpose(reduced, order)
    return [lax.expand_dims(reduced, expanded) if expanded else reduced]


transpose_rules[red.reduce_sum_p] = _reduce_sum_transpose
transpose_rules[st.broadcast_in_dim_p] = _broadcast_in_dim_transpose
def _reshape_transpose(ct, x, *, new_sizes, dimensions, sharding):
    if dimensions is None:
        return [lax.reshape(ct, x.aval.shape)]
    permuted = tuple(x.aval.shape[d] for d in dimensions)
    return [lax.transpose(lax.reshape(ct, permuted), tuple(int(i) for i in np.argsort(dimensions)))]


transpose_rules[st.reshape_p] = _reshape_transpose
transpose_rules[st.squeeze_p] = lambda ct, x, *, dimensions: [lax.expand_dims(ct, dimensions)]
transpose_rules[st.transpose_p] = lambda ct, x, *, permutation: [
    lax.transpose(ct, tuple(int(i) for i in np.argsort(permutation)))]
transpose_rules[st.rev_p] = lambda ct, x, *, dimensions: [lax.rev(ct, dimensions)]

# ---------------------------------------------------------------- selection


def _select_n_transpose(ct, which, *cases):
    zeros = full_like(ct, 0)
    return [None] + [lax.select_n(which, *[ct if j == i else zeros for j in range(len(cases))])
                     if is_undefined(case) else None for i, case in enumerate(cases)]


transpose_rules[st.select_n_p] = _select_n_transpose

# ---------------------------------------------------------------- dot_general


def _others(ndim: int, *excluded: Sequence[int]) -> list[int]:
    dropped = {int(d) for group in excluded for d in group}
    return [d for d in range(ndim) if d not in dropped]


Contract = Callable[[Any, Any, tuple], Any]


def _dot_transpose_first(ct: Any, first: ShapedArray, second: Any, contracting: tuple, batch: tuple,
                         first_is_lhs: bool, contract: Contract, second_grouped: Sequence[int] = ()) -> Any:
    """The cotangent of ``first`` in ``dot_general(first, second)`` (operands possibly swapped).

    The result's dimensions are batch, lhs free, rhs free: ``ct`` is contracted with ``second`` over
    ``second``'s free dimensions (and batched over the batch ones) by ``contract(ct, second, dimension_numbers)``,
    then permuted into ``first``'s layout. ``second_grouped`` (a ragged rhs's group dimension) is not free.
    """
    first_contract, second_contract = contracting
    first_batch, second_batch = batch
    first_free = _others(first.ndim, first_contract, first_batch)
    second_free = _others(len(get_aval(second).shape), second_contract, second_batch, second_grouped)
    n_batch = len(first_batch)
    start = n_batch + (len(first_free) if first_is_lhs else len(second_free))
    ct_second_free = list(range(start, start + len(second_free))) if first_is_lhs else \
        list(range(n_batch, n_batch + len(second_free)))
    dims = ((tuple(ct_second_free), tuple(second_free)), (tuple(range(n_batch)), tuple(second_batch)))
    product = contract(ct, second, dims)
    contract_in_second_order = [first_contract[i] for i in np.argsort(second_contract)]
    layout = list(first_batch) + first_free + contract_in_second_order
    return _as_operand(lax.transpose(product, tuple(int(i) for i in np.argsort(layout))), first)


def _as_operand(ct: Any, operand: ShapedArray) -> Any:
    """A contraction's cotangent converted to its operand's dtype (it has the result's)."""
    if get_aval(ct).dtype != operand.dtype:
        ct = st.convert_element_type_p.bind(ct, new_dtype=operand.dtype, weak_type=operand.weak_type, sharding=None)
    return ct


def _dot_general_transpose(ct, lhs, rhs, *, dimension_numbers, precision, preferred_element_type, out_sharding):
    (lhs_contract, rhs_contract), (lhs_batch, rhs_batch) = dimension_numbers

    def contract(x, y, dims):
        return lax.dot_general(x, y, dims, precision=precision, preferred_element_type=preferred_element_type)

    if is_undefined(lhs):
        return [_dot_transpose_first(ct, lhs.aval, rhs, (lhs_contract, rhs_contract), (lhs_batch, rhs_batch),
                                     True, contract), None]
    return [None, _dot_transpose_first(ct, rhs.aval, lhs, (rhs_contract, lhs_contract), (rhs_batch, lhs_batch),
                                       False, contract)]


transpose_rules[dot_general_p] = _dot_general_transpose


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
        lhs_free = _others(lhs.aval.ndim, lhs_contract, lhs_batch)
        ct_ragged = len(lhs_batch) + lhs_free.index(ragged)

        def contract(x, y, dims):
            return ragged_dot_general(x, y, group_sizes, RaggedDotDimensionNumbers(dims, (ct_ragged,), (group,)),
                                      **params)

        return [_dot_transpose_first(ct, lhs.aval, rhs, (lhs_contract, rhs_contract), (lhs_batch, rhs_batch),
                                     True, contract, (group,)), None, None]
    lhs_ndim = len(get_aval(lhs).shape)
    lhs_free = _others(lhs_ndim, lhs_contract, lhs_batch)
    ct_lhs_free = tuple(range(len(lhs_batch), len(lhs_batch) + len(lhs_free)))
    dims = ((tuple(lhs_free), ct_lhs_free), (tuple(lhs_batch), tuple(range(len(lhs_batch)))))
    product = ragged_dot_general(lhs, ct, group_sizes, RaggedDotDimensionNumbers(dims, (ragged,), ()), **params)
    # product: groups, batch, lhs's contracting dimensions (ascending), rhs's free ones.
    rhs_free = _others(rhs.aval.ndim, rhs_contract, rhs_batch, (group,))
    layout = [group, *rhs_batch, *(rhs_contract[i] for i in np.argsort(lhs_contract)), *rhs_free]
    return [None, _as_operand(lax.transpose(product, tuple(int(i) for i in np.argsort(layout))), rhs.aval), None]


transpose_rules[ragged_dot_general_p] = _ragged_dot_general_transpose
