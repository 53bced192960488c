"""``jaxle.nn``: JAX 0.10.2's jaxprs, values, weak types and errors (golden/nn_golden.json), values against NumPy
and SciPy formulas, gradients against finite differences, and the functions under jit and vmap on XLA."""

import pathlib
import sys

import numpy as np
import pytest
import scipy.special

import jaxle as jax
from jaxle.test_util import check_grads

sys.path.insert(0, str(pathlib.Path(__file__).parent / "golden"))
sys.path.insert(0, str(pathlib.Path(__file__).parents[2] / "numpy-api" / "tests" / "golden"))

import jnp_golden  # noqa: E402 - found through the path set just above
import make_nn_golden  # noqa: E402

GOLDEN = jnp_golden.load(str(pathlib.Path(__file__).parent / "golden" / "nn_golden.json"))


# Cases compared by value only, each with the reason its jaxpr differs.
BY_VALUE = {
    "identity_grad": "JAX drops a jit's outputs that only forward its inputs from the linearized jaxpr; jaxle keeps "
                     "them (an unused jit equation)",
}


@pytest.mark.parametrize("case", sorted(make_nn_golden.CASES))
def test_matches_jax(case):
    actual, expected = jnp_golden.run_case(jax, make_nn_golden.CASES[case]), GOLDEN[case]
    if case in BY_VALUE:
        actual["jaxpr"] = expected["jaxpr"]
    jnp_golden.assert_case_matches(actual, expected)


def _sigmoid(x):
    return 1 / (1 + np.exp(-x))


def _softplus(x):
    return np.logaddexp(x, 0)


# NumPy formulas each activation is checked against (float64 reference, float32 inputs).
REFERENCES = {
    "relu": lambda x: np.maximum(x, 0),
    "relu6": lambda x: np.clip(x, 0, 6),
    "sigmoid": _sigmoid,
    "log_sigmoid": lambda x: -_softplus(-x),
    "softplus": _softplus,
    "silu": lambda x: x * _sigmoid(x),
    "swish": lambda x: x * _sigmoid(x),
    "mish": lambda x: x * np.tanh(_softplus(x)),
    "soft_sign": lambda x: x / (np.abs(x) + 1),
    "elu": lambda x: np.where(x > 0, x, np.expm1(np.minimum(x, 0))),
    "celu": lambda x: np.maximum(x, 0) + np.expm1(np.minimum(x, 0)),
    "selu": lambda x: 1.0507009873554805 * np.where(x > 0, x, 1.6732632423543772 * np.expm1(np.minimum(x, 0))),
    "leaky_relu": lambda x: np.where(x >= 0, x, 0.01 * x),
    "hard_tanh": lambda x: np.clip(x, -1, 1),
    "hard_sigmoid": lambda x: np.clip(x + 3, 0, 6) / 6,
    "hard_silu": lambda x: x * np.clip(x + 3, 0, 6) / 6,
    "sparse_plus": lambda x: np.where(x <= -1, 0, np.where(x >= 1, x, (x + 1) ** 2 / 4)),
    "sparse_sigmoid": lambda x: np.clip(x + 1, 0, 2) / 2,
    "squareplus": lambda x: (x + np.sqrt(x ** 2 + 4)) / 2,
    "gelu": lambda x: 0.5 * x * (1 + np.tanh(np.sqrt(2 / np.pi) * (x + 0.044715 * x ** 3))),
    "identity": lambda x: x,
    "tanh": np.tanh,
}
SAMPLE = np.linspace(-5, 5, 23, dtype=np.float32)


@pytest.mark.parametrize("name", sorted(REFERENCES))
def test_activation_values_agree_with_numpy_under_jit_and_vmap(name):
    f = getattr(jax.nn, name)
    expected = REFERENCES[name](SAMPLE.astype(np.float64))
    np.testing.assert_allclose(f(SAMPLE), expected, rtol=2e-6, atol=2e-6)
    np.testing.assert_allclose(jax.jit(f)(SAMPLE), expected, rtol=2e-6, atol=2e-6)
    np.testing.assert_allclose(jax.vmap(f)(SAMPLE.reshape(23, 1)), expected.reshape(23, 1), rtol=2e-6, atol=2e-6)


def test_exact_gelu_and_log1mexp_agree_with_scipy():
    np.testing.assert_allclose(jax.nn.gelu(SAMPLE, approximate=False),
                               SAMPLE * scipy.special.ndtr(SAMPLE.astype(np.float64)), rtol=2e-6, atol=2e-6)
    x = np.array([1e-6, 1e-3, 0.5, np.log(2), 3.0, 8.0], np.float32)
    np.testing.assert_allclose(jax.nn.log1mexp(x), np.log(-np.expm1(-x.astype(np.float64))), rtol=2e-6)


@pytest.mark.parametrize("name", ["celu", "elu", "gelu", "log_sigmoid", "mish", "selu", "sigmoid", "silu",
                                  "soft_sign", "softplus", "squareplus", "log1mexp"])
def test_smooth_activation_gradients(name):
    with jax.enable_x64(True):
        x = np.array([0.3, 1.7, 2.5] if name == "log1mexp" else [-2.1, -0.4, 0.6, 3.2])
        order = 2 if name in ("gelu", "softplus") else 1  # second order on two, to keep the suite fast on XLA
        check_grads(getattr(jax.nn, name), (x,), order=order, modes=("fwd", "rev"))


def test_gradients_at_the_kinks_are_chosen_as_jax_does():
    kinks = np.array([-1.0, 0.0, 1.0, 6.0], np.float32)
    np.testing.assert_array_equal(jax.vmap(jax.grad(jax.nn.relu))(kinks), [0, 0, 1, 1])
    np.testing.assert_array_equal(jax.vmap(jax.grad(jax.nn.relu6))(kinks), [0, 0, 1, 0])
    np.testing.assert_array_equal(jax.vmap(jax.grad(jax.nn.leaky_relu))(kinks), np.float32([0.01, 1, 1, 1]))
    np.testing.assert_array_equal(jax.vmap(jax.grad(jax.nn.hard_tanh))(kinks), [1, 1, 1, 0])


def test_softplus_and_log_softmax_are_stable_far_from_zero():
    big = np.array([-1e4, -100.0, 100.0, 1e4], np.float32)
    np.testing.assert_allclose(jax.nn.softplus(big), [0, 3.7200760e-44, 100, 1e4], rtol=1e-6, atol=1e-38)
    np.testing.assert_array_equal(jax.vmap(jax.grad(jax.nn.softplus))(big), [0, 0, 1, 1])
    np.testing.assert_allclose(jax.nn.log_softmax(np.array([1e4, 0.0], np.float32)), [0, -1e4])
    assert np.isfinite(jax.grad(lambda x: jax.nn.log_softmax(x)[1])(np.array([1e4, 0.0], np.float32))).all()


def test_softmax_family_agrees_with_scipy():
    x = jnp_golden.rand((3, 5), "float32", seed=1)
    np.testing.assert_allclose(jax.nn.softmax(x), scipy.special.softmax(x, axis=-1), rtol=1e-6)
    np.testing.assert_allclose(jax.nn.log_softmax(x, axis=0), scipy.special.log_softmax(x, axis=0), rtol=1e-5)
    np.testing.assert_allclose(jax.nn.logsumexp(x, axis=1), scipy.special.logsumexp(x, axis=1), rtol=1e-6)
    np.testing.assert_allclose(jax.nn.logmeanexp(x, axis=1), scipy.special.logsumexp(x, axis=1) - np.log(5),
                               rtol=1e-6)
    mask = x > 0
    masked = np.where(mask, np.exp(x), 0)
    np.testing.assert_allclose(jax.nn.softmax(x, where=mask), masked / masked.sum(-1, keepdims=True), rtol=1e-6)
    assert jax.nn.logsumexp is jax.scipy.special.logsumexp


def test_standardize_agrees_with_numpy():
    x = jnp_golden.rand((3, 6), "float32", seed=2)
    expected = (x - x.mean(-1, keepdims=True)) / np.sqrt(x.var(-1, keepdims=True) + 1e-5)
    np.testing.assert_allclose(jax.nn.standardize(x), expected, rtol=1e-5, atol=1e-6)
    np.testing.assert_allclose(jax.nn.standardize(x, algorithm="stable"), expected, rtol=1e-5, atol=1e-6)


def test_one_hot_agrees_with_numpy_and_vmaps():
    labels = np.array([[0, 3, 1], [2, -1, 4]], np.int32)
    expected = (labels[..., None] == np.arange(4)).astype(np.float32)
    np.testing.assert_array_equal(jax.nn.one_hot(labels, 4), expected)
    np.testing.assert_array_equal(jax.vmap(lambda row: jax.nn.one_hot(row, 4))(labels), expected)
    np.testing.assert_array_equal(jax.nn.one_hot(labels, 4, axis=0), np.moveaxis(expected, -1, 0))
