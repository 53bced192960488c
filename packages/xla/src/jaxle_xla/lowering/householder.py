"""Lowering of ``qr``, ``geqrf``, ``geqp3``, ``householder_product`` and ``ormqr`` to LAPACK's ``geqrf``/``geqp3``,
``orgqr`` and ``ormqr`` (``ungqr``/``unmqr`` for complex) through jaxlib's kernels, as JAX emits them."""

from __future__ import annotations

import numpy as np

from jaxle_core import lax
from jaxle_core.avals import ShapedArray
from jaxle_core.lax.householder import geqp3_p, geqrf_p, householder_product_p, ormqr_p, qr_p
from jaxle_core.lax.linalg_support import check_lapack_dtype, triu
from jaxle_core.lax.structural import eye
from jaxle_core.mesh import PartitionSpec
from jaxle_core.sharding import NamedSharding
from jaxle_core.sharding_rules_indexing import select_which_error
from jaxle_xla.lapack import flag, lapack_call
from jaxle_xla.lowering.context import LoweringContext, Value
from jaxle_xla.lowering.module import register_lowering
from jaxle_xla.lowering.typed_layouts import leave_unconstrained, lower_helper


def _identity_columns(aval: ShapedArray):
    """The first columns of identity matrices, broadcast over the batch: the product of no reflectors."""
    rows, columns = aval.shape[-2:]
    identity = eye(aval.dtype, (rows, columns))
    return lax.broadcast_in_dim(identity, aval.shape, (aval.ndim - 2, aval.ndim - 1))


def _empty_qr(x, avals: list[ShapedArray]):
    """QR of matrices with no rows or no columns (or an empty batch), which LAPACK cannot take."""
    outs = [_identity_columns(avals[0]), lax.full(avals[1].shape, 0, avals[1].dtype)]
    if len(avals) == 3:
        outs.append(lax.broadcasted_iota(np.int32, avals[2].shape, avals[2].ndim - 1))
    return outs


def _reflector_block(factored, m: int, n: int, full_matrices: bool):
    """The reflectors as the columns ``orgqr`` forms Q from: the first ``m`` of more, or with full matrices
    zero-padded to ``m`` (as JAX's, padded even by no columns)."""
    ndim = factored.ndim
    if m < n:
        return lax.slice_in_dim(factored, 0, m, axis=ndim - 1)
    if full_matrices:
        # as JAX's, the padding value is a zero typed over the reflectors' mesh, replicated (there: constrained)
        layout = factored.aval.explicit_sharding
        zero = lax.full_like(factored, 0, shape=(),
                             sharding=None if layout is None else NamedSharding(layout.mesh, PartitionSpec()))
        return lax.pad(factored, zero, [(0, 0, 0)] * (ndim - 1) + [(0, m - n, 0)])
    return factored


def _check_batch_whole(aval: ShapedArray) -> None:
    """JAX's error for a QR decomposition of matrices split over devices by their batch dimensions: its lowering
    selects between the factors and NaNs by a mask laid out whole, which such factors cannot be combined with."""
    sharding = aval.explicit_sharding
    if sharding is not None and any(sharding.spec[:-2]):
        raise select_which_error(sharding.mesh, (None,) * aval.ndim, tuple(sharding.spec))


@register_lowering(qr_p)
def _qr_lowering(ctx: LoweringContext, x: Value, *, pivoting: bool, full_matrices: bool,
                 use_magma: bool | None) -> list[Value]:
    check_lapack_dtype(x.aval.dtype)
    _check_batch_whole(x.aval)
    avals = ctx.avals_out
    if x.aval.size == 0:
        return ctx.lower_fun(lambda v: _empty_qr(v, avals), x)
    batch, (m, n) = x.aval.shape[:-2], x.aval.shape[-2:]
    taus_aval = ShapedArray((*batch, min(m, n)), x.aval.dtype)
    if pivoting:
        jpvt_aval = ShapedArray((*batch, n), np.int32)
        factored, jpvt, taus = lapack_call(ctx, "geqp3", [x, ctx.full_like(0, jpvt_aval)],
                                           [x.aval, jpvt_aval, taus_aval], aliases={0: 0, 1: 1})
        permutation = ctx.op1("stablehlo.subtract", [jpvt, ctx.full_like(1, jpvt_aval)], jpvt_aval)  # from 1-based
    else:
        factored, taus = lapack_call(ctx, "geqrf", [x], [x.aval, taus_aval], aliases={0: 0})
    block = lower_helper(ctx, lambda f: _reflector_block(f, m, n, full_matrices), factored)[0]
    q = lapack_call(ctx, "orgqr", [block, taus], [avals[0]], aliases={0: 0})[0]
    rows = avals[1].shape[-2]
    r = lower_helper(ctx, lambda f: triu(lax.slice_in_dim(f, 0, rows, axis=f.ndim - 2) if rows < m else f),
                     factored)[0]
    return [q, r, permutation] if pivoting else [q, r]


@register_lowering(geqrf_p)
def _geqrf_lowering(ctx: LoweringContext, x: Value) -> list[Value]:
    check_lapack_dtype(x.aval.dtype)
    taus_aval = ctx.avals_out[1]
    if x.aval.size == 0:  # LAPACK cannot take it: no reflectors
        return [x, ctx.full_like(0, taus_aval)]
    return lapack_call(ctx, "geqrf", [x], [x.aval, taus_aval], aliases={0: 0})


@register_lowering(geqp3_p)
def _geqp3_lowering(ctx: LoweringContext, a: Value, jpvt: Value, *, use_magma: bool | None) -> list[Value]:
    check_lapack_dtype(a.aval.dtype)
    avals = ctx.avals_out
    if a.aval.size == 0:  # LAPACK cannot take it: no reflectors, the columns in order
        return [a, ctx.lower_fun(lambda: lax.broadcasted_iota(np.int32, avals[1].shape, avals[1].ndim - 1) + 1)[0],
                ctx.full_like(0, avals[2])]
    return lapack_call(ctx, "geqp3", [a, jpvt], avals, aliases={0: 0, 1: 1})


@register_lowering(householder_product_p)
def _householder_product_lowering(ctx: LoweringContext, a: Value, taus: Value) -> Value:
    check_lapack_dtype(a.aval.dtype)
    if a.aval.size == 0:
        return a
    if taus.aval.size == 0:  # no reflectors
        return ctx.lower_fun(lambda: _identity_columns(a.aval))[0]
    return lapack_call(ctx, "orgqr", [a, taus], [a.aval], aliases={0: 0})[0]


@register_lowering(ormqr_p)
def _ormqr_lowering(ctx: LoweringContext, a: Value, taus: Value, c: Value, *, left: bool, transpose: bool) -> Value:
    check_lapack_dtype(a.aval.dtype)
    if c.aval.size == 0 or taus.aval.size == 0:  # nothing to multiply, or by the identity
        return c
    return lapack_call(ctx, "ormqr", [a, taus, c], [c.aval], attributes={"left": flag(left),
                       "transpose": flag(transpose)}, aliases={0: 2})[0]


# as JAX's, the kernels' results are not constrained (values the rules compute with lax are, to their types)
leave_unconstrained(qr_p, geqrf_p, householder_product_p, ormqr_p)
