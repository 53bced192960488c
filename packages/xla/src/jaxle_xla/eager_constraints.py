"""``with_sharding_constraint`` of concrete values (called outside ``jit``, or evaluated by ``grad`` and ``vmap``),
run as JAX runs it: as a jitted identity whose output sharding is the constraint's.

So the devices of the value (when it is committed), of the mesh set by ``set_mesh`` and of the sharding must
agree, with JAX's errors naming them; a PartitionSpec read over the context mesh needs a value already laid out
over a mesh (JAX's ``TypeError`` otherwise); and the result is laid out as the sharding says and reports it as it
was written (``P(None, None)`` stays so), except that dimensions left ``UNCONSTRAINED`` keep the layout the
partitioner chose.
"""

from __future__ import annotations

from typing import Any

from jaxle_core.array import Array
from jaxle_core.avals import get_aval
from jaxle_core.extended import ExtendedArray
from jaxle_core.lax.placement import outside_context_mesh, staged_at
from jaxle_core.mesh import AbstractMesh, PartitionSpec, get_mesh
from jaxle_core.sharding import NamedSharding
from jaxle_xla.sharding import devices_text, incompatible_devices_error

__all__ = ["check_devices", "check_divides", "refuse_outside_context_mesh", "result_shardings"]


def check_devices(x: Any, sharding: Any) -> None:
    """JAX's errors for constraining ``x`` to ``sharding`` outside ``jit``: the devices of the value, of the mesh set
    and of the sharding must be the same, in the same order."""
    value = x.physical if isinstance(x, ExtendedArray) else x
    over_context = isinstance(sharding, NamedSharding) and isinstance(sharding.mesh, AbstractMesh)
    if over_context and isinstance(value, Array) and not isinstance(value.sharding, NamedSharding):
        raise TypeError("The sharding on the input must be a `NamedSharding` since the target sharding has an "
                        "`AbstractMesh` in it. Got sharding type <class "
                        f"'jax.sharding.{type(value.sharding).__name__}'> for shape {get_aval(x).str_short()}")
    context = get_mesh()
    mesh_devices = () if context.empty else context._flat_devices_tuple
    own = value.sharding._device_assignment if isinstance(value, Array) and value.committed else ()
    # JAX names the value as the argument of the identity it runs
    argument = own and f"argument x of _identity_fn with shape {get_aval(x).str_short()} and {devices_text(own)}"
    target = mesh_devices if over_context else sharding._device_assignment
    output = f"explicit output sharding {devices_text(target)}"
    if mesh_devices:
        described_mesh = f"jit's context mesh {devices_text(mesh_devices)}"
        if own and tuple(own) != tuple(mesh_devices):
            raise incompatible_devices_error(argument, described_mesh)
        if tuple(target) != tuple(mesh_devices):
            raise incompatible_devices_error(described_mesh, output)
    elif own and tuple(own) != tuple(target):
        raise incompatible_devices_error(argument, output)


def check_divides(x: Any, sharding: Any) -> None:
    """JAX's IndivisibleError for a value converted for a NamedSharding over devices of Auto axes (a constraint, not
    a type) outside ``jit`` (as ``vmap`` evaluates it: the batched value and sharding) whose dimensions that sharding
    does not divide: the constraint JAX runs after the conversion lays the value out as a jitted identity's output,
    which must divide."""
    if isinstance(sharding, NamedSharding) and not isinstance(sharding.mesh, AbstractMesh) \
            and not sharding.mesh.explicit_axes and len(sharding.spec) <= get_aval(x).ndim:
        sharding.check_compatible_aval(get_aval(x).shape)


def result_shardings(sharding: Any) -> list[NamedSharding] | None:
    """The sharding a constraint's result reports: ``sharding`` as written, over the concrete mesh (that of
    ``set_mesh`` for a PartitionSpec); None when a dimension is left unconstrained (the partitioner's choice)."""
    if not isinstance(sharding, NamedSharding) or any(entry is PartitionSpec.UNCONSTRAINED
                                                      for entry in sharding.spec):
        return None
    mesh = get_mesh() if isinstance(sharding.mesh, AbstractMesh) else sharding.mesh
    return [NamedSharding(mesh, sharding.spec, memory_kind=sharding.memory_kind)]


def refuse_outside_context_mesh(sharding: Any, what: str = "sharding_constraint") -> None:
    """JAX's error for a constraint (``what``: or a ``device_put``) inside ``jit`` to ``sharding`` when it names
    devices outside the mesh set by ``set_mesh``, naming where it was staged."""
    if outside_context_mesh(sharding):
        raise incompatible_devices_error(
            f"jit's context mesh {devices_text(get_mesh()._flat_devices_tuple)}",
            f"{what} inside jit {devices_text(sharding._device_assignment)} at {staged_at(sharding)}")
