"""jnp's scalar types and dtype queries against JAX 0.10.2's records, and the scalar types' class behaviour."""

import json
import warnings

import jnp_golden
import make_creation_signatures
import make_scalar_types_golden
import numpy as np
import pytest

import jaxle_numpy as jnp
from jaxle_core import config

GOLDEN = jnp_golden.load("scalar_types_golden.json")
SIGNATURES = json.loads((jnp_golden.HERE / "creation_signatures.json").read_text())


@pytest.mark.parametrize("name", sorted(make_scalar_types_golden.CASES))
def test_golden(name):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UserWarning)  # 64-bit scalar types without x64
        actual = jnp_golden.run_case(jnp_golden.jaxle_namespace(), make_scalar_types_golden.CASES[name])
    jnp_golden.assert_case_matches(actual, GOLDEN[name])


def test_scalar_types_are_classes_named_like_numpy():
    assert jnp.float32.__name__ == "float32" and jnp.bool_.__name__ == "bool"
    assert np.dtype(jnp.bfloat16) == np.dtype("bfloat16")
    assert np.zeros(2, jnp.int8).dtype == np.int8  # NumPy takes them as dtypes too


def test_scalar_types_keep_64_bits_with_x64():
    with config.enable_x64(True):
        assert jnp.float64(1.5).dtype == np.float64
        assert jnp.int_(2**40).item() == 2**40
    with pytest.warns(UserWarning, match="requested in asarray"):
        assert jnp.float64(1.5).dtype == np.float32


def test_printing_goes_through_numpy_options():
    with jnp.printoptions(precision=2):
        assert jnp.get_printoptions()["precision"] == 2
        assert jnp.array_str(jnp.arange(3.0) / 3) == np.array_str(np.arange(3.0) / 3)
    assert jnp.array_repr(np.arange(2.0)) == "array([0., 1.])"


def test_ndarray_is_the_type_of_arrays_and_traced_values():
    import jaxle_core

    seen = []
    jaxle_core.jit(lambda x: seen.append(isinstance(x, jnp.ndarray)) or x)(np.float32(1))
    jaxle_core.vmap(lambda x: seen.append(isinstance(x, jnp.ndarray)) or x)(np.ones(2, np.float32))
    jaxle_core.grad(lambda x: seen.append(isinstance(x, jnp.ndarray)) or x)(np.float32(1))
    assert seen == [True, True, True]
    assert isinstance(jnp.zeros(2), jnp.ndarray) and issubclass(type(jnp.zeros(2)), jnp.ndarray)
    assert not isinstance(np.ones(2), jnp.ndarray) and not isinstance(1.0, jnp.ndarray)


@pytest.mark.parametrize("name", make_creation_signatures.NAMES)
def test_signature_is_jaxs(name):
    """Parameter names, kinds and defaults as JAX 0.10.2's (creation, ranges, matrices, grids, I/O, windows and
    the dtype queries)."""
    assert make_creation_signatures.signature_record(getattr(jnp, name)) == SIGNATURES[name]
