"""Write jnp_quantiles_golden.json: JAX 0.10.2's jaxprs, values and errors of jnp's quantile family.

    /work/jaxpeer/bin/python packages/numpy-api/tests/golden/make_jnp_quantiles_golden.py jax
"""

import jnp_golden
import numpy as np
from jnp_golden import rand

CASES = {}
_METHODS = ["linear", "lower", "higher", "midpoint", "nearest", "inverted_cdf"]


def _nan_data(shape=(3, 4), dtype="float32"):
    x = rand(shape, dtype, 3)
    x.reshape(-1)[[1, 4]] = np.nan
    return x


for _fn in ["quantile", "nanquantile"]:
    _q = 0.3
    for _method in _METHODS:
        CASES[f"{_fn}_{_method}_1d"] = (lambda fn, me: lambda m: (
            lambda x: getattr(m.numpy, fn)(x, 0.3, method=me), [rand((5,), "float32", 1)]))(_fn, _method)
        CASES[f"{_fn}_{_method}_axis1"] = (lambda fn, me: lambda m: (
            lambda x: getattr(m.numpy, fn)(x, 0.7, axis=1, method=me), [rand((2, 5), "float32", 2)]))(_fn, _method)
        CASES[f"{_fn}_{_method}_q_vector"] = (lambda fn, me: lambda m: (
            lambda x: getattr(m.numpy, fn)(x, np.array([0.0, 0.25, 1.0], np.float32), method=me),
            [rand((6,), "float32", 3)]))(_fn, _method)
        CASES[f"{_fn}_{_method}_nan"] = (lambda fn, me: lambda m: (
            lambda x: getattr(m.numpy, fn)(x, 0.4, axis=0, method=me), [_nan_data()]))(_fn, _method)
    CASES[f"{_fn}_axis0_keepdims_q_vector"] = (lambda fn: lambda m: (
        lambda x: getattr(m.numpy, fn)(x, np.array([0.25, 0.5], np.float32), axis=0, keepdims=True),
        [rand((2, 3), "float32", 4)]))(_fn)
    CASES[f"{_fn}_none_keepdims"] = (lambda fn: lambda m: (
        lambda x: getattr(m.numpy, fn)(x, 0.25, keepdims=True), [rand((2, 3), "float32", 4)]))(_fn)
    CASES[f"{_fn}_tuple_axis"] = (lambda fn: lambda m: (
        lambda x: getattr(m.numpy, fn)(x, 0.25, axis=(0, 2)), [rand((2, 3, 2), "float32", 5)]))(_fn)
    CASES[f"{_fn}_tuple_axis_keepdims"] = (lambda fn: lambda m: (
        lambda x: getattr(m.numpy, fn)(x, 0.6, axis=(0, 2), keepdims=True), [rand((2, 3, 2), "float32", 5)]))(_fn)
    CASES[f"{_fn}_negative_axis"] = (lambda fn: lambda m: (
        lambda x: getattr(m.numpy, fn)(x, 0.5, axis=-2), [rand((3, 2), "float32", 6)]))(_fn)
    for _dt in ["int8", "int32", "bool", "float16", "bfloat16"]:
        CASES[f"{_fn}_{_dt}"] = (lambda fn, dt: lambda m: (lambda x: getattr(m.numpy, fn)(x, 0.5, axis=0),
                                                           [rand((4, 2), dt, 7)]))(_fn, _dt)
    CASES[f"{_fn}_complex"] = (lambda fn: lambda m: (lambda x: getattr(m.numpy, fn)(x, 0.5),
                                                     [rand((3,), "complex64", 7)]))(_fn)
    CASES[f"{_fn}_bad_method"] = (lambda fn: lambda m: (lambda x: getattr(m.numpy, fn)(x, 0.5, method="foo"),
                                                        [rand((3,), "float32", 7)]))(_fn)
    CASES[f"{_fn}_weights_linear"] = (lambda fn: lambda m: (lambda x: getattr(m.numpy, fn)(x, 0.5, weights=x),
                                                            [rand((3,), "float32", 7)]))(_fn)
    CASES[f"{_fn}_weights_1d"] = (lambda fn: lambda m: (
        lambda x, w: getattr(m.numpy, fn)(x, 0.4, method="inverted_cdf", weights=w),
        [rand((5,), "float32", 8), np.array([1.0, 2.0, 0.5, 0.0, 3.0], np.float32)]))(_fn)
    CASES[f"{_fn}_weights_axis1"] = (lambda fn: lambda m: (
        lambda x, w: getattr(m.numpy, fn)(x, 0.6, axis=1, method="inverted_cdf", weights=w),
        [rand((2, 4), "float32", 8), np.array([1.0, 2.0, 0.5, 3.0], np.float32)]))(_fn)
    CASES[f"{_fn}_negative_weight"] = (lambda fn: lambda m: (
        lambda x, w: getattr(m.numpy, fn)(x, 0.6, method="inverted_cdf", weights=w),
        [rand((3,), "float32", 8), np.array([1.0, -2.0, 0.5], np.float32)]))(_fn)
    CASES[f"{_fn}_q_matrix"] = (lambda fn: lambda m: (lambda x: getattr(m.numpy, fn)(x, np.full((2, 2), 0.5)),
                                                      [rand((3,), "float32", 7)]))(_fn)
    CASES[f"{_fn}_q_list"] = (lambda fn: lambda m: (lambda x: getattr(m.numpy, fn)(x, [0.5]),
                                                    [rand((3,), "float32", 7)]))(_fn)
    CASES[f"{_fn}_out"] = (lambda fn: lambda m: (lambda x: getattr(m.numpy, fn)(x, 0.5, out=x),
                                                 [rand((3,), "float32", 7)]))(_fn)
    CASES[f"{_fn}_overwrite_input"] = (lambda fn: lambda m: (
        lambda x: getattr(m.numpy, fn)(x, 0.5, overwrite_input=True), [rand((3,), "float32", 7)]))(_fn)
    CASES[f"{_fn}_repeated_axis"] = (lambda fn: lambda m: (lambda x: getattr(m.numpy, fn)(x, 0.5, axis=(0, 0)),
                                                           [rand((2, 3), "float32", 7)]))(_fn)
    CASES[f"{_fn}_q_traced"] = (lambda fn: lambda m: (lambda x, q: getattr(m.numpy, fn)(x, q),
                                                      [rand((4,), "float32", 7), np.float32(0.8)]))(_fn)
    CASES[f"{_fn}_vmap"] = (lambda fn: lambda m: (m.vmap(lambda x: getattr(m.numpy, fn)(x, 0.25)),
                                                  [_nan_data((3, 4))]))(_fn)
for _fn in ["median", "nanmedian"]:
    CASES[f"{_fn}_1d_even"] = (lambda fn: lambda m: (getattr(m.numpy, fn), [rand((6,), "float32", 9)]))(_fn)
    CASES[f"{_fn}_1d_odd_nan"] = (lambda fn: lambda m: (getattr(m.numpy, fn), [_nan_data((5,))]))(_fn)
    CASES[f"{_fn}_axis0"] = (lambda fn: lambda m: (lambda x: getattr(m.numpy, fn)(x, axis=0),
                                                   [_nan_data((3, 4))]))(_fn)
    CASES[f"{_fn}_axis1_keepdims"] = (lambda fn: lambda m: (lambda x: getattr(m.numpy, fn)(x, axis=1, keepdims=True),
                                                            [rand((3, 4), "float32", 10)]))(_fn)
    CASES[f"{_fn}_int"] = (lambda fn: lambda m: (getattr(m.numpy, fn), [rand((4,), "int32", 10)]))(_fn)
    CASES[f"{_fn}_out"] = (lambda fn: lambda m: (lambda x: getattr(m.numpy, fn)(x, out=x),
                                                 [rand((3,), "float32", 7)]))(_fn)
    CASES[f"{_fn}_grad_ties"] = (lambda fn: lambda m: (m.grad(getattr(m.numpy, fn)),
                                                       [np.array([3.0, 1.0, 3.0, 3.0, 0.0], np.float32)]))(_fn)
for _fn in ["percentile", "nanpercentile"]:
    CASES[f"{_fn}_scalar"] = (lambda fn: lambda m: (lambda x: getattr(m.numpy, fn)(x, 30),
                                                    [_nan_data((5,))]))(_fn)
    CASES[f"{_fn}_vector_axis"] = (lambda fn: lambda m: (
        lambda x: getattr(m.numpy, fn)(x, np.array([10.0, 90.0], np.float32), axis=1, method="nearest"),
        [rand((2, 5), "float32", 11)]))(_fn)
    CASES[f"{_fn}_float_q"] = (lambda fn: lambda m: (lambda x: getattr(m.numpy, fn)(x, 50.0, keepdims=True),
                                                     [rand((2, 3), "float32", 12)]))(_fn)
CASES["quantile_grad_linear"] = lambda m: (m.grad(lambda x: m.numpy.quantile(x, 0.3)),
                                           [np.array([1.0, 4.0, 2.0, 8.0], np.float32)])
CASES["nanquantile_grad"] = lambda m: (m.grad(lambda x: m.numpy.nanquantile(x, 0.3)),
                                       [np.array([1.0, np.nan, 2.0, 8.0], np.float32)])

if __name__ == "__main__":
    jnp_golden.write(CASES, "jnp_quantiles_golden.json")
