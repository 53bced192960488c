"""Automatic differentiation: forward mode, linearization, transposition and the derivative functions."""

from jaxle_core.ad import (  # noqa: F401  (registers the rules)
    approx_top_k,
    barriers,
    callbacks,
    checkpoint,
    checkpoint_loops,
    closed_call,
    composite,
    compute_on,
    conditionals,
    convolution,
    cumulative,
    custom_batching,
    custom_derivatives,
    debugging,
    dot,
    eigen,
    elementwise,
    factorizations,
    ffi,
    fft,
    householder,
    identity,
    jit,
    layout_constraints,
    linear_call,
    matrix_solves,
    parallel,
    placement,
    ragged_dot,
    reductions,
    refs,
    scan,
    shard_map,
    slicing,
    solves,
    sorting,
    special,
    structural,
    svd,
    while_loops,
    windowed,
)
from jaxle_core.ad.jacobians import hessian, jacfwd, jacrev
from jaxle_core.ad.jvp import JVPTrace, JVPTracer, Zero, add_any_p, instantiate, jvp, jvp_rules, tangent_aval
from jaxle_core.ad.reverse import fwd_and_bwd, grad, linear_transpose, linearize, value_and_grad, vjp
from jaxle_core.ad.transpose import UndefinedPrimal, backward_pass, transpose_rules

__all__ = ["JVPTrace", "JVPTracer", "UndefinedPrimal", "Zero", "add_any_p", "backward_pass", "fwd_and_bwd", "grad",
           "hessian", "instantiate", "jacfwd", "jacrev", "jvp", "jvp_rules", "linear_transpose", "linearize",
           "tangent_aval", "transpose_rules", "value_and_grad", "vjp"]
