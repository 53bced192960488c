"""Write creation_golden.json: lax's array-making and shape helpers (full, full_like, empty, shape_as_value,
broadcast_like, collapse, index_take, square) with their jaxpr text, values and errors, alone and under grad/vmap,
and the helpers that return plain Python values (broadcast_shapes, dtype) by their repr:

    /work/jaxpeer/bin/python packages/core/tests/golden/make_creation_golden.py jax
"""

import importlib
import json
import sys
import warnings

import numpy as np
from make_reductions_golden import HERE, rand, run_text_case

X = rand((2, 3), "float32")
I1, I2 = np.array([1, 0], np.int32), np.array([2, 1], np.int32)


def _sum(m, x):
    return m.lax.reduce_sum(x, tuple(range(np.ndim(x))))


CASES = {
    # full
    "full-weak-float": lambda m: (lambda: m.lax.full((2, 3), 1.0), ()),
    "full-int-shape": lambda m: (lambda: m.lax.full(3, True), ()),
    "full-dtype": lambda m: (lambda: m.lax.full((2, 3), 1.0, np.int32), ()),
    "full-dtype-string": lambda m: (lambda: m.lax.full((2,), 5, "int8"), ()),
    "full-dtype-python-type": lambda m: (lambda: m.lax.full((2,), 5, float), ()),
    "full-wraps": lambda m: (lambda: m.lax.full((2,), 300, np.int8), ()),
    "full-scalar-shape": lambda m: (lambda: m.lax.full((), 5), ()),
    "full-numpy-scalar": lambda m: (lambda: m.lax.full((2,), np.array(5, np.int16)), ()),
    "full-complex": lambda m: (lambda: m.lax.full((2,), 1 + 2j), ()),
    "full-traced": lambda m: (lambda x: m.lax.full([2, 3], x[0, 0]), (X,)),
    "full-traced-converted": lambda m: (lambda x: m.lax.full((2, 3), x[0, 0], np.int32), (X,)),
    "full-traced-weak": lambda m: (lambda x: m.lax.full((2, 3), x), (2.0,)),
    "full-traced-weak-strong": lambda m: (lambda x: m.lax.full((2, 3), x, np.float32), (2.0,)),
    "full-grad": lambda m: (m.grad(lambda x: _sum(m, m.lax.full((2, 3), x))), (np.float32(1.0),)),
    "full-vmap": lambda m: (m.vmap(lambda x: m.lax.full((2,), x)), (rand((3,), "float32"),)),
    # full_like
    "full_like": lambda m: (lambda x: m.lax.full_like(x, 3), (X,)),
    "full_like-dtype-shape": lambda m: (lambda x: m.lax.full_like(x, 3, np.int32, (4,)), (X,)),
    # a weak array filled with a Python scalar: its value is broadcast as is (0.01, not float32's 0.0099999...)
    "full_like-weak-python-fill": lambda m: (lambda x: m.lax.full_like(x * 2.0, 0.01, shape=(3,)), (1.0,)),
    "full_like-weak-int-float-fill": lambda m: (lambda x: m.lax.full_like(x * 2, 1.7, shape=(3,)), (1,)),
    "full-weak-inexact-value": lambda m: (lambda: m.lax.full((2,), 0.1), ()),
    "full_like-traced-fill": lambda m: (lambda x: m.lax.full_like(x, x[0, 0]), (X,)),
    "full_like-scalar-shape": lambda m: (lambda x: m.lax.full_like(x, x[0, 0], shape=()), (X,)),
    "full_like-bool": lambda m: (lambda x: m.lax.full_like(x > 0, 7), (X,)),
    "full_like-truncates": lambda m: (lambda x: m.lax.full_like(x, 1.5, np.int32), (X,)),
    "full_like-weak-float": lambda m: (lambda: m.lax.full_like(2.0, 3), ()),
    "full_like-weak-int": lambda m: (lambda: m.lax.full_like(2, 3.5), ()),
    "full_like-numpy-float64": lambda m: (lambda: m.lax.full_like(np.ones(2), 3), ()),
    "full_like-shape-dtype-struct": lambda m: (lambda: m.lax.full_like(m.ShapeDtypeStruct((2,), np.int16), 3), ()),
    "full_like-grad": lambda m: (m.grad(lambda x: _sum(m, m.lax.full_like(x, 2.0) * x)), (X,)),
    "full_like-vmap": lambda m: (m.vmap(lambda x: m.lax.full_like(x, 3)), (X,)),
    "full_like-vmap-traced-fill": lambda m: (m.vmap(lambda x: m.lax.full_like(x, x[0])), (X,)),
    # empty and shape_as_value
    "empty-float32": lambda m: (lambda: m.lax.empty((2, 3), np.float32), ()),
    "empty-bool": lambda m: (lambda: m.lax.empty((2,), np.bool_), ()),
    "empty-string-dtype": lambda m: (lambda: m.lax.empty((2, 3), "float32"), ()),
    "empty-numpy-dtype": lambda m: (lambda: m.lax.empty((2, 3), np.dtype("int16")), ()),
    "empty-int-shape": lambda m: (lambda: m.lax.empty(3, np.int8), ()),
    "empty-float-shape": lambda m: (lambda: m.lax.empty((2.0, 3), np.float32), ()),
    "empty-jit": lambda m: (m.jit(lambda: m.lax.empty((2,), np.int16)), ()),
    "shape_as_value": lambda m: (lambda: m.lax.shape_as_value((2, 3)), ()),
    "shape_as_value-empty": lambda m: (lambda: m.lax.shape_as_value(()), ()),
    # broadcast_like and collapse
    "broadcast_like-row": lambda m: (lambda x: m.lax.broadcast_like(x[0], x), (X,)),
    "broadcast_like-same": lambda m: (lambda x: m.lax.broadcast_like(x, x), (X,)),
    "broadcast_like-python-scalar": lambda m: (lambda x: m.lax.broadcast_like(1.0, x), (X,)),
    "broadcast_like-size-one": lambda m: (lambda x: m.lax.broadcast_like(x[:1], x), (X,)),
    "broadcast_like-lead-and-size-one": lambda m: (lambda x: m.lax.broadcast_like(x[:, :1], np.ones((4, 2, 3))),
                                                   (X,)),
    "broadcast_like-vmap": lambda m: (m.vmap(lambda x: m.lax.broadcast_like(x, np.ones((2, 3)))), (X,)),
    "collapse-all": lambda m: (lambda x: m.lax.collapse(x, 0), (X,)),
    "collapse-range": lambda m: (lambda x: m.lax.collapse(x, 0, 2), (rand((2, 3, 4), "float32"),)),
    "collapse-one": lambda m: (lambda x: m.lax.collapse(x, 1, 2), (X,)),
    "collapse-negative": lambda m: (lambda x: m.lax.collapse(x, -2), (X,)),
    "collapse-empty-range": lambda m: (lambda x: m.lax.collapse(x, 1, 1), (X,)),
    "collapse-past-end": lambda m: (lambda x: m.lax.collapse(x, 2), (X,)),
    # index_take
    "index_take-two-axes": lambda m: (lambda x: m.lax.index_take(x, (I1, I2), (0, 1)), (X,)),
    "index_take-one-axis": lambda m: (lambda x: m.lax.index_take(x, (I1,), (1,)), (X,)),
    "index_take-wraps": lambda m: (lambda x, i: m.lax.index_take(x, (i,), (0,)),
                                   (X, np.array([-1, 5, 0], np.int32))),
    "index_take-grad": lambda m: (m.grad(lambda x: _sum(m, m.lax.index_take(x, (I1,), (1,)))), (X,)),
    "index_take-vmap": lambda m: (m.vmap(lambda x: m.lax.index_take(x, (I1,), (0,))), (X,)),
    # square
    "square": lambda m: (lambda x: m.lax.square(x), (X,)),
    "square-weak-int": lambda m: (lambda: m.lax.square(2), ()),
    # errors
    "err-full-float-shape": lambda m: (lambda: m.lax.full((2.0, 3), 1.0), ()),
    "err-full-negative-shape": lambda m: (lambda: m.lax.full((-1, 3), 1.0), ()),
    "err-full-array-fill": lambda m: (lambda: m.lax.full((2,), np.ones(2)), ()),
    "err-full-bad-dtype": lambda m: (lambda: m.lax.full((2,), 1, "foo"), ()),
    "err-full_like-list": lambda m: (lambda: m.lax.full_like([1, 2], 3), ()),
    "err-full_like-float-shape": lambda m: (lambda x: m.lax.full_like(x, 3, shape=[2.0]), (X,)),
    "err-full_like-array-fill": lambda m: (lambda x: m.lax.full_like(x, np.ones(2)), (X,)),
    "err-shape_as_value-float": lambda m: (lambda: m.lax.shape_as_value((2.0, 3)), ()),
    "err-shape_as_value-int": lambda m: (lambda: m.lax.shape_as_value(3), ()),
    "err-broadcast_like-fewer-dims": lambda m: (lambda x: m.lax.broadcast_like(x, x[0]), (X,)),
    "err-broadcast_like-incompatible": lambda m: (lambda x: m.lax.broadcast_like(x[:, :2], x), (X,)),
    "err-collapse-reversed": lambda m: (lambda x: m.lax.collapse(x, 2, 1), (X,)),
    "err-collapse-negative-reversed": lambda m: (lambda x: m.lax.collapse(x, -1, -2), (X,)),
    "err-collapse-python-scalar": lambda m: (lambda: m.lax.collapse(3.0, 0), ()),
    "err-index_take-unsorted-axes": lambda m: (lambda x: m.lax.index_take(x, (I1, I2), (1, 0)), (X,)),
    "err-index_take-array-not-tuple": lambda m: (lambda x: m.lax.index_take(x, I1, (1,)), (X,)),
    "err-index_take-nothing": lambda m: (lambda x: m.lax.index_take(x, (), ()), (X,)),
    "err-index_take-matrix-index": lambda m: (lambda x: m.lax.index_take(x, (np.array([[1, 0]], np.int32),), (1,)),
                                              (X,)),
    "err-square-bool": lambda m: (lambda: m.lax.square(True), ()),
}

# Helpers returning Python values: the result's repr (or the error) is recorded.
VALUE_CASES = {
    "broadcast_shapes": lambda m: m.lax.broadcast_shapes((2, 1), (3,)),
    "broadcast_shapes-ranks": lambda m: m.lax.broadcast_shapes((5, 1, 3), (4, 1), ()),
    "broadcast_shapes-lists": lambda m: m.lax.broadcast_shapes([2, 1], [1, 3]),
    "broadcast_shapes-one": lambda m: m.lax.broadcast_shapes((2,)),
    "broadcast_shapes-zero-size": lambda m: m.lax.broadcast_shapes((0,), (1,)),
    "broadcast_shapes-ones": lambda m: m.lax.broadcast_shapes((1,), (1, 1)),
    "err-broadcast_shapes-incompatible": lambda m: m.lax.broadcast_shapes((2, 1), (3, 4)),
    "err-broadcast_shapes-zero-size": lambda m: m.lax.broadcast_shapes((0,), (2,)),
    "err-broadcast_shapes-none": lambda m: m.lax.broadcast_shapes(),
    "err-broadcast_shapes-float": lambda m: m.lax.broadcast_shapes((2.0,), (1,)),
    "err-broadcast_shapes-int": lambda m: m.lax.broadcast_shapes((2,), 3),
    "err-broadcast_shapes-negative": lambda m: m.lax.broadcast_shapes((-1,), (1,)),
    "dtype-array": lambda m: m.lax.dtype(np.ones(2, np.int16)),
    "dtype-python-float": lambda m: m.lax.dtype(2.0),
    "dtype-python-int": lambda m: m.lax.dtype(2),
    "dtype-python-type": lambda m: m.lax.dtype(float),
    "dtype-name": lambda m: m.lax.dtype("bfloat16"),
    "dtype-float64-narrowed": lambda m: m.lax.dtype(np.float64),
    "err-dtype-list": lambda m: m.lax.dtype([1, 2]),
    "err-dtype-none": lambda m: m.lax.dtype(None),
    "err-dtype-unknown": lambda m: m.lax.dtype("foo"),
}


def run_value_case(module, build):
    """{'repr': repr of the result} or {'error': ExceptionType, 'message': first line}."""
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            return {"repr": repr(build(module))}
    except Exception as error:  # noqa: BLE001 - the error is what we record
        return {"error": type(error).__name__, "message": str(error).split("\n")[0]}


if __name__ == "__main__":
    impl = importlib.import_module(sys.argv[1])
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        record = {name: run_text_case(impl, build) for name, build in CASES.items()}
    record.update({f"value-{name}": run_value_case(impl, build) for name, build in VALUE_CASES.items()})
    (HERE / "creation_golden.json").write_text(json.dumps(record, indent=1, sort_keys=True) + "\n")
