"""Write mismatch_names_golden.json: under ``jax.set_mesh``, how JAX names the argument on other devices that it
refuses: by the parameter of the jitted function that received it (``jnp`` functions are jitted: ``x`` of
``multiply``, also for ``np_array * x``; ``a`` of ``_reduce_sum`` for ``jnp.sum``, of ``_reduce_all`` for ``jnp.all``;
``x`` of ``abs`` for an alias, ``x1`` of ``true_divide``; ``a`` of ``ravel`` for the functions that ravel their
operand first, as ``jnp.repeat``, ``jnp.unique`` and the set operations; ``args[i]`` of ``_broadcast_arrays``; ``a``
of ``_squeeze`` for the updates of ``.at[].add`` and the arguments of a ``vectorize``d function; ``a`` of
``_moveaxis`` for ``jnp.vecdot`` and the FFTs; ``operands[i]`` of ``_einsum``; ``a`` of ``ufunc.reduce``), by
``args[i]`` of a primitive applied eagerly, and not at all when a jitted function received it traced (under
``grad``, ``vmap``, ``jvp``: ``Got jit's context mesh ... and ARG_SHARDING ...``). Recorded from the module named
on the command line:

    /work/jaxpeer/bin/python multidevice-tests/golden/make_mismatch_names_golden.py jax
"""

import importlib
import pathlib

import golden_main
import numpy as np
from golden_cases import error_of

HERE = pathlib.Path(__file__).parent
X = np.arange(8.0, dtype=np.float32)


def _outcome(thunk) -> str:
    """The error ``thunk()`` raises (type and message), or ``ok``."""
    return error_of(thunk, none="ok")


def _case(jax, name: str, where: str) -> str:
    """Operation ``name`` on X laid out ``where`` (``other``: over the last four devices; ``device6``) under
    set_mesh of the first four devices."""
    jnp, lax = importlib.import_module(jax.__name__ + ".numpy"), jax.lax
    special = importlib.import_module(jax.__name__ + ".scipy.special")
    devices = np.array(jax.devices())
    P, NamedSharding, Mesh = jax.sharding.PartitionSpec, jax.sharding.NamedSharding, jax.sharding.Mesh
    x, xi, xb, x0, xu = ((jax.device_put(v, devices[6]) if where == "device6" else
                          jax.device_put(v, NamedSharding(Mesh(devices[4:], ("x",)), P("x"))))
                         for v in (X, X.astype(np.int32), X > 2, np.zeros(8, np.int32), np.zeros(8, np.uint8)))

    def total(a):
        return (a * 2).sum()

    cases = {
        "mul": lambda: x * 2, "rmul_numpy": lambda: X * x, "mul_numpy": lambda: x * X, "add": lambda: x + x,
        "rsub_numpy": lambda: X - x, "rmatmul_numpy": lambda: X @ x, "neg": lambda: -x, "pow": lambda: x ** 2,
        "sin": lambda: jnp.sin(x), "sum": lambda: jnp.sum(x), "sum_method": lambda: x.sum(),
        "sum_axis": lambda: jnp.sum(x, axis=0), "prod": lambda: jnp.prod(x), "max": lambda: jnp.max(x),
        "max_method": lambda: x.max(), "min": lambda: jnp.min(x), "mean": lambda: jnp.mean(x),
        "mean_method": lambda: x.mean(), "var": lambda: jnp.var(x), "argmax": lambda: jnp.argmax(x),
        "argmin": lambda: jnp.argmin(x), "cumsum": lambda: jnp.cumsum(x), "dot": lambda: jnp.dot(x, x),
        "matmul": lambda: jnp.matmul(x, x), "squeeze": lambda: jnp.squeeze(x),
        "moveaxis": lambda: jnp.moveaxis(x, 0, 0), "where": lambda: jnp.where(x > 0, x, 0.0),
        "reshape": lambda: x.reshape(2, 4), "index": lambda: x[1], "lax_add": lambda: lax.add(X, x),
        "grad": lambda: jax.grad(total)(x), "grad_sin": lambda: jax.grad(lambda a: jnp.sin(a).sum())(x),
        "grad_numpy_left": lambda: jax.grad(lambda a: (X * a).sum())(x),
        "grad_lax": lambda: jax.grad(lambda a: lax.reduce_sum(lax.mul(a, 2.0), (0,)))(x),
        "grad_jit": lambda: jax.grad(jax.jit(total))(x),
        "vmap": lambda: jax.vmap(lambda a: a * 2)(x), "vmap_sin": lambda: jax.vmap(jnp.sin)(x),
        "vmap_sum": lambda: jax.vmap(jnp.sum)(x), "vmap_neg": lambda: jax.vmap(lambda a: -a)(x),
        "vmap_two": lambda: jax.vmap(lambda a, b: a + b)(x, x),
        "vmap_numpy_left": lambda: jax.vmap(lambda a: X[0] * a)(x),
        "vmap_jit": lambda: jax.vmap(jax.jit(lambda a: a * 2))(x),
        "vmap_lax_add": lambda: jax.vmap(lambda a: lax.add(a, 2.0))(x),
        "vmap_reshape": lambda: jax.vmap(lambda a: a.reshape(1))(x),
        "vmap_pow": lambda: jax.vmap(lambda a: a ** 2)(x),
        "jvp": lambda: jax.jvp(lambda a: a * 2, (x,), (x,)), "jvp_lax": lambda: jax.jvp(lax.sin, (x,), (x,)),
        "vjp": lambda: jax.vjp(lambda a: a * 2, x),
        **{name: (lambda n=name: getattr(jnp, n)(x)) for name in UNARY},
        **{name: (lambda n=name: getattr(jnp, n)(x, X)) for name in BINARY},
        **{name: (lambda n=name: getattr(jnp, n)(xi, 1)) for name in INTEGER},
        "power_array": lambda: jnp.power(x, X), "repeat_twice": lambda: jnp.repeat(x, 2),
        "roll_one": lambda: jnp.roll(x, 1), "delete_one": lambda: jnp.delete(x, 1),
        "insert_one": lambda: jnp.insert(x, 1, 0.0), "take_two": lambda: jnp.take(x, np.array([0, 1])),
        "searchsorted_x": lambda: jnp.searchsorted(x, X), "interp_x": lambda: jnp.interp(x, X, X),
        "partition_two": lambda: jnp.partition(x, 2), "argpartition_two": lambda: jnp.argpartition(x, 2),
        **{name: (lambda n=name: getattr(jnp, n)(x)) for name in UNIQUE},
        **{name: (lambda n=name: getattr(jnp, n)(x, X)) for name in SET_OPERATIONS},
        **{f"{name}_second": (lambda n=name: getattr(jnp, n)(X, x)) for name in SET_OPERATIONS},
        "extract": lambda: jnp.extract(X > 2, x), "extract_condition": lambda: jnp.extract(xb, X),
        "compress": lambda: jnp.compress(X > 2, x), "place": lambda: jnp.place(x, X > 2, 0.0, inplace=False),
        "trim_zeros": lambda: jnp.trim_zeros(x), "bincount": lambda: jnp.bincount(xi),
        "bincount_weights": lambda: jnp.bincount(X.astype(np.int32), weights=x),
        "at_add_updates": lambda: jnp.zeros(8).at[:].add(x),
        "broadcast_arrays": lambda: jnp.broadcast_arrays(x, X),
        "broadcast_arrays_second": lambda: jnp.broadcast_arrays(X, x), "choose": lambda: jnp.choose(x0, [X, X]),
        "choose_choices": lambda: jnp.choose(np.zeros(8, np.int32), [x, X]),
        "histogram2d": lambda: jnp.histogram2d(x, X), "histogram2d_second": lambda: jnp.histogram2d(X, x),
        "vecdot": lambda: jnp.vecdot(x, X), "vecdot_second": lambda: jnp.vecdot(X, x),
        "packbits": lambda: jnp.packbits(xi), "unpackbits": lambda: jnp.unpackbits(xu),
        "select": lambda: jnp.select([X > 2], [x]), "einsum": lambda: jnp.einsum("i,i", x, X),
        "einsum_second": lambda: jnp.einsum("i,i", X, x), "swapaxes": lambda: jnp.swapaxes(x, 0, 0),
        "fft": lambda: jnp.fft.fft(x), "rfft": lambda: jnp.fft.rfft(x), "add_reduce": lambda: jnp.add.reduce(x),
        "add_accumulate": lambda: jnp.add.accumulate(x), "add_outer": lambda: jnp.add.outer(x, X),
        "add_at": lambda: jnp.add.at(x, np.array([0]), 1.0, inplace=False),
        "vectorize": lambda: jnp.vectorize(lambda a: a * 2)(x),
        "ravel_multi_index": lambda: jnp.ravel_multi_index((xi,), (8,)),
        "logsumexp": lambda: jax.nn.logsumexp(x), "sigmoid": lambda: jax.nn.sigmoid(x),
        "select_condition": lambda: jnp.select([xb], [X]), "average_weights": lambda: jnp.average(X, weights=x),
        "abs_builtin": lambda: abs(x), "xlogy": lambda: special.xlogy(x, X),
    }
    with jax.set_mesh(Mesh(devices[:4], ("x",))):
        return _outcome(cases[name])


# jax.numpy functions of one array (x), of x and a NumPy array, and of an integer array and 1
UNARY = ("all", "any", "average", "std", "ptp", "sort", "argsort", "sort_complex", "ravel", "abs", "absolute", "acos",
         "acosh", "asin", "asinh", "atan", "atanh", "floor", "ceil", "fabs", "log2", "log10", "deg2rad", "rad2deg",
         "radians", "degrees", "spacing", "positive", "real", "conj", "conjugate", "unstack", "diagflat", "nonzero",
         "flatnonzero", "where")
BINARY = ("divide", "true_divide", "arctan2", "atan2", "logaddexp", "logaddexp2", "vdot", "inner", "outer")
UNIQUE = ("unique", "unique_values", "unique_counts", "unique_inverse", "unique_all")
SET_OPERATIONS = ("union1d", "intersect1d", "setdiff1d", "setxor1d", "isin")
INTEGER = ("left_shift", "right_shift", "bitwise_left_shift", "bitwise_right_shift", "bitwise_not", "bitwise_invert")

NAMES = ("mul", "rmul_numpy", "mul_numpy", "add", "rsub_numpy", "rmatmul_numpy", "neg", "pow", "sin", "sum",
         "sum_method", "sum_axis", "prod", "max", "max_method", "min", "mean", "mean_method", "var", "argmax",
         "argmin", "cumsum", "dot", "matmul", "squeeze", "moveaxis", "where", "reshape", "index", "lax_add", "grad",
         "grad_sin", "grad_numpy_left", "grad_lax", "grad_jit", "vmap", "vmap_sin", "vmap_sum", "vmap_neg",
         "vmap_two", "vmap_numpy_left", "vmap_jit", "vmap_lax_add", "vmap_reshape", "vmap_pow", "jvp", "jvp_lax",
         "vjp", *UNARY, *BINARY, *INTEGER, "power_array", "repeat_twice", "roll_one", "delete_one", "insert_one",
         "take_two", "searchsorted_x", "interp_x", "partition_two", "argpartition_two", *UNIQUE, *SET_OPERATIONS,
         *(f"{name}_second" for name in SET_OPERATIONS), "extract", "extract_condition", "compress", "place",
         "trim_zeros", "bincount", "bincount_weights", "at_add_updates", "broadcast_arrays",
         "broadcast_arrays_second", "choose", "choose_choices", "histogram2d", "histogram2d_second", "vecdot",
         "vecdot_second", "packbits", "unpackbits", "select", "einsum", "einsum_second", "swapaxes", "fft", "rfft",
         "add_reduce", "add_accumulate", "add_outer", "add_at", "vectorize", "ravel_multi_index", "logsumexp",
         "sigmoid", "select_condition", "average_weights", "abs_builtin", "xlogy")
CASES = {f"{where}_{name}": (lambda jax, n=name, w=where: _case(jax, n, w))
         for where in ("other", "device6") for name in NAMES}


def run(module) -> dict:
    return {name: case(module) for name, case in CASES.items()}


if __name__ == "__main__":
    golden_main.main(run, HERE / "mismatch_names_golden.json")
