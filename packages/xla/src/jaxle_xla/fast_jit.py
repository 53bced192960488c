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

from jaxle_core import config
from jaxle_core.jit import JitWrapped, set_fast_dispatch
from jaxle_tree.accelerator import jaxlib_registry
from jaxle_xla import _jaxlib, clients, transfer_guard
from jaxle_xla.executable import Executable

__all__ = ["dispatcher"]


def _fast_path_data(executable: Executable, out_tree: Any, outs: list, committed: bool) -> Any:
    """What C++ dispatch needs to run ``executable``'s signature, or None where it cannot."""
    placeholders = [object() for _ in outs]
    try:
        treedef = _jaxlib.output_treedef(_REGISTRY, out_tree.unflatten(placeholders), placeholders)
    except Exception:  # a custom node's unflatten refusing placeholders: core's path serves it
        return None
    if treedef is None:
        return None
    sharding = _jaxlib.sharding_for(executable.device)
    kept = executable.keep
    n_kept, n_out = sum(kept), len(outs)
    return _jaxlib.FastPathData(executable.loaded, treedef, [sharding] * n_kept, [sharding] * n_out,
                                list(executable.out_avals), [committed] * n_out, list(kept), [None] * n_kept, [])


def dispatcher(wrapped: JitWrapped) -> Any:
    """jaxlib's C++ dispatch for ``wrapped`` in the current trace context, or None where it does not apply
    (several devices, donation, a device, backend or shardings named, negative static argument numbers)."""
    if (transfer_guard.armed or not clients.has_one_device() or wrapped.donate_argnums or wrapped.donate_argnames
            or wrapped.device is not None or wrapped.backend is not None
            or wrapped.in_shardings is not None or wrapped.out_shardings is not None
            or any(i < 0 for i in wrapped.static_argnums)):
        return None
    remembered: dict[tuple, Any] = {}  # (id of the cache entry, committed) -> (entry, its fast path data)

    def cache_miss(*args: Any, **kwargs: Any) -> tuple[Any, Any, bool]:
        result, entry = wrapped.call_entry(args, kwargs)
        executable = None if entry is None else entry.executable
        if type(executable) is not Executable or not executable.cpp_dispatchable or transfer_guard.armed:
            return result, None, False
        outs = [result] if entry.single_output else entry.out_tree.flatten_up_to(result)
        committed = bool(outs) and outs[0]._committed
        key = (id(entry), committed)
        known = remembered.get(key)
        if known is None:
            known = remembered[key] = (entry, _fast_path_data(executable, entry.out_tree, outs, committed))
        return result, known[1], False

    return _jaxlib.fast_jit(wrapped.__name__, cache_miss, wrapped.static_argnums, wrapped.static_argnames,
                            0, _REGISTRY)


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


config.config.add_observer("jax_enable_x64", _mirror_x64)
_mirror_x64(None)
for _name in ("jax_transfer_guard", "jax_transfer_guard_host_to_device"):
    config.config.add_observer(_name, _stop)
if not transfer_guard.armed:
    set_fast_dispatch(dispatcher, (_jaxlib.XlaRuntimeError,))
