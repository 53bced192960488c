"""The samplers' ``out_sharding``: a sample is drawn whole, then laid out over the mesh as asked.

As in JAX, a sampler given ``out_sharding`` draws under ``auto_axes`` over the Explicit axes of the sharding's mesh:
its key and array arguments are resharded to layouts the partitioner may choose, the sampler's body runs as without
``out_sharding`` (so its bits are the unsharded draw's), and the result is resharded to ``out_sharding``.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import jaxle_tree as tree
from jaxle_core import core
from jaxle_core.avals import get_aval
from jaxle_core.axis_type_scopes import auto_axes
from jaxle_core.lax.placement import reshard, reshard_target
from jaxle_core.mesh import AbstractMesh, PartitionSpec, get_abstract_mesh
from jaxle_core.sharding import NamedSharding
from jaxle_core.sharding_types import check_type_divides, explicit_mesh_of, no_context_mesh_error, typed_aval

__all__ = ["laid_out", "out_layout", "scalar_layout"]


def _outside_any_mesh(sharding: Any) -> bool:
    """Whether ``sharding`` is the replicated sharding over the empty abstract mesh that a type reports outside any
    mesh (``jax.typeof(x).sharding``): it asks for no layout."""
    mesh = getattr(sharding, "mesh", None)
    return isinstance(mesh, AbstractMesh) and not mesh.axis_names and all(e is None for e in sharding.spec)


def out_layout(out_sharding: Any, function: str) -> NamedSharding | None:
    """The NamedSharding the ``out_sharding`` argument of the sampler ``function`` asks for (None for none), with
    JAX's errors for another kind of argument, a PartitionSpec outside any mesh, axes that are not Explicit and a
    mesh other than the current one."""
    if out_sharding is None or _outside_any_mesh(out_sharding):
        return None
    return reshard_target(out_sharding, function, same_mesh=True)


def scalar_layout(layout: NamedSharding | None, shape: tuple[int, ...] | None) -> NamedSharding | None:
    """``layout`` (from ``out_layout``); with none asked for, as JAX's samplers that take one (not all do): a draw of
    no ``shape`` (or None, a shape the sampler works out from its parameters) under a mesh of Explicit axes only is
    drawn as if asked to be replicated over that mesh."""
    if layout is not None or shape:
        return layout
    mesh = get_abstract_mesh()
    if mesh.empty or not mesh.are_all_axes_explicit:
        return None
    return NamedSharding(mesh, PartitionSpec())


def _fits(sharding: NamedSharding, sample: Any) -> Any:
    """``sample``, once JAX's errors for a layout it cannot take are ruled out (a spec longer than its rank, axes
    that do not divide the dimensions they split)."""
    shape = get_aval(sample).shape
    if len(sharding.spec) > len(shape):
        raise AssertionError((len(shape), sharding.spec))
    check_type_divides(sharding, shape)
    return sample


def laid_out(sharding: NamedSharding | None, body: Callable[..., Any], *args: Any) -> Any:
    """``body(*args)``, a sample laid out as ``sharding`` (from ``out_layout``) when one is given."""
    if sharding is None:
        return body(*args)
    if get_abstract_mesh().empty:
        sample = _fits(sharding, body(*args))
        if explicit_mesh_of(sharding.mesh) is not None:
            # the draw ran on one device: it cannot take a type over the mesh's devices
            raise no_context_mesh_error(typed_aval(get_aval(sample), sharding))
        return sample
    if core.evaluates_eagerly(tree.tree_leaves(args)):
        # drawn as without out_sharding, then moved: JAX's eager draw runs op by op, so its bits are the unsharded
        # draw's (a draw compiled together with its reshards may fuse otherwise)
        return reshard(_fits(sharding, body(*args)), sharding)
    return auto_axes(lambda *a: _fits(sharding, body(*a)), axes=sharding.mesh.explicit_axes,
                     out_sharding=sharding)(*args)
