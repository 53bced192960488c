"""``jax_numpy_rank_promotion``: implicit rank promotion is allowed, warned about or refused, as in JAX 0.10.2."""

import warnings

import numpy as np
import pytest

import jaxle_numpy as jnp
from jaxle_core.config import numpy_rank_promotion

DOCS = "https://docs.jax.dev/en/latest/rank_promotion_warning.html"


def test_raise_refuses_different_non_scalar_ranks():
    with numpy_rank_promotion("raise"):
        with pytest.raises(ValueError) as info:
            jnp.ones(3) + jnp.ones((2, 3))
        assert str(info.value) == ("Operands could not be broadcast together for add on shapes (3,) (2, 3) and with "
                                   f"the config option jax_numpy_rank_promotion='raise'. For more information, see "
                                   f"{DOCS}.")
        # Scalars and equal ranks broadcast without rank promotion.
        assert (jnp.ones(()) + jnp.ones(2)).shape == (2,)
        assert (jnp.ones((1, 3)) * 2.0 + jnp.ones((2, 3))).shape == (2, 3)


def test_warn_warns_and_computes():
    with numpy_rank_promotion("warn"), warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        out = jnp.multiply(jnp.ones(3), jnp.full((2, 3), 2.0))
    np.testing.assert_array_equal(out, np.full((2, 3), 2.0))
    assert [str(w.message) for w in caught] == [
        "Following NumPy automatic rank promotion for multiply on shapes (3,) (2, 3). Set the "
        f"jax_numpy_rank_promotion config option to 'allow' to disable this warning; for more information, see {DOCS}."]


def test_allow_is_the_default():
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert (jnp.ones(3) + jnp.ones((2, 3))).shape == (2, 3)
