"""Primitives that place values without changing them: ``stage`` (into the current trace),
``device_put`` (onto a device, as ``jax.device_put`` stages inside a traced function) and
``sharding_constraint`` (``with_sharding_constraint``: how a value is laid out across devices).

With one device these are identities; their parameters are recorded as JAX records them. jaxle has no
meshes or partition specs: a sharding constraint accepts shardings of one device (such as an Array's
``.sharding``) and raises a clear error for anything spanning more.
"""

from __future__ import annotations

import enum
from typing import Any

import jaxle_tree as tree
from jaxle_core.core import Primitive
from jaxle_core.staging import staging_rewrites

__all__ = ["ArrayCopySemantics", "device_put_p", "sharding_constraint_p", "stage", "stage_p",
           "with_sharding_constraint"]

stage_p = Primitive("stage")
stage_p.def_abstract_eval(lambda aval: aval)
stage_p.def_impl(lambda x: x)
# Staging records nothing: a host value becomes a constant (or literal) of the jaxpr, a tracer stays itself.
staging_rewrites[stage_p] = lambda args, params: args[0]


def stage(x: Any, /) -> Any:
    """``x`` lifted into the current trace: an Array outside any transformation, else the trace's value."""
    return stage_p.bind(x)


class ArrayCopySemantics(enum.Enum):
    """Whether ``device_put`` copies its operand, may reuse its buffer, or donates it."""

    ALWAYS_COPY = 0
    REUSE_INPUT = 1
    DONATE_INPUT = 2

    def __repr__(self) -> str:
        return str(self)  # as jaxprs print it: ArrayCopySemantics.REUSE_INPUT


device_put_p = Primitive("device_put")
device_put_p.multiple_results = True


@device_put_p.def_abstract_eval
def _device_put_aval(*avals, devices, srcs, copy_semantics):
    if not len(avals) == len(devices) == len(srcs) == len(copy_semantics):
        raise ValueError(f"device_put: {len(avals)} operands need as many devices, sources and copy semantics; "
                         f"got {len(devices)}, {len(srcs)} and {len(copy_semantics)}")
    return list(avals)


device_put_p.def_impl(lambda *values, devices, srcs, copy_semantics: list(values))


# ---------------------------------------------------------------- sharding constraints


class EmptyMesh:
    """The device mesh in context when none is set (jaxle has no others); printed as JAX prints it."""

    empty = True

    def __repr__(self) -> str:
        return "Mesh()"


empty_mesh = EmptyMesh()

sharding_constraint_p = Primitive("sharding_constraint")
sharding_constraint_p.def_abstract_eval(lambda aval, **params: aval)
sharding_constraint_p.def_impl(lambda x, **params: x)


def _check_sharding(sharding: Any) -> None:
    if sharding is None:
        raise ValueError("One of with_sharding_constraint arguments got sharding None which is not allowed. Please "
                         "only pass `jax.sharding.Sharding` instances.")
    devices = getattr(sharding, "device_set", None)
    if devices is None:
        raise TypeError(f"shardings leaf specifications are expected to be PartitionSpec instances or None, but got "
                        f"{sharding}")
    if len(devices) != 1:
        raise ValueError(f"with_sharding_constraint: jaxle runs each computation on one device, so it accepts "
                         f"shardings of one device only; got {sharding} over {len(devices)} devices")


def with_sharding_constraint(x: Any, shardings: Any) -> Any:
    """``x`` (a pytree of arrays), constrained to ``shardings`` (one sharding, or a pytree prefix of ``x``)."""
    leaves, treedef = tree.tree_flatten(x)
    try:
        per_leaf = tree.tree_leaves(tree.tree_broadcast(shardings, x, is_leaf=lambda s: s is None),
                                    is_leaf=lambda s: s is None)
    except ValueError as error:
        details = str(error).replace("broadcast_prefix prefix_tree", "with_sharding_constraint shardings")
        raise ValueError("with_sharding_constraint shardings specification must be a tree prefix of the "
                         f"corresponding value; \n{details}") from None
    for sharding in per_leaf:
        _check_sharding(sharding)
    outs = [sharding_constraint_p.bind(leaf, sharding=sharding, layout=None, context_mesh=empty_mesh,
                                       unconstrained_dims=frozenset()) for leaf, sharding in zip(leaves, per_leaf)]
    return tree.tree_unflatten(treedef, outs)
