"""Abstract arguments: anything with ``shape`` and ``dtype`` stands for an array where JAX accepts one
(``eval_shape``, ``make_jaxpr``, ``jit(f).trace``/``.lower``, ``linear_transpose``); a few results of functions
over pytrees (multi-operand ``sort``, ``hessian`` over a dict) are checked against independent references."""

from __future__ import annotations

import types

import numpy as np
import pytest

import jaxle_core as jc
from jaxle_core import lax


class MyArgArray:
    """The duck-typed argument of JAX's ``eval_shape`` documentation."""

    def __init__(self, shape, dtype):
        self.shape = shape
        self.dtype = np.dtype(dtype)


def matmul_tanh(A, x):
    return lax.tanh(lax.dot(A, x))


def test_eval_shape_of_the_documented_example():
    A = MyArgArray((2000, 3000), np.float32)
    x = MyArgArray((3000, 1000), np.float32)
    out = jc.eval_shape(matmul_tanh, A, x)  # no FLOPs performed
    assert (out.shape, out.dtype) == ((2000, 1000), np.float32)


@pytest.mark.parametrize("make", [
    lambda shape, dtype: MyArgArray(shape, dtype),
    lambda shape, dtype: types.SimpleNamespace(shape=list(shape), dtype=dtype),
    lambda shape, dtype: types.SimpleNamespace(shape=shape, dtype=np.dtype(dtype).name),
    lambda shape, dtype: jc.ShapeDtypeStruct(shape, dtype),
], ids=["class", "namespace", "dtype_name", "ShapeDtypeStruct"])
def test_any_object_with_shape_and_dtype(make):
    out = jc.eval_shape(matmul_tanh, make((4, 5), np.float32), b := make((5, 2), np.float32))
    assert (out.shape, out.dtype, out.weak_type) == ((4, 2), np.float32, False)
    assert jc.eval_shape(lambda a, b: a, make((3,), np.float64), b=b).dtype == np.float32  # canonicalised
    assert jc.eval_shape(lambda a: a, make((3,), np.int64)).dtype == np.int32
    weak = types.SimpleNamespace(shape=(2,), dtype=np.float32, weak_type=True)
    assert jc.eval_shape(lambda a: a, weak).weak_type


_FOUR, _TWO = np.ones((4,), np.float32), np.ones((2,), np.int32)


@pytest.mark.parametrize("jitted, args, kwargs, expected", [
    (jc.jit(lambda n, x: lax.broadcast(x, (n,)), static_argnums=0), (3, _FOUR), {}, np.broadcast_to(_FOUR, (3, 4))),
    (jc.jit(lambda x, n: lax.broadcast(x, (n,)), static_argnames="n"), (_TWO,), {"n": 5},
     np.broadcast_to(_TWO, (5, 2))),
    (jc.jit(lambda x: x * 2, compiler_options={"xla_cpu_enable_fast_math": False}), (_FOUR,), {}, _FOUR * 2),
], ids=["static_argnums", "static_argnames", "compiler_options"])
def test_eval_shape_of_a_jitted_function_traces_it_as_it_is(jitted, args, kwargs, expected):
    # as JAX's, eval_shape traces a jitted function itself: its static arguments stay static and its
    # compiler_options do not make it a nested jit (both were refused); NumPy gives the expected shape and dtype
    out = jc.eval_shape(jitted, *args, **kwargs)
    assert (out.shape, out.dtype) == (expected.shape, expected.dtype)
    assert jitted.eval_shape(*args, **kwargs) == out


def test_jit_stages_and_make_jaxpr_trace_abstract_arguments():
    real = (np.ones((4, 5), np.float32), np.ones((5, 2), np.float32))
    duck = (MyArgArray((4, 5), np.float32), types.SimpleNamespace(shape=(5, 2), dtype=np.float32))
    f = jc.jit(matmul_tanh)
    assert str(f.trace(*duck).jaxpr) == str(f.trace(*real).jaxpr)
    assert f.lower(*duck).as_text() == f.lower(*real).as_text()
    assert str(jc.make_jaxpr(matmul_tanh)(*duck)) == str(jc.make_jaxpr(matmul_tanh)(*real))
    compiled = f.lower(*duck).compile()
    np.testing.assert_allclose(np.asarray(compiled(*real)), np.tanh(real[0] @ real[1]), rtol=1e-6)


def test_linear_transpose_of_abstract_primals():
    matrix = np.arange(6, dtype=np.float32).reshape(2, 3)
    transposed = jc.linear_transpose(lambda v: lax.dot(matrix, v), MyArgArray((3,), np.float32))
    ct = np.array([1.0, -2.0], np.float32)
    np.testing.assert_allclose(np.asarray(transposed(ct)[0]), matrix.T @ ct)


def test_objects_that_are_not_arrays_are_refused():
    with pytest.raises(TypeError, match="Error interpreting argument to .* as an abstract array"):
        jc.eval_shape(lambda a: a, types.SimpleNamespace(shape=(2,)))
    with pytest.raises(TypeError, match="Error interpreting argument to .* as an abstract array"):
        jc.eval_shape(lambda a: a, types.SimpleNamespace(shape=(2,), dtype="no such dtype"))
    with pytest.raises(TypeError, match="Error interpreting argument to .* as an abstract array"):
        jc.eval_shape(lambda a: a, np.array(["text"]))
    for transform in (jc.vmap, jc.grad):
        with pytest.raises(TypeError, match="is not a valid JAX type"):
            transform(lambda a: a)(MyArgArray((), np.float32))


@pytest.mark.parametrize("container", [tuple, list])
def test_sort_of_several_operands_returns_a_tuple(container):
    keys, values = np.array([3.0, 1.0, 2.0], np.float32), np.array([10, 20, 30], np.int32)
    out = lax.sort(container([keys, values]))
    assert type(out) is tuple and len(out) == 2
    np.testing.assert_array_equal(np.asarray(out[0]), np.sort(keys))
    np.testing.assert_array_equal(np.asarray(out[1]), values[np.argsort(keys)])
    single = lax.sort(container([keys]))
    assert type(single) is tuple and len(single) == 1
    assert not isinstance(lax.sort(keys), tuple)


def test_hessian_over_a_dict_through_pow_against_finite_differences():
    def f(p):
        return lax.reduce_sum(lax.pow(p["x"], p["y"]), (0,))

    point = {"x": np.array([1.5, 2.0], np.float64), "y": np.array([2.0, 3.0], np.float64)}
    with jc.config.enable_x64():
        hess = jc.hessian(f)(point)
        grad = jc.grad(f)
        eps = 1e-5
        for wrt in ("x", "y"):
            for i in range(2):
                up = {k: v.copy() for k, v in point.items()}
                down = {k: v.copy() for k, v in point.items()}
                up[wrt][i] += eps
                down[wrt][i] -= eps
                g_up, g_down = grad(up), grad(down)
                for of in ("x", "y"):
                    column = (np.asarray(g_up[of]) - np.asarray(g_down[of])) / (2 * eps)
                    np.testing.assert_allclose(np.asarray(hess[of][wrt])[:, i], column, rtol=1e-6, atol=1e-8)
