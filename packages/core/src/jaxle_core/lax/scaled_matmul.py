"""Block-scaled batched matrix product (``jax.nn.scaled_matmul``): ``lhs[B, M, K]`` times ``rhs[B, N, K]``
contracted over K, each operand multiplied first by its scales ``[B, M, K / block]`` and ``[B, N, K / block]``,
one scale per block of consecutive K elements."""

from __future__ import annotations

from typing import Any

import numpy as np

from jaxle_core import dtypes
from jaxle_core.avals import ShapedArray
from jaxle_core.core import Primitive
from jaxle_core.jit import jit
from jaxle_core.lax.dot import dot_general_p
from jaxle_core.lax.scaled_dot import expanded_scale
from jaxle_core.lax.structural import broadcast_in_dim_p, convert_element_type_p

__all__ = ["scaled_matmul"]

scaled_matmul_wrapper_p = Primitive("scaled_matmul_wrapper")

# The contraction of [B, M, K] with [B, N, K] over K, batched over B.
_DIMENSION_NUMBERS = (((2,), (2,)), ((0,), (0,)))


@scaled_matmul_wrapper_p.def_abstract_eval
def _scaled_matmul_aval(lhs, rhs, lhs_scales, rhs_scales, *, preferred_element_type):
    if any(x.ndim != 3 for x in (lhs, rhs, lhs_scales, rhs_scales)):
        raise ValueError("scaled_matmul requires all inputs to be 3-dimensional arrays")
    (batch, m, k), (rhs_batch, n, rhs_k) = lhs.shape, rhs.shape
    if (batch, k) != (rhs_batch, rhs_k):
        raise ValueError("scaled_matmul requires inputs a and b to have matching batch (B) and contract (K) "
                         f"dimensions, but got shapes {lhs.shape} and {rhs.shape}")
    if (lhs_scales.shape[0], lhs_scales.shape[2]) != (rhs_scales.shape[0], rhs_scales.shape[2]):
        raise ValueError("scaled_matmul requires scales to have matching batch (B) and contract (K) dimensions, "
                         f"but got shapes {lhs_scales.shape} and {rhs_scales.shape}")
    if lhs_scales.shape[1] != m or rhs_scales.shape[1] != n:
        raise ValueError("scaled_matmul requires scales to match non-contract dimensions of inputs, but got shapes "
                         f"a: {lhs.shape}, b: {rhs.shape}, a_scales: {lhs_scales.shape}, "
                         f"b_scales: {rhs_scales.shape}")
    return ShapedArray((batch, m, n), preferred_element_type)


def _np_broadcast_in_dim(x: np.ndarray, shape: tuple[int, ...], dims: tuple[int, ...]) -> np.ndarray:
    return broadcast_in_dim_p.impl(x, shape=shape, broadcast_dimensions=dims, sharding=None)


def _as_float32(x: np.ndarray) -> np.ndarray:
    return convert_element_type_p.impl(x, new_dtype=np.dtype(np.float32), weak_type=False, sharding=None)


@scaled_matmul_wrapper_p.def_impl
def _scaled_matmul_impl(lhs, rhs, lhs_scales, rhs_scales, *, preferred_element_type):
    # The reference scales and accumulates in float32 (every narrow operand and scale type is exact in it), then
    # rounds once to the preferred type.
    def scaled(x, scales):
        if x.shape[2] % scales.shape[2]:
            raise ValueError(f"scaled_matmul: contract dimension {x.shape[2]} is not a multiple of the scales' "
                             f"{scales.shape[2]}")
        full = expanded_scale(scales, x.shape, (2,), _np_broadcast_in_dim, np.reshape)
        return _as_float32(x) * _as_float32(full)

    return dot_general_p.impl(scaled(lhs, lhs_scales), scaled(rhs, rhs_scales), dimension_numbers=_DIMENSION_NUMBERS,
                              precision=None, preferred_element_type=preferred_element_type, out_sharding=None)


def _scaled_matmul_body(lhs, rhs, lhs_scales, rhs_scales, preferred_element_type):
    return scaled_matmul_wrapper_p.bind(lhs, rhs, lhs_scales, rhs_scales,
                                        preferred_element_type=preferred_element_type)


_scaled_matmul_body.__name__ = _scaled_matmul_body.__qualname__ = "_scaled_matmul"
_scaled_matmul = jit(_scaled_matmul_body, static_argnames=("preferred_element_type",))


def scaled_matmul(lhs: Any, rhs: Any, lhs_scales: Any, rhs_scales: Any,
                  preferred_element_type: Any = np.float32) -> Any:
    """Block-scaled ``lhs[B, M, K] @ rhs[B, N, K]^T`` into ``[B, M, N]`` of ``preferred_element_type``: each
    operand is multiplied by its scales (``[B, M, K / block]``, ``[B, N, K / block]``), one per block of K."""
    preferred = dtypes.canonicalize_dtype(dtypes.dtype(preferred_element_type))
    return _scaled_matmul(lhs, rhs, lhs_scales, rhs_scales, preferred_element_type=preferred)
