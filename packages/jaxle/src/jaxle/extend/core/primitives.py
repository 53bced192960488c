"""``jax.extend.core.primitives``: the primitives of jaxle's core, under the names JAX exposes them by.

Each is the very primitive jaxle stages (``add_p.bind(x, y)`` is ``lax.add``'s equation), so rules registered for
them elsewhere apply to the ones the library binds. ``add_jaxvals_p`` is the sum of two tangents (``add_any``) and
``remat_p`` the primitive of ``jax.checkpoint``.

``call_p`` and ``closed_call_p`` are JAX's call primitives. ``closed_call_p`` is jaxle's ``closed_call`` (a call of
its ``call_jaxpr`` param, staged as one equation). jaxle has no ``call`` equation: binding ``call_p`` applies the
``linear_util``-wrapped function to the operands under the current trace, so its equations are staged inline.
Libraries that key rule tables on them (numpyro's provenance tracking) import them.
"""

from typing import Any

from jaxle_core import core
from jaxle_core.ad.jvp import add_any_p as add_jaxvals_p
from jaxle_core.checkpoint import checkpoint_p as remat_p
from jaxle_core.checkpoint import name_p
from jaxle_core.closed_call import closed_call_p
from jaxle_core.custom_derivatives import custom_jvp_call_p, custom_lin_p, custom_vjp_call_p
from jaxle_core.jit import jit_p
from jaxle_core.lax import (
    abs_p,
    acos_p,
    acosh_p,
    add_p,
    after_all_p,
    all_gather_p,
    all_to_all_p,
    and_p,
    approx_top_k_p,
    argmax_p,
    argmin_p,
    asin_p,
    asinh_p,
    atan2_p,
    atan_p,
    atanh_p,
    axis_index_p,
    bessel_i0e_p,
    bessel_i1e_p,
    bitcast_convert_type_p,
    broadcast_in_dim_p,
    cbrt_p,
    ceil_p,
    clamp_p,
    clz_p,
    complex_p,
    concatenate_p,
    cond_p,
    conj_p,
    conv_general_dilated_p,
    convert_element_type_p,
    copy_p,
    cos_p,
    cosh_p,
    create_token_p,
    cumlogsumexp_p,
    cummax_p,
    cummin_p,
    cumprod_p,
    cumsum_p,
    device_put_p,
    digamma_p,
    div_p,
    dot_general_p,
    dynamic_slice_p,
    dynamic_update_slice_p,
    eq_p,
    eq_to_p,
    erf_inv_p,
    erf_p,
    erfc_p,
    exp2_p,
    exp_p,
    expm1_p,
    fft_p,
    floor_p,
    gather_p,
    ge_p,
    gt_p,
    igamma_grad_a_p,
    igamma_p,
    igammac_p,
    imag_p,
    integer_pow_p,
    iota_p,
    is_finite_p,
    le_p,
    le_to_p,
    lgamma_p,
    linear_solve_p,
    log1p_p,
    log_p,
    logistic_p,
    lt_p,
    lt_to_p,
    max_p,
    min_p,
    mul_p,
    ne_p,
    neg_p,
    nextafter_p,
    not_p,
    or_p,
    pad_p,
    pmax_p,
    pmin_p,
    polygamma_p,
    population_count_p,
    pow_p,
    ppermute_p,
    psum_p,
    ragged_all_to_all_p,
    real_p,
    reduce_and_p,
    reduce_max_p,
    reduce_min_p,
    reduce_or_p,
    reduce_p,
    reduce_precision_p,
    reduce_prod_p,
    reduce_sum_p,
    reduce_window_max_p,
    reduce_window_min_p,
    reduce_window_p,
    reduce_window_sum_p,
    reduce_xor_p,
    regularized_incomplete_beta_p,
    rem_p,
    reshape_p,
    rev_p,
    rng_bit_generator_p,
    rng_uniform_p,
    round_p,
    rsqrt_p,
    scan_p,
    scatter_add_p,
    scatter_max_p,
    scatter_min_p,
    scatter_mul_p,
    scatter_p,
    select_and_gather_add_p,
    select_and_scatter_add_p,
    select_and_scatter_p,
    select_n_p,
    sharding_constraint_p,
    shift_left_p,
    shift_right_arithmetic_p,
    shift_right_logical_p,
    sign_p,
    sin_p,
    sinh_p,
    slice_p,
    sort_p,
    sqrt_p,
    square_p,
    squeeze_p,
    stop_gradient_p,
    sub_p,
    tan_p,
    tanh_p,
    top_k_p,
    transpose_p,
    while_p,
    xor_p,
    zeta_p,
)
from jaxle_core.lax.control_flow.conditionals import empty2_p
from jaxle_core.lax.linalg import (
    cholesky_p,
    eig_p,
    eigh_p,
    hessenberg_p,
    householder_product_p,
    lu_p,
    qr_p,
    schur_p,
    svd_p,
    triangular_solve_p,
    tridiagonal_p,
    tridiagonal_solve_p,
)
from jaxle_core.lax.refs import get_p, swap_p
from jaxle_random.gamma import random_gamma_p
from jaxle_random.key_primitives import random_bits_p, random_fold_in_p, random_seed_p, random_split_p
from jaxle_random.threefry import threefry2x32_p


class _InlinedCall(core.Primitive):
    """A call primitive whose binding applies the called function at once."""

    multiple_results = True

    def bind(self, *args: Any, **params: Any) -> Any:
        fun, *operands = args
        return fun.call_wrapped(*operands)


call_p = _InlinedCall("call")

__all__ = ["abs_p", "acos_p", "acosh_p", "add_jaxvals_p", "add_p", "after_all_p", "all_gather_p", "all_to_all_p",
           "and_p", "approx_top_k_p", "argmax_p", "argmin_p", "asin_p", "asinh_p", "atan2_p", "atan_p",
           "atanh_p", "axis_index_p", "bessel_i0e_p", "bessel_i1e_p", "bitcast_convert_type_p",
           "broadcast_in_dim_p", "call_p", "cbrt_p", "ceil_p", "cholesky_p", "clamp_p", "clz_p", "complex_p",
           "closed_call_p", "concatenate_p", "cond_p", "conj_p", "conv_general_dilated_p", "convert_element_type_p",
           "copy_p", "cos_p", "cosh_p", "create_token_p", "cumlogsumexp_p", "cummax_p", "cummin_p",
           "cumprod_p", "cumsum_p", "custom_jvp_call_p", "custom_lin_p", "custom_vjp_call_p",
           "device_put_p", "digamma_p", "div_p", "dot_general_p", "dynamic_slice_p",
           "dynamic_update_slice_p", "eig_p", "eigh_p", "empty2_p", "eq_p", "eq_to_p", "erf_inv_p", "erf_p",
           "erfc_p", "exp2_p", "exp_p", "expm1_p", "fft_p", "floor_p", "gather_p", "ge_p", "gt_p",
           "hessenberg_p", "householder_product_p", "igamma_grad_a_p", "igamma_p", "igammac_p", "imag_p",
           "integer_pow_p", "iota_p", "is_finite_p", "jit_p", "le_p", "le_to_p", "lgamma_p",
           "linear_solve_p", "log1p_p", "log_p", "logistic_p", "lt_p", "lt_to_p", "lu_p", "max_p", "min_p",
           "mul_p", "name_p", "ne_p", "neg_p", "nextafter_p", "not_p", "or_p", "pad_p", "pmax_p", "pmin_p",
           "polygamma_p", "population_count_p", "pow_p", "ppermute_p", "psum_p", "qr_p",
           "ragged_all_to_all_p", "random_bits_p", "random_fold_in_p", "random_gamma_p", "random_seed_p",
           "random_split_p", "real_p", "reduce_and_p", "reduce_max_p", "reduce_min_p", "reduce_or_p",
           "reduce_p", "reduce_precision_p", "reduce_prod_p", "reduce_sum_p", "reduce_window_max_p",
           "reduce_window_min_p", "reduce_window_p", "reduce_window_sum_p", "reduce_xor_p",
           "regularized_incomplete_beta_p", "rem_p", "remat_p", "reshape_p", "rev_p", "rng_bit_generator_p",
           "rng_uniform_p", "round_p", "rsqrt_p", "scan_p", "scatter_add_p", "scatter_max_p",
           "scatter_min_p", "scatter_mul_p", "scatter_p", "schur_p", "select_and_gather_add_p",
           "select_and_scatter_add_p", "select_and_scatter_p", "select_n_p", "sharding_constraint_p",
           "shift_left_p", "shift_right_arithmetic_p", "shift_right_logical_p", "sign_p", "sin_p", "sinh_p",
           "slice_p", "sort_p", "sqrt_p", "square_p", "squeeze_p", "stop_gradient_p", "sub_p", "svd_p",
           "tan_p", "tanh_p", "threefry2x32_p", "top_k_p", "transpose_p", "triangular_solve_p",
           "tridiagonal_p", "tridiagonal_solve_p", "while_p", "xor_p", "zeta_p", "get_p", "swap_p"]
