"""``jax.scipy.linalg``'s matrix functions: the exponential (scaling and squaring over Pade approximants) and its
Frechet derivative, the square root and general ``funm`` (through the Schur form)."""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import Any

import numpy as np

import jaxle_numpy as jnp
from jaxle_core import jvp, lax
from jaxle_core.avals import get_aval
from jaxle_numpy.scipy.linalg.decompositions import inexact, rsf2csf, schur
from jaxle_numpy.scipy.linalg.solves import solve_triangular
from jaxle_numpy.util import named_jit

__all__ = ["expm", "expm_frechet", "sqrtm", "funm"]

# Pade [m/m] coefficients of exp (b_0 .. b_m; the numerator's odd part and even part are the sums of b_k A^k over
# odd and even k, the denominator the same with the odd part negated), and the 1-norm bounds (Higham's theta_m)
# below which degree m already reaches the working precision; above the largest, A is scaled by 2^-s first.
_PADE = {3: (120., 60., 12., 1.), 5: (30240., 15120., 3360., 420., 30., 1.),
         7: (17297280., 8648640., 1995840., 277200., 25200., 1512., 56., 1.),
         9: (17643225600., 8821612800., 2075673600., 302702400., 30270240., 2162160., 110880., 3960., 90., 1.),
         13: (64764752532480000., 32382376266240000., 7771770303897600., 1187353796428800., 129060195264000.,
              10559470521600., 670442572800., 33522128640., 1323241920., 40840800., 960960., 16380., 182., 1.)}
_THETAS = {np.dtype(np.float32): ((3, 4.258730016922831e-001), (5, 1.880152677804762e+000),
                                  (7, 3.925724783138660e+000)),
           np.dtype(np.float64): ((3, 1.495585217958292e-002), (5, 2.539398330063230e-001),
                                  (7, 9.504178996162932e-001), (9, 2.097847961257068e+000),
                                  (13, 5.371920351148152e+000))}


def _matmul(a: Any, b: Any) -> Any:
    return jnp.matmul(a, b, precision="highest")


def _weighted_sum(terms: list[tuple[float, Any]], start: Any = None) -> Any:
    """``start + c_1 X_1 + c_2 X_2 + ...`` summed left to right (the order fixes the rounding)."""
    total = start
    for coefficient, x in terms:
        total = coefficient * x if total is None else total + coefficient * x
    return total


def _pade(a: Any, degree: int) -> tuple[Any, Any]:
    """The odd part ``u`` and even part ``v`` of the degree-``degree`` Pade approximant of ``exp(a)``."""
    b = _PADE[degree]
    identity = jnp.eye(get_aval(a).shape[-1], dtype=a.dtype)
    powers = [identity, _matmul(a, a)]  # A^0, A^2, A^4, ...
    while len(powers) <= min(degree, 7) // 2:
        powers.append(_matmul(powers[-1], powers[1]))
    if degree == 9:
        powers.append(_matmul(powers[-1], powers[1]))
    if degree < 13:
        odd = [(b[2 * k + 1], powers[k]) for k in reversed(range(len(powers)))]
        even = [(b[2 * k], powers[k]) for k in reversed(range(len(powers)))]
        return _matmul(a, _weighted_sum(odd)), _weighted_sum(even)
    _, a2, a4, a6 = powers
    odd_high = _matmul(a6, _weighted_sum([(b[13], a6), (b[11], a4), (b[9], a2)]))
    odd = _matmul(a, _weighted_sum([(b[7], a6), (b[5], a4), (b[3], a2), (b[1], identity)], odd_high))
    even_high = _matmul(a6, _weighted_sum([(b[12], a6), (b[10], a4), (b[8], a2)]))
    even = _weighted_sum([(b[6], a6), (b[4], a4), (b[2], a2), (b[0], identity)], even_high)
    return odd, even


def _real_dtype(a: Any) -> np.dtype:
    return np.dtype(jnp.finfo(get_aval(a).dtype).dtype)


@named_jit("_calc_P_Q")
def _pade_at_norm(a: Any) -> tuple[Any, Any, Any]:
    """The numerator and denominator of the Pade approximant for ``a``'s 1-norm (of ``a`` scaled by ``2^-s`` when
    that norm exceeds the top degree's bound) and the number ``s`` of squarings that undo the scaling."""
    thetas = _THETAS[_real_dtype(a)]
    norm = jnp.linalg.norm(a, 1)
    squarings = jnp.maximum(0.0, jnp.floor(jnp.log(norm / thetas[-1][1]) / jnp.log(jnp.array(2.0, norm.dtype))))
    scaled = a / 2.0 ** squarings.astype(a.dtype)
    choice = jnp.digitize(norm, np.array([theta for _, theta in thetas[:-1]], norm.dtype))  # switch clamps it
    odd, even = lax.switch(choice, [lambda x, degree=degree: _pade(x, degree) for degree, _ in thetas], scaled)
    return odd + even, -odd + even, squarings


@named_jit("_squaring", ("max_squarings",))
def _squared(result: Any, squarings: Any, max_squarings: int) -> Any:
    """``result`` squared ``squarings`` times: a scan over ``max_squarings`` steps, each squaring or not."""
    def step(x, k):
        return lax.cond(k < squarings, lambda y: _matmul(y, y), lambda y: y, x), None
    steps = jnp.arange(max_squarings, dtype=get_aval(squarings).dtype)
    return lax.scan(step, result, steps)[0]


def _expm_one(a: Any, upper_triangular: bool, max_squarings: int) -> Any:
    """exp of one matrix: the Pade approximant of the lowest degree accurate at its 1-norm (the top degree after
    scaling by 2^-s), ``(v - u)^-1 (v + u)`` (a triangular solve when ``upper_triangular``), squared s times; NaN
    past ``max_squarings``."""
    numerator, denominator, squarings = _pade_at_norm(a)

    def too_many(s, a, p, q):
        return jnp.full(get_aval(p).shape, jnp.nan, get_aval(p).dtype)

    def solve_and_square(s, a, p, q):
        ratio = solve_triangular(q, p) if upper_triangular else jnp.linalg.solve(q, p)
        return _squared(ratio, s, max_squarings)

    return lax.cond(squarings > max_squarings, too_many, solve_and_square, squarings, a, numerator, denominator)


@named_jit("expm", ("upper_triangular", "max_squarings"))
def expm(A: Any, *, upper_triangular: bool = False, max_squarings: int = 16) -> Any:  # noqa: N803 - SciPy's name
    """The matrix exponential of each square matrix (leading axes batch), by scaling and squaring over Pade
    approximants; NaN where more than ``max_squarings`` squarings would be needed."""
    A, = inexact("scipy.linalg.expm", A)  # noqa: N806
    shape = get_aval(A).shape
    if len(shape) < 2 or shape[-1] != shape[-2]:
        raise ValueError(f"Expected A to be a (batched) square matrix, got A.shape={shape}.")
    if len(shape) == 2:
        return _expm_one(A, upper_triangular, max_squarings)
    one = functools.partial(expm, upper_triangular=upper_triangular, max_squarings=max_squarings)
    return jnp.vectorize(one, signature="(n,n)->(n,n)")(A)


@named_jit("expm_frechet", ("method", "compute_expm"))
def expm_frechet(A: Any, E: Any, *, method: str | None = None, compute_expm: bool = True) -> Any:  # noqa: N803
    """The Frechet derivative of ``expm`` at ``A`` in direction ``E`` (the tangent of ``expm``, leading axes
    batch), with ``expm(A)`` first when ``compute_expm``. ``method`` is accepted and ignored, as JAX does."""
    del method
    A, E = jnp.asarray(A), jnp.asarray(E)  # noqa: N806
    for name, operand in (("A", A), ("E", E)):
        shape = get_aval(operand).shape
        if len(shape) < 2 or shape[-1] != shape[-2]:
            raise ValueError(f"expected {name} to be a (batched) square matrix, got {name}.shape={shape}")
    if get_aval(A).shape != get_aval(E).shape:
        raise ValueError(f"expected A and E to be the same shape, got A.shape={get_aval(A).shape} "
                         f"E.shape={get_aval(E).shape}")
    value, derivative = jvp(functools.partial(expm, upper_triangular=False, max_squarings=16), (A,), (E,))
    return (value, derivative) if compute_expm else derivative


@named_jit("_sqrtm_triu")
def _sqrtm_triu(t: Any) -> Any:
    """The upper triangular square root ``R`` of an upper triangular ``t``: its diagonal the roots of ``t``'s, the
    entries above it column by column, bottom up, from ``R^2 = T`` (0 where ``T[i, j]`` equals the sum of the
    known products)."""
    diagonal = jnp.sqrt(jnp.diag(t))
    n = get_aval(diagonal).shape[0]

    def column(j: Any, root: Any) -> Any:
        def entry(step: Any, root: Any) -> Any:
            i = j - 1 - step
            known = lax.fori_loop(i + 1, j, lambda k, total: total + root[i, k] * root[k, j],
                                  np.zeros((), get_aval(root).dtype))
            value = jnp.where(t[i, j] == known, 0.0, (t[i, j] - known) / (diagonal[i] + diagonal[j]))
            return root.at[i, j].set(value)

        return lax.fori_loop(0, j, entry, root)

    return lax.fori_loop(0, n, column, jnp.diag(diagonal))


@named_jit("_sqrtm")
def _sqrtm(a: Any) -> Any:
    t, z = schur(a, output="complex")
    return _matmul(_matmul(z, _sqrtm_triu(t)), jnp.conj(z.T))


def sqrtm(A: Any, blocksize: int = 1) -> Any:  # noqa: N803 - SciPy's name
    """The principal square root of a square matrix (complex), through its complex Schur form: the triangular
    root's entries follow column by column from ``R^2 = T``."""
    if blocksize > 1:
        raise NotImplementedError("Blocked version is not implemented yet.")
    return _sqrtm(A)


@named_jit("_algorithm_11_1_1")
def _parlett(f: Any, t: Any) -> tuple[Any, Any]:
    """Parlett's recurrence (Golub and Van Loan's algorithm 11.1.1): the strictly upper entries of ``F = f(T)`` for
    upper triangular ``T``, superdiagonal by superdiagonal, from ``F``'s diagonal; with the smallest ``|T_jj - T_ii|``
    met (entries whose difference is 0 keep the undivided sum)."""
    n = get_aval(t).shape[0]
    smallest = jnp.abs(t[0, 0])

    def entry(i: Any, carry: tuple[Any, Any, Any]) -> tuple[Any, Any, Any]:
        p, f, smallest = carry
        j = i + p
        total = t[i - 1, j - 1] * (f[j - 1, j - 1] - f[i - 1, i - 1])
        t_row, t_column, f_row, f_column = t[i - 1], t[:, j - 1], f[i - 1], f[:, j - 1]
        between = (jnp.arange(n) >= i) & (jnp.arange(n) < j - 1)
        total = total + (jnp.where(between, t_row, 0) @ jnp.where(between, f_column, 0)
                         - jnp.where(between, f_row, 0) @ jnp.where(between, t_column, 0))
        difference = t[j - 1, j - 1] - t[i - 1, i - 1]
        total = jnp.where(difference != 0, total / difference, total)
        return p, f.at[i - 1, j - 1].set(total), jnp.minimum(smallest, jnp.abs(difference))

    def superdiagonal(p: Any, carry: tuple[Any, Any]) -> tuple[Any, Any]:
        _, f, smallest = lax.fori_loop(1, n - p + 1, entry, (p, *carry))
        return f, smallest

    return lax.fori_loop(1, n, superdiagonal, (f, smallest))


def funm(A: Any, func: Callable[[Any], Any], disp: bool = True) -> Any:  # noqa: N803 - SciPy's name
    """``func`` (an elementwise function) applied to a square matrix through its complex Schur form (Parlett's
    recurrence over the triangular factor); with an estimate of the relative error when ``disp`` is false."""
    A = jnp.asarray(A)  # noqa: N806
    shape = get_aval(A).shape
    if len(shape) != 2 or shape[0] != shape[1]:
        raise ValueError("expected square array_like input")
    t, z = rsf2csf(*schur(A))
    f = jnp.diag(func(jnp.diag(t))).astype(t.dtype.char)
    f, smallest = _parlett(f, t)
    f = z @ f @ z.conj().T
    if disp:
        return f
    eps = jnp.finfo(np.float32 if f.dtype.char.lower() == "f" else np.float64).eps
    smallest = jnp.where(smallest == 0.0, eps, smallest)
    overflowed = jnp.any(jnp.isinf(f))
    return f, jnp.where(overflowed, np.inf,
                        jnp.minimum(1, jnp.maximum(eps, (eps / smallest) * jnp.linalg.norm(jnp.triu(t, 1), 1))))
