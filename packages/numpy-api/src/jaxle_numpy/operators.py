"""Python operators of arrays and tracers, routed through the jnp ufuncs as JAX routes them.

``x * 0.3`` is ``jnp.multiply(x, 0.3)`` (so a float32 ``x`` stages ``mul a 0.30000001192092896:f32[]``), ``x ** 2``
is ``jnp.power`` (``integer_pow`` for a concrete integer exponent), ``x @ y`` is ``jnp.matmul``. As in JAX, an
operand of an unknown type makes the operator return ``NotImplemented`` (so Python tries the other operand's
reflected method), while a list or tuple is refused with a TypeError.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np

from jaxle_core.array import Array
from jaxle_core.core import Tracer
from jaxle_core.lax.operators import install_array_methods
from jaxle_numpy import products, ufuncs
from jaxle_numpy.ufunc import ufunc

__all__: list[str] = []

_OPERAND_TYPES = (int, float, complex, np.generic, np.ndarray, Array, Tracer)


def _binary(fn: Callable[[Any, Any], Any], symbol: str, reflected: bool) -> Callable[[Any, Any], Any]:
    """The method ``x.__op__(other)`` (or ``__rop__`` when ``reflected``) calling ``fn`` in Python's order."""
    fn = fn.plain_call if isinstance(fn, ufunc) else fn

    def method(self: Any, other: Any) -> Any:
        if isinstance(other, Array):  # the common case first
            return fn(other, self) if reflected else fn(self, other)
        if isinstance(other, (list, tuple)):
            left, right = (other, self) if reflected else (self, other)
            raise TypeError(f"unsupported operand type(s) for {symbol}: '{type(left).__name__}' and "
                            f"'{type(right).__name__}'")
        if not isinstance(other, _OPERAND_TYPES) and not hasattr(other, "__jax_array__"):
            return NotImplemented
        return fn(other, self) if reflected else fn(self, other)
    return method


_BINARY = {
    "add": (ufuncs.add, "+"), "sub": (ufuncs.subtract, "-"), "mul": (ufuncs.multiply, "*"),
    "truediv": (ufuncs.true_divide, "/"), "floordiv": (ufuncs.floor_divide, "//"), "mod": (ufuncs.remainder, "%"),
    "divmod": (ufuncs.divmod, "divmod()"), "pow": (ufuncs.power, "** or pow()"), "matmul": (products.matmul, "@"),
    "and": (ufuncs.bitwise_and, "&"), "or": (ufuncs.bitwise_or, "|"), "xor": (ufuncs.bitwise_xor, "^"),
    "lshift": (ufuncs.left_shift, "<<"), "rshift": (ufuncs.right_shift, ">>"),
}
_COMPARISONS = {"eq": (ufuncs.equal, "=="), "ne": (ufuncs.not_equal, "!="), "lt": (ufuncs.less, "<"),
                "le": (ufuncs.less_equal, "<="), "gt": (ufuncs.greater, ">"), "ge": (ufuncs.greater_equal, ">=")}

def _unary(fn: Callable[[Any], Any]) -> Callable[[Any], Any]:
    """A method calling ``fn`` (a ufunc object is no descriptor, so it cannot be installed as a method itself)."""
    fn = fn.plain_call if isinstance(fn, ufunc) else fn

    def method(self: Any) -> Any:
        return fn(self)
    return method


OPERATORS: dict[str, Any] = {
    "__neg__": _unary(ufuncs.negative), "__pos__": _unary(ufuncs.positive), "__abs__": _unary(ufuncs.abs),
    "__invert__": _unary(ufuncs.invert),  # __round__ is array_methods' (with round/clip/conj)
}
for _name, (_fn, _symbol) in _BINARY.items():
    OPERATORS[f"__{_name}__"] = _binary(_fn, _symbol, reflected=False)
    OPERATORS[f"__r{_name}__"] = _binary(_fn, _symbol, reflected=True)
for _name, (_fn, _symbol) in _COMPARISONS.items():
    OPERATORS[f"__{_name}__"] = _binary(_fn, _symbol, reflected=False)

install_array_methods(OPERATORS)
