"""jax.scipy.special and jax.scipy.stats on the XLA backend: the golden cases of golden/scipy_special_golden.json,
scipy_special_x64_golden.json and scipy_stats_golden.json (JAX 0.10.2's values on CPU) replayed eagerly, bit for
bit — the package tests compare the same jaxprs on the NumPy reference backend, within a float tolerance."""

import pathlib
import sys

import numpy as np
import pytest

import jaxle_xla  # noqa: F401 - XLA becomes the default backend

_GOLDEN_DIR = pathlib.Path(__file__).parents[1] / "packages" / "numpy-api" / "tests" / "golden"
sys.path.insert(0, str(_GOLDEN_DIR))
import jnp_golden  # noqa: E402 - found through the path set above
import make_scipy_special_golden  # noqa: E402
import make_scipy_special_x64_golden  # noqa: E402
import make_scipy_stats_golden  # noqa: E402
import scipy_golden  # noqa: E402

import jaxle_core  # noqa: E402

SUITES = {
    "special": (False, make_scipy_special_golden.CASES, jnp_golden.load("scipy_special_golden.json")),
    "special_x64": (True, make_scipy_special_x64_golden.CASES, jnp_golden.load("scipy_special_x64_golden.json")),
    "stats": (False, make_scipy_stats_golden.CASES, jnp_golden.load("scipy_stats_golden.json")),
}
_INCOMPLETE_BETA = "the same jaxpr, lowered to other bits (betainc)"
# Cases whose values agree with JAX's to float rounding only; each says why.
NOT_BITS = {
    ("special", "betainc"): _INCOMPLETE_BETA,
    **dict.fromkeys([("stats", f"beta.{function}") for function in ("cdf", "logcdf", "sf", "logsf")],
                    _INCOMPLETE_BETA),
    **dict.fromkeys([("stats", name) for name in ("truncnorm.logpdf",
                                                  "truncnorm.logcdf", "poisson.entropy", "gaussian_kde.evaluate")],
                    "computed with other operations than JAX's"),
}
CASES = sorted((suite, name) for suite, (_, cases, golden) in SUITES.items() for name in cases
               if "values" in golden[name] and (suite, name) not in NOT_BITS)


def _as_array(record: dict) -> np.ndarray:
    if "real" in record:
        return np.asarray(record["real"]) + 1j * np.asarray(record["imag"])
    return np.asarray(record["values"])


@pytest.mark.parametrize("suite, name", CASES)
def test_golden_values_bit_for_bit(suite, name):
    x64, cases, golden = SUITES[suite]
    with jaxle_core.config.enable_x64(x64):
        fn, args = cases[name](scipy_golden.jaxle_namespace())
        outs = jnp_golden._leaves(fn(*args))
    expected = golden[name]["values"]
    assert len(outs) == len(expected)
    for out, want in zip(outs, expected):
        got = jnp_golden.value_record(out)
        assert (got["dtype"], got["shape"]) == (want["dtype"], want["shape"]), name
        np.testing.assert_array_equal(_as_array(got), _as_array(want), err_msg=name)
        zeros = _as_array(want) == 0
        np.testing.assert_array_equal(np.signbit(_as_array(got)[zeros]), np.signbit(_as_array(want)[zeros]))
