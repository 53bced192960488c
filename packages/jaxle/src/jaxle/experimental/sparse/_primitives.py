"""How the sparse formats define their primitives: each is staged as JAX stages it (its own equation, its params
printed as JAX prints them) and runs as a composite of jax.numpy/lax operations, inlined when lowered to StableHLO.
Derivative and batching rules are registered in jaxle's own tables."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from jaxle import numpy as jnp
from jaxle.interpreters import mlir
from jaxle_core.ad.jvp import Zero, instantiate, jvp_rules
from jaxle_core.ad.reverse import vjp
from jaxle_core.ad.transpose import is_undefined, transpose_rules
from jaxle_core.avals import get_aval
from jaxle_core.batching.api import vmap
from jaxle_core.batching.trace import batching_rules, move_dim
from jaxle_core.core import Primitive

__all__ = ["Zero", "batching_rules", "define_multilinear", "define_primitive", "instantiate", "is_undefined",
           "jvp_rules", "transpose_rules", "vmap_batching_rule"]


def define_primitive(name: str, implementation: Callable[..., Any], abstract_eval: Callable[..., Any],
                     multiple_results: bool = False) -> Primitive:
    """A primitive whose meaning is ``implementation(*operands, **params)`` and whose output type is
    ``abstract_eval(*avals, **params)``; until a rule of its own is registered, vmap maps the implementation."""
    primitive = Primitive(name)
    primitive.multiple_results = multiple_results
    primitive.def_abstract_eval(abstract_eval)
    primitive.def_impl(implementation)
    mlir.register_lowering(primitive, mlir.lower_fun(implementation, multiple_results))
    batching_rules[primitive] = vmap_batching_rule(implementation, multiple_results)
    return primitive


def vmap_batching_rule(implementation: Callable[..., Any], multiple_results: bool) -> Callable[..., Any]:
    """A batching rule applying the vmapped implementation (the operation unrolled into its composite)."""

    def rule(values, dims, **params):
        moved = [x if d is None else move_dim(x, d, 0) for x, d in zip(values, dims)]
        in_axes = tuple(None if d is None else 0 for d in dims)
        out = vmap(lambda *xs: implementation(*xs, **params), in_axes=in_axes)(*moved)
        return (out, [0] * len(out)) if multiple_results else (out, 0)

    return rule


def define_multilinear(primitive: Primitive, implementation: Callable[..., Any], linear: Sequence[int]) -> None:
    """Derivative rules of a primitive linear in each operand of ``linear`` separately (the others are indices):
    the JVP sums one application per nonzero tangent, the transpose is the VJP of the implementation in the
    operand asked for."""

    def jvp(primals, tangents, **params):
        out = primitive.bind(*primals, **params)
        total = None
        for i in linear:
            if type(tangents[i]) is not Zero:
                term = primitive.bind(*primals[:i], tangents[i], *primals[i + 1:], **params)
                total = term if total is None else total + term
        return out, Zero(get_aval(out)) if total is None else total

    def transpose(ct, *operands, **params):
        (i,) = [k for k, x in enumerate(operands) if is_undefined(x)]
        cts: list[Any] = [None] * len(operands)
        if type(ct) is Zero:
            cts[i] = Zero(operands[i].aval)
            return cts

        def apply(x):
            return implementation(*operands[:i], x, *operands[i + 1:], **params)

        zero = jnp.zeros(operands[i].aval.shape, operands[i].aval.dtype)
        cts[i] = vjp(apply, zero)[1](ct)[0]
        return cts

    jvp_rules[primitive] = jvp
    transpose_rules[primitive] = transpose
