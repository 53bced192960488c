"""jaxle_random against JAX 0.10.2's values (golden/random_golden.json from golden/make_random_golden.py).

Keys, split, fold_in, bits, randint and bernoulli match bit for bit, and so do uniform's values on [0, 1).
On core's NumPy reference backend two things may differ in the last bits, and are compared to a few ulps
(test_xla.py replays every case bit for bit on XLA):
- ``normal``: the reference ``erf_inv`` is computed in float64, XLA's is a float32 expansion;
- ``uniform`` with other bounds: XLA on CPU fuses ``u * (maxval - minval) + minval`` into one
  fused multiply-add, NumPy rounds twice.
"""

import json

import make_random_golden as golden  # on the path set by conftest.py
import ml_dtypes  # noqa: F401 - registers bfloat16 with NumPy for decoding
import numpy as np
import pytest

GOLDEN = json.loads(golden.GOLDEN.read_text())
NS = golden.namespace("jaxle")
# Messages that print a JAX-internal object (a tracer of JAX's jit, JAX's PRNGImpl) jaxle cannot reproduce:
# type only.
TYPE_ONLY_ERRORS = {"error_seed_float", "error_key_shape"}


decode = golden.decode


def assert_matches(name: str, got: dict, expected: dict, exact: bool) -> None:
    if golden.compare_errors(name, got, expected, check_message=name not in TYPE_ONLY_ERRORS):
        return
    assert (got["dtype"], got["shape"]) == (expected["dtype"], expected["shape"]), name
    actual, wanted = decode(got), decode(expected)
    if exact:
        np.testing.assert_array_equal(actual.view(f"u{actual.itemsize}") if actual.dtype.kind == "f" else actual,
                                      wanted.view(f"u{wanted.itemsize}") if wanted.dtype.kind == "f" else wanted,
                                      err_msg=name)
    else:
        if actual.dtype.kind == "c":
            actual, wanted = actual.view(actual.real.dtype), wanted.view(wanted.real.dtype)
        rtol = {2: 8e-3, 4: 2e-6, 8: 1e-14}[actual.itemsize]
        np.testing.assert_allclose(actual.astype(np.float64), wanted.astype(np.float64), rtol=rtol, atol=rtol,
                                   err_msg=name)


def reference_rounds_differently(name: str) -> bool:
    return "normal" in name or "range" in name or "bounds" in name


@pytest.mark.parametrize("name", sorted(golden.CASES))
def test_golden(name):
    assert_matches(name, golden.run_case(NS, name), GOLDEN[name], exact=not reference_rounds_differently(name))
