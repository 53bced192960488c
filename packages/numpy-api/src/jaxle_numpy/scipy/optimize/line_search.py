"""The strong Wolfe line search (Nocedal and Wright's algorithms 3.5 and 3.6): steps doubled from a first guess
until one satisfies both conditions or brackets a point that does, which ``zoom`` then narrows by cubic, quadratic
or bisection steps; every branch staged as a ``while_loop`` of JAX 0.10.2's shape."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, NamedTuple

import jaxle_numpy as jnp
from jaxle_core import lax, value_and_grad
from jaxle_core.lax.dot import Precision
from jaxle_numpy.util import promote_dtypes_inexact

__all__ = ["LineSearchResults", "line_search"]

_BISECT_BELOW = 0.2  # a cubic step closer than this fraction of the bracket to its ends is refused
_QUADRATIC_BELOW = 0.1  # likewise a quadratic step
_MAX_ZOOMS = 30


def _dot(a: Any, b: Any) -> Any:
    return jnp.dot(a, b, precision=Precision.HIGHEST)


def _cubic_minimum(a: Any, fa: Any, fpa: Any, b: Any, fb: Any, c: Any, fc: Any) -> Any:
    """The minimizer of the cubic through ``(a, fa)`` with slope ``fpa`` there, ``(b, fb)`` and ``(c, fc)``."""
    dtype = jnp.result_type(a, fa, fpa, b, fb, c, fc)
    db, dc = b - a, c - a
    denominator = (db * dc) ** 2 * (db - dc)
    powers = jnp.array([[dc ** 2, -db ** 2], [-dc ** 3, db ** 3]], dtype=dtype)
    rises = jnp.array([fb - fa - fpa * db, fc - fa - fpa * dc], dtype=dtype)
    cubic, quadratic = _dot(powers, rises) / denominator
    radical = quadratic * quadratic - 3. * cubic * fpa
    return a + (-quadratic + jnp.sqrt(radical)) / (3. * cubic)


def _quadratic_minimum(a: Any, fa: Any, fpa: Any, b: Any, fb: Any) -> Any:
    """The minimizer of the parabola through ``(a, fa)`` with slope ``fpa`` there and ``(b, fb)``."""
    db = b - a
    curvature = (fb - fa - fpa * db) / (db ** 2)
    return a - fpa / (2. * curvature)


def _replaced_where(condition: Any, state: NamedTuple, **new: Any) -> dict:
    """For each field named in ``new``: ``new``'s value where ``condition`` holds, ``state``'s elsewhere."""
    return {name: jnp.where(condition, value, getattr(state, name)) for name, value in new.items()}


class _ZoomState(NamedTuple):
    done: Any
    failed: Any
    j: Any
    a_lo: Any
    phi_lo: Any
    dphi_lo: Any
    a_hi: Any
    phi_hi: Any
    dphi_hi: Any
    a_rec: Any
    phi_rec: Any
    a_star: Any
    phi_star: Any
    dphi_star: Any
    g_star: Any
    nfev: Any
    ngev: Any


def _zoom(restricted: Callable, sufficient_decrease_fails: Callable, curvature_holds: Callable, a_lo: Any,
          phi_lo: Any, dphi_lo: Any, a_hi: Any, phi_hi: Any, dphi_hi: Any, g_0: Any, skip: Any) -> _ZoomState:
    """Narrow the bracket ``[a_lo, a_hi]`` (``a_lo`` the better end) to a step meeting both Wolfe conditions; the
    loop does not run where ``skip``. Fails when the bracket shrinks below 1e-5 (1e-10 in 64 bits) or after
    ``_MAX_ZOOMS`` steps."""
    state = _ZoomState(done=False, failed=False, j=0, a_lo=a_lo, phi_lo=phi_lo, dphi_lo=dphi_lo, a_hi=a_hi,
                       phi_hi=phi_hi, dphi_hi=dphi_hi, a_rec=(a_lo + a_hi) / 2., phi_rec=(phi_lo + phi_hi) / 2.,
                       a_star=1., phi_star=phi_lo, dphi_star=dphi_lo, g_star=g_0, nfev=0, ngev=0)

    def step(state: _ZoomState) -> _ZoomState:
        width = state.a_hi - state.a_lo
        low = jnp.minimum(state.a_hi, state.a_lo)
        high = jnp.maximum(state.a_hi, state.a_lo)
        cubic_margin = _BISECT_BELOW * width
        quadratic_margin = _QUADRATIC_BELOW * width
        threshold = jnp.where(jnp.finfo(width.dtype).bits < 64, 1e-5, 1e-10)
        state = state._replace(failed=state.failed | (width <= threshold))

        cubic = _cubic_minimum(state.a_lo, state.phi_lo, state.dphi_lo, state.a_hi, state.phi_hi, state.a_rec,
                               state.phi_rec)
        use_cubic = (state.j > 0) & (cubic > low + cubic_margin) & (cubic < high - cubic_margin)
        quadratic = _quadratic_minimum(state.a_lo, state.phi_lo, state.dphi_lo, state.a_hi, state.phi_hi)
        use_quadratic = (~use_cubic) & (quadratic > low + quadratic_margin) & (quadratic < high - quadratic_margin)
        middle = (state.a_lo + state.a_hi) / 2.
        use_middle = (~use_cubic) & (~use_quadratic)
        a_j = jnp.where(use_cubic, cubic, state.a_rec)
        a_j = jnp.where(use_quadratic, quadratic, a_j)
        a_j = jnp.where(use_middle, middle, a_j)

        phi_j, dphi_j, g_j = restricted(a_j)
        phi_j = phi_j.astype(state.phi_lo.dtype)
        dphi_j = dphi_j.astype(state.dphi_lo.dtype)
        g_j = g_j.astype(state.g_star.dtype)
        state = state._replace(nfev=state.nfev + 1, ngev=state.ngev + 1)

        # a_j becomes the high end (too long), the answer, the low end with the old low end high, or the low end.
        hi_to_j = sufficient_decrease_fails(a_j, phi_j) | (phi_j >= state.phi_lo)
        star_to_j = curvature_holds(dphi_j) & (~hi_to_j)
        hi_to_lo = (dphi_j * (state.a_hi - state.a_lo) >= 0.) & (~hi_to_j) & (~star_to_j)
        lo_to_j = (~hi_to_j) & (~star_to_j)

        state = state._replace(**_replaced_where(hi_to_j, state, a_hi=a_j, phi_hi=phi_j, dphi_hi=dphi_j,
                                                 a_rec=state.a_hi, phi_rec=state.phi_hi))
        state = state._replace(done=star_to_j | state.done,
                               **_replaced_where(star_to_j, state, a_star=a_j, phi_star=phi_j, dphi_star=dphi_j,
                                                 g_star=g_j))
        state = state._replace(**_replaced_where(hi_to_lo, state, a_hi=state.a_lo, phi_hi=state.phi_lo,
                                                 dphi_hi=state.dphi_lo, a_rec=state.a_hi, phi_rec=state.phi_hi))
        state = state._replace(**_replaced_where(lo_to_j & ~hi_to_lo, state, a_rec=state.a_lo,
                                                 phi_rec=state.phi_lo))
        state = state._replace(**_replaced_where(lo_to_j, state, a_lo=a_j, phi_lo=phi_j, dphi_lo=dphi_j))
        state = state._replace(j=state.j + 1)
        return state._replace(failed=state.failed | (state.j >= _MAX_ZOOMS))

    return lax.while_loop(lambda state: (~state.done) & (~skip) & (~state.failed), step, state)


class _SearchState(NamedTuple):
    done: Any
    failed: Any
    i: Any
    a_i1: Any
    phi_i1: Any
    dphi_i1: Any
    nfev: Any
    ngev: Any
    a_star: Any
    phi_star: Any
    dphi_star: Any
    g_star: Any


class LineSearchResults(NamedTuple):
    """What ``line_search`` found: whether it failed, its iterations (``nit``; ``k`` counts from 1), function and
    gradient evaluations, the step ``a_k`` with the function value and gradient there, and its status (0: found,
    1: zoom failed, 3: out of iterations)."""
    failed: Any
    nit: Any
    nfev: Any
    ngev: Any
    k: Any
    a_k: Any
    f_k: Any
    g_k: Any
    status: Any


def line_search(f: Callable, xk: Any, pk: Any, old_fval: Any = None, old_old_fval: Any = None, gfk: Any = None,
                c1: float = 1e-4, c2: float = 0.9, maxiter: int = 20) -> LineSearchResults:
    """A step along the descent direction ``pk`` from ``xk`` satisfying the strong Wolfe conditions (sufficient
    decrease ``c1``, curvature ``c2``); ``old_fval`` and ``gfk`` are ``f`` and its gradient at ``xk`` when known,
    ``old_old_fval`` the previous value, which sets the first step tried."""
    xk, pk = promote_dtypes_inexact(xk, pk)

    def restricted(t: Any) -> tuple[Any, Any, Any]:
        t = jnp.array(t, dtype=pk.dtype)
        phi, g = value_and_grad(f)(xk + t * pk)
        return phi, jnp.real(_dot(g, pk)), g

    evaluated_at_start = old_fval is None or gfk is None
    if evaluated_at_start:
        phi_0, dphi_0, gfk = restricted(0)
    else:
        phi_0, dphi_0 = old_fval, jnp.real(_dot(gfk, pk))
    if old_old_fval is not None:
        candidate = 1.01 * 2 * (phi_0 - old_old_fval) / dphi_0
        first_step = jnp.where(candidate > 1, 1.0, candidate)
    else:
        first_step = 1

    def sufficient_decrease_fails(a: Any, phi: Any) -> Any:
        return phi > phi_0 + c1 * a * dphi_0

    def curvature_holds(dphi: Any) -> Any:
        return jnp.abs(dphi) <= -c2 * dphi_0

    state = _SearchState(done=jnp.array(False, dtype=bool), failed=jnp.array(False, dtype=bool), i=1, a_i1=0.,
                         phi_i1=phi_0, dphi_i1=dphi_0, nfev=1 if evaluated_at_start else 0,
                         ngev=1 if evaluated_at_start else 0, a_star=0., phi_star=phi_0, dphi_star=dphi_0,
                         g_star=gfk)

    def step(state: _SearchState) -> _SearchState:
        a_i = jnp.where(state.i == 1, first_step, state.a_i1 * 2.)
        phi_i, dphi_i, g_i = restricted(a_i)
        state = state._replace(nfev=state.nfev + 1, ngev=state.ngev + 1)
        # Zoom between the last step and this one (this one too long), or between this one and the last (this one
        # ascending); or stop at this one (both conditions hold).
        zoom_back = sufficient_decrease_fails(a_i, phi_i) | ((phi_i >= state.phi_i1) & (state.i > 1))
        take_i = curvature_holds(dphi_i) & (~zoom_back)
        zoom_forward = (dphi_i >= 0.) & (~zoom_back) & (~take_i)

        back = _zoom(restricted, sufficient_decrease_fails, curvature_holds, state.a_i1, state.phi_i1,
                     state.dphi_i1, a_i, phi_i, dphi_i, gfk, ~zoom_back)
        state = state._replace(nfev=state.nfev + back.nfev, ngev=state.ngev + back.ngev)
        forward = _zoom(restricted, sufficient_decrease_fails, curvature_holds, a_i, phi_i, dphi_i, state.a_i1,
                        state.phi_i1, state.dphi_i1, gfk, ~zoom_forward)
        state = state._replace(nfev=state.nfev + forward.nfev, ngev=state.ngev + forward.ngev)

        state = state._replace(done=zoom_back | state.done, failed=(zoom_back & back.failed) | state.failed,
                               **_replaced_where(zoom_back, state, a_star=back.a_star, phi_star=back.phi_star,
                                                 dphi_star=back.dphi_star, g_star=back.g_star))
        state = state._replace(done=take_i | state.done,
                               **_replaced_where(take_i, state, a_star=a_i, phi_star=phi_i, dphi_star=dphi_i,
                                                 g_star=g_i))
        state = state._replace(done=zoom_forward | state.done,
                               failed=(zoom_forward & forward.failed) | state.failed,
                               **_replaced_where(zoom_forward, state, a_star=forward.a_star,
                                                 phi_star=forward.phi_star, dphi_star=forward.dphi_star,
                                                 g_star=forward.g_star))
        return state._replace(i=state.i + 1, a_i1=a_i, phi_i1=phi_i, dphi_i1=dphi_i)

    state = lax.while_loop(lambda state: (~state.done) & (state.i <= maxiter) & (~state.failed), step, state)

    status = jnp.where(state.failed, jnp.array(1), jnp.where(state.i > maxiter, jnp.array(3), jnp.array(0)))
    step_size = jnp.asarray(state.a_star)
    step_size = jnp.where((jnp.finfo(step_size.dtype).bits != 64) & (jnp.abs(step_size) < 1e-8),
                          jnp.sign(step_size) * 1e-8, step_size)
    return LineSearchResults(failed=state.failed | (~state.done), nit=state.i - 1, nfev=state.nfev,
                             ngev=state.ngev, k=state.i, a_k=step_size, f_k=state.phi_star, g_k=state.g_star,
                             status=status)
