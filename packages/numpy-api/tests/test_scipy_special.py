"""``jax.scipy.special``'s elementwise functions: JAX 0.10.2's jaxprs, values, weak types and errors
(golden/make_scipy_special_golden.py; make_scipy_special_x64_golden.py for the float64 evaluations); values against
SciPy in float32 and float64 over ordinary and edge values; gradients against finite differences; jit and vmap."""

import sys

import numpy as np
import pytest
import scipy.special

from jaxle_core import config, jit, vmap
from jaxle_core.test_util import check_grads
from jaxle_numpy.scipy import special

sys.path.insert(0, str(__import__("pathlib").Path(__file__).parent / "golden"))
import jnp_golden  # noqa: E402
import scipy_golden  # noqa: E402
from make_scipy_special_golden import CASES  # noqa: E402
from make_scipy_special_x64_golden import CASES as CASES_X64  # noqa: E402

GOLDEN = jnp_golden.load("scipy_special_golden.json")
GOLDEN_X64 = jnp_golden.load("scipy_special_x64_golden.json")


# Cases whose values, weak types and errors match JAX's but whose jaxprs differ; each says why.
JAXPR_DIFFERS: dict[str, str] = {}


@pytest.mark.parametrize("name", sorted(CASES))
def test_golden(name):
    scipy_golden.assert_case_matches(CASES[name], GOLDEN[name], jaxpr_differs=name in JAXPR_DIFFERS)


@pytest.mark.parametrize("name", sorted(CASES_X64))
def test_golden_x64(name):
    with config.enable_x64(True):
        scipy_golden.assert_case_matches(CASES_X64[name], GOLDEN_X64[name])


RNG = np.random.default_rng(0)
# ordinary values (edge values, where SciPy and JAX disagree, are in the golden cases)
REAL = np.concatenate([RNG.uniform(-6, 6, 14), [-2.5, 1e-3, 30.0]])
POSITIVE = np.concatenate([RNG.uniform(0.05, 12, 14), [1.0, 2.0, 1e-3]])
UNIT = np.concatenate([RNG.uniform(0, 1, 12), [0.0, 1.0, 1e-6, 1 - 1e-6, 1.5]])

UNARY = {
    "erf": REAL, "erfc": REAL, "erfinv": 2 * UNIT - 1, "erfcx": REAL, "ndtr": REAL, "ndtri": UNIT, "log_ndtr": REAL,
    "gammaln": REAL, "digamma": REAL, "gamma": REAL, "gammasgn": REAL, "loggamma": POSITIVE, "i0": REAL,
    "i0e": REAL, "i1": REAL, "i1e": REAL, "expit": REAL, "logit": UNIT, "entr": REAL, "factorial": POSITIVE,
}
BINARY = {
    "xlogy": (REAL, POSITIVE),
    "gammainc": (np.resize(POSITIVE, 17), np.resize(POSITIVE[::-1], 17)),
    "gammaincc": (np.resize(POSITIVE, 17), np.resize(POSITIVE[::-1], 17)),
    "betaln": (np.resize(POSITIVE, 17), np.resize(POSITIVE[::-1] * 3, 17)),
    "beta": (np.resize(POSITIVE, 17) / 2, np.resize(POSITIVE[::-1], 17) / 2),
    "rel_entr": (UNIT, np.resize(POSITIVE, UNIT.shape)),
    "kl_div": (UNIT, np.resize(POSITIVE, UNIT.shape)),
    "xlog1py": (REAL, np.resize(POSITIVE, REAL.shape) - 0.5),
    "zeta": (np.resize(POSITIVE, 17) + 1.5, np.resize(POSITIVE[::-1], 17) + 0.5),
    "poch": (np.resize(POSITIVE, 17) / 3 + 0.1, np.resize(POSITIVE[::-1], 17) / 4),
    "boxcox": (np.resize(POSITIVE, 17), np.resize(REAL, 17) / 3),
    "boxcox1p": (np.resize(POSITIVE, 17), np.resize(REAL, 17) / 3),
}
# float32 tolerances: functions near a pole or evaluated through an exponential of a large value lose more digits
RTOL32 = {"gamma": 1e-4, "beta": 2e-4, "poch": 1e-4, "zeta": 1e-5, "ndtri": 2e-5, "factorial": 1e-4, "erfinv": 2e-5,
          "gammainc": 5e-5, "gammaincc": 5e-5, "betaln": 2e-5, "logit": 2e-5, "digamma": 5e-5}
RTOL64 = {"log_ndtr": 1e-8, "betaln": 1e-6, "beta": 1e-6}  # JAX's series (log_ndtr below -20, betaln from 8)


def _compare(name, got, want, rtol, atol):
    got, want = np.asarray(got, np.float64), np.asarray(want).astype(np.asarray(got).dtype).astype(np.float64)
    finite = np.isfinite(want)
    np.testing.assert_array_equal(np.isnan(got), np.isnan(want), err_msg=name)
    np.testing.assert_array_equal(got[~finite & ~np.isnan(want)], want[~finite & ~np.isnan(want)], err_msg=name)
    np.testing.assert_allclose(got[finite], want[finite], rtol=rtol, atol=atol, err_msg=name)


def _reference(name):
    return getattr(scipy.special, name)


@pytest.mark.parametrize("x64", [False, True])
@pytest.mark.parametrize("name", sorted(UNARY))
def test_unary_against_scipy(name, x64):
    x = UNARY[name]
    dtype = np.float64 if x64 else np.float32
    want = _reference(name)(x.astype(dtype).astype(np.float64))
    with config.enable_x64(x64):
        got = getattr(special, name)(x.astype(dtype))
        assert got.dtype == dtype
    _compare(name, got, want, RTOL64.get(name, 1e-10) if x64 else RTOL32.get(name, 5e-6), 1e-300 if x64 else 1e-6)


@pytest.mark.parametrize("x64", [False, True])
@pytest.mark.parametrize("name", sorted(BINARY))
def test_binary_against_scipy(name, x64):
    a, b = BINARY[name]
    dtype = np.float64 if x64 else np.float32
    want = _reference(name)(a.astype(dtype).astype(np.float64), b.astype(dtype).astype(np.float64))
    with config.enable_x64(x64):
        got = getattr(special, name)(a.astype(dtype), b.astype(dtype))
        assert got.dtype == dtype
    _compare(name, got, want, RTOL64.get(name, 1e-9) if x64 else RTOL32.get(name, 5e-6), 1e-300 if x64 else 1e-6)


def test_integer_arguments_and_broadcasting():
    assert special.gammaln(np.arange(3)).dtype == np.float32
    np.testing.assert_allclose(special.betainc(2, 3, np.array([[0.1], [0.7]], np.float32)),
                               scipy.special.betainc(2, 3, [[0.1], [0.7]]), rtol=1e-5)
    np.testing.assert_allclose(special.multigammaln(np.array([3.0, 4.5]), 3), scipy.special.multigammaln([3.0, 4.5], 3),
                               rtol=1e-5)
    np.testing.assert_allclose(special.polygamma(np.array([0, 1, 2]), 2.5), scipy.special.polygamma([0, 1, 2], 2.5),
                               rtol=1e-5)
    np.testing.assert_allclose(special.comb(10.0, np.arange(5.0)), scipy.special.comb(10, np.arange(5)), rtol=1e-5)
    np.testing.assert_allclose(special.comb(10.0, 3.0, repetition=True), scipy.special.comb(10, 3, repetition=True),
                               rtol=1e-5)


@pytest.mark.parametrize("name, args", [
    ("erf", (0.3,)), ("ndtr", (0.7,)), ("log_ndtr", (-3.0,)), ("log_ndtr", (-25.0,)), ("ndtri", (0.2,)),
    ("erfcx", (1.5,)), ("erfcx", (30.0,)), ("gammaln", (2.5,)), ("digamma", (1.5,)), ("gamma", (-1.5,)),
    ("xlogy", (2.0, 3.0)), ("xlog1py", (2.0, 0.5)), ("entr", (0.4,)), ("logit", (0.3,)), ("expit", (0.3,)),
    ("rel_entr", (0.3, 0.6)), ("kl_div", (0.3, 0.6)), ("betaln", (2.5, 11.0)), ("betaln", (1.5, 2.0)),
    ("zeta", (2.5, 1.5)), ("poch", (1.5, 2.5)), ("i0", (0.7,)), ("i1", (-0.7,)), ("boxcox", (2.0, 0.5)),
])
def test_gradients(name, args):
    with config.enable_x64(True):
        check_grads(getattr(special, name), args, order=1, modes=["fwd", "rev"])


def test_jit_and_vmap():
    x = UNIT[:6].astype(np.float32)
    for name in ("ndtri", "logit", "erfinv", "log_ndtr"):
        fn = getattr(special, name)
        np.testing.assert_allclose(jit(fn)(x), fn(x), rtol=1e-6)
        np.testing.assert_allclose(vmap(fn)(x), fn(x), rtol=1e-6)
