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
    "attention_bfloat16": "jnp.einsum of bfloat16 operands into float32 prints JAX's precision=BF16_BF16_F32 "
                          "preset on dot_general; jaxle leaves precision unset (same result on CPU)",
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


def _attention_reference(query, key, value, bias=None, mask=None, scale=None):
    """Grouped-query attention in float64 NumPy: each key/value head serves ``N / K`` consecutive query heads."""
    query, key, value = (np.asarray(a, np.float64) for a in (query, key, value))
    groups = query.shape[2] // key.shape[2]
    key, value = np.repeat(key, groups, axis=2), np.repeat(value, groups, axis=2)
    logits = np.einsum("btnh,bsnh->bnts", query, key) * (1 / np.sqrt(query.shape[-1]) if scale is None else scale)
    if bias is not None:
        logits = logits + bias
    if mask is not None:
        logits = np.where(mask, logits, -0.7 * np.finfo(np.float32).max)
    return np.einsum("bnts,bsnh->btnh", scipy.special.softmax(logits, axis=-1), value)


def test_dot_product_attention_agrees_with_numpy():
    q, k, v = make_nn_golden.QUERY, make_nn_golden.KEY, make_nn_golden.VALUE
    np.testing.assert_allclose(jax.nn.dot_product_attention(q, k, v), _attention_reference(q, k, v), rtol=1e-5,
                               atol=1e-6)
    bias, mask = make_nn_golden.BIAS, make_nn_golden.MASK
    np.testing.assert_allclose(jax.jit(jax.nn.dot_product_attention)(q, k, v, bias, mask),
                               _attention_reference(q, k, v, bias, mask), rtol=1e-5, atol=1e-6)
    causal = np.tril(np.ones((3, 5), bool))
    np.testing.assert_allclose(jax.nn.dot_product_attention(q, k, v, is_causal=True),
                               _attention_reference(q, k, v, mask=causal), rtol=1e-5, atol=1e-6)
    lengths_q, lengths_kv = make_nn_golden.LENGTHS
    padded = (np.arange(3)[None, :, None] < lengths_q[:, None, None]) & (np.arange(5) < lengths_kv[:, None, None])
    expected = _attention_reference(q, k, v, mask=padded[:, None]) * (np.arange(3) < lengths_q[:, None])[..., None,
                                                                                                          None]
    np.testing.assert_allclose(jax.nn.dot_product_attention(q, k, v, query_seq_lengths=lengths_q,
                                                            key_value_seq_lengths=lengths_kv), expected, rtol=1e-5,
                               atol=1e-6)


def test_dot_product_attention_gradients_and_vmap():
    rng = np.random.default_rng(9)
    # float32 operands: the softmax runs in float32 whatever the input dtype, as in JAX
    q, k, v = (rng.normal(size=shape).astype(np.float32) for shape in [(1, 2, 2, 3), (1, 4, 1, 3), (1, 4, 1, 3)])
    check_grads(lambda a, b, c: jax.nn.dot_product_attention(a, b, c, is_causal=True), (q, k, v), order=1,
                modes=("rev",))
    q32, k32, v32 = make_nn_golden.QUERY, make_nn_golden.KEY, make_nn_golden.VALUE
    np.testing.assert_allclose(jax.vmap(jax.nn.dot_product_attention)(q32, k32, v32),
                               _attention_reference(q32, k32, v32), rtol=1e-5, atol=1e-6)
