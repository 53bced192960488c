"""Lowering of custom_linear_solve (its solve jaxpr, inline) and custom_root, compared with core's reference and
with NumPy."""

import numpy as np
from conftest import check_against_reference

import jaxle_core as jc
from jaxle_core import lax

MAT = np.array([[4., 1., 0.], [0.5, 3., 1.], [0., 2., 5.]], np.float32)
B = np.array([1., -2., 0.5], np.float32)


def richardson(matvec, b):
    return lax.fori_loop(0, 80, lambda i, x: x + 0.2 * (b - matvec(x)), b * 0.0)


def solve_with(a, b):
    return lax.custom_linear_solve(lambda x: lax.dot(a, x), b, richardson, transpose_solve=richardson)


def test_linear_solve_and_its_derivatives():
    check_against_reference(solve_with, MAT, B, rtol=1e-5)
    check_against_reference(jc.grad(lambda a, b: lax.dot(solve_with(a, b), b), argnums=(0, 1)), MAT, B, rtol=1e-5)
    check_against_reference(jc.vmap(solve_with, (None, 0)), MAT, np.stack([B, 2 * B]), rtol=1e-5)


def test_linear_solve_on_xla_matches_numpy():
    np.testing.assert_allclose(np.asarray(jc.jit(solve_with)(MAT, B)), np.linalg.solve(MAT, B), rtol=1e-5)
    np.testing.assert_allclose(np.asarray(solve_with(MAT, B)), np.linalg.solve(MAT, B), rtol=1e-5)


def test_custom_root_and_its_gradient():
    def sqrt(a):
        newton = lambda f, x: lax.fori_loop(0, 20, lambda i, x: x - f(x) / (2.0 * x), x)  # noqa: E731
        return lax.custom_root(lambda x: x * x - a, np.float32(1.0), newton, lambda g, y: y / g(np.float32(1.0)))

    check_against_reference(sqrt, np.float32(3.0), rtol=1e-6)
    check_against_reference(jc.grad(sqrt), np.float32(3.0), rtol=1e-6)
    np.testing.assert_allclose(np.asarray(jc.jit(jc.grad(sqrt))(np.float32(3.0))), 0.5 / np.sqrt(3.0), rtol=1e-6)


def test_eager_solves_compile_once():
    from jaxle_xla.executable import Executable

    solve_with(MAT, B)
    before = Executable.compile_count
    for _ in range(3):
        x = solve_with(MAT, B)
    assert Executable.compile_count == before  # re-traced equal jaxprs reuse the executable
    np.testing.assert_allclose(np.asarray(x), np.linalg.solve(MAT, B), rtol=1e-5)
