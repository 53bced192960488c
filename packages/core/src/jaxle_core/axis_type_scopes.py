"""``auto_axes`` and ``explicit_axes``: a function run with some axes of the current mesh of another type.

Inside ``auto_axes(f, out_sharding=...)`` the named (by default all) mesh axes are Auto: the arguments are
resharded to layouts that leave those axes to the partitioner, and ``f``'s results are resharded to
``out_sharding``. ``explicit_axes(f, in_sharding=...)`` is the converse: the arguments are resharded to
``in_sharding`` over axes made Explicit, and the results leave the layout to the partitioner again. Outside any
mesh (``set_mesh``) both simply call ``f``, as JAX's do; called outside any staging (eagerly, or by an eager
``vmap`` or ``jvp``) they run compiled (``jit``), so the layouts are the partitioner's.
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import Any

import jaxle_tree as tree
from jaxle_core import auto_mesh_types, core
from jaxle_core.avals import get_aval
from jaxle_core.core import Tracer
from jaxle_core.jit import jit
from jaxle_core.lax.placement import reshard_p
from jaxle_core.mesh import AbstractMesh, AxisType, PartitionSpec, get_abstract_mesh, get_mesh, use_abstract_mesh
from jaxle_core.sharding import NamedSharding
from jaxle_core.sharding_types import enable, spec_of, type_spec
from jaxle_core.staging import StagingTrace

__all__ = ["auto_axes", "explicit_axes"]


def _named_axes(axes: Any, mesh: AbstractMesh) -> tuple:
    if axes is None:
        return mesh.axis_names
    return tuple(axes) if isinstance(axes, (tuple, list)) else (axes,)


def _reshard_all(values: Any, shardings: Any, only_traced: bool = False) -> Any:
    """``values`` (a pytree) resharded leaf by leaf to ``shardings`` (a prefix of it, or a function of a leaf);
    with ``only_traced``, concrete leaves are left as they are (a reshard to an open layout moves nothing)."""
    leaves, treedef = tree.tree_flatten(values)
    if callable(shardings):
        per_leaf = [shardings(leaf) for leaf in leaves]
    else:
        is_spec = lambda s: s is None or isinstance(s, (PartitionSpec, NamedSharding))  # noqa: E731
        per_leaf = tree.tree_leaves(tree.tree_broadcast(shardings, values, is_leaf=is_spec), is_leaf=is_spec)
    return tree.tree_unflatten(treedef, [
        leaf if only_traced and not isinstance(leaf, Tracer) else reshard_p.bind(leaf, dst_sharding=sharding)
        for leaf, sharding in zip(leaves, per_leaf)])


def _open_layout(mesh: AbstractMesh) -> Callable[[Any], NamedSharding]:
    """A leaf's layout over ``mesh``: its type's, less the splits over axes that are not Explicit there (those are
    the partitioner's choice)."""
    def layout(leaf: Any) -> NamedSharding:
        aval = get_aval(leaf)
        return NamedSharding(mesh, type_spec(mesh, PartitionSpec(*spec_of(aval)), aval.ndim))

    return layout


def _targets(shardings: Any, mesh: AbstractMesh) -> Any:
    """``shardings`` with each PartitionSpec read over ``mesh`` (typed by its axis types; the concrete mesh of the
    same axes and devices when it is the current one's)."""
    concrete = get_mesh()
    over = concrete if not concrete.empty and concrete.abstract_mesh == mesh else mesh
    return tree.tree_map(lambda s: s if isinstance(s, NamedSharding) else NamedSharding(over, s), shardings,
                         is_leaf=lambda s: isinstance(s, PartitionSpec))


def _scoped(f: Callable, axes: Any, kind: AxisType, place_inputs: Callable, place_outputs: Callable) -> Callable:
    """``f`` run with the mesh axes ``axes`` of type ``kind``: its (args, kwargs) placed by
    ``place_inputs(outer mesh, inner mesh, values)`` and its results by ``place_outputs(outer mesh, results)``."""

    @functools.wraps(f)
    def wrapped(*args, **kwargs):
        mesh = get_abstract_mesh()
        if mesh.empty:
            return f(*args, **kwargs)
        if core.evaluates_eagerly(tree.tree_leaves((args, kwargs))) or not core.within_trace_of(StagingTrace):
            return jit(wrapped)(*args, **kwargs)  # run eagerly (by vmap or jvp too): compiled
        inner = mesh.update_axis_types({name: kind for name in _named_axes(axes, mesh)})
        if kind is AxisType.Explicit:
            enable()  # the values inside are typed from the first reshard on
        else:
            auto_mesh_types.enable()  # the values inside are typed over it from the first reshard on
        args, kwargs = place_inputs(mesh, inner, (args, kwargs))
        with use_abstract_mesh(inner):
            outs = f(*args, **kwargs)
        return place_outputs(mesh, outs)

    return wrapped


def _required(value: Any, name: str) -> None:
    if value is None:
        raise TypeError(f"Missing required keyword argument: '{name}'")


def auto_axes(f: Callable | None = None, /, *, axes: Any = None, out_sharding: Any = None) -> Callable:
    """``f`` run with the mesh axes ``axes`` (default: all) of type Auto, its results laid out as
    ``out_sharding`` (NamedShardings, or PartitionSpecs over the current mesh; a pytree prefix of the results)."""
    if f is None:
        return lambda g: auto_axes(g, axes=axes, out_sharding=out_sharding)
    scoped = _scoped(f, axes, AxisType.Auto,
                     lambda mesh, inner, values: _reshard_all(values, _open_layout(inner)),
                     lambda mesh, outs: _reshard_all(outs, _targets(out_sharding, mesh)))

    @functools.wraps(f)
    def wrapped(*args, **kwargs):
        _required(out_sharding, "out_sharding")
        return scoped(*args, **kwargs)

    return wrapped


def explicit_axes(f: Callable | None = None, /, *, axes: Any = None, in_sharding: Any = None) -> Callable:
    """``f`` run with the mesh axes ``axes`` (default: all) of type Explicit, its arguments laid out as
    ``in_sharding`` (NamedShardings, or PartitionSpecs over the current mesh; a pytree prefix of the arguments)."""
    if f is None:
        return lambda g: explicit_axes(g, axes=axes, in_sharding=in_sharding)
    scoped = _scoped(f, axes, AxisType.Explicit,
                     lambda mesh, inner, values: (_reshard_all(values[0], _targets(in_sharding, inner)), values[1]),
                     lambda mesh, outs: _reshard_all(outs, _open_layout(mesh), only_traced=True))

    @functools.wraps(f)
    def wrapped(*args, **kwargs):
        _required(in_sharding, "in_sharding")
        return scoped(*args, **kwargs)

    return wrapped
