"""Block-scaled contraction: scaled_dot computes ``(lhs * lhs_scale) @ (rhs * rhs_scale)``, each scale repeated
over blocks ("subchannels") of its operand's contracting dimensions, in the preferred element type."""

from __future__ import annotations

import ml_dtypes
import numpy as np

from jaxle_core import dtypes
from jaxle_core.avals import ShapedArray, get_aval
from jaxle_core.core import Primitive
from jaxle_core.lax.dot import dot_general_p
from jaxle_core.lax.standard import as_int_tuple
from jaxle_core.lax.structural import (
    broadcast_in_dim,
    broadcast_in_dim_p,
    convert_element_type,
    convert_element_type_p,
)

__all__ = ["scaled_dot"]

scaled_dot_p = Primitive("scaled_dot")


def _check_scale(side: str, operand: ShapedArray, scale: ShapedArray, contracting: tuple[int, ...]) -> None:
    for d, (size, scale_size) in enumerate(zip(operand.shape, scale.shape)):
        if d in contracting:
            if scale_size == 0 or size % scale_size:
                raise TypeError(f"{side} contracting dim {d} of size {size} must be divisible by its scale's dim "
                                f"size {scale_size}.")
        elif size != scale_size:
            raise TypeError(f"{side} dim {d} of size {size} does not match scale dim size {scale_size}.")


@scaled_dot_p.def_abstract_eval
def _scaled_dot_aval(lhs, rhs, lhs_scale, rhs_scale, *, dimension_numbers, preferred_element_type):
    ranks = (lhs.ndim, rhs.ndim, lhs_scale.ndim, rhs_scale.ndim)
    if len(set(ranks)) != 1:
        raise TypeError(f"All input tensors must have the same rank. Got lhs rank: {ranks[0]} rhs rank: {ranks[1]} "
                        f"lhs_scale rank: {ranks[2]} rhs_scale rank: {ranks[3]}.")
    (lhs_contract, rhs_contract), _ = dimension_numbers
    for l_dim, r_dim in zip(lhs_contract, rhs_contract):
        if lhs.shape[l_dim] != rhs.shape[r_dim]:
            raise TypeError(f"LHS contracting dim {l_dim} of size {lhs.shape[l_dim]} does not match RHS contracting "
                            f"dim {r_dim} of size {rhs.shape[r_dim]}.")
    _check_scale("LHS", lhs, lhs_scale, lhs_contract)
    _check_scale("RHS", rhs, rhs_scale, rhs_contract)
    out = dot_general_p.abstract_eval(lhs, rhs, dimension_numbers=dimension_numbers, precision=None,
                                      preferred_element_type=None, out_sharding=None)
    return ShapedArray(out.shape, preferred_element_type)


def _convert(x: np.ndarray, dtype: np.dtype) -> np.ndarray:
    return convert_element_type_p.impl(x, new_dtype=dtype, weak_type=False, sharding=None)


def expanded_scale(scale, shape: tuple[int, ...], contracting: tuple[int, ...], broadcast_in_dim, reshape):
    """``scale`` repeated over the blocks of ``shape`` it covers: each contracting dimension gets a new one after it
    of the block size, which is then merged into it. ``broadcast_in_dim`` and ``reshape`` are NumPy's (the
    reference) or lax's (the lowering), with lax's signatures."""
    scale_shape = get_aval(scale).shape
    widened, spread, kept = [], [], []
    for d, (size, scale_size) in enumerate(zip(shape, scale_shape)):
        kept.append(len(widened))
        widened.append(scale_size)
        spread.append(scale_size)
        if d in contracting:
            widened.append(1)
            spread.append(size // scale_size)
    blocks = broadcast_in_dim(broadcast_in_dim(scale, tuple(widened), tuple(kept)), tuple(spread),
                              tuple(range(len(spread))))
    return reshape(blocks, tuple(shape))


# The type in which operands are multiplied by their scales, before the contraction in the preferred type.
SCALING_DTYPE = np.dtype(ml_dtypes.bfloat16)


def _np_broadcast_in_dim(x: np.ndarray, shape: tuple[int, ...], dims: tuple[int, ...]) -> np.ndarray:
    return broadcast_in_dim_p.impl(x, shape=shape, broadcast_dimensions=dims, sharding=None)


@scaled_dot_p.def_impl
def _scaled_dot_impl(lhs, rhs, lhs_scale, rhs_scale, *, dimension_numbers, preferred_element_type):
    (lhs_contract, rhs_contract), _ = dimension_numbers

    def scaled(x, scale, contracting):
        # As JAX's decomposition: operands and scales meet in bfloat16, whatever the result type.
        full = expanded_scale(scale, x.shape, contracting, _np_broadcast_in_dim, np.reshape)
        return _convert(x, SCALING_DTYPE) * _convert(full, SCALING_DTYPE)

    return dot_general_p.impl(scaled(lhs, lhs_scale, lhs_contract), scaled(rhs, rhs_scale, rhs_contract),
                              dimension_numbers=dimension_numbers,
                              precision=None, preferred_element_type=preferred_element_type, out_sharding=None)


def _unit_scale(operand, contracting: tuple[int, ...]):
    """A scale of one for every block, the whole contracting dimensions being one block (JAX writes bfloat16 ones
    converted to float8_e8m0fnu)."""
    shape = tuple(1 if d in contracting else s for d, s in enumerate(get_aval(operand).shape))
    ones = broadcast_in_dim(np.array(1, ml_dtypes.bfloat16), shape, ())
    return convert_element_type(ones, ml_dtypes.float8_e8m0fnu)


def scaled_dot(lhs, rhs, *, lhs_scale=None, rhs_scale=None, dimension_numbers=None, preferred_element_type=None):
    """``(lhs * lhs_scale) @ (rhs * rhs_scale)`` in ``preferred_element_type`` (default bfloat16); a scale's
    contracting dimensions divide its operand's (each entry scales a block), its other dimensions equal them.
    ``dimension_numbers`` defaults to a matrix product batched over all leading dimensions."""
    ndim = get_aval(lhs).ndim
    if ndim < 2:
        raise TypeError("scaled_dot does not support 0-rank and 1-rank operands.")
    if dimension_numbers is None:
        batch = tuple(range(ndim - 2))
        dimension_numbers = (((ndim - 1,), (ndim - 2,)), (batch, batch))
    (lhs_contract, rhs_contract), (lhs_batch, rhs_batch) = dimension_numbers
    numbers = ((as_int_tuple(lhs_contract), as_int_tuple(rhs_contract)),
               (as_int_tuple(lhs_batch), as_int_tuple(rhs_batch)))
    if lhs_scale is None:
        lhs_scale = _unit_scale(lhs, numbers[0][0])
    if rhs_scale is None:
        rhs_scale = _unit_scale(rhs, numbers[0][1])
    preferred = dtypes.canonicalize_dtype(dtypes.dtype(
        ml_dtypes.bfloat16 if preferred_element_type is None else preferred_element_type))
    return scaled_dot_p.bind(lhs, rhs, lhs_scale, rhs_scale, dimension_numbers=numbers,
                             preferred_element_type=preferred)
