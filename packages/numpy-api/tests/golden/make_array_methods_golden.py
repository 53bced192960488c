"""Golden records of the Array's NumPy methods and properties from JAX 0.10.2 (see jnp_golden.py).

    /work/jaxpeer/bin/python packages/numpy-api/tests/golden/make_array_methods_golden.py jax
"""

import copy

import jnp_golden
import numpy as np
from jnp_golden import rand

X = rand((2, 3), "float32", 0)
V = rand((4,), "float32", 1)
I = rand((2, 3), "int32", 2)


def _method(fn, *args):
    """A case calling ``fn`` on jnp arrays (``jnp.asarray`` of a tracer stages nothing)."""
    return lambda m: (lambda *a: fn(*(m.numpy.asarray(v) for v in a)), args)


def _jnp(fn, *args):
    """A case whose function needs the jnp module (``m.numpy``)."""
    return lambda m: (fn(m.numpy), args)


CASES = {
    "sum": _method(lambda x: x.sum(), X),
    "sum_axis_keepdims": _method(lambda x: x.sum(axis=1, keepdims=True), X),
    "sum_int_dtype": _method(lambda x: x.sum(0, dtype="float32"), I),
    "prod": _method(lambda x: x.prod(axis=0), X),
    "max": _method(lambda x: x.max(axis=1), X),
    "min_initial": _method(lambda x: x.min(initial=0.0), X),
    "all": _method(lambda x: x.all(), X),
    "any_axis": _method(lambda x: x.any(axis=0), I),
    "mean": _method(lambda x: x.mean(axis=0), X),
    "mean_int": _method(lambda x: x.mean(), I),
    "var_ddof": _method(lambda x: x.var(ddof=1), X),
    "std": _method(lambda x: x.std(axis=1), X),
    "argmax": _method(lambda x: x.argmax(), X),
    "argmin_axis": _method(lambda x: x.argmin(axis=1, keepdims=True), X),
    "ptp": _method(lambda x: x.ptp(axis=0), I),
    "cumsum": _method(lambda x: x.cumsum(), X),
    "cumprod_axis": _method(lambda x: x.cumprod(axis=1), I),
    "reshape_args": _method(lambda x: x.reshape(3, 2), X),
    "reshape_tuple": _method(lambda x: x.reshape((3, -1)), X),
    "reshape_int": _method(lambda x: x.reshape(6), X),
    "reshape_order_f": _method(lambda x: x.reshape(3, 2, order="F"), X),
    "ravel": _method(lambda x: x.ravel(), X),
    "flatten": _method(lambda x: x.flatten(), X),
    "transpose": _method(lambda x: x.transpose(), X),
    "transpose_args": _method(lambda x: x.transpose(1, 0), X),
    "transpose_tuple": _method(lambda x: x.transpose((1, 0)), X),
    "T": _method(lambda x: x.T, X),
    "mT": _method(lambda x: x.mT, rand((2, 2, 3), "float32", 3)),
    "squeeze": _method(lambda x: x.squeeze(), rand((1, 3, 1), "float32", 3)),
    "squeeze_axis": _method(lambda x: x.squeeze(axis=0), rand((1, 3, 1), "float32", 3)),
    "swapaxes": _method(lambda x: x.swapaxes(0, 1), X),
    "diagonal": _method(lambda x: x.diagonal(), X),
    "diagonal_offset": _method(lambda x: x.diagonal(1), X),
    "repeat": _method(lambda x: x.repeat(2, axis=1), X),
    "repeat_flat": _method(lambda x: x.repeat(2), V),
    "astype": _method(lambda x: x.astype("int32"), X),
    "astype_bool": _method(lambda x: x.astype(bool), I),
    "view_same_size": _method(lambda x: x.view("int32"), X),
    "view_smaller": _method(lambda x: x.view("uint8"), X),
    "view_larger": _method(lambda x: x.view("float32"), rand((2, 4), "int16", 4)),
    "view_none": _method(lambda x: x.view(), X),
    "view_type": _method(lambda x: x.view(type=np.ndarray), X),
    "byteswap": _method(lambda x: x.byteswap(), I),
    "sort": _method(lambda x: x.sort(), X),
    "sort_axis": _method(lambda x: x.sort(axis=0, descending=True), X),
    "argsort": _method(lambda x: x.argsort(), X),
    "argpartition": _method(lambda x: x.argpartition(1), V),
    "searchsorted": _method(lambda x, v: x.searchsorted(v), np.sort(V), X),
    "dot": _method(lambda x, y: x.dot(y), X, rand((3, 2), "float32", 5)),
    "trace": _method(lambda x: x.trace(), X),
    "take": _method(lambda x, i: x.take(i), X, np.array([0, 4, 9])),
    "take_axis": _method(lambda x, i: x.take(i, axis=1, mode="clip"), X, np.array([0, 4])),
    "nonzero": _method(lambda x: x.nonzero(), I),
    "compress": _method(lambda x: x.compress(np.array([True, False, True]), axis=1), X),
    "choose": _method(lambda x, a, b: x.choose([a, b]), np.array([0, 1, 1, 0]), V, 2 * V),
    "clip": _method(lambda x: x.clip(-0.5, 0.5), X),
    "clip_max_only": _method(lambda x: x.clip(max=0), I),
    "round": _method(lambda x: x.round(), X),
    "round_decimals": _method(lambda x: x.round(1), X),
    "python_round": _method(lambda x: round(x), X),
    "python_round_digits": _method(lambda x: round(x, 2), X),
    "conj": _method(lambda x: x.conj(), X),
    "conjugate_complex": _method(lambda x: x.conjugate(), rand((3,), "complex64", 6)),
    "real_imag": _method(lambda x: (x.real, x.imag), rand((3,), "complex64", 6)),
    "real_of_real": _method(lambda x: (x.real, x.imag), X),
    "copy": _method(lambda x: x.copy(), X),
    "python_copy": _method(lambda x: copy.copy(x), X),
    "python_deepcopy": _method(lambda x: copy.deepcopy(x), X),
    "iterate": _method(lambda x: tuple(x), X),
    "contains_2d": _method(lambda x: x.__contains__(1.0), X),
    "contains": _method(lambda x: x.__contains__(x[1]), V),
    "item": _jnp(lambda jnp: lambda x: jnp.float32(x.item(1)), X),
    "at_get": _method(lambda x: x.at[0, 1].get(), X),
    "flat": _method(lambda x: x.flat, X),
    "array_namespace_version": _method(lambda x: x.__array_namespace__(api_version="2023.12"), X),
    "shape_dtype_properties": _jnp(lambda jnp: lambda x: jnp.asarray([x.ndim, x.size, x.itemsize, x.nbytes]), X),
}

if __name__ == "__main__":
    jnp_golden.write(CASES, "array_methods_golden.json")
