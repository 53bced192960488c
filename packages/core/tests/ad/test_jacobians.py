"""``jacfwd``/``jacrev``/``hessian`` computed by vmapping the jvp/pullback over a standard basis: values against
analytic Jacobians, pytree and dtype handling, and the jaxprs against JAX 0.10.2."""

from __future__ import annotations

import json
import os
import sys
from pathlib import Path

import numpy as np
import pytest

import jaxle_core as jc
from jaxle_core import lax

GOLDEN_DIR = Path(__file__).resolve().parent.parent / "golden"
sys.path.insert(0, os.fspath(GOLDEN_DIR))
from make_jacobian_golden import render  # noqa: E402

f32 = np.float32
X = np.linspace(0.2, 1.4, 4, dtype=f32)
JACOBIANS = [jc.jacfwd, jc.jacrev]


def close(a, b, rtol=1e-5):
    np.testing.assert_allclose(np.asarray(a), np.asarray(b), rtol=rtol, atol=1e-6)


@pytest.mark.parametrize("jac", JACOBIANS)
def test_jacobian_of_an_elementwise_function_is_diagonal(jac):
    close(jac(lambda x: lax.sin(x) * x)(X), np.diag(np.cos(X) * X + np.sin(X)))


@pytest.mark.parametrize("jac", JACOBIANS)
def test_jacobian_of_a_matrix_function_has_shape_out_plus_in(jac):
    a = np.arange(6, dtype=f32).reshape(2, 3)
    m = np.linspace(-1, 1, 12, dtype=f32).reshape(3, 4)
    out = jac(lambda w: lax.dot_general(a, w, (((1,), (0,)), ((), ()))))(m)
    expected = np.einsum("ik,jl->ijkl", a, np.eye(4, dtype=f32))
    assert np.asarray(out).shape == (2, 4, 3, 4)
    close(out, expected)


@pytest.mark.parametrize("jac", JACOBIANS)
def test_pytree_inputs_and_outputs(jac):
    def f(p, y):
        return {"s": lax.sin(p["u"]) * y, "t": (lax.reduce_sum(p["v"] * p["v"], (0, 1)),)}

    p = {"u": X[:3], "v": np.ones((2, 2), f32) * 3}
    out = jac(f, argnums=(0, 1))(p, f32(2))
    close(out["s"][0]["u"], np.diag(np.cos(X[:3]) * 2))
    close(out["s"][0]["v"], np.zeros((3, 2, 2)))
    close(out["s"][1], np.sin(X[:3]))
    close(out["t"][0][0]["u"], np.zeros(3))
    close(out["t"][0][0]["v"], np.full((2, 2), 6.0))
    close(out["t"][0][1], 0.0)


@pytest.mark.parametrize("jac", JACOBIANS)
def test_has_aux_and_scalar_arguments(jac):
    out, aux = jac(lambda x: (x * x * x, x + 1), has_aux=True)(f32(2))
    close(out, 12.0)
    close(aux, 3.0)


@pytest.mark.parametrize("jac", JACOBIANS)
def test_holomorphic_jacobian(jac):
    z = np.array([1 + 2j, -0.5j], np.complex64)
    close(jac(lambda w: w * w, holomorphic=True)(z), np.diag(2 * z))


@pytest.mark.parametrize("jac", JACOBIANS)
def test_the_jacobian_takes_the_dtype_of_its_input_and_output(jac):
    out = jac(lambda x: lax.convert_element_type(x, f32) * 2)(np.ones(2, np.float16))
    assert np.asarray(out).dtype == (np.float32 if jac is jc.jacfwd else np.float16)
    close(out, 2 * np.eye(2))


def test_jacrev_with_allow_int_gives_an_integer_block():
    jac = jc.jacrev(lambda x, k: x * k, argnums=(0, 1), allow_int=True)
    closed = jc.make_jaxpr(jac)(X[:2], np.int32(3))
    assert [str(v.aval) for v in closed.jaxpr.outvars] == ["float32[2,2]", "int32[2]"]
    assert closed.jaxpr.eqns[-1].invars[0].aval.dtype == jc.dtypes.float0  # float0 zeros converted, as in JAX


@pytest.mark.parametrize("jac", JACOBIANS + [jc.hessian])
def test_an_argnum_beyond_the_arguments_is_a_value_error(jac):
    with pytest.raises(ValueError, match="got value 2 for len\\(args\\) == 1"):
        jac(lambda x: x, argnums=2)(X)
    with pytest.raises(ValueError, match="got value -2 for len"):
        jac(lambda x: x, argnums=(0, -2))(X)


def test_hessian_with_aux_against_finite_differences():
    def f(x):
        return lax.reduce_sum(lax.sin(x) * x * x, (0,)), x * 2

    h, aux = jc.hessian(f, has_aux=True)(X)
    eps, rows = 1e-2, []
    for i in range(len(X)):
        step = np.zeros(len(X), f32)
        step[i] = eps
        rows.append((np.asarray(jc.grad(lambda x: f(x)[0])(X + step)) -
                     np.asarray(jc.grad(lambda x: f(x)[0])(X - step))) / (2 * eps))
    close(h, np.array(rows), rtol=1e-3)
    close(aux, X * 2)


def test_hessian_of_a_chain_matches_the_analytic_one():
    h = jc.hessian(lambda x: lax.reduce_sum(lax.exp(lax.sin(x)), (0,)))(X)
    e, s, c = np.exp(np.sin(X)), np.sin(X), np.cos(X)
    close(h, np.diag(e * c * c - e * s), rtol=1e-4)


def test_jacobian_of_an_empty_array():
    assert np.asarray(jc.jacrev(lambda x: x * 2.0)(np.ones((0,), f32))).shape == (0, 0)
    assert np.asarray(jc.jacfwd(lambda x: x * 2.0)(np.ones((0, 2), f32))).shape == (0, 2, 0, 2)


def test_jacrev_is_one_batched_pullback_not_one_per_row():
    def chain(x):
        for _ in range(3):
            x = lax.sin(x) * x
        return x

    eqns = jc.make_jaxpr(jc.jacrev(chain))(np.ones(50, f32)).jaxpr.eqns
    assert len(eqns) < 50  # a per-row pullback would need at least one equation per row


def test_jaxprs_match_jax():
    with open(GOLDEN_DIR / "jacobian_golden.json") as f:
        golden = json.load(f)
    ours = render("jaxle_core")
    assert set(ours) == set(golden)
    for name, expected in golden.items():
        assert ours[name] == expected, name
