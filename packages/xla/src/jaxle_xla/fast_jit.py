"""Cached jitted calls run by jaxlib's C++ dispatch (``PjitFunction``), as JAX runs them.

Core's ``JitWrapped`` asks for one dispatcher per function and trace context (``jit.fast_dispatch``). A call
C++ has a compiled signature for (arrays, NumPy values, Python scalars in tuples, lists, dicts) runs without
Python; every other call comes back through ``cache_miss`` to core's path, whose result is returned, with what C++
needs to run that signature from then on when the call ran one plain ``Executable``: one device, no donation,
no host callbacks, no hoisted constants, no extended-dtype outputs. Arguments and outputs are flattened with
jaxle_tree's mirror of its registrations in jaxlib's registry.
"""

from __future__ import annotations

from typing import Any

import jaxle_tree as tree
from jaxle_core import config
from jaxle_core.extended import physical_aval
from jaxle_core.jit import JitWrapped, set_fast_dispatch
from jaxle_core.pmap import set_fast_dispatch as set_pmap_fast_dispatch
from jaxle_tree.accelerator import jaxlib_registry
from jaxle_xla import _jaxlib, transfer_guard
from jaxle_xla.array import XlaArray
from jaxle_xla.executable import Executable
from jaxle_xla.spmd import FollowShardings, SpmdExecutable, SpmdFunction

__all__ = ["dispatcher", "pmap_dispatcher"]


def _output_treedef(out_tree: Any, n_out: int) -> Any:
    """jaxlib's tree structure of the outputs, or None where it cannot have it."""
    placeholders = [object() for _ in range(n_out)]
    try:
        return _jaxlib.output_treedef(_REGISTRY, out_tree.unflatten(placeholders), placeholders)
    except Exception:  # a custom node's unflatten refusing placeholders: core's path serves it
        return None


def _fast_path_data(executable: Executable, treedef: Any, n_out: int, committed: bool) -> Any:
    """What C++ dispatch needs to run ``executable``'s signature on one device."""
    sharding = _jaxlib.sharding_for(executable.device)
    kept = executable.keep
    n_kept = sum(kept)
    return _jaxlib.FastPathData(executable.loaded, treedef, [sharding] * n_kept, [sharding] * n_out,
                                list(executable.out_avals), [committed] * n_out, list(kept), [None] * n_kept, [])


def _partitioned_fast_path_data(executable: SpmdExecutable, treedef: Any, flat: list) -> Any:
    """What C++ dispatch needs to run a partitioned compilation's signature, or None unless every argument it reads
    is an array laid out over the devices exactly as the program reads it (C++ keys later calls by the arguments'
    layouts, and passes their buffers as they are: anything else must keep taking core's path)."""
    kept = executable.keep
    args = [x for x, k in zip(flat, kept) if k]
    if len(flat) != len(kept) or not all(type(x) is XlaArray and x._committed
                                         and _jaxlib.same_gspmd_layout(x._sharding, layout)
                                         for x, layout in zip(args, executable.in_layouts)):
        return None
    n_out = len(executable.out_avals)
    return _jaxlib.FastPathData(executable.loaded, treedef, list(executable.in_layouts),
                                executable.out_layouts[:n_out], [physical_aval(a) for a in executable.out_avals],
                                [True] * n_out, list(kept), [None] * len(args), [])


def _compilation_that_ran(executable: Any, outs: list) -> Executable | SpmdExecutable | None:
    """The compiled program a call on core's path just ran through a jitted function's ``executable`` (None where
    it is not one C++ can run): a partitioned one, or the one device's (found by where the outputs are)."""
    if type(executable) is SpmdFunction:
        return executable.last
    if type(executable) is FollowShardings:
        if executable.last is not None:
            return executable.last
        if not outs or type(outs[0]) is not XlaArray:
            return None
        return executable.per_device.compiled_for(_jaxlib.buffer_device(outs[0]))
    return executable if type(executable) is Executable else None


def dispatcher(wrapped: JitWrapped) -> Any:
    """jaxlib's C++ dispatch for ``wrapped`` in the current trace context, or None where it does not apply
    (several devices, donation, a device, backend or shardings named, negative static argument numbers)."""
    if (transfer_guard.armed or wrapped.donate_argnums or wrapped.donate_argnames
            or wrapped.device is not None or wrapped.backend is not None
            or any(i < 0 for i in wrapped.static_argnums)):
        return None
    # (id of the cache entry, committed) -> (entry, its fast path data); (id of the entry, a partitioned
    # compilation) -> (entry, the outputs' tree structure)
    remembered: dict[tuple, Any] = {}

    def cache_miss(*args: Any, **kwargs: Any) -> tuple[Any, Any, bool]:
        result, entry = wrapped.call_entry(args, kwargs)
        if entry is None or transfer_guard.armed:
            return result, None, False
        outs = [result] if entry.single_output else entry.out_tree.flatten_up_to(result)
        executable = _compilation_that_ran(entry.executable, outs)
        if executable is None or not executable.cpp_dispatchable:
            return result, None, False
        if type(executable) is SpmdExecutable:
            known = remembered.get((id(entry), executable))
            if known is None:
                known = remembered[(id(entry), executable)] = (entry, _output_treedef(entry.out_tree, len(outs)))
            if known[1] is None:
                return result, None, False
            flat = tree.tree_leaves(wrapped._split_static(args, kwargs)[0])
            return result, _partitioned_fast_path_data(executable, known[1], flat), False
        committed = bool(outs) and outs[0]._committed
        key = (id(entry), committed, executable)
        known = remembered.get(key)
        if known is None:
            treedef = _output_treedef(entry.out_tree, len(outs))
            known = remembered[key] = (entry, None if treedef is None else
                                       _fast_path_data(executable, treedef, len(outs), committed))
        return result, known[1], False

    return _jaxlib.fast_jit(wrapped.__name__, cache_miss, wrapped.static_argnums, wrapped.static_argnames,
                            0, _REGISTRY)


def pmap_dispatcher(name: str, call_entry: Any) -> Any:
    """jaxlib's C++ dispatch of a pmapped function's cached calls (``pmap.fast_dispatch``): a call whose arguments
    are arrays laid out as its partitioned program reads them runs that program directly, its arguments flattened
    and keyed (tree structure, types, layouts) in C++; any other goes to ``call_entry`` (pmap's Python path)."""
    if transfer_guard.armed:
        return None
    structures: dict[tuple, Any] = {}  # (id of the inner jit's cache entry, compilation) -> (entry, out treedef)

    def cache_miss(*args: Any, **kwargs: Any) -> tuple[Any, Any, bool]:
        result, entry, flat = call_entry(args, kwargs)
        if entry is None or transfer_guard.armed:
            return result, None, False
        outs = [result] if entry.single_output else entry.out_tree.flatten_up_to(result)
        executable = _compilation_that_ran(entry.executable, outs)
        if type(executable) is not SpmdExecutable or not executable.cpp_dispatchable:
            return result, None, False
        known = structures.get((id(entry), executable))
        if known is None:
            known = structures[(id(entry), executable)] = (entry, _output_treedef(entry.out_tree, len(outs)))
        if known[1] is None:
            return result, None, False
        return result, _partitioned_fast_path_data(executable, known[1], flat), False

    return _jaxlib.fast_jit(name, cache_miss, (), (), 0, _REGISTRY)


# jaxle_tree's mirror of every registration in jaxlib's registry (custom nodes included); without it (jaxle_tree's
# pure-Python path) only built-in containers, so calls with custom nodes take core's path.
_REGISTRY = jaxlib_registry() or _jaxlib.builtin_pytree_registry


def _mirror_x64(_value: Any) -> None:
    local = config.enable_x64._local.value
    _jaxlib.set_x64(config.enable_x64._global, None if local is config._UNSET else local)


def _stop(_value: Any) -> None:
    """A transfer guard must see every transfer: jitted calls take core's path from now on."""
    if transfer_guard.armed:
        set_fast_dispatch(None)
        set_pmap_fast_dispatch(None)


config.config.add_observer("jax_enable_x64", _mirror_x64)
_mirror_x64(None)
for _name in ("jax_transfer_guard", "jax_transfer_guard_host_to_device"):
    config.config.add_observer(_name, _stop)
if not transfer_guard.armed:
    set_fast_dispatch(dispatcher, (_jaxlib.XlaRuntimeError,))
    set_pmap_fast_dispatch(pmap_dispatcher)
