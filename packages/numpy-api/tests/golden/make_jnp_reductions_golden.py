"""Write jnp_reductions_golden.json: JAX 0.10.2's jaxprs, values and errors of jnp's reductions.

    /work/jaxpeer/bin/python packages/numpy-api/tests/golden/make_jnp_reductions_golden.py jax
"""

import jnp_golden
import numpy as np
from jnp_golden import rand

CASES = {}


def _nan_data(dtype="float32"):
    x = rand((3, 4), dtype, 3)
    x[0, 1] = np.nan
    x[2, :] = np.nan
    return x


_DTYPES = ["bool", "int8", "uint8", "int32", "float16", "bfloat16", "float32", "complex64"]

for _dt in _DTYPES:
    for _fn in ["sum", "prod", "max", "min", "mean", "var", "std", "all", "any", "argmax", "argmin", "ptp",
                "count_nonzero"]:
        if _dt == "complex64" and _fn in ("max", "min", "argmax", "argmin", "ptp"):
            continue
        if _dt == "bool" and _fn == "ptp":
            continue
        CASES[f"{_fn}_{_dt}"] = (lambda fn, dt: lambda m: (getattr(m.numpy, fn), [rand((2, 3), dt, 1)]))(_fn, _dt)
        CASES[f"{_fn}_{_dt}_axis"] = (lambda fn, dt: lambda m: (lambda x: getattr(m.numpy, fn)(x, axis=1),
                                                                [rand((2, 3), dt, 2)]))(_fn, _dt)

for _fn in ["sum", "prod", "max", "min", "mean", "var", "std", "all", "any", "ptp", "count_nonzero"]:
    CASES[f"{_fn}_keepdims_tuple"] = (lambda fn: lambda m: (lambda x: getattr(m.numpy, fn)(x, axis=(0, 2),
                                                                                          keepdims=True),
                                                            [rand((2, 3, 2), "float32", 4)]))(_fn)
    CASES[f"{_fn}_negative_axis"] = (lambda fn: lambda m: (lambda x: getattr(m.numpy, fn)(x, axis=-1),
                                                           [rand((2, 3), "float32", 5)]))(_fn)
    CASES[f"{_fn}_keepdims_none"] = (lambda fn: lambda m: (lambda x: getattr(m.numpy, fn)(x, keepdims=True),
                                                           [rand((2, 3), "float32", 6)]))(_fn)
    CASES[f"{_fn}_scalar"] = (lambda fn: lambda m: (getattr(m.numpy, fn), [np.float32(2.5)]))(_fn)
    CASES[f"{_fn}_python_scalar"] = (lambda fn: lambda m: (lambda: getattr(m.numpy, fn)(3), []))(_fn)
    CASES[f"{_fn}_list"] = (lambda fn: lambda m: (lambda: getattr(m.numpy, fn)([1.0, 2.0]), []))(_fn)
    CASES[f"{_fn}_axis_out_of_bounds"] = (lambda fn: lambda m: (lambda x: getattr(m.numpy, fn)(x, axis=2),
                                                                [rand((2, 3), "float32")]))(_fn)
    CASES[f"{_fn}_empty_axis0"] = (lambda fn: lambda m: (lambda x: getattr(m.numpy, fn)(x, axis=0),
                                                         [np.zeros((0, 3), np.float32)]))(_fn)
    CASES[f"{_fn}_empty_axis1"] = (lambda fn: lambda m: (lambda x: getattr(m.numpy, fn)(x, axis=1),
                                                         [np.zeros((0, 3), np.float32)]))(_fn)

for _fn in ["sum", "prod", "max", "min", "mean", "var", "std", "all", "any", "argmax", "argmin", "ptp", "nansum",
            "nanprod", "nanmax", "nanmin", "nanmean", "nanvar", "nanstd", "nanargmax", "nanargmin"]:
    CASES[f"{_fn}_out"] = (lambda fn: lambda m: (lambda x: getattr(m.numpy, fn)(x, out=x),
                                                 [rand((2, 3), "float32")]))(_fn)

for _fn in ["nansum", "nanprod", "nanmax", "nanmin", "nanmean", "nanvar", "nanstd", "nanargmax", "nanargmin"]:
    CASES[f"{_fn}_nan"] = (lambda fn: lambda m: (getattr(m.numpy, fn), [_nan_data()]))(_fn)
    CASES[f"{_fn}_nan_axis1"] = (lambda fn: lambda m: (lambda x: getattr(m.numpy, fn)(x, axis=1),
                                                       [_nan_data()]))(_fn)
    CASES[f"{_fn}_nan_axis0_keepdims"] = (lambda fn: lambda m: (lambda x: getattr(m.numpy, fn)(x, axis=0,
                                                                                              keepdims=True),
                                                                [_nan_data()]))(_fn)
    CASES[f"{_fn}_int"] = (lambda fn: lambda m: (lambda x: getattr(m.numpy, fn)(x, axis=0),
                                                 [rand((3, 4), "int8", 2)]))(_fn)
    CASES[f"{_fn}_float16"] = (lambda fn: lambda m: (lambda x: getattr(m.numpy, fn)(x, axis=1),
                                                     [_nan_data("float16")]))(_fn)
    if not _fn.startswith("nanarg"):  # JAX's argmax of complex numbers fails in XLA
        CASES[f"{_fn}_complex"] = (lambda fn: lambda m: (lambda x: getattr(m.numpy, fn)(x, axis=1),
                                                         [rand((2, 3), "complex64", 2)]))(_fn)

_MASK = np.array([[True, False, True], [False, False, True]])
for _fn in ["sum", "prod", "mean", "var", "std", "all", "any", "nansum", "nanprod", "nanmean", "nanvar", "nanstd"]:
    CASES[f"{_fn}_where"] = (lambda fn: lambda m: (lambda x: getattr(m.numpy, fn)(x, where=x > 0),
                                                   [rand((2, 3), "float32", 7)]))(_fn)
    CASES[f"{_fn}_where_broadcast_axis"] = (lambda fn: lambda m: (
        lambda x: getattr(m.numpy, fn)(x, axis=0, where=np.array([True, False, True])),
        [rand((2, 3), "float32", 8)]))(_fn)
for _fn in ["max", "min", "nanmax", "nanmin"]:
    CASES[f"{_fn}_where_initial"] = (lambda fn: lambda m: (lambda x: getattr(m.numpy, fn)(x, where=_MASK,
                                                                                         initial=0.5),
                                                           [rand((2, 3), "float32", 7)]))(_fn)
    CASES[f"{_fn}_where_no_initial"] = (lambda fn: lambda m: (lambda x: getattr(m.numpy, fn)(x, where=_MASK),
                                                              [rand((2, 3), "float32", 7)]))(_fn)
    CASES[f"{_fn}_initial"] = (lambda fn: lambda m: (lambda x: getattr(m.numpy, fn)(x, axis=0, initial=1),
                                                     [rand((2, 3), "int8", 7)]))(_fn)
    CASES[f"{_fn}_initial_nan"] = (lambda fn: lambda m: (lambda x: getattr(m.numpy, fn)(x, initial=-1.0),
                                                         [_nan_data()]))(_fn)
    CASES[f"{_fn}_empty_initial"] = (lambda fn: lambda m: (lambda x: getattr(m.numpy, fn)(x, initial=3.0),
                                                           [np.zeros((0,), np.float32)]))(_fn)
for _fn in ["sum", "prod", "nansum", "nanprod"]:
    CASES[f"{_fn}_initial"] = (lambda fn: lambda m: (lambda x: getattr(m.numpy, fn)(x, axis=1, initial=2),
                                                     [rand((2, 3), "float32", 7)]))(_fn)
    CASES[f"{_fn}_initial_array"] = (lambda fn: lambda m: (lambda x: getattr(m.numpy, fn)(x, initial=np.ones(2)),
                                                           [rand((2, 3), "float32", 7)]))(_fn)
    CASES[f"{_fn}_dtype_float16"] = (lambda fn: lambda m: (lambda x: getattr(m.numpy, fn)(x, dtype=np.float16),
                                                           [rand((2, 3), "int32", 7)]))(_fn)
    CASES[f"{_fn}_dtype_int8"] = (lambda fn: lambda m: (lambda x: getattr(m.numpy, fn)(x, dtype="int8"),
                                                        [rand((2, 3), "float32", 7)]))(_fn)
    CASES[f"{_fn}_promote_integers_false"] = (lambda fn: lambda m: (
        lambda x: getattr(m.numpy, fn)(x, axis=0, **({"promote_integers": False} if fn in ("sum", "prod") else {})),
        [rand((2, 3), "uint8", 7)]))(_fn)
    CASES[f"{_fn}_bool_dtype_bool"] = (lambda fn: lambda m: (lambda x: getattr(m.numpy, fn)(x, dtype=bool),
                                                             [rand((2, 3), "bool", 7)]))(_fn)
for _fn in ["mean", "var", "std", "nanmean", "nanvar", "nanstd"]:
    CASES[f"{_fn}_dtype_float16"] = (lambda fn: lambda m: (lambda x: getattr(m.numpy, fn)(x, axis=0,
                                                                                         dtype=np.float16),
                                                           [rand((2, 3), "float32", 9)]))(_fn)
    CASES[f"{_fn}_dtype_int32"] = (lambda fn: lambda m: (lambda x: getattr(m.numpy, fn)(x, dtype=np.int32),
                                                         [rand((2, 3), "float32", 9)]))(_fn)
    CASES[f"{_fn}_weak_traced"] = (lambda fn: lambda m: (getattr(m.numpy, fn), [2.0]))(_fn)
for _fn in ["var", "std", "nanvar", "nanstd"]:
    CASES[f"{_fn}_ddof"] = (lambda fn: lambda m: (lambda x: getattr(m.numpy, fn)(x, axis=1, ddof=1),
                                                  [rand((2, 3), "float32", 10)]))(_fn)
    CASES[f"{_fn}_ddof_too_large"] = (lambda fn: lambda m: (lambda x: getattr(m.numpy, fn)(x, axis=1, ddof=3),
                                                            [rand((2, 3), "float32", 10)]))(_fn)
    CASES[f"{_fn}_mean"] = (lambda fn: lambda m: (lambda x, mu: getattr(m.numpy, fn)(x, axis=1, mean=mu),
                                                  [rand((2, 3), "float32", 10), rand((2, 1), "float32", 11)]))(_fn)
    CASES[f"{_fn}_mean_keepdims_where"] = (lambda fn: lambda m: (
        lambda x, mu: getattr(m.numpy, fn)(x, axis=1, mean=mu, keepdims=True, where=_MASK),
        [rand((2, 3), "float32", 10), rand((2, 1), "float32", 11)]))(_fn)
for _fn in ["var", "std"]:
    CASES[f"{_fn}_correction"] = (lambda fn: lambda m: (lambda x: getattr(m.numpy, fn)(x, correction=1.5),
                                                        [rand((2, 3), "float32", 10)]))(_fn)
    CASES[f"{_fn}_ddof_and_correction"] = (lambda fn: lambda m: (lambda x: getattr(m.numpy, fn)(x, ddof=1,
                                                                                               correction=1),
                                                                 [rand((2, 3), "float32", 10)]))(_fn)
for _fn in ["argmax", "argmin", "nanargmax", "nanargmin"]:
    CASES[f"{_fn}_keepdims_axis"] = (lambda fn: lambda m: (lambda x: getattr(m.numpy, fn)(x, axis=0, keepdims=True),
                                                           [rand((2, 3), "float32", 12)]))(_fn)
    CASES[f"{_fn}_keepdims_none_axis"] = (lambda fn: lambda m: (lambda x: getattr(m.numpy, fn)(x, keepdims=True),
                                                                [rand((2, 3), "float32", 12)]))(_fn)
    CASES[f"{_fn}_tuple_axis"] = (lambda fn: lambda m: (lambda x: getattr(m.numpy, fn)(x, axis=(0,)),
                                                        [rand((2, 3), "float32", 12)]))(_fn)
    CASES[f"{_fn}_empty"] = (lambda fn: lambda m: (getattr(m.numpy, fn), [np.zeros((0,), np.float32)]))(_fn)
    CASES[f"{_fn}_bad_axis"] = (lambda fn: lambda m: (lambda x: getattr(m.numpy, fn)(x, axis=3),
                                                      [rand((2, 3), "float32", 12)]))(_fn)
    CASES[f"{_fn}_ties_nan"] = (lambda fn: lambda m: (lambda x: getattr(m.numpy, fn)(x, axis=1),
                                                      [np.array([[1, 3, 3, np.nan], [2, 2, -1, -1],
                                                                 [np.nan, np.nan, np.nan, np.nan]], np.float32)]))(_fn)
CASES["sum_duplicate_axis"] = lambda m: (lambda x: m.numpy.sum(x, axis=(0, 0)), [rand((2, 3), "float32")])
CASES["sum_float_axis"] = lambda m: (lambda x: m.numpy.sum(x, axis=1.0), [rand((2, 3), "float32")])
CASES["sum_numpy_int_axis"] = lambda m: (lambda x: m.numpy.sum(x, axis=np.int64(1)), [rand((2, 3), "float32")])
CASES["sum_empty_axes"] = lambda m: (lambda x: m.numpy.sum(x, axis=()), [rand((2, 3), "int8")])
CASES["sum_list_axis"] = lambda m: (lambda x: m.numpy.sum(x, axis=[0, 1]), [rand((2, 3), "float32")])
CASES["count_nonzero_list_axis"] = lambda m: (lambda x: m.numpy.count_nonzero(x, axis=[0, 1]),
                                              [rand((2, 3), "float32")])
CASES["count_nonzero_list_operand_list_axis"] = lambda m: (lambda x: m.numpy.count_nonzero([x, x], axis=[0]),
                                                          [rand((3,), "float32")])
CASES["count_nonzero_float_axis"] = lambda m: (lambda x: m.numpy.count_nonzero(x, axis=1.5), [rand((2, 3), "float32")])
CASES["nanargmax_list_axis"] = lambda m: (lambda x: m.numpy.nanargmax(x, axis=[1]), [_nan_data()])
CASES["nanargmin_tuple_axis"] = lambda m: (lambda x: m.numpy.nanargmin(x, axis=(1,)), [_nan_data()])
CASES["nanargmax_numpy_int_axis"] = lambda m: (lambda x: m.numpy.nanargmax(x, axis=np.int64(1)), [_nan_data()])
CASES["sum_weak_traced"] = lambda m: (m.numpy.sum, [2.0])
CASES["max_bool_where"] = lambda m: (lambda x: m.numpy.max(x, where=_MASK, initial=False), [rand((2, 3), "bool")])
CASES["min_int_where"] = lambda m: (lambda x: m.numpy.min(x, where=_MASK, initial=100), [rand((2, 3), "int32")])
CASES["all_where_int"] = lambda m: (lambda x: m.numpy.all(x, where=_MASK), [rand((2, 3), "int32")])
CASES["any_where_keepdims"] = lambda m: (lambda x: m.numpy.any(x, axis=1, keepdims=True, where=_MASK),
                                         [rand((2, 3), "float32")])
CASES["mean_bool_where"] = lambda m: (lambda x: m.numpy.mean(x, axis=1, where=_MASK), [rand((2, 3), "bool")])
CASES["mean_empty"] = lambda m: (m.numpy.mean, [np.zeros((0,), np.float32)])
CASES["var_empty"] = lambda m: (m.numpy.var, [np.zeros((0,), np.float32)])
CASES["amax_alias"] = lambda m: (lambda x: m.numpy.amax(x, axis=0), [rand((2, 3), "int8")])
CASES["amin_alias"] = lambda m: (lambda x: m.numpy.amin(x, axis=0), [rand((2, 3), "int8")])
CASES["max_special"] = lambda m: (lambda x: m.numpy.max(x, axis=1),
                                  [np.array([[np.nan, 1, 2], [-np.inf, -0.0, 0.0]], np.float32)])
CASES["min_special"] = lambda m: (lambda x: m.numpy.min(x, axis=1),
                                  [np.array([[np.nan, 1, 2], [np.inf, 0.0, -0.0]], np.float32)])
CASES["sum_inf_nan"] = lambda m: (lambda x: m.numpy.sum(x, axis=1),
                                  [np.array([[np.inf, -np.inf, 1], [np.inf, 1, 2]], np.float32)])
CASES["nanmax_initial_traced"] = lambda m: (lambda x, i: m.numpy.nanmax(x, initial=i), [_nan_data(), 2.0])
CASES["nanmean_where"] = lambda m: (lambda x: m.numpy.nanmean(x, axis=1, where=x > 0), [_nan_data()])
CASES["nanvar_where"] = lambda m: (lambda x: m.numpy.nanvar(x, axis=1, where=x > 0), [_nan_data()])
CASES["count_nonzero_bool"] = lambda m: (lambda x: m.numpy.count_nonzero(x, axis=0), [rand((3, 2), "bool")])
CASES["count_nonzero_nan"] = lambda m: (m.numpy.count_nonzero, [_nan_data()])
CASES["ptp_int8_wraps"] = lambda m: (lambda x: m.numpy.ptp(x, axis=0),
                                     [np.array([[-100, 5], [100, 6]], np.int8)])

# Transformations.
CASES["jit_var_axis"] = lambda m: (m.jit(lambda x: m.numpy.var(x, axis=0)), [rand((3, 2), "float32", 13)])
CASES["vmap_sum"] = lambda m: (m.vmap(lambda x: m.numpy.sum(x, axis=0)), [rand((2, 3, 4), "float32", 14)])
CASES["vmap_argmax"] = lambda m: (m.vmap(m.numpy.argmax), [rand((2, 3, 4), "float32", 14)])
CASES["vmap_nanmean"] = lambda m: (m.vmap(m.numpy.nanmean, in_axes=1), [_nan_data()])
CASES["grad_max_ties"] = lambda m: (m.grad(lambda x: m.numpy.max(x)),
                                    [np.array([1.0, 3.0, 3.0, 2.0], np.float32)])
CASES["grad_min_axis_ties"] = lambda m: (m.grad(lambda x: m.numpy.sum(m.numpy.min(x, axis=1))),
                                         [np.array([[1.0, 1.0, 2.0], [0.0, 5.0, 0.0]], np.float32)])
CASES["grad_nanmax"] = lambda m: (m.grad(lambda x: m.numpy.sum(m.numpy.nanmax(x, axis=1))),
                                  [np.array([[1.0, np.nan, 2.0], [4.0, 4.0, np.nan]], np.float32)])
CASES["grad_var"] = lambda m: (m.grad(lambda x: m.numpy.var(x)), [rand((2, 3), "float32", 15)])
CASES["grad_std_where"] = lambda m: (m.grad(lambda x: m.numpy.std(x, where=_MASK)), [rand((2, 3), "float32", 15)])
CASES["grad_prod_zero"] = lambda m: (m.grad(lambda x: m.numpy.prod(x)),
                                     [np.array([2.0, 0.0, 3.0, 4.0], np.float32)])
CASES["grad_nansum"] = lambda m: (m.grad(lambda x: m.numpy.nansum(x)), [_nan_data()])
CASES["grad_mean_where"] = lambda m: (m.grad(lambda x: m.numpy.mean(x, where=_MASK)), [rand((2, 3), "float32", 15)])

if __name__ == "__main__":
    jnp_golden.write(CASES, "jnp_reductions_golden.json")
