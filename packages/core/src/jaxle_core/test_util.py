"""Gradient checks as ``jax.test_util`` has them: ``check_grads``, ``check_jvp`` and ``check_vjp``.

Derivatives are compared with central finite differences along one random
direction (drawn from ``np.random.RandomState(0)``), so the cost does not grow
with the size of the inputs or outputs. ``check_vjp`` compares the pullback of
a random cotangent with the numerical jvp of a random tangent through the
inner-product identity ``<ct, J t> == <J^T ct, t>``. Tolerances depend on the
dtype and scale with the number of elements compared; a mismatch raises
``AssertionError``.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Sequence
from typing import Any

import numpy as np

import jaxle_tree as tree
from jaxle_core import dtypes
from jaxle_core.ad.jvp import jvp
from jaxle_core.ad.reverse import linearize, vjp
from jaxle_core.config import x64_enabled

__all__ = ["check_grads", "check_jvp", "check_vjp"]

EPS = 1e-4

Tolerance = float | dict | None

_EXACT_KINDS = "biu"

# How close two values of a dtype must be when they should be equal up to rounding.
_VALUE_TOLERANCE = {
    np.dtype(dtypes.bfloat16): 1e-2,
    np.dtype(np.float16): 1e-3,
    np.dtype(np.float32): 1e-6,
    np.dtype(np.float64): 1e-15,
    np.dtype(np.complex64): 1e-6,
    np.dtype(np.complex128): 1e-15,
}

# How close a derivative must be to its finite-difference estimate, by dtype.
GRADIENT_TOLERANCE = {
    np.dtype(dtypes.bfloat16): 1e-1,
    np.dtype(np.float16): 1e-2,
    np.dtype(np.float32): 2e-3,
    np.dtype(np.float64): 1e-5,
    np.dtype(np.complex64): 1e-3,
    np.dtype(np.complex128): 1e-5,
}


def _dtype_of(x: Any) -> np.dtype:
    if hasattr(x, "dtype"):
        return np.dtype(x.dtype)
    if isinstance(x, (bool, int, float, complex)):
        return dtypes.canonicalize_dtype(np.asarray(x).dtype)
    return np.asarray(x).dtype


def _is_python_scalar(x: Any) -> bool:
    return isinstance(x, (bool, int, float, complex)) and not isinstance(x, np.generic)


def _lookup(dtype: np.dtype, tol: Tolerance) -> float:
    """The tolerance for ``dtype``: ``tol`` itself when a number, else its entry or the default value tolerance."""
    if tol is not None and not isinstance(tol, dict):
        return tol
    table = {np.dtype(k): v for k, v in (tol or {}).items()}
    dtype = np.dtype(dtype)
    if dtype == dtypes.float0 or dtype.kind in _EXACT_KINDS:
        return table.get(dtype, 0)
    dtype = dtypes.canonicalize_dtype(dtype)
    if dtype in table:
        return table[dtype]
    if dtype in _VALUE_TOLERANCE:
        return _VALUE_TOLERANCE[dtype]
    return 1e-1  # the small float8/float4 types


def _with_gradient_defaults(tol: Tolerance) -> Tolerance:
    """A per-dtype table: the gradient defaults overridden by ``tol`` (a number replaces them all)."""
    if tol is None:
        return dict(GRADIENT_TOLERANCE)
    if not isinstance(tol, dict):
        return tol
    return {**GRADIENT_TOLERANCE, **{np.dtype(k): v for k, v in tol.items()}}


def _assert_leaf_close(a: Any, b: Any, atol: Tolerance, rtol: Tolerance, err_msg: str) -> None:
    a, b = np.asarray(a), np.asarray(b)
    assert a.shape == b.shape, f"{err_msg}: shapes differ, {a.shape} != {b.shape}"
    if a.dtype == b.dtype == dtypes.float0:
        return
    absolute = max(_lookup(a.dtype, atol), _lookup(b.dtype, atol)) * a.size
    relative = max(_lookup(a.dtype, rtol), _lookup(b.dtype, rtol)) * b.size
    if a.dtype.kind not in "fcbiu":  # bfloat16 and friends: compare in float32
        a = a.astype(np.float32)
    if b.dtype.kind not in "fcbiu":
        b = b.astype(np.float32)
    with np.errstate(invalid="ignore"):
        np.testing.assert_allclose(a, b, rtol=relative, atol=absolute, err_msg=err_msg)


def _assert_close(xs: Any, ys: Any, atol: Tolerance, rtol: Tolerance, err_msg: str) -> None:
    tree.tree_map(functools.partial(_assert_leaf_close, atol=atol, rtol=rtol, err_msg=err_msg), xs, ys)


def _assert_same_dtypes(xs: Any, ys: Any, err_msg: str) -> None:
    def same(x, y):
        dx, dy = _dtype_of(x), _dtype_of(y)
        if not x64_enabled():
            dx, dy = dtypes.canonicalize_dtype(dx), dtypes.canonicalize_dtype(dy)
        assert dx == dy, f"{err_msg}: dtypes differ, {dx} != {dy}"
    tree.tree_map(same, xs, ys)


def _keep_type(fun: Callable) -> Callable:
    """``fun`` on leaves, its result cast to the first leaf's dtype (a Python scalar stays one)."""
    def apply(*leaves):
        out = np.array(fun(*leaves), dtype=_dtype_of(leaves[0]))
        return out.item() if all(_is_python_scalar(x) for x in leaves) else out
    return apply


def _scale(xs: Any, factor: float) -> Any:
    def scale(x):
        dtype = _dtype_of(x)
        out = np.multiply(x, np.array(factor, dtype=dtype), dtype=dtype)
        return out.item() if _is_python_scalar(x) else out
    return tree.tree_map(scale, xs)


def _difference(x: Any, y: Any) -> np.ndarray:
    """``x - y`` in ``x``'s dtype, with equal values (infinities included) giving exactly zero."""
    dtype = _dtype_of(x)
    with np.errstate(invalid="ignore"):
        return np.where(np.equal(x, y), np.array(0, dtype), np.subtract(x, y, dtype=dtype))


def _random_like(rng: np.random.RandomState, x: Any) -> Any:
    dtype, shape = _dtype_of(x), np.shape(x)
    out = np.asarray(rng.randn(*shape), dtype=dtype)
    if dtypes.issubdtype(dtype, np.complexfloating):
        out = out + dtype.type(1j) * np.asarray(rng.randn(*shape), dtype=dtype)
    return out.item() if _is_python_scalar(x) else out


def _inner_product(xs: Any, ys: Any) -> Any:
    """The real part of ``sum(conj(x) * y)`` over all leaves."""
    def contract(x, y):
        return np.real(np.dot(np.conj(x).reshape(-1), np.asarray(y).reshape(-1)))
    return tree.tree_reduce(np.add, tree.tree_map(contract, xs, ys))


def numerical_jvp(f: Callable, primals: Sequence[Any], tangents: Sequence[Any], eps: float = EPS) -> Any:
    """The central difference ``(f(x + eps t) - f(x - eps t)) / (2 eps)``, in the inputs' dtypes."""
    step = _scale(tangents, eps)
    above = f(*tree.tree_map(_keep_type(np.add), primals, step))
    below = f(*tree.tree_map(_keep_type(np.subtract), primals, step))
    return _scale(tree.tree_map(_difference, above, below), 0.5 / eps)


def _label(err_msg: str, what: str) -> str:
    return f"{err_msg} {what}" if err_msg else what


def check_jvp(f: Callable, f_jvp: Callable, args: Sequence[Any], atol: Tolerance = None, rtol: Tolerance = None,
              eps: float = EPS, err_msg: str = "") -> None:
    """Compare ``f_jvp(args, tangents)`` (e.g. ``partial(jvp, f)``) with ``f(*args)`` and the central difference
    along a random tangent; raises ``AssertionError`` on a mismatch."""
    atol, rtol = _with_gradient_defaults(atol), _with_gradient_defaults(rtol)
    rng = np.random.RandomState(0)
    tangents = tree.tree_map(functools.partial(_random_like, rng), args)
    value, tangent_out = f_jvp(args, tangents)
    _assert_same_dtypes(value, tangent_out, _label(err_msg, "tangent dtype"))
    expected_value = f(*args)
    _assert_same_dtypes(value, expected_value, _label(err_msg, "primal dtype"))
    expected_tangent = numerical_jvp(f, args, tangents, eps=eps)
    _assert_close(value, expected_value, atol, rtol, _label(err_msg, "primal"))
    _assert_close(tangent_out, expected_tangent, atol, rtol, _label(err_msg, "tangent"))


def check_vjp(f: Callable, f_vjp: Callable, args: Sequence[Any], atol: Tolerance = None, rtol: Tolerance = None,
              eps: float = EPS, err_msg: str = "") -> None:
    """Compare ``f_vjp(*args)`` (e.g. ``partial(vjp, f)``) with ``f(*args)``, and its pullback of a random cotangent
    with the central difference along a random tangent by the inner-product identity; raises ``AssertionError``."""
    atol, rtol = _with_gradient_defaults(atol), _with_gradient_defaults(rtol)
    rng = np.random.RandomState(0)
    value, pullback = f_vjp(*args)
    _assert_close(value, f(*args), atol, rtol, _label(err_msg, "primal"))
    tangents = tree.tree_map(functools.partial(_random_like, rng), args)
    tangent_out = numerical_jvp(f, args, tangents, eps=eps)
    cotangent = tree.tree_map(functools.partial(_random_like, rng), value)
    conj = _keep_type(np.conj)
    pulled_back = tree.tree_map(conj, pullback(tree.tree_map(conj, cotangent)))
    _assert_close(_inner_product(tangents, pulled_back), _inner_product(tangent_out, cotangent), atol, rtol,
                  _label(err_msg, "cotangent projection"))


def _jvp_by_linearize(f: Callable, primals: Sequence[Any], tangents: Sequence[Any]) -> tuple:
    value, f_jvp = linearize(f, *primals)
    return value, f_jvp(*tangents)


def check_grads(f: Callable, args: Sequence[Any], order: int, modes: Sequence[str] = ("fwd", "rev"),
                atol: Tolerance = None, rtol: Tolerance = None, eps: float | None = None) -> None:
    """Check ``f``'s derivatives at ``args`` up to ``order`` against finite differences.

    ``modes`` picks forward mode (``"fwd"``: jvp), reverse mode (``"rev"``: vjp) and linearization (``"lin"``);
    higher orders differentiate the jvp (tangents equal to the primals) or the pullback of the output itself.
    ``atol``/``rtol`` are numbers or per-dtype dicts; raises ``AssertionError`` on a mismatch.
    """
    args = tuple(args)
    eps = eps or EPS

    def recurse(fun: Callable, fun_args: tuple, remaining: int, err_msg: str) -> None:
        if "fwd" in modes:
            msg = f"JVP of {err_msg}" if err_msg else "JVP"
            check_jvp(fun, functools.partial(jvp, fun), fun_args, atol, rtol, eps, msg)
            if remaining > 1:
                recurse(functools.partial(jvp, fun), (fun_args, fun_args), remaining - 1, msg)
        if "rev" in modes:
            msg = f"VJP of {err_msg}" if err_msg else "VJP"
            check_vjp(fun, functools.partial(vjp, fun), fun_args, atol, rtol, eps, msg)
            if remaining > 1:
                def pull_back_output(*primals):
                    out, pullback = vjp(fun, *primals)
                    return pullback(out)
                recurse(pull_back_output, fun_args, remaining - 1, msg)
        if "lin" in modes:
            msg = f"LIN of {err_msg}" if err_msg else "LIN"
            check_jvp(fun, functools.partial(_jvp_by_linearize, fun), fun_args, atol, rtol, eps, msg)
            if remaining > 1:
                recurse(functools.partial(_jvp_by_linearize, fun), (fun_args, fun_args), remaining - 1, msg)

    recurse(f, args, order, "")
