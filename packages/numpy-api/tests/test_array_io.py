"""jnp's arrays from bytes, strings, files and DLPack against JAX 0.10.2's records and NumPy."""

import io

import jnp_golden
import make_array_io_golden
import ml_dtypes
import numpy as np
import pytest

import jaxle_numpy as jnp
from jaxle_core import config

GOLDEN = jnp_golden.load("array_io_golden.json")


@pytest.mark.parametrize("name", sorted(make_array_io_golden.CASES))
def test_golden(name):
    expected = GOLDEN[name]
    actual = jnp_golden.run_case(jnp_golden.jaxle_namespace(), make_array_io_golden.CASES[name])
    jnp_golden.assert_case_matches(actual, expected)


@pytest.mark.parametrize("value", [np.arange(3.0, dtype=np.float32), np.arange(6).reshape(2, 3).astype(np.int8),
                                   np.array([True, False]), np.ones(2, ml_dtypes.bfloat16),
                                   np.array([1 + 2j], np.complex64)])
def test_save_then_load_round_trips(value, tmp_path):
    path = tmp_path / "x.npy"
    jnp.save(path, jnp.asarray(value))
    loaded = jnp.load(path)
    assert isinstance(loaded, jnp.ndarray) and loaded.dtype == value.dtype
    np.testing.assert_array_equal(np.asarray(loaded), value)
    assert np.load(path).shape == value.shape  # the file is NumPy's .npy


def test_load_canonicalizes_and_passes_other_things_through(tmp_path):
    buffer = io.BytesIO()
    np.save(buffer, np.arange(3.0))
    buffer.seek(0)
    assert jnp.load(buffer).dtype == np.float32
    np.save(tmp_path / "s.npy", np.array(["a"]))
    assert isinstance(jnp.load(tmp_path / "s.npy"), np.ndarray)
    jnp.savez(tmp_path / "z.npz", a=jnp.ones(2), b=np.zeros(3))
    with jnp.load(tmp_path / "z.npz") as archive:
        np.testing.assert_array_equal(archive["a"], np.ones(2, np.float32))
    with config.enable_x64(True):
        buffer.seek(0)
        assert jnp.load(buffer).dtype == np.float64


def test_frombuffer_and_fromstring_match_numpy():
    data = np.arange(5, dtype=np.int16).tobytes()
    np.testing.assert_array_equal(np.asarray(jnp.frombuffer(data, np.int16, 3, 2)), np.frombuffer(data, np.int16, 3, 2))
    np.testing.assert_array_equal(np.asarray(jnp.fromstring("1.5;2;-3", sep=";")), [1.5, 2, -3])
