"""``jax.interpreters.mlir``: lowering rules of primitives to StableHLO.

jaxle writes StableHLO as text through its own ``LoweringContext``, not through MLIR's Python bindings, so a rule
is either made by ``lower_fun`` from a function written with jax.numpy/lax (the way most libraries lower their
primitives) or written against ``LoweringRuleContext`` (``ctx.avals_in``, ``ctx.avals_out``, ``ctx.lower_fun``,
``ctx.op``). Rules return a sequence of values, one per result, as JAX's do.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Sequence
from typing import Any

from jaxle_core.avals import ShapeDtypeStruct
from jaxle_core.callbacks import io_callback, pure_callback
from jaxle_core.core import Primitive
from jaxle_xla import clients
from jaxle_xla.lowering.context import LoweringContext, Value
from jaxle_xla.lowering.module import LoweringRule, lowering_rules

__all__ = ["LoweringRule", "LoweringRuleContext", "emit_python_callback", "lower_fun", "register_lowering"]

LoweringRuleContext = LoweringContext

# primitive -> {platform or None (every platform): rule}, for primitives registered through this module
_registered: dict[Primitive, dict[str | None, LoweringRule]] = {}
# JAX's platform names for jaxlib's (a rule for "cuda" or "rocm" also answers to "gpu")
_PLATFORM_ALIASES = {"cuda": ("cuda", "gpu"), "rocm": ("rocm", "gpu")}


def register_lowering(prim: Primitive, rule: LoweringRule, platform: str | None = None, inline: bool = True,
                      cacheable: bool = True) -> None:
    """Lower ``prim`` with ``rule(ctx, *operands, **params) -> [values]``, on every platform or only on
    ``platform`` (``'cpu'``, ``'cuda'``, ``'gpu'``...; a platform's rule wins over the general one)."""
    _registered.setdefault(prim, {})[platform] = rule
    lowering_rules[prim] = functools.partial(_lower, prim)


def _lower(prim: Primitive, ctx: LoweringContext, /, *operands: Value, **params: Any) -> Any:
    # positional-only: a primitive's params may be named ``prim`` or ``ctx`` (equinox's are)
    rules = _registered[prim]
    platform = clients.get_client().platform
    rule = next((rules[name] for name in _PLATFORM_ALIASES.get(platform, (platform,)) if name in rules),
                rules.get(None))
    if rule is None:
        raise NotImplementedError(f"MLIR translation rule for primitive '{prim.name}' not found for platform "
                                  f"{platform}")
    outs = rule(ctx, *operands, **params)
    if prim.multiple_results:
        return list(outs)
    return outs if isinstance(outs, Value) else _only(outs)


def emit_python_callback(ctx: LoweringContext, callback: Callable[..., Sequence[Any]], token: Any,
                         operands: Sequence[Value], operand_avals: Sequence[Any], result_avals: Sequence[Any], *,
                         has_side_effect: bool, sharding: Any = None, **unused: Any) -> tuple[list[Value], Any, Any]:
    """Inside a lowering rule, a call of the host function ``callback(*arrays) -> arrays`` on ``operands``: jaxle's
    ``pure_callback`` (``io_callback`` with ``has_side_effect``) lowered inline. Returns ``(results, token,
    keepalive)``; ``token`` comes back as given (jaxle orders side effects itself) and nothing needs keeping."""
    del operand_avals, sharding, unused
    shapes = [ShapeDtypeStruct(aval.shape, aval.dtype) for aval in result_avals]
    call = io_callback if has_side_effect else pure_callback
    results = ctx.lower_fun(lambda *xs: call(lambda *arrays: list(callback(*arrays)), shapes, *xs), *operands)
    return results, token, None


def _only(outs: Sequence[Value]) -> Value:
    (out,) = outs
    return out


def lower_fun(fun: Callable[..., Any], multiple_results: bool = True) -> LoweringRule:
    """A lowering rule that traces ``fun(*operands, **params)`` (written with jax.numpy/lax) on the operands' types
    and emits it inline; ``multiple_results`` says ``fun`` returns a sequence rather than one array."""

    def rule(ctx: LoweringContext, /, *operands: Value, **params: Any) -> list[Value]:
        def call(*xs: Any) -> Any:
            out = fun(*xs, **params)
            return list(out) if multiple_results else [out]

        return ctx.lower_fun(call, *operands)

    return rule
