"""``custom_vjp`` with ``defvjp(..., optimize_remat=True)``: the forward function staged as one ``remat_opt``
equation (inputs saved as residuals passed on as they are), then ``custom_lin``; gradients against analytic values
and finite differences under grad, jit, vmap and checkpoint; dead-code elimination swapping the forward function
for the primal one; JAX's errors; JAX 0.10.2's jaxprs."""

from __future__ import annotations

import pathlib
import sys

import numpy as np
import pytest
from jvp_checks import assert_jaxprs_match_golden, finite_difference, x64_everywhere  # noqa: F401  (autouse fixture)

import jaxle_core as jax
import jaxle_core.custom_derivatives as cd
from jaxle_core import lax
from jaxle_core.checkpoint import checkpoint
from jaxle_core.closed_call import closed_call_p
from jaxle_core.custom_derivatives import custom_vjp, remat_opt_p
from jaxle_core.jaxpr_util import dce_jaxpr

sys.path.insert(0, str(pathlib.Path(__file__).parents[1] / "golden"))
from make_remat_opt_golden import examples, render  # noqa: E402

FORWARD_ERROR = r"can't apply forward-mode autodiff \(jvp\) to a custom_vjp function\."


@pytest.fixture
def functions():
    return examples(cd, lax)


def test_jaxprs_match_jax():
    assert_jaxprs_match_golden("remat_opt_golden.json", render)


def test_gradients_match_analytic_and_finite_differences(functions):
    f, scaled_exp = functions
    x, y = 0.7, 1.3
    gx, gy = jax.grad(f, (0, 1))(x, y)
    np.testing.assert_allclose([gx, gy], [np.cos(x) * y, np.sin(x)], rtol=1e-12)
    numeric = [finite_difference(f, [x, y], direction) for direction in ([1.0, 0.0], [0.0, 1.0])]
    np.testing.assert_allclose([gx, gy], numeric, rtol=1e-6)
    np.testing.assert_allclose(jax.jit(jax.grad(f))(x, y), np.cos(x) * y, rtol=1e-12)
    xs, ys = np.linspace(0.1, 0.9, 4), np.linspace(1.0, 2.0, 4)
    np.testing.assert_allclose(jax.vmap(jax.grad(f))(xs, ys), np.cos(xs) * ys, rtol=1e-12)
    pair = {"a": 0.3, "b": 1.5}
    g = jax.grad(lambda p: scaled_exp(p, 3.0))(pair)
    np.testing.assert_allclose([g["a"], g["b"]], [np.exp(0.3) * 1.5 ** 3, np.exp(0.3) * 3 * 1.5 ** 2], rtol=1e-12)
    np.testing.assert_allclose(g["b"], finite_difference(lambda b: scaled_exp({"a": 0.3, "b": b}, 3.0), [1.5], [1.0]),
                               rtol=1e-6)


def test_checkpointed_and_second_use(functions):
    f, _ = functions
    x, y = 0.4, 2.5
    twice = jax.grad(checkpoint(lambda a, b: f(f(a, b), b) * 2.0))(x, y)
    np.testing.assert_allclose(twice, 2 * np.cos(np.sin(x) * y) * y * np.cos(x) * y, rtol=1e-12)


def test_residual_of_a_closed_over_tracer():
    def outer(x, w):
        @custom_vjp
        def scale(a):
            return lax.sin(a) * w

        scale.defvjp(lambda a: (scale(a), (lax.cos(a) * w,)), lambda res, g: (res[0] * g,), optimize_remat=True)
        return scale(x)

    np.testing.assert_allclose(jax.grad(outer)(0.3, 1.7), np.cos(0.3) * 1.7, rtol=1e-12)
    # under jit, w is a tracer the forward function closes over: an input of remat_opt (num_consts=1)
    text = str(jax.make_jaxpr(jax.grad(outer))(0.3, 1.7))
    assert "num_consts=1" in text and "num_res=1" in text
    np.testing.assert_allclose(jax.jit(jax.grad(outer))(0.3, 1.7), np.cos(0.3) * 1.7, rtol=1e-12)


def test_only_primal_outputs_read_swaps_in_the_primal_function(functions):
    f, _ = functions
    closed = jax.make_jaxpr(lambda a, b: jax.linearize(f, a, b)[0])(0.5, 2.0)
    (eqn,) = closed.jaxpr.eqns
    assert eqn.primitive is remat_opt_p and eqn.params["num_res"] == 2
    pruned, _ = dce_jaxpr(closed.jaxpr)
    (eqn,) = pruned.eqns
    inner = [e.primitive.name for e in eqn.params["call_jaxpr"].jaxpr.eqns]
    assert eqn.primitive is closed_call_p and inner == ["sin", "mul"] and len(eqn.outvars) == 1
    assert float(jax.core.eval_jaxpr(pruned, closed.consts, 0.5, 2.0)[0]) == pytest.approx(np.sin(0.5) * 2.0)


def test_only_residuals_read_drops_the_primal_output(functions):
    f, _ = functions
    closed = jax.make_jaxpr(lambda a, b: jax.linearize(f, a, b)[0])(0.5, 2.0)
    jaxpr = closed.jaxpr.replace(outvars=closed.jaxpr.eqns[0].outvars[:1])
    pruned, _ = dce_jaxpr(jaxpr)
    (eqn,) = pruned.eqns
    assert [e.primitive.name for e in eqn.params["fwd_jaxpr"].jaxpr.eqns] == ["cos"]
    assert eqn.params["num_res"] == 1
    np.testing.assert_allclose(jax.core.eval_jaxpr(pruned, [], 0.5, 2.0)[0], np.cos(0.5))


def test_forward_mode_is_refused(functions):
    f, _ = functions
    with pytest.raises(TypeError, match=FORWARD_ERROR):
        jax.jvp(f, (0.5, 2.0), (1.0, 1.0))
    with pytest.raises(TypeError, match=FORWARD_ERROR):
        jax.jvp(jax.grad(f), (0.5, 2.0), (1.0, 1.0))


def test_static_residuals_are_refused():
    @custom_vjp
    def f(x):
        return lax.sin(x)

    f.defvjp(lambda x: (f(x), (lax.cos(x), "static")), lambda res, g: (res[0] * g,), optimize_remat=True)
    with pytest.raises(TypeError, match="Argument 'static' of type <class 'str'> is not a valid JAX type"):
        jax.grad(f)(0.5)


def test_symbolic_zeros_are_refused():
    f = custom_vjp(lambda x: x)
    with pytest.raises(NotImplementedError, match="remat optimization for custom_vjp does not support symbolic zeros"):
        f.defvjp(lambda x: (x, None), lambda res, g: (g,), symbolic_zeros=True, optimize_remat=True)


def test_second_derivative_through_the_rule(functions):
    # JAX 0.10.2 fails here ("Linearization failed to produce known values"); jaxle differentiates the bwd rule
    f, _ = functions
    np.testing.assert_allclose(jax.grad(jax.grad(lambda a: f(a, 2.0)))(0.5), -np.sin(0.5) * 2.0, rtol=1e-12)
