"""AD of ``custom_linear_solve``: implicit differentiation, never through the solver.

With ``A x = b``: ``dA x + A dx = db``, so ``dx = solve(db - dA x)``, a second linear solve with the same
operator, whose right-hand side is linear in the tangents (``dA x`` is the tangent of ``matvec`` in its
constants, at ``x``). Linearization stages that second solve; transposing it solves the transposed system
(``vecmat`` and ``transpose_solve`` in place of ``matvec`` and ``solve``), as JAX does. Auxiliary outputs have
zero tangents.
"""

from __future__ import annotations

from typing import Any

from jaxle_core import core
from jaxle_core.ad.jvp import Zero, add_tangents, instantiate, jvp_flat, jvp_rules, tangent_aval
from jaxle_core.ad.transpose import is_undefined, transpose_rules
from jaxle_core.avals import get_aval
from jaxle_core.lax.control_flow.solves import flatten_groups, linear_solve_p, split_linear_solve_args
from jaxle_core.lax.elementwise import neg


def _matvec_tangents(jaxprs: Any, consts: list[Any], consts_dot: list[Any], x: list[Any]) -> list[Any]:
    """The tangent of ``matvec(x)`` when only its constants move."""
    matvec = jaxprs.matvec
    zeros = [Zero(tangent_aval(get_aval(v))) for v in x]
    _, tangents, _ = jvp_flat(lambda *args: (core.eval_jaxpr(matvec.jaxpr, matvec.consts, *args), None),
                              [*consts, *x], [*consts_dot, *zeros])
    return tangents


def _linear_solve_jvp(primals, tangents, *, const_lengths, jaxprs):
    params = dict(const_lengths=const_lengths, jaxprs=jaxprs)
    x = linear_solve_p.bind(*primals, **params)
    consts, _ = split_linear_solve_args(primals, const_lengths)
    consts_dot, b_dot = split_linear_solve_args(tangents, const_lengths)
    n = len(b_dot)
    if all(type(t) is Zero for t in consts_dot.matvec):
        rhs = b_dot
    else:
        matvec_dot = _matvec_tangents(jaxprs, consts.matvec, consts_dot.matvec, x[:n])
        rhs = [add_tangents(db, t if type(t) is Zero else neg(t)) for db, t in zip(b_dot, matvec_dot)]
    # A right-hand side that is partly zero (one leaf of a pytree ``b`` with no tangent) is instantiated
    # (JAX passes the symbolic zero to the primitive and fails).
    x_dot = linear_solve_p.bind(*flatten_groups(consts), *map(instantiate, rhs), **params)
    return x, x_dot[:n] + [Zero(tangent_aval(get_aval(a))) for a in x[n:]]


def _linear_solve_transpose(cts, *args, const_lengths, jaxprs):
    if jaxprs.transpose_solve is None:
        raise TypeError("transpose_solve required for backwards mode automatic differentiation of "
                        "custom_linear_solve")
    consts, b = split_linear_solve_args(args, const_lengths)
    if any(is_undefined(c) for group in consts for c in group):
        raise NotImplementedError("custom_linear_solve is linear in b only, not in the constants of its functions")
    # Auxiliary outputs have no tangent, so their cotangents are zero.
    x_cts = [instantiate(ct) for ct in cts[:len(b)]]
    b_cts = linear_solve_p.bind(*flatten_groups(consts.transpose()), *x_cts,
                                const_lengths=const_lengths.transpose(), jaxprs=jaxprs.transpose())
    return [None] * sum(const_lengths) + b_cts[:len(b)]


jvp_rules[linear_solve_p] = _linear_solve_jvp
transpose_rules[linear_solve_p] = _linear_solve_transpose
