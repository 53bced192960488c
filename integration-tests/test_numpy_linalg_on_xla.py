"""jnp.linalg, roots and polyfit on the XLA backend: every LAPACK-backed case of golden/jnp_linalg_lapack_golden.json
(JAX 0.10.2's values on CPU) replayed eagerly, bit for bit — the same LAPACK routines called the same way, with the
same operations before and after."""

import pathlib
import sys

import pytest

import jaxle_xla  # noqa: F401 - XLA becomes the default backend

_GOLDEN_DIR = pathlib.Path(__file__).parents[1] / "packages" / "numpy-api" / "tests" / "golden"
sys.path.insert(0, str(_GOLDEN_DIR))
import jnp_golden  # noqa: E402 - found through the path set above
import make_jnp_linalg_lapack_golden  # noqa: E402
import make_jnp_linalg_lapack_x64_golden  # noqa: E402

import jaxle_core  # noqa: E402

SUITES = {False: (make_jnp_linalg_lapack_golden.CASES, jnp_golden.load("jnp_linalg_lapack_golden.json")),
          True: (make_jnp_linalg_lapack_x64_golden.CASES, jnp_golden.load("jnp_linalg_lapack_x64_golden.json"))}
CASES = sorted((x64, name) for x64, (cases, golden) in SUITES.items() for name in cases if "values" in golden[name])


@pytest.mark.parametrize("x64, name", CASES)
def test_golden_values_bit_for_bit(x64, name):
    cases, golden = SUITES[x64]
    with jaxle_core.config.enable_x64(x64):
        fn, args = cases[name](jnp_golden.jaxle_namespace())
        outs = jnp_golden._leaves(fn(*args))
    jnp_golden.assert_bit_for_bit(outs, golden[name]["values"], name)
