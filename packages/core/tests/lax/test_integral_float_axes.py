"""The axes JAX 0.10.2 also takes as integral floats (``axis=1.0``) behave as the integer axis; a fractional one,
which JAX truncates silently, raises TypeError."""

import numpy as np
import pytest

import jaxle_core
from jaxle_core import lax

X = np.arange(6, dtype=np.float32).reshape(2, 3)
USES = {
    "cumsum": lambda axis: lax.cumsum(X, axis=axis),
    "broadcasted_iota": lambda axis: lax.broadcasted_iota(np.int32, (2, 3), axis),
    "index_in_dim": lambda axis: lax.index_in_dim(X, 1, axis=axis),
    "dynamic_index_in_dim": lambda axis: lax.dynamic_index_in_dim(X, 1, axis=axis),
    "dynamic_slice_in_dim": lambda axis: lax.dynamic_slice_in_dim(X, 1, 1, axis=axis),
    "dynamic_update_slice_in_dim": lambda axis: lax.dynamic_update_slice_in_dim(X, X[:, :1], 1, axis=axis),
    "dynamic_update_index_in_dim": lambda axis: lax.dynamic_update_index_in_dim(X, X[:, :1], 1, axis=axis),
}


@pytest.mark.parametrize("name", sorted(USES))
def test_an_integral_float_axis_is_the_integer_axis(name):
    use = USES[name]
    np.testing.assert_array_equal(np.asarray(use(1.0)), np.asarray(use(1)))
    np.testing.assert_array_equal(np.asarray(use(np.float32(1))), np.asarray(use(1)))
    assert str(jaxle_core.make_jaxpr(lambda: use(1.0))()) == str(jaxle_core.make_jaxpr(lambda: use(1))())


@pytest.mark.parametrize("name", sorted(USES))
def test_a_fractional_axis_is_refused(name):
    with pytest.raises(TypeError, match="'float' object cannot be interpreted as an integer"):
        USES[name](1.5)
