"""jax.scipy.signal, optimize, sparse.linalg and interpolate on the XLA backend: every case of
golden/scipy_signal_golden.json and its 64-bit form (JAX 0.10.2's values on CPU) replayed eagerly, bit for bit."""

import pathlib
import sys

import pytest

import jaxle_xla  # noqa: F401 - XLA becomes the default backend

_GOLDEN_DIR = pathlib.Path(__file__).parents[1] / "packages" / "numpy-api" / "tests" / "golden"
sys.path.insert(0, str(_GOLDEN_DIR))
import jnp_golden  # noqa: E402 - found through the path set above
import make_scipy_signal_golden  # noqa: E402
import make_scipy_signal_x64_golden  # noqa: E402
import scipy_golden  # noqa: E402

import jaxle_core  # noqa: E402

SUITES = {False: (make_scipy_signal_golden.CASES, jnp_golden.load("scipy_signal_golden.json")),
          True: (make_scipy_signal_x64_golden.CASES, jnp_golden.load("scipy_signal_x64_golden.json"))}
CASES = sorted((x64, name) for x64, (cases, golden) in SUITES.items() for name in cases if "values" in golden[name])


@pytest.mark.parametrize("x64, name", CASES)
def test_golden_values_bit_for_bit(x64, name):
    cases, golden = SUITES[x64]
    with jaxle_core.config.enable_x64(x64):
        fn, args = cases[name](scipy_golden.jaxle_namespace())
        jnp_golden.assert_bit_for_bit(jnp_golden._leaves(fn(*args)), golden[name]["values"], name)
