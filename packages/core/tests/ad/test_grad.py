"""Reverse mode: ``grad``, ``value_and_grad``, ``vjp``, ``linearize``, ``linear_transpose`` and the Jacobians,
checked against analytic derivatives, finite differences, JAX's errors and JAX 0.10.2's jaxprs."""

from __future__ import annotations

import pathlib
import sys

import numpy as np
import pytest
from jvp_checks import assert_jaxprs_match_golden, finite_difference, x64_everywhere  # noqa: F401  (autouse fixture)

import jaxle_core as jax
from jaxle_core import dtypes, lax
from jaxle_core.config import enable_x64

GOLDEN_DIR = pathlib.Path(__file__).parents[1] / "golden"
sys.path.insert(0, str(GOLDEN_DIR))
from make_grad_golden import render  # noqa: E402

f32, f64 = np.float32, np.float64


def close(value, expected, rtol=1e-7, atol=1e-9):
    np.testing.assert_allclose(np.asarray(value), expected, rtol=rtol, atol=atol)


# ---------------------------------------------------------------- values


@pytest.mark.parametrize("name", ["sin", "cos", "tanh", "exp", "log", "sqrt", "logistic", "atan", "cbrt"])
def test_grad_of_unary_functions_matches_finite_differences(name):
    fn = getattr(lax, name)
    for x in (0.3, 0.9, 2.5):
        close(jax.grad(fn)(f64(x)), finite_difference(fn, [f64(x)], [1.0]), rtol=1e-6)


def test_vjp_is_the_transpose_of_jvp():
    rng = np.random.default_rng(0)
    w = rng.normal(size=(3, 4))
    x = rng.normal(size=(2, 3))

    def f(w, x):
        return lax.tanh(lax.dot_general(x, w, (((1,), (0,)), ((), ())))) * 2.0 + lax.sin(x[0, 0])

    t_w, t_x, ct = rng.normal(size=w.shape), rng.normal(size=x.shape), rng.normal(size=(2, 4))
    _, tangent = jax.jvp(f, (w, x), (t_w, t_x))
    _, f_vjp = jax.vjp(f, w, x)
    ct_w, ct_x = f_vjp(ct)
    close(np.sum(ct * np.asarray(tangent)), np.sum(np.asarray(ct_w) * t_w) + np.sum(np.asarray(ct_x) * t_x))


def test_pytree_arguments_and_argnums():
    def loss(params, x):
        return lax.reduce_sum(lax.tanh(x @ params["w"] + params["b"]), (0,))

    params = {"w": np.full((3,), 0.1), "b": f64(0.2)}
    x = np.arange(6.0).reshape(2, 3) / 6
    g = jax.grad(loss)(params, x)
    assert set(g) == {"w", "b"} and g["w"].shape == (3,) and g["b"].shape == ()
    eps = 1e-6
    for key in ("w", "b"):
        for index in np.ndindex(np.shape(params[key])):
            bumped = {k: np.array(v, copy=True) for k, v in params.items()}
            bumped[key][index] += eps
            down = {k: np.array(v, copy=True) for k, v in params.items()}
            down[key][index] -= eps
            fd = (float(loss(bumped, x)) - float(loss(down, x))) / (2 * eps)
            close(np.asarray(g[key])[index], fd, rtol=1e-6)
    gp, gx = jax.grad(loss, argnums=(0, 1))(params, x)
    close(gp["b"], g["b"])
    assert gx.shape == x.shape
    close(jax.grad(loss, argnums=-1)(params, x), gx)


def test_higher_order_and_mixed_modes():
    f = lax.sin
    close(jax.grad(jax.grad(jax.grad(f)))(0.7), -np.cos(0.7))
    close(jax.jacfwd(jax.jacrev(lambda x: x ** 4))(1.5), 12 * 1.5 ** 2)
    close(jax.grad(lambda x: jax.jvp(lax.exp, (x,), (1.0,))[1])(0.3), np.exp(0.3))


def test_grad_through_python_control_flow_with_concrete_values():
    def f(x):
        return lax.sin(x) if x > 0 else lax.cos(x)

    close(jax.grad(f)(1.0), np.cos(1.0))
    close(jax.grad(f)(-1.0), np.sin(1.0))

    def loop(x, n):
        for _ in range(int(n)):
            x = x * 1.5
        return x

    close(jax.grad(loop)(2.0, 3), 1.5 ** 3)


def test_grad_of_jitted_function_and_jit_of_grad():
    inner = jax.jit(lambda x: lax.sin(x) * x)
    close(jax.grad(lambda x: inner(x) * 2)(0.5), 2 * (np.sin(0.5) + 0.5 * np.cos(0.5)))
    close(jax.jit(jax.grad(lambda x: lax.sin(x) * x))(0.5), np.sin(0.5) + 0.5 * np.cos(0.5))
    close(jax.grad(jax.grad(inner))(0.5), 2 * np.cos(0.5) - 0.5 * np.sin(0.5))


def test_value_and_grad_has_aux_returns_aux_undifferentiated():
    (value, aux), g = jax.value_and_grad(lambda x: (x ** 2, {"s": lax.sin(x)}), has_aux=True)(3.0)
    close(value, 9.0)
    close(aux["s"], np.sin(3.0))
    close(g, 6.0)
    g, aux = jax.grad(lambda x: (x ** 2, 7), has_aux=True)(3.0)
    assert aux == 7
    close(g, 6.0)


def test_holomorphic_and_complex_inputs():
    z = np.complex128(1 + 2j)
    close(jax.grad(lambda z: z * z, holomorphic=True)(z), 2 * z)
    # grad of a real function of a complex input: JAX's convention gives df/dx - i df/dy (values from JAX 0.10.2).
    close(jax.grad(lambda z: lax.real(z * lax.conj(z)))(z), 2 - 4j)
    close(jax.grad(lambda z: lax.imag(z * z))(z), 4 - 2j)
    close(jax.grad(lax.abs)(z), (1 - 2j) / np.sqrt(5))


def test_integer_inputs_with_allow_int_get_float0_zeros():
    gx, gi = jax.grad(lambda x, i: x * i, argnums=(0, 1), allow_int=True)(2.0, 3)
    close(gx, 3.0)
    assert gi.dtype == dtypes.float0 and gi.shape == ()
    _, f_vjp = jax.vjp(lambda x, i: x * i, 2.0, np.arange(3))
    ct_x, ct_i = f_vjp(np.ones(3))
    close(ct_x, 3.0)
    assert ct_i.dtype == dtypes.float0 and ct_i.shape == (3,)


def test_result_types_follow_the_inputs():
    with enable_x64(False):
        g = jax.grad(lambda x: x * 2)(1.0)
        assert g.dtype == np.float32 and g.weak_type
        g = jax.grad(lambda x: x * 2)(f32(1.0))
        assert g.dtype == np.float32 and not g.weak_type
        assert isinstance(jax.grad(lambda x: x)(f32(1.0)), jax.Array)


def test_linearize_evaluates_the_jvp_repeatedly():
    def f(x):
        return 3.0 * lax.sin(x) + lax.cos(x / 2.0)

    y, f_jvp = jax.linearize(f, 2.0)
    close(y, f(2.0))
    for t in (1.0, 3.0, -2.0):
        close(f_jvp(t), jax.jvp(f, (2.0,), (t,))[1])


def test_linear_transpose():
    a = np.arange(6.0).reshape(2, 3)
    transpose = jax.linear_transpose(lambda x: a @ x, np.zeros(3))
    (ct,) = transpose(np.array([1.0, -1.0]))
    close(ct, a.T @ np.array([1.0, -1.0]))
    (c,) = jax.linear_transpose(lambda x: x + 1.0, 1.0)(2.0)  # the constant part is ignored, as in JAX
    close(c, 2.0)
    ints = jax.linear_transpose(lambda i: i * 2, np.int32(1))(np.int32(3))
    assert ints[0].dtype == np.int32 and int(ints[0]) == 6


def test_jacobians_have_tree_product_structure():
    def f(x):
        return {"a": x["u"] * 2.0, "b": x["v"] * x["v"]}

    x = {"u": np.ones(2), "v": f64(3.0)}
    for jac in (jax.jacfwd(f)(x), jax.jacrev(f)(x)):
        close(jac["a"]["u"], 2 * np.eye(2))
        close(jac["a"]["v"], np.zeros(2))
        close(jac["b"]["u"], np.zeros(2))
        close(jac["b"]["v"], 6.0)
    h = jax.hessian(lambda x, y: lax.reduce_sum(x * x * y, (0,)), argnums=(0, 1))(np.array([1.0, 2.0]), 3.0)
    close(h[0][0], 6 * np.eye(2))
    close(h[0][1], [2.0, 4.0])
    close(h[1][0], [2.0, 4.0])
    close(h[1][1], 0.0)


# ---------------------------------------------------------------- errors as JAX gives them


def test_errors():
    with pytest.raises(TypeError, match="Gradient only defined for scalar-output functions. Output had shape: "
                                        r"\(3,\)"):
        jax.grad(lambda x: x * 2)(np.ones(3))
    with pytest.raises(TypeError, match="grad requires real- or complex-valued inputs .* but got int32"):
        jax.grad(lambda x: x * 2)(np.int32(1))
    with pytest.raises(TypeError, match="grad requires real-valued outputs .* but got int32"):
        jax.grad(lambda x: x * 2, allow_int=True)(np.int32(1))
    with pytest.raises(TypeError, match="grad requires real-valued outputs .* but got complex128. For holomorphic"):
        jax.grad(lambda x: x * 2)(np.complex128(1))
    with pytest.raises(TypeError, match="grad with holomorphic=True requires inputs with complex dtype, but got "
                                        "float64"):
        jax.grad(lambda x: x, holomorphic=True)(1.0)
    with pytest.raises(TypeError, match="Gradient only defined for scalar-output functions. Output was None"):
        jax.grad(lambda x: None)(1.0)
    with pytest.raises(TypeError, match="expected function with aux output to return a two-element tuple"):
        jax.grad(lambda x: x, has_aux=True)(1.0)
    with pytest.raises(TypeError, match="differentiating with respect to argnums=2 requires at least 3 positional "
                                        "arguments"):
        jax.grad(lambda x, y: x * y, argnums=2)(1.0, 2.0)
    for transform in (jax.grad, jax.jacrev, jax.jacfwd):  # JAX fails inside ``fun``, also with a TypeError
        with pytest.raises(TypeError, match="names positional argument 1 more than once"):
            transform(lambda x, y: x * y, argnums=(1, -1))(1.0, 2.0)
    with pytest.raises(TypeError, match="is not a valid JAX type"):
        jax.grad(lambda x: x)("a")
    _, f_vjp = jax.vjp(lambda x: x * 2, 1.0)
    with pytest.raises(ValueError, match="unexpected JAX type .* got float64\\[2\\], but expected float64\\[\\]"):
        f_vjp(np.ones(2))
    with pytest.raises(ValueError, match="unexpected tree structure"):
        f_vjp((1.0,))
    with pytest.raises(TypeError, match="jacfwd requires real-valued inputs"):
        jax.jacfwd(lambda x: x)(np.int32(1))
    with pytest.raises(TypeError, match="jacrev requires real-valued outputs .* but got complex128"):
        jax.jacrev(lambda x: lax.convert_element_type(x, np.complex128))(np.ones(2))
    with pytest.raises(TypeError, match=r"linear_transpose only supports \[float or complex\] -> \[float or "
                                        r"complex\], and integer -> integer functions"):
        jax.linear_transpose(lambda x: lax.convert_element_type(x, np.int32), 1.0)
    with pytest.raises(TypeError, match="not linear"):
        jax.linear_transpose(lambda x: x * x, 1.0)(1.0)
    with pytest.raises(ValueError, match="linearized function called on tangent values inconsistent"):
        jax.linearize(lambda x: x * 2, 1.0)[1](np.ones(3))

    def merge(a, b):
        return a + b + a * b

    with pytest.raises(ValueError, match="Linearization failed to produce known values for all output primals"):
        jax.grad(lambda x: lax.reduce_sum(lax.reduce_window(x, 0.0, merge, (2, 2), (1, 2), "VALID"), (0, 1)))(
            np.ones((3, 4)))


# ---------------------------------------------------------------- jaxprs against JAX 0.10.2

def test_jaxprs_match_jax():
    assert_jaxprs_match_golden("grad_golden.json", render)


# ---------------------------------------------------------------- fwd_and_bwd


@pytest.mark.parametrize("jitted", [True, False])
def test_fwd_and_bwd_match_vjp(jitted):
    def f(x, w):
        return lax.sin(x) * w

    fwd, bwd = jax.fwd_and_bwd(f, argnums=0, jitted=jitted)
    y, residuals = fwd(2.0, 3.0)
    assert float(y) == pytest.approx(np.sin(2.0) * 3.0) and float(bwd(residuals, 1.0)) == pytest.approx(np.cos(2.0) * 3)
    fwd, bwd = jax.fwd_and_bwd(lambda x, w: (f(x, w), x * 2), argnums=(0, 1), has_aux=True, jitted=jitted)
    y, residuals, aux = fwd(2.0, 3.0)
    dx, dw = bwd(residuals, 2.0)
    assert float(aux) == 4.0 and float(dw) == pytest.approx(2 * np.sin(2.0))


def test_block_until_ready_returns_its_pytree():
    tree = {"a": lax.sin(np.float32(1.0)), "b": [None, "text", 3]}
    assert jax.block_until_ready(tree) is tree and jax.copy_to_host_async(tree) is tree
