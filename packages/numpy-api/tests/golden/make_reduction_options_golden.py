"""Golden records of JAX 0.10.2's errors and warnings for reductions given bad options — a dtype that is a number, an
unhashable list or no dtype's name, an unhashable ``keepdims``, an ``initial`` list, ``bincount`` weights not of the
operand's type — eagerly and inside ``jit``, and of the warnings a 64-bit ``dtype`` gives with x64 off on a
reduction's first call (its compiled signature's tracing: ``sum`` and ``prod`` warn twice, naming themselves and
then ``convert_element_type``) and on ``fftfreq`` and ``rfftfreq`` (once per step: ``arange``, ``astype``,
``array``). Each warning case reduces an array of a shape of its own, so that no other case has traced its signature
before.

Run with JAX's environment:
/work/jaxpeer/bin/python packages/numpy-api/tests/golden/make_reduction_options_golden.py jax
"""

from __future__ import annotations

import importlib
import json
import pathlib
import sys
from collections.abc import Callable
from typing import Any

import numpy as np
from make_complex_to_real_golden import record, record_calls

HERE = pathlib.Path(__file__).parent


def _x(m: Any) -> Any:
    return m.numpy.ones(3)


OPTION_CALLS: dict[str, Callable[[Any], Any]] = {
    "sum_dtype_list": lambda m: m.numpy.sum(_x(m), dtype=[1]),
    "sum_dtype_list_positional": lambda m: m.numpy.sum(_x(m), None, [1]),
    "sum_keepdims_list": lambda m: m.numpy.sum(_x(m), keepdims=[1]),
    "sum_axis_list_dtype_list": lambda m: m.numpy.sum(_x(m), axis=[0], dtype=[1]),
    "mean_dtype_list": lambda m: m.numpy.mean(_x(m), dtype=[1]),
    "max_keepdims_list": lambda m: m.numpy.max(_x(m), keepdims=[1]),
    "var_dtype_list": lambda m: m.numpy.var(_x(m), dtype=[1]),
    "std_dtype_list": lambda m: m.numpy.std(_x(m), dtype=[1]),
    "nansum_dtype_list": lambda m: m.numpy.nansum(_x(m), dtype=[1]),
    "cumsum_dtype_list": lambda m: m.numpy.cumsum(_x(m), dtype=[1]),
    "sum_dtype_foo": lambda m: m.numpy.sum(_x(m), dtype="foo"),
    "mean_dtype_foo": lambda m: m.numpy.mean(_x(m), dtype="foo"),
    "prod_dtype_foo": lambda m: m.numpy.prod(_x(m), dtype="foo"),
    "var_dtype_foo": lambda m: m.numpy.var(_x(m), dtype="foo"),
    "nanmean_dtype_foo": lambda m: m.numpy.nanmean(_x(m), dtype="foo"),
    "sum_dtype_int": lambda m: m.numpy.sum(_x(m), dtype=3),
    "mean_dtype_int": lambda m: m.numpy.mean(_x(m), dtype=3),
    "var_dtype_int": lambda m: m.numpy.var(_x(m), dtype=3),
    "cumsum_dtype_int": lambda m: m.numpy.cumsum(_x(m), dtype=3),
    "sum_dtype_float": lambda m: m.numpy.sum(_x(m), dtype=3.0),
    "sum_dtype_bool": lambda m: m.numpy.sum(_x(m), dtype=True),
    "sum_dtype_numpy_int": lambda m: m.numpy.mean(_x(m), dtype=np.int32(3)),
    "zeros_dtype_int": lambda m: m.numpy.zeros(2, 3),
    "ones_dtype_bool": lambda m: m.numpy.ones(2, True),
    "empty_dtype_int": lambda m: m.numpy.empty(2, 3),
    "zeros_tuple_dtype_int": lambda m: m.numpy.zeros((2,), 3),
    "full_dtype_int": lambda m: m.numpy.full(2, 1, 3),
    "array_dtype_int": lambda m: m.numpy.array(1, dtype=3),
    "astype_int": lambda m: _x(m).astype(3),
    "arange_dtype_int": lambda m: m.numpy.arange(3, dtype=3),
    "convert_element_type_int": lambda m: m.lax.convert_element_type(_x(m), 3),
    # an initial value given as a list or tuple: JAX traces its elements, then finds no dtype for it
    "sum_initial_list": lambda m: m.numpy.sum(_x(m), initial=[1]),
    "sum_initial_list_of_array": lambda m: m.numpy.sum(_x(m), initial=[m.numpy.float32(1)]),
    "max_initial_tuple": lambda m: m.numpy.max(_x(m), initial=(1.0,)),
    "prod_initial_list": lambda m: m.numpy.prod(_x(m), initial=[1, 2]),
    "nansum_initial_list": lambda m: m.numpy.nansum(_x(m), initial=[1]),
    "method_sum_initial": lambda m: _x(m).sum(initial=[1]),
    # weights not of the operand's type
    "bincount_weights_scalar": lambda m: m.numpy.bincount(m.numpy.arange(3), weights=1.0, length=4),
    "bincount_weights_complex": lambda m: m.numpy.bincount(m.numpy.arange(3), weights=1j, length=4),
    "bincount_weights_short": lambda m: m.numpy.bincount(m.numpy.arange(3), weights=m.numpy.ones(2), length=4),
    "bincount_weights_2d": lambda m: m.numpy.bincount(m.numpy.arange(3), weights=m.numpy.ones((3, 1)), length=4),
    "bincount_weights_list": lambda m: m.numpy.bincount(m.numpy.arange(3), weights=[1, 2, 3], length=4),
    "bincount_weights_bool": lambda m: m.numpy.bincount(m.numpy.arange(3), weights=m.numpy.ones(3, bool),
                                                        length=4),
}

# Each reduces ``ones(n)`` for its own ``n``.
_WIDE_CALLS: dict[str, Callable[[Any, Any], Any]] = {
    "sum": lambda m, x: m.numpy.sum(x, dtype=m.numpy.float64),
    "sum_numpy_type": lambda m, x: m.numpy.sum(x, dtype=np.float64),
    "sum_int64": lambda m, x: m.numpy.sum(x, dtype=m.numpy.int64),
    "method_sum": lambda m, x: x.sum(dtype=m.numpy.float64),
    "prod": lambda m, x: m.numpy.prod(x, dtype=m.numpy.float64),
    "mean": lambda m, x: m.numpy.mean(x, dtype=m.numpy.float64),
    "mean_complex128": lambda m, x: m.numpy.mean(x, dtype=m.numpy.complex128),
    "var": lambda m, x: m.numpy.var(x, dtype=m.numpy.float64),
    "std": lambda m, x: m.numpy.std(x, dtype=m.numpy.float64),
    "cumsum": lambda m, x: m.numpy.cumsum(x, dtype=m.numpy.float64),
    "cumprod": lambda m, x: m.numpy.cumprod(x, dtype=m.numpy.float64),
    "nansum": lambda m, x: m.numpy.nansum(x, dtype=m.numpy.float64),
    "nanmean": lambda m, x: m.numpy.nanmean(x, dtype=m.numpy.float64),
    "nanvar": lambda m, x: m.numpy.nanvar(x, dtype=m.numpy.float64),
    "trace": lambda m, x: m.numpy.trace(m.numpy.diag(x), dtype=m.numpy.float64),
    "fftfreq": lambda m, x: m.numpy.fft.fftfreq(x.shape[0], dtype=m.numpy.float64),
    "rfftfreq": lambda m, x: m.numpy.fft.rfftfreq(x.shape[0], dtype=m.numpy.float64),
    # the ufunc methods: a jnp reduction's warnings, or those of JAX's astype of each element converted
    "add_reduce": lambda m, x: m.numpy.add.reduce(x, dtype=m.numpy.float64),
    "add_reduce_int64": lambda m, x: m.numpy.add.reduce(x, dtype=m.numpy.int64),
    "add_accumulate": lambda m, x: m.numpy.add.accumulate(x, dtype=m.numpy.float64),
    "multiply_reduce": lambda m, x: m.numpy.multiply.reduce(x, dtype=m.numpy.float64),
    "multiply_accumulate": lambda m, x: m.numpy.multiply.accumulate(x, dtype=m.numpy.float64),
    "minimum_reduce": lambda m, x: m.numpy.minimum.reduce(x, dtype=m.numpy.float64),
    "maximum_reduce_numpy_type": lambda m, x: m.numpy.maximum.reduce(x, dtype=np.float64),
    "maximum_accumulate": lambda m, x: m.numpy.maximum.accumulate(x, dtype=m.numpy.float64),
    "subtract_reduce": lambda m, x: m.numpy.subtract.reduce(x, dtype=m.numpy.float64),
    "subtract_accumulate": lambda m, x: m.numpy.subtract.accumulate(x, dtype=m.numpy.float64),
    "logaddexp_reduce": lambda m, x: m.numpy.logaddexp.reduce(x, dtype=m.numpy.float64),
    "logaddexp2_reduce": lambda m, x: m.numpy.logaddexp2.reduce(x, dtype=m.numpy.float64),
    "logaddexp2_reduce_int64": lambda m, x: m.numpy.logaddexp2.reduce(x, dtype=m.numpy.int64),
    "logaddexp2_accumulate": lambda m, x: m.numpy.logaddexp2.accumulate(x, dtype=m.numpy.float64),
    "logical_and_reduce_int64": lambda m, x: m.numpy.logical_and.reduce(x, dtype=m.numpy.int64),
    "logical_xor_reduce_int64": lambda m, x: m.numpy.logical_xor.reduce(x, dtype=np.int64),
    "bitwise_or_reduce_int64": lambda m, x: m.numpy.bitwise_or.reduce(x.astype(int), dtype=m.numpy.int64),
    "bitwise_and_reduce_uint64": lambda m, x: m.numpy.bitwise_and.reduce(x.astype(int), dtype=m.numpy.uint64),
    "add_reduceat": lambda m, x: m.numpy.add.reduceat(x, m.numpy.array([0, 2]), dtype=m.numpy.float64),
    "bitwise_or_reduceat": lambda m, x: m.numpy.bitwise_or.reduceat(x.astype(int), m.numpy.array([0, 2]),
                                                                    dtype=m.numpy.float64),
}

# Each called on ``ones(n)`` for its own ``n``, twice eagerly then twice inside jit (jitted anew each time), or
# inside jit first: JAX's eager and traced calls of a jitted jnp function share its traces, so a warning given
# while tracing it comes once per signature (a function JAX does not jit warns at every call).
_CACHED_CALLS: dict[str, Callable[[Any, Any], Any]] = {
    "sum": lambda m, x: m.numpy.sum(x, dtype=m.numpy.float64),
    "prod": lambda m, x: m.numpy.prod(x, dtype=m.numpy.float64),
    "mean": lambda m, x: m.numpy.mean(x, dtype=m.numpy.float64),
    "var": lambda m, x: m.numpy.var(x, dtype=m.numpy.float64),
    "nanmean": lambda m, x: m.numpy.nanmean(x, dtype=m.numpy.float64),
    "cumsum": lambda m, x: m.numpy.cumsum(x, dtype=m.numpy.float64),
    "method_sum": lambda m, x: x.sum(dtype=m.numpy.float64),
    "linspace": lambda m, x: m.numpy.linspace(0, 1, x.shape[0], dtype=m.numpy.float64),
    "logspace": lambda m, x: m.numpy.logspace(0, 1, x.shape[0], dtype=m.numpy.float64),
    "geomspace": lambda m, x: m.numpy.geomspace(1, 2, x.shape[0], dtype=m.numpy.float64),
    "linspace_complex_start": lambda m, x: m.numpy.linspace(1j, 2, x.shape[0], dtype=m.numpy.float32),
    "arange": lambda m, x: m.numpy.arange(x.shape[0], dtype=m.numpy.float64),
    "zeros": lambda m, x: m.numpy.zeros(x.shape, dtype=m.numpy.float64),
    "astype": lambda m, x: x.astype(m.numpy.float64),
    "astype_complex": lambda m, x: x.astype(m.numpy.complex64).astype(m.numpy.float32),
    "fftfreq": lambda m, x: m.numpy.fft.fftfreq(x.shape[0], dtype=m.numpy.float64),
    "add_reduce": lambda m, x: m.numpy.add.reduce(x, dtype=m.numpy.float64),
    "add_accumulate": lambda m, x: m.numpy.add.accumulate(x, dtype=m.numpy.float64),
    "subtract_reduce": lambda m, x: m.numpy.subtract.reduce(x, dtype=m.numpy.float64),
    "maximum_accumulate": lambda m, x: m.numpy.maximum.accumulate(x, dtype=m.numpy.float64),
    "logaddexp_reduce": lambda m, x: m.numpy.logaddexp.reduce(x, dtype=m.numpy.float64),
    "logaddexp2_reduce": lambda m, x: m.numpy.logaddexp2.reduce(x, dtype=m.numpy.float64),
    "logical_or_reduce": lambda m, x: m.numpy.logical_or.reduce(x, dtype=m.numpy.int64),
    "frompyfunc_reduce": lambda m, x: m.numpy.frompyfunc(m.numpy.add, 2, 1, identity=0).reduce(
        x, dtype=m.numpy.float64),
}
EAGER_FIRST = ("eager", "eager", "jit", "jit")
JIT_FIRST = ("jit", "eager")
CACHED_CALLS = {name: (n, fn) for n, (name, fn) in enumerate(_CACHED_CALLS.items(), start=100)}
CACHED_JIT_CALLS = {name: (n, fn) for n, (name, fn) in enumerate(_CACHED_CALLS.items(), start=150)}


def _wide_case(n: int, fn: Callable[[Any, Any], Any]) -> Callable[[Any], Any]:
    return lambda m: fn(m, m.numpy.ones(n))


WIDE_CALLS = {name: _wide_case(n, fn) for n, (name, fn) in enumerate(_WIDE_CALLS.items(), start=5)}
# The same, first called inside jit.
WIDE_JIT_CALLS = {name: _wide_case(n, fn) for n, (name, fn) in enumerate(_WIDE_CALLS.items(), start=50)}


def records(m: Any) -> dict:
    out = {f"option_{name}": record(m, fn) for name, fn in OPTION_CALLS.items()}
    out.update({f"first_call_{name}": record(m, fn, ("eager",)) for name, fn in WIDE_CALLS.items()})
    out.update({f"first_call_jit_{name}": record(m, fn, ("jit",)) for name, fn in WIDE_JIT_CALLS.items()})
    out.update({f"cached_{name}": record_calls(m, fn, m.numpy.ones(n), EAGER_FIRST)
                for name, (n, fn) in CACHED_CALLS.items()})
    out.update({f"cached_jit_first_{name}": record_calls(m, fn, m.numpy.ones(n), JIT_FIRST)
                for name, (n, fn) in CACHED_JIT_CALLS.items()})
    return out


if __name__ == "__main__":
    module = importlib.import_module(sys.argv[1])
    importlib.import_module(f"{sys.argv[1]}.numpy")
    data = records(module)
    (HERE / "reduction_options_golden.json").write_text(json.dumps(data, indent=1, sort_keys=True) + "\n")
    print(f"{len(data)} cases -> {HERE / 'reduction_options_golden.json'}")
