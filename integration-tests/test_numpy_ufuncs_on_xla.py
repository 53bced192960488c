"""jnp's elementwise functions, ufunc methods and operators on the XLA backend, under jit, against the same
functions on core's NumPy reference backend (whose values jaxle-numpy's own tests check against NumPy and JAX).

What jnp stages (bitcasts, nextafter, population counts, Bessel functions, while loops and scans) must compile and
give the reference's values on XLA.
"""

import numpy as np
import pytest

import jaxle_core as jc
import jaxle_numpy as jnp
import jaxle_xla  # registers the XLA backend, the default once imported
from jaxle_core.backend import use_backend

X = np.array([0.5, -1.5, 2.0, 0.0, -0.0, 3.25, np.inf, np.nan], np.float32)
Y = np.array([1.0, 2.0, -3.0, 0.5, -2.0, 0.0, 1.0, 2.0], np.float32)
K = np.array([12, -18, 7, 0, 5, -9, 100, 3], np.int32)
L = np.array([8, 27, -2, 4, 0, 3, 7, -5], np.int32)

UNARY = ["sin", "arccosh", "arctanh", "cbrt", "exp2", "expm1", "log2", "log10", "sinc", "i0", "spacing", "signbit",
         "nan_to_num", "rint", "round", "trunc", "isinf", "isfinite", "isposinf", "fabs", "reciprocal", "deg2rad",
         "square", "sign"]
BINARY = ["arctan2", "copysign", "floor_divide", "remainder", "fmod", "fmax", "fmin", "heaviside", "hypot",
          "logaddexp", "logaddexp2", "power", "float_power", "nextafter", "isclose", "maximum", "greater"]
INTEGER = ["gcd", "lcm", "floor_divide", "remainder", "fmod", "power", "left_shift", "right_shift", "bitwise_xor"]

CASES = {f"{name}": (getattr(jnp, name), (X,)) for name in UNARY}
CASES.update({f"{name}-float": (getattr(jnp, name), (X, Y)) for name in BINARY})
CASES.update({f"{name}-int": (getattr(jnp, name), (K, np.abs(L) % 5)) for name in INTEGER})
CASES.update({
    "frexp": (jnp.frexp, (X,)),
    "modf": (jnp.modf, (X,)),
    "divmod": (jnp.divmod, (K, np.where(L == 0, 1, L))),
    "ldexp": (jnp.ldexp, (X, np.abs(L) % 4)),
    "bitwise_count": (jnp.bitwise_count, (K,)),
    "angle-complex": (jnp.angle, (X + 1j * Y,)),
    "where": (lambda x, y: jnp.where(x > y, x, y), (X, Y)),
    "clip": (lambda x: jnp.clip(x, -1.0, 1.0), (X,)),
    "operators": (lambda x, y: (x * 0.3 + y) // 2 - x ** 2 % 3, (X, Y)),
    "subtract.reduce": (lambda x: jnp.subtract.reduce(x[:6]), (X,)),
    "logaddexp.reduce": (lambda x: jnp.logaddexp.reduce(x[:6]), (X,)),
    "maximum.accumulate": (lambda x: jnp.maximum.accumulate(x), (X,)),
    "add.outer": (jnp.add.outer, (X[:3], Y[:4])),
    "maximum.at": (lambda x: jnp.maximum.at(x, np.array([0, 0, 2]), 1.0, inplace=False), (X,)),
    "add.reduceat": (lambda x: jnp.add.reduceat(x[:6], np.array([0, 3, 1])), (X,)),
})


def _values(outs):
    outs = outs if isinstance(outs, tuple) else (outs,)
    return [np.asarray(o) for o in outs]


@pytest.mark.parametrize("name", sorted(CASES))
def test_on_xla_matches_reference(name):
    fn, args = CASES[name]
    got = _values(jc.jit(fn)(*args))
    with use_backend("reference"):
        want = _values(jc.jit(fn)(*args))
    for g, w in zip(got, want):
        assert g.dtype == w.dtype and g.shape == w.shape
        if g.dtype.kind in "fc":
            np.testing.assert_allclose(g, w, rtol=2e-6, atol=1e-6, equal_nan=True)
        else:
            np.testing.assert_array_equal(g, w)


def test_eager_results_are_xla_arrays():
    assert type(jnp.sin(X)).__name__ == type(jnp.add(X, 1)).__name__ == type(X + jnp.asarray(Y)).__name__
    assert type(jnp.sin(X)) is jaxle_xla.XlaArray
