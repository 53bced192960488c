"""``jax.scipy.linalg``'s matrix functions: the exponential (scaling and squaring over Pade approximants) and its
Frechet derivative, the square root and general ``funm`` (through the Schur form)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np

import jaxle_numpy as jnp
from jaxle_core import jvp
from jaxle_core.avals import get_aval
from jaxle_core.batching import vmap
from jaxle_numpy.scipy.linalg.decompositions import inexact, schur
from jaxle_numpy.util import named_jit

__all__ = ["expm", "expm_frechet", "sqrtm", "funm"]

# Pade [13/13] coefficients of exp (b_k of the numerator; the denominator alternates their signs), and the
# 1-norm bounds below which lower degrees already reach the working precision (Higham's theta_m).
_PADE13 = (64764752532480000., 32382376266240000., 7771770303897600., 1187353796428800., 129060195264000.,
           10559470521600., 670442572800., 33522128640., 1323241920., 40840800., 960960., 16380., 182., 1.)
_PADE = {3: (120., 60., 12., 1.), 5: (30240., 15120., 3360., 420., 30., 1.),
         7: (17297280., 8648640., 1995840., 277200., 25200., 1512., 56., 1.),
         9: (17643225600., 8821612800., 2075673600., 302702400., 30270240., 2162160., 110880., 3960., 90., 1.),
         13: _PADE13}
_THETA = {np.dtype(np.float32): ((3, 4.258730016922831e-001), (5, 1.880152677804762e+000), (7, 3.925724783138660e+000)),
          np.dtype(np.float64): ((3, 1.495585217958292e-002), (5, 2.539398330063230e-001),
                                 (7, 9.504178996162932e-001), (9, 2.097847961257068e+000))}
_THETA_MAX = {np.dtype(np.float32): 3.925724783138660e+000, np.dtype(np.float64): 5.371920351148152e+000}


def _matmul(a: Any, b: Any) -> Any:
    return jnp.matmul(a, b, precision="highest")


def _pade(a: Any, degree: int) -> tuple[Any, Any]:
    """The Pade numerator ``p`` and denominator ``q`` of ``exp(a)`` of the given degree."""
    b = _PADE[degree]
    identity = jnp.eye(get_aval(a).shape[-1], dtype=a.dtype)
    a2 = _matmul(a, a)
    if degree < 13:
        powers = [identity, a2]
        while len(powers) <= degree // 2:
            powers.append(_matmul(powers[-1], a2))
        odd = _matmul(a, sum(b[2 * k + 1] * powers[k] for k in range(len(powers))))
        even = sum(b[2 * k] * powers[k] for k in range(len(powers)))
    else:
        a4 = _matmul(a2, a2)
        a6 = _matmul(a4, a2)
        odd = _matmul(a, _matmul(a6, b[13] * a6 + b[11] * a4 + b[9] * a2) + b[7] * a6 + b[5] * a4 + b[3] * a2
                      + b[1] * identity)
        even = _matmul(a6, b[12] * a6 + b[10] * a4 + b[8] * a2) + b[6] * a6 + b[4] * a4 + b[2] * a2 + b[0] * identity
    return even + odd, even - odd


def _real_dtype(a: Any) -> np.dtype:
    return np.dtype(jnp.finfo(get_aval(a).dtype).dtype)


def _expm_one(a: Any, max_squarings: int) -> Any:
    """exp of one matrix: the lowest Pade degree accurate at its 1-norm, or degree 13 after scaling by 2^-s."""
    real = _real_dtype(a)
    norm = jnp.max(jnp.sum(jnp.abs(a), axis=-2))
    theta_max = _THETA_MAX[real]
    squarings = jnp.maximum(0, jnp.floor(jnp.log2(norm / theta_max))).astype(np.int32)
    squarings = jnp.where(norm > theta_max, squarings + 1, 0)
    top_degree = 13 if real == np.float64 else 7
    scaled = a / jnp.exp2(squarings).astype(a.dtype)
    result = _solve_pade(*_pade(scaled, top_degree))
    for degree, theta in reversed(_THETA[real]):
        if degree == top_degree:
            continue
        result = jnp.where(norm < theta, _solve_pade(*_pade(a, degree)), result)

    def square(k, x):
        return jnp.where(k < squarings, _matmul(x, x), x)

    for k in range(max_squarings):
        result = square(k, result)
    return jnp.where(squarings > max_squarings, jnp.nan, result)


def _solve_pade(p: Any, q: Any) -> Any:
    return jnp.linalg.solve(q, p)


@named_jit("expm", ("upper_triangular", "max_squarings"))
def expm(A: Any, *, upper_triangular: bool = False, max_squarings: int = 16) -> Any:  # noqa: N803 - SciPy's name
    """The matrix exponential of each square matrix (leading axes batch), by scaling and squaring over Pade
    approximants; NaN where more than ``max_squarings`` squarings would be needed."""
    A, = inexact("scipy.linalg.expm", A)  # noqa: N806
    shape = get_aval(A).shape
    if len(shape) < 2 or shape[-1] != shape[-2]:
        raise ValueError(f"Expected A to be a (batched) square matrix, got A.shape={shape}.")
    del upper_triangular  # a hint for SciPy's algorithm choice; the result is the same
    if len(shape) == 2:
        return _expm_one(A, max_squarings)
    flat = A.reshape(-1, *shape[-2:])
    return vmap(lambda a: _expm_one(a, max_squarings))(flat).reshape(shape)


def expm_frechet(A: Any, E: Any, *, method: str | None = None, compute_expm: bool = True) -> Any:  # noqa: N803
    """The Frechet derivative of ``expm`` at ``A`` in direction ``E`` (the tangent of ``expm``), with ``expm(A)``
    first when ``compute_expm``."""
    A, E = inexact("scipy.linalg.expm_frechet", A, E)  # noqa: N806
    if method is not None and method != "SPS":
        raise ValueError(f"only method='SPS' is supported, got {method!r}")
    shape_a, shape_e = get_aval(A).shape, get_aval(E).shape
    if len(shape_a) != 2 or shape_a[0] != shape_a[1]:
        raise ValueError(f"expected A to be a square matrix, got shape {shape_a}")
    if shape_a != shape_e:
        raise ValueError(f"expected A and E to be the same shape, got {shape_a} and {shape_e}")
    value, derivative = jvp(expm, (A,), (E,))
    return (value, derivative) if compute_expm else derivative


def _schur_complex(a: Any) -> tuple[Any, Any]:
    t, z = schur(a, output="complex")
    return t, z


@named_jit("sqrtm", ("blocksize",))
def sqrtm(A: Any, blocksize: int = 1) -> Any:  # noqa: N803 - SciPy's name
    """The principal square root of a square matrix (complex), through its complex Schur form: the triangular
    root's entries follow column by column from ``R^2 = T``."""
    if blocksize > 1:
        raise NotImplementedError("Blocked version is not implemented yet.")
    A, = inexact("scipy.linalg.sqrtm", A)  # noqa: N806
    t, z = _schur_complex(A)
    n = get_aval(t).shape[0]
    root = jnp.zeros_like(t).at[np.arange(n), np.arange(n)].set(jnp.sqrt(jnp.diagonal(t)))
    for j in range(n):
        for i in range(j - 1, -1, -1):
            inner = jnp.sum(root[i, i + 1:j] * root[i + 1:j, j]) if j - i > 1 else 0
            root = root.at[i, j].set((t[i, j] - inner) / (root[i, i] + root[j, j]))
    return _matmul(_matmul(z, root), jnp.conj(z.T))


def funm(A: Any, func: Callable[[Any], Any], disp: bool = True) -> Any:  # noqa: N803 - SciPy's name
    """``func`` (an elementwise function) applied to a square matrix through its complex Schur form (Parlett's
    recurrence over the triangular factor); eigenvalues should be distinct."""
    A, = inexact("scipy.linalg.funm", A)  # noqa: N806
    shape = get_aval(A).shape
    if len(shape) != 2 or shape[0] != shape[1]:
        raise ValueError("expected square array_like input")
    t, z = _schur_complex(A)
    n = shape[0]
    f = jnp.zeros_like(t).at[np.arange(n), np.arange(n)].set(func(jnp.diagonal(t)))
    for p in range(1, n):
        for i in range(n - p):
            j = i + p
            numerator = t[i, j] * (f[j, j] - f[i, i])
            if p > 1:
                numerator = numerator + jnp.sum(t[i, i + 1:j] * f[i + 1:j, j] - f[i, i + 1:j] * t[i + 1:j, j])
            f = f.at[i, j].set(numerator / (t[j, j] - t[i, i]))
    result = _matmul(_matmul(z, f), jnp.conj(z.T))
    if disp:
        return result
    return result, jnp.linalg.norm(result) * jnp.finfo(result.dtype).eps
