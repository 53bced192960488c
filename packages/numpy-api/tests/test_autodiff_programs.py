"""Common autodiff programs written with jnp against JAX 0.10.2's records (staged jaxprs and values)."""

import jnp_golden
import make_autodiff_programs_golden
import numpy as np
import pytest

from jaxle_core.test_util import check_grads

GOLDEN = jnp_golden.load("autodiff_programs_golden.json")


@pytest.mark.parametrize("name", sorted(make_autodiff_programs_golden.CASES))
def test_golden(name):
    actual = jnp_golden.run_case(jnp_golden.jaxle_namespace(), make_autodiff_programs_golden.CASES[name])
    jnp_golden.assert_case_matches(actual, GOLDEN[name])


@pytest.mark.parametrize("name", ["grad_custom_jvp_rule_cumprod", "grad_custom_jvp_rule_jit",
                                  "grad_jit_custom_jvp_rule_jit", "grad_of_grad_scan_sin",
                                  "grad_of_grad_jit_scan_sin", "grad_of_jvp_fori_loop", "grad_of_jvp_jit_pad",
                                  "grad_jit_rnn", "grad_jit_checkpoint_scan"])
def test_derivatives_against_finite_differences(name):
    # the differentiated function of the case (its grad's argument) to second order, in both modes, in float64
    m = jnp_golden.jaxle_namespace()
    differentiated = []
    real_grad = m.grad
    m.grad = lambda fun: differentiated.append(fun) or real_grad(fun)
    _, args = make_autodiff_programs_golden.CASES[name](m)
    fun = differentiated[-1]
    with m.config.enable_x64(True):
        check_grads(fun, [np.asarray(a, np.float64) for a in args], order=2, modes=("fwd", "rev"))
