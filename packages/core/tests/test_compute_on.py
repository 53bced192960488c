"""``compute_on`` equations and blocks on the reference backend: the values, derivatives and batching of a function
computed on another compute are those of the function; the equations staged in a block record its compute type."""

import threading

import numpy as np
import pytest

from jaxle_core import grad, lax, make_jaxpr, vmap
from jaxle_core.compute_on import call_on
from jaxle_core.compute_types import computing_on
from jaxle_core.memory_spaces import MemorySpace

X = np.linspace(0.1, 1.0, 4, dtype=np.float32)


def _on_host(fun):
    return lambda *args: call_on(fun, args, "device_host", MemorySpace.Device, None)


def test_values_derivatives_and_batching_are_the_function_s():
    fun = _on_host(lambda v: lax.sin(v) * v)
    np.testing.assert_allclose(np.asarray(fun(X)), np.sin(X) * X, rtol=1e-6)
    gradient = grad(lambda v: lax.reduce_sum(fun(v), (0,)))(X)
    np.testing.assert_allclose(np.asarray(gradient), np.cos(X) * X + np.sin(X), rtol=1e-6)
    batched = vmap(fun)(np.stack([X, 2 * X]))
    np.testing.assert_allclose(np.asarray(batched), np.stack([np.sin(X) * X, np.sin(2 * X) * 2 * X]), rtol=1e-6)


def test_equations_record_the_compute_type_of_their_block():
    def fun(v):
        with computing_on("device_host"):
            w = lax.sin(v)
        return lax.cos(w)

    eqns = make_jaxpr(fun)(X).jaxpr.eqns
    assert [(e.primitive.name, e.compute_type) for e in eqns] == [("sin", "device_host"), ("cos", None)]


def test_a_block_open_in_another_thread_marks_only_that_thread_s_equations():
    opened, traced = threading.Event(), threading.Event()
    inside = []

    def other_thread():
        with computing_on("device_host"):
            opened.set()
            traced.wait(10)
            inside.append(make_jaxpr(lax.sin)(X).jaxpr.eqns[0].compute_type)

    thread = threading.Thread(target=other_thread)
    thread.start()
    opened.wait(10)
    outside = make_jaxpr(lax.sin)(X).jaxpr.eqns[0].compute_type
    traced.set()
    thread.join()
    assert (outside, inside) == (None, ["device_host"])


def test_a_block_left_by_an_error_marks_nothing_after_it():
    with pytest.raises(ZeroDivisionError), computing_on("device_host"):
        _ = 1 / 0
    assert make_jaxpr(lax.sin)(X).jaxpr.eqns[0].compute_type is None


def test_results_are_typed_in_the_memory_spaces_asked_for():
    jaxpr = make_jaxpr(lambda v: call_on(lambda w: (w, w * 2), (v,), "device_host",
                                         (MemorySpace.Host, MemorySpace.Device), None))(X)
    assert [v.aval.memory_space for v in jaxpr.jaxpr.outvars] == [MemorySpace.Host, MemorySpace.Device]


def test_invalid_compute_type():
    with pytest.raises(ValueError, match="Invalid compute type bogus"):
        call_on(lambda v: v, (X,), "bogus", MemorySpace.Device, None)


def test_reverse_mode_splits_it_into_a_known_and_a_transposed_compute_on():
    fun = _on_host(lambda v, w: (lax.sin(v) * w, v * 3))

    def loss(v, w):
        scaled, tripled = fun(v, w)
        return lax.reduce_sum(scaled, (0,)) + lax.reduce_sum(tripled, (0,))

    jaxpr = make_jaxpr(grad(loss, argnums=(0, 1)))(X, X).jaxpr
    calls = [eqn for eqn in jaxpr.eqns if eqn.primitive.name == "compute_on"]
    assert len(calls) == 2  # the results and residuals, then the cotangents
    assert {inner.compute_type for eqn in calls for inner in eqn.params["jaxpr"].eqns} == {"device_host"}
    d_v, d_w = grad(loss, argnums=(0, 1))(X, X)
    np.testing.assert_allclose(np.asarray(d_v), np.cos(X) * X + 3, rtol=1e-6)
    np.testing.assert_allclose(np.asarray(d_w), np.sin(X), rtol=1e-6)
    # the transposed equation differentiates again: d/dv of sum(cos(v) * X) is -sin(v) * X
    second = grad(lambda v: lax.reduce_sum(grad(lambda u: lax.reduce_sum(fun(u, X)[0], (0,)))(v), (0,)))(X)
    np.testing.assert_allclose(np.asarray(second), -np.sin(X) * X, rtol=1e-6)
