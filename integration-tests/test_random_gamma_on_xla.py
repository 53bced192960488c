"""jaxle_random's gamma family on the XLA backend: every case of golden/random_gamma_golden.json replayed
bit for bit (the rejection loops, erf_inv and fused multiply-adds round as in JAX's compiled sampler, and the
gradients' lax.map loop over random_gamma_grad as in JAX's)."""

import json

import host_variants  # on the path set by conftest.py
import make_random_gamma_golden as golden  # on the path set by conftest.py
import pytest

import jaxle_xla  # noqa: F401 - XLA becomes the default backend

GOLDEN = json.loads(golden.GOLDEN.read_text())
VARIANTS = host_variants.load_variants(golden.GOLDEN)
NS = golden.namespace("jaxle")


@pytest.mark.parametrize("name", sorted(golden.CASES))
def test_golden_bit_for_bit(name):
    host_variants.check(golden.run_case(NS, name), name, GOLDEN, VARIANTS)
