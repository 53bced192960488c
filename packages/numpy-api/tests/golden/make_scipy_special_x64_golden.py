"""Golden records of ``jax.scipy.special`` and ``jax.scipy.stats`` functions whose float64 evaluation differs from
their float32 one (other coefficients, switch points or series lengths), with 64-bit types enabled (see
scipy_golden.py).

    /work/jaxpeer/bin/python packages/numpy-api/tests/golden/make_scipy_special_x64_golden.py jax
"""

import numpy as np
import scipy_golden
from make_scipy_special_golden import BESSEL_POINTS, FADDEEVA_COMPLEX, FADDEEVA_REAL, KUMMER_POINTS, call, case, grad

PROBABILITIES = np.array([0.0, 1e-300, 1e-30, 1e-6, 0.1, 0.5, 0.93, 1 - 1e-15, 1.0, -0.5, np.nan])
ERFCX_POINTS = np.array([-3.0, 0.0, 0.5, 8.0, 9.5, 26.0, 27.0, 1e10, np.inf, np.nan])

CASES = {
    "ndtri": case("ndtri", PROBABILITIES),
    "ndtri_f32": case("ndtri", PROBABILITIES.astype(np.float32)),
    "ndtri_weak": case("ndtri", 0.3),
    "ndtri_int": case("ndtri", np.arange(2)),
    "grad_ndtri": grad("ndtri", 0.2),
    "norm.ppf_f32": lambda m: (m.scipy.stats.norm.ppf, [PROBABILITIES.astype(np.float32)]),
    "norm.isf": lambda m: (lambda q: m.scipy.stats.norm.isf(q, 1.0, 2.0), [PROBABILITIES]),
    "erfcx": case("erfcx", ERFCX_POINTS),
    "erfcx_f32": case("erfcx", ERFCX_POINTS.astype(np.float32)),
    "erfcx_weak": case("erfcx", 1),
    "grad_erfcx": grad("erfcx", 30.0),
    "betainc": case("betainc", np.array([0.5, 1.5, 7.0, 30.0, 400.0]), np.array([7.0, 1.5, 0.5, 50.0, 3e3]),
                    np.array([0.1, 0.5, 0.9, 0.4, 0.11])),
    "betainc_edges": case("betainc", np.array([0.0, 2.0, np.inf, 1e-300, 3.0, np.nan]),
                          np.array([2.0, 0.0, 2.0, 1e-300, 1e-300, 1.0]), np.array([0.0, 1.0, 0.5, 0.5, 0.99, 0.5])),
    "grad_betainc_x": grad("betainc", 2.0, 3.0, 0.4, argnums=2),
    "beta.cdf": lambda m: (m.scipy.stats.beta.cdf, [np.array([0.05, 0.3, 0.5, 0.9]), 2.0, 3.0]),
    "beta.logsf": lambda m: (m.scipy.stats.beta.logsf, [np.array([0.05, 0.3, 0.5, 0.9]), 2.0, 3.0]),
    **{f"{name}_points": case(name, FADDEEVA_REAL.astype(np.float64)) for name in ("dawsn", "fresnel")},
    **{f"{name}_f32": case(name, FADDEEVA_REAL) for name in ("dawsn", "fresnel")},
    **{f"{name}_weak": case(name, 1.5) for name in ("dawsn", "fresnel", "wofz")},
    **{f"{name}_int": case(name, np.arange(3)) for name in ("dawsn", "fresnel", "wofz")},
    "grad_dawsn": grad("dawsn", 0.7),
    "jvp_fresnel": lambda m: (lambda x, t: m.jvp(m.scipy.special.fresnel, (x,), (t,)),
                              [np.array([0.5, -2.0, 4e4]), np.array([1.0, 2.0, -1.0])]),
    "wofz_points": case("wofz", FADDEEVA_COMPLEX.astype(np.complex128)),
    "wofz_c64": case("wofz", FADDEEVA_COMPLEX),
    "wofz_real": case("wofz", np.array([-1.0, 0.0, 2.0, 30.0])),
    "bessel_jn_points": call(lambda s, z: s.bessel_jn(z, v=4), BESSEL_POINTS.astype(np.float64)),
    "bessel_jn_f32": call(lambda s, z: s.bessel_jn(z, v=3), BESSEL_POINTS),
    "bessel_jn_weak": call(lambda s, z: s.bessel_jn(z, v=2), 2.0),
    "bessel_jn_int": call(lambda s, z: s.bessel_jn(z, v=1), np.arange(3)),
    "hyp1f1_points": case("hyp1f1", 0.5, 1.5, KUMMER_POINTS.astype(np.float64)),
    "hyp1f1_weak": case("hyp1f1", 0.5, 1.5, 2.0),
    "jvp_hyp1f1": lambda m: (lambda a, b, x: m.jvp(m.scipy.special.hyp1f1, (a, b, x), (a, b, x)), [0.5, 1.5, 2.0]),
    "jvp_wofz": lambda m: (lambda z, t: m.jvp(m.scipy.special.wofz, (z,), (t,)),
                           [FADDEEVA_COMPLEX[:4].astype(np.complex128), np.ones(4, np.complex128)]),
}

if __name__ == "__main__":
    scipy_golden.write_x64(CASES, "scipy_special_x64_golden.json")
