"""``lax.custom_linear_solve`` and ``lax.custom_root``: values against NumPy and SciPy, implicit derivatives against
analytic results and finite differences, vmap, jit, JAX's errors and the jaxprs JAX prints (goldens)."""

from __future__ import annotations

import json

import numpy as np
import pytest
import scipy.optimize
from conftest import GOLDEN_DIR
from make_solves_golden import render

import jaxle_core as jc
from jaxle_core import lax
from jaxle_core.test_util import check_grads

f32 = np.float32
MAT = np.array([[4., 1., 0.], [1., 3., 1.], [0., 1., 5.]], f32)  # symmetric positive definite
NONSYMMETRIC = np.array([[4., 1., 0.], [0.5, 3., 1.], [0., 2., 5.]], f32)
B = np.array([1., -2., 0.5], f32)
C = np.array([0.3, 1., -1.], f32)


def richardson(matvec, b):
    """Solves ``matvec(x) = b`` by Richardson iteration (converges for the matrices above and their transposes)."""
    return lax.fori_loop(0, 80, lambda i, x: x + 0.2 * (b - matvec(x)), b * 0.0)


def solve_with(a, b):
    """``a^-1 b`` through ``custom_linear_solve``, solving both systems by iteration."""
    return lax.custom_linear_solve(lambda x: lax.dot(a, x), b, richardson, transpose_solve=richardson)


def close(actual, expected, tol=1e-5):
    np.testing.assert_allclose(np.asarray(actual), expected, rtol=tol, atol=tol)


with open(GOLDEN_DIR / "solves_golden.json") as f:
    GOLDEN = json.load(f)


@pytest.fixture(scope="module")
def rendered():
    return render("jaxle_core")


@pytest.mark.parametrize("name", sorted(GOLDEN))
def test_jaxpr_text_matches_jax(rendered, name):
    assert rendered[name] == GOLDEN[name]


# ---------------------------------------------------------------- custom_linear_solve: values


@pytest.mark.parametrize("matrix", [MAT, NONSYMMETRIC])
def test_linear_solve_value_matches_numpy(matrix):
    close(solve_with(matrix, B), np.linalg.solve(matrix, B))
    close(jc.jit(solve_with)(matrix, B), np.linalg.solve(matrix, B))


def test_linear_solve_runs_solve_not_matvec():
    # a solve that is deliberately not A^-1: the primal is whatever solve returns
    out = lax.custom_linear_solve(lambda x: 2.0 * x, B, lambda mv, b: b * 3.0)
    close(out, B * 3.0)


def test_linear_solve_pytree_and_weak_type():
    out = lax.custom_linear_solve(lambda x: {"u": 2.0 * x["u"], "v": lax.dot(MAT, x["v"])}, {"u": f32(3.0), "v": B},
                                  lambda mv, b: {"u": b["u"] / 2.0, "v": richardson(lambda v: lax.dot(MAT, v), b["v"])})
    assert set(out) == {"u", "v"}
    close(out["u"], 1.5)
    close(out["v"], np.linalg.solve(MAT, B))
    weak = lax.custom_linear_solve(lambda x: x * 2.0, 1.0, lambda mv, b: b / 2.0)
    assert weak.weak_type and weak.dtype == f32


def test_linear_solve_has_aux():
    x, aux = lax.custom_linear_solve(lambda x: lax.dot(MAT, x), B,
                                     lambda mv, b: (richardson(mv, b), {"steps": 80}), has_aux=True)
    close(x, np.linalg.solve(MAT, B))
    assert int(aux["steps"]) == 80


# ---------------------------------------------------------------- custom_linear_solve: derivatives


def test_linear_solve_grad_is_the_transposed_solve():
    a_inv_t_c = np.linalg.solve(NONSYMMETRIC.T, C)
    x = np.linalg.solve(NONSYMMETRIC, B)
    loss = lambda a, b: lax.dot(solve_with(a, b), C)  # noqa: E731
    grad_a, grad_b = jc.grad(loss, argnums=(0, 1))(NONSYMMETRIC, B)
    close(grad_b, a_inv_t_c)
    close(grad_a, -np.outer(a_inv_t_c, x))  # d(c·A^-1 b)/dA = -A^-T c x^T
    close(jc.jit(jc.grad(loss))(NONSYMMETRIC, B), -np.outer(a_inv_t_c, x))


def test_linear_solve_jvp_is_implicit():
    da, db = np.eye(3, dtype=f32)[::-1], C
    x = np.linalg.solve(MAT, B)
    out, tangent = jc.jvp(solve_with, (MAT, B), (da, db))
    close(out, x)
    close(tangent, np.linalg.solve(MAT, db - da @ x))


def test_linear_solve_matches_finite_differences():
    check_grads(solve_with, (MAT, B), order=2, modes=("fwd", "rev"), atol=2e-2, rtol=2e-2)


def test_linear_solve_gradient_ignores_the_solver_iterations():
    # One Richardson step is a poor solve; the derivative is still that of the exact A^-1 applied by the solver
    # (implicit differentiation): solve(db) here, not the derivative of the truncated iteration.
    one_step = lambda mv, b: b * 0.2  # noqa: E731
    f = lambda b: lax.custom_linear_solve(lambda x: lax.dot(MAT, x), b, one_step, symmetric=True)  # noqa: E731
    close(jc.grad(lambda b: lax.dot(f(b), C))(B), C * 0.2)


def test_linear_solve_pytree_partial_tangent():
    # JAX 0.10.2 fails here (it binds a symbolic zero); the right-hand side's zero leaf is instantiated instead.
    def f(u, v):
        out = lax.custom_linear_solve(lambda x: {"u": 2.0 * x["u"], "v": 3.0 * x["v"]}, {"u": u, "v": v},
                                      lambda mv, b: {"u": b["u"] / 2.0, "v": b["v"] / 3.0}, symmetric=True)
        return out["u"] + lax.dot(out["v"], C)

    close(jc.grad(f)(f32(1.0), B), 0.5)
    close(jc.grad(f, argnums=1)(f32(1.0), B), C / 3.0)


def test_linear_solve_has_aux_derivatives():
    with_aux = lambda mv, b: (richardson(mv, b), lax.dot(b, b))  # noqa: E731
    f = lambda b: lax.custom_linear_solve(lambda x: lax.dot(MAT, x), b, with_aux, with_aux, has_aux=True)  # noqa: E731
    (x, aux), (dx, daux) = jc.jvp(f, (B,), (C,))
    close(aux, B @ B)
    close(daux, 0.0)  # auxiliary outputs are not differentiated
    close(dx, np.linalg.solve(MAT, C))
    close(jc.grad(lambda b: lax.dot(f(b)[0], C))(B), np.linalg.solve(MAT, C))


def test_linear_transpose_of_linear_solve():
    f = lambda b: solve_with(MAT, b)  # noqa: E731
    (ct,) = jc.linear_transpose(f, B)(C)
    close(ct, np.linalg.solve(MAT.T, C))


# ---------------------------------------------------------------- custom_linear_solve: vmap


def test_linear_solve_vmap():
    bs = np.stack([B, C, B + C])
    expected = np.linalg.solve(MAT, bs.T).T
    close(jc.vmap(lambda b: solve_with(MAT, b))(bs), expected)
    close(jc.vmap(lambda b: solve_with(MAT, b), in_axes=1)(bs.T), expected)
    mats = np.stack([MAT, NONSYMMETRIC, 0.5 * MAT])
    close(jc.vmap(solve_with, (0, None))(mats, B), np.stack([np.linalg.solve(m, B) for m in mats]))
    close(jc.vmap(solve_with)(mats, bs), np.stack([np.linalg.solve(m, b) for m, b in zip(mats, bs)]))


def test_linear_solve_under_a_named_vmap_sees_the_axis():
    # no operand is batched, but matvec reads the batch through psum, so the solve is batched
    def f(s):
        matvec = lambda x: lax.dot(MAT, x) * lax.psum(s, "i")  # noqa: E731
        return lax.custom_linear_solve(matvec, B, richardson, symmetric=True)

    out = jc.vmap(f, axis_name="i")(np.array([0.25, 0.75], f32))
    close(out, np.stack([np.linalg.solve(MAT, B)] * 2))


def test_linear_solve_vmap_of_grad_and_has_aux():
    mats = np.stack([MAT, NONSYMMETRIC])
    grads = jc.vmap(jc.grad(lambda a: lax.dot(solve_with(a, B), C)))(mats)
    for g, m in zip(grads, mats):
        close(g, -np.outer(np.linalg.solve(m.T, C), np.linalg.solve(m, B)))
    x, aux = jc.vmap(lambda b: lax.custom_linear_solve(lambda x: lax.dot(MAT, x), b,
                                                       lambda mv, b: (richardson(mv, b), b[0]), has_aux=True))(
        np.stack([B, C]))
    close(x, np.linalg.solve(MAT, np.stack([B, C]).T).T)
    close(aux, [B[0], C[0]])


# ---------------------------------------------------------------- custom_linear_solve: errors


def test_linear_solve_reverse_mode_needs_transpose_solve():
    f = lambda b: lax.dot(lax.custom_linear_solve(lambda x: lax.dot(MAT, x), b, richardson), C)  # noqa: E731
    close(jc.jvp(f, (B,), (C,))[1], np.linalg.solve(MAT, C) @ C)  # forward mode does not need it
    with pytest.raises(TypeError, match="^transpose_solve required for backwards mode automatic differentiation of "
                                        "custom_linear_solve$"):
        jc.grad(f)(B)


@pytest.mark.parametrize("kwargs, message, error", [
    (dict(matvec=lambda x: (x,)), r"matvec() output pytree structure must match b, got PyTreeDef((*,)) and "
                                  r"PyTreeDef(*).", TypeError),
    (dict(matvec=lambda x: x[:1]), "matvec() output shapes must match b, got [(1,)] and [(3,)]", ValueError),
    (dict(solve=lambda mv, b: (b,)), "solve() output pytree structure must match b, got PyTreeDef((*,)) and "
                                     "PyTreeDef(*).", TypeError),
    (dict(solve=lambda mv, b: b[:2]), "solve() output shapes must match b, got [(2,)] and [(3,)]", ValueError),
    (dict(transpose_solve=lambda mv, b: (b,)), "transpose_solve() output pytree structure must match b, got "
                                               "PyTreeDef((*,)) and PyTreeDef(*).", TypeError),
    (dict(transpose_solve=lambda mv, b: b[:1]), "transpose_solve() output shapes must match b, got [(1,)] and "
                                                "[(3,)]", ValueError),
])
def test_linear_solve_errors(kwargs, message, error):
    args = dict(matvec=lambda x: lax.dot(MAT, x), b=B, solve=lambda mv, b: b)
    args.update(kwargs)
    with pytest.raises(error) as info:
        lax.custom_linear_solve(**args)
    assert str(info.value) == message


def test_linear_solve_has_aux_unpacks_a_pair():
    with pytest.raises(ValueError, match="not enough values to unpack"):
        lax.custom_linear_solve(lambda x: x, B, lambda mv, b: (b,), has_aux=True)


# ---------------------------------------------------------------- custom_root


def newton(f, x):
    """Newton's method with the derivative of ``f`` by forward mode (elementwise: ``f`` acts per element)."""
    def step(i, x):
        y, dy = jc.jvp(f, (x,), (np.ones(x.shape, x.dtype),))
        return x - y / dy
    return lax.fori_loop(0, 30, step, x)


def scalar_solve(g, y):
    """Solves the linear (elementwise) ``g(x) = y``."""
    return y / g(np.ones(y.shape, y.dtype))


def cubic_root(a):
    """The root of ``x^3 + x - a`` (elementwise)."""
    return lax.custom_root(lambda x: x * x * x + x - a, np.ones(np.shape(a), f32), newton, scalar_solve)


def test_custom_root_scalar_matches_scipy():
    expected = scipy.optimize.newton(lambda x: x ** 3 + x - 2.5, 1.0)
    close(cubic_root(f32(2.5)), expected)
    close(jc.jit(cubic_root)(f32(2.5)), expected)


def test_custom_root_vector_matches_scipy():
    a = np.array([0.5, 2.5, 10.0], f32)
    expected = scipy.optimize.root(lambda x: x ** 3 + x - a, np.ones(3)).x
    close(cubic_root(a), expected)
    close(jc.vmap(cubic_root)(a), expected)


def test_custom_root_derivatives_are_implicit():
    # x^3 + x = a  =>  dx/da = 1 / (3 x^2 + 1)
    x = scipy.optimize.newton(lambda x: x ** 3 + x - 2.5, 1.0)
    close(jc.grad(cubic_root)(f32(2.5)), 1.0 / (3 * x * x + 1))
    close(jc.jvp(cubic_root, (f32(2.5),), (f32(2.0),))[1], 2.0 / (3 * x * x + 1))
    close(jc.jit(jc.grad(cubic_root))(f32(2.5)), 1.0 / (3 * x * x + 1))
    a = np.array([0.5, 2.5, 10.0], f32)
    xs = scipy.optimize.root(lambda x: x ** 3 + x - a, np.ones(3)).x
    close(jc.vmap(jc.grad(cubic_root))(a), 1.0 / (3 * xs * xs + 1))
    check_grads(cubic_root, (f32(2.5),), order=2, modes=("fwd", "rev"), atol=2e-2, rtol=2e-2)


def test_custom_root_pytree_and_has_aux():
    def solve(f, guess):
        return {"p": newton(lambda p: f({"p": p, "q": guess["q"]})["p"], guess["p"]), "q": guess["q"] * 0.0}, 7

    def root(a):
        f = lambda x: {"p": x["p"] * x["p"] - a, "q": x["q"]}  # noqa: E731
        return lax.custom_root(f, {"p": f32(1.0), "q": f32(1.0)}, solve,
                               lambda g, y: {"p": y["p"] / g({"p": f32(1.0), "q": f32(0.0)})["p"], "q": y["q"]},
                               has_aux=True)

    x, aux = root(f32(2.0))
    close(x["p"], np.sqrt(2.0))
    assert int(aux) == 7
    close(jc.grad(lambda a: root(a)[0]["p"])(f32(2.0)), 0.5 / np.sqrt(2.0))


@pytest.mark.parametrize("kwargs, message", [
    (dict(f=lambda x: (x,)), "f() output pytree structure must match initial_guess, got PyTreeDef((*,)) and "
                             "PyTreeDef(*)."),
    (dict(solve=lambda f, x: (x,)), "solve() output pytree structure must match initial_guess, got "
                                    "PyTreeDef((*,)) and PyTreeDef(*)."),
    (dict(tangent_solve=lambda g, y: (y,)), "tangent_solve() output pytree structure must match x, got "
                                            "PyTreeDef((*,)) and PyTreeDef(*)."),
])
def test_custom_root_errors(kwargs, message):
    args = dict(f=lambda x: x * x - 2.0, initial_guess=f32(1.0), solve=newton, tangent_solve=scalar_solve)
    args.update(kwargs)
    with pytest.raises(TypeError) as info:
        lax.custom_root(**args)
    assert str(info.value) == message
