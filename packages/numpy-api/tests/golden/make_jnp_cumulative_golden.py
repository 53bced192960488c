"""Write jnp_cumulative_golden.json: JAX 0.10.2's jaxprs, values and errors of jnp's cumulative reductions.

    /work/jaxpeer/bin/python packages/numpy-api/tests/golden/make_jnp_cumulative_golden.py jax
"""

import jnp_golden
import numpy as np
from jnp_golden import rand

CASES = {}

_DTYPES = ["bool", "int8", "uint8", "int32", "float16", "bfloat16", "float32", "complex64"]
_FUNCTIONS = ["cumsum", "cumprod", "nancumsum", "nancumprod", "cumulative_sum", "cumulative_prod"]


def _nan_data(dtype="float32"):
    x = rand((3, 4), dtype, 3)
    x[0, 1] = x[2, 3] = np.nan
    return x


def _call(fn, **kwargs):
    return lambda m: (lambda x: getattr(m.numpy, fn)(x, **kwargs))


for _fn in _FUNCTIONS:
    for _dt in _DTYPES:
        CASES[f"{_fn}_{_dt}_axis1"] = (lambda fn, dt: lambda m: (_call(fn, axis=1)(m), [rand((2, 3), dt, 1)]))(
            _fn, _dt)
    CASES[f"{_fn}_axis0"] = (lambda fn: lambda m: (_call(fn, axis=0)(m), [rand((3, 2), "float32", 2)]))(_fn)
    CASES[f"{_fn}_negative_axis"] = (lambda fn: lambda m: (_call(fn, axis=-2)(m), [rand((3, 2), "int32", 2)]))(_fn)
    CASES[f"{_fn}_1d_no_axis"] = (lambda fn: lambda m: (getattr(m.numpy, fn), [rand((5,), "float32", 3)]))(_fn)
    CASES[f"{_fn}_2d_no_axis"] = (lambda fn: lambda m: (getattr(m.numpy, fn), [rand((2, 3), "float32", 3)]))(_fn)
    CASES[f"{_fn}_scalar"] = (lambda fn: lambda m: (getattr(m.numpy, fn), [np.float32(2.5)]))(_fn)
    CASES[f"{_fn}_weak_traced"] = (lambda fn: lambda m: (lambda x: getattr(m.numpy, fn)(x, axis=0),
                                                         [np.ones(2, np.float32)]))(_fn)
    CASES[f"{_fn}_empty"] = (lambda fn: lambda m: (_call(fn, axis=0)(m), [np.zeros((0, 2), np.float32)]))(_fn)
    CASES[f"{_fn}_dtype_int8"] = (lambda fn: lambda m: (_call(fn, axis=1, dtype=np.int8)(m),
                                                        [rand((2, 3), "float32", 4)]))(_fn)
    CASES[f"{_fn}_dtype_float32_from_f16"] = (lambda fn: lambda m: (_call(fn, axis=1, dtype="float32")(m),
                                                                    [rand((2, 3), "float16", 4)]))(_fn)
    CASES[f"{_fn}_dtype_bool"] = (lambda fn: lambda m: (_call(fn, axis=1, dtype=bool)(m),
                                                        [rand((2, 3), "float32", 4)]))(_fn)
    CASES[f"{_fn}_bad_axis"] = (lambda fn: lambda m: (_call(fn, axis=2)(m), [rand((2, 3), "float32")]))(_fn)
    CASES[f"{_fn}_tuple_axis"] = (lambda fn: lambda m: (_call(fn, axis=(0,))(m), [rand((2, 3), "float32")]))(_fn)
    CASES[f"{_fn}_list"] = (lambda fn: lambda m: (lambda: getattr(m.numpy, fn)([1.0, 2.0]), []))(_fn)
    CASES[f"{_fn}_nan"] = (lambda fn: lambda m: (_call(fn, axis=1)(m), [_nan_data()]))(_fn)
    CASES[f"{_fn}_inf"] = (lambda fn: lambda m: (_call(fn, axis=0)(m),
                                                 [np.array([np.inf, -np.inf, 1.0, -0.0], np.float32)]))(_fn)
    CASES[f"{_fn}_vmap"] = (lambda fn: lambda m: (m.vmap(_call(fn, axis=0)(m), in_axes=1),
                                                  [rand((3, 2), "float32", 5)]))(_fn)
    CASES[f"{_fn}_jit"] = (lambda fn: lambda m: (m.jit(_call(fn, axis=1)(m)), [rand((2, 3), "int8", 5)]))(_fn)
    CASES[f"{_fn}_grad"] = (lambda fn: lambda m: (m.grad(lambda x: m.numpy.sum(getattr(m.numpy, fn)(x, axis=0))),
                                                  [np.array([1.5, -2.0, 0.5, 3.0], np.float32)]))(_fn)
for _fn in ["cumsum", "cumprod", "nancumsum", "nancumprod"]:
    CASES[f"{_fn}_out"] = (lambda fn: lambda m: (lambda x: getattr(m.numpy, fn)(x, out=x),
                                                 [rand((2, 3), "float32")]))(_fn)
for _fn in ["cumulative_sum", "cumulative_prod"]:
    for _axis in (0, 1, -1):
        CASES[f"{_fn}_include_initial_{_axis}"] = (lambda fn, ax: lambda m: (
            _call(fn, axis=ax, include_initial=True)(m), [rand((2, 3), "uint8", 6)]))(_fn, _axis)
    CASES[f"{_fn}_include_initial_bool"] = (lambda fn: lambda m: (_call(fn, axis=0, include_initial=True)(m),
                                                                  [rand((2, 3), "bool", 6)]))(_fn)
    CASES[f"{_fn}_include_initial_empty"] = (lambda fn: lambda m: (_call(fn, axis=0, include_initial=True)(m),
                                                                   [np.zeros((0, 2), np.float32)]))(_fn)
CASES["cumprod_grad_zero"] = lambda m: (m.grad(lambda x: m.numpy.sum(m.numpy.cumprod(x))),
                                        [np.array([2.0, 0.0, 3.0], np.float32)])

if __name__ == "__main__":
    jnp_golden.write(CASES, "jnp_cumulative_golden.json")
