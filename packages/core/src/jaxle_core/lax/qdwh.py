"""``qdwh``: the polar decomposition ``x = u h`` by the QR-based dynamically weighted Halley iteration, written in
lax operations (no primitive of its own), staged as JAX 0.10.2 stages it.

Each iteration maps ``x`` to ``(b / c) x + (a - b / c) x (I + c x^H x)^{-1}``: the weights ``(a, b, c)`` drive the
singular values of the normalized ``x`` to 1. They depend only on the dtype's epsilon (the smallest singular value
is taken to be ``eps``), so they are tabulated in Python: while ``c > 100`` an iteration goes through the QR
decomposition of ``[sqrt(c) x; I]`` (stable for ill-conditioned ``x``), after that through a Cholesky factorization,
and once the table is used up the fixed weights ``(3, 1, 3)`` repeat in a loop until ``x`` stops changing.
"""

from __future__ import annotations

import functools
import math
from typing import Any

import numpy as np

from jaxle_core import dtypes
from jaxle_core.avals import get_aval
from jaxle_core.jit import jit
from jaxle_core.lax import elementwise as lax_elementwise
from jaxle_core.lax import reductions, slicing, structural
from jaxle_core.lax.control_flow.scan import scan
from jaxle_core.lax.control_flow.while_loops import while_loop
from jaxle_core.lax.dot import Precision, dot_general
from jaxle_core.lax.factorizations import cholesky
from jaxle_core.lax.householder import qr
from jaxle_core.lax.linalg_support import adjoint, real_dtype
from jaxle_core.lax.matrix_solves import triangular_solve

__all__ = ["qdwh"]

# The weights switch from the QR to the Cholesky form of an iteration once c drops to this.
_QR_WEIGHT_LIMIT = 100.0
# The fixed weights (a, b, c) of the iterations after the table: Halley's method.
_HALLEY = (3.0, 1.0, 3.0)


def _weights(eps: float, max_iterations: int) -> tuple[list[tuple[float, ...]], list[tuple[float, ...]]]:
    """The QR-form rows ``((a - b/c) / sqrt(c), sqrt(c), b/c)`` and Cholesky-form rows ``(a - b/c, c, b/c)`` of the
    iterations before the lower bound ``l`` of the singular values reaches 1 (within ``5 eps``), in float64."""
    tolerance = 5 * eps
    bound = eps
    qr_rows, cholesky_rows = [], []
    while len(qr_rows) + len(cholesky_rows) < max_iterations:
        d = (4 * (1 - bound ** 2) / bound ** 4) ** (1 / 3)
        a = math.sqrt(1 + d) + 0.5 * math.sqrt(8 - 4 * d + 8 * (2 - bound ** 2) / (bound ** 2 * math.sqrt(1 + d)))
        b = (a - 1) ** 2 / 4
        c = a + b - 1
        bound = bound * (a + b * bound ** 2) / (1 + c * bound ** 2)
        if c > _QR_WEIGHT_LIMIT:
            qr_rows.append(((a - b / c) / math.sqrt(c), math.sqrt(c), b / c))
        else:
            cholesky_rows.append((a - b / c, c, b / c))
        if abs(1 - bound) < tolerance:
            break
    return qr_rows, cholesky_rows


# ---------------------------------------------------------------- the jnp helpers JAX stages, under their names


def _named(name: str):
    def stage(body):
        body.__name__ = name
        return jit(body)
    return stage


def _select(condition: Any, if_true: Any, if_false: Any) -> Any:
    """``jnp.where``: a Python number takes the other operand's dtype and is broadcast to the condition's shape."""
    dtype = next(get_aval(v).dtype for v in (if_true, if_false) if dtypes.issubdtype(get_aval(v).dtype, np.inexact))
    shape = get_aval(condition).shape

    def operand(v: Any) -> Any:
        v = structural.convert_element_type(v, dtype) if get_aval(v).dtype != dtype else v
        return structural.broadcast_in_dim(v, shape, ()) if get_aval(v).shape != shape else v

    if_true, if_false = operand(if_true), operand(if_false)
    return structural.select_n(condition, if_false, if_true)


_where = _named("_where")(lambda condition, if_true, if_false: _select(condition, if_true, if_false))
# JAX traces the zeroing of a padded input apart from the loops' selections: its own jaxpr, printed inline
_zero_padding = _named("_where")(lambda condition, if_true, if_false: _select(condition, if_true, if_false))


def _induced_norm(x: Any, summed_axis: int) -> Any:
    """The 1-norm (``summed_axis`` 0) or infinity-norm (1) of a matrix: the largest absolute column (row) sum."""
    sums = reductions.reduce_sum(lax_elementwise.abs(x), (summed_axis,))
    largest = reductions.reduce_max(sums, (0,))
    return lax_elementwise.max(np.zeros((), get_aval(largest).dtype)[()], largest)


@_named("norm")
def _one_norm(x: Any) -> Any:
    return _induced_norm(x, 0)


@_named("norm")
def _infinity_norm(x: Any) -> Any:
    return _induced_norm(x, 1)


@_named("norm")
def _frobenius_norm(x: Any) -> Any:
    if dtypes.issubdtype(get_aval(x).dtype, np.complexfloating):
        squares = lax_elementwise.real(lax_elementwise.mul(x, lax_elementwise.conj(x)))
    else:
        squares = lax_elementwise.mul(x, x)
    return lax_elementwise.sqrt(reductions.reduce_sum(squares, (0, 1)))


# ---------------------------------------------------------------- pieces of an iteration


def _matmul(x: Any, y: Any) -> Any:
    return dot_general(x, y, (((1,), (0,)), ((), ())), Precision.HIGHEST, preferred_element_type=get_aval(x).dtype)


def _eye(n: int, dtype: np.dtype) -> Any:
    """The identity as ``jnp.eye`` builds it (both iotas first, of the default integer type)."""
    index = dtypes.default_int_dtype()
    rows = structural.broadcasted_iota(index, (n, n), 0)
    cols = structural.broadcasted_iota(index, (n, n), 1)
    return structural.convert_element_type(lax_elementwise.eq(lax_elementwise.add(rows, index.type(0)), cols), dtype)


def _below(size: Any, shape: tuple[int, int], dimension: int) -> Any:
    """``iota < size`` along ``dimension`` of ``shape``; a traced size is made a strong int32 first."""
    positions = structural.broadcasted_iota(np.int32, shape, dimension)
    if not isinstance(size, int):
        size = structural.convert_element_type_p.bind(size, new_dtype=np.dtype(np.int32), weak_type=False,
                                                      sharding=None)
    return lax_elementwise.lt(positions, np.int32(size) if isinstance(size, int) else size)


def _valid(shape: tuple[int, int], rows: Any, cols: Any) -> Any:
    """Where a ``shape`` matrix lies inside the ``rows`` x ``cols`` block of actual (not padding) entries."""
    return lax_elementwise.bitwise_and(_below(rows, shape, 0), _below(cols, shape, 1))


def _row_weights(table: Any, k: Any) -> tuple[Any, Any, Any]:
    row = slicing.dynamic_index_in_dim(table, k, keepdims=False)
    return tuple(structural.squeeze(slicing.slice(row, (i,), (i + 1,), (1,)), (0,)) for i in range(3))


def _qr_iteration(x: Any, weights: tuple[Any, Any, Any], m: Any, n: Any) -> Any:
    """``(b/c) x + (a - b/c)/sqrt(c) q1 q2^H`` with ``[sqrt(c) x; I] = [q1; q2] r``."""
    scale, sqrt_c, ratio = weights
    rows, cols = get_aval(x).shape
    dtype = get_aval(x).dtype
    scaled = lax_elementwise.mul(sqrt_c, x)
    eye = _eye(cols, dtype)
    stacked = structural.pad(scaled, np.zeros((), dtype)[()], ((0, cols, 0), (0, 0, 0)))
    stacked = slicing.dynamic_update_slice(stacked, eye, (m, 0))
    q, _ = qr(stacked, full_matrices=False)
    q1 = slicing.slice(q, (0, 0), (rows, cols))
    q1 = _where(_valid((rows, cols), m, n), q1, 0)
    q2 = slicing.dynamic_slice(q, (m, 0), (cols, cols))
    q2 = _where(_valid((cols, cols), n, n), q2, 0)
    q2_adjoint = adjoint(q2)
    kept = lax_elementwise.mul(ratio, x)
    return lax_elementwise.add(kept, lax_elementwise.mul(scale, _matmul(q1, q2_adjoint)))


def _gram(x: Any, c: Any) -> Any:
    """``c x^H x + I``."""
    return lax_elementwise.add(lax_elementwise.mul(c, _matmul(adjoint(x), x)), _eye(get_aval(x).shape[1],
                                                                                     get_aval(x).dtype))


def _cholesky_iteration(x: Any, gram: Any, scale: Any, ratio: Any, n: Any) -> Any:
    """``ratio x + scale x gram^{-1}``, the inverse applied through a Cholesky factorization of ``gram``."""
    cols = get_aval(x).shape[1]
    dtype = get_aval(x).dtype
    eye = _eye(cols, dtype)
    gram = _where(_valid((cols, cols), n, n), gram, eye)
    factor = cholesky(gram, symmetrize_input=False)
    conjugate = dtypes.issubdtype(dtype, np.complexfloating)
    # x (L L^H)^{-1} = (L^{-H} L^{-1} x^H)^H, both solves from the left
    solved = triangular_solve(factor, structural.transpose(x, (1, 0)), left_side=True, lower=True,
                              conjugate_a=conjugate)
    solved = lax_elementwise.conj(solved) if conjugate else solved
    solved = triangular_solve(factor, solved, left_side=True, lower=True, transpose_a=True, conjugate_a=conjugate)
    solved = structural.transpose(solved, (1, 0))
    solved = lax_elementwise.conj(solved) if conjugate else solved
    return lax_elementwise.add(lax_elementwise.mul(ratio, x), lax_elementwise.mul(scale, solved))


def _changed(new: Any, old: Any, tolerance: Any) -> Any:
    """Whether the iteration moved ``x`` by more than ``tolerance`` (Frobenius norm)."""
    change = _frobenius_norm(lax_elementwise.sub(new, old))
    strong = structural.convert_element_type_p.bind(tolerance, new_dtype=get_aval(change).dtype, weak_type=False,
                                                    sharding=None)
    return lax_elementwise.gt(change, strong)


def _table(rows: list[tuple[float, ...]], dtype: np.dtype) -> Any:
    """The weights as a constant of the default float type, converted to ``x``'s type where that differs."""
    table = np.array(rows, dtypes.default_float_dtype())
    return table if table.dtype == dtype else structural.convert_element_type(table, dtype)


def _constant(value: float, x: Any) -> Any:
    return np.array(value, get_aval(x).dtype)[()]


# ---------------------------------------------------------------- qdwh


@functools.partial(jit, static_argnames=("is_hermitian", "max_iterations", "eps"))
def qdwh(x, *, is_hermitian: bool = False, max_iterations: int | None = None, eps: float | None = None,
         dynamic_shape: tuple[int, int] | None = None):
    """The polar decomposition of the ``m x n`` matrix ``x`` (``m >= n``): ``(u, h, num_iters, is_converged)``
    with ``u`` having orthonormal columns and ``h`` Hermitian positive semidefinite, ``x = u h``. At most
    ``max_iterations`` (default 10) iterations run; ``eps`` (default the dtype's) sets the tolerances;
    ``dynamic_shape`` gives the actual ``(m, n)`` of a zero-padded ``x``. ``is_hermitian`` changes nothing on CPU."""
    return _qdwh(x, max_iterations, eps, *(dynamic_shape or ()))


def _qdwh(x: Any, max_iterations: int | None, eps: float | None, *actual: Any) -> tuple[Any, Any, Any, Any]:
    # ``actual`` holds the traced (m, n) of a padded x; without it the static shape is the actual one
    rows, cols = get_aval(x).shape
    if rows < cols:
        raise ValueError("The input matrix of shape M x N must have M >= N.")
    m, n = actual if actual else (rows, cols)
    dtype = get_aval(x).dtype
    if not dtypes.issubdtype(dtype, np.inexact):
        raise ValueError(f"data type {dtype.type} not inexact")
    max_iterations = 10 if max_iterations is None else max_iterations
    eps = float(np.finfo(dtype).eps) if eps is None else eps
    real = real_dtype(dtype)
    if actual:
        x = _zero_padding(_valid((rows, cols), m, n), x, 0)
    original = x

    one_norm, infinity_norm = _one_norm(x), _infinity_norm(x)
    scale = lax_elementwise.mul(lax_elementwise.rsqrt(one_norm), lax_elementwise.rsqrt(infinity_norm))
    scale = _where(lax_elementwise.eq(one_norm, np.zeros((), real)[()]), 1, scale)
    x = lax_elementwise.mul(x, structural.convert_element_type(scale, dtype) if real != dtype else scale)
    tolerance = lax_elementwise.cbrt(5 * eps)

    qr_rows, cholesky_rows = _weights(eps, max_iterations)
    converging = True
    if qr_rows:
        qr_table = _table(qr_rows, dtype)

        def qr_step(carry, _):
            k, y, _ = carry
            following = lax_elementwise.add(k, 1)
            return (following, _qr_iteration(y, _row_weights(qr_table, k), m, n), True), None

        # the QR form never tests convergence: its flag stays True
        (_, x, _), _ = scan(qr_step, (0, x, True), length=len(qr_rows))
    if cholesky_rows:
        cholesky_table = _table(cholesky_rows, dtype)

        def cholesky_step(carry, _):
            k, y, _ = carry
            following = lax_elementwise.add(k, 1)
            weight_a, weight_c, ratio = _row_weights(cholesky_table, k)
            new = _cholesky_iteration(y, _gram(y, weight_c), weight_a, ratio, n)
            return (following, new, _changed(new, y, tolerance)), None

        (_, x, converging), _ = scan(cholesky_step, (0, x, True), length=len(cholesky_rows))

    a, b, c = _HALLEY

    def keep_going(carry):
        k, _, moving = carry
        below = lax_elementwise.lt(k, max_iterations)
        below = structural.convert_element_type_p.bind(below, new_dtype=np.dtype(np.bool_), weak_type=False,
                                                       sharding=None)
        return lax_elementwise.bitwise_and(moving, below)

    def halley_step(carry):
        k, y, _ = carry
        new = _cholesky_iteration(y, _gram(y, _constant(c, y)), _constant(a - b / c, y), _constant(b / c, y), n)
        moved = _changed(new, y, tolerance)
        return lax_elementwise.add(k, 1), new, moved

    iterations, x, moving = while_loop(keep_going, halley_step, (len(qr_rows) + len(cholesky_rows), x, converging))
    # one Newton-Schulz step polishes u's orthogonality
    u = lax_elementwise.sub(lax_elementwise.mul(_constant(1.5, x), x),
                            _matmul(lax_elementwise.mul(_constant(0.5, x), x), _matmul(adjoint(x), x)))
    h = _matmul(adjoint(u), original)
    h = lax_elementwise.div(lax_elementwise.add(h, adjoint(h)), _constant(2, h))
    return u, h, iterations, lax_elementwise.bitwise_not(moving)
