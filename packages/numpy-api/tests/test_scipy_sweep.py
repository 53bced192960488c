"""The sweep of ``jax.scipy.special`` and ``jax.scipy.stats`` (golden/make_scipy_sweep_golden.py): every public
function of ``special``, every method of every ``stats`` distribution and the ``stats`` functions replayed against
JAX 0.10.2's records, in float32 and with 64-bit types: jaxpr text, values (within a float tolerance on the NumPy
reference backend; integration-tests/test_scipy_special_on_xla.py replays them bit for bit on XLA), weak types and
errors. The differences left are listed below, each with its cause."""

import sys

import pytest

from jaxle_core import config

sys.path.insert(0, str(__import__("pathlib").Path(__file__).parent / "golden"))
import jnp_golden  # noqa: E402
import scipy_golden  # noqa: E402
from make_scipy_sweep_golden import CASES, CASES_X64  # noqa: E402

GOLDEN = jnp_golden.load("scipy_sweep_golden.json")
GOLDEN_X64 = jnp_golden.load("scipy_sweep_x64_golden.json")


BOTH = (False, True)
# Cases whose values differ from JAX's beyond float rounding, each with why.
VALUES_DIFFER = {
    **{(x64, "special.sici_edges"): "at +-inf jaxle's series give NaN, JAX's +-pi/2" for x64 in BOTH},
    **{(x64, "special.spence_edges"): "at inf jaxle's series give -inf, JAX's NaN" for x64 in BOTH},
    **{(x64, "special.hyp2f1_broadcast"): "at x = 0.99 with c - a - b < 0 the two series stop at other values"
       for x64 in BOTH},
}
_WHERE_SHARED = ("the jitted `_where` helper, called with operands that differ in weak type only, is shared between "
                 "its call sites otherwise than in JAX")
# Cases of the other functions whose jaxprs differ from JAX's, each with why.
JAXPR_DIFFERS = {
    **{(x64, "special.zeta_broadcast"): "JAX broadcasts the operands inside the custom_jvp function, jaxle before it"
       for x64 in BOTH},
    **{(x64, name): _WHERE_SHARED for x64 in BOTH
       for name in ("special.kl_div_py", "special.rel_entr_py", "stats.binom.logpmf_py", "stats.binom.pmf_py",
                    "stats.betabinom.logpmf_py", "stats.betabinom.pmf_py", "stats.poisson.logpmf_py",
                    "stats.poisson.pmf_py")},
}


def _replay(x64: bool, name: str, build, expected: dict) -> None:
    with config.enable_x64(x64):
        actual = jnp_golden.run_case(scipy_golden.jaxle_namespace(), build)
    if "error" not in expected and "error" not in actual:
        if scipy_golden.cases_of({name: None}, *scipy_golden.OWN_ALGORITHMS) or (x64, name) in JAXPR_DIFFERS:
            actual, expected = {**actual, "jaxpr": ""}, {**expected, "jaxpr": ""}
        if (x64, name) in VALUES_DIFFER:
            actual, expected = {**actual, "values": []}, {**expected, "values": []}
    jnp_golden.assert_case_matches(actual, expected)


@pytest.mark.parametrize("name", sorted(CASES))
def test_sweep(name):
    _replay(False, name, CASES[name], GOLDEN[name])


@pytest.mark.parametrize("name", sorted(CASES_X64))
def test_sweep_x64(name):
    _replay(True, name, CASES_X64[name], GOLDEN_X64[name])


def test_sweep_covers_every_public_name():
    """Every function of ``special``, every distribution and every function of ``stats`` named in the golden record
    of JAX 0.10.2's names (golden/scipy_names.json) is called by the sweep (``gaussian_kde``, a class, has its own
    golden cases in test_scipy_stats.py)."""
    names = jnp_golden.load("scipy_names.json")
    for function in names["special"]:
        assert scipy_golden.cases_of(CASES, f"special.{function}"), function
    for module in names["stats_modules"]:
        assert any(name.startswith(f"stats.{module}.") for name in CASES), module
    for function in set(names["stats"]) - set(names["stats_modules"]) - {"gaussian_kde"}:
        assert scipy_golden.cases_of(CASES, f"stats.{function}"), function
