"""What forward-mode differentiation hands back, as JAX does: an output with a symbolic zero tangent is its primal
(not a tracer), a tangent given as a Python number or NumPy array comes out as an array of the output's type, and a
``custom_vjp`` forward rule sees arrays where the primal was given as a Python number."""

from __future__ import annotations

import numpy as np

import jaxle_core as jax
from jaxle_core import core
from jaxle_core.array import Array
from jaxle_core.avals import get_aval
from jaxle_core.custom_derivatives import custom_vjp


def test_outputs_with_zero_tangents_are_primals_not_tracers():
    seen = []

    def f(x):
        scaled, constant = jax.jit(lambda x, c: (x * 2.0, c * 3.0))(x, np.ones(2, np.float32))
        seen.append((isinstance(scaled, core.Tracer), isinstance(constant, core.Tracer)))
        return scaled + constant

    primal, tangent = jax.jvp(f, (np.arange(2.0, dtype=np.float32),), (np.ones(2, np.float32),))
    assert seen == [(True, False)]
    np.testing.assert_allclose(np.asarray(primal), [3.0, 5.0])
    np.testing.assert_allclose(np.asarray(tangent), [2.0, 2.0])


def test_a_tangent_passed_through_comes_out_as_an_array_of_the_output_type():
    _, tangent = jax.jvp(lambda x: x + 1, (1.0,), (1.0,))
    assert isinstance(tangent, Array)
    assert get_aval(tangent).dtype == np.float32 and get_aval(tangent).weak_type
    _, tangent = jax.jvp(lambda x: x - 1, (np.ones(2, np.float32),), (np.full(2, 3.0, np.float32),))
    assert isinstance(tangent, Array) and not get_aval(tangent).weak_type
    np.testing.assert_array_equal(np.asarray(tangent), [3.0, 3.0])
    # the identity hands its tangent back as given, as in JAX
    assert jax.jvp(lambda x: x, (1.0,), (1.0,)) == (1.0, 1.0)


def test_custom_vjp_forward_rule_sees_arrays_for_python_numbers():
    seen = []

    @custom_vjp
    def double(x):
        return 2 * x

    def double_fwd(x):
        seen.append(isinstance(x, (Array, core.Tracer)))
        return 2 * x, None

    double.defvjp(double_fwd, lambda _, g: (2 * g,))
    assert float(jax.grad(double)(1.0)) == 2.0
    assert seen == [True]
