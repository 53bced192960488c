"""multinomial, orthogonal, multivariate_normal, the ``jax_threefry_partitionable=False`` scheme and the
``rbg``/``unsafe_rbg`` implementations on the XLA backend: every case of golden/random_more_golden.json
replayed bit for bit (QR, Cholesky, eigh and SVD in jaxlib's LAPACK kernels, rng_bit_generator's Philox)."""

import importlib.util
import json
import pathlib

import pytest

import jaxle_xla  # noqa: F401 - XLA becomes the default backend

_GOLDEN_DIR = pathlib.Path(__file__).parents[1] / "packages" / "random" / "tests" / "golden"
_spec = importlib.util.spec_from_file_location("make_random_more_golden", _GOLDEN_DIR / "make_random_more_golden.py")
golden = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(golden)
GOLDEN = json.loads(golden.GOLDEN.read_text())
NS = golden.namespace("jaxle")


@pytest.mark.parametrize("name", sorted(golden.CASES))
def test_golden_bit_for_bit(name):
    assert golden.run_case(NS, name) == GOLDEN[name], name
