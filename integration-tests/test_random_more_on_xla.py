"""multinomial, orthogonal, multivariate_normal, the ``jax_threefry_partitionable=False`` scheme and the
``rbg``/``unsafe_rbg`` implementations on the XLA backend: every case of golden/random_more_golden.json
replayed bit for bit (QR, Cholesky, eigh and SVD in jaxlib's LAPACK kernels, rng_bit_generator's Philox)."""

import json

import host_variants  # on the path set by conftest.py
import make_random_more_golden as golden  # on the path set by conftest.py
import pytest

import jaxle_xla  # noqa: F401 - XLA becomes the default backend

GOLDEN = json.loads(golden.GOLDEN.read_text())
VARIANTS = host_variants.load_variants(golden.GOLDEN)
NS = golden.namespace("jaxle")


@pytest.mark.parametrize("name", sorted(golden.CASES))
def test_golden_bit_for_bit(name):
    got = golden.implementation_neutral(name, golden.run_case(NS, name))
    host_variants.check(got, name, GOLDEN, VARIANTS)
