"""Sharding rules of the primitives that work on whole dimensions at once (matrix decompositions and solves,
Fourier transforms, convolutions), as JAX 0.10.2's types say (see sharding_types.py).

A decomposition (or a batched solve) keeps its batch dimensions' layout and needs its matrices whole on every
device; a triangular solve also takes the layout of the dimensions it does not contract; a Fourier transform keeps
its operand's layout; a convolution keeps the layout of the input's batch and spatial dimensions when neither its
features nor its kernel are split, and needs ``out_sharding`` otherwise.
"""

from __future__ import annotations

import numpy as np

from jaxle_core.lax.condensed_forms import hessenberg_p, tridiagonal_p
from jaxle_core.lax.convolution import conv_general_dilated_p
from jaxle_core.lax.eigen import eig_p, eigh_p
from jaxle_core.lax.factorizations import cholesky_p, lu_p, lu_pivots_to_permutation_p
from jaxle_core.lax.fft import fft_p
from jaxle_core.lax.householder import householder_product_p, qr_p
from jaxle_core.lax.matrix_solves import triangular_solve_p, tridiagonal_solve_p
from jaxle_core.lax.schur import schur_p
from jaxle_core.lax.svd import svd_p
from jaxle_core.mesh import PartitionSpec
from jaxle_core.sharding_types import (
    ShardingTypeError,
    check_divisible,
    given_spec,
    layout_divides,
    register_rule,
)

__all__: list[str] = []


def _batched(name: str, core_ndims: tuple[int, ...]):
    """Results laid out over the operands' batch dimensions (all split alike), whole in the trailing
    ``core_ndims[i]`` dimensions of operand ``i``, which the operands must have whole."""
    def rule(avals, specs, outs, mesh, params):
        for i, (spec, ndim) in enumerate(zip(specs, core_ndims)):
            if any(e is not None for e in spec[len(spec) - ndim:]):
                raise ShardingTypeError(f"Input {i} to {name} must be unsharded on non-batch dimensions, but got "
                                        f"{PartitionSpec(*spec)}.")
        batches = [spec[:len(spec) - ndim] for spec, ndim in zip(specs, core_ndims)]
        if any(batch != batches[0] for batch in batches[1:]):
            raise ShardingTypeError(f"All inputs to {name} must have the same batch sharding, but got {batches}.")
        return [batches[0] + (None,) * (out.ndim - len(batches[0])) for out in outs]

    return rule


def _triangular_solve(avals, specs, outs, mesh, params):
    a, b = specs
    left_side, transpose_a = params["left_side"], params["transpose_a"]
    if a[:-2] != b[:-2]:
        raise ShardingTypeError(f"All inputs to triangular_solve must have the same batch sharding, but got "
                                f"{a[:-2]} and {b[:-2]}.")
    # a solve contracts one dimension of each: a's columns (rows when transposed, or on the right) and b's rows
    # (columns on the right); the other two carry their layout to the result's
    a_contracted = -1 if left_side != transpose_a else -2
    b_contracted = -2 if left_side else -1
    for operand, spec, dim in (("a", a, a_contracted), ("b", b, b_contracted)):
        if spec[dim] is not None:
            raise ShardingTypeError(
                f"triangular solve input `{operand}` must be unsharded on the contracting axis, but got "
                f"{PartitionSpec(*spec)} with left_side={left_side} and transpose_a={transpose_a}.")
    a_kept = a[-3 - a_contracted]
    matrix = (a_kept, b[-1]) if left_side else (b[-2], a_kept)
    return [a[:-2] + matrix]


def _fft(avals, specs, outs, mesh, params):
    layout_divides(outs[0].shape, specs[0], mesh)
    return [specs[0]]


def _conv_general_dilated(avals, specs, outs, mesh, params):
    given = given_spec(params["out_sharding"], outs[0].ndim)
    if given is not None:
        return [given]
    lhs_dims, _, out_dims = params["dimension_numbers"]
    lhs, rhs = specs
    if any(rhs) or lhs[lhs_dims[1]] is not None:
        raise ShardingTypeError("Please specify the output sharding via `out_sharding` parameter of "
                                "`conv_general_dilated`")
    # the result's batch and spatial dimensions are laid out as the input's (features whole)
    result: list = [None] * outs[0].ndim
    for lhs_dim, out_dim in zip(lhs_dims, out_dims):
        result[out_dim] = lhs[lhs_dim]
    result[out_dims[1]] = None
    in_order = tuple(result[out_dims[lhs_dims.index(d)]] for d in range(len(lhs)))
    # NumPy integers, as JAX's message prints the shape its NumPy arithmetic computed
    out_shape = tuple(np.int64(outs[0].shape[out_dims[lhs_dims.index(d)]]) for d in range(len(lhs)))
    check_divisible("conv_general_dilated", avals[0], in_order, out_shape, mesh)
    return [tuple(result)]


for _primitive, _core_ndims in ((cholesky_p, (2,)), (lu_p, (2,)), (qr_p, (2,)), (eigh_p, (2,)), (svd_p, (2,)),
                               (eig_p, (2,)), (schur_p, (2,)), (hessenberg_p, (2,)), (tridiagonal_p, (2,)),
                               (householder_product_p, (2, 1)),
                               (tridiagonal_solve_p, (1, 1, 1, 2)), (lu_pivots_to_permutation_p, (1,))):
    register_rule(_primitive, _batched(_primitive.name, _core_ndims))
register_rule(triangular_solve_p, _triangular_solve)
register_rule(fft_p, _fft)
register_rule(conv_general_dilated_p, _conv_general_dilated)
