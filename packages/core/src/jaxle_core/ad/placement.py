"""Derivatives of ``stage``, ``device_put``, ``sharding_constraint`` and ``reshard``: all are identities, so
tangents and cotangents are placed the same way (``device_put`` always copies cotangents, as JAX does)."""

from __future__ import annotations

from jaxle_core.ad.barriers import float0_to_zero
from jaxle_core.ad.jvp import instantiate, jvp_rules
from jaxle_core.ad.rule_helpers import retyped_to_mesh, typed_auto_mesh
from jaxle_core.ad.transpose import transpose_rules
from jaxle_core.lax.placement import ArrayCopySemantics, device_put_p, reshard_p, sharding_constraint_p, stage_p
from jaxle_core.memory_spaces import MemorySpace
from jaxle_core.sharding_types import cotangent_sharding


def _stage_jvp(primals, tangents):
    return stage_p.bind(*primals), tangents[0]


def _device_put_jvp(primals, tangents, **params):
    outs = device_put_p.bind(*primals, **params)
    return outs, float0_to_zero(device_put_p.bind(*map(instantiate, tangents), **params))


def _device_put_transpose(cts, *operands, devices, srcs, copy_semantics):
    copies = (ArrayCopySemantics.ALWAYS_COPY,) * len(cts)
    # a cotangent goes back to host memory where the operand lies there and the copy names no source, as JAX's
    back = tuple(MemorySpace.Host if src is None and getattr(x.aval, "memory_space", None) is MemorySpace.Host
                 else src for src, x in zip(srcs, operands))
    return device_put_p.bind(*map(instantiate, cts), devices=back, srcs=devices, copy_semantics=copies)


def _sharding_constraint_jvp(primals, tangents, **params):
    return sharding_constraint_p.bind(*primals, **params), sharding_constraint_p.bind(*tangents, **params)


jvp_rules[stage_p] = _stage_jvp
jvp_rules[sharding_constraint_p] = _sharding_constraint_jvp
transpose_rules[sharding_constraint_p] = lambda ct, x, **params: [sharding_constraint_p.bind(instantiate(ct),
                                                                                             **params)]
jvp_rules[device_put_p] = _device_put_jvp
transpose_rules[device_put_p] = _device_put_transpose
jvp_rules[reshard_p] = lambda primals, tangents, **params: (reshard_p.bind(*primals, **params),
                                                              reshard_p.bind(instantiate(tangents[0]), **params))


def _reshard_transpose(ct, x, **params):
    """The cotangent goes back to the operand's layout when its type says one (over Explicit axes, as JAX's; its
    unreduced axes become reduced ones and back), else to its mesh of Auto axes (or none)."""
    source = getattr(x.aval, "explicit_sharding", None)
    ct = instantiate(ct)
    if source is None:  # back to the operand's mesh of Auto axes (or none)
        return [retyped_to_mesh(ct, typed_auto_mesh(x.aval))]
    return [reshard_p.bind(ct, dst_sharding=cotangent_sharding(source))]


transpose_rules[reshard_p] = _reshard_transpose
