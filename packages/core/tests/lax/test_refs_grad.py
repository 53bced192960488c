"""Gradients and jvps through mutable array references (straight-line code, loops and conditionals closing over
them, references made outside) against JAX 0.10.2's values, errors and jaxprs, and against finite differences."""

import importlib

import numpy as np
import pytest
from make_refs_golden import assert_record_matches

import jaxle_core
from jaxle_core.lax import refs

GEN = importlib.import_module("make_refs_grad_golden")
GOLDEN = importlib.import_module("make_reductions_golden").load_suite("refs_grad")[1]
M = GEN.namespace(jaxle_core, refs.new_ref, refs.freeze, refs)


@pytest.mark.parametrize("name", sorted(GEN.CASES))
def test_matches_jax(name):
    assert_record_matches(GEN.run_case(M, name), GOLDEN[name], rtol=1e-5)


@pytest.mark.parametrize("name", sorted(GEN.JAXPR_CASES))
def test_jvp_and_grad_jaxprs_match_jax(name):
    record = GEN.run_jaxpr_case(M, name)
    expected = GOLDEN["jaxprs"][name]
    assert record["jvp_jaxpr"] == expected["jvp_jaxpr"]
    assert record["grad_jaxpr"] == expected["grad_jaxpr"]
    np.testing.assert_allclose(record["jit_grad"], expected["jit_grad"], rtol=1e-6)


@pytest.mark.parametrize("name", sorted(GEN.LOOP_CASES))
def test_jvp_and_grad_jaxprs_through_loops_match_jax(name):
    record = GEN.run_loop_case(M, name)
    expected = GOLDEN["loop_jvps"][name]
    assert record["jvp_jaxpr"] == expected["jvp_jaxpr"]
    np.testing.assert_allclose(record["jit_jvp"], expected["jit_jvp"], rtol=1e-6)
    if "grad_error" in expected:
        assert record["grad_error"] == expected["grad_error"]
    else:
        assert record["grad_jaxpr"] == expected["grad_jaxpr"]
        np.testing.assert_allclose(record["jit_grad"], expected["jit_grad"], rtol=1e-6)


@pytest.mark.parametrize("name", sorted(GEN.JAXPR_CASES) + sorted(GEN.LOOP_CASES))
def test_jvp_and_grad_match_finite_differences(name):
    f = {**GEN.JAXPR_CASES, **GEN.LOOP_CASES}[name](M)
    x = GEN.X.astype(np.float64)
    eps = 1e-3

    def at(p):
        return float(jaxle_core.jit(f)(p.astype(np.float32)))

    numeric = np.array([(at(x + eps * e) - at(x - eps * e)) / (2 * eps) for e in np.eye(3)])
    if "grad_error" not in GOLDEN["loop_jvps"].get(name, {}):
        np.testing.assert_allclose(np.asarray(jaxle_core.grad(f)(GEN.X)), numeric, rtol=2e-2, atol=2e-2)
    t = np.array([0.3, -0.7, 1.1])
    _, tangent = jaxle_core.jvp(f, (GEN.X,), (t.astype(np.float32),))
    np.testing.assert_allclose(float(tangent), numeric @ t, rtol=2e-2, atol=2e-2)


def test_gradient_matches_the_same_function_without_references():
    def with_refs(y):
        r = refs.new_ref(y)
        r[1:] = r[:-1] * y[1:]
        refs.addupdate(r, (0,), y[2] * 3.0)
        return jaxle_core.lax.reduce_sum(refs.freeze(r) ** 2, (0,))

    def without(y):
        z = jaxle_core.lax.concatenate([y[:1] + y[2] * 3.0, y[:-1] * y[1:]], 0)
        return jaxle_core.lax.reduce_sum(z ** 2, (0,))

    y = np.array([0.3, -1.2, 0.8], np.float32)
    np.testing.assert_allclose(np.asarray(jaxle_core.grad(with_refs)(y)), np.asarray(jaxle_core.grad(without)(y)),
                               rtol=1e-6)


def test_gradient_through_a_fori_loop_writing_a_reference():
    def f(y):
        r = refs.new_ref(np.zeros(3, np.float32))

        def body(i, c):
            r[i] = y[i] * c
            return c * 2.0

        jaxle_core.lax.fori_loop(0, 3, body, 1.0)
        return jaxle_core.lax.reduce_sum(refs.freeze(r) ** 2, (0,))

    y = np.array([1.0, 2.0, 3.0], np.float32)
    # f = sum((y_i 2^i)^2), so df/dy_i = 2 y_i 4^i
    np.testing.assert_allclose(np.asarray(jaxle_core.grad(f)(y)), 2 * y * 4.0 ** np.arange(3), rtol=1e-6)


def test_gradient_through_jit_closing_over_or_taking_a_reference():
    def closing(y):
        r = refs.new_ref(y)

        @jaxle_core.jit
        def g(a):
            r[0] = r[1] * a[2]
            return a * 2.0

        z = g(y)
        return jaxle_core.lax.reduce_sum(refs.freeze(r) * z, (0,))

    def taking(y):
        r = refs.new_ref(y)
        jaxle_core.jit(lambda rr, a: rr.__setitem__(2, rr[0] * a[1]))(r, y)
        return jaxle_core.lax.reduce_sum(refs.freeze(r) ** 2, (0,))

    y = np.array([0.5, -1.0, 2.0], np.float32)
    # closing: 2 (y1 y2 y0 + y1^2 + y2^2); taking: y0^2 + y1^2 + (y0 y1)^2
    expected_closing = 2 * np.array([y[1] * y[2], y[2] * y[0] + 2 * y[1], y[1] * y[0] + 2 * y[2]])
    expected_taking = np.array([2 * y[0] + 2 * y[0] * y[1] ** 2, 2 * y[1] + 2 * y[1] * y[0] ** 2, 0.0])
    for f, expected in [(closing, expected_closing), (taking, expected_taking)]:
        np.testing.assert_allclose(np.asarray(jaxle_core.grad(f)(y)), expected, rtol=1e-6)
        np.testing.assert_allclose(np.asarray(jaxle_core.jit(jaxle_core.grad(f))(y)), expected, rtol=1e-6)
