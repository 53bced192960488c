"""``jax.custom_derivatives``: user-defined derivative rules."""

from jaxle_core.custom_derivatives import (
    CustomVJPPrimal,
    SymbolicZero,
    closure_convert,
    custom_gradient,
    custom_jvp,
    custom_jvp_call_p,
    custom_vjp,
    custom_vjp_call_p,
    custom_vjp_primal_tree_values,
    remat_opt_p,
    zero_from_primal,
)
from jaxle_core.linear_call import linear_call

__all__ = ["CustomVJPPrimal", "SymbolicZero", "closure_convert", "custom_gradient", "custom_jvp",
           "custom_jvp_call_p", "custom_vjp", "custom_vjp_call_p", "custom_vjp_primal_tree_values", "linear_call",
           "remat_opt_p", "zero_from_primal"]
