"""``jax.ops`` segment reductions against JAX 0.10.2 (golden/make_ops_golden.py: jaxprs, values, errors) and NumPy."""

import jnp_golden
import make_ops_golden
import numpy as np
import pytest

import jaxle_numpy.ops as ops

GOLDEN = jnp_golden.load("ops_golden.json")
CASES = make_ops_golden.CASES


@pytest.fixture(scope="module")
def namespace():
    m = jnp_golden.jaxle_namespace()
    m.ops = ops
    return m


@pytest.mark.parametrize("name", sorted(CASES))
def test_matches_jax(name, namespace):
    jnp_golden.assert_case_matches(jnp_golden.run_case(namespace, CASES[name]), GOLDEN[name])


def test_against_numpy():
    rng = np.random.default_rng(0)
    data = rng.normal(size=(20, 3)).astype(np.float32)
    ids = rng.integers(0, 6, size=20)
    for name, combine, identity in [("segment_sum", np.add, 0.0), ("segment_prod", np.multiply, 1.0),
                                    ("segment_max", np.maximum, -np.inf), ("segment_min", np.minimum, np.inf)]:
        expected = np.full((7, 3), identity, np.float32)
        combine.at(expected, ids, data)
        np.testing.assert_allclose(getattr(ops, name)(data, ids, 7), expected, rtol=1e-5, err_msg=name)
        np.testing.assert_allclose(getattr(ops, name)(data, ids, 7, bucket_size=3), expected, rtol=1e-5,
                                   err_msg=name)
    np.testing.assert_allclose(ops.segment_sum(data, ids), np.asarray(ops.segment_sum(data, ids, int(ids.max()) + 1)))
