"""jax.scipy.special and jax.scipy.stats on the XLA backend: the golden cases of golden/scipy_special_golden.json,
scipy_special_x64_golden.json, scipy_stats_golden.json, the sweep of every function (scipy_sweep_golden.json,
scipy_sweep_x64_golden.json) and gaussian_kde (scipy_kde_golden.json, scipy_kde_x64_golden.json) — JAX 0.10.2's
values on CPU — replayed eagerly, bit for bit; the package tests compare the same jaxprs on the NumPy reference
backend, within a float tolerance."""

import jnp_golden  # found through conftest.py's path
import make_scipy_kde_golden
import make_scipy_special_golden
import make_scipy_special_x64_golden
import make_scipy_stats_golden
import make_scipy_sweep_golden
import pytest
import scipy_golden

import jaxle_core
import jaxle_xla  # noqa: F401 - XLA becomes the default backend

SUITES = {
    "special": (False, make_scipy_special_golden.CASES, jnp_golden.load("scipy_special_golden.json")),
    "special_x64": (True, make_scipy_special_x64_golden.CASES, jnp_golden.load("scipy_special_x64_golden.json")),
    "stats": (False, make_scipy_stats_golden.CASES, jnp_golden.load("scipy_stats_golden.json")),
    "sweep": (False, make_scipy_sweep_golden.CASES, jnp_golden.load("scipy_sweep_golden.json")),
    "sweep_x64": (True, make_scipy_sweep_golden.CASES_X64, jnp_golden.load("scipy_sweep_x64_golden.json")),
    "kde": (False, make_scipy_kde_golden.CASES, jnp_golden.load("scipy_kde_golden.json")),
    "kde_x64": (True, make_scipy_kde_golden.CASES_X64, jnp_golden.load("scipy_kde_x64_golden.json")),
}
# Cases whose values agree with JAX's to float rounding only; each says why.
NOT_BITS = {
    **dict.fromkeys([(suite, name) for suite in ("sweep", "sweep_x64")
                     for name in scipy_golden.cases_of(SUITES[suite][1], *scipy_golden.OWN_ALGORITHMS)],
                    "evaluated by jaxle's own series and recurrences (test_scipy_series.py)"),
    ("special_x64", "wofz_int"): "jnp.polyval's compiled loop over three complex128 values rounds its last bit "
                                 "otherwise than JAX's",
}
CASES = sorted((suite, name) for suite, (_, cases, golden) in SUITES.items() for name in cases
               if "values" in golden[name] and (suite, name) not in NOT_BITS)


@pytest.mark.parametrize("suite, name", CASES)
def test_golden_values_bit_for_bit(suite, name):
    x64, cases, golden = SUITES[suite]
    with jaxle_core.config.enable_x64(x64):
        fn, args = cases[name](scipy_golden.jaxle_namespace())
        outs = jnp_golden._leaves(fn(*args))
    jnp_golden.assert_bit_for_bit(outs, golden[name]["values"], name)
