"""Elementwise primitives: arithmetic, math functions, comparisons and bitwise ops.

Each primitive pairs a dtype/shape rule (from ``standard``) with a NumPy
reference implementation; the public ``lax`` function binds it.
"""

from __future__ import annotations

import numpy as np

from jaxle_core.lax.standard import ANY, INEXACT, NUMBER, elementwise_primitive

__all__ = ["add", "cos", "div", "eq", "exp", "ge", "gt", "le", "log", "lt", "max", "min", "mul", "ne", "neg", "rem", "sin", "sub", "tanh"]

# ---------------------------------------------------------------- arithmetic


def _int_div(x, y):
    """Integer division rounding toward zero, as XLA does (NumPy floors)."""
    if np.issubdtype(x.dtype, np.integer):
        safe_y = np.where(y == 0, 1, y)
        q = np.abs(x) // np.abs(safe_y)
        q = np.where((x < 0) != (y < 0), -q, q).astype(x.dtype)
        return np.where(y == 0, -1 if np.issubdtype(x.dtype, np.signedinteger) else np.iinfo(x.dtype).max, q)
    return np.true_divide(x, y)


def _rem(x, y):
    """Remainder with the sign of the dividend (C's fmod), as XLA does."""
    if np.issubdtype(x.dtype, np.integer):
        safe_y = np.where(y == 0, 1, y)
        return np.where(y == 0, x, np.fmod(x, safe_y))
    return np.fmod(x, y)


add_p = elementwise_primitive("add", np.add, NUMBER)
sub_p = elementwise_primitive("sub", np.subtract, NUMBER)
mul_p = elementwise_primitive("mul", np.multiply, NUMBER)
div_p = elementwise_primitive("div", _int_div, NUMBER)
rem_p = elementwise_primitive("rem", _rem, NUMBER)
neg_p = elementwise_primitive("neg", np.negative, NUMBER)
max_p = elementwise_primitive("max", np.maximum, ANY)
min_p = elementwise_primitive("min", np.minimum, ANY)

# ---------------------------------------------------------------- transcendental

sin_p = elementwise_primitive("sin", np.sin, INEXACT)
cos_p = elementwise_primitive("cos", np.cos, INEXACT)
exp_p = elementwise_primitive("exp", np.exp, INEXACT)
log_p = elementwise_primitive("log", np.log, INEXACT)
tanh_p = elementwise_primitive("tanh", np.tanh, INEXACT)

# ---------------------------------------------------------------- comparisons

_to_bool = lambda _: np.dtype(np.bool_)
eq_p = elementwise_primitive("eq", np.equal, ANY, _to_bool)
ne_p = elementwise_primitive("ne", np.not_equal, ANY, _to_bool)
lt_p = elementwise_primitive("lt", np.less, ANY, _to_bool)
le_p = elementwise_primitive("le", np.less_equal, ANY, _to_bool)
gt_p = elementwise_primitive("gt", np.greater, ANY, _to_bool)
ge_p = elementwise_primitive("ge", np.greater_equal, ANY, _to_bool)


def add(x, y):
    """Elementwise ``x + y``."""
    return add_p.bind(x, y)


def sub(x, y):
    """Elementwise ``x - y``."""
    return sub_p.bind(x, y)


def mul(x, y):
    """Elementwise ``x * y``."""
    return mul_p.bind(x, y)


def div(x, y):
    """Elementwise ``x / y``; integer division rounds toward zero."""
    return div_p.bind(x, y)


def rem(x, y):
    """Elementwise remainder, with the sign of ``x``."""
    return rem_p.bind(x, y)


def neg(x):
    return neg_p.bind(x)


def max(x, y):  # noqa: A001 - lax's name
    return max_p.bind(x, y)


def min(x, y):  # noqa: A001 - lax's name
    return min_p.bind(x, y)


def sin(x):
    return sin_p.bind(x)


def cos(x):
    return cos_p.bind(x)


def exp(x):
    return exp_p.bind(x)


def log(x):
    return log_p.bind(x)


def tanh(x):
    return tanh_p.bind(x)


def eq(x, y):
    return eq_p.bind(x, y)


def ne(x, y):
    return ne_p.bind(x, y)


def lt(x, y):
    return lt_p.bind(x, y)


def le(x, y):
    return le_p.bind(x, y)


def gt(x, y):
    return gt_p.bind(x, y)


def ge(x, y):
    return ge_p.bind(x, y)
