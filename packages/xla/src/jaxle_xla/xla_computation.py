"""``xla_computation``: the XLA HLO computation of a function, kept from JAX's older API.

JAX has since replaced it with ``jax.jit(f).lower(*args).compiler_ir('hlo')``;
jaxle keeps it (with a ``DeprecationWarning`` naming that replacement) so that
programs written against the older API still run. The function is traced to a
jaxpr (arguments may be anything with ``shape`` and ``dtype``), lowered to
StableHLO, and converted to HLO by jaxlib. With ``axis_env`` the program runs
replicated, one replica per position of the named axes (row-major), as the
older ``pmap`` compiled it: a collective over some of the axes communicates
between the replicas that differ only along them.
"""

from __future__ import annotations

import contextlib
import functools
import warnings
from collections.abc import Callable, Sequence
from typing import Any

import jaxle_tree as tree
from jaxle_core import core
from jaxle_core.avals import ShapeDtypeStruct
from jaxle_core.jit import jit
from jaxle_core.mesh import AbstractMesh
from jaxle_xla import _jaxlib
from jaxle_xla.lowering.module import lower_module
from jaxle_xla.lowering.shard_map import ManualRegion

__all__ = ["xla_computation"]

_REPLACEMENT = "jax.jit(fun).lower(*args).compiler_ir('hlo')"


def _argnums(argnums: int | Sequence[int]) -> tuple[int, ...]:
    return (argnums,) if isinstance(argnums, int) else tuple(argnums)


def _replica_region(axis_env: Sequence[tuple[Any, int]]) -> ManualRegion | None:
    if not axis_env:
        return None
    names, sizes = zip(*axis_env)
    return ManualRegion(AbstractMesh(tuple(sizes), tuple(names)), replicas=True)


def xla_computation(fun: Callable, static_argnums: int | Sequence[int] = (), axis_env: Any = None,
                    in_parts: Any = None, out_parts: Any = None, backend: str | None = None,
                    tuple_args: bool = False, instantiate_const_outputs: Any = None, return_shape: bool = False,
                    donate_argnums: int | Sequence[int] = ()) -> Callable[..., Any]:
    """A function that, given example arguments, returns ``fun``'s XLA computation (``as_hlo_text()``,
    ``as_hlo_module()``, ``as_hlo_dot_graph()``, ...), and with ``return_shape`` also its outputs'
    ``ShapeDtypeStruct``s. Deprecated: use ``jax.jit(fun).lower(*args).compiler_ir('hlo')``."""
    warnings.warn(f"jax.xla_computation is deprecated and kept from JAX's older API; use {_REPLACEMENT}",
                  DeprecationWarning, stacklevel=2)
    core.check_callable(fun)
    if in_parts is not None or out_parts is not None:
        raise ValueError("jaxle: xla_computation's in_parts and out_parts (sharded_jit's partitioning) are not "
                         "supported; use jax.jit with in_shardings and out_shardings")
    axis_env = tuple(axis_env or ())
    jitted = jit(fun, static_argnums=_argnums(static_argnums), donate_argnums=_argnums(donate_argnums),
                 backend=backend)
    name = getattr(fun, "__name__", "fun")

    @functools.wraps(fun)
    def computation_maker(*args: Any, **kwargs: Any) -> Any:
        with contextlib.ExitStack() as frames:
            for axis_name, size in axis_env:
                frames.enter_context(core.extend_axis_env(axis_name, size))
            traced = jitted.trace(*args, **kwargs)
        closed = traced.jaxpr
        module = lower_module(closed, name, traced._donated, replica_region=_replica_region(axis_env),
                              kind="xla_computation")
        built = _jaxlib.hlo_computation(module.text, tuple_args=tuple_args, return_tuple=True)
        if not return_shape:
            return built
        shapes = [ShapeDtypeStruct(a.shape, a.dtype, weak_type=a.weak_type) for a in closed.out_avals]
        return built, tree.tree_unflatten(traced.out_tree, shapes)

    return computation_maker
