"""Jitted functions are jaxlib's C++ ``PjitFunction``s, as JAX's are: cached calls run without Python.

``jit(f)`` returns a ``PjitFunction`` (see ``jit.backend_jit``); C++ resolves negative static argument numbers per
call, as core does. A call C++ has a compiled signature for (arrays, NumPy values, Python scalars in tuples, lists,
dicts) runs without Python; every other call comes back through ``cache_miss`` to core's path
(``JitWrapped.call_entry``), whose result is returned, with what C++ needs to run that signature from then on when
the call ran a compilation C++ can run (one device's ``Executable``, donating or not, or a partitioned one whose
arguments are laid out as it reads them and that donates none; no host callbacks, no hoisted constants, no
extended-dtype outputs) and no transformation is running. A function given a device or a backend runs in C++ the
calls whose arrays are on that device already; one given compiler_options runs every call on core's path.

C++ keys each call by jaxlib ``Config``s that mirror what core keys its caches by, each thread's overrides
included: every flag of the trace context, and whether this thread may run cached calls at all
(``jit.runs_cached_calls``: no transformation or backward rule running, no execution check or transfer guard armed).
Arguments and outputs are flattened with jaxle_tree's mirror of its registrations in jaxlib's registry.
"""

from __future__ import annotations

import functools
import weakref
from typing import Any

import jaxle_tree as tree
from jaxle_core import config, core, execution_checks
from jaxle_core.jit import JitWrapped, runs_cached_calls, set_backend_jit
from jaxle_core.pmap import set_fast_dispatch as set_pmap_fast_dispatch
from jaxle_tree.accelerator import dispatch_registry
from jaxle_xla import _jaxlib, layout_meshes, transfer_guard
from jaxle_xla.array import XlaArray
from jaxle_xla.executable import Executable
from jaxle_xla.spmd import FollowShardings, SpmdExecutable, SpmdFunction

__all__ = ["jitted_function", "pmap_dispatcher"]


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
                                list(executable.result_avals), [committed] * n_out, list(kept),
                                _expected_layouts(executable, n_kept), [])


def _expected_layouts(executable: Executable | SpmdExecutable, n_kept: int) -> list:
    """The layouts C++ dispatch compares the ``n_kept`` arguments a program reads with (copying one that differs):
    none while every array is row-major."""
    if not _jaxlib.custom_layouts_in_use:
        return [None] * n_kept
    return [_jaxlib.ExpectedLayout(layout) for layout in executable.layouts()[0] if layout is not None]


def _partitioned_fast_path_data(executable: SpmdExecutable, treedef: Any, flat: list,
                                named_by_arguments: bool = True) -> Any:
    """What C++ dispatch needs to run a partitioned compilation's signature, or None unless every argument it reads
    is an array laid out over the devices exactly as the program reads it (C++ keys later calls by the arguments'
    layouts, and passes their buffers as they are: anything else must keep taking core's path). Where results are
    named over the arguments' mesh (a jit's; a pmap's are over its own), no argument may be of a layout seen over
    several meshes."""
    kept = executable.keep
    args = [x for x, k in zip(flat, kept) if k]
    if len(flat) != len(kept) or not all(type(x) is XlaArray and x._committed
                                         and _jaxlib.same_gspmd_layout(x._sharding, layout)
                                         and not (named_by_arguments and layout_meshes.ambiguous(x._sharding))
                                         for x, layout in zip(args, executable.in_layouts)):
        return None
    n_out = len(executable.out_avals)
    return _jaxlib.FastPathData(executable.loaded, treedef, list(executable.in_layouts),
                                executable.out_layouts[:n_out], list(executable.result_avals),
                                [True] * n_out, list(kept), _expected_layouts(executable, len(args)), [])


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


def _all_on(device: Any, leaves: list) -> bool:
    """Whether every array among ``leaves`` is on ``device`` (NumPy values and Python scalars are on none)."""
    return all(_jaxlib.buffer_device(x) == device for x in leaves if type(x) is XlaArray)


def jitted_function(wrapped: JitWrapped) -> Any:
    """A ``PjitFunction`` for ``wrapped`` (carrying its name, docstring, ``__wrapped__`` and ``_jaxle_jit``)."""
    # Programs compiled with compiler_options (on a call of new layouts too) need core's path on every call. A
    # program placed by jit's device or backend rather than by its arguments runs in C++ only for calls whose arrays
    # are on its device already (C++ keys calls by where their arrays are; core's path moves the others).
    runnable = not wrapped.compiler_options
    placed = wrapped.device is not None or wrapped.backend is not None
    # (id of the cache entry, committed) -> (entry, its fast path data); (id of the entry, a partitioned
    # compilation) -> (entry, the outputs' tree structure)
    remembered: dict[tuple, Any] = {}

    def cache_miss(*args: Any, **kwargs: Any) -> tuple[Any, Any, bool]:
        result, entry = wrapped.call_entry(args, kwargs)
        if entry is None or not runnable or transfer_guard.armed or not runs_cached_calls():
            return result, None, False
        outs = [result] if entry.single_output else entry.out_tree.flatten_up_to(result)
        executable = _compilation_that_ran(entry.executable, outs)
        if executable is None or not executable.cpp_dispatchable:
            return result, None, False
        if placed and (type(executable) is not Executable or not _all_on(
                executable.device, tree.tree_leaves(wrapped._split_static(args, kwargs)[0]))):
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
        # made again once arrays of other layouts exist (its arguments' layouts then compared)
        key = (id(entry), committed, executable, _jaxlib.custom_layouts_in_use)
        known = remembered.get(key)
        if known is None:
            treedef = _output_treedef(entry.out_tree, len(outs))
            known = remembered[key] = (entry, None if treedef is None else
                                       _fast_path_data(executable, treedef, len(outs), committed))
        return result, known[1], False

    function = _jaxlib.pjit_function(wrapped.__name__, wrapped.fun, cache_miss, wrapped.static_argnums,
                                     wrapped.static_argnames, _REGISTRY)
    _JITTED.add(function)
    functools.update_wrapper(function, wrapped.fun)
    function.__name__ = wrapped.__name__
    function._jaxle_jit = wrapped
    return function


# every jitted function's C++ dispatch, whose entries are forgotten when a layout is seen over a second mesh
_JITTED: weakref.WeakSet = weakref.WeakSet()


def _forget_jitted_entries() -> None:
    for function in list(_JITTED):
        function._clear_cache()


layout_meshes.forget_entries = _forget_jitted_entries


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
        return result, _partitioned_fast_path_data(executable, known[1], flat, named_by_arguments=False), False

    return _jaxlib.pjit_function(name, None, cache_miss, (), (), _REGISTRY)


# jaxle_tree's mirror of every registration in jaxlib's registry for dispatch (custom nodes included, and arrays of
# extended dtypes as nodes over their physical data); without it (jaxle_tree's pure-Python path) only built-in
# containers, so calls with custom nodes or keys take core's path.
_REGISTRY = dispatch_registry() or _jaxlib.builtin_pytree_registry


# ---------------------------------------------------------------- what JitWrapped offers, on PjitFunction


def _lower(self: Any, *args: Any, **kwargs: Any) -> Any:
    """The lowered stage for these arguments (see ``JitWrapped.lower``)."""
    return self._jaxle_jit.lower(*args, **kwargs)


def _trace(self: Any, *args: Any, **kwargs: Any) -> Any:
    """The traced stage for these arguments (see ``JitWrapped.trace``)."""
    return self._jaxle_jit.trace(*args, **kwargs)


def _eval_shape(self: Any, *args: Any, **kwargs: Any) -> Any:
    """The outputs' shapes and dtypes for these arguments (see ``JitWrapped.eval_shape``)."""
    return self._jaxle_jit.eval_shape(*args, **kwargs)


def _clear_cache(self: Any) -> None:
    """Forget this function's traced jaxprs, compiled executables and C++ cache entries."""
    self._jaxle_jit.clear_cache()
    self._clear_cache()


_jaxlib.PjitFunction.lower = _lower
_jaxlib.PjitFunction.trace = _trace
_jaxlib.PjitFunction.eval_shape = _eval_shape
_jaxlib.PjitFunction.clear_cache = _clear_cache
_jaxlib.PjitFunction.trace_count = property(lambda self: self._jaxle_jit.trace_count,
                                            doc="How many times the function was traced.")


# ---------------------------------------------------------------- the C++ cache key mirrors core's

# The jaxlib Config mirroring each flag of the trace context, made on its first change (until then the flag keeps the
# value every cached call saw, and each Config read costs every call): x64 also decides how C++ keys and transfers
# Python scalars and NumPy values; while jit is disabled C++ calls the function itself, as core does.
_flag_mirrors: dict[config.Flag, Any] = {config.enable_x64: _jaxlib.X64, config.disable_jit: _jaxlib.DISABLE_JIT}


def _mirror_flag(flag: config.Flag) -> None:
    mirror = _flag_mirrors.get(flag)
    if mirror is None:
        mirror = _flag_mirrors[flag] = _jaxlib.jit_key_config(f"jaxle_{flag.name}", flag.value)
    _jaxlib.mirror(mirror, *flag.global_and_override(_jaxlib.UNSET))


# Whether C++ may run cached calls in this thread: False while core would not run a cached executable as it is.
_RUNS_CACHED = _jaxlib.jit_key_config("jaxle_runs_cached_calls", True)


def _mirror_dispatch_state() -> None:
    _RUNS_CACHED.set_local(_jaxlib.UNSET if runs_cached_calls() else False)


def _mirror_armed(_value: Any = None) -> None:
    """An armed transfer guard must see every transfer and an armed execution check every result: C++ runs no
    cached call from then on (core's path does the checking; pmap's calls take its Python path)."""
    _RUNS_CACHED.set_global(not (transfer_guard.armed or execution_checks.armed))
    _mirror_dispatch_state()
    if transfer_guard.armed:
        set_pmap_fast_dispatch(None)


for _flag in (config.enable_x64, config.disable_jit):
    _mirror_flag(_flag)
config.config.add_trace_context_observer(_mirror_flag)
core.dispatch_state_observer = _mirror_dispatch_state
for _name in ("jax_transfer_guard", "jax_transfer_guard_host_to_device", *execution_checks.FLAGS):
    config.config.add_observer(_name, _mirror_armed)
_mirror_armed()
set_backend_jit(jitted_function)
if not transfer_guard.armed:
    set_pmap_fast_dispatch(pmap_dispatcher, (_jaxlib.XlaRuntimeError,))
