"""jnp functions with static arguments run compiled when eager, and still take the unhashable forms NumPy and JAX
accept (an axis given as a list), with NumPy's results."""

import numpy as np
import pytest

import jaxle.numpy as jnp

X = np.arange(24, dtype=np.float32).reshape(2, 3, 4)


@pytest.mark.parametrize("name", ["sum", "prod", "max", "min", "mean", "any", "all", "average"])
@pytest.mark.parametrize("axis", [[-1], [0, 2], (0, 1), 1])
def test_axis_as_list_or_tuple(name, axis):
    expected = getattr(np, name)(X, axis=tuple(axis) if isinstance(axis, list) else axis)
    np.testing.assert_allclose(np.asarray(getattr(jnp, name)(jnp.asarray(X), axis=axis)), expected, rtol=1e-6)
    positional = getattr(jnp, name)(jnp.asarray(X), axis)
    np.testing.assert_allclose(np.asarray(positional), expected, rtol=1e-6)
