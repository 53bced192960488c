"""``jax.extend.core``: the jaxpr IR and ``Primitive``, for libraries that define their own primitives.

The jaxpr classes are jaxle's own (a jaxpr made by ``make_jaxpr`` is built of them). A ``Primitive`` made here is a
jaxle primitive: the rules registered for it through ``jaxle.interpreters`` (``ad.primitive_jvps``,
``batching.primitive_batchers``, ``mlir.register_lowering``) are the ones jaxle's interpreters consult.
"""

from __future__ import annotations

import collections.abc
from collections.abc import Callable, Iterator
from typing import Any

import numpy as np

from jaxle.extend.core import primitives
from jaxle_core import core, dtypes
from jaxle_core.ad.jvp import tangent_dtype
from jaxle_core.avals import ShapedArray, get_aval
from jaxle_core.core import ClosedJaxpr, DropVar, Jaxpr, JaxprEqn, Literal, Var
from jaxle_core.jaxpr_util import JaxprTypeError, check_jaxpr, sub_jaxprs
from jaxle_core.lax.tokens import AbstractToken, Token
from jaxle_core.shape_poly import InconclusiveDimensionOperation
from jaxle_core.staging import DebugInfo

__all__ = ["AbstractToken", "ClosedJaxpr", "DebugInfo", "DropVar", "Effect", "Effects",
           "InconclusiveDimensionOperation", "Jaxpr", "JaxprEqn", "JaxprTypeError", "Literal", "Primitive", "Token",
           "Var", "array_types", "check_jaxpr", "concrete_or_error", "find_top_trace", "gensym", "jaxpr_as_fun",
           "jaxprs_in_params", "mapped_aval", "new_jaxpr_eqn", "no_effects", "primal_dtype_to_tangent_dtype",
           "primitives", "subjaxprs", "unmapped_aval", "valid_jaxtype"]


class Effect:
    """Base class of the side effects an equation may have (jaxle tracks effects per primitive, not per equation:
    see ``Primitive.def_effectful_abstract_eval``)."""


Effects = collections.abc.Set
no_effects: frozenset = frozenset()

# The Python types whose values are JAX arrays as they are: NumPy arrays and the scalar type of every dtype.
array_types: set[type] = {np.ndarray, *(dt.type for dt in dtypes.JAX_DTYPES)}


class Primitive(core.Primitive):
    """A primitive defined outside jaxle: ``def_impl`` gives its eager meaning, ``def_abstract_eval`` its output
    type; derivative, batching and lowering rules are registered through ``jaxle.interpreters``.

    Unlike the NumPy reference of jaxle's own primitives, the implementation is called as JAX calls it: on the
    operands as they were bound (arrays), whenever the primitive is applied outside every transformation (eagerly,
    or by the reference backend running a compiled program).
    """

    def def_effectful_abstract_eval(self, rule: Callable[..., Any]) -> Callable[..., Any]:
        """``rule(*avals, **params)`` returns ``(aval or avals, effects)``; the primitive is kept by dead-code
        elimination when it declares effects."""

        def abstract_eval(*avals, **params):
            out, effects = rule(*avals, **params)
            if effects:
                self.effectful = True
            return out

        self.abstract_eval = abstract_eval
        return rule

    def bind(self, *args, **params):
        if (self.impl is not None and type(core.current_trace()) is core.EvalTrace
                and not any(isinstance(x, core.Tracer) for x in args)):
            return self.impl(*args, **params)
        return super().bind(*args, **params)


def concrete_or_error(force: Callable[[Any], Any] | None, val: Any, context: str = "") -> Any:
    """``force(val)`` (``val`` itself when ``force`` is None) when ``val`` is concrete; JAX's
    ConcretizationTypeError when it is traced."""
    value = core.concrete_or_error(val, context)
    return value if force is None else force(value)


def find_top_trace(xs: Any) -> core.Trace:
    """The trace that interprets primitives applied now: the innermost transformation running (the eager trace
    outside all), whatever ``xs`` holds, as JAX 0.10.2 answers. ``trace.main`` identifies its transformation."""
    del xs
    return core.current_trace()


def gensym() -> Callable[[ShapedArray], Var]:
    """A maker of fresh jaxpr variables: ``gensym()(aval)``."""
    return Var


def jaxpr_as_fun(closed_jaxpr: ClosedJaxpr, *args: Any) -> Any:
    """The closed jaxpr as a function of its inputs returning the list of its outputs; given ``args``, applied to
    them at once."""
    fun = core.jaxpr_as_fun(closed_jaxpr)
    return fun(*args) if args else fun


def jaxprs_in_params(params: dict) -> Iterator[Jaxpr]:
    """The jaxprs among an equation's params."""
    yield from sub_jaxprs(params)


def subjaxprs(jaxpr: Jaxpr) -> Iterator[Jaxpr]:
    """The jaxprs that the equations of ``jaxpr`` carry (one level down)."""
    for eqn in jaxpr.eqns:
        yield from sub_jaxprs(eqn.params)


def new_jaxpr_eqn(invars: list, outvars: list, primitive: core.Primitive, params: dict, effects: Any = None,
                  source_info: Any = None, ctx: Any = None) -> JaxprEqn:
    """An equation ``outvars = primitive[params] invars`` (effects and source information are not recorded)."""
    return JaxprEqn(list(invars), list(outvars), primitive, dict(params))


def mapped_aval(size: int, axis: int | None, aval: ShapedArray) -> ShapedArray:
    """The aval of one slice of ``aval`` along ``axis`` (of size ``size``); ``aval`` itself when ``axis`` is None."""
    if axis is None:
        return aval
    if aval.shape[axis] != size:
        raise ValueError(f"mapped_aval: axis {axis} of {aval.str_short()} does not have size {size}")
    return aval.update(shape=aval.shape[:axis] + aval.shape[axis + 1:])


def unmapped_aval(size: int, axis: int | None, aval: ShapedArray, explicit_mesh_axis: Any = None) -> ShapedArray:
    """The aval of ``size`` stacked values of ``aval`` along ``axis``; ``aval`` itself when ``axis`` is None."""
    if axis is None:
        return aval
    return aval.update(shape=aval.shape[:axis] + (size,) + aval.shape[axis:])


def primal_dtype_to_tangent_dtype(primal_dtype: Any) -> np.dtype:
    """The dtype of tangents to values of ``primal_dtype`` (``float0`` for integers and booleans)."""
    return tangent_dtype(np.dtype(primal_dtype))


def valid_jaxtype(x: Any) -> bool:
    """Whether ``x`` is a value JAX computes with (an array, a scalar of a JAX dtype, a tracer)."""
    try:
        get_aval(x)
    except TypeError:
        return False
    return True
