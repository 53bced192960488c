"""Golden records of ``jax.scipy.special``'s elementwise functions (see scipy_golden.py)."""

import numpy as np
import scipy_golden
from jnp_golden import rand

X = (rand((3,), "float32", 0) * 4).astype(np.float32)
POSITIVE = np.array([0.5, 1.5, 7.0], np.float32)
LARGE = np.array([3.0, 9.0, 30.0], np.float32)
UNIT = np.array([0.1, 0.5, 0.9], np.float32)
EDGES = np.array([0.0, -0.0, -1.0, np.inf, -np.inf, np.nan], np.float32)
INTS = np.array([0, 1, 3], np.int32)
# every range of Cephes' dawsn and fresnl, their switch points and the edges
FADDEEVA_REAL = np.array([0.0, -0.0, 1e-3, -0.4, 1.6, -3.0, 3.25, 5.0, 6.25, -10.0, 3e4, 36974.0, 4e4, 1e10, np.inf,
                          -np.inf, np.nan], np.float32)
# Bessel J: small z (where JAX's float32 recurrence overflows), ordinary and large ones, 0, negative and the edges
BESSEL_POINTS = np.array([1e-3, 0.5, 2.0, 10.0, 30.0, 0.0, -1.0, np.inf, np.nan], np.float32)
# Kummer's series below |x| = 100, the asymptotic series from there
KUMMER_POINTS = np.array([-150.0, -30.0, -1.0, 0.0, 0.5, 3.0, 10.0, 99.0, 100.0, 150.0, np.nan], np.float32)
FADDEEVA_COMPLEX = np.array([1 + 1j, 0.5 - 0.2j, 3j, -2 - 1j, 0.1 + 0.01j, 20 + 1j, 2.0, 1 - 3j, -1e-3j, 8 - 8j, 0.0,
                             complex(np.nan, 1), complex(np.inf, 0)], np.complex64)


def case(name, *args):
    return lambda m: (lambda *a: getattr(m.scipy.special, name)(*a), list(args))


def call(fn, *args):
    return lambda m: (lambda *a: fn(m.scipy.special, *a), list(args))


def grad(name, *args, argnums=0):
    return lambda m: (m.grad(getattr(m.scipy.special, name), argnums), list(args))


CASES = {
    **{f"{name}": case(name, X) for name in ("erf", "erfc", "gammaln", "digamma", "i0e", "i1e", "i1", "expit",
                                             "ndtr", "gamma", "gammasgn", "loggamma", "entr", "factorial")},
    **{f"{name}_edges": case(name, EDGES) for name in ("erf", "erfinv", "gammasgn", "entr", "ndtr", "gamma")},
    "erf_int": case("erf", INTS),
    "gammaln_weak": case("gammaln", 2),
    "gammaln_f16": case("gammaln", np.float16(1.5)),
    "erf_complex": case("erf", np.complex64(1 + 1j)),
    "erfinv": case("erfinv", UNIT),
    "logit": case("logit", UNIT),
    "log_ndtr": case("log_ndtr", np.array([-30.0, -11.0, -3.0, 0.0, 4.0, 6.0], np.float32)),
    "log_ndtr_series_order": call(lambda s, x: s.log_ndtr(x, series_order=5), np.array([-12.0, 1.0], np.float32)),
    "log_ndtr_int": case("log_ndtr", INTS),
    "log_ndtr_bad_order": call(lambda s, x: s.log_ndtr(x, series_order=-1), X),
    "xlogy": case("xlogy", np.array([0.0, 0.0, 2.0, 3.0], np.float32), np.array([0.0, np.nan, 0.0, 2.0], np.float32)),
    "xlog1py": case("xlog1py", np.array([0.0, 1.0, 2.0], np.float32), np.array([-1.0, 0.5, 3.0], np.float32)),
    "rel_entr": case("rel_entr", np.array([0.0, 0.5, 1.0, -1.0], np.float32),
                     np.array([0.0, 0.25, 0.0, 1.0], np.float32)),
    "kl_div": case("kl_div", np.array([0.0, 0.5, 1.0, -1.0], np.float32),
                   np.array([0.0, 0.25, 0.0, 1.0], np.float32)),
    "gammainc": case("gammainc", POSITIVE, LARGE / 3),
    "gammaincc": case("gammaincc", POSITIVE, LARGE / 3),
    "betainc": case("betainc", POSITIVE, POSITIVE[::-1].copy(), UNIT),
    "betainc_edges": case("betainc", np.array([0.0, 0.0, 2.0, np.inf, 2.0, -1.0, 1e-30, 3.0, np.nan], np.float32),
                          np.array([0.0, 2.0, 0.0, 2.0, np.inf, 1.0, 1e-30, 1e-30, 1.0], np.float32),
                          np.array([0.5, 0.0, 1.0, 0.5, 0.5, 0.5, 0.5, 0.99, 0.5], np.float32)),
    "betainc_large": case("betainc", np.array([30.0, 400.0, 100.0], np.float32),
                          np.array([50.0, 3e3, 100.0], np.float32), np.array([0.4, 0.11, 0.5], np.float32)),
    "betainc_weak": case("betainc", 2, 3.0, np.float32(0.4)),
    "betainc_broadcast": case("betainc", np.array([[0.5], [4.0]], np.float32), POSITIVE, UNIT),
    "grad_betainc_x": grad("betainc", np.float32(2.0), np.float32(3.0), np.float32(0.4), argnums=2),
    "grad_betainc_a": grad("betainc", np.float32(2.0), np.float32(3.0), np.float32(0.4)),
    "vmap_betainc": lambda m: (m.vmap(m.scipy.special.betainc, (0, None, 0)), [LARGE, np.float32(2.5), UNIT]),
    "polygamma": case("polygamma", INTS, POSITIVE),
    "polygamma_float_n": case("polygamma", np.float32(1.5), np.float32(2.0)),
    "zeta": case("zeta", LARGE / 2, POSITIVE),
    "zeta_riemann": case("zeta", X),
    "multigammaln": call(lambda s, a: s.multigammaln(a, 2), LARGE),
    "boxcox": case("boxcox", POSITIVE, np.array([0.0, 0.5, 2.0], np.float32)),
    "boxcox1p": case("boxcox1p", POSITIVE, np.array([0.0, 0.5, 2.0], np.float32)),
    "comb": case("comb", np.array([5.0, 4.0, 3.0], np.float32), np.array([2.0, 5.0, -1.0], np.float32)),
    "comb_repetition": call(lambda s, n, k: s.comb(n, k, repetition=True), np.float32(5.0), np.float32(2.0)),
    "factorial_exact": call(lambda s, n: s.factorial(n, exact=True), np.int32(3)),
    "poch": case("poch", POSITIVE, np.array([0.0, 1.5, 2.0], np.float32)),
    "betaln": case("betaln", POSITIVE, LARGE),
    "betaln_weak": case("betaln", 1, 2),
    "beta": case("beta", POSITIVE, np.array([-1.5, 2.0, 9.5], np.float32)),
    "multigammaln_weak": call(lambda s, a: s.multigammaln(a, 1), 2.0),
    "gammainc_int": case("gammainc", np.int32(2), np.array([0.5, 3.0], np.float32)),
    "digamma_f16": case("digamma", np.float16(2.0)),
    "i1e_edges": case("i1e", EDGES),
    "expit_edges": case("expit", EDGES),
    "logit_edges": case("logit", np.array([0.0, 1.0, -0.5, 1.5, np.nan], np.float32)),
    "xlogy_broadcast": case("xlogy", np.array([[0.0], [2.0]], np.float32), np.array([0.5, 0.0, 3.0], np.float32)),
    "zeta_edges": case("zeta", np.array([1.0, 0.5, 2.0, np.inf], np.float32), np.array([1.0, 1.0, -1.0, 2.0],
                                                                                        np.float32)),
    "poch_edges": case("poch", np.array([-2.0, 0.0, 3.0], np.float32), np.array([1.0, 0.0, -3.0], np.float32)),
    "polygamma_edges": case("polygamma", np.array([0, 1, 3], np.int32), np.array([0.0, -1.0, np.inf], np.float32)),
    "ndtri": case("ndtri", np.array([0.0, 1e-30, 1e-6, 0.1, 0.5, 0.93, 1.0, -0.5, np.nan], np.float32)),
    "erfcx": case("erfcx", np.array([-3.0, 0.0, 0.5, 8.0, 9.5, 30.0, np.inf, np.nan], np.float32)),
    "ndtri_weak": case("ndtri", 0.3),
    "ndtr_weak": case("ndtr", 0.3),
    "ndtr_int": case("ndtr", INTS),
    "ndtr_f16": case("ndtr", np.float16(0.3)),
    "ndtri_int": case("ndtri", INTS),
    "ndtri_f16": case("ndtri", np.float16(0.3)),
    "erfcx_weak": case("erfcx", 0.3),
    "erfcx_int": case("erfcx", INTS),
    "erfcx_f16": case("erfcx", np.float16(12.0)),
    "grad_ndtri": grad("ndtri", np.float32(0.2)),
    "grad_erfcx_large": grad("erfcx", np.float32(15.0)),
    "grad_erfcx": grad("erfcx", np.float32(1.5)),
    "grad_zeta_x": grad("zeta", np.float32(2.0), np.float32(1.0)),
    "grad_xlogy": grad("xlogy", np.float32(2.0), np.float32(3.0)),
    "grad_xlogy_y": grad("xlogy", np.float32(2.0), np.float32(3.0), argnums=1),
    "grad_xlogy_int": grad("xlogy", 2, np.float32(3.0), argnums=1),
    "grad_xlog1py_int": grad("xlog1py", INTS[2], np.float32(3.0), argnums=1),
    "jvp_xlog1py_broadcast": lambda m: (lambda x, y: m.jvp(m.scipy.special.xlog1py, (x, y), (x, y)),
                                        [np.array([2.0], np.float32), np.array([3.0, 1.0], np.float32)]),
    "xlogy_weak": case("xlogy", 2, 3.0),
    "xlog1py_int": case("xlog1py", INTS, np.float32(0.5)),
    "grad_entr": grad("entr", np.float32(2.0)),
    "grad_logit": grad("logit", np.float32(0.3)),
    "grad_log_ndtr": grad("log_ndtr", np.float32(-2.0)),
    **{f"{name}_points": case(name, FADDEEVA_REAL) for name in ("dawsn", "fresnel")},
    **{f"{name}_weak": case(name, 1.5) for name in ("dawsn", "fresnel", "wofz")},
    **{f"{name}_int": case(name, INTS) for name in ("dawsn", "fresnel", "wofz")},
    **{f"{name}_f16": case(name, np.float16(0.7)) for name in ("dawsn", "fresnel", "wofz")},
    "grad_dawsn": grad("dawsn", np.float32(0.7)),
    "grad_dawsn_far": grad("dawsn", np.float32(-7.0)),
    "jvp_fresnel": lambda m: (lambda x, t: m.jvp(m.scipy.special.fresnel, (x,), (t,)),
                              [np.array([0.5, -2.0, 40.0], np.float32), np.array([1.0, 2.0, -1.0], np.float32)]),
    "wofz_points": case("wofz", FADDEEVA_COMPLEX),
    "wofz_real": case("wofz", np.array([-1.0, 0.0, 2.0, 30.0], np.float32)),
    "jvp_wofz": lambda m: (lambda z, t: m.jvp(m.scipy.special.wofz, (z,), (t,)),
                           [FADDEEVA_COMPLEX[:4], np.ones(4, np.complex64)]),
    "dawsn_complex": case("dawsn", np.array([1 + 1j], np.complex64)),
    "fresnel_complex": case("fresnel", np.array([1 + 1j], np.complex64)),
    "bessel_jn_points": call(lambda s, z: s.bessel_jn(z, v=4), BESSEL_POINTS),
    "bessel_jn_weak": call(lambda s, z: s.bessel_jn(z, v=2), 2.0),
    "bessel_jn_int": call(lambda s, z: s.bessel_jn(z, v=1), INTS),
    "bessel_jn_2d": call(lambda s, z: s.bessel_jn(z, v=2, n_iter=10), np.array([[0.5, 1.0, 4.0], [7.0, 9.0, 0.1]],
                                                                                   np.float32)),
    "bessel_jn_list": call(lambda s: s.bessel_jn([10.0, 12.0], v=1)),
    "bessel_jn_no_orders": call(lambda s, z: s.bessel_jn(z, v=-1), np.float32(2.0)),
    "bessel_jn_float_order": call(lambda s, z: s.bessel_jn(z, v=1.5), np.float32(2.0)),
    "bessel_jn_complex": call(lambda s, z: s.bessel_jn(z, v=1), np.complex64(1 + 1j)),
    "grad_bessel_jn": lambda m: (m.grad(lambda z: m.scipy.special.bessel_jn(z, v=2)[2]), [np.float32(3.0)]),
    "hyp1f1_points": case("hyp1f1", np.float32(0.5), np.float32(1.5), KUMMER_POINTS),
    "hyp1f1_special": case("hyp1f1", np.array([0.0, 2.0, 1.0, -2.0, 0.0], np.float32),
                           np.array([3.0, 2.0, 0.0, 1.5, 0.0], np.float32), np.float32(2.5)),
    "hyp1f1_polynomial": case("hyp1f1", np.float32(-2.0), np.float32(1.5), np.array([-30.0, 3.0, 50.0], np.float32)),
    "hyp1f1_weak": case("hyp1f1", 0.5, 1.5, 2.0),
    "hyp1f1_int": case("hyp1f1", 1, np.float32(2.0), INTS),
    "hyp1f1_lists": call(lambda s: s.hyp1f1([0.5], [1.5], [0.5, 2.0])),
    "hyp1f1_broadcast": case("hyp1f1", np.array([[0.5], [2.0]], np.float32), np.float32(1.5), LARGE),
    "jvp_hyp1f1": lambda m: (lambda a, b, x: m.jvp(m.scipy.special.hyp1f1, (a, b, x), (a, b, x)),
                             [np.float32(0.5), np.float32(1.5), np.float32(2.0)]),
    "grad_hyp1f1_x": lambda m: (m.grad(m.scipy.special.hyp1f1, 2), [np.float32(0.5), np.float32(1.5),
                                                                    np.float32(120.0)]),
    "vmap_dawsn": lambda m: (m.vmap(m.scipy.special.dawsn), [np.array([[0.5, 4.0], [-7.0, 1.0]], np.float32)]),
}

if __name__ == "__main__":
    scipy_golden.write(CASES, "scipy_special_golden.json")
