"""Golden records of the ``jax.scipy.special`` functions that jaxle evaluates with its own series, continued
fractions, quadratures and recurrences (see scipy_golden.py): JAX's values, weak types and errors (the tests
compare no jaxprs for these, since the algorithms differ by design)."""

import numpy as np
import scipy_golden

X = np.array([0.05, 0.5, 1.0, 2.5, 7.0, 30.0], np.float32)
SIGNED = np.array([-3.0, -0.5, 0.0, 0.3, 1.5, 6.0], np.float32)
EDGES = np.array([-1.0, 0.0, np.inf, np.nan], np.float32)


def case(name, *args):
    return lambda m: (lambda *a: getattr(m.scipy.special, name)(*a), list(args))


def _parts(z):
    return z.real, z.imag


def call(fn, *args):
    return lambda m: (lambda *a: fn(m.scipy.special, *a), list(args))


CASES = {
    "sici": case("sici", SIGNED),
    "spence": case("spence", np.array([-1.0, 0.0, 0.3, 1.0, 1.7, 3.0, 40.0], np.float32)),
    "owens_t": case("owens_t", SIGNED, np.array([2.0, -0.5, 1.0, 0.3, 5.0, 0.9], np.float32)),
    "hyp2f1": case("hyp2f1", np.float32(0.5), np.float32(1.5), np.float32(2.0),
                   np.array([-0.9, 0.0, 0.5, 0.9, 1.0, 2.0], np.float32)),
    "hyp2f1_polynomial": case("hyp2f1", np.float32(-2.0), np.float32(1.5), np.float32(2.0),
                              np.array([-0.9, 0.5, 0.99], np.float32)),
    "sph_harm_y": call(lambda s, t, p: _parts(s.sph_harm_y(np.array([0, 1, 2, 3, 2]), np.array([0, 1, -1, 2, 0]),
                                                           t, p)),
                       np.array([0.3, 0.5, 1.0, 2.0, 0.1], np.float32),
                       np.array([0.1, 0.2, 0.3, 0.4, 2.0], np.float32)),
    "sph_harm_y_diff_n": call(lambda s, t: s.sph_harm_y(np.array([1]), np.array([0]), t, t, diff_n=1),
                              np.array([0.3], np.float32)),
    "bernoulli": call(lambda s: s.bernoulli(5)),
    "bernoulli_negative": call(lambda s: s.bernoulli(-1)),
    "bernoulli_float": call(lambda s: s.bernoulli(2.5)),
    "sph_harm_y_lists": call(lambda s: s.sph_harm_y([1], [0], [0.1], [0.2])),
    "spence_complex": case("spence", np.array([1 + 1j], np.complex64)),
}

if __name__ == "__main__":
    scipy_golden.write(CASES, "scipy_series_golden.json")
