"""``jax.scipy.optimize.minimize`` (BFGS), ``jax.scipy.sparse.linalg`` (cg, bicgstab, gmres) and
``jax.scipy.interpolate.RegularGridInterpolator``: results against SciPy and NumPy, under jit, and JAX 0.10.2's
values and errors for a sample in float32 and float64 (golden/make_scipy_signal_golden.py and its x64 form)."""

import numpy as np
import pytest
import scipy.interpolate
import scipy.optimize
from test_scipy_signal import golden_case_names, replay, replay_x64

import jaxle_numpy as jnp
from jaxle_core import config, grad, jit
from jaxle_numpy.scipy import optimize
from jaxle_numpy.scipy.interpolate import RegularGridInterpolator
from jaxle_numpy.scipy.sparse import linalg as sparse_linalg

GOLDEN_NAMES = golden_case_names("optimize.") + golden_case_names("sparse.") + golden_case_names("interpolate.")


@pytest.mark.parametrize("name", GOLDEN_NAMES)
def test_golden(name):
    replay(name)


@pytest.mark.parametrize("name", GOLDEN_NAMES)
def test_golden_x64(name):
    replay_x64(name)


def _rosenbrock(x, np_module):
    return np_module.sum(100.0 * (x[1:] - x[:-1] ** 2) ** 2 + (1 - x[:-1]) ** 2)


def test_minimize_bfgs_against_scipy():
    start = np.array([1.3, 0.7, 0.8])
    with config.enable_x64(True):
        result = optimize.minimize(lambda x: _rosenbrock(x, jnp), start, method="BFGS")
        expected = scipy.optimize.minimize(lambda x: _rosenbrock(x, np), start, method="BFGS")
        np.testing.assert_allclose(result.x, expected.x, atol=1e-4)
        assert bool(result.success) and int(result.status) == 0 and float(result.fun) <= expected.fun + 1e-8
        np.testing.assert_allclose(result.jac, np.zeros(3), atol=1e-5)
        # From SciPy's usual start JAX 0.10.2's zoom gives up (its bracket shrinks below 1e-10): status 2 + 1.
        stalled = optimize.minimize(lambda x: _rosenbrock(x, jnp), np.array([-1.2, 1.0, 0.8]), method="BFGS")
        assert int(stalled.status) == 3 and not bool(stalled.success)
        assert float(stalled.fun) < _rosenbrock(np.array([-1.2, 1.0, 0.8]), np)
    quadratic = optimize.minimize(lambda x, w: jnp.sum(w * (x - 1.0) ** 2), np.zeros(3, np.float32),
                                  args=(np.arange(1.0, 4.0, dtype=np.float32),), method="bfgs")
    np.testing.assert_allclose(quadratic.x, np.ones(3), atol=1e-5)
    np.testing.assert_allclose(quadratic.hess_inv, np.diag(1 / (2 * np.arange(1.0, 4.0))), atol=1e-2)
    assert isinstance(quadratic, optimize.OptimizeResults)


def test_minimize_limits_under_jit_and_errors():
    limited = optimize.minimize(lambda x: _rosenbrock(x, jnp), np.array([-1.2, 1.0], np.float32), method="BFGS",
                                options={"maxiter": 1})
    assert int(limited.status) == 1 and not bool(limited.success) and int(limited.nit) == 1
    solved = jit(lambda x0: optimize.minimize(lambda x: jnp.sum((x - 2.0) ** 2), x0, method="BFGS").x)(np.zeros(2))
    np.testing.assert_allclose(solved, [2.0, 2.0], atol=1e-5)
    with pytest.raises(ValueError, match="Method x not recognized"):
        optimize.minimize(lambda x: x @ x, np.zeros(2), method="x")


_RNG = np.random.default_rng(5)
_M = _RNG.standard_normal((6, 6))
_SPD = _M @ _M.T + 6 * np.eye(6)
_GENERAL = _M + 6 * np.eye(6)
_B = _RNG.standard_normal(6)


@pytest.mark.parametrize("solver", ["cg", "bicgstab", "gmres"])
def test_krylov_solvers_against_numpy(solver):
    matrix = _SPD if solver == "cg" else _GENERAL
    solve = getattr(sparse_linalg, solver)
    with config.enable_x64(True):
        expected = np.linalg.solve(matrix, _B)
        np.testing.assert_allclose(solve(matrix, _B, tol=1e-10)[0], expected, atol=1e-8)
        np.testing.assert_allclose(solve(lambda v: jnp.matmul(matrix, v), _B, x0=np.ones(6), tol=1e-10,
                                         M=lambda v: v / np.diag(matrix))[0], expected, atol=1e-8)
        complex_rhs = _B + 1j * _B[::-1]
        np.testing.assert_allclose(solve(matrix + 0j, complex_rhs, tol=1e-10)[0],
                                   np.linalg.solve(matrix, complex_rhs), atol=1e-8)
    single = jit(lambda b: solve(matrix.astype(np.float32), b)[0])(_B.astype(np.float32))
    np.testing.assert_allclose(single, np.linalg.solve(matrix, _B), atol=1e-4)


def test_gmres_restarts_and_info():
    with config.enable_x64(True):
        x, info = sparse_linalg.gmres(_GENERAL, _B, restart=2, tol=1e-10)
        np.testing.assert_allclose(x, np.linalg.solve(_GENERAL, _B), atol=1e-8)
        assert int(info) == 0
        # As JAX 0.10.2's, info reports a NaN solution (-1) only, not running out of cycles.
        x, info = sparse_linalg.gmres(_GENERAL, _B, restart=1, maxiter=1, tol=1e-12)
        assert int(info) == 0 and np.abs(_GENERAL @ np.asarray(x) - _B).max() > 1e-6
    assert sparse_linalg.cg(_SPD, _B)[1] is None
    with pytest.raises(ValueError, match="solve_method"):
        sparse_linalg.gmres(_GENERAL, _B, solve_method="x")


@pytest.mark.parametrize("method", ["linear", "nearest"])
@pytest.mark.parametrize("fill_value", [np.nan, None, -1.0])
def test_regular_grid_interpolator_against_scipy(method, fill_value):
    grid = (np.linspace(0, 1, 4), np.array([0.0, 0.5, 2.0]))
    values = _RNG.standard_normal((4, 3, 2))
    points = np.array([[0.45, 0.6], [2.0, 1.0], [0.1, 1.9], [0.99, 0.01], [-0.2, 0.3]])  # no ties for 'nearest'
    expected = scipy.interpolate.RegularGridInterpolator(grid, values, method=method, bounds_error=False,
                                                         fill_value=fill_value)(points)
    with config.enable_x64(True):
        interpolator = RegularGridInterpolator(grid, values, method=method, fill_value=fill_value)
        np.testing.assert_allclose(interpolator(points), expected, atol=1e-12)
        np.testing.assert_allclose(jit(lambda f, p: f(p))(interpolator, points), expected, atol=1e-12)
        assert interpolator(points[0]).shape == (1, 2)


def test_regular_grid_interpolator_errors():
    grid = (np.linspace(0, 1, 4),)
    with pytest.raises(ValueError, match="'cubic' is not defined"):
        RegularGridInterpolator(grid, np.ones(4), method="cubic")
    with pytest.raises(NotImplementedError, match="bounds_error"):
        RegularGridInterpolator(grid, np.ones(4), bounds_error=True)
    with pytest.raises(ValueError, match="dimension 2"):
        RegularGridInterpolator(grid, np.ones(4))(np.ones((1, 2)))


@pytest.mark.parametrize("solver", ["cg", "bicgstab", "gmres"])
def test_krylov_solver_gradients_solve_again(solver):
    matrix = (_SPD if solver == "cg" else _GENERAL)[:3, :3].astype(np.float32)
    b = _B[:3].astype(np.float32)
    solve = getattr(sparse_linalg, solver)
    x = np.linalg.solve(matrix, b)
    adjoint = np.linalg.solve(matrix.T, 2 * x)  # d|x|^2/db = 2 A^-T x; d/dA = -adjoint x^T
    np.testing.assert_allclose(grad(lambda rhs: jnp.sum(solve(matrix, rhs)[0] ** 2))(b), adjoint, rtol=1e-4)
    np.testing.assert_allclose(grad(lambda m: jnp.sum(solve(m, b)[0] ** 2))(matrix), -np.outer(adjoint, x),
                               rtol=1e-4, atol=1e-6)


def test_krylov_solvers_take_pytrees():
    diagonal = {"a": np.array([2.0, 4.0], np.float32), "b": np.array([[5.0]], np.float32)}
    rhs = {"a": np.array([1.0, 2.0], np.float32), "b": np.array([[10.0]], np.float32)}
    for solver in ("cg", "bicgstab", "gmres"):
        solution = getattr(sparse_linalg, solver)(lambda v: {k: diagonal[k] * v[k] for k in v}, rhs)[0]
        np.testing.assert_allclose(solution["a"], [0.5, 0.5], rtol=1e-5)
        np.testing.assert_allclose(solution["b"], [[2.0]], rtol=1e-5)
    with pytest.raises(ValueError, match="matching tree structure"):
        sparse_linalg.cg(lambda v: v, rhs, x0={"a": np.zeros(2, np.float32)})
