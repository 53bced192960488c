"""Batching of ``triangular_solve`` and ``tridiagonal_solve``.

A batched right-hand side of an unbatched triangular matrix is folded into the matrix of right-hand sides
(its columns for a left-side solve, its rows for a right-side one), so that one solve serves the whole batch, as
JAX does; otherwise the batch dimension becomes a leading batch dimension of the primitive.
"""

from __future__ import annotations

from jaxle_core.avals import get_aval
from jaxle_core.batching.rule_helpers import leading_batch_rule
from jaxle_core.batching.trace import at_dim, batching_rules, move_dim
from jaxle_core.lax.matrix_solves import triangular_solve_p, tridiagonal_solve_p
from jaxle_core.lax.structural import reshape


def _triangular_solve_rule(vals, dims, **params):
    (a, b), (a_dim, b_dim) = vals, dims
    if a_dim is None:
        b_shape = get_aval(b).shape
        size = b_shape[b_dim]
        ndim = len(b_shape)
        folded_at = ndim - 1 if params["left_side"] else ndim - 2
        moved = move_dim(b, b_dim, folded_at)
        moved_shape = get_aval(moved).shape
        merged = moved_shape[:folded_at - 1] + (moved_shape[folded_at - 1] * size,) + moved_shape[folded_at + 1:]
        out = triangular_solve_p.bind(a, reshape(moved, merged), **params)
        return reshape(out, moved_shape), folded_at  # the batch stays where it was folded, as in JAX
    size = get_aval(a).shape[a_dim]
    return triangular_solve_p.bind(at_dim(a, a_dim, size, 0), at_dim(b, b_dim, size, 0), **params), 0


batching_rules[triangular_solve_p] = _triangular_solve_rule
batching_rules[tridiagonal_solve_p] = leading_batch_rule(tridiagonal_solve_p)
