"""``jaxle.nn.initializers``: JAX 0.10.2's bits for the same keys (golden/nn_initializers_golden.json, compared
exactly), jaxprs and errors, and the draws' statistics and orthogonality checked directly."""

import pathlib
import sys

import numpy as np
import pytest

import jaxle as jax
from jaxle.nn import initializers

sys.path.insert(0, str(pathlib.Path(__file__).parent / "golden"))
sys.path.insert(0, str(pathlib.Path(__file__).parents[2] / "numpy-api" / "tests" / "golden"))

import jnp_golden  # noqa: E402 - found through the path set just above
import make_nn_initializers_golden  # noqa: E402

GOLDEN = jnp_golden.load(str(pathlib.Path(__file__).parent / "golden" / "nn_initializers_golden.json"))


@pytest.mark.parametrize("case", sorted(make_nn_initializers_golden.CASES))
def test_bits_jaxprs_and_errors_match_jax(case):
    actual, expected = jnp_golden.run_case(jax, make_nn_initializers_golden.CASES[case]), GOLDEN[case]
    jnp_golden.assert_case_matches(actual, expected)
    for got, want in zip(actual.get("values", []), expected.get("values", [])):
        assert got == want  # bit for bit, not only within tolerance


def test_variance_scaling_draws_have_the_requested_variance():
    key = jax.random.key(3)
    shape = (200, 300)  # fan_in 200, fan_out 300
    for mode, fan in [("fan_in", 200), ("fan_out", 300), ("fan_avg", 250), ("fan_geo_avg", np.sqrt(200 * 300))]:
        for distribution in ["truncated_normal", "normal", "uniform"]:
            draw = np.asarray(initializers.variance_scaling(2.0, mode, distribution)(key, shape))
            np.testing.assert_allclose(draw.var(), 2.0 / fan, rtol=0.03, err_msg=f"{mode} {distribution}")
    bounded = np.asarray(initializers.glorot_uniform()(key, shape))
    assert np.abs(bounded).max() <= np.sqrt(6 / 500)


def test_orthogonal_and_delta_orthogonal_are_orthogonal():
    key = jax.random.key(5)
    wide = np.asarray(initializers.orthogonal(scale=2.0)(key, (3, 5)), np.float64)
    np.testing.assert_allclose(wide @ wide.T, 4 * np.eye(3), atol=1e-5)
    tall = np.asarray(initializers.orthogonal()(key, (6, 2)), np.float64)
    np.testing.assert_allclose(tall.T @ tall, np.eye(2), atol=1e-5)
    kernel = np.asarray(initializers.delta_orthogonal()(key, (3, 3, 4, 4)), np.float64)
    np.testing.assert_allclose(kernel[1, 1] @ kernel[1, 1].T, np.eye(4), atol=1e-5)
    assert np.count_nonzero(kernel) == np.count_nonzero(kernel[1, 1])


def test_initializers_under_jit_and_vmap():
    keys = jax.random.split(jax.random.key(7), 3)
    init = initializers.he_normal()
    batched = jax.vmap(lambda k: init(k, (4, 3)))(keys)
    np.testing.assert_array_equal(batched[1], init(keys[1], (4, 3)))
    np.testing.assert_array_equal(jax.jit(init, static_argnums=1)(keys[0], (4, 3)), init(keys[0], (4, 3)))
