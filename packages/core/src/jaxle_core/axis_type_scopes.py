"""``auto_axes`` and ``explicit_axes``: a function run with some axes of the current mesh of another type.

Inside ``auto_axes(f, out_sharding=...)`` the named (by default all) mesh axes are Auto: the arguments are
resharded to layouts that leave those axes to the partitioner, and ``f``'s results are resharded to
``out_sharding``. ``explicit_axes(f, in_sharding=...)`` is the converse: the arguments are resharded to
``in_sharding`` over axes made Explicit, and the results leave the layout to the partitioner again. Outside any
mesh (``set_mesh``) both simply call ``f``, as JAX's do; called outside any transformation they run compiled
(``jit``), so the layouts are the partitioner's.
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import Any

import jaxle_tree as tree
from jaxle_core import core
from jaxle_core.avals import get_aval
from jaxle_core.core import Tracer
from jaxle_core.jit import jit
from jaxle_core.lax.placement import reshard_p
from jaxle_core.mesh import AbstractMesh, AxisType, Mesh, PartitionSpec, get_abstract_mesh, get_mesh, use_abstract_mesh
from jaxle_core.sharding import NamedSharding

__all__ = ["auto_axes", "explicit_axes"]


def _named_axes(axes: Any, mesh: AbstractMesh) -> tuple:
    if axes is None:
        return mesh.axis_names
    return tuple(axes) if isinstance(axes, (tuple, list)) else (axes,)


def _over_mesh(sharding: Any, mesh: Mesh | AbstractMesh) -> NamedSharding:
    return sharding if isinstance(sharding, NamedSharding) else NamedSharding(mesh, sharding)


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
    """A leaf's layout over ``mesh`` that splits no dimension over an Explicit axis (the partitioner's choice)."""
    return lambda leaf: NamedSharding(mesh, PartitionSpec(*[None] * get_aval(leaf).ndim))


def _concrete_or(mesh: AbstractMesh) -> Mesh | AbstractMesh:
    concrete = get_mesh()
    return mesh if concrete.empty else concrete


def auto_axes(f: Callable | None = None, /, *, axes: Any = None, out_sharding: Any = None) -> Callable:
    """``f`` run with the mesh axes ``axes`` (default: all) of type Auto, its results laid out as
    ``out_sharding`` (NamedShardings, or PartitionSpecs over the current mesh; a pytree prefix of the results)."""
    if f is None:
        return lambda g: auto_axes(g, axes=axes, out_sharding=out_sharding)

    @functools.wraps(f)
    def wrapped(*args, **kwargs):
        if out_sharding is None:
            raise TypeError("Missing required keyword argument: 'out_sharding'")
        mesh = get_abstract_mesh()
        if mesh.empty:
            return f(*args, **kwargs)
        if core.evaluates_eagerly(tree.tree_leaves((args, kwargs))):
            return jit(wrapped)(*args, **kwargs)
        inner = mesh.update_axis_types({name: AxisType.Auto for name in _named_axes(axes, mesh)})
        args, kwargs = _reshard_all((args, kwargs), _open_layout(inner), only_traced=True)
        with use_abstract_mesh(inner):
            outs = f(*args, **kwargs)
        target = tree.tree_map(lambda s: _over_mesh(s, _concrete_or(mesh)), out_sharding,
                               is_leaf=lambda s: isinstance(s, PartitionSpec))
        return _reshard_all(outs, target)

    return wrapped


def explicit_axes(f: Callable | None = None, /, *, axes: Any = None, in_sharding: Any = None) -> Callable:
    """``f`` run with the mesh axes ``axes`` (default: all) of type Explicit, its arguments laid out as
    ``in_sharding`` (NamedShardings, or PartitionSpecs over the current mesh; a pytree prefix of the arguments)."""
    if f is None:
        return lambda g: explicit_axes(g, axes=axes, in_sharding=in_sharding)

    @functools.wraps(f)
    def wrapped(*args, **kwargs):
        if in_sharding is None:
            raise TypeError("Missing required keyword argument: 'in_sharding'")
        mesh = get_abstract_mesh()
        if mesh.empty:
            return f(*args, **kwargs)
        if core.evaluates_eagerly(tree.tree_leaves((args, kwargs))):
            return jit(wrapped)(*args, **kwargs)
        inner = mesh.update_axis_types({name: AxisType.Explicit for name in _named_axes(axes, mesh)})
        target = tree.tree_map(lambda s: _over_mesh(s, _concrete_or(mesh)), in_sharding,
                               is_leaf=lambda s: isinstance(s, PartitionSpec))
        args = _reshard_all(args, target)
        with use_abstract_mesh(inner):
            outs = f(*args, **kwargs)
        return _reshard_all(outs, _open_layout(mesh), only_traced=True)

    return wrapped
