"""Batching of ``custom_linear_solve``: one solve of the batched functions, as JAX does it.

The four functions must agree on which parts of ``x`` and ``b`` are batched: ``solve`` and ``vecmat`` map ``b``
to ``x``, ``matvec`` and ``transpose_solve`` map ``x`` to ``b``. Starting from the batched operands, each
function is batched and whatever it makes batched is batched everywhere, until nothing changes. Batched
operands carry their batch dimension first; a ``b`` that must be batched but is not is broadcast.
"""

from __future__ import annotations

from jaxle_core.batching.rule_helpers import batch_jaxpr_at_front, body_batch_size
from jaxle_core.batching.trace import BatchTrace, at_dim, move_dim, traced_batching_rules
from jaxle_core.lax.control_flow.solves import linear_solve_p, num_aux, split_linear_solve_args


def _linear_solve_batch(trace: BatchTrace, vals, dims, *, const_lengths, jaxprs):
    size = body_batch_size(trace, vals, dims)
    memo: dict = {}

    def batched(closed, in_batched, instantiate):
        # One batched jaxpr per jaxpr and batching pattern: a symmetric solve's matvec and vecmat stay one
        # object (printed once, as JAX shares them).
        key = (id(closed), tuple(in_batched), tuple(instantiate))
        if key not in memo:
            memo[key] = batch_jaxpr_at_front(closed, in_batched, size, trace.axis_name, instantiate)
        return memo[key]

    consts_bat, orig_b_bat = split_linear_solve_args([d is not None for d in dims], const_lengths)
    n_aux = num_aux(jaxprs)
    b_bat = orig_b_bat
    x_bat = [False] * len(jaxprs.solve.out_avals)
    while True:
        solve, solve_x_bat = batched(jaxprs.solve, consts_bat.solve + b_bat, x_bat)
        if jaxprs.vecmat is None:
            vecmat, x_bat_out = None, solve_x_bat
        else:
            vecmat, vecmat_x_bat = batched(jaxprs.vecmat, consts_bat.vecmat + b_bat, b_bat)
            # auxiliary outputs are batched whenever the solution may be
            x_bat_out = [a or b for a, b in zip(vecmat_x_bat + [True] * n_aux, solve_x_bat)]
        x_bat_solution = x_bat_out[:len(x_bat_out) - n_aux]
        matvec, matvec_b_bat = batched(jaxprs.matvec, consts_bat.matvec + x_bat_solution, b_bat)
        if jaxprs.transpose_solve is None:
            transpose_solve, b_bat_out = None, [a or b for a, b in zip(matvec_b_bat, orig_b_bat)]
        else:
            transpose_solve, ts_bat = batched(jaxprs.transpose_solve, consts_bat.transpose_solve + x_bat_solution,
                                              x_bat_out)
            b_bat_out = [a or b or c for a, b, c in zip(matvec_b_bat, ts_bat, orig_b_bat)]
        if x_bat_out == x_bat and b_bat_out == b_bat:
            break
        x_bat, b_bat = x_bat_out, b_bat_out
    n_consts = sum(const_lengths)
    consts = [c if d is None else move_dim(c, d, 0) for c, d in zip(vals[:n_consts], dims[:n_consts])]
    b = [at_dim(v, d, size) if bat else v for v, d, bat in zip(vals[n_consts:], dims[n_consts:], b_bat)]
    outs = linear_solve_p.bind(*consts, *b, const_lengths=const_lengths,
                               jaxprs=type(jaxprs)(matvec, vecmat, solve, transpose_solve))
    return outs, [0 if bat else None for bat in solve_x_bat]


traced_batching_rules[linear_solve_p] = _linear_solve_batch
